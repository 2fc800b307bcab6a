/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * clock.h - time (common layer, clock.c): CLOCK_MONOTONIC for response
 * times, pacing and deadlines, wall time for NFS times, and struct
 * cm_clock, the clock a test can step so that pacing and timeouts are
 * testable without sleeping.
 */
#ifndef CM_CLOCK_H
#define CM_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds.  Never goes back; not wall time. */
uint64_t cm_now_ns(void);
/* The same clock in milliseconds: phase deadlines and timeouts. */
uint64_t cm_now_ms(void);
/* CLOCK_REALTIME split into seconds and nanoseconds, for NFS times. */
void cm_wall_time(uint32_t *sec, uint32_t *nsec);

/* A clock that tests can step: production code reads time through one of
 * these so that pacing and timeouts are testable without sleeping. */
struct cm_clock {
    uint64_t (*now_ns)(void *data);
    void *data;
};
extern const struct cm_clock cm_monotonic_clock;
static inline uint64_t cm_clock_now(const struct cm_clock *c)
{
    return c->now_ns(c->data);
}

#endif /* CM_CLOCK_H */
