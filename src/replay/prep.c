/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prep.c - everything a child does before the replay's clock
 * starts (rl.h): mount with room for the window, learn the transfer
 * maxima (FSINFO; 8 KiB for NFSv2), find the units its streams use,
 * create them with their final sizes through libnfs (docs/DECISIONS.md D3; a
 * prepared tree is reused as it is), look their handles up with the
 * child's own client, and allocate the items, slots and buffers the timed
 * loop uses, so that the loop allocates nothing.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/ct.h"
#include "load/options.h"
#include "replay/rl_int.h"
#include "nfs/nf_lnfs.h"
#include "common/alloc.h"

#define LNFS_TIMEOUT_MS 30000u

/* ---- mount ------------------------------------------------------------------ */

static void transfer_maxima(struct rl_replay *rp, struct ld_child *c)
{
    uint32_t cap = c->cfg->tcp ? RL_MAX_XFER : RL_MAX_XFER_UDP;
    FSINFO3args a;
    FSINFO3res res;

    rp->rtmax = rp->wtmax = 8192; /* NFSv2 (RFC 1094 MAXDATA) */
    if (rp->version == 3) {
        memset(&res, 0, sizeof(res));
        nf_fh_to_v3(&c->mnt.root, &a.fsroot);
        if (nf3_fsinfo(c->clnt, &a, &res) == 0) {
            if (res.status == NFS3_OK) {
                rp->rtmax = res.FSINFO3res_u.resok.rtmax;
                rp->wtmax = res.FSINFO3res_u.resok.wtmax;
            }
            xdr_free((xdrproc_t)xdr_FSINFO3res, (char *)&res);
        }
    }
    if (rp->rtmax == 0 || rp->rtmax > cap)
        rp->rtmax = cap;
    if (rp->wtmax == 0 || rp->wtmax > cap)
        rp->wtmax = cap;
}

int rl_child_init(struct ld_child *c, const struct ld_setup *su, unsigned index,
                  int ctl_fd)
{
    struct rl_replay *rp = (struct rl_replay *)c;

    ld_child_setup(c, su, index, ctl_fd);
    rp->plan = su->plan;
    rp->version = c->nfs_version;
    rp->speed = RL_TOPTS(c->cfg)->trace_speed;
    rp->unstable = RL_BOPTS(c->cfg)->trace_stable == RL_UNSTABLE && rp->version == 3;
    rp->window = (uint32_t)RL_TOPTS(c->cfg)->trace_window;
    rl_procs(c->cfg, c->index, &rp->gproc, &rp->nprocs);
    return 0;
}

int rl_mount_window(struct ld_child *c, uint32_t window, uint32_t reconnect_ms)
{
    const char *spec = ld_config_mount_for_child(c->cfg, (int)c->index);
    struct nf_mount_opts o;
    char err[CM_ERR_LEN];
    int rc;

    nf_mount_opts_init(&o, c->nfs_version);
    o.transport = c->cfg->tcp ? RP_TCP : RP_UDP;
    o.mount_transport = o.transport;
    o.rpc.max_in_flight = window + 1;
    o.rpc.sndbuf_bytes = 4u << 20; /* the kernel caps it at [rw]mem_max */
    o.rpc.reconnect_ms = reconnect_ms;
    rc = nf_mount(&c->mnt, spec, &o, err, sizeof(err));
    if (rc < 0)
        return ld_child_fail(c, rc, "Unable to mount %s: %s", spec, err);
    c->mounted = 1;
    c->clnt = c->mnt.nfs;
    return 0;
}

int rl_mount(struct ld_child *c)
{
    struct rl_replay *rp = (struct rl_replay *)c;
    int rc = rl_mount_window(c, rp->window, 0);

    if (rc < 0)
        return rc;
    transfer_maxima(rp, c);
    rp->byte_budget = c->cfg->tcp ? UINT64_MAX : RL_UDP_BYTES;
    return 0;
}

/* ---- which units this child uses ---------------------------------------- */

