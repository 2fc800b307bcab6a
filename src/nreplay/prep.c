/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prep.c - what a child of the NFS trace replay does before the clock
 * starts (nr.h): mount with room for the window, learn the transfer
 * maxima, remove a tree an earlier replay left (through libnfs,
 * docs/DECISIONS.md D3) and create the image's tree at the start of the
 * trace under CL<N>/nreplay (one tree per copy of the trace whose stream 0
 * the process replays: nreplay, nreplay.1, ...; a copy another client
 * makes is looked up instead, hosts.c) through the child's own client, so that every
 * object's handle on the server under test is known: the roots as r0,
 * r1..., the orphans by handle under orphans/, directories, files with
 * their start size written (UNSTABLE, then one COMMIT), symlinks with
 * their targets, special files, then the hard links.  An object that
 * cannot be made is counted (prepare_failed) and its calls are reported
 * as not replayable; the replay goes on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/alloc.h"
#include "ctl/ct.h"
#include "image/im.h"
#include "load/options.h"
#include "nfs/nf_lnfs.h"
#include "nreplay/nr_int.h"

#define LNFS_TIMEOUT_MS 30000u
#define RECONNECT_MIN_S 30u  /* a server away is waited for at least */
#define RECONNECT_MAX_S 400u /* and at most (PRIME_TIMEOUT's default) */

/* ---- mount ---------------------------------------------------------------- */

/* How long the server may stay away (ms): the replay's time (-t, or the
 * trace at its speed), within RECONNECT_MIN_S..MAX_S.  Over TCP a lost
 * connection is made again for as long (the calls in flight go again
 * with the same XID); over UDP a replay of which nothing was answered for
 * as long ends (run.c).  FREESFS_REPLAY_RECONNECT_MS sets it for the
 * tests, which kill a server and must not wait half a minute. */
static uint32_t give_up_ms(const struct nr_replay *rp)
{
    const struct ld_config *cfg = rp->cx.cfg;
    const char *e = getenv("FREESFS_REPLAY_RECONNECT_MS");
    double s = rb_limit_s(cfg) > 0 ? rb_limit_s(cfg)
                                   : nr_expected_s(rp->plan, RB_TOPTS(cfg)->trace_speed);

    if (e && strtoul(e, NULL, 10) > 0)
        return (uint32_t)strtoul(e, NULL, 10);
    if (s <= 0 || s > RECONNECT_MAX_S)
        s = RECONNECT_MAX_S;
    if (s < RECONNECT_MIN_S)
        s = RECONNECT_MIN_S;
    return (uint32_t)(s * 1000.0);
}

static int mount(struct ld_child *c)
{
    struct nr_replay *rp = (struct nr_replay *)c;
    int rc;

    rp->give_up_ms = give_up_ms(rp);
    rc = rb_mount_window(c, rp->window, c->cfg->tcp ? rp->give_up_ms : 0);

    if (rc < 0)
        return rc;
    if (rp->version == 4)
        nr_prep4_maxima(rp);
    else
        rb_transfer_maxima(c, &rp->rtmax, &rp->wtmax);
    return 0;
}

/* ---- making objects ------------------------------------------------------- */

static void sattr3_mode(sattr3 *a, uint32_t mode)
{
    struct nf_sattr s;

    nf_sattr_mode(&s, mode);
    nf_sattr_to_v3(&s, a);
}

static void sattr2_mode(sattr *a, uint32_t mode)
{
    struct nf_sattr s;

    nf_sattr_mode(&s, mode);
    nf_sattr_to_v2(&s, a);
}

/* Writes size bytes of the pattern into a new file (UNSTABLE and one
 * COMMIT in v3). */
