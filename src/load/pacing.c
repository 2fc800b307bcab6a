/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pacing.c - the SFS 3.0 pacing controller and the open-loop mode
 * (docs/SFS30.md §9, docs/DECISIONS.md D7), on an injectable clock and sleeper.
 *
 * SFS mode formula (D7 leaves it to us, docs/SFS30.md §22 item 1): at a checkpoint the
 * work time per call w is the interval's length minus the time slept,
 * divided by its calls, and the sleep error per call e is the time slept
 * minus the time asked for (select() overshoot, debt dropped by a carry
 * reset).  The next interval should carry its own share
 * (rate x interval) and, in the run phase, half of the run's deficit so far,
 * bounded to +-25 % of the share (a partial catch-up: the whole deficit at
 * once is what made SFS 2.0 oscillate).  The deficit and the work leave out
 * the time given up after a stall (pacing.h: bounded catch-up).  The time
 * per call is interval / planned calls and the sleep per call is that
 * minus w and e, at least 0 and at most 2 x (previous + 5) ms.
 * Deviation: SFS slept whole milliseconds; sleeps here are in nanoseconds
 * so that rates above 1 000 calls/s per child can be held within 1 %.
 * Asserted: time only moves forward (phase start <= interval start <= now,
 * on a monotonic clock), and the open-loop deadlines never move back.
 */
#include <assert.h>
#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/select.h>

#include "common/clock.h"
#include "common/rng.h"
#include "load/config.h"
#include "load/pacing.h"

#define NS_PER_MS 1000000.0
#define NS_PER_S  1000000000.0

static int select_sleep(void *data, uint64_t ns)
{
    struct timeval tv;

    (void)data;
    if (ns == 0)
        return 0;
    tv.tv_sec = (time_t)(ns / 1000000000ull);
    tv.tv_usec = (suseconds_t)((ns % 1000000000ull) / 1000);
    if (select(0, NULL, NULL, NULL, &tv) < 0 && errno != EINTR)
        return -errno;
    return 0;
}

const struct ld_sleeper ld_select_sleeper = {select_sleep, NULL};

void ld_pacer_init(struct ld_pacer *p, const struct cm_clock *clock,
                   const struct ld_sleeper *sleeper, int mode, double rate, int64_t seed)
{
    memset(p, 0, sizeof(*p));
    p->clock = clock ? *clock : cm_monotonic_clock;
    p->sleeper = sleeper ? *sleeper : ld_select_sleeper;
    p->mode = mode;
    p->rate = rate > 0 ? rate : 1;
    cm_rng_seed(&p->rng, seed);
    p->sleep_ms = 1000.0 / p->rate;
    p->phase = LD_PHASE_WARMUP;
    p->check_ns = LD_PACE_WARMUP_CHECK_NS;
}

void ld_pacer_start_phase(struct ld_pacer *p, int phase)
{
    uint64_t now = cm_clock_now(&p->clock);

    p->phase = phase;
    p->check_ns = phase == LD_PHASE_RUN ? LD_PACE_RUN_CHECK_NS : LD_PACE_WARMUP_CHECK_NS;
    p->phase_start_ns = now;
    p->interval_start_ns = now;
    p->calls_interval = p->calls_phase = 0;
    p->slept_interval_ns = p->slept_phase_ns = 0;
    p->asked_interval_ns = 0;
    p->next_deadline_ns = now;
    p->dropped_ns = p->stalled_interval_ns = 0;
    p->last_late_ns = 0;
    p->max_lag_ns = 0;
}

/* Lateness at now against the schedule of the phase, in ns (negative:
 * ahead).  calls_phase calls are done; the next is due at calls / rate. */
static double lateness_ns(const struct ld_pacer *p, uint64_t now)
{
    return (double)(now - p->phase_start_ns) - (double)p->dropped_ns -
           (double)p->calls_phase * NS_PER_S / p->rate;
}

void ld_pacer_note_lag(struct ld_pacer *p, uint64_t now)
{
    double late = lateness_ns(p, now);

    if (p->phase == LD_PHASE_RUN && late > (double)p->max_lag_ns)
        p->max_lag_ns = (uint64_t)late;
}

uint64_t ld_pacer_behind_ns(const struct ld_pacer *p, uint64_t now)
{
    double owed =
        (double)(now - p->phase_start_ns) - (double)p->calls_phase * NS_PER_S / p->rate;

    return owed > 0 ? (uint64_t)owed : 0;
}

/* ---- SFS mode ------------------------------------------------------------- */

