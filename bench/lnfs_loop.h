/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * lnfs_loop.h - what the libnfs baselines of bench/ping.sh share
 * (lnfs_getattr.c, lnfs4_getattr.c): the clocks around their loop and the
 * result lines, in sfs_ping's form, so that bench/ping.sh reads both alike.
 */
#ifndef LNFS_LOOP_H
#define LNFS_LOOP_H

#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

static inline double lnfs_loop_now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The process's CPU time (user + system), in seconds. */
static inline double lnfs_loop_cpu_s(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* calls, errors, ops/s and CPU per call of a loop that took secs and cpu. */
static inline void lnfs_loop_print(long completed, long errors, double secs, double cpu)
{
    printf("calls      %ld\n", completed);
    printf("errors     %ld\n", errors);
    printf("ops/s      %.1f\n", secs > 0 ? (double)completed / secs : 0.0);
    printf("cpu_us/call %.2f\n", completed ? cpu * 1e6 / (double)completed : 0.0);
}

#endif /* LNFS_LOOP_H */