static int fill(struct nr_replay *rp, const struct nf_fh *fh, uint64_t size)
{
    uint64_t off;
    uint32_t st = 0;
    int rc = 0;

    for (off = 0; off < size && rc == 0; off += rp->wtmax) {
        uint32_t n = size - off < rp->wtmax ? (uint32_t)(size - off) : rp->wtmax;

        if (rp->version == 3) {
            WRITE3args a;
            WRITE3res res;

            memset(&res, 0, sizeof(res));
            nf_fh_to_v3(fh, &a.file);
            a.offset = off;
            a.count = n;
            a.stable = UNSTABLE;
            a.data.data_len = n;
            a.data.data_val = rp->win.wdata;
            rc = nf_call_sync_status(rp->cx.ses.rpc, NFSPROC3_WRITE, &a, &res, &st);
            if (rc == 0)
                nf_res_free(rp->cx.ses.rpc, NFSPROC3_WRITE, &res);
        } else {
            writeargs a;
            attrstat res;

            if (off + n > UINT32_MAX)
                return -EFBIG;
            memset(&res, 0, sizeof(res));
            (void)nf_fh_to_v2(fh, &a.file);
            a.beginoffset = a.offset = (u_int)off;
            a.totalcount = n;
            a.data.data_len = n;
            a.data.data_val = rp->win.wdata;
            rc = nf_call_sync_status(rp->cx.ses.rpc, NFSPROC_WRITE, &a, &res, &st);
            if (rc == 0)
                nf_res_free(rp->cx.ses.rpc, NFSPROC_WRITE, &res);
        }
        if (rc == 0 && st != 0)
            rc = nf_status_errno(st);
    }
    if (rc == 0 && size > 0 && rp->version == 3) {
        COMMIT3args a;
        COMMIT3res res;

        memset(&res, 0, sizeof(res));
        nf_fh_to_v3(fh, &a.file);
        a.offset = 0;
        a.count = 0;
        rc = nf_call_sync_status(rp->cx.ses.rpc, NFSPROC3_COMMIT, &a, &res, &st);
        if (rc == 0)
            nf_res_free(rp->cx.ses.rpc, NFSPROC3_COMMIT, &res);
    }
    return rc;
}

/* The v3 call that makes object o as name in dir. */
static int make3(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
                 const struct im_obj *o, const char *target)
{
    union nf3_args a;
    union nf3_res res;
    uint32_t proc, st = 0, mode = (o->flags & IM_O_MODE) ? o->mode : 0;
    int rc;

    memset(&a, 0, sizeof(a));
    memset(&res, 0, sizeof(res));
    switch (o->type) {
    case TR_NFS_DIR:
        proc = NFSPROC3_MKDIR;
        nf_fh_to_v3(dir, &a.mkdir.where.dir);
        a.mkdir.where.name = (char *)name;
        sattr3_mode(&a.mkdir.attributes, mode ? mode : 0755);
        break;
    case TR_NFS_LNK:
        proc = NFSPROC3_SYMLINK;
        nf_fh_to_v3(dir, &a.symlink.where.dir);
        a.symlink.where.name = (char *)name;
        sattr3_mode(&a.symlink.symlink.symlink_attributes, mode ? mode : 0777);
        a.symlink.symlink.symlink_data = (char *)target;
        break;
    case TR_NFS_FIFO:
    case TR_NFS_SOCK:
    case TR_NFS_CHR:
    case TR_NFS_BLK:
        proc = NFSPROC3_MKNOD;
        nf_fh_to_v3(dir, &a.mknod.where.dir);
        a.mknod.where.name = (char *)name;
        a.mknod.what.type = (ftype3)o->type;
        if (o->type == TR_NFS_CHR || o->type == TR_NFS_BLK)
            sattr3_mode(&a.mknod.what.mknoddata3_u.device.dev_attributes,
                        mode ? mode : 0644);
        else
            sattr3_mode(&a.mknod.what.mknoddata3_u.pipe_attributes, mode ? mode : 0644);
        break;
    default: /* a regular file, or a name of no known type */
        proc = NFSPROC3_CREATE;
        nf_fh_to_v3(dir, &a.create.where.dir);
        a.create.where.name = (char *)name;
        a.create.how.mode = UNCHECKED;
        sattr3_mode(&a.create.how.createhow3_u.obj_attributes, mode ? mode : 0644);
        break;
    }
    rc = nf_call_sync_status(rp->cx.ses.rpc, proc, &a, &res, &st);
    if (rc < 0)
        return rc;
    /* CREATE, MKDIR, SYMLINK and MKNOD results share their layout */
    if (st == NFS3_OK && res.create.CREATE3res_u.resok.obj.handle_follows)
        rc = nf_fh_from_v3(&rp->fh[o - im_obj(rp->plan->img, 0)],
                           &res.create.CREATE3res_u.resok.obj.post_op_fh3_u.handle);
    nf_res_free(rp->cx.ses.rpc, proc, &res);
    return rc < 0 ? rc : st ? nf_status_errno(st) : 0;
}

