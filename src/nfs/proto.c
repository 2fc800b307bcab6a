/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto.c - the list of the NFS protocols FreeSFS speaks (nf_proto.h), in
 * version order and without a gap (the prime's NFS_VERSION takes any
 * version from the first to the last), and the seam's generic helpers: a
 * set of calls with their protocol's storage, a session's mount and close
 * through its hooks, and one call run to its end.
 */
#include <string.h>

#include "common/alloc.h"
#include "common/cm.h"
#include "common/error.h"
#include "nfs/nf_proto.h"

/* NFSv4.1 by name only until its table (proto4) has the hooks: the prime
 * and the programs know it, and no workload runs over it yet (each says
 * the versions it runs over). */
static const struct nf_proto nf_proto_v4_name = {
    .name = "NFSv4.1",
    .prog = "sfs4",
    .version = 4,
    .sfs_ops = 3, /* the SFS 3.0 mix's v3 ops as v4 compounds */
    .tcp_only = 1,
};

static const struct nf_proto *const protos[] = {&nf_proto_v2, &nf_proto_v3,
                                                &nf_proto_v4_name};

const struct nf_proto *nf_proto_nth(size_t i)
{
    return i < CM_ARRAY_LEN(protos) ? protos[i] : NULL;
}

const struct nf_proto *nf_proto_by_version(int version)
{
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(protos); i++)
        if (protos[i]->version == version)
            return protos[i];
    return NULL;
}

const struct nf_proto *nf_proto_by_prog(const char *prog)
{
    size_t i;

    for (i = 0; prog && i < CM_ARRAY_LEN(protos); i++)
        if (strcmp(protos[i]->prog, prog) == 0)
            return protos[i];
    return NULL;
}

void nf_proto_versions(int *lo, int *hi)
{
    *lo = protos[0]->version;
    *hi = protos[CM_ARRAY_LEN(protos) - 1]->version;
}

/* ---- calls and their storage ---------------------------------------------- */

/* The protocol's storage follows the n calls, each call's rounded up so
 * that the next one stays aligned for any type. */
#define ALIGN_TO sizeof(max_align_t)

struct nf_call *nf_calls_alloc(const struct nf_proto *p, size_t n)
{
    size_t head = (n * sizeof(struct nf_call) + ALIGN_TO - 1) / ALIGN_TO * ALIGN_TO;
    size_t each = (p->call_bytes + ALIGN_TO - 1) / ALIGN_TO * ALIGN_TO;
    struct nf_call *c = cm_calloc(1, head + n * each);
    size_t i;

    if (c == NULL)
        return NULL;
    for (i = 0; i < n; i++)
        c[i].pc = (char *)c + head + i * each;
    return c;
}

void nf_calls_free(struct nf_call *calls)
{
    free(calls);
}

/* nf_call_run's done: the call's done is cleared, which ends the wait. */
static void run_done(struct nf_call *c, void *data)
{
    (void)data;
    c->done = NULL;
}

int nf_call_run(struct nf_session *s, struct nf_call *c, const struct nf_op_args *a)
{
    int rc;

    c->done = run_done;
    c->data = NULL;
    rc = nf_call_start(s, c, a);
    if (rc < 0)
        return rc;
    /* the protocol's timeouts complete every call it started, so this ends */
    while (c->done != NULL) {
        rc = nf_session_poll(s, -1);
        if (rc < 0 && rc != -EINTR && c->done != NULL)
            return rc;
    }
    return c->status;
}

/* ---- the session ----------------------------------------------------------- */

int nf_session_mount(struct nf_session *s, const struct nf_proto *p, unsigned in_flight,
                     const char *spec, const struct nf_mount_opts *o, char *err,
                     size_t errlen)
{
    int rc;

    s->proto = p;
    s->in_flight = in_flight;
    if (p->mount == NULL) {
        cm_errf(err, errlen, "%s: no session of this protocol yet", p->name);
        return -EPROTONOSUPPORT;
    }
    rc = p->mount(s, spec, o, err, errlen);
    if (rc < 0)
        return rc;
    if (p->begin && (rc = p->begin(s, err, errlen)) < 0) {
        p->unmount(s);
        return rc;
    }
    return 0;
}

void nf_session_close(struct nf_session *s)
{
    if (s->proto == NULL || s->proto->unmount == NULL)
        return;
    if (s->mounted && s->proto->end)
        s->proto->end(s);
    s->proto->unmount(s);
}