int ld_pacer_sleep(struct ld_pacer *p, uint64_t req_ns, uint64_t *actual_ns)
{
    int64_t want = (int64_t)req_ns + p->carry_ns;
    uint64_t t0, t1, got;
    int rc = 0;

    t0 = cm_clock_now(&p->clock);
    if (want > 0)
        rc = p->sleeper.sleep_ns(p->sleeper.data, (uint64_t)want);
    t1 = cm_clock_now(&p->clock);
    got = t1 > t0 ? t1 - t0 : 0;
    if (req_ns != 0 || got != 0) {
        p->carry_ns += (int64_t)req_ns - (int64_t)got;
        p->carry_adjusts++;
    }
    if (p->carry_ns > (int64_t)LD_PACE_CARRY_LIMIT_NS ||
        p->carry_ns < -(int64_t)LD_PACE_CARRY_LIMIT_NS) {
        p->carry_ns = 0;
        p->carry_resets++;
    }
    p->slept_interval_ns += got;
    p->slept_phase_ns += got;
    if (actual_ns)
        *actual_ns = got;
    return rc;
}

/* Recomputes the per-call sleep at the end of an interval.  Returns -ETIME
 * for a run interval without calls. */
static int checkpoint(struct ld_pacer *p, uint64_t now)
{
    struct ld_pace_checkpoint cp;
    double ival_ns = (double)(now - p->interval_start_ns);
    double phase_ns = (double)(now - p->phase_start_ns);
    double check_s = (double)p->check_ns / NS_PER_S;
    int rc = 0;

    memset(&cp, 0, sizeof(cp));
    cp.phase = p->phase;
    cp.t_ns = now - p->phase_start_ns;
    cp.calls_interval = p->calls_interval;
    cp.calls_phase = p->calls_phase;
    cp.interval_s = ival_ns / NS_PER_S;
    cp.rate_interval = ival_ns > 0 ? p->calls_interval / (ival_ns / NS_PER_S) : 0;
    cp.rate_phase = phase_ns > 0 ? p->calls_phase / (phase_ns / NS_PER_S) : 0;
    cp.sleep_ms_old = cp.sleep_ms_new = p->sleep_ms;
    p->checkpoints++;

    if (p->calls_interval == 0) {
        if (p->phase == LD_PHASE_RUN) {
            p->zero_intervals++;
            rc = -ETIME;
        }
    } else if (p->mode == LD_PACE_SFS) {
        double work_ns =
            ival_ns - (double)p->slept_interval_ns - (double)p->stalled_interval_ns;
        double w_ms, e_ms, deficit, planned, next_ms, cap;

        if (work_ns < 0)
            work_ns = 0;
        w_ms = work_ns / (double)p->calls_interval / NS_PER_MS;
        planned = p->rate * check_s;
        if (p->phase == LD_PHASE_RUN) {
            /* catch up half the run's deficit, at most a quarter of an
             * interval's calls either way; warm-up only tracks the rate,
             * so the run starts from the steady-state sleep */
            deficit = p->rate * (phase_ns - (double)p->dropped_ns) / NS_PER_S -
                      (double)p->calls_phase;
            deficit /= 2;
            if (deficit > planned / 4)
                deficit = planned / 4;
            if (deficit < -planned / 4)
                deficit = -planned / 4;
            planned += deficit;
        }
        /* what the sleeps really gave per call beyond what was asked:
         * select() overshoot, debt dropped by a carry reset, descheduling;
         * asking that much less makes the loop settle in one interval */
        e_ms = ((double)p->slept_interval_ns - (double)p->asked_interval_ns) /
               (double)p->calls_interval / NS_PER_MS;
        next_ms = check_s * 1000.0 / planned - w_ms - e_ms;
        if (next_ms < 0)
            next_ms = 0;
        cap = 2.0 * (p->sleep_ms + 5.0);
        if (next_ms > cap) {
            next_ms = cap;
            cp.capped = 1;
            p->capped++;
        }
        cp.work_ms_per_call = w_ms;
        cp.sleep_ms_new = next_ms;
        p->sleep_ms = next_ms;
    }
    if (p->on_checkpoint)
        p->on_checkpoint(p->hook_data, &cp);
    p->interval_start_ns = now;
    p->calls_interval = 0;
    p->slept_interval_ns = 0;
    p->asked_interval_ns = 0;
    p->stalled_interval_ns = 0;
    return rc;
}

/* Runs the checkpoint when one is due at now. */
static int poll_at(struct ld_pacer *p, uint64_t now)
{
    assert(p->phase_start_ns <= p->interval_start_ns && p->interval_start_ns <= now);
    if (now - p->interval_start_ns >= p->check_ns)
        return checkpoint(p, now);
    return 0;
}

