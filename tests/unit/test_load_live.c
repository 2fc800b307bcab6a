/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_live.c - the counters behind the progress lines (load/live.h):
 * a call is counted as good or bad, readings merge and subtract by the
 * field table, the wire form gives back what went in and refuses a wrong
 * magic or a short buffer, the shared area sums its slots across a fork
 * (a slot being written counts with its last whole reading, never as 0),
 * a reading's window holds every call since the reader's last one, and
 * the line says what docs/sfs.md promises with two decimals below
 * 10 ms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/clock.h"
#include "load/live.h"
#include "load/workload.h"

static void calls_are_counted(void **state)
{
    static struct ld_live l;

    (void)state;
    ld_live_reset(&l);
    ld_live_call(&l, 200000, 1); /* 0.2 ms */
    ld_live_call(&l, 400000, 1);
    ld_live_call(&l, 9000000000ull, 0);
    assert_int_equal(l.good, 2);
    assert_int_equal(l.bad, 1);
    assert_int_equal(l.sum_us, 600);
    assert_int_equal(l.hist.count, 2);
}

static void readings_merge_and_subtract(void **state)
{
    static struct ld_live a, b, d;

    (void)state;
    ld_live_reset(&a);
    ld_live_reset(&b);
    ld_live_call(&a, 100000, 1);
    a.behind_ns = 5;
    a.total = 100;
    a.at_ms = 1000;
    b = a;
    ld_live_call(&b, 300000, 1);
    ld_live_call(&b, 300000, 0);
    b.behind_ns = 2;
    b.at_ms = 2000;
    ld_live_diff(&d, &b, &a);
    assert_int_equal(d.good, 1);
    assert_int_equal(d.bad, 1);
    assert_int_equal(d.sum_us, 300);
    assert_int_equal(d.behind_ns, 2); /* now's: how far behind it is now */
    assert_int_equal(d.at_ms, 2000);
    ld_live_merge(&a, &b);
    assert_int_equal(a.good, 3);
    assert_int_equal(a.behind_ns, 5);
    assert_int_equal(a.total, 100); /* the whole's size: every child knows it */
}

static void wire_round_trip(void **state)
{
    static struct ld_live a, b;
    unsigned char *buf = calloc(1, ld_live_wire_max());
    size_t n;

    (void)state;
    assert_non_null(buf);
    ld_live_reset(&a);
    ld_live_call(&a, 123000, 1);
    a.done = 7;
    a.late_us = 99;
    n = ld_live_encode(&a, buf);
    assert_true(n < 64); /* compact: one histogram cell, small counters */
    assert_int_equal(ld_live_decode(&b, buf, n), 0);
    assert_memory_equal(&a, &b, sizeof(a));
    assert_int_equal(ld_live_decode(&b, buf, n - 1), -EPROTO);
    buf[0] ^= 1;
    assert_int_equal(ld_live_decode(&b, buf, n), -EPROTO);
    free(buf);
}

static void area_sums_the_children(void **state)
{
    struct ld_live_area *a = ld_live_map(3);
    static struct ld_live l, sum;
    unsigned k;
    int st;

    (void)state;
    assert_non_null(a);
    for (k = 0; k < 3; k++) {
        pid_t pid = fork();

        assert_true(pid >= 0);
        if (pid == 0) {
            ld_live_reset(&l);
            ld_live_call(&l, 1000, 1);
            l.good += k;
            ld_live_publish(a, k, &l);
            _exit(0);
        }
        assert_int_equal(waitpid(pid, &st, 0), pid);
    }
    ld_live_publish(a, 3, &l); /* out of range: ignored */
    ld_live_sum(a, &sum);
    assert_int_equal(sum.good, 1 + 2 + 3);
    assert_int_equal(sum.hist.count, 3);
    ld_live_unmap(a);
    ld_live_sum(NULL, &sum);
    assert_int_equal(sum.good, 0);
}

/* A child that publishes without pause while the parent reads: a reading
 * may catch the slot mid-write every time it tries; it must then count the
 * slot's last whole reading.  Dropping it made the next interval add all
 * the child ever counted (a progress line 15 % above the server's
 * capacity). */