static int make2(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
                 const struct im_obj *o, const char *target)
{
    union nf2_args a;
    union nf2_res res;
    uint32_t proc, st = 0, mode = (o->flags & IM_O_MODE) ? o->mode : 0;
    int rc;

    memset(&res, 0, sizeof(res));
    if (o->type == TR_NFS_LNK) {
        proc = NFSPROC_SYMLINK;
        (void)nf_fh_to_v2(dir, &a.symlink.from.dir);
        a.symlink.from.name = (char *)name;
        a.symlink.to = (char *)target;
        sattr2_mode(&a.symlink.attributes, mode ? mode : 0777);
    } else {
        proc = o->type == TR_NFS_DIR ? NFSPROC_MKDIR : NFSPROC_CREATE;
        (void)nf_fh_to_v2(dir, &a.create.where.dir);
        a.create.where.name = (char *)name;
        sattr2_mode(&a.create.attributes, mode                    ? mode
                                          : o->type == TR_NFS_DIR ? 0755
                                                                  : 0644);
    }
    rc = nf_call_sync_status(rp->cx.ses.rpc, proc, &a, &res, &st);
    if (rc < 0)
        return rc;
    if (st == NFS_OK && proc != NFSPROC_SYMLINK)
        nf_fh_from_v2(&rp->fh[o - im_obj(rp->plan->img, 0)],
                      &res.mkdir.diropres_u.diropres.file);
    nf_res_free(rp->cx.ses.rpc, proc, &res);
    return st ? nf_status_errno(st) : 0;
}

/* Makes object obj as name in dir, with its handle in rp->fh[obj]. */
static int make(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
                uint32_t obj)
{
    const struct im_obj *o = im_obj(rp->plan->img, obj);
    char target[TR_NFS_PATH_MAX];
    size_t n = 0;
    const char *t = im_target(rp->plan->img, obj, &n);
    int rc;

    if (n >= sizeof(target))
        n = sizeof(target) - 1;
    memcpy(target, t ? t : "", t ? n : 0);
    target[t ? n : 0] = '\0';
    if (!t)
        snprintf(target, sizeof(target), "unknown-target");
    if (rp->version == 4) /* its data written there too */
        return nr_prep4_make(rp, dir, name, obj, target);
    rc = rp->version == 3 ? make3(rp, dir, name, o, target)
                          : make2(rp, dir, name, o, target);
    if (rc == 0 && rp->fh[obj].len == 0)
        rc = nr_lookup(rp, dir, name, &rp->fh[obj]);
    if (rc == 0 && (o->type == TR_NFS_REG || o->type == TR_NFS_NONE) && o->size > 0)
        rc = fill(rp, &rp->fh[obj], o->size);
    return rc;
}

static int hard_link(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
                     uint32_t obj)
{
    uint32_t st = 0, proc;
    int rc;

    if (rp->fh[obj].len == 0)
        return -ENOENT;
    if (rp->version == 4)
        return nr_prep4_link(rp, dir, name, obj);
    if (rp->version == 3) {
        LINK3args a;
        LINK3res res;

        memset(&res, 0, sizeof(res));
        nf_fh_to_v3(&rp->fh[obj], &a.file);
        nf_fh_to_v3(dir, &a.link.dir);
        a.link.name = (char *)name;
        proc = NFSPROC3_LINK;
        rc = nf_call_sync_status(rp->cx.ses.rpc, proc, &a, &res, &st);
        if (rc == 0)
            nf_res_free(rp->cx.ses.rpc, proc, &res);
    } else {
        linkargs a;
        nfsstat res = NFS_OK;

        (void)nf_fh_to_v2(&rp->fh[obj], &a.from);
        (void)nf_fh_to_v2(dir, &a.to.dir);
        a.to.name = (char *)name;
        rc = nf_call_sync_status(rp->cx.ses.rpc, NFSPROC_LINK, &a, &res, &st);
    }
    return rc < 0 ? rc : st ? nf_status_errno(st) : 0;
}

/* ---- the walk --------------------------------------------------------------- */

struct walk {
    struct nr_replay *rp;
    uint32_t roots;
    struct nf_fh orphans; /* len 0 until the first orphan */
    int learn;            /* another client made the tree: look it up */
    int rc;               /* a fatal error (the client broke) */
};

