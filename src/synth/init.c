/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * init.c - mount and idempotent population of one child's file set
 * (sy_int.h; docs/SFS30.md §4, §5.3, §5.4).  Population requests go through
 * the same op generators as the load (ops.c) with the request's init flag
 * set: no statistics, INIT class timeouts, eight writes in flight per file
 * (UNSTABLE in v3: nothing measures population, and FILE_SYNC made a disk
 * server like nfs-ganesha VFS ten times slower to populate).
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load/debug.h"
#include "synth/sy_int.h"
#include "load/options.h"
#include "common/alloc.h"

#define MOUNT_STAGGER_MS 200
#define RECONNECT_MAX_S  400 /* PRIME_TIMEOUT's default (D8) */
#define INIT_TRIES       5   /* an RPC failure during population is retried */
#define TYPE_REG         1   /* NFREG / NF3REG */
#define TYPE_DIR         2   /* NFDIR / NF3DIR */
#define TYPE_LNK         5   /* NFLNK / NF3LNK */

static void sleep_ms(unsigned ms)
{
    poll(NULL, 0, (int)ms);
}

/* ---- CL<n> and testdir<k>: lookup or mkdir by (dir, name) ---------------- */

/* Looks name up in dir, or makes it (mk), on the biod's spare slot; *st
 * the NFS status, a directory made or found without a handle EXIST (then
 * looked up).  Returns 0, or the RPC status. */
static int dir_call(struct sy_child *c, const struct nf_fh *dir, const char *name, int mk,
                    struct nf_fh *out, uint32_t *st)
{
    struct sy_slot *s = sy_biod_spare(&c->biod);
    struct nf_op_args *a = &s->args;
    int rc;

    memset(a, 0, sizeof(*a));
    a->op = mk ? NF_OP_MKDIR : NF_OP_LOOKUP;
    a->fh = dir;
    a->name = name;
    a->mode = 0777;
    s->call->timeout_ms = 0;
    rc = nf_call_run(&c->cx.ses, s->call, a);
    if (rc < 0)
        return rc;
    *st = s->call->res.status;
    if (*st == 0 && s->call->res.has_fh)
        *out = s->call->res.fh;
    else if (*st == 0)
        *st = NF_ST_EXIST; /* made without a handle: look it up */
    return 0;
}

/* Looks name up in dir and makes it when absent (a lost MKDIR reply that
 * comes back EXIST is followed by a lookup, docs/SFS30.md §4).  Returns 0 with *out, or
 * -errno with last_error. */
static int lookup_or_mkdir(struct sy_child *c, const struct nf_fh *dir, const char *name,
                           struct nf_fh *out)
{
    int step, try, rc = 0;
    uint32_t st = 0;

    /* steps: lookup, mkdir, lookup again (after EXIST) */
    for (step = 0; step < 3; step++) {
        int mk = step == 1;
        for (try = 0; try < (int)LD_JUKEBOX_TRIES; try++) {
            rc = dir_call(c, dir, name, mk, out, &st);
            if (rc == 0 && st != NF_ST_JUKEBOX)
                break;
            if (rc == 0) /* the server is busy: try again later (biod.h) */
                sleep_ms(c->biod.jukebox_delay_ms);
            else if (try + 1 >= INIT_TRIES)
                break;
        }
        if (rc < 0)
            return ld_child_fail(&c->cx, rc, "%s %s: %s", mk ? "mkdir" : "lookup", name,
                                 rp_status_text(rc));
        if (st == 0)
            return 0;
        if (step == 0 && st != NF_ST_NOENT)
            break;
        if (step == 1 && st != NF_ST_EXIST)
            break;
    }
    return ld_child_fail(&c->cx, -EIO, "%s: %s", name, nf_status_name(st));
}

/* ---- mount ---------------------------------------------------------------- */