static void a_slot_being_written_keeps_its_last_reading(void **state)
{
    struct ld_live_area *a = ld_live_map(2);
    static struct ld_live l, sum;
    uint64_t last = 0, i, t_end;
    unsigned drops = 0;
    pid_t pid;
    int st;

    (void)state;
    assert_non_null(a);
    ld_live_reset(&l);
    l.good = 1;
    ld_live_publish(a, 1, &l); /* a second child, quiet */
    pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        for (i = 1; i < 50000000; i++) {
            uint64_t until = cm_now_ns() + 2000; /* a pause, as children have */

            l.good = 1000 + i;
            ld_live_publish(a, 0, &l);
            while (cm_now_ns() < until)
                ;
        }
        _exit(0);
    }
    /* the 300 ms of reading begin once the child has published: on a busy
     * machine it got no CPU in them (make check: last > 1000 failed) */
    t_end = cm_now_ms() + 20000;
    do
        ld_live_sum(a, &sum);
    while (sum.good <= 1001 && cm_now_ms() < t_end);
    last = sum.good;
    t_end = cm_now_ms() + 300;
    for (i = 0; cm_now_ms() < t_end && i < 10000000; i++) {
        ld_live_sum(a, &sum);
        drops += sum.good < last;
        last = sum.good;
    }
    kill(pid, SIGKILL);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_int_equal(drops, 0);
    assert_true(last > 1000);
    ld_live_unmap(a);
}

/* The window of a reading: a child whose last publication before the
 * previous reading was long before it (it was in the middle of a long
 * request) counted its new calls since then, so the window starts there;
 * a child that counted nothing since does not move it. */
static void a_reading_window_starts_at_the_stalest_busy_child(void **state)
{
    struct ld_live_area *a = ld_live_map(3);
    static struct ld_live l, before, now;

    (void)state;
    assert_non_null(a);
    ld_live_reset(&l);
    l.good = 10;
    l.at_ms = 1000; /* stale: published long before the reading */
    ld_live_publish(a, 0, &l);
    l.at_ms = 1900;
    ld_live_publish(a, 1, &l);
    l.at_ms = 500; /* idle since */
    ld_live_publish(a, 2, &l);
    ld_live_sum_since(a, LD_LIVE_LINES, &before);
    assert_int_equal(before.good, 30);
    l.good = 30;
    l.at_ms = 2900;
    ld_live_publish(a, 0, &l);
    l.good = 20;
    l.at_ms = 3000;
    ld_live_publish(a, 1, &l);
    ld_live_sum_since(a, LD_LIVE_LINES, &now);
    assert_int_equal(now.first_ms, 1000);
    assert_int_equal(now.at_ms, 3000);
    /* 30 calls more in the 2 s from 1000 to 3000 ms */
    assert_true(ld_live_rate(&now, &before, now.first_ms) == 15.0);
    /* another reader has its own last reading: it sees everything new */
    ld_live_sum_since(a, LD_LIVE_BEATS, &now);
    assert_int_equal(now.first_ms, 0); /* its first: no window yet */
    ld_live_sum_since(a, LD_LIVE_LINES, &now);
    assert_int_equal(now.first_ms, 0); /* nothing new since */
    assert_true(ld_live_rate(&now, &now, now.first_ms) == 0);
    ld_live_unmap(a);
}

static int own_part(const struct ld_live *sum, const struct ld_live *last, char *buf,
                    size_t len)
{
    (void)last;
    return snprintf(buf, len, "records %llu", (unsigned long long)sum->done);
}

/* A run's view at elapsed of total s, rate of requested ops/s: 100 calls
 * of us each in the last interval, which is also the phase's sum. */
static void view_of(struct ld_live_view *v, struct ld_live *sum, struct ld_live *last,
                    uint64_t us, double elapsed, unsigned total, double requested,
                    double rate)
{
    int i;

    ld_live_reset(sum);
    ld_live_reset(last);
    for (i = 0; i < 100; i++)
        ld_live_call(last, us * 1000, 1);
    *sum = *last;
    memset(v, 0, sizeof(*v));
    v->phase = "run";
    v->elapsed_s = elapsed;
    v->total_s = total;
    v->requested = requested;
    v->rate = rate;
    v->sum = sum;
    v->last = last;
}

