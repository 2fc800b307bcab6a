/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * mount.c - the mount session (nfs layer): host lookup, ports from rpcbind
 * GETPORT or from the mount point, an NFS NULL call that checks the version
 * before anything else (so that a v3-only server answers "offers NFS
 * versions 3..3, not 2" instead of a MOUNT error), MNT, UMNT and EXPORT.
 * Every failure becomes one line that names the host and what is missing.
 * All calls are synchronous; each step (a GETPORT, NULL, MNT) is bounded
 * by opts->timeout_ms, shared by its UDP tries.  With opts->connect the
 * clients are opened on the descriptors it returns instead, and the host
 * is neither resolved nor asked for ports (nf.h).
 */
#include "nfs/nf.h"

#include "mount_prot.h"

#include <netdb.h>
#include <netinet/in.h>
#include <string.h>
#include "common/error.h"

void nf_mount_opts_init(struct nf_mount_opts *o, int nfs_version)
{
    memset(o, 0, sizeof(*o));
    o->nfs_version = nfs_version == 2 || nfs_version == 4 ? nfs_version : 3;
    o->transport = RP_UDP;
    o->mount_transport = RP_UDP;
    rp_client_opts_init(&o->rpc);
    o->timeout_ms = nf_class_timeout_ms(NF_CLASS_INIT, 0);
    o->ping = 1;
}

static void set_port(struct sockaddr_storage *ss, uint16_t port)
{
    if (ss->ss_family == AF_INET)
        ((struct sockaddr_in *)ss)->sin_port = htons(port);
    else
        ((struct sockaddr_in6 *)ss)->sin6_port = htons(port);
}

static int resolve(struct nf_mount *m, char *err, size_t errlen)
{
    struct addrinfo hints, *res = NULL;
    int rc;

    memset(&hints, 0, sizeof(hints));
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_DGRAM;
    rc = getaddrinfo(m->spec.host, NULL, &hints, &res);
    if (rc != 0 || !res) {
        cm_errf(err, errlen, "%s: unknown host (%s)", m->spec.host,
                rc ? gai_strerror(rc) : "no address");
        return -EHOSTUNREACH;
    }
    memcpy(&m->addr, res->ai_addr, res->ai_addrlen);
    m->addrlen = res->ai_addrlen;
    freeaddrinfo(res);
    return 0;
}

/* Per-try timeout: the total budget shared by the UDP tries, so that a
 * silent peer costs at most opts->timeout_ms per step. */
static uint32_t try_ms(const struct nf_mount_opts *o, enum rp_transport_kind t)
{
    uint32_t tries = o->rpc.udp_tries ? o->rpc.udp_tries : RP_DEFAULT_UDP_TRIES;

    if (t == RP_TCP)
        return o->timeout_ms;
    return o->timeout_ms / tries ? o->timeout_ms / tries : 1;
}

static int open_client(const struct nf_mount *m, uint16_t port, uint32_t prog,
                       uint32_t vers, enum rp_transport_kind t, struct rp_client **out,
                       char *err, size_t errlen)
{
    struct sockaddr_storage ss = m->addr;
    struct rp_client_opts o = m->opts.rpc;
    char why[CM_ERR_LEN];
    int rc;

    o.transport = t;
    if (m->opts.connect) {
        int fd = m->opts.connect(m->opts.connect_data, prog, t);

        if (fd < 0) {
            cm_errf(err, errlen, "%s: cannot connect to %s: %s", m->spec.host,
                    prog == MOUNTPROG ? "MOUNT" : "NFS", strerror(-fd));
            return fd;
        }
        rc = rp_client_open_fd(out, fd, t, prog, vers, &o, why, sizeof(why));
        if (rc < 0)
            cm_errf(err, errlen, "%s: %s", m->spec.host, why);
        return rc;
    }
    set_port(&ss, port);
    rc = rp_client_open(out, (struct sockaddr *)&ss, m->addrlen, prog, vers, &o,
                        m->opts.timeout_ms, why, sizeof(why));
    if (rc == -ECONNREFUSED)
        cm_errf(err, errlen, "%s: no server answers at port %u (connection refused)",
                m->spec.host, port);
    else if (rc < 0)
        cm_errf(err, errlen, "%s: port %u: %s", m->spec.host, port, why);
    return rc;
}

/* One line for a failed call to a named service ("NFS", "MOUNT").  The
 * port is named unless opts->connect chose the descriptors. */
static int call_error(const struct nf_mount *m, const char *what, uint32_t vers,
                      uint16_t port, const struct rp_call *call,
                      const struct rp_client *c, char *err, size_t errlen)
{
    const char *h = m->spec.host;
    char at[32] = "";

    if (!m->opts.connect)
        snprintf(at, sizeof(at), " at port %u", port);
    switch (call->status) {
    case RP_ERR_PROG_MISMATCH:
        cm_errf(err, errlen, "%s: server offers %s versions %u..%u, not %u", h, what,
                call->low_version, call->high_version, vers);
        break;
    case RP_ERR_PROG_UNAVAIL:
        cm_errf(err, errlen, "%s: the server%s does not serve %s", h, at, what);
        break;
    case -ECONNREFUSED:
        cm_errf(err, errlen, "%s: no %s server answers%s (connection refused)", h, what,
                at);
        break;
    case RP_ERR_TIMEDOUT: {
        struct rp_client_stats st;

        rp_client_stats(c, &st);
        if (st.unknown_xid + st.garbage)
            cm_errf(err, errlen,
                    "%s: no valid %s reply%s in %u ms (%llu replies with "
                    "unknown XIDs or garbage dropped)",
                    h, what, at, m->opts.timeout_ms,
                    (unsigned long long)(st.unknown_xid + st.garbage));
        else
            cm_errf(err, errlen, "%s: no %s server answers%s (no reply in %u ms)", h,
                    what, at, m->opts.timeout_ms);
        break;
    }
    default:
        cm_errf(err, errlen, "%s: bad reply from %s%s: %s", h, what, at,
                rp_client_last_error(c)[0] ? rp_client_last_error(c)
                                           : rp_status_text(call->status));
    }
    return call->status;
}

/* Calls proc on c with a per-try timeout from the options. */
static int mount_call(const struct nf_mount *m, struct rp_client *c, struct rp_call *call,
                      uint32_t proc, const void *args, void *res)
{
    int rc = nf_call_init(call, c, proc, args, res, NULL, NULL);

    if (rc < 0)
        return rc;
    call->timeout_ms = try_ms(&m->opts, rp_client_transport(c));
    rc = rp_call_sync(c, call);
    if (rc < 0 && call->status == 0)
        call->status = rc;
    return rc;
}

/* NULL (procedure 0, no arguments, no result: the same in every version,
 * NFSv4's included, which has no table of procedures) on c. */
static int null_call(const struct nf_mount *m, struct rp_client *c, struct rp_call *call)
{
    int rc;

    rp_call_prepare(call, 0, (xdrproc_t)rp_xdr_void, NULL, (xdrproc_t)rp_xdr_void, NULL,
                    try_ms(&m->opts, rp_client_transport(c)), NULL, NULL);
    rc = rp_call_sync(c, call);
    if (rc < 0 && call->status == 0)
        call->status = rc;
    return rc;
}

/* Asks rpcbind for (prog, vers); explains a missing registration, listing
 * the NFS versions that are registered. */
static int lookup_port(const struct nf_mount *m, uint32_t prog, uint32_t vers,
                       enum rp_transport_kind t, uint16_t *port, char *err, size_t errlen)
{
    const char *what = prog == NFS_PROGRAM ? "NFS" : "MOUNT";
    int proto = t == RP_TCP ? IPPROTO_TCP : IPPROTO_UDP;
    char why[CM_ERR_LEN];
    uint32_t v, lo = 0, hi = 0;
    uint16_t p;
    int rc;

    rc = rp_pmap_getport((const struct sockaddr *)&m->addr, m->addrlen, 0, prog, vers,
                         proto, try_ms(&m->opts, RP_UDP), port, why, sizeof(why));
    if (rc < 0) {
        cm_errf(err, errlen, "%s: %s", m->spec.host, why);
        return rc;
    }
    if (*port)
        return 0;
    for (v = 1; v <= 4; v++) {
        if (v == vers ||
            rp_pmap_getport((const struct sockaddr *)&m->addr, m->addrlen, 0, prog, v,
                            proto, try_ms(&m->opts, RP_UDP), &p, why, sizeof(why)) < 0 ||
            !p)
            continue;
        if (!lo)
            lo = v;
        hi = v;
    }
    if (lo)
        cm_errf(err, errlen, "%s: server offers %s versions %u..%u, not %u", m->spec.host,
                what, lo, hi, vers);
    else
        cm_errf(err, errlen, "%s: %s is not registered with rpcbind (%s)", m->spec.host,
                what, t == RP_TCP ? "tcp" : "udp");
    return -EPROTONOSUPPORT;
}

/* The MOUNT port: known already (UMNT after MNT), from the mount point, or
 * from rpcbind. */
static int mount_port(struct nf_mount *m, char *err, size_t errlen)
{
    uint32_t mv = m->nfs_version == 2 ? MOUNTVERS : MOUNT_V3;

    if (m->mount_port || m->opts.connect)
        return 0;
    if (m->spec.mount_port) {
        m->mount_port = m->spec.mount_port;
        return 0;
    }
    return lookup_port(m, MOUNTPROG, mv, m->opts.mount_transport, &m->mount_port, err,
                       errlen);
}

static int open_mount_client(struct nf_mount *m, struct rp_client **mc, char *err,
                             size_t errlen)
{
    uint32_t mv = m->nfs_version == 2 ? MOUNTVERS : MOUNT_V3;
    int rc = mount_port(m, err, errlen);

    if (rc < 0)
        return rc;
    return open_client(m, m->mount_port, MOUNTPROG, mv, m->opts.mount_transport, mc, err,
                       errlen);
}

static void add_exports(struct nf_mount *m, struct rp_client *mc, char *err,
                        size_t errlen);

/* MNT: fills m->root or explains the refusal. */
static int do_mnt(struct nf_mount *m, char *err, size_t errlen)
{
    struct rp_client *mc;
    struct rp_call call;
    char *path = m->spec.path;
    int rc = open_mount_client(m, &mc, err, errlen);

    if (rc < 0)
        return rc;
    if (m->nfs_version == 2) {
        fhstatus res;

        memset(&res, 0, sizeof(res));
        rc = mount_call(m, mc, &call, MOUNTPROC_MNT, &path, &res);
        if (rc == 0 && res.fhs_status != 0) {
            rc = -EACCES;
            cm_errf(err, errlen, "%s:%s: export refused (%s)", m->spec.host, path,
                    nf_status_name(res.fhs_status));
            add_exports(m, mc, err, errlen);
        } else if (rc == 0) {
            nf_fh_from_v2(&m->root,
                          (const nfs_fh *)(const void *)res.fhstatus_u.fhs_fhandle);
        }
        if (call.status == 0)
            xdr_free((xdrproc_t)xdr_fhstatus, &res);
    } else {
        mountres3 res;

        memset(&res, 0, sizeof(res));
        rc = mount_call(m, mc, &call, MOUNTPROC3_MNT, &path, &res);
        if (rc == 0 && res.fhs_status != MNT3_OK) {
            rc = -EACCES;
            cm_errf(err, errlen, "%s:%s: export refused (%s)", m->spec.host, path,
                    nf_status_name(res.fhs_status));
            add_exports(m, mc, err, errlen);
        } else if (rc == 0) {
            mnt3_fhandle *fh = &res.mountres3_u.mountinfo.fhandle;
            nfs_fh3 h3;

            h3.data.data_len = fh->mnt3_fhandle_len;
            h3.data.data_val = fh->mnt3_fhandle_val;
            if (nf_fh_from_v3(&m->root, &h3) < 0) {
                rc = -EPROTO;
                cm_errf(err, errlen, "%s:%s: root handle longer than 64 bytes",
                        m->spec.host, path);
            }
        }
        if (call.status == 0)
            xdr_free((xdrproc_t)xdr_mountres3, &res);
    }
    if (rc < 0 && call.status < 0)
        call_error(m, "MOUNT", m->nfs_version == 2 ? MOUNTVERS : MOUNT_V3, m->mount_port,
                   &call, mc, err, errlen);
    rp_client_close(mc);
    return rc;
}

/* The RPC version of an NFS version (2, 3 or 4: the program is the same). */
static uint32_t nfs_rpc_version(int nfs_version)
{
    return nfs_version == 2 ? NFS_VERSION : nfs_version == 4 ? NF_NFS4_VERSION : NFS_V3;
}

int nf_mount_open_client(const struct nf_mount *m, enum rp_transport_kind t,
                         struct rp_client **out, char *err, size_t errlen)
{
    uint32_t prog = m->nfs_version == 2 ? NFS_PROGRAM : NFS3_PROGRAM;
    uint32_t vers = nfs_rpc_version(m->nfs_version);

    return open_client(m, m->nfs_port, prog, vers, t, out, err, errlen);
}

/* The NFS port, the NFS client and, with opts->ping, a NULL call that
 * proves the version is served. */
static int open_nfs(struct nf_mount *m, char *err, size_t errlen)
{
    uint32_t vers = nfs_rpc_version(m->nfs_version);
    struct rp_call call;
    int rc;

    if (m->spec.nfs_port || m->opts.connect) {
        m->nfs_port = m->spec.nfs_port;
    } else {
        rc = lookup_port(m, NFS_PROGRAM, vers, m->opts.transport, &m->nfs_port, err,
                         errlen);
        /* NFSv4 has a port of its own (RFC 7530 3.1): a server without
         * rpcbind serves it there */
        if ((rc == -ECONNREFUSED || rc == -ETIMEDOUT) && m->nfs_version == 4) {
            m->nfs_port = NF_NFS4_PORT;
            rc = 0;
        }
        if (rc < 0)
            return rc;
    }
    rc = nf_mount_open_client(m, m->opts.transport, &m->nfs, err, errlen);
    if (rc < 0 || !m->opts.ping)
        return rc;
    rc = null_call(m, m->nfs, &call);
    if (rc < 0) {
        call_error(m, "NFS", vers, m->nfs_port, &call, m->nfs, err, errlen);
        rp_client_close(m->nfs);
        m->nfs = NULL;
    }
    return rc;
}

int nf_mount(struct nf_mount *m, const char *spec, const struct nf_mount_opts *opts,
             char *err, size_t errlen)
{
    int rc;

    memset(m, 0, sizeof(*m));
    if (opts)
        m->opts = *opts;
    else
        nf_mount_opts_init(&m->opts, 3);
    if (m->opts.nfs_version < 2 || m->opts.nfs_version > 4)
        return cm_errf(err, errlen, "NFS version %d not supported (2, 3 or 4)",
                       m->opts.nfs_version);
    if (m->opts.nfs_version == 4 && m->opts.transport != RP_TCP)
        return cm_errf(err, errlen,
                       "NFSv4 runs over TCP only (RFC 7530 3.1), not over UDP"),
               -EPROTONOSUPPORT;
    if (!m->opts.timeout_ms)
        m->opts.timeout_ms = nf_class_timeout_ms(NF_CLASS_INIT, 0);
    m->nfs_version = m->opts.nfs_version;
    rc = nf_parse_mount_spec(spec, &m->spec, err, errlen);
    if (rc == 0 && !m->opts.connect)
        rc = resolve(m, err, errlen);
    if (rc == 0)
        rc = open_nfs(m, err, errlen);
    if (rc == 0 && m->nfs_version != 4) { /* NFSv4 has no MOUNT program */
        rc = do_mnt(m, err, errlen);
        if (rc < 0)
            nf_mount_close(m);
    }
    return rc;
}

void nf_mount_close(struct nf_mount *m)
{
    rp_client_close(m->nfs);
    m->nfs = NULL;
}

void nf_umount(struct nf_mount *m)
{
    struct rp_client *mc;
    struct rp_call call;
    char *path = m->spec.path;
    nf_void none = {0};
    char err[CM_ERR_LEN];
    uint32_t saved = m->opts.timeout_ms;

    /* UMNT is a courtesy: bound it to about a second. */
    m->opts.timeout_ms = saved < 1000 ? saved : 1000;
    if ((m->mount_port || m->opts.connect) && m->nfs_version != 4 &&
        open_mount_client(m, &mc, err, sizeof(err)) == 0) {
        (void)mount_call(m, mc, &call,
                         m->nfs_version == 2 ? MOUNTPROC_UMNT : MOUNTPROC3_UMNT, &path,
                         &none);
        rp_client_close(mc);
    }
    m->opts.timeout_ms = saved;
    nf_mount_close(m);
}

/* Calls fn for each directory of a v1 or v3 export list. */
static void walk_exports(int v2, const void *list, void (*fn)(const char *, void *),
                         void *data)
{
    if (v2) {
        const struct exportnode *e;

        for (e = *(const exports *)list; e; e = e->ex_next)
            fn(e->ex_dir, data);
    } else {
        const struct mnt3_exportnode *e;

        for (e = *(const mnt3_exports *)list; e; e = e->ex_next)
            fn(e->ex_dir, data);
    }
}

struct export_text {
    char *buf;
    size_t len, used;
    unsigned n;
};

static void add_export(const char *dir, void *data)
{
    struct export_text *t = data;
    int k;

    if (t->used >= t->len)
        return;
    k = snprintf(t->buf + t->used, t->len - t->used, "%s%s", t->n++ ? " " : "", dir);
    if (k > 0)
        t->used += (size_t)k;
}

/* After a refused MNT: what the server does export (MOUNT EXPORT on the
 * same client), appended to err, so that a mistyped path comes with the
 * right ones ("...: export refused (NOENT); the server exports /export").
 * A server that will not say adds nothing. */
static void add_exports(struct nf_mount *m, struct rp_client *mc, char *err,
                        size_t errlen)
{
    int v2 = m->nfs_version == 2;
    exports l1 = NULL;
    mnt3_exports l3 = NULL;
    struct rp_call call;
    nf_void none = {0};
    char names[384];
    struct export_text t = {names, sizeof(names), 0, 0};
    size_t used = err ? strlen(err) : 0;

    uint32_t saved = m->opts.timeout_ms;
    int rc;

    names[0] = '\0';
    if (err == NULL)
        return;
    /* a courtesy, as UMNT: about a second at most */
    m->opts.timeout_ms = saved < 1000 ? saved : 1000;
    rc = mount_call(m, mc, &call, v2 ? MOUNTPROC_EXPORT : MOUNTPROC3_EXPORT, &none,
                    v2 ? (void *)&l1 : (void *)&l3);
    m->opts.timeout_ms = saved;
    if (rc < 0)
        return;
    walk_exports(v2, v2 ? (const void *)&l1 : (const void *)&l3, add_export, &t);
    nf_call_free(&call);
    if (t.used >= t.len - 1) /* cut: say so rather than end mid-name */
        snprintf(names + sizeof(names) - 5, 5, " ...");
    snprintf(err + used, errlen > used ? errlen - used : 0, "; %s%s",
             t.n ? "the server exports " : "the server exports nothing", names);
}

int nf_exports(const char *spec, const struct nf_mount_opts *opts,
               void (*fn)(const char *dir, void *data), void *data, char *err,
               size_t errlen)
{
    struct nf_mount m;
    struct rp_client *mc;
    struct rp_call call;
    nf_void none = {0};
    exports l1 = NULL;
    mnt3_exports l3 = NULL;
    int v2, rc;

    memset(&m, 0, sizeof(m));
    if (opts)
        m.opts = *opts;
    else
        nf_mount_opts_init(&m.opts, 3);
    if (!m.opts.timeout_ms)
        m.opts.timeout_ms = nf_class_timeout_ms(NF_CLASS_INIT, 0);
    m.nfs_version = m.opts.nfs_version == 2 ? 2 : 3;
    v2 = m.nfs_version == 2;
    rc = nf_parse_mount_spec(spec, &m.spec, err, errlen);
    if (rc == 0 && !m.opts.connect)
        rc = resolve(&m, err, errlen);
    if (rc == 0)
        rc = open_mount_client(&m, &mc, err, errlen);
    if (rc < 0)
        return rc;
    rc = mount_call(&m, mc, &call, v2 ? MOUNTPROC_EXPORT : MOUNTPROC3_EXPORT, &none,
                    v2 ? (void *)&l1 : (void *)&l3);
    if (rc == 0) {
        walk_exports(v2, v2 ? (const void *)&l1 : (const void *)&l3, fn, data);
        nf_call_free(&call);
    } else {
        call_error(&m, "MOUNT", v2 ? MOUNTVERS : MOUNT_V3, m.mount_port, &call, mc, err,
                   errlen);
    }
    rp_client_close(mc);
    return rc;
}