static int one(void *data, const struct im_walk_item *w)
{
    struct walk *k = data;
    struct nr_replay *rp = k->rp;
    char name[TR_NFS_NAME_MAX + 16];
    const struct nf_fh *dir = &rp->base;
    size_t n = w->name_len < TR_NFS_NAME_MAX ? w->name_len : TR_NFS_NAME_MAX;
    int rc;

    memcpy(name, w->name, n);
    name[n] = '\0';
    switch (w->kind) {
    case IM_W_ROOT:
        snprintf(name, sizeof(name), "r%u", k->roots++);
        break;
    case IM_W_ORPHAN:
        if (k->orphans.len == 0) /* made by fresh_base */
            (void)nr_lookup(rp, &rp->base, "orphans", &k->orphans);
        dir = &k->orphans;
        break;
    default:
        dir = &rp->fh[w->dir];
        break;
    }
    NR_STATS(&rp->cx)->nr_prep_objects += !k->learn;
    if (dir->len == 0) {
        NR_STATS(&rp->cx)->nr_prep_failed++;
        return 0;
    }
    if (k->learn && w->kind == IM_W_HARD_LINK) /* its object has a name already */
        return 0;
    if (k->learn)
        rc = nr_lookup(rp, dir, name, &rp->fh[w->obj]);
    else
        rc = w->kind == IM_W_HARD_LINK ? hard_link(rp, dir, name, w->obj)
                                       : make(rp, dir, name, w->obj);
    if (rc == -ENOTCONN || rc == -ETIMEDOUT || rc == -ECONNRESET)
        return k->rc = ld_child_fail(&rp->cx, rc, "preparing the image: %s: %s", name,
                                     rp_status_text(rc));
    if (rc < 0) {
        NR_STATS(&rp->cx)->nr_prep_failed++;
        if (rp->cx.debug)
            ld_child_log(&rp->cx, "nreplay: cannot %s %s: %s", k->learn ? "find" : "make",
                         w->path, strerror(-rc));
    }
    return 0;
}

/* The tree an earlier replay left goes; CL<N>/nreplay and its orphans
 * directory are made again (libnfs). */
static int fresh_base(struct nr_replay *rp, const char *base, int orphans)
{
    const char *spec = ld_config_mount_for_child(rp->cx.cfg, (int)rp->cx.index);
    char err[CM_ERR_LEN], path[LD_PATH_MAX];
    struct nf_lnfs *l;
    int rc;

    rc = nf_lnfs_open(&l, spec, LNFS_TIMEOUT_MS, err, sizeof(err));
    if (rc < 0)
        /* libnfs speaks NFSv3 over TCP only, whatever version the replay
         * speaks: a v2 replay needs a server that serves v3 too */
        return ld_child_fail(&rp->cx, rc,
                             "preparing the image through libnfs (NFSv3 over TCP, also "
                             "for an NFSv2 replay): %s",
                             err);
    rc = nf_lnfs_remove_tree(l, base);
    if (rc == 0)
        rc = nf_lnfs_mkdir_p(l, base);
    snprintf(path, sizeof(path), "%s/orphans", base);
    if (rc == 0 && orphans)
        rc = nf_lnfs_mkdir_p(l, path);
    if (rc < 0)
        ld_child_fail(&rp->cx, rc, "preparing the image on %s: %s", spec,
                      nf_lnfs_last_error(l));
    nf_lnfs_close(l);
    return rc;
}

/* What the run uses, bounded by the window and the look-ahead: the live
 * calls and their names, the held list, the streams of the calls read
 * last, the window (READ replies: their status only). */
static int allocate(struct nr_replay *rp)
{
    rp->nlive = NR_HELD_MAX + rp->window;
    rp->live = cm_calloc(rp->nlive, sizeof(*rp->live));
    rp->names = cm_malloc(NR_NAMES_BYTES);
    rp->held = cm_calloc(rp->nlive, sizeof(*rp->held));
    rp->stream_of = cm_calloc(2 * (size_t)NR_LOOKAHEAD, sizeof(*rp->stream_of));
    if (!rp->live || !rp->names || !rp->held || !rp->stream_of ||
        rb_window_init(&rp->win, rp->window, rp, 0, rp->wtmax) < 0)
        return -ENOMEM;
    if (rp->version == 4) { /* a v4 call per slot, an open per state slot and copy */
        rp->v4calls = cm_calloc(rp->window ? rp->window : 1, nr_call4_bytes());
        rp->v4open = cm_calloc(((size_t)rp->ncopies + 1) * ((size_t)rp->plan->nsids + 1),
                               nr_state4_bytes());
        if (!rp->v4calls || !rp->v4open)
            return -ENOMEM;
    }
    return 0;
}

static int walk_copy(struct nr_replay *rp, int learn)
{
    struct walk w;
    int rc;

    memset(&w, 0, sizeof(w));
    w.rp = rp;
    w.learn = learn;
    rc = im_walk(rp->plan->img, one, &w, NULL);
    if (rc == -ENOMEM)
        return ld_child_fail(&rp->cx, rc, "out of memory");
    return rc < 0 ? rc : w.rc;
}

