/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prep.c - everything a child does before the replay's clock
 * starts (rl.h): mount with room for the window, learn the transfer
 * maxima (FSINFO; 8 KiB for NFSv2: replaybase/mount.c), find the units its
 * streams use,
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

int rl_child_init(struct ld_child *c, const struct ld_setup *su, unsigned index,
                  int ctl_fd)
{
    struct rl_replay *rp = (struct rl_replay *)c;

    ld_child_setup(c, su, index, ctl_fd);
    rp->plan = su->plan;
    rp->version = c->ses.proto->version;
    rp->speed = RB_TOPTS(c->cfg)->trace_speed;
    rp->unstable = RL_BOPTS(c->cfg)->trace_stable == RL_UNSTABLE && rp->version == 3;
    rp->window = (uint32_t)RB_TOPTS(c->cfg)->trace_window;
    rl_procs(c->cfg, c->index, &rp->gproc, &rp->nprocs);
    return 0;
}

int rl_mount(struct ld_child *c)
{
    struct rl_replay *rp = (struct rl_replay *)c;
    int rc = rb_mount_window(c, rp->window, 0);

    if (rc < 0)
        return rc;
    rb_transfer_maxima(c, &rp->rtmax, &rp->wtmax);
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
        rc = rb_lookup(&rp->cx, &at, part, &at);
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
    int rc = walk(rp, &rp->cx.ses.mnt.root, clpath, &rp->dir);

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
            rc = rb_lookup(&rp->cx, &lastfh, rp->leaf[u], &rp->fh[u]);
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
    rp->streams = cm_calloc(p->nstreams, sizeof(*rp->streams));
    n = strcmp(p->format, "sysio") == 0 ? RL_MAX_CURSORS : 1;
    rp->cur = cm_calloc(n, sizeof(*rp->cur));
    if (!rp->items || !rp->streams || !rp->cur ||
        rb_window_init(&rp->win, rp->window, rp, rp->rtmax, rp->wtmax) < 0)
        return -ENOMEM;
    rp->win.budget = rp->cx.cfg->tcp ? UINT64_MAX : RL_UDP_BYTES;
    for (i = 0; i < rp->nitems; i++)
        rp->items[i].next = i + 1 < rp->nitems ? (int32_t)i + 1 : RL_NONE;
    rp->free_item = 0;
    rp->qhead = rp->qtail = rp->chead = rp->ctail = RL_NONE;
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
    RB_STATS(c)->replay_sparse_bytes = bytes;
    RB_STATS(c)->replay_touched_bytes = touched;
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

    /* a call still in flight completes while the client closes: its slot
     * and item must still be there, and it changes nothing */
    rp->closing = 1;
    ld_child_unmount(c);
    for (i = 0; i < rp->ncur; i++)
        if (rp->cur[i].open)
            tr_reader_close(&rp->cur[i].r);
    free(rp->cur);
    free(rp->fh);
    free(rp->dirfh);
    free(rp->leaf);
    free(rp->mine);
    free(rp->items);
    free(rp->streams);
    rp->cur = NULL;
    rp->fh = rp->dirfh = NULL;
    rp->leaf = NULL;
    rp->mine = NULL;
    rp->items = NULL;
    rp->streams = NULL;
    rp->ncur = 0;
    rb_window_free(&rp->win);
}
