/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * loop.c - the clock of a replay's timed loop (rb.h).  A call planned t
 * into the trace is due at start + t / speed (speed 0: at once); the clock
 * starts 2 ms after RUN arrives, so that the first calls are not late for
 * the command's own delivery.  Sleeping is ppoll() on the client's socket
 * with a nanosecond timeout to the next absolute deadline, under a 1 ns
 * timer slack (sched.c); the last --spin microseconds before a deadline
 * are polled without sleeping, so that the call goes from a process that
 * is already awake rather than one the scheduler has yet to run.
 * Nothing here allocates.
 */
#define _GNU_SOURCE /* ppoll */
#include <errno.h>
#include <poll.h>
#include <time.h>

#include "common/clock.h"
#include "replaybase/rb.h"

#define CTL_CHECK_NS 50000000ull /* look at the parent's socket every 50 ms */
#define START_NS     2000000ull  /* the clock starts this long after RUN arrives */

int rb_run_begin(struct ld_child *c, struct rb_loop *l, double speed, uint32_t limit_s)
{
    int rc;

    c->phase = LD_CPHASE_RUN;
    c->stop = 0;
    ld_child_results_reset(c);
    c->measuring = 1;
    rc = rb_sched_enter(c, l);
    if (rc < 0)
        return rc;
    l->speed = speed;
    /* At speed 0 nothing waits for the clock: the calls leave at once, so
     * the clock starts now, or the run would end before its own start
     * and report no duration and no throughput. */
    l->start_ns = cm_now_ns() + (speed > 0 ? START_NS : 0);
    l->last_ns = l->start_ns;
    l->end_ns =
        limit_s > 0 ? l->start_ns + (uint64_t)limit_s * 1000000000ull : UINT64_MAX;
    l->next_check_ns = l->start_ns + CTL_CHECK_NS;
    return 0;
}

uint64_t rb_planned(const struct rb_loop *l, int64_t t_ns)
{
    if (l->speed <= 0 || t_ns <= 0)
        return l->start_ns;
    return l->start_ns + (uint64_t)((double)t_ns / l->speed);
}

int rb_loop_check(struct rb_loop *l, struct ld_child *c, uint64_t now)
{
    if (now >= l->end_ns)
        return 1;
    if (now < l->next_check_ns)
        return 0;
    if (ld_child_check_parent(c) < 0)
        return -EPIPE;
    if (c->stop)
        return 1;
    l->next_check_ns = now + CTL_CHECK_NS;
    return 0;
}

uint64_t rb_loop_wake(const struct rb_loop *l, uint64_t now)
{
    (void)l;
    return now + CTL_CHECK_NS;
}

int rb_wait_fds(const struct rb_loop *l, struct pollfd *pf, unsigned nfds, int timeout_ms,
                uint64_t wake)
{
    /* read now, not at the loop's top: the sends since then took time
     * (tens of us at 10 000 calls/s), which would otherwise end the sleep
     * that much after wake - spin / 2, past a due call */
    uint64_t now = cm_now_ns();
    struct timespec ts;
    unsigned i;
    int n;

    if (timeout_ms >= 0 && now + (uint64_t)timeout_ms * 1000000ull < wake)
        wake = now + (uint64_t)timeout_ms * 1000000ull;
    for (i = 0; i < nfds; i++)
        pf[i].revents = 0;
    if (wake > now + l->spin_ns) {
        uint64_t d = wake - now - l->spin_ns / 2;
        ts.tv_sec = (time_t)(d / 1000000000ull);
        ts.tv_nsec = (long)(d % 1000000000ull);
    } else {
        ts.tv_sec = 0;
        ts.tv_nsec = 0;
    }
    n = ppoll(pf, nfds, &ts, NULL);
    if (n < 0 && errno != EINTR)
        return -errno;
    return n > 0 ? n : 0;
}

int rb_wait_fd(const struct rb_loop *l, int fd, short events, int timeout_ms,
               uint64_t wake)
{
    struct pollfd pf;
    int n;

    pf.fd = fd;
    pf.events = events;
    n = rb_wait_fds(l, &pf, 1, timeout_ms, wake);
    return n > 0 ? pf.revents : n;
}

int rb_wait_service(const struct rb_loop *l, struct rp_client *cl, uint64_t wake)
{
    int rev = rb_wait_fd(l, rp_client_fd(cl), rp_client_events(cl),
                         rp_client_timeout_ms(cl), wake);

    return rev < 0 ? rev : rp_client_service(cl, (short)rev);
}

void rb_run_end(struct ld_child *c, const struct rb_loop *l, uint64_t end_ns,
                int64_t trace_ns)
{
    struct ld_stats *st = &c->stats;

    rb_sched_leave(c);
    ld_child_publish(c, 1); /* the progress lines' last reading */
    c->measuring = 0;
    st->runtime_ns = end_ns > l->start_ns ? end_ns - l->start_ns : 0;
    RB_STATS(c)->replay_run_ns = l->last_ns > l->start_ns ? l->last_ns - l->start_ns : 0;
    RB_STATS(c)->replay_trace_ns = trace_ns > 0 ? (uint64_t)trace_ns : 0;
    ld_child_count_stop(c);
}