/* Copy k of this process: its tree made afresh, or looked up once another
 * client made it (hosts.c); every handle noted (in the area the client's
 * processes share). */
static int prepare_copy(struct nr_replay *rp, uint32_t k)
{
    struct ld_child *c = &rp->cx;
    const uint32_t *tops;
    char cl[32], dir[32], base[80];
    int rc;

    rp->fh = nr_copy_fh(rp, rp->copy_m[k]);
    nr_copy_base(rp, k, cl, sizeof(cl), dir, sizeof(dir));
    snprintf(base, sizeof(base), "/%s/%s", cl, dir);
    if (rp->learns[k])
        return (rc = nr_hosts_wait(rp, cl, dir, &rp->base)) < 0 ? rc : walk_copy(rp, 1);
    rc = fresh_base(rp, base, im_orphan_tops(rp->plan->img, &tops) > 0);
    if (rc < 0)
        return rc;
    if ((rc = nr_lookup(rp, &c->ses.mnt.root, cl, &rp->base)) < 0 ||
        (rc = nr_lookup(rp, &rp->base, dir, &rp->base)) < 0)
        return ld_child_fail(c, rc, "LOOKUP %s: %s", base, strerror(-rc));
    rc = walk_copy(rp, 0);
    if (rc == 0 && rp->prepares[k] == NR_PREP_SHARED)
        rc = nr_hosts_mark(rp, base); /* the last object: the tree is whole */
    return rc;
}

static int prepare(struct nr_replay *rp)
{
    uint32_t k;
    int rc = 0;

    if (allocate(rp) < 0)
        return ld_child_fail(&rp->cx, -ENOMEM, "out of memory");
    NR_STATS(&rp->cx)->nr_prep_objects = NR_STATS(&rp->cx)->nr_prep_failed = 0;
    for (k = 0; k < rp->ncopies && rc == 0; k++)
        if (rp->prepares[k] || rp->learns[k]) /* else by another process of the client */
            rc = prepare_copy(rp, k);
    if (rc == 0)
        rc = nr_hosts_count(rp);
    if (rc == 0 && rp->version == 4)
        rc = nr_clients4_open(rp); /* a client per traced client */
    return rc;
}

/* ---- the table's child hooks ------------------------------------------------ */

/* The copies this process takes part in (a stream of them is its,
 * nr_unit_client and nr_unit_proc), their slots in the client's shared
 * area, those whose tree it makes (stream 0's) and those whose tree it
 * looks up (another client's; the client's first process with a stream of
 * them does). */
static int copies_of(struct nr_replay *rp)
{
    const struct ld_config *cfg = rp->cx.cfg;
    uint32_t copies = nr_scale(cfg), me = (uint32_t)cfg->client_num, j, s, n = 0,
             slot = 0;
    unsigned first;

    rp->nstreams = rp->plan->nstreams ? rp->plan->nstreams : 1;
    rp->copy_m = cm_calloc((size_t)copies + 1, sizeof(*rp->copy_m));
    rp->copy_j = cm_calloc((size_t)copies + 1, sizeof(*rp->copy_j));
    rp->prepares = cm_calloc((size_t)copies + 1, 1);
    rp->learns = cm_calloc((size_t)copies + 1, 1);
    rp->mine = cm_calloc(((size_t)copies + 1) * rp->nstreams, 1);
    if (!rp->copy_m || !rp->copy_j || !rp->prepares || !rp->learns || !rp->mine)
        return -ENOMEM;
    for (j = 0; j < copies; j++) {
        int here = 0, other_proc = 0, other_client = 0;
        uint8_t *mine = &rp->mine[(size_t)n * rp->nstreams];

        first = (unsigned)cfg->procs;
        for (s = 0; s < rp->nstreams; s++) {
            unsigned proc = nr_unit_proc(cfg, j, s, rp->nstreams);

            if (nr_unit_client(cfg, j, s, rp->nstreams) != me) {
                other_client = 1;
                continue;
            }
            here = 1;
            first = proc < first ? proc : first;
            mine[s] = proc == rp->cx.index;
            other_proc |= !mine[s];
        }
        if (!here)
            continue;
        slot++;
        if (memchr(mine, 1, rp->nstreams) == NULL)
            continue;
        rp->shares |= other_proc;
        if (nr_unit_client(cfg, j, 0, rp->nstreams) == me)
            rp->prepares[n] = nr_unit_proc(cfg, j, 0, rp->nstreams) != rp->cx.index ? 0
                              : other_client ? NR_PREP_SHARED
                                             : NR_PREP_OWN;
        else
            rp->learns[n] = first == rp->cx.index;
        rp->nprepared += rp->prepares[n] != 0;
        rp->copy_j[n] = j;
        rp->copy_m[n++] = slot - 1;
    }
    rp->ncopies = n;
    return 0;
}

