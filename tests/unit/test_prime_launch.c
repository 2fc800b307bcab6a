/* SPDX-License-Identifier: BSD-2-Clause */
/* test_prime_launch.c - how sfs_mgr and sfs_prime word the end of a client
 * or of the prime they started (pr_status_text): an exit status, or the
 * signal by number and name ("killed by Killed" said neither). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "prime/pr_int.h"

/* The status of a real child that ends as told. */
static int status_of(int sig, int code)
{
    int status = 0;
    pid_t pid = fork();

    assert_true(pid >= 0);
    if (pid == 0) {
        if (sig)
            raise(sig);
        _exit(code);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return status;
}

static void status_texts(void **state)
{
    char buf[64];

    (void)state;
    pr_status_text(status_of(0, 3), buf, sizeof(buf));
    assert_string_equal(buf, "exit status 3");
    pr_status_text(status_of(SIGKILL, 0), buf, sizeof(buf));
    assert_string_equal(buf, "killed by signal 9 (Killed)");
    pr_status_text(status_of(SIGTERM, 0), buf, sizeof(buf));
    assert_string_equal(buf, "killed by signal 15 (Terminated)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(status_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
