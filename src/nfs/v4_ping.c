/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_ping.c - the sfs_ping loop over NFSv4 (nf_ping.h): the object found
 * through the client (READDIR of the export root, LOOKUP), a READ's file
 * OPENed first as clients do (4.1), then the calls kept in flight through
 * the NFSv4 client - each slot's compound built and encoded once and
 * started again and again, SEQUENCE refilled by the client - and counted
 * by ping.c.
 */
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "nfs/nf_ping.h"

#define READ_BYTES  8192u /* one SFS block */
#define SCAN_NAMES  16    /* root entries looked at for a regular file */
#define NAMES_BYTES 4096u

struct nf4_ping_slot {
    struct nf4_call call;
    struct rp_call null;
    struct nf_ping *p;
    char rbuf[READ_BYTES];
};

/* ---- finding what to operate on ---------------------------------------------- */

/* LOOKUP name in the export root: its handle and type. */
static int lookup_name(struct nf_ping *p, struct nf4_call *call, const char *name,
                       uint32_t *type, char *err, size_t errlen)
{
    const struct nf4_resop *fh, *at;
    int rc;

    nf4_compound_init(&call->args, nf4_client_minor(p->cl4), 0);
    nf4_op_putfh(&call->args, &p->target4);
    nf4_op_lookup(&call->args, name);
    nf4_op_getfh(&call->args);
    nf4_op_getattr(&call->args, NF4_MASK_TYPE);
    rc = nf4_call_sync(p->cl4, call);
    if (rc < 0)
        return cm_errf(err, errlen, "LOOKUP %s: %s", name, nf4_client_last_error(p->cl4)),
               rc;
    if (call->res.status != NFS4_OK)
        return cm_errf(err, errlen, "LOOKUP %s: %s", name,
                       nf4_status_name(call->res.status)),
               -ENOENT;
    fh = nf4_res_find(&call->res, OP_GETFH, 0);
    at = nf4_res_find(&call->res, OP_GETATTR, 0);
    if (!fh || !at)
        return cm_errf(err, errlen, "LOOKUP %s: no handle in the reply", name), -EPROTO;
    p->target4 = fh->u.getfh;
    *type = at->u.getattr.type;
    return 0;
}

/* The names of the export root's first entries (one READDIR), NUL-
 * separated in buf; returns their number or -errno. */
static int root_names(struct nf_ping *p, struct nf4_call *call, char *buf, char *err,
                      size_t errlen)
{
    const struct nf4_resop *rd;
    uint32_t i, n;

    nf4_compound_init(&call->args, nf4_client_minor(p->cl4), 0);
    nf4_op_putfh(&call->args, &p->target4);
    nf4_op_readdir(&call->args, 0, NULL, NAMES_BYTES, NAMES_BYTES, NF4_MASK_TYPE);
    call->res.data = buf;
    call->res.data_max = NAMES_BYTES;
    if (nf4_call_sync(p->cl4, call) != 0 || call->res.status != NFS4_OK ||
        !(rd = nf4_res_find(&call->res, OP_READDIR, 0)))
        return cm_errf(err, errlen, "READDIR of the export root failed (%s)",
                       call->status ? nf4_client_last_error(p->cl4)
                                    : nf4_status_name(call->res.status)),
               -EIO;
    call->res.data = NULL;
    for (i = n = 0; i < rd->u.readdir.names_len; i++) /* the names that fit */
        n += buf[i] == '\0';
    return (int)n;
}

/* Finds cfg.name (or, without one, the first entry of the export root -
 * for READ the first regular file) and points target4 at it. */
