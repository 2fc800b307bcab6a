/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * child.c - the null workload's child (nl.h): MOUNT mounts, INIT has
 * nothing to prepare, WARMUP and RUN send NULL calls at the child's share
 * of the load, a batch at a time, each batch waited for before the next
 * (the pacer counts its calls), until the phase's time is up or the
 * parent says stop.  Only the run is counted.
 */
#include <errno.h>
#include <string.h>

#include "null/nl_int.h"

#define CHECK_NS 50000000ull /* the parent's socket is looked at this often */

int nl_child_init(struct ld_child *cx, const struct ld_setup *su, unsigned index,
                  int ctl_fd)
{
    struct nl_child *c = (struct nl_child *)cx;
    const struct ld_config *cfg = su->cfg;
    double rate = (double)cfg->load / (cfg->procs > 0 ? cfg->procs : 1);

    ld_child_setup(cx, su, index, ctl_fd);
    c->batch = (unsigned)NL_OPTS(cfg)->batch;
    ld_pacer_init(&c->pacer, NULL, NULL, cfg->pace_mode, rate > 0 ? rate : 1,
                  ld_child_seed(cfg, index));
    return 0;
}

static int mount(struct nl_child *c)
{
    struct ld_child *cx = &c->cx;
    const char *spec = ld_config_mount_for_child(cx->cfg, (int)cx->index);
    struct nf_mount_opts o;
    char err[CM_ERR_LEN];
    int rc;

    nf_mount_opts_init(&o, cx->ses.proto->version);
    o.transport = cx->cfg->tcp ? RP_TCP : RP_UDP;
    o.mount_transport = o.transport;
    o.rpc.max_in_flight = c->batch + 1;
    o.connect = cx->setup->connect;
    o.connect_data = cx->setup->connect_data;
    rc = nf_session_mount(&cx->ses, cx->ses.proto, c->batch, spec, &o, err, sizeof(err));
    if (rc < 0)
        return ld_child_fail(cx, rc, "Unable to mount %s: %s", spec, err);
    return 0;
}

/* One NULL call answered (or failed): counted in the run. */
static void done(struct rp_call *call, void *data)
{
    struct nl_child *c = data;

    c->in_flight--;
    if (!c->cx.measuring)
        return;
    if (call->status == 0)
        ld_stats_good(&c->cx.stats, NF_OP_NULL_OP, call->t_reply_ns - call->t_send_ns, 0);
    else
        ld_stats_bad(&c->cx.stats, NF_OP_NULL_OP);
    ld_live_call(&c->cx.live, call->t_reply_ns - call->t_send_ns, call->status == 0);
}

/* A batch of NULL calls, all in flight at once, waited for.  Returns the
 * calls sent, or -errno with last_error. */
static int batch(struct nl_child *c)
{
    static const nf_void none;
    static nf_void res;
    unsigned k;
    int rc = 0;

    for (k = 0; k < c->batch; k++) {
        struct rp_call *call = &c->call[k];

        rc = nf_call_init(call, c->cx.ses.rpc, 0, &none, &res, done, c);
        if (rc == 0)
            rc = rp_call_start(c->cx.ses.rpc, call);
        if (rc < 0)
            break;
        c->in_flight++;
    }
    if (c->cx.measuring && c->in_flight > NL_STATS(&c->cx)->most_in_flight)
        NL_STATS(&c->cx)->most_in_flight = c->in_flight;
    while (c->in_flight > 0)
        if (rp_poll(&c->cx.ses.rpc, 1, -1) < 0 && c->in_flight > 0)
            return ld_child_fail(&c->cx, -EIO, "NULL calls: %s",
                                 rp_client_last_error(c->cx.ses.rpc));
    return k > 0 ? (int)k : ld_child_fail(&c->cx, rc, "NULL call: %s", strerror(-rc));
}

static int load_phase(struct nl_child *c, int phase, uint32_t seconds)
{
    struct ld_child *cx = &c->cx;
    uint64_t start = cm_now_ns(), end = start + (uint64_t)seconds * 1000000000ull;
    uint64_t now = start, next_check = start + CHECK_NS, lag;
    int rc = 0, measuring = phase == LD_CPHASE_RUN;

    cx->phase = phase;
    cx->stop = 0;
    if (measuring)
        ld_child_results_reset(cx);
    cx->measuring = measuring;
    ld_pacer_start_phase(&c->pacer, measuring ? LD_PHASE_RUN : LD_PHASE_WARMUP);
    while (!cx->stop && (seconds == 0 || now < end)) {
        int calls;

        if (now >= next_check) {
            if (ld_child_check_parent(cx) < 0)
                return -EPIPE;
            next_check = now + CHECK_NS;
            if (cx->stop)
                break;
        }
        rc = ld_pacer_before(&c->pacer, &lag);
        if (rc < 0)
            break;
        calls = batch(c);
        if (calls < 0) {
            rc = calls;
            break;
        }
        if (measuring)
            NL_STATS(cx)->requests++;
        rc = ld_pacer_after(&c->pacer, (uint32_t)calls);
        if (rc == -ETIME) {
            ld_child_fail(cx, rc,
                          "zero calls in a run interval: the server does not answer");
            break;
        }
        now = cm_now_ns();
    }
    cx->measuring = 0;
    if (measuring) {
        now = cm_now_ns();
        cx->stats.runtime_ns = (seconds && now > end ? end : now) - start;
        ld_child_count_stop(cx);
    }
    return rc;
}

int nl_child_phase(struct ld_child *cx, uint32_t type, uint32_t arg)
{
    struct nl_child *c = (struct nl_child *)cx;

    switch (type) {
    case CT_MSG_MOUNT:
        cx->phase = LD_CPHASE_MOUNT;
        return mount(c);
    case CT_MSG_INIT:
        cx->phase = LD_CPHASE_INIT;
        return 0; /* no file set */
    case CT_MSG_WARMUP:
        return load_phase(c, LD_CPHASE_WARMUP, arg);
    case CT_MSG_RUN:
        return load_phase(c, LD_CPHASE_RUN, arg);
    default:
        return 0;
    }
}

void nl_child_results(struct ld_child *cx)
{
    (void)cx; /* no file set: everything was counted by the calls */
}

void nl_child_free(struct ld_child *cx)
{
    ld_child_unmount(cx);
}