static void the_line(void **state)
{
    static struct ld_live sum, last;
    struct ld_workload_ops wl;
    struct ld_live_view v;
    char buf[256];

    (void)state;
    view_of(&v, &sum, &last, 50, 40, 60, 4000, 3987.04); /* 0.05 ms */
    sum.bad = 2;
    sum.behind_ns = 1500000000;
    sum.done = 42;
    ld_live_line(NULL, &v, buf, sizeof(buf));
    assert_string_equal(buf,
                        "run 40/60 s: 3987.0 of 4000 ops/s, mean 0.05 ms, p99 0.05 ms, "
                        "bad 2, behind 1.5 s");
    memset(&wl, 0, sizeof(wl));
    wl.progress = own_part;
    v.requested = 0;
    v.total_s = 0;
    ld_live_line(&wl, &v, buf, sizeof(buf));
    assert_string_equal(buf, "run 40 s: 3987.0 ops/s, mean 0.05 ms, p99 0.05 ms, bad 2, "
                             "behind 1.5 s; records 42");
    /* cut, never overrun */
    assert_int_equal(ld_live_line(&wl, &v, buf, 10), 9);
    assert_string_equal(buf, "run 40 s:");
    assert_int_equal(ld_ms_decimals(0.123), 2);
    assert_int_equal(ld_ms_decimals(9.99), 2);
    assert_int_equal(ld_ms_decimals(10.0), 1);
}

/* On a terminal the line keeps the fields that fit, whole: an 80-column
 * terminal showed "... mean 0.10 ms, p99 0" before. */
static void the_line_fits_a_terminal_without_cutting_a_field(void **state)
{
    static struct ld_live sum, last;
    struct ld_live_view v;
    char buf[256];
    const char *before = "Executing run 3 of 10 ... ", *after = "; about 1 h 12 min left";

    (void)state;
    view_of(&v, &sum, &last, 100, 120, 300, 6000, 5993.2); /* 0.10 ms */
    /* wide enough: everything, as the plain line */
    ld_live_line_fit(NULL, &v, before, after, 200, buf, sizeof(buf));
    assert_string_equal(buf, "Executing run 3 of 10 ... run 120/300 s: 5993.2 of 6000 "
                             "ops/s, mean 0.10 ms, p99 0.10 ms, bad 0, behind 0.0 s; "
                             "about 1 h 12 min left");
    /* 79 columns: the zero behind and bad go first, then the time left and
     * the p99; the mean stays, nothing is cut */
    assert_true(ld_live_line_fit(NULL, &v, before, after, 79, buf, sizeof(buf)) <= 79);
    assert_string_equal(buf, "Executing run 3 of 10 ... run 120/300 s: 5993.2 of 6000 "
                             "ops/s, mean 0.10 ms");
    /* 120 columns: only the zero behind goes */
    ld_live_line_fit(NULL, &v, before, after, 119, buf, sizeof(buf));
    assert_string_equal(buf, "Executing run 3 of 10 ... run 120/300 s: 5993.2 of 6000 "
                             "ops/s, mean 0.10 ms, p99 0.10 ms, bad 0; about 1 h 12 min "
                             "left");
    /* bad calls matter as much as the mean once there are some */
    sum.bad = 7;
    ld_live_line_fit(NULL, &v, "", "", 79, buf, sizeof(buf));
    assert_string_equal(buf,
                        "run 120/300 s: 5993.2 of 6000 ops/s, mean 0.10 ms, p99 0.10 "
                        "ms, bad 7");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(calls_are_counted),
        cmocka_unit_test(readings_merge_and_subtract),
        cmocka_unit_test(wire_round_trip),
        cmocka_unit_test(area_sums_the_children),
        cmocka_unit_test(a_slot_being_written_keeps_its_last_reading),
        cmocka_unit_test(a_reading_window_starts_at_the_stalest_busy_child),
        cmocka_unit_test(the_line),
        cmocka_unit_test(the_line_fits_a_terminal_without_cutting_a_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