static void mark_sync(struct rl_replay *rp, const struct tr_record *rec)
{
    uint32_t u;

    for (u = 0; u < rp->plan->nunits && u < 32; u++) {
        int in = (rec->flags & TR_F_ALL_UNITS) ||
                 ((rec->flags & TR_F_UNIT_MASK) && (rec->unit_mask >> u & 1u)) ||
                 (!(rec->flags & (TR_F_ALL_UNITS | TR_F_UNIT_MASK)) && rec->unit == u);
        if (in && rl_owner(u, rp->nprocs) == rp->gproc)
            rp->mine[u] = 1;
    }
}

/* One pass over the trace: the units the child's streams touch. */
static int find_units(struct rl_replay *rp, struct ld_child *c)
{
    struct tr_reader r;
    struct tr_record rec;
    char err[CM_ERR_LEN];
    int rc;

    rc = rl_open_reader(rp->plan, &r, err, sizeof(err));
    if (rc < 0)
        return ld_child_fail(c, rc, "%s", err);
    while ((rc = tr_reader_next(&r, &rec)) > 0) {
        if (rec.op == TR_OP_SYNC) {
            mark_sync(rp, &rec);
            continue;
        }
        if (rl_owner(rl_stream_key(rp->plan, &rec), rp->nprocs) == rp->gproc &&
            rec.unit < rp->plan->nunits)
            rp->mine[rec.unit] = 1;
    }
    if (rc < 0)
        ld_child_fail(c, rc, "%s", r.last_error);
    tr_reader_close(&r);
    return rc;
}

/* ---- the tree through libnfs ------------------------------------------- */

/* The directory part of a unit's name ("" for none) into buf. */
static void parent_of(const char *name, char *buf, size_t len)
{
    const char *slash = strrchr(name, '/');
    size_t n = slash ? (size_t)(slash - name) : 0;

    if (n >= len)
        n = len - 1;
    memcpy(buf, name, n);
    buf[n] = '\0';
}

static int make_tree(struct rl_replay *rp, struct ld_child *c, const char *base)
{
    const char *spec = ld_config_mount_for_child(c->cfg, (int)c->index);
    char err[CM_ERR_LEN], dir[LD_PATH_MAX], last[LD_PATH_MAX] = "", path[2 * LD_PATH_MAX];
    struct nf_lnfs *l;
    uint32_t u;
    int rc;

    rc = nf_lnfs_open(&l, spec, LNFS_TIMEOUT_MS, err, sizeof(err));
    if (rc < 0)
        return ld_child_fail(c, rc, "preparing the replay tree: %s", err);
    rc = nf_lnfs_mkdir_p(l, base);
    for (u = 0; rc == 0 && u < rp->plan->nunits; u++) {
        if (!rp->mine[u])
            continue;
        parent_of(rp->plan->units[u].name, dir, sizeof(dir));
        if (dir[0] && strcmp(dir, last) != 0) {
            snprintf(path, sizeof(path), "%s/%s", base, dir);
            rc = nf_lnfs_mkdir_p(l, path);
            snprintf(last, sizeof(last), "%s", dir);
        }
        snprintf(path, sizeof(path), "%s/%s", base, rp->plan->units[u].name);
        if (rc == 0)
            rc = nf_lnfs_prepare_file(l, path, rp->plan->units[u].size, NULL, NULL);
    }
    if (rc < 0)
        ld_child_fail(c, rc, "preparing the replay tree on %s: %s", spec,
                      nf_lnfs_last_error(l));
    nf_lnfs_close(l);
    return rc;
}

/* ---- handles through the child's client ----------------------------------- */

/* LOOKUP of name in dir into out.  0 or -errno with last_error. */
static int lookup(struct rl_replay *rp, const struct nf_fh *dir, const char *name,
                  struct nf_fh *out)
{
    struct ld_child *c = &rp->cx;
    int rc;

    if (rp->version == 3) {
        LOOKUP3args a;
        LOOKUP3res res;

        memset(&res, 0, sizeof(res));
        nf_fh_to_v3(dir, &a.what.dir);
        a.what.name = (char *)name;
        rc = nf3_lookup(c->clnt, &a, &res);
        if (rc < 0)
            return ld_child_fail(c, rc, "LOOKUP %s: %s", name, rp_status_text(rc));
        rc = res.status == NFS3_OK
                 ? nf_fh_from_v3(out, &res.LOOKUP3res_u.resok.object)
                 : ld_child_fail(c, nf_status_errno(res.status), "LOOKUP %s: %s", name,
                                 nf_status_name(res.status));
        xdr_free((xdrproc_t)xdr_LOOKUP3res, (char *)&res);
        return rc;
    }
    diropargs a;
    diropres res;

