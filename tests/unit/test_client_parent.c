/* SPDX-License-Identifier: BSD-2-Clause */
/* test_client_parent.c - the parent's process management (phases over
 * socketpairs, a child's error message, a dead child, a silent child, a
 * message too large, a child failing after its results) with stand-in
 * children. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client/parent.h"
#include "ctl/ct.h"
#include "helpers/th_text.h"

/* ---- parent process management ------------------------------------------ */

/* Stand-in children: answer every phase; child 1 fails, dies, says
 * nonsense or stays silent (ignoring SIGTERM) in INIT, or exits 3 after
 * its results, depending on data. */
static int fake_child(int fd, unsigned k, void *data)
{
    const char *mode = data;
    struct ct_msg_hdr h;

    while (ct_msg_recv(fd, &h, NULL, 0) == 0) {
        if (k == 1 && h.type == CT_MSG_INIT) {
            if (strcmp(mode, "error") == 0) {
                ct_msg_send(fd, CT_MSG_ERROR, 0, "cannot populate", 15);
                return 1;
            }
            if (strcmp(mode, "die") == 0)
                raise(SIGKILL);
            if (strcmp(mode, "nonsense") == 0) {
                struct ct_msg_hdr big = {CT_MSG_INIT, 0, CT_MSG_MAX_PAYLOAD + 1};
                ct_msg_send_all(fd, &big, sizeof(big));
                pause();
            }
            if (strcmp(mode, "silent") == 0) {
                signal(SIGTERM, SIG_IGN);
                for (;;)
                    pause();
            }
        }
        ct_msg_send(fd, h.type, 0, "xy", h.type == CT_MSG_RESULTS ? 2 : 0);
        if (h.type == CT_MSG_RESULTS)
            return k == 1 && strcmp(mode, "exit3") == 0 ? 3 : 0;
    }
    return 1;
}

static void parent_drives_the_phases(void **state)
{
    struct cl_parent p;

    (void)state;
    memset(&p, 0, sizeof(p));
    assert_int_equal(cl_parent_spawn(&p, 3, fake_child, "ok"), 0);
    assert_int_equal(cl_parent_phase(&p, CT_MSG_MOUNT, 0, 10), 0);
    assert_int_equal(cl_parent_phase(&p, CT_MSG_INIT, 0, 10), 0);
    assert_int_equal(cl_parent_phase(&p, CT_MSG_RESULTS, 0, 10), 0);
    assert_int_equal(p.procs[2].payload_len, 2);
    assert_int_equal(cl_parent_reap(&p), 0);
    cl_parent_free(&p);
}

static void parent_reports_a_child_error(void **state)
{
    struct cl_parent p;

    (void)state;
    memset(&p, 0, sizeof(p));
    assert_int_equal(cl_parent_spawn(&p, 3, fake_child, "error"), 0);
    assert_int_equal(cl_parent_phase(&p, CT_MSG_MOUNT, 0, 10), 0);
    assert_int_equal(cl_parent_phase(&p, CT_MSG_INIT, 0, 10), -EIO);
    assert_string_equal(p.last_error, "child 1: cannot populate");
    assert_int_equal(p.procs[0].pid, 0); /* the others were stopped */
    assert_int_equal(p.procs[2].pid, 0);
    cl_parent_free(&p);
}

static void parent_notices_a_dead_child(void **state)
{
    struct cl_parent p;

    (void)state;
    memset(&p, 0, sizeof(p));
    assert_int_equal(cl_parent_spawn(&p, 3, fake_child, "die"), 0);
    assert_int_equal(cl_parent_phase(&p, CT_MSG_INIT, 0, 10), -ECHILD);
    assert_non_null(strstr(p.last_error, "child 1"));
    /* the signal's number and name, not "killed by Killed" */
    assert_non_null(strstr(p.last_error, "killed by signal 9 (Killed)"));
    assert_int_equal(p.procs[0].pid, 0);
    assert_int_equal(p.procs[2].pid, 0);
    cl_parent_free(&p);
}

/* A child that never answers fails the phase at its time limit, by count;
 * one that ignores SIGTERM then is killed (DEBUG 3 logs both signals). */
static void parent_times_out_a_silent_child_and_kills_it(void **state)
{
    struct cl_parent p;
    char log[4096] = "";
    FILE *f = tmpfile();

    (void)state;
    assert_non_null(f);
    memset(&p, 0, sizeof(p));
    p.log = f;
    p.debug_signals = 1;
    assert_int_equal(cl_parent_spawn(&p, 2, fake_child, "silent"), 0);
    assert_int_equal(cl_parent_phase(&p, CT_MSG_INIT, 0, 1), -ETIMEDOUT);
    assert_string_equal(p.last_error, "1 child(ren) did not finish the phase in 1 s");
    assert_int_equal(p.procs[0].pid, 0);
    assert_int_equal(p.procs[1].pid, 0);
    assert_true(th_text_of_stream(f, log, sizeof(log)) > 0);
    fclose(f);
    assert_non_null(strstr(log, "SIGTERM to child 1"));
    assert_non_null(strstr(log, "SIGKILL to child 1"));
    cl_parent_free(&p);
}

static void parent_refuses_a_message_too_large(void **state)
{
    struct cl_parent p;

    (void)state;
    memset(&p, 0, sizeof(p));
    assert_int_equal(cl_parent_spawn(&p, 2, fake_child, "nonsense"), 0);
    assert_int_equal(cl_parent_phase(&p, CT_MSG_INIT, 0, 10), -EIO);
    assert_string_equal(p.last_error, "child 1: bad message: Message too long");
    cl_parent_free(&p);
}

static void parent_reports_a_child_failing_after_its_results(void **state)
{
    struct cl_parent p;

    (void)state;
    memset(&p, 0, sizeof(p));
    assert_int_equal(cl_parent_spawn(&p, 2, fake_child, "exit3"), 0);
    assert_int_equal(cl_parent_phase(&p, CT_MSG_RESULTS, 0, 10), 0);
    assert_int_equal(cl_parent_reap(&p), -ECHILD);
    assert_non_null(strstr(p.last_error, "child 1 (pid "));
    assert_non_null(strstr(p.last_error, ") failed: exit status 3"));
    cl_parent_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parent_drives_the_phases),
        cmocka_unit_test(parent_reports_a_child_error),
        cmocka_unit_test(parent_notices_a_dead_child),
        cmocka_unit_test(parent_times_out_a_silent_child_and_kills_it),
        cmocka_unit_test(parent_refuses_a_message_too_large),
        cmocka_unit_test(parent_reports_a_child_failing_after_its_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