int sy_init_mount(struct sy_child *c)
{
    struct nf_mount_opts o;
    const char *spec = ld_config_mount_for_child(c->cx.cfg, (int)c->cx.index);
    char err[CM_ERR_LEN], name[32];
    struct nf_fh cl;
    int rc;
    uint32_t window = (uint32_t)c->cx.cfg->runtime_s;

    nf_mount_opts_init(&o, c->cx.ses.proto->version);
    o.transport = c->cx.cfg->tcp ? RP_TCP : RP_UDP;
    o.mount_transport = o.transport;
    /* population re-sends a lost call after a few round trips, not after
     * the 10 s Init timer (the load phases go back to the class timers) */
    o.rpc.adaptive_rto = 1;
    /* a lost TCP connection is re-established while the server comes back
     * within PRIME_TIMEOUT or the run time (sy_load_phase ends the
     * run with its report when it does not) */
    if (window > RECONNECT_MAX_S)
        window = RECONNECT_MAX_S;
    o.rpc.reconnect_ms = c->cx.cfg->tcp ? window * 1000u : 0;
    o.connect = c->cx.setup->connect;
    o.connect_data = c->cx.setup->connect_data;
    sleep_ms(MOUNT_STAGGER_MS * c->cx.index);
    /* Deviation (docs/SFS30.md §5.3): SFS retried a mount that timed out up to 10 times;
     * a server that gives no answer in the 10 s Init timer (shared by the
     * retransmissions) fails at once, by name, instead of after minutes */
    rc = nf_session_mount(&c->cx.ses, c->cx.ses.proto, SY_BIOD_SLOTS - 1, spec, &o, err,
                          sizeof(err));
    if (rc == -ETIMEDOUT)
        return ld_child_fail(&c->cx, rc, "mount %s: no reply in %u s (%s)", spec,
                             o.timeout_ms / 1000, err);
    if (rc < 0)
        return ld_child_fail(&c->cx, rc, "Unable to mount %s: %s", spec, err);
    snprintf(name, sizeof(name), "CL%d", c->cx.cfg->client_num);
    rc = lookup_or_mkdir(c, &c->cx.ses.mnt.root, name, &cl);
    if (rc == 0) {
        snprintf(name, sizeof(name), "testdir%u", c->cx.index);
        rc = lookup_or_mkdir(c, &cl, name, &c->testdir);
    }
    if (rc < 0) {
        snprintf(err, sizeof(err), "%s", c->cx.last_error);
        return ld_child_fail(&c->cx, rc, "mount %s: %s", spec, err);
    }
    return 0;
}

/* ---- population ------------------------------------------------------------ */

/* One reliable population call on entry i: retried after an RPC failure.
 * Returns the NFS status (>= 0) or -errno with last_error. */
static int init_op(struct sy_child *c, int op, uint32_t i)
{
    char name[SY_NAME_MAX];
    int try, rc;

    for (try = 0; try < INIT_TRIES; try++) {
        struct sy_req keep = c->req;
        memset(&c->req, 0, sizeof(c->req));
        c->req.op = op;
        c->req.file = i;
        c->req.file2 = SY_NO_FILE;
        c->req.ncalls = 1;
        c->req.init = 1;
        if (op == NF_OP_SETATTR || op == NF_OP_WRITE) {
            c->req.truncate = keep.truncate;
            c->req.new_size = keep.new_size;
            c->req.offset = keep.offset;
            c->req.len = keep.len;
            c->req.block = keep.block;
            c->req.ncalls = keep.ncalls;
        }
        rc = sy_op_issue(c);
        if (rc < 0)
            break;
        if (c->req.rpc_status == 0)
            return (int)c->req.nfs_status;
        rc = c->req.rpc_status;
    }
    sy_files_name(&c->files, i, name, sizeof(name));
    return ld_child_fail(&c->cx, rc, "populate: %s %s: %s", nf_op_name(op), name,
                         rp_status_text(rc));
}

