/* SPDX-License-Identifier: BSD-2-Clause */
/* test_replaybase_window.c - the replay base (rb.h) both replays run on:
 * the window hands out every slot once and takes it back, keeps the
 * READ/WRITE bytes within their bound (a call always goes when none is in
 * flight), holds JUKEBOX answers in the order they go out again; the clock
 * plans calls at start + t / speed and ends the run at -t; a list of
 * numbers in an rc variable becomes points. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "common/error.h"
#include "common/rc.h"
#include "load/options.h"
#include "replaybase/rb.h"

static void every_slot_once_and_the_bytes_bounded(void **state)
{
    struct rb_window w;
    struct rb_slot *s[4];
    int owner;
    uint32_t i;

    (void)state;
    assert_int_equal(rb_window_init(&w, 3, &owner, 100, 8), 0);
    assert_memory_equal(w.wdata, "\xde\xad\xbe\xef\xde\xad\xbe\xef", 8);
    w.budget = 50;
    assert_true(rb_window_room(&w, 80)); /* nothing in flight: it goes */
    s[0] = rb_window_take(&w, 80);
    assert_false(rb_window_room(&w, 1)); /* over the budget now */
    rb_window_give(&w, s[0]);
    assert_int_equal(w.bytes, 0);
    w.budget = UINT64_MAX;
    for (i = 0; i < 3; i++) {
        s[i] = rb_window_take(&w, 10);
        assert_non_null(s[i]);
        assert_ptr_equal(s[i]->owner, &owner);
        assert_ptr_equal(s[i]->res.data, w.sink);
        assert_int_equal(s[i]->res.data_max, 100);
    }
    assert_true(s[0] != s[1] && s[1] != s[2] && s[0] != s[2]);
    assert_int_equal(w.in_flight, 3);
    assert_int_equal(w.bytes, 30);
    assert_false(rb_window_room(&w, 0));
    assert_null(rb_window_take(&w, 0));
    rb_window_give(&w, s[1]);
    assert_ptr_equal(rb_window_take(&w, 0), s[1]);
    for (i = 0; i < 3; i++)
        rb_window_give(&w, s[i]);
    assert_int_equal(w.in_flight, 0);
    assert_int_equal(w.bytes, 0);
    rb_window_free(&w);
}

/* A call answered JUKEBOX as if by the server. */
static void answer_jukebox(struct rb_slot *s, uint64_t sent)
{
    memset(&s->call, 0, sizeof(s->call));
    s->call.res = &s->res.r3;
    s->call.res_codec = (xdrproc_t)xdr_GETATTR3res;
    s->call.t_send_ns = sent;
    s->res.r3.getattr.status = NFS3ERR_JUKEBOX;
}

static void jukebox_answers_wait_in_order_and_not_for_ever(void **state)
{
    struct rb_window w;
    struct rb_slot *a, *b;
    uint32_t k;

    (void)state;
    assert_int_equal(rb_window_init(&w, 2, NULL, 0, 1), 0);
    assert_int_equal(rb_window_wake(&w), UINT64_MAX);
    a = rb_window_take(&w, 0);
    b = rb_window_take(&w, 0);
    answer_jukebox(a, 1);
    answer_jukebox(b, 2);
    assert_int_equal(rb_window_hold(&w, a, 2, 10), 0); /* v2 has no JUKEBOX */
    assert_int_equal(rb_window_hold(&w, a, 3, 10), 1);
    assert_int_equal(rb_window_hold(&w, b, 3, 10), 1);
    assert_int_equal(w.in_flight, 2); /* they keep their slots */
    assert_int_equal(rb_window_wake(&w), a->jb.retry_at_ns);
    assert_null(rb_window_due(&w, a->jb.retry_at_ns - 1));
    assert_ptr_equal(rb_window_due(&w, UINT64_MAX), a);
    assert_ptr_equal(rb_window_due(&w, UINT64_MAX), b);
    assert_null(rb_window_due(&w, UINT64_MAX));
    for (k = 1; k < LD_JUKEBOX_TRIES; k++) {
        answer_jukebox(a, 1);
        assert_int_equal(rb_window_hold(&w, a, 3, 0), k + 1 < LD_JUKEBOX_TRIES);
        (void)rb_window_due(&w, UINT64_MAX);
    }
    answer_jukebox(b, 2);
    b->res.r3.getattr.status = NFS3_OK;
    assert_int_equal(rb_window_hold(&w, b, 3, 10), 0);
    rb_window_free(&w);
}