int nr_child_init(struct ld_child *c, const struct ld_setup *su, unsigned index,
                  int ctl_fd)
{
    struct nr_replay *rp = (struct nr_replay *)c;

    ld_child_setup(c, su, index, ctl_fd);
    rp->plan = su->plan;
    rp->version = c->ses.proto->version;
    rp->speed = RB_TOPTS(c->cfg)->trace_speed;
    rp->window = (uint32_t)RB_TOPTS(c->cfg)->trace_window;
    return copies_of(rp);
}

int nr_child_phase(struct ld_child *c, uint32_t type, uint32_t arg)
{
    struct nr_replay *rp = (struct nr_replay *)c;
    uint64_t objects, failed;
    int rc;

    if (rp->ncopies == 0) /* a process without a copy stays idle */
        return 0;
    switch (type) {
    case CT_MSG_MOUNT:
        c->phase = LD_CPHASE_MOUNT;
        rc = mount(c);
        return rc < 0 ? rc : nr_hosts_unmark(rp);
    case CT_MSG_INIT:
        c->phase = LD_CPHASE_INIT;
        return prepare(rp);
    case CT_MSG_RUN:
        objects = NR_STATS(c)->nr_prep_objects;
        failed = NR_STATS(c)->nr_prep_failed;
        rc = nr_run(c, arg);
        NR_STATS(c)->nr_prep_objects = objects;
        NR_STATS(c)->nr_prep_failed = failed;
        NR_STATS(c)->nr_streams = rp->nstreams;
        NR_STATS(c)->nr_unit_calls = rp->unit_calls;
        NR_STATS(c)->nr_cross_deps = rp->cross_deps;
        NR_STATS(c)->nr_cross_calls = rp->cross_calls;
        return rc;
    default:
        return 0;
    }
}

void nr_child_results(struct ld_child *c)
{
    const struct nr_replay *rp = (const struct nr_replay *)c;
    struct ld_stats *s = &c->stats;
    const struct im_image *img = rp->plan->img;
    uint64_t bytes = 0, files = 0, dirs = 0, links = 0;
    uint32_t i;

    if (rp->ncopies == 0) { /* idle: not one of the processes the run time averages */
        s->nchildren = 0;
        return;
    }
    for (i = 0; i < im_nobjs(img); i++) {
        const struct im_obj *o = im_obj(img, i);

        if ((o->flags & (IM_O_AT_START | IM_O_DEAD)) != IM_O_AT_START)
            continue;
        if (o->type == TR_NFS_DIR)
            dirs++;
        else if (o->type == TR_NFS_LNK)
            links++;
        else {
            files++;
            bytes += o->size;
        }
    }
    bytes *= rp->nprepared; /* the trees this process made */
    s->total_kb = s->base_kb = s->least_kb = s->most_kb = (bytes + 1023) / 1024;
    s->io_files = s->working_files = files * rp->nprepared;
    s->nonio_files = 0;
    s->symlinks = links * rp->nprepared;
    s->dirs = dirs * rp->nprepared;
}

void nr_child_free(struct ld_child *c)
{
    struct nr_replay *rp = (struct nr_replay *)c;

    /* a call still in flight completes while the client closes: its slot
     * must still be there, and it changes nothing (the results are sent) */
    rp->closing = 1;
    nr_clients4_close(rp);
    ld_child_unmount(c);
    free(rp->copy_m);
    free(rp->copy_j);
    free(rp->prepares);
    free(rp->learns);
    free(rp->mine);
    free(rp->live);
    free(rp->names);
    free(rp->held);
    free(rp->stream_of);
    nr_stream_close(&rp->in);
    rb_window_free(&rp->win);
    free(rp->v4calls);
    free(rp->v4open);
    rp->v4calls = rp->v4open = NULL;
    rp->copy_m = rp->copy_j = NULL;
    rp->prepares = rp->learns = rp->mine = NULL;
    rp->fh = NULL;
    rp->live = NULL;
    rp->names = NULL;
    rp->held = NULL;
    rp->stream_of = NULL;
}