int ld_pacer_poll(struct ld_pacer *p)
{
    return poll_at(p, cm_clock_now(&p->clock));
}

/* ---- open loop --------------------------------------------------------------- */

/* One inter-arrival gap in ns. */
static uint64_t gap_ns(struct ld_pacer *p)
{
    double mean = NS_PER_S / p->rate;

    if (p->mode == LD_PACE_OPEN_POISSON)
        return (uint64_t)(-log(cm_rng_unit(&p->rng)) * mean + 0.5);
    return (uint64_t)(mean + 0.5);
}

int ld_pacer_before(struct ld_pacer *p, uint64_t *lag_ns)
{
    uint64_t now;
    int tries = 0, rc;

    *lag_ns = 0;
    if (p->mode == LD_PACE_SFS)
        return 0;
    now = cm_clock_now(&p->clock);
    /* a short or interrupted sleep sleeps again; bounded so a broken
     * sleeper cannot spin forever */
    while (now < p->next_deadline_ns && tries++ < 1000) {
        rc = p->sleeper.sleep_ns(p->sleeper.data, p->next_deadline_ns - now);
        if (rc < 0)
            return rc;
        now = cm_clock_now(&p->clock);
    }
    if (now > p->next_deadline_ns) {
        *lag_ns = now - p->next_deadline_ns;
        p->late_calls++;
    }
    return 0;
}

/* ---- both ------------------------------------------------------------------ */

int ld_pacer_after(struct ld_pacer *p, uint32_t calls)
{
    uint64_t now = cm_clock_now(&p->clock), req_ns;
    uint32_t i;
    int rc;

    /* checkpoint first: a request that ends a long stall counts in the new
     * interval, so the stalled interval is seen with zero calls */
    rc = poll_at(p, now);
    p->calls_interval += calls;
    p->calls_phase += calls;
    if (rc < 0)
        return rc;
    if (p->mode != LD_PACE_SFS) {
        uint64_t before = p->next_deadline_ns;

        for (i = 0; i < calls; i++)
            p->next_deadline_ns += gap_ns(p);
        assert(p->next_deadline_ns >= before);
        (void)before;
        return 0;
    }
    req_ns = (uint64_t)llround(p->sleep_ms * NS_PER_MS * calls);
    if (p->phase == LD_PHASE_RUN) {
        /* Deviation (D7): stay within +-20 ms of the schedule, and make up
         * at most LD_PACE_DEBT_NS of a stall (pacing.h) */
        double behind_ns = lateness_ns(p, now);

        if (behind_ns > (double)p->max_lag_ns)
            p->max_lag_ns = (uint64_t)behind_ns;
        if (behind_ns > (double)LD_PACE_DEBT_NS) {
            /* a stall: what it added to the lateness is not work; beyond
             * the debt it is given up */
            double before = p->last_late_ns > 0 ? (double)p->last_late_ns : 0;

            p->stalled_interval_ns += (uint64_t)(behind_ns - before);
            p->dropped_ns += (uint64_t)(behind_ns - (double)LD_PACE_DEBT_NS);
            behind_ns = (double)LD_PACE_DEBT_NS;
        }
        p->last_late_ns = (int64_t)behind_ns;
        if (behind_ns > (double)LD_PACE_CATCHUP_NS) {
            /* the schedule now settles the debt: keeping it in the carry
             * as well would make the same time up twice */
            p->carry_ns = 0;
            p->catchup_skips++;
            return 0;
        }
        if (-behind_ns > (double)(LD_PACE_CATCHUP_NS + req_ns)) {
            req_ns = (uint64_t)(-behind_ns) - LD_PACE_CATCHUP_NS;
            p->ahead_sleeps++;
        }
    }
    p->asked_interval_ns += req_ns;
    return ld_pacer_sleep(p, req_ns, NULL);
}

int ld_clock_resolution(const struct cm_clock *c, double *us)
{
    uint64_t best = UINT64_MAX;
    int trial;

    for (trial = 0; trial < 10; trial++) {
        uint64_t t0 = cm_clock_now(c), t1;
        long spins = 0;

        do {
            t1 = cm_clock_now(c);
        } while (t1 == t0 && ++spins < 100000000L);
        if (t1 > t0 && t1 - t0 < best)
            best = t1 - t0;
    }
    *us = best == UINT64_MAX ? 1e9 : (double)best / 1000.0;
    return *us > LD_CLOCK_LIMIT_US ? -ERANGE : 0;
}
