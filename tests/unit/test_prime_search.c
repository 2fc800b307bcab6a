/* SPDX-License-Identifier: BSD-2-Clause */
/* test_prime_search.c - LOAD=auto's decisions (prime/search.c,
 * docs/sfs_mgr.md "LOAD=auto"): after each probe, what the search asks
 * next.  The ramp multiplies by four until a probe falls short of 90 % of
 * its request; a confirmation far above the peak (twice it) must saturate
 * within 10 % of it, and the higher of the two that agree is the peak; a
 * peak the clients' starvation made (a much higher request gets much more)
 * is followed up; a peak that moves down (a CPU hog started during the
 * search) is confirmed again at its new place; PR_CONFIRM_MAX confirmations that
 * never agree end the search "not settled"; a server that is never
 * saturated ends it at the top of LOAD's range.  The points are chosen from
 * the last peak, and the reach line says when the points fall short of it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "prime/pr_int.h"

#define CLIENTS 2
#define POINTS  6

/* Records a probe of s at load that achieved ops, then asks for the next
 * one: returns pr_search_next's answer, the next load in *next. */
static int after(struct pr_search *s, unsigned load, double ops, unsigned *next)
{
    s->load[s->n] = load;
    s->ops[s->n] = ops;
    s->resp[s->n] = 0.1;
    s->n++;
    return pr_search_next(s, CLIENTS, POINTS, next);
}

static void the_ramp_quadruples_until_a_probe_falls_short_then_confirms(void **state)
{
    struct pr_search s;
    unsigned next = 0;

    (void)state;
    memset(&s, 0, sizeof(s));
    assert_int_equal(after(&s, 800, 799, &next), 1);
    assert_int_equal(next, 3200);
    assert_false(s.confirm[1]);
    assert_int_equal(after(&s, 3200, 3190, &next), 1);
    assert_int_equal(after(&s, 12800, 12700, &next), 1);
    assert_int_equal(next, 51200);
    /* 40 000 of 51 200 is short: saturated; confirm far above the peak,
     * twice it, a multiple of the clients */
    assert_int_equal(after(&s, 51200, 40000, &next), 1);
    assert_true(s.saturated);
    assert_false(s.settled);
    assert_true(s.confirm[4]);
    assert_int_equal(next % CLIENTS, 0);
    assert_int_equal(next, 80000);
    /* the confirmation saturates within 10 %: settled, the higher figure
     * (a starved client only loses calls) */
    assert_int_equal(after(&s, next, 38500, &next), 0);
    assert_true(s.settled);
    assert_true(s.peak > 39999 && s.peak < 40001);
    assert_int_equal(s.n, 5);
}

static void a_peak_that_moves_is_confirmed_again_where_it_went(void **state)
{
    struct pr_search s;
    unsigned next = 0, first;

    (void)state;
    memset(&s, 0, sizeof(s));
    assert_int_equal(after(&s, 12800, 12790, &next), 1);
    assert_int_equal(after(&s, 51200, 48000, &next), 1); /* not short: 94 % */
    assert_int_equal(after(&s, 204800, 46800, &next), 1);
    assert_true(s.saturated);
    first = next; /* twice the ramp's best, 48 000 */
    assert_int_equal(first, 96000);
    /* a CPU hog starts: the confirmation gets half */
    assert_int_equal(after(&s, first, 24000, &next), 1);
    assert_false(s.settled);
    assert_int_equal(next, 48000);
    assert_true(s.confirm[s.n]);
    /* the hog stays: the second confirmation agrees with the first, the
     * peak the higher of the two, both taken with the hog */
    assert_int_equal(after(&s, next, 23000, &next), 0);
    assert_true(s.settled);
    assert_true(s.peak > 23999 && s.peak < 24001);
}

