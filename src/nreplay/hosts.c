/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * hosts.c - a copy of the trace whose streams several clients replay
 * (nr_int.h, docs/nfs_replay.md "Processes, clients and scaling").  The
 * process of the copy's stream 0 (its home) makes the tree and, last, a
 * marker directory `ready` in it; a client holding another stream of the
 * copy waits in INIT for that marker on the server under test (a bounded
 * wait that still answers the parent) and then looks the tree up (prep.c).
 * The marker an earlier replay left is removed in MOUNT, which every
 * client finishes before any client's INIT starts, so a marker found in
 * INIT is this run's.  Processes on two hosts cannot share completion
 * times: a call another client replays counts as completed
 * (nr_hosts_foreign), so a dependency on one is kept by the schedule only;
 * such dependencies are counted.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "common/error.h"
#include "common/clock.h"
#include "load/options.h"
#include "nfs/nf_lnfs.h"
#include "nreplay/nr_int.h"

#define MARKER          "ready"
#define LNFS_TIMEOUT_MS 30000u
#define WAIT_MAX_S      3600u     /* the prime waits as long for INIT */
#define WAIT_POLL_NS    20000000L /* look for the marker every 20 ms */

void nr_copy_base(const struct nr_replay *rp, uint32_t k, char *cl, size_t cllen,
                  char *dir, size_t dirlen)
{
    const struct ld_config *cfg = rp->cx.cfg;

    snprintf(cl, cllen, "CL%u", nr_unit_client(cfg, rp->copy_j[k], 0, rp->nstreams));
    nr_copy_dir(cfg, rp->copy_j[k], rp->nstreams, dir, dirlen);
}

/* fn on path (libnfs, the child's mount).  0 or -errno. */
static int on_path(struct nr_replay *rp, int (*fn)(struct nf_lnfs *, const char *),
                   const char *path)
{
    const char *spec = ld_config_mount_for_child(rp->cx.cfg, (int)rp->cx.index);
    char err[CM_ERR_LEN];
    struct nf_lnfs *l;
    int rc;

    rc = nf_lnfs_open(&l, spec, LNFS_TIMEOUT_MS, err, sizeof(err));
    if (rc < 0)
        return ld_child_fail(&rp->cx, rc, "the marker of a shared tree: %s", err);
    rc = fn(l, path);
    if (rc < 0)
        ld_child_fail(&rp->cx, rc, "the marker %s on %s: %s", path, spec,
                      nf_lnfs_last_error(l));
    nf_lnfs_close(l);
    return rc;
}

int nr_hosts_unmark(struct nr_replay *rp)
{
    char cl[32], dir[32], path[LD_PATH_MAX];
    uint32_t k;
    int rc = 0;

    for (k = 0; k < rp->ncopies && rc == 0; k++) {
        if (rp->prepares[k] != NR_PREP_SHARED)
            continue;
        nr_copy_base(rp, k, cl, sizeof(cl), dir, sizeof(dir));
        snprintf(path, sizeof(path), "/%s/%s/%s", cl, dir, MARKER);
        rc = on_path(rp, nf_lnfs_remove_tree, path);
    }
    return rc;
}

int nr_hosts_mark(struct nr_replay *rp, const char *base)
{
    char path[LD_PATH_MAX];

    snprintf(path, sizeof(path), "%s/%s", base, MARKER);
    return on_path(rp, nf_lnfs_mkdir_p, path);
}

int nr_hosts_wait(struct nr_replay *rp, const char *cl, const char *dir,
                  struct nf_fh *base)
{
    struct ld_child *c = &rp->cx;
    const struct timespec poll = {0, WAIT_POLL_NS};
    uint64_t until = cm_now_ns() + (uint64_t)WAIT_MAX_S * 1000000000ull;
    struct nf_fh top, mark;
    int rc;

    for (;;) { /* each look starts from the root: the tree may be made afresh */
        rc = nr_lookup(rp, &c->ses.mnt.root, cl, &top);
        if (rc == 0)
            rc = nr_lookup(rp, &top, dir, base);
        if (rc == 0)
            rc = nr_lookup(rp, base, MARKER, &mark);
        if (rc == 0)
            return 0;
        if (rc == -ENOTCONN || rc == -ETIMEDOUT || rc == -ECONNRESET)
            return ld_child_fail(c, rc, "waiting for /%s/%s: %s", cl, dir,
                                 rp_status_text(rc));
        if (cm_now_ns() >= until)
            return ld_child_fail(c, -ETIMEDOUT,
                                 "/%s/%s/%s did not appear within %u s: the client "
                                 "replaying stream 0 of its copy did not make the tree",
                                 cl, dir, MARKER, WAIT_MAX_S);
        if (ld_child_check_parent(c) < 0 || c->stop)
            return ld_child_fail(c, -EINTR, "stopped while waiting for /%s/%s", cl, dir);
        nanosleep(&poll, NULL);
    }
}

int nr_hosts_count(struct nr_replay *rp)
{
    const struct nr_plan *p = rp->plan;
    uint32_t k, t;

    rp->unit_calls = rp->cross_deps = rp->cross_calls = 0;
    for (k = 0; k < rp->ncopies; k++)
        for (t = 0; t < p->nstreams; t++)
            if (nr_mine(rp, k, t))
                rp->unit_calls += p->stream_calls[t];
    if (rp->ncopies == 0)
        return 0;
    return nr_cross_deps(p, rp->cx.cfg, (uint32_t)rp->cx.cfg->client_num,
                         (int)rp->cx.index, &rp->cross_deps, &rp->cross_calls,
                         rp->cx.last_error, sizeof(rp->cx.last_error));
}

int nr_hosts_foreign(const struct nr_replay *rp, uint32_t k, uint64_t j)
{
    return nr_unit_client(rp->cx.cfg, rp->copy_j[k],
                          rp->stream_of[j % (2 * NR_LOOKAHEAD)],
                          rp->nstreams) != (uint32_t)rp->cx.cfg->client_num;
}