static void calls_are_due_at_their_time_over_the_speed_and_t_ends_the_run(void **state)
{
    static const struct ld_opt_group *const groups[] = {&rb_trace_options, NULL};
    static const struct ld_workload_ops replay = {.name = "replay", .options = groups};
    static const struct ld_workload_ops *const wl[] = {&replay};
    struct ld_config cfg;
    struct ld_child c;
    struct rb_loop l;
    char err[CM_ERR_LEN];

    (void)state;
    memset(&c, 0, sizeof(c));
    ld_config_defaults(&cfg, 3);
    assert_int_equal(ld_config_add_workloads(&cfg, wl, 1, err, sizeof(err)), 0);
    c.cfg = &cfg;
    c.ctl_fd = -1;
    assert_int_equal(rb_run_begin(&c, &l, 2.0, 3), 0);
    assert_true(c.measuring);
    assert_int_equal(l.spin_ns, 20000); /* --spin's default, 20 us */
    assert_int_equal(c.phase, LD_CPHASE_RUN);
    assert_int_equal(rb_planned(&l, 0), l.start_ns);
    assert_int_equal(rb_planned(&l, -5), l.start_ns);
    assert_int_equal(rb_planned(&l, 1000000000), l.start_ns + 500000000);
    assert_int_equal(l.end_ns, l.start_ns + 3000000000ull);
    assert_int_equal(rb_loop_check(&l, &c, l.start_ns), 0); /* the parent: later */
    assert_int_equal(rb_loop_check(&l, &c, l.end_ns), 1);
    assert_int_equal(rb_run_begin(&c, &l, 0, 0),
                     0); /* speed 0: everything due at once, no end */
    assert_int_equal(rb_planned(&l, 1000000000), l.start_ns);
    assert_int_equal(l.end_ns, UINT64_MAX);
}

static void a_list_in_an_rc_variable_gives_points(void **state)
{
    static const char rc_text[] = "TRACE_SPEED=\"0.5 1 2\"\nTRACE_SCALE=\"1 x\"\n";
    static const struct rb_rc_list scales = {"TRACE_SCALE", "",      1, 8, 1,
                                             "a scale",     "scales"};
    struct cm_rc rc;
    struct ld_point pts[8];
    char err[CM_ERR_LEN];

    (void)state;
    memset(&rc, 0, sizeof(rc));
    assert_int_equal(cm_rc_parse(&rc, "t_rc", rc_text, strlen(rc_text), NULL, NULL, NULL,
                                 err, sizeof(err)),
                     0);
    assert_int_equal(rb_speed_points(&rc, 1, pts, 8), 3);
    assert_true(pts[0].v[0] == 0.5 && pts[1].v[0] == 1 && pts[2].v[0] == 2);
    assert_int_equal(rb_speed_points(&rc, 1, pts, 2), -1);       /* more than max */
    assert_int_equal(rb_rc_values(&rc, &scales, pts, 8, 1), -1); /* 'x' */
    cm_rc_free(&rc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_slot_once_and_the_bytes_bounded),
        cmocka_unit_test(jukebox_answers_wait_in_order_and_not_for_ever),
        cmocka_unit_test(calls_are_due_at_their_time_over_the_speed_and_t_ends_the_run),
        cmocka_unit_test(a_list_in_an_rc_variable_gives_points),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
