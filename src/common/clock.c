/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clock.c - monotonic and wall clocks (common layer).  Response times and
 * pacing use CLOCK_MONOTONIC only; wall time feeds NFS atime/mtime.
 */
#include "common/clock.h"

#include <time.h>

uint64_t cm_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cm_now_ms(void)
{
    return cm_now_ns() / 1000000u;
}

void cm_wall_time(uint32_t *sec, uint32_t *nsec)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    *sec = (uint32_t)ts.tv_sec;
    *nsec = (uint32_t)ts.tv_nsec;
}

static uint64_t monotonic_now(void *data)
{
    (void)data;
    return cm_now_ns();
}

const struct cm_clock cm_monotonic_clock = {monotonic_now, NULL};
