/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sched.c - how a replay process is scheduled while it replays (rb.h;
 * docs/replay.md "Lateness"): the 1 ns timer slack, so that a sleep ends
 * at its deadline rather than up to 50 us after it (the kernel's default
 * slack); on request (--realtime) the SCHED_FIFO class, so that a due
 * process runs before the machine's ordinary ones instead of waiting for
 * a CPU; and on request (--cpus) a CPU of a list for each process.  The
 * parent checks what it can before anything is prepared (a bad list, a
 * CPU the process may not use, a real-time class the system refuses), so
 * that a run never fails for it half-way, and warns, once the plan gives
 * the trace's rate, of a real-time spin as long as the time between a
 * process's calls (the kernel's real-time throttling would then take its
 * CPU for 50 ms of every second).
 */
#define _GNU_SOURCE /* sched_setaffinity, CPU_SET */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>

#include "common/error.h"
#include "common/exit.h"
#include "replaybase/rb.h"

/* A bench's setting from the environment (NAME, set and not empty), else
 * dflt. */
static uint64_t bench_setting(const char *name, uint64_t dflt)
{
    const char *e = getenv(name);

    return e && *e ? strtoull(e, NULL, 10) : dflt;
}

/* The CPUs of a list "N,N-M,..." in its order into cpu (at most max), how
 * many; -1 with the reason in err when it is not one. */
static int cpu_list(const char *text, int *cpu, int max, char *err, size_t errlen)
{
    const char *p = text;
    int n = 0;

    while (*p) {
        char *end;
        long lo = strtol(p, &end, 10), hi;

        if (end == p || lo < 0 || lo >= CPU_SETSIZE)
            return cm_errf(err, errlen, "--cpus %s: not a list of CPUs (N, N-M, ...)",
                           text),
                   -1;
        hi = lo;
        if (*end == '-') {
            p = end + 1;
            hi = strtol(p, &end, 10);
            if (end == p || hi < lo || hi >= CPU_SETSIZE)
                return cm_errf(err, errlen, "--cpus %s: not a list of CPUs (N, N-M, ...)",
                               text),
                       -1;
        }
        for (; lo <= hi; lo++) {
            if (n == max)
                return cm_errf(err, errlen, "--cpus %s: more than %d CPUs", text, max),
                       -1;
            cpu[n++] = (int)lo;
        }
        if (*end == ',' && end[1] != '\0')
            end++;
        else if (*end != '\0')
            return cm_errf(err, errlen, "--cpus %s: not a list of CPUs (N, N-M, ...)",
                           text),
                   -1;
        p = end;
    }
    return n;
}

int rb_sched_check(const struct ld_config *cfg, char *err, size_t errlen)
{
    const struct rb_trace_opts *o = RB_TOPTS(cfg);
    int cpu[RB_MAX_CPUS], n, i;
    cpu_set_t may;

    if (o->trace_cpus[0]) {
        n = cpu_list(o->trace_cpus, cpu, RB_MAX_CPUS, err, errlen);
        if (n < 0)
            return CM_EXIT_SFS_CPUS;
        if (sched_getaffinity(0, sizeof(may), &may) < 0)
            return cm_errf(err, errlen, "--cpus %s: %s", o->trace_cpus, strerror(errno)),
                   CM_EXIT_SFS_CPUS;
        for (i = 0; i < n; i++)
            if (!CPU_ISSET(cpu[i], &may))
                return cm_errf(err, errlen,
                               "--cpus %s: CPU %d is not one this process may run on",
                               o->trace_cpus, cpu[i]),
                       CM_EXIT_SFS_CPUS;
    }
    if (o->trace_realtime > 0) {
        /* tried here and undone, so that a refusal stops the run before
         * anything is prepared; the old class is always allowed back */
        struct sched_param want = {.sched_priority = o->trace_realtime}, old;
        int policy = sched_getscheduler(0);

        if (policy < 0 || sched_getparam(0, &old) < 0 ||
            sched_setscheduler(0, SCHED_FIFO, &want) < 0)
            return cm_errf(err, errlen,
                           "--realtime %d: the system refuses the real-time class "
                           "SCHED_FIFO to this user (%s): it needs CAP_SYS_NICE or an "
                           "RLIMIT_RTPRIO of at least %d (ulimit -r)",
                           o->trace_realtime, strerror(errno), o->trace_realtime),
                   CM_EXIT_SFS_REALTIME;
        (void)sched_setscheduler(0, policy, &old);
    }
    return 0;
}