    memset(&res, 0, sizeof(res));
    if (nf_fh_to_v2(dir, &a.dir) < 0)
        return ld_child_fail(c, -EINVAL, "LOOKUP %s: not a v2 handle", name);
    a.name = (char *)name;
    rc = nf2_lookup(c->clnt, &a, &res);
    if (rc < 0)
        return ld_child_fail(c, rc, "LOOKUP %s: %s", name, rp_status_text(rc));
    if (res.status == NFS_OK)
        nf_fh_from_v2(out, &res.diropres_u.diropres.file);
    else
        rc = ld_child_fail(c, nf_status_errno(res.status), "LOOKUP %s: %s", name,
                           nf_status_name(res.status));
    xdr_free((xdrproc_t)xdr_diropres, (char *)&res);
    return rc;
}

/* Walks a relative path (components separated by '/') from start. */
static int walk(struct rl_replay *rp, const struct nf_fh *start, const char *path,
                struct nf_fh *out)
{
    char part[LD_PATH_MAX];
    const char *s = path;
    struct nf_fh at = *start;
    int rc = 0;

    while (*s && rc == 0) {
        const char *e = strchr(s, '/');
        size_t n = e ? (size_t)(e - s) : strlen(s);

        if (n >= sizeof(part))
            return ld_child_fail(&rp->cx, -ENAMETOOLONG, "%s: name too long", path);
        memcpy(part, s, n);
        part[n] = '\0';
        rc = lookup(rp, &at, part, &at);
        s += n + (e != NULL);
    }
    if (rc == 0)
        *out = at;
    return rc;
}

static int resolve(struct rl_replay *rp, const char *clpath)
{
    const struct rl_plan *p = rp->plan;
    char dir[LD_PATH_MAX], last[LD_PATH_MAX] = "";
    struct nf_fh lastfh = rp->dir;
    uint32_t u;
    int rc = walk(rp, &rp->cx.mnt.root, clpath, &rp->dir);

    lastfh = rp->dir;
    for (u = 0; rc == 0 && u < p->nunits; u++) {
        const char *slash;

        if (!rp->mine[u])
            continue;
        parent_of(p->units[u].name, dir, sizeof(dir));
        if (strcmp(dir, last) != 0) {
            rc = dir[0] ? walk(rp, &rp->dir, dir, &lastfh) : 0;
            if (!dir[0])
                lastfh = rp->dir;
            snprintf(last, sizeof(last), "%s", dir);
        }
        slash = strrchr(p->units[u].name, '/');
        rp->leaf[u] = slash ? slash + 1 : p->units[u].name;
        rp->dirfh[u] = lastfh;
        if (rc == 0)
            rc = lookup(rp, &lastfh, rp->leaf[u], &rp->fh[u]);
    }
    return rc;
}

/* ---- allocation ------------------------------------------------------------- */

static int allocate(struct rl_replay *rp)
{
    const struct rl_plan *p = rp->plan;
    uint32_t i, n;

    rp->nitems = rp->window * 4 + 64;
    rp->items = cm_calloc(rp->nitems, sizeof(*rp->items));
    rp->slots = cm_calloc(rp->window, sizeof(*rp->slots));
    rp->streams = cm_calloc(p->nstreams, sizeof(*rp->streams));
    rp->sink = cm_malloc(rp->rtmax);
    rp->wdata = cm_malloc(rp->wtmax);
    n = strcmp(p->format, "sysio") == 0 ? RL_MAX_CURSORS : 1;
    rp->cur = cm_calloc(n, sizeof(*rp->cur));
    if (!rp->items || !rp->slots || !rp->streams || !rp->sink || !rp->wdata || !rp->cur)
        return -ENOMEM;
    for (i = 0; i < rp->nitems; i++)
        rp->items[i].next = i + 1 < rp->nitems ? (int32_t)i + 1 : RL_NONE;
    rp->free_item = 0;
    for (i = 0; i < rp->wtmax; i++) /* SFS's write pattern */
        rp->wdata[i] = (char)(0xdeadbeefu >> (24 - 8 * (i % 4)));
    for (i = 0; i < rp->window; i++) {
        rp->slots[i].owner = rp;
        rp->slots[i].next_free = i + 1 < rp->window ? (int32_t)i + 1 : RL_NONE;
    }
    rp->free_slot = 0;
    rp->qhead = rp->qtail = rp->chead = rp->ctail = RL_NONE;
    rp->whead = rp->wtail = RL_NONE;
    return 0;
}

