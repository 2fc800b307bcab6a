/* SPDX-License-Identifier: BSD-2-Clause */
/* test_common_assert.c - the assert policy of src/common/cm.h
 * (docs/STYLE.md 2.4): assert() is on in every build; CM_ASSERT_DEBUG is
 * checked only where CM_DEBUG_CHECKS is defined (the debug and coverage
 * builds, which `make test` runs the unit tests in too) and elsewhere never
 * even evaluates its expression.  Each check runs in a child, whose death by
 * SIGABRT is the expected outcome where the check is on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <assert.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cm.h"

static int evaluated;
static volatile int broken = 1; /* an invariant that does not hold */

static int false_and_counted(void)
{
    evaluated++;
    return 0;
}

/* Runs what in a child with stderr silenced; returns its wait status. */
static int in_child(void (*what)(void))
{
    int status = 0;
    pid_t pid = fork();

    assert_true(pid >= 0);
    if (pid == 0) {
        int devnull = open("/dev/null", O_WRONLY);

        if (devnull >= 0) /* the assertion's message is expected */
            dup2(devnull, 2);
        what();
        _exit(evaluated);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void debug_check_fails(void)
{
    /* the side effect is the point: it shows whether the check ran */
    // cppcheck-suppress assertWithSideEffect
    CM_ASSERT_DEBUG(false_and_counted());
}

static void release_check_fails(void)
{
    assert(broken == 0);
}

static void a_failed_debug_check_aborts_only_where_debug_checks_are_on(void **state)
{
    int status;

    (void)state;
    assert_int_equal(false_and_counted(), 0); /* what the check would see */
    evaluated = 0;
    status = in_child(debug_check_fails);
#ifdef CM_DEBUG_CHECKS
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
#else
    /* compiled to nothing: no abort, and the expression never ran */
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 0);
#endif
}

static void a_failed_assert_aborts_in_every_build(void **state)
{
    int status;

    (void)state;
    status = in_child(release_check_fails);
    assert_true(WIFSIGNALED(status));
    assert_int_equal(WTERMSIG(status), SIGABRT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_failed_debug_check_aborts_only_where_debug_checks_are_on),
        cmocka_unit_test(a_failed_assert_aborts_in_every_build),
    };

    return cmocka_run_group_tests_name("common_assert", tests, NULL, NULL);
}