/* Like init_op, but any NFS status other than OK (or `also`) fails. */
static int init_ok(struct sy_child *c, int op, uint32_t i, uint32_t also)
{
    char name[SY_NAME_MAX];
    int st = init_op(c, op, i);

    if (st <= 0 || (uint32_t)st == also)
        return st < 0 ? st : 0;
    sy_files_name(&c->files, i, name, sizeof(name));
    return ld_child_fail(&c->cx, -EIO, "populate: %s %s: NFS error %s", nf_op_name(op),
                         name, nf_status_name((uint32_t)st));
}

/* Looks entry i up.  Returns 1 when it exists (type and size in c->req), 0
 * when not, -errno on failure. */
static int probe(struct sy_child *c, uint32_t i)
{
    int st = init_op(c, NF_OP_LOOKUP, i);

    if (st < 0)
        return st;
    if (st == NF_ST_NOENT)
        return 0;
    if (st != 0)
        return ld_child_fail(&c->cx, -EIO, "populate: lookup: NFS error %s",
                             nf_status_name((uint32_t)st));
    return 1;
}

/* Makes entry i as a `op` (create, mkdir, symlink), then makes sure it has
 * a handle (EXIST after a retransmission, or v2 symlink: lookup). */
static int make(struct sy_child *c, int op, uint32_t i)
{
    int rc = init_ok(c, op, i, NF_ST_EXIST);

    if (rc < 0)
        return rc;
    if (!c->files.f[i].has_fh) {
        rc = probe(c, i);
        if (rc <= 0)
            return rc < 0 ? rc
                          : ld_child_fail(&c->cx, -EIO, "populate: made entry vanished");
    }
    return 0;
}

/* Removes entry i (a dir with rmdir); NOENT is fine. */
static int unmake(struct sy_child *c, uint32_t i, int type)
{
    return init_ok(c, type == TYPE_DIR ? NF_OP_RMDIR : NF_OP_REMOVE, i, NF_ST_NOENT);
}

/* Brings entry i to `want` (exists or not) with file type `type`.  fresh:
 * its directory was just made, so it cannot exist yet.  Returns 1 when it
 * made the entry, 0 when nothing had to be made, -errno on failure. */
static int settle(struct sy_child *c, uint32_t i, int want, int type, int fresh,
                  int mk_op)
{
    int exists = 0, rc;

    if (!fresh) {
        exists = probe(c, i);
        if (exists < 0)
            return exists;
        if (exists && c->req.attr_type == TYPE_DIR && type == TYPE_DIR && !want) {
            /* A spare dir that a run with another layout filled: leave it
             * (existing, not empty, so no mkdir/rmdir target). */
            int st = init_op(c, NF_OP_RMDIR, i);
            if (st < 0)
                return st;
            if (st == NF_ST_NOTEMPTY) {
                c->files.f[i].state = SY_EXISTS;
                return 0;
            }
            exists = 0;
        } else if (exists && (c->req.attr_type != type || !want)) {
            rc = unmake(c, i, c->req.attr_type);
            if (rc < 0)
                return rc;
            exists = 0;
        }
    }
    c->files.f[i].state =
        want ? (type == TYPE_DIR ? SY_EMPTY_DIR : SY_EXISTS) : SY_NONEXISTENT;
    if (!want)
        c->files.f[i].has_fh = 0;
    if (!exists && want) {
        rc = make(c, mk_op, i);
        if (rc < 0)
            return rc;
        c->req.attr_size = 0;
        return 1;
    }
    return 0;
}

/* Truncates or fills io file i to its initial size. */
static int size_io(struct sy_child *c, uint32_t i, uint64_t have)
{
    struct sy_file *f = &c->files.f[i];
    uint32_t block = c->cx.setup->iodist.block_bytes;

    if (have > f->init_size) {
        c->req.truncate = 1;
        c->req.new_size = f->init_size;
        if (init_ok(c, NF_OP_SETATTR, i, 0) < 0)
            return -EIO;
    } else if (have < f->init_size) {
        c->req.offset = have;
        c->req.len = (uint32_t)(f->init_size - have);
        c->req.block = block;
        c->req.ncalls = (c->req.len + block - 1) / block;
        if (init_ok(c, NF_OP_WRITE, i, 0) < 0)
            return -EIO;
    }
    f->size = f->init_size;
    return 0;
}