int rl_prepare(struct ld_child *c)
{
    struct rl_replay *rp = (struct rl_replay *)c;
    const struct rl_plan *p = rp->plan;
    char clpath[64], base[80];
    int rc;

    rp->fh = cm_calloc(p->nunits, sizeof(*rp->fh));
    rp->dirfh = cm_calloc(p->nunits, sizeof(*rp->dirfh));
    rp->leaf = cm_calloc(p->nunits, sizeof(*rp->leaf));
    rp->mine = cm_calloc(p->nunits, 1);
    if (!rp->fh || !rp->dirfh || !rp->leaf || !rp->mine || allocate(rp) < 0)
        return ld_child_fail(c, -ENOMEM, "out of memory");
    rc = find_units(rp, c);
    if (rc < 0)
        return rc;
    snprintf(clpath, sizeof(clpath), "CL%d/%s", c->cfg->client_num, RL_DIR);
    snprintf(base, sizeof(base), "/%s", clpath);
    rc = make_tree(rp, c, base);
    if (rc == 0)
        rc = resolve(rp, clpath);
    return rc;
}

int rl_child_phase(struct ld_child *c, uint32_t type, uint32_t arg)
{
    switch (type) {
    case CT_MSG_MOUNT:
        c->phase = LD_CPHASE_MOUNT;
        return rl_mount(c);
    case CT_MSG_INIT:
        c->phase = LD_CPHASE_INIT;
        return rl_prepare(c);
    case CT_MSG_RUN:
        return rl_run(c, arg);
    default:
        return 0;
    }
}

void rl_child_results(struct ld_child *c)
{
    const struct rl_replay *rp = (const struct rl_replay *)c;
    struct ld_stats *s = &c->stats;
    uint64_t bytes = 0, touched = 0;
    uint32_t u, files = 0;

    for (u = 0; rp->mine && u < rp->plan->nunits; u++)
        if (rp->mine[u]) {
            bytes += rp->plan->units[u].size;
            touched += rp->plan->units[u].touched.count;
            files++;
        }
    RL_STATS(c)->replay_sparse_bytes = bytes;
    RL_STATS(c)->replay_touched_bytes = touched;
    /* SFS's keys: created = base, the sparse size; accessed, what the
     * records touch */
    s->total_kb = s->base_kb = (bytes + 1023) / 1024;
    s->least_kb = s->most_kb = (touched + 1023) / 1024;
    s->io_files = s->working_files = files;
    s->nonio_files = s->symlinks = s->dirs = 0;
}

void rl_child_free(struct ld_child *c)
{
    struct rl_replay *rp = (struct rl_replay *)c;
    uint32_t i;

    for (i = 0; i < rp->ncur; i++)
        if (rp->cur[i].open)
            tr_reader_close(&rp->cur[i].r);
    free(rp->cur);
    free(rp->fh);
    free(rp->dirfh);
    free(rp->leaf);
    free(rp->mine);
    free(rp->items);
    free(rp->slots);
    free(rp->streams);
    free(rp->sink);
    free(rp->wdata);
    rp->cur = NULL;
    rp->fh = rp->dirfh = NULL;
    rp->leaf = NULL;
    rp->mine = NULL;
    rp->items = NULL;
    rp->slots = NULL;
    rp->streams = NULL;
    rp->sink = rp->wdata = NULL;
    rp->ncur = 0;
    ld_child_unmount(c);
}
