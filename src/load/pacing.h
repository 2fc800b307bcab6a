/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pacing.h - load pacing for one child (docs/SFS30.md §9, docs/DECISIONS.md D7).
 *
 * SFS mode (default): after each request the child sleeps calls x the
 * current per-call sleep.  At checkpoints (every 2 s in warm-up, 10 s in the
 * run) the per-call sleep is recomputed from the work time measured in the
 * last interval so that the next interval reaches the rate (catching up on
 * part of any deficit), capped at 2 x (previous + 5) ms.  Each sleep adds
 * the carried error (requested - actual), which is reset beyond +-100 ms.
 * A run interval with zero calls is an error (the run stops).
 * Deviation (D7): in the run the child stays within +-20 ms of the
 * schedule its rate implies: further behind, it skips its sleeps; further
 * ahead, it also sleeps the excess.  A short stall of the client
 * (descheduling, a slow reply) is then made up within the interval instead
 * of being dropped by the +-100 ms carry reset, and a per-call sleep
 * learned from a stalled warm-up interval cannot run the whole run fast;
 * 10 s checkpoints alone cannot correct a 10 s run.  The SFS controller
 * still sets the sleep.
 * The catch-up is bounded (docs/sfs.md; the 3.0 pacer "no longer catches up
 * completely"): the child carries at most LD_PACE_DEBT_NS of lateness; a
 * longer stall (a frozen server) moves the schedule on and the time beyond
 * the debt is lost throughput, counted in dropped_ns, never made up by a
 * burst.  A stall is not work either: the lateness it added (the part
 * made up and the part given up) is left out of the checkpoint's work per
 * call, so a stall does not shorten the next sleeps.
 *
 * Open-loop mode (FreeSFS, D7): each call has an absolute deadline (fixed
 * gaps of 1/rate, or exponential gaps for Poisson arrivals); the child waits
 * for the deadline before issuing and, when late, issues at once and the
 * lateness is reported as issue lag, apart from the response time.
 *
 * Time comes from an injectable cm_clock and sleeps go through an
 * injectable sleeper, so unit tests run a fake clock and never sleep.
 * Nothing allocates; nothing prints (DEBUG 6 / 11 output goes through the
 * optional hooks).
 */
#ifndef LD_PACING_H
#define LD_PACING_H

#include <stdint.h>

#include "common/clock.h"
#include "common/rng.h"

#define LD_PACE_WARMUP_CHECK_NS (2ull * 1000000000ull)
#define LD_PACE_RUN_CHECK_NS    (10ull * 1000000000ull)
#define LD_PACE_CARRY_LIMIT_NS  (100ull * 1000000ull) /* +-100 ms */
#define LD_PACE_CATCHUP_NS      (20ull * 1000000ull)  /* run-phase lag bound */
#define LD_PACE_DEBT_NS         (100ull * 1000000ull) /* most lateness made up */
#define LD_LATE_THRESHOLD_US    1000u /* open loop: a request is "late" beyond 1 ms */
#define LD_CLOCK_LIMIT_US       100.0

enum ld_phase {
    LD_PHASE_WARMUP = 3,
    LD_PHASE_RUN = 4
}; /* docs/SFS30.md §2.3 numbering */

/* Sleeps ns nanoseconds (0 = return at once).  Returns 0 or -errno; -EINTR
 * is treated as a short sleep.  The real one uses select() as SFS did. */
struct ld_sleeper {
    int (*sleep_ns)(void *data, uint64_t ns);
    void *data;
};
extern const struct ld_sleeper ld_select_sleeper;

/* What a checkpoint saw and decided (DEBUG 6). */
struct ld_pace_checkpoint {
    int phase;
    uint64_t t_ns;           /* since the phase started */
    uint64_t calls_interval; /* calls in the interval just ended */
    uint64_t calls_phase;    /* calls since the phase started */
    double interval_s;
    double rate_interval;              /* calls / s in the interval */
    double rate_phase;                 /* calls / s since the phase started */
    double work_ms_per_call;           /* measured, excluding sleep */
    double sleep_ms_old, sleep_ms_new; /* per-call sleep before and after */
    int capped;                        /* the 2 x (prev + 5) ms cap applied */
};

struct ld_pacer {
    /* set by ld_pacer_init */
    struct cm_clock clock;
    struct ld_sleeper sleeper;
    int mode;          /* enum ld_pace_mode */
    double rate;       /* target calls per second for this child */
    struct cm_rng rng; /* Poisson gaps */
    void (*on_checkpoint)(void *data, const struct ld_pace_checkpoint *cp);
    void *hook_data;

    /* state */
    int phase;
    uint64_t check_ns; /* checkpoint interval of the phase */
    uint64_t phase_start_ns;
    uint64_t interval_start_ns;
    uint64_t calls_interval, calls_phase;
    uint64_t slept_interval_ns, slept_phase_ns;
    double sleep_ms;  /* current per-call sleep (SFS mode) */
    int64_t carry_ns; /* carried sleep error */
    uint64_t carry_resets, carry_adjusts;
    uint64_t checkpoints, capped;
    uint64_t zero_intervals; /* run intervals with zero calls */
    /* open loop */
    uint64_t next_deadline_ns;
    uint64_t late_calls; /* issued after their deadline */
    /* SFS mode, added after the first version */
    uint64_t asked_interval_ns; /* sleep asked for in this interval */
    uint64_t catchup_skips;     /* sleeps skipped to make up a stall (run) */
    uint64_t ahead_sleeps;      /* sleeps lengthened: ahead of the schedule */
    /* bounded catch-up (run) */
    uint64_t dropped_ns;          /* lateness beyond the debt, given up */
    uint64_t stalled_interval_ns; /* stalls seen in this interval (not work) */
    int64_t last_late_ns;         /* lateness after the previous request */
    uint64_t max_lag_ns;          /* the most the child was ever behind */
};

/* Sets up a pacer: rate in calls/s (> 0), mode from enum ld_pace_mode, seed
 * for the Poisson gaps.  clock/sleeper are copied (NULL = the real ones).
 * The initial per-call sleep assumes zero work: 1000 / rate ms. */
void ld_pacer_init(struct ld_pacer *p, const struct cm_clock *clock,
                   const struct ld_sleeper *sleeper, int mode, double rate, int64_t seed);

/* Starts a phase (LD_PHASE_WARMUP or LD_PHASE_RUN) now: resets the phase and
 * interval counters, keeps the per-call sleep learned so far, and (open
 * loop) puts the first deadline at now. */
void ld_pacer_start_phase(struct ld_pacer *p, int phase);

/* Before issuing a request.  Open loop: waits for the deadline and returns
 * the issue lag in *lag_ns (0 if on time); SFS mode: returns at once with
 * *lag_ns = 0.  Returns 0 or the sleeper's -errno. */
int ld_pacer_before(struct ld_pacer *p, uint64_t *lag_ns);

/* After a request of `calls` calls was issued: counts the calls, runs the
 * checkpoint when due, then (SFS mode) sleeps calls x the per-call sleep
 * with compensation, or (open loop) moves the deadline by `calls` gaps.
 * Returns 0, -ETIME when a run interval ended with zero calls (the child
 * must stop: "zero calls in a run interval"), or the sleeper's -errno. */
int ld_pacer_after(struct ld_pacer *p, uint32_t calls);

/* How far behind the schedule of the current phase the child is at now
 * (0 when on time or ahead): the calls it owes at its rate, in ns,
 * counting the time given up after stalls. */
uint64_t ld_pacer_behind_ns(const struct ld_pacer *p, uint64_t now);

/* Notes the lateness at now (the end of a phase, when the last request
 * never returned to the pacer) in max_lag_ns. */
void ld_pacer_note_lag(struct ld_pacer *p, uint64_t now);

/* Runs a due checkpoint without issuing (for a child that is waiting on
 * replies): returns 0 or -ETIME as ld_pacer_after. */
int ld_pacer_poll(struct ld_pacer *p);

/* One SFS compensated sleep of ms milliseconds (docs/SFS30.md §9): adds the carried
 * error, sleeps (0 if negative), measures, carries requested - actual,
 * resets the carry beyond +-100 ms.  *actual_ns may be NULL. */
int ld_pacer_sleep(struct ld_pacer *p, uint64_t req_ns, uint64_t *actual_ns);

/*
 * The clock-resolution check (docs/SFS30.md §9): 10 trials of reading the clock until two
 * readings differ; *us gets the smallest difference in microseconds.
 * Returns 0, or -ERANGE when it is worse than LD_CLOCK_LIMIT_US (main prints
 * "Clock resolution too poor to obtain valid results" and exits 175;
 * otherwise "Good clock resolution [ x ] Micro seconds").
 */
int ld_clock_resolution(const struct cm_clock *c, double *us);

#endif /* LD_PACING_H */