int sy_init_populate(struct sy_child *c)
{
    struct sy_files *t = &c->files;
    struct cm_rng sizes;
    unsigned char *fresh;
    uint32_t i, k;
    int rc = 0,
        dbg = ld_debug_child_on(c->cx.debug, LD_DBG_CHILD_SETUP, (int)c->cx.index);

    fresh = cm_calloc(t->n_holding, 1);
    if (fresh == NULL)
        return ld_child_fail(&c->cx, -ENOMEM, "populate: out of memory");
    /* Sizes depend on the seed and the child only: a re-run restores them. */
    cm_rng_seed(&sizes, ld_child_seed(c->cx.cfg, c->cx.index) * 7919 + 1);
    for (i = 0; i < t->count[SY_CAT_IO]; i++)
        t->f[t->first[SY_CAT_IO] + i].init_size = ld_filesize_draw(&sizes);
    c->biod.timeout_ms = nf_class_timeout_ms(NF_CLASS_INIT, c->cx.cfg->tcp);

    /* directories: holding dirs always, spare dirs every other one */
    for (i = 0; rc == 0 && i < t->count[SY_CAT_DIR]; i++) {
        int want = i < t->n_holding || (i - t->n_holding) % 2 == 0;
        rc = settle(c, i, want, TYPE_DIR, 0, NF_OP_MKDIR);
        if (rc >= 0 && i < t->n_holding) {
            fresh[i] = rc == 1;
            t->f[i].state = SY_EXISTS;
        }
        rc = rc < 0 ? rc : 0;
    }
    if (dbg && rc == 0)
        ld_child_log(&c->cx, "populate: %u directories ready", t->count[SY_CAT_DIR]);
    /* io files: exist with their initial size, filled with data */
    for (k = 0; rc == 0 && k < t->count[SY_CAT_IO]; k++) {
        i = t->first[SY_CAT_IO] + k;
        if (k % 256 == 0 && ld_child_parent_gone(&c->cx)) {
            rc = ld_child_fail(&c->cx, -EPIPE, "populate: the parent is gone");
            break;
        }
        rc = settle(c, i, 1, TYPE_REG, fresh[t->f[i].parent], NF_OP_CREATE);
        if (rc >= 0)
            rc = size_io(c, i, c->req.attr_size);
    }
    if (dbg && rc == 0)
        ld_child_log(&c->cx, "populate: %u io files ready", t->count[SY_CAT_IO]);
    /* non-io slots: half pre-created (empty), half left free for creates */
    for (k = 0; rc == 0 && k < t->count[SY_CAT_NONIO]; k++) {
        i = t->first[SY_CAT_NONIO] + k;
        rc = settle(c, i, k % 2 == 0, TYPE_REG, fresh[t->f[i].parent], NF_OP_CREATE);
        rc = rc < 0 ? rc : 0;
        t->f[i].size = 0;
    }
    for (k = 0; rc == 0 && k < t->count[SY_CAT_SYMLINK]; k++) {
        i = t->first[SY_CAT_SYMLINK] + k;
        rc = settle(c, i, 1, TYPE_LNK, fresh[t->f[i].parent], NF_OP_SYMLINK);
        rc = rc < 0 ? rc : 0;
    }
    free(fresh);
    c->biod.timeout_ms = 0;
    if (rc < 0)
        return rc;
    sy_files_reset_accounting(t);
    if (dbg)
        ld_child_log(&c->cx, "populate: done, base %llu KB",
                     (unsigned long long)(t->base_bytes / 1024));
    return sy_working_enter(c);
}
