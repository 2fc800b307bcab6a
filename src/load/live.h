/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * live.h - what a run shows while it runs: the counters behind the
 * progress lines of sfs, sfs3 and sfs_mgr (docs/sfs.md, "Progress").
 *
 * Each child keeps a struct ld_live as it goes (ld_live_call on every
 * completed call of a load phase: O(1), nothing allocated) and a few times
 * a second copies it into its slot of an area it shares with its parent
 * (ld_live_publish; the area is mapped before the fork), so that no
 * message travels per call: the parent reads the slots when it prints
 * (ld_live_sum), and a client of a prime sends the sum in its heartbeats
 * (ld_live_encode).  The counters only grow during a child's life, so the
 * figures of an interval are the difference of two readings (ld_live_diff).
 * The field table (common/fields.h) drives the merge, the difference and
 * the wire form, as the results' does.
 */
#ifndef LD_LIVE_H
#define LD_LIVE_H

#include <stddef.h>
#include <stdint.h>

#include "common/fields.h"
#include "common/hist.h"

struct ld_workload_ops;

struct ld_live {
    uint64_t good;      /* calls answered within their timeout */
    uint64_t bad;       /* calls that failed or were answered too late */
    uint64_t sum_us;    /* the good calls' response times */
    uint64_t behind_ns; /* how far behind its schedule a child is now (max) */
    /* the workload's own (its progress hook says what they are; a
     * replay: records replayed, the trace's records, records held back,
     * and the p99 of its calls' lateness so far) */
    uint64_t done, total, waits; /* total: the whole's size, every child knows it (max) */
    uint64_t late_us;            /* max */
    uint64_t at_ms;              /* when it was published (cm_now_ms), max */
    uint64_t first_ms;           /* a reading's (ld_live_sum_since): when the window
                                    holding every call counted since the reader's last
                                    reading began; 0 none counted (min) */
    struct cm_hist hist;         /* the good calls' response times, us */
};

/* Zeroes l. */
void ld_live_reset(struct ld_live *l);

/* Hot path: one completed call of a load phase, elapsed_ns when good. */
void ld_live_call(struct ld_live *l, uint64_t elapsed_ns, int good);

/* dst += src (sums add, the max fields keep the larger, histograms add). */
void ld_live_merge(struct ld_live *dst, const struct ld_live *src);
/* dst = now - before (what happened between two readings). */
void ld_live_diff(struct ld_live *dst, const struct ld_live *now,
                  const struct ld_live *before);

/* The wire form a client's heartbeat carries (magic "LDLV", version, then
 * the fields' compact form, common/fields.h): encode writes at most
 * ld_live_wire_max bytes and returns how many; decode returns 0 or
 * -EPROTO. */
size_t ld_live_wire_max(void);
size_t ld_live_encode(const struct ld_live *l, unsigned char *buf);
int ld_live_decode(struct ld_live *l, const unsigned char *buf, size_t len);

/* ---- the area a parent shares with its children ---------------------------- */

struct ld_live_area;

/* n slots of shared memory (mmap, before the children are forked); NULL
 * when it cannot be had (the run goes on without progress lines). */
struct ld_live_area *ld_live_map(unsigned n);
void ld_live_unmap(struct ld_live_area *a);
/* Child k's copy of its counters into its slot (a sequence count around
 * the copy, so a reader never takes a half-written one). */
void ld_live_publish(struct ld_live_area *a, unsigned k, const struct ld_live *l);
/* The sum of every slot (a slot being written is read again, a few times
 * at most, else its last whole reading stands in for it: the counters
 * only grow, so a reading that left a child out made the next interval
 * add all that child ever counted).  Only the parent reads. */
void ld_live_sum(struct ld_live_area *a, struct ld_live *out);

/* The readers of the area that want rates, each with its own last reading:
 * the progress lines and the heartbeats to the prime. */
enum { LD_LIVE_LINES, LD_LIVE_BEATS, LD_LIVE_READERS };

/* ld_live_sum, and out->first_ms = the start of a window that holds every
 * call counted since this reader's last reading: the earliest of the
 * moments the children that counted calls since had last published then
 * (0: none counted).  out->at_ms, the latest publication, ends it; calls
 * over (at_ms - first_ms) is a rate that never exceeds what the server
 * answered, however stale some child's publication was at either reading
 * (children publish every 50 ms, LD_LIVE_PUBLISH_NS, and not while a
 * request runs, so the window is at most that much longer than the
 * interval while every request is short). */
void ld_live_sum_since(struct ld_live_area *a, unsigned reader, struct ld_live *out);

/* The good calls per second of the difference of two readings, now (from
 * ld_live_sum_since) less before: over [from_ms, now->at_ms], or 0 when
 * that window is empty. */
double ld_live_rate(const struct ld_live *now, const struct ld_live *before,
                    uint64_t from_ms);

/* ---- the line ------------------------------------------------------------------- */

/* One progress line's inputs. */
struct ld_live_view {
    const char *phase;          /* "warm-up", "run" */
    double elapsed_s;           /* into the phase */
    unsigned total_s;           /* the phase's length; 0 unknown */
    double requested;           /* ops/s asked for; 0 when the workload asks none */
    const struct ld_live *sum;  /* since the phase began */
    const struct ld_live *last; /* since the last line */
    double rate;                /* ops/s of the last interval */
};

/* "run 40/60 s: 3987.0 of 4000 ops/s, mean 0.05 ms, p99 0.21 ms, bad 0,
 * behind 0.0 s" - the rate, mean and p99 of the last interval, the bad
 * calls of the phase so far, the schedule now - and the workload's own
 * part (wl->progress) after a "; ".  Returns the length. */
int ld_live_line(const struct ld_workload_ops *wl, const struct ld_live_view *v,
                 char *buf, size_t len);
/* The same line for a terminal of width columns, between before and after
 * (the caller's own words: "Executing run 3 of 10 ... ", "; about 5 min
 * left"): when the whole does not fit, the fields that matter least go
 * first - a zero behind, a zero bad, the workload's part, the p99 - never
 * cut in the middle (an 80-column terminal showed "mean 0.10 ms, p99 0").
 * Returns the length. */
int ld_live_line_fit(const struct ld_workload_ops *wl, const struct ld_live_view *v,
                     const char *before, const char *after, size_t width, char *buf,
                     size_t len);

/* Decimals of a response time in ms: 2 below 10 ms, else 1 (reports of
 * fast servers would otherwise read 0.1 for every point). */
int ld_ms_decimals(double ms);

#endif /* LD_LIVE_H */