static int find_target(struct nf_ping *p, struct nf4_call *call, char *err, size_t errlen)
{
    char names[NAMES_BYTES];
    const struct nf4_fh root = p->target4;
    const char *name = names;
    uint32_t type = 0;
    int n, i, rc;

    if (p->cfg.name[0])
        return lookup_name(p, call, p->cfg.name, &type, err, errlen);
    n = root_names(p, call, names, err, errlen);
    for (i = 0; i < n && i < SCAN_NAMES; i++, name += strlen(name) + 1) {
        if (strlen(name) >= sizeof(p->cfg.name))
            continue;
        p->target4 = root;
        rc = lookup_name(p, call, name, &type, err, errlen);
        if (rc == 0 && (p->cfg.op != NF_PING_READ || type == NF4REG)) {
            snprintf(p->cfg.name, sizeof(p->cfg.name), "%.255s", name);
            return 0;
        }
    }
    p->target4 = root;
    if (n < 0)
        return n;
    return cm_errf(err, errlen,
                   p->cfg.op == NF_PING_READ
                       ? "no regular file in the first entries of the export root to "
                         "read (name one with -n)"
                       : "the export root is empty: name something to look up with -n");
}

/* OPEN of the READ's file (4.1; 4.0 reads with the anonymous stateid:
 * its opens need an owner sequence FreeSFS does not keep). */
static int open_target(struct nf_ping *p, struct nf4_call *call, const struct nf4_fh *dir,
                       char *err, size_t errlen)
{
    const struct nf4_resop *o;

    memset(&p->sid4, 0, sizeof(p->sid4));
    if (nf4_client_minor(p->cl4) == 0)
        return 0;
    nf4_compound_init(&call->args, 1, 0);
    nf4_op_putfh(&call->args, dir);
    nf4_op_open(&call->args, p->cfg.name, 0, NULL);
    nf4_op_getfh(&call->args);
    if (nf4_call_sync(p->cl4, call) != 0 || call->res.status != NFS4_OK ||
        !(o = nf4_res_find(&call->res, OP_OPEN, 0)))
        return cm_errf(err, errlen, "OPEN %s: %s", p->cfg.name,
                       call->status ? nf4_client_last_error(p->cl4)
                                    : nf4_status_name(call->res.status)),
               -EIO;
    p->sid4 = o->u.open.stateid;
    p->opened4 = 1;
    return 0;
}

int nf4_ping_prepare(struct nf_ping *p, const struct nf_ping_cfg *cfg,
                     const struct nf4_mount *m4, struct nf4_client *cl, char *err,
                     size_t errlen)
{
    struct nf4_call *call;
    int rc = 0;

    memset(p, 0, sizeof(*p));
    p->cfg = *cfg;
    p->m = &m4->m;
    p->cl4 = cl;
    p->c = nf4_client_rpc(cl);
    p->version = 4;
    p->target4 = m4->root;
    if (p->cfg.op != NF_PING_LOOKUP && p->cfg.op != NF_PING_READ)
        return p->cfg.op == NF_PING_GETATTR || p->cfg.op == NF_PING_NULL
                   ? 0
                   : cm_errf(err, errlen, "unknown ping op %d", p->cfg.op);
    call = cm_calloc(1, sizeof(*call));
    if (!call)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    rc = find_target(p, call, err, errlen);
    if (rc == 0 && p->cfg.op == NF_PING_LOOKUP)
        p->target4 = m4->root; /* the name is looked up in the root */
    if (rc == 0 && p->cfg.op == NF_PING_READ)
        rc = open_target(p, call, &m4->root, err, errlen);
    free(call);
    return rc;
}

/* ---- the loop ------------------------------------------------------------------- */

static void slot_done(struct nf4_call *call, void *data);
static void null_done(struct rp_call *call, void *data);

