/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dispatch.c - one RPC call in, one reply out (server layer).  Decodes the
 * ONC RPC call header (RFC 5531) on an xdrmem stream, picks the program and
 * version (NFS v2/v3, MOUNT v1/v3: every port serves all four), takes the
 * procedure's row from the nfs layer's tables (nf.h, the client's own) for
 * the codecs and names, runs the server's handler for it, and encodes the
 * accepted or denied reply.  Fault injection (errors, dropped or delayed
 * replies, --exit-after, --service-us's queue) and the per-procedure
 * counters hook in here so that every transport gets them.
 *
 * Why not libtirpc's svc layer: svc_register binds one dispatch function
 * per (program, version) to transports it owns, its UDP and TCP transports
 * allocate per connection and per call, it has no hook to delay or drop a
 * reply after the handler ran, and svc_run's select() loop cannot be merged
 * with our timers.  A call header is six words plus two opaque_auth, so a
 * small dispatcher on xdrmem is simpler, faster and fully under our control;
 * all argument and result codecs are still rpcgen's.
 */
#include "server/sv_int.h"
#include "server/nfs4_int.h"
#include "nfs2_prot.h"
#include "nfs3_prot.h"
#include "mount_prot.h"
#include "common/alloc.h"
#include "common/bytes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "common/error.h"
#include "common/clock.h"
#include "common/rng.h"

#define RPC_CALL_MSG  0
#define RPC_REPLY_MSG 1
#define RPC_VERS      2

static const struct sv_version *const versions[4] = {
    &sv__nfs2_version, &sv__nfs3_version, &sv__mount1_version, &sv__mount3_version};

/* ---- lifecycle ----------------------------------------------------------- */

struct sv_core *sv_core_create(const struct sv_config *cfg, char *err, size_t errlen)
{
    struct sv_core *c = cm_calloc(1, sizeof(*c));
    uint32_t sec, nsec;
    int i;

    if (c == NULL) {
        cm_errf(err, errlen, "out of memory");
        return NULL;
    }
    /* The instance number goes into every handle and the write verifier:
     * both must change when the server restarts (an in-memory file system
     * forgets everything, so old handles are STALE and unstable writes must
     * be sent again). */
    cm_wall_time(&sec, &nsec);
    c->instance = cfg->instance
                      ? cfg->instance
                      : (uint64_t)sec << 32 ^ (uint64_t)nsec ^ (uint64_t)getpid() << 12;
    for (i = 0; i < 8; i++) /* --write-verf: one that hides restarts */
        c->write_verf[i] =
            (uint8_t)((cfg->fault.write_verf ? (uint64_t)cfg->fault.write_verf
                                             : c->instance) >>
                      (8 * i));
    c->fs = sv__fs_new(cfg->max_bytes, c->instance);
    if (c->fs == NULL) {
        cm_errf(err, errlen, "out of memory");
        free(c);
        return NULL;
    }
    c->fault = cfg->fault;
    c->root_squash = cfg->root_squash;
    c->echo = cfg->echo;
    c->echo_data = cfg->echo_data;
    cm_rng_seed(&c->rng, cfg->fault.seed ? cfg->fault.seed : CM_RNG_DEFAULT_SEED);
    for (i = 0; i < cfg->nexports || (i == 0 && cfg->nexports == 0); i++) {
        const char *path = cfg->nexports ? cfg->exports[i] : "/export";
        struct sv_node *n;
        int st;
        if (path[0] != '/' || strlen(path) > SV_PATH_MAX) {
            cm_errf(err, errlen, "--export %s: not an absolute path", path);
            sv_core_destroy(c);
            return NULL;
        }
        st = sv__fs_mkpath(c->fs, path, &n);
        if (st != 0) {
            cm_errf(err, errlen, "--export %s: cannot create it (status %d)", path, st);
            sv_core_destroy(c);
            return NULL;
        }
        strcpy(c->exports[c->nexports++], path);
    }
    c->v4 = sv4_create(c, cfg);
    if (c->v4 == NULL) {
        cm_errf(err, errlen, "out of memory");
        sv_core_destroy(c);
        return NULL;
    }
    return c;
}

void sv_core_destroy(struct sv_core *c)
{
    if (c == NULL)
        return;
    sv4_destroy(c->v4);
    sv__fs_free(c->fs);
    free(c);
}

int sv_core_exit_requested(const struct sv_core *c)
{
    return c->exit_requested;
}

/* ---- versions ------------------------------------------------------------ */

/* Lowest and highest version offered for prog; 0 when the program is not
 * served.  NFS version 4 is served over TCP only (RFC 7530 3.1: a
 * transport with congestion control), so UDP offers NFS 2..3. */
static int version_range(uint32_t prog, int udp, u_int *low, u_int *high)
{
    *low = ~0u;
    *high = 0;
    for (int i = 0; i < 4; i++) {
        const struct nf_proc_table *t = nf_proc_table(versions[i]->id);
        if (t->prog != prog)
            continue;
        if (t->vers < *low)
            *low = t->vers;
        if (t->vers > *high)
            *high = t->vers;
    }
    if (prog == NFS4_PROGRAM && !udp)
        *high = NFS_V4;
    return *high != 0;
}

static int version_index(uint32_t prog, uint32_t vers)
{
    const struct nf_proc_table *t = nf_proc_table_for(prog, vers);

    for (int i = 0; t != NULL && i < 4; i++)
        if (versions[i]->id == t->id)
            return i;
    return -1;
}

uint64_t sv_core_count(const struct sv_core *c, uint32_t prog, uint32_t vers,
                       uint32_t proc)
{
    int vi = version_index(prog, vers);

    if (prog == NFS4_PROGRAM && vers == NFS_V4)
        return proc == NFSPROC4_NULL ? c->v4->null_calls : sv4_count(c->v4, proc);
    return vi >= 0 && proc < versions[vi]->nhandlers ? c->counts[vi][proc] : 0;
}

/* ---- call header --------------------------------------------------------- */

/* The call header, the credential and the reply header are read and
 * written as words in place (cm_be32_get/put) rather than through a
 * libtirpc call per word: they come with every call, and
 * word by word they cost a fifth of a v3 GETATTR (docs/PERFORMANCE.md,
 * "NFSv4 compounds"). */

/* AUTH_SYS body: stamp, machine name, uid, gid, gids (RFC 5531 9.2).
 * Returns 0, or -1 when the body does not decode (a bad credential). */
static int parse_auth_sys(struct sv_core *c, const uint8_t *body, u_int len)
{
    u_int pos, namelen, ngids;

    if (len < 8)
        return -1;
    namelen = cm_be32_get(body + 4); /* after the stamp */
    if (namelen > 255)
        return -1;
    pos = 8 + ((namelen + 3) & ~3u);
    if (len < pos || len - pos < 12)
        return -1;
    ngids = cm_be32_get(body + pos + 8);
    if (ngids > SV_MAX_GIDS || (len - pos - 12) / 4 < ngids)
        return -1;
    c->cred_uid = cm_be32_get(body + pos);
    c->cred_gid = cm_be32_get(body + pos + 4);
    c->cred_ngids = (int)ngids;
    for (u_int i = 0; i < ngids; i++)
        c->cred_gids[i] = cm_be32_get(body + pos + 12 + 4 * i);
    if (c->root_squash) {
        /* as Linux's root_squash: uid 0 and group 0 become nobody */
        int k = 0;
        if (c->cred_uid == 0)
            c->cred_uid = SV_NOBODY;
        if (c->cred_gid == 0)
            c->cred_gid = SV_NOBODY;
        for (int i = 0; i < c->cred_ngids; i++)
            if (c->cred_gids[i] != 0)
                c->cred_gids[k++] = c->cred_gids[i];
        c->cred_ngids = k;
    }
    return 0;
}

/* Takes the n bytes at in's position, in place: NULL when the message
 * ends first.  (Not xdr_inline, which gives nothing on a buffer that is
 * not word-aligned, as a record after an odd-sized one is.) */
static const uint8_t *take(XDR *in, const uint8_t *msg, size_t msg_len, u_int n)
{
    u_int pos = xdr_getpos(in);

    if (pos > msg_len || msg_len - pos < n || !xdr_setpos(in, pos + n))
        return NULL;
    return msg + pos;
}

/* Takes a credential or verifier from in: its flavour and its body in
 * place.  0, 1 when it claims more than the 400 bytes RFC 5531 allows (a
 * bad one, answered AUTH_ERROR), -1 when the message ends inside it (a
 * cut message, dropped like any cut header). */
static int decode_auth(XDR *in, const uint8_t *msg, size_t msg_len, u_int *flavor,
                       const uint8_t **body, u_int *len)
{
    const uint8_t *p = take(in, msg, msg_len, 8);

    if (p == NULL)
        return -1;
    *flavor = cm_be32_get(p);
    *len = cm_be32_get(p + 4);
    if (*len > MAX_AUTH_BYTES)
        return 1;
    *body = take(in, msg, msg_len, (*len + 3) & ~3u);
    return *body != NULL ? 0 : -1;
}

static int put(XDR *x, u_int v)
{
    return xdr_u_int(x, &v);
}

/* Accepted reply header with a null verifier; returns the stream position
 * failure as 0. */
static int reply_accepted(XDR *x, u_int xid, u_int stat)
{
    const u_int w[6] = {xid, RPC_REPLY_MSG, MSG_ACCEPTED, AUTH_NONE, 0, stat};
    uint8_t b[24];

    for (int i = 0; i < 6; i++)
        cm_be32_put(b + 4 * i, w[i]);
    return xdr_putbytes(x, (char *)b, sizeof(b));
}

static size_t reply_denied(XDR *x, u_int xid, u_int stat, u_int a, u_int b)
{
    int ok = put(x, xid) && put(x, RPC_REPLY_MSG) && put(x, MSG_DENIED) && put(x, stat);
    if (stat == RPC_MISMATCH)
        ok = ok && put(x, a) && put(x, b);
    else
        ok = ok && put(x, a);
    return ok ? xdr_getpos(x) : 0;
}

static size_t reply_error(XDR *x, u_int xid, u_int stat, u_int low, u_int high)
{
    int ok = reply_accepted(x, xid, stat);
    if (stat == PROG_MISMATCH)
        ok = ok && put(x, low) && put(x, high);
    return ok ? xdr_getpos(x) : 0;
}

/* ---- dispatch ------------------------------------------------------------ */

/* Runs the procedure and encodes its results after the accepted header.
 * Returns the reply length, 0 when nothing should be sent. */
static size_t call(struct sv_core *c, XDR *in, XDR *out, u_int xid, int vi, u_int proc)
{
    const struct sv_version *v = versions[vi];
    const struct sv_handler *h = &v->handlers[proc];
    const struct nf_proc *row = nf_proc_row(v->id, proc);
    xdrproc_t xa = h->bounded_args ? h->bounded_args : row->args_codec;
    uint32_t inject = 0;
    size_t len;

    memset(&c->args, 0, sizeof(c->args));
    if (!xa(in, c->args.b)) {
        xdr_free(xa, (char *)c->args.b);
        c->garbage_args++;
        return reply_error(out, xid, GARBAGE_ARGS, 0, 0);
    }
    c->counts[vi][proc]++;
    if (c->fault.exit_after && c->calls_answered >= c->fault.exit_after) {
        /* --exit-after: the call that would exceed the budget is never
         * answered, as with a server that died */
        c->exit_requested = 1;
        xdr_free(xa, (char *)c->args.b);
        return 0;
    }
    memset(&c->res, 0, sizeof(c->res));
    if (v->nfs && row->res_codec != (xdrproc_t)xdr_nf_void)
        inject = sv__fault_error(c, nf_op_name(row->op));
    if (inject) {
        /* every NFS result starts with its status; a zeroed rest encodes
         * as the failure arm (no attributes, no wcc data) */
        memcpy(c->res.b, &inject, sizeof(inject));
        c->errors_injected++;
    } else {
        sv__fault_call(c, v->nfs);
        h->fn(c, c->args.b, c->res.b);
        c->attrs_wrong = 0;
        c->fh_salt = 0;
    }
    if (!reply_accepted(out, xid, SUCCESS) || !row->res_codec(out, c->res.b)) {
        /* the results did not fit: an honest SYSTEM_ERR, not a cut reply */
        xdr_setpos(out, 0);
        len = reply_error(out, xid, SYSTEM_ERR, 0, 0);
    } else {
        len = xdr_getpos(out);
    }
    xdr_free(xa, (char *)c->args.b);
    return len;
}

/* NFS version 4 (nfs4_compound.c): NULL and COMPOUND, with the same
 * --exit-after as the other versions. */
static size_t call_v4(struct sv_core *c, XDR *in, XDR *out, void *outbuf, size_t out_cap,
                      u_int xid, u_int proc, const void *msg, size_t msg_len)
{
    if (proc > NFSPROC4_COMPOUND) {
        c->proc_unavail++;
        return reply_error(out, xid, PROC_UNAVAIL, 0, 0);
    }
    if (c->fault.exit_after && c->calls_answered >= c->fault.exit_after) {
        c->exit_requested = 1;
        return 0;
    }
    if (!reply_accepted(out, xid, SUCCESS))
        return 0;
    if (sv4_call_proc(c, in, out, outbuf, out_cap, proc, msg, msg_len) != 0) {
        c->garbage_args++;
        xdr_setpos(out, 0);
        return reply_error(out, xid, GARBAGE_ARGS, 0, 0);
    }
    return xdr_getpos(out);
}

struct sv_reply sv_core_handle(struct sv_core *c, const void *msg, size_t msg_len,
                               void *outbuf, size_t out_cap, const char *peer, int udp)
{
    struct sv_reply r = {0, 0};
    const uint8_t *m = msg, *cred_body = NULL, *verf_body = NULL;
    u_int xid, prog, vers, proc, low, high, auth_stat, cred_flavor, cred_len = 0;
    u_int verf_flavor, verf_len;
    XDR in, out;
    int vi = -1, ac, av = 0; /* vi: v2/v3/MOUNT's version row; -1 for NFSv4 */

    if (msg_len < 8 || msg_len > SV_MSG_MAX)
        return r;
    xdrmem_create(&in, (char *)msg, (u_int)msg_len, XDR_DECODE);
    xdrmem_create(&out, outbuf, (u_int)out_cap, XDR_ENCODE);
    /* Not a call, or a header too short to answer: drop it (RFC 5531 has
     * no reply for a message without a decodable xid and call body). */
    xid = cm_be32_get(m);
    if (cm_be32_get(m + 4) != RPC_CALL_MSG || msg_len < 12) {
        c->bad_calls++;
        goto done;
    }
    if (cm_be32_get(m + 8) != RPC_VERS) {
        c->bad_calls++;
        r.len = reply_denied(&out, xid, RPC_MISMATCH, RPC_VERS, RPC_VERS);
        goto done;
    }
    if (take(&in, m, msg_len, 24) == NULL) {
        c->bad_calls++;
        goto done;
    }
    prog = cm_be32_get(m + 12);
    vers = cm_be32_get(m + 16);
    proc = cm_be32_get(m + 20);
    /* A credential or verifier that is too long (over the 400 bytes RFC
     * 5531 allows), a malformed AUTH_SYS body or a flavour not served is
     * answered AUTH_ERROR, not dropped: the client learns why instead of
     * retrying into silence.  A message cut inside them is dropped. */
    c->cred_uid = c->cred_gid = SV_NOBODY;
    c->cred_ngids = 0;
    auth_stat = 0;
    if ((ac = decode_auth(&in, m, msg_len, &cred_flavor, &cred_body, &cred_len)) == 0 &&
        (av = decode_auth(&in, m, msg_len, &verf_flavor, &verf_body, &verf_len)) < 0)
        ac = -1;
    if (ac < 0) {
        c->bad_calls++;
        goto done;
    }
    if (ac > 0)
        auth_stat = AUTH_BADCRED;
    else if (av > 0)
        auth_stat = AUTH_BADVERF;
    else if (cred_flavor == AUTH_SYS)
        auth_stat = parse_auth_sys(c, cred_body, cred_len) ? AUTH_BADCRED : 0;
    else if (cred_flavor != AUTH_NONE)
        auth_stat = AUTH_BADCRED;
    if (auth_stat) {
        c->bad_creds++;
        r.len = reply_denied(&out, xid, AUTH_ERROR, auth_stat, 0);
        goto done;
    }
    c->peer = peer ? peer : "unknown";
    c->udp = udp;
    if (prog == NFS4_PROGRAM && vers == NFS_V4 && !udp) {
        r.len = call_v4(c, &in, &out, outbuf, out_cap, xid, proc, msg, msg_len);
        goto answered;
    }
    vi = version_index(prog, vers);
    if (vi < 0) {
        if (version_range(prog, udp, &low, &high)) {
            c->prog_mismatch++;
            r.len = reply_error(&out, xid, PROG_MISMATCH, low, high);
        } else {
            c->prog_unavail++;
            r.len = reply_error(&out, xid, PROG_UNAVAIL, 0, 0);
        }
        goto done;
    }
    if (proc >= versions[vi]->nhandlers || versions[vi]->handlers[proc].fn == NULL ||
        nf_proc_row(versions[vi]->id, proc) == NULL) {
        c->proc_unavail++;
        r.len = reply_error(&out, xid, PROC_UNAVAIL, 0, 0);
        goto done;
    }
    r.len = call(c, &in, &out, xid, vi, proc);
answered:
    if (r.len == 0)
        goto done;
    c->calls_answered++;
    if (c->fault.drop_pct > 0 && sv__fault_hit(c, c->fault.drop_pct)) {
        c->replies_dropped++;
        r.len = 0;
        goto done;
    }
    if ((c->fault.delay_us || c->fault.jitter_us) &&
        (!c->fault.delay_op[0] ||
         (vi >= 0 && versions[vi]->nfs &&
          strcmp(nf_op_name(nf_proc_row(versions[vi]->id, proc)->op),
                 c->fault.delay_op) == 0))) {
        uint64_t us = c->fault.delay_us;
        if (c->fault.jitter_us)
            us += (uint64_t)(cm_rng_unit(&c->rng) * (double)(c->fault.jitter_us + 1));
        r.delay_ns = us * 1000;
    }
    if (c->fault.service_us && prog == NFS_PROGRAM) {
        /* one server "disk" for NFS calls: each waits for those before it,
         * then holds it service_us, so the server has a fixed capacity and
         * a queue that grows as the load nears it */
        uint64_t now = cm_now_ns();

        if (c->busy_until_ns < now)
            c->busy_until_ns = now;
        c->busy_until_ns += (uint64_t)c->fault.service_us * 1000;
        r.delay_ns += c->busy_until_ns - now;
    }
done:
    xdr_destroy(&in);
    xdr_destroy(&out);
    return r;
}