static void confirmations_that_never_agree_end_not_settled(void **state)
{
    struct pr_search s;
    unsigned next = 0, k;
    char text[512];

    (void)state;
    memset(&s, 0, sizeof(s));
    assert_int_equal(after(&s, 3200, 3200, &next), 1);
    assert_int_equal(after(&s, 12800, 6000, &next), 1);
    for (k = 0; k + 1 < PR_CONFIRM_MAX; k++)
        assert_int_equal(after(&s, next, k % 2 ? 6000 : 2000, &next), 1);
    assert_int_equal(after(&s, next, 4000, &next), 0);
    assert_false(s.settled);
    assert_int_equal(s.n, 2 + PR_CONFIRM_MAX);
    assert_true(s.peak > 3999 && s.peak < 4001); /* the latest */
    /* the points reached 3 000: 75 % of it, said in the summary */
    assert_int_equal(pr_search_reach(&s, 3000, text, sizeof(text)), 1);
    assert_non_null(strstr(text,
                           "the points reached at most 3000 ops/s, 75 % of the peak "
                           "the search found (4000 ops/s): less than 90 %"));
    assert_int_equal(pr_search_reach(&s, 3900, text, sizeof(text)), 0);
    assert_null(strstr(text, "less than 90"));
}

static void a_confirmation_that_gets_all_it_asked_asks_twice_as_much(void **state)
{
    struct pr_search s;
    unsigned next = 0, asked;

    (void)state;
    memset(&s, 0, sizeof(s));
    assert_int_equal(after(&s, 12800, 5000, &next), 1);
    asked = next; /* 2 x 5 000 */
    /* the machine got quieter: all of it */
    assert_int_equal(after(&s, asked, asked, &next), 1);
    assert_false(s.settled);
    assert_true(next >= 2 * asked);
}

/* On a starved machine the clients, not the server, set the first figure:
 * the server gives 125 ops/s, a probe at 200 got 110 because the client
 * processes did not get the CPU in time.  A confirmation far above gets
 * much more: that figure is the peak, and it is confirmed in turn. */
static void a_peak_of_starved_clients_is_followed_up_far_above(void **state)
{
    struct pr_search s;
    unsigned next = 0;

    (void)state;
    memset(&s, 0, sizeof(s));
    assert_int_equal(after(&s, 200, 110, &next), 1);
    assert_true(s.saturated);
    assert_int_equal(next, 220); /* far above: 2 x 110 */
    /* the machine gave the clients the CPU: 124, more than 10 % above */
    assert_int_equal(after(&s, next, 124, &next), 1);
    assert_false(s.settled);
    assert_true(s.peak > 123.9 && s.peak < 124.1);
    assert_int_equal(next, 248);
    assert_int_equal(after(&s, next, 121, &next), 0);
    assert_true(s.settled);
    assert_true(s.peak > 123.9 && s.peak < 124.1); /* the higher: 124 */
    assert_int_equal(s.n, 3);
}

static void a_server_never_saturated_ends_the_ramp_within_loads_range(void **state)
{
    struct pr_search s;
    unsigned next = 50, load;

    (void)state;
    memset(&s, 0, sizeof(s));
    do {
        load = next;
        assert_true(load <= 100000000u); /* LOAD's range */
        assert_true(s.n < PR_SEARCH_MAX);
    } while (after(&s, load, load, &next));
    assert_true(load * 4.0 > 100000000.0);
    assert_false(s.saturated);
    assert_false(s.settled);
    assert_true(s.peak >= load);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_ramp_quadruples_until_a_probe_falls_short_then_confirms),
        cmocka_unit_test(a_peak_that_moves_is_confirmed_again_where_it_went),
        cmocka_unit_test(confirmations_that_never_agree_end_not_settled),
        cmocka_unit_test(a_confirmation_that_gets_all_it_asked_asks_twice_as_much),
        cmocka_unit_test(a_peak_of_starved_clients_is_followed_up_far_above),
        cmocka_unit_test(a_server_never_saturated_ends_the_ramp_within_loads_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