/* The compound of a slot: built once, started again on every completion. */
static void build(struct nf4_ping_slot *s)
{
    struct nf_ping *p = s->p;
    struct nf4_compound *c = &s->call.args;

    nf4_compound_init(c, nf4_client_minor(p->cl4), 0);
    nf4_op_putfh(c, &p->target4);
    switch (p->cfg.op) {
    case NF_PING_LOOKUP:
        nf4_op_lookup(c, p->cfg.name);
        nf4_op_getfh(c);
        nf4_op_getattr(c, NF4_MASK_GETATTR);
        break;
    case NF_PING_READ:
        nf4_op_read(c, &p->sid4, 0, READ_BYTES);
        break;
    default:
        nf4_op_getattr(c, NF4_MASK_GETATTR);
        break;
    }
    nf4_compound_keep(c); /* the same compound at every send */
    s->call.res.data = s->rbuf;
    s->call.res.data_max = sizeof(s->rbuf);
    s->call.done = slot_done;
    s->call.data = s;
    s->call.timeout_ms = p->cfg.timeout_ms;
}

static int slot_start(struct nf4_ping_slot *s)
{
    struct nf_ping *p = s->p;
    int rc;

    if (p->cfg.op == NF_PING_NULL) {
        rp_call_prepare(&s->null, 0, (xdrproc_t)rp_xdr_void, NULL, (xdrproc_t)rp_xdr_void,
                        NULL,
                        p->cfg.timeout_ms ? p->cfg.timeout_ms
                                          : nf_class_timeout_ms(NF_CLASS_LOOKUP, 1),
                        null_done, s);
        rc = rp_call_start(p->c, &s->null);
    } else {
        rc = nf4_call_start(p->cl4, &s->call);
    }
    if (rc == 0)
        p->started++;
    return rc;
}

static void next(struct nf4_ping_slot *s)
{
    struct nf_ping *p = s->p;

    if (p->started < p->cfg.count && slot_start(s) < 0)
        p->cfg.count = p->started; /* the client is gone: stop issuing */
}

static void slot_done(struct nf4_call *call, void *data)
{
    struct nf4_ping_slot *s = data;
    struct nf_ping *p = s->p;
    uint64_t us = call->t_reply_ns > call->t_start_ns
                      ? (call->t_reply_ns - call->t_start_ns) / 1000u
                      : 0;

    if (call->status < 0)
        nf__ping_count(p, us,
                       nf4_client_last_error(p->cl4)[0] ? nf4_client_last_error(p->cl4)
                                                        : rp_status_text(call->status),
                       0);
    else
        nf__ping_count(p, us, NULL, call->res.status != NFS4_OK);
    next(s);
}

static void null_done(struct rp_call *call, void *data)
{
    struct nf4_ping_slot *s = data;
    struct nf_ping *p = s->p;

    nf__ping_count(p, rp_call_usec(call),
                   call->status < 0 ? rp_status_text(call->status) : NULL, 0);
    next(s);
}

/* CLOSE of what prepare opened (a courtesy: errors ignored). */
static void close_target(struct nf_ping *p, struct nf4_call *call)
{
    nf4_compound_init(&call->args, 1, 0);
    nf4_op_putfh(&call->args, &p->target4);
    nf4_op_close(&call->args, &p->sid4);
    call->res.data = NULL;
    call->timeout_ms = 0;
    call->done = NULL;
    (void)nf4_call_sync(p->cl4, call);
    p->opened4 = 0;
}

int nf4_ping_run(struct nf_ping *p)
{
    struct nf4_ping_slot *slots = cm_calloc(p->cfg.outstanding, sizeof(*slots));
    unsigned i;
    int rc = 0;

    if (slots == NULL)
        return -ENOMEM;
    for (i = 0; i < p->cfg.outstanding; i++) {
        slots[i].p = p;
        build(&slots[i]);
    }
    nf__ping_clock(p, 0);
    for (i = 0; i < p->cfg.outstanding && p->started < p->cfg.count; i++) {
        rc = slot_start(&slots[i]);
        if (rc < 0)
            break;
    }
    while (rc == 0 && p->completed < p->started) {
        rc = nf4_poll(p->cl4, -1);
        if (rc == -EINTR)
            rc = 0;
        rc = rc > 0 ? 0 : rc;
        nf__ping_check_stop(p);
    }
    nf__ping_clock(p, 1);
    if (p->opened4)
        close_target(p, &slots[0].call);
    free(slots);
    return rc;
}