int rb_sched_enter(struct ld_child *c, struct rb_loop *l)
{
    const struct rb_trace_opts *o = RB_TOPTS(c->cfg);
    uint64_t slack;
    int cpu[RB_MAX_CPUS], n;

    /* FREESFS_REPLAY_TIMERSLACK_NS for the benches that measure against
     * another slack (bench/replay.sh, bench/replay_lateness.sh); 0 leaves
     * the process's own */
    slack = bench_setting("FREESFS_REPLAY_TIMERSLACK_NS", 1);
    if (slack > 0)
        (void)prctl(PR_SET_TIMERSLACK, (unsigned long)slack, 0, 0, 0);
    l->spin_ns = (uint64_t)o->trace_spin_us * 1000u;
    if (o->trace_cpus[0]) {
        cpu_set_t one;

        n = cpu_list(o->trace_cpus, cpu, RB_MAX_CPUS, c->last_error,
                     sizeof(c->last_error));
        if (n <= 0)
            return -EINVAL;
        CPU_ZERO(&one);
        CPU_SET(cpu[c->index % (unsigned)n], &one);
        if (sched_setaffinity(0, sizeof(one), &one) < 0)
            return ld_child_fail(c, -errno, "--cpus %s: CPU %d: %s", o->trace_cpus,
                                 cpu[c->index % (unsigned)n], strerror(errno));
    }
    if (o->trace_realtime > 0) {
        struct sched_param p = {.sched_priority = o->trace_realtime};

        if (sched_setscheduler(0, SCHED_FIFO | SCHED_RESET_ON_FORK, &p) < 0)
            return ld_child_fail(c, -errno, "--realtime %d: %s", o->trace_realtime,
                                 strerror(errno));
    }
    return 0;
}

void rb_sched_leave(struct ld_child *c)
{
    struct sched_param p = {.sched_priority = 0};

    /* the drain, the report and the next point run as any process */
    if (RB_TOPTS(c->cfg)->trace_realtime > 0)
        (void)sched_setscheduler(0, SCHED_OTHER, &p);
}

/* A number of /proc/sys/kernel/NAME, or dflt when it cannot be read. */
static long kernel_setting(const char *name, long dflt)
{
    char path[96];
    long v = dflt;
    FILE *f;

    snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
    f = fopen(path, "r");
    if (f == NULL)
        return dflt;
    if (fscanf(f, "%ld", &v) != 1)
        v = dflt;
    fclose(f);
    return v;
}

int rb_spin_warn(FILE *log, const char *prog, const struct ld_config *cfg, double rate,
                 const char *what, unsigned procs)
{
    const struct rb_trace_opts *o = RB_TOPTS(cfg);
    long runtime, period;
    double gap_us;

    if (o->trace_realtime <= 0 || o->trace_spin_us <= 0 || rate <= 0 || procs == 0)
        return 0;
    gap_us = 1e6 * procs / rate;
    runtime = kernel_setting("sched_rt_runtime_us", 950000);
    period = kernel_setting("sched_rt_period_us", 1000000);
    if ((double)o->trace_spin_us < gap_us || runtime < 0 || runtime >= period)
        return 0;
    fprintf(log,
            "%s: warning: --spin %d with --realtime %d: one replay process's %s come "
            "every %.0f us on average (%.0f %s/s over %u process%s), within the spin, so "
            "it would never sleep, and the kernel lets a real-time process that never "
            "sleeps have its CPU for only %ld of every %ld ms (sched_rt_runtime_us): "
            "calls would be up to %ld ms late; use a --spin under %.0f us\n",
            prog, o->trace_spin_us, o->trace_realtime, what, gap_us, rate, what, procs,
            procs == 1 ? "" : "es", runtime / 1000, period / 1000,
            (period - runtime) / 1000, gap_us);
    return 1;
}
