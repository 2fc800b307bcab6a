/* SPDX-License-Identifier: BSD-2-Clause */
/* test_prime_resolve.c - the rc file resolved into a run (
 * docs/SFS30.md §14, §15; docs/DECISIONS.md D9): load points from a list or LOAD +
 * INCR_LOAD x NUM_RUNS, the per-client split, mount points shared, grouped per client or
 * from a mount-point file, the generic pass-through of option-table rows with rc names,
 * the clients' command lines, and the errors at their FILE:LINE. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prime/pr_int.h"

#define FIX "tests/fixtures/rc/"

static char diagbuf[8192];

static int load_text(struct pr_run *run, const char *text)
{
    FILE *f = fopen("build/test_prime_rc", "w");
    FILE *diag = fmemopen(diagbuf, sizeof(diagbuf), "w");
    int rc;

    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    rc = pr_run_load(run, "build/test_prime_rc", NULL, diag);
    fclose(diag);
    return rc;
}

/* A replay: one point per TRACE_SPEED value, each client told its speed
 * and the number of clients (the streams are shared out over them). */
static void replay_points_per_speed(void **state)
{
    static char *argv[PR_ARGV_MAX], buf[PR_ARGBUF];
    char text[PATH_MAX + 256], trace[PATH_MAX], joined[4096] = "";
    struct pr_run run;
    int argc, i;

    (void)state;
    assert_non_null(realpath("tests/fixtures/spc/seed-example.spc", trace));
    snprintf(text, sizeof(text),
             "LOAD=60\nCLIENTS=\"c1 c2\"\nPROCS=2\nMNT_POINTS=s:/x\n"
             "TRACE_FILE=%s\nTRACE_SPEED=\"0.5 1 4 0\"\n",
             trace);
    assert_int_equal(load_text(&run, text), 0);
    assert_int_equal(run.npoints, 4);
    assert_non_null(run.values);
    assert_true(run.values[0].v[0] == 0.5 && run.values[2].v[0] == 4 &&
                run.values[3].v[0] == 0);
    assert_int_equal(run.points[3], 60);
    argc = pr_client_argv(&run, &run.clients[1], 2, run.points[2], "p", 1, argv,
                          PR_ARGV_MAX, buf, sizeof(buf));
    assert_true(argc > 0);
    for (i = 0; i < argc; i++) {
        strcat(joined, argv[i]);
        strcat(joined, " ");
    }
    assert_non_null(strstr(joined, " --clients=2 --speed=4 "));
    assert_non_null(strstr(joined, " --trace="));
    assert_null(strstr(joined, "--speed=0.5"));
    pr_run_free(&run);
    snprintf(text, sizeof(text),
             "LOAD=60\nCLIENTS=c1\nMNT_POINTS=s:/x\nTRACE_FILE=%s\n"
             "TRACE_SPEED=\"1 fast\"\n",
             trace);
    assert_true(load_text(&run, text) < 0);
    assert_non_null(strstr(diagbuf, "test_prime_rc:5: error: TRACE_SPEED"));
    assert_non_null(strstr(diagbuf, "'fast' is not a speed"));
    pr_run_free(&run);
}

static void points_from_list_and_from_increments(void **state)
{
    struct pr_run run;

    (void)state;
    assert_int_equal(pr_run_load(&run, FIX "mountfile_rc", NULL, NULL), 0);
    assert_int_equal(run.npoints, 10);
    assert_int_equal(run.points[0], 300);
    assert_int_equal(run.points[9], 3000);
    assert_int_equal(run.nclients, 3);
    assert_int_equal(run.points[9] / run.nclients, 1000); /* per client */
    assert_int_equal(run.nfs_version, 3);
    assert_int_equal(run.cfg.tcp, 1);
    assert_string_equal(run.suffix, "mountfile");
    /* the mount-point file: one line per client */
    assert_int_equal(run.clients[2].nmounts, 2);
    assert_string_equal(run.clients[2].mounts[0], "srv1:2049:/export/fs3");
    assert_string_equal(run.clients[2].mounts[1],
                        "nfs://srv2:2049/export/fs7?mountport=20048");
    assert_string_equal(run.clients[0].mounts[1], "srv2:/export/fs5");
    pr_run_free(&run);

    assert_int_equal(load_text(&run, "LOAD=\"100 200 300\"\nCLIENTS=\"a b\"\nPROCS=2\n"
                                     "MNT_POINTS=\"s:/1 s:/2 s:/3 s:/4\"\n"),
                     0);
    assert_int_equal(run.npoints, 3);
    assert_int_equal(run.points[2], 300);
    /* PROCS x clients entries: client k takes the k-th group */
    assert_string_equal(run.clients[0].mounts[0], "s:/1");
    assert_string_equal(run.clients[1].mounts[0], "s:/3");
    assert_string_equal(run.clients[1].mounts[1], "s:/4");
    assert_int_equal(run.clients[1].nmounts, 2);
    pr_run_free(&run);
}

static void shared_mounts_and_repeated_hosts(void **state)
{
    struct pr_run run;

    (void)state;
    assert_int_equal(load_text(&run, "LOAD=1000\nCLIENTS=\"localhost localhost c3\"\n"
                                     "PROCS=2\nMNT_POINTS=\"s:/1 s:/2\"\n"),
                     0);
    assert_int_equal(run.nclients, 3);
    assert_int_equal(run.clients[0].local, 1);
    assert_int_equal(run.clients[1].local, 1);
    assert_int_equal(run.clients[1].num, 2);
    assert_int_equal(run.clients[2].local, 0);
    assert_int_equal(run.any_remote, 1);
    assert_string_equal(run.clients[2].mounts[1], "s:/2"); /* PROCS entries: shared */
    assert_int_equal(run.points[0] / run.nclients, 333);   /* floor(1000 / 3) */
    pr_run_free(&run);
}

static void options_pass_through_generically(void **state)
{
    static char *argv[PR_ARGV_MAX], buf[PR_ARGBUF];
    struct pr_run run;
    char joined[4096] = "";
    int argc, i;

    (void)state;
    assert_int_equal(load_text(&run, "LOAD=\"40 80\"\nCLIENTS=\"localhost c2\"\nPROCS=3\n"
                                     "MNT_POINTS=s:/x\nRUNTIME=7\nWARMUP_TIME=2\n"
                                     "TCP=on\nDUMP=\nBIOD_MAX_READS=4\nDEBUG=\"3,4\"\n"
                                     "APPEND_PCNT=60\nSFS_USER=spec\n"),
                     0);
    argc = pr_client_argv(&run, &run.clients[1], 1, run.points[1], "primehost", 4321,
                          argv, PR_ARGV_MAX, buf, sizeof(buf));
    assert_true(argc > 0);
    for (i = 0; i < argc; i++) {
        strcat(joined, argv[i]);
        strcat(joined, " ");
    }
    assert_non_null(strstr(joined, "/sfs "));
    assert_non_null(strstr(joined, " -Mprimehost:4321 -N2 --prime-ssh "));
    assert_non_null(strstr(joined, " --load=40 ")); /* 80 over 2 clients */
    assert_non_null(strstr(joined, " --procs=3 "));
    assert_non_null(strstr(joined, " --runtime=7 --warmup=2 "));
    assert_non_null(strstr(joined, " --tcp "));
    assert_null(strstr(joined, "--dump")); /* empty: off */
    assert_non_null(strstr(joined, " --biod-reads=4 "));
    assert_non_null(strstr(joined, " --debug=3,4 "));
    assert_non_null(strstr(joined, " --append=60 "));
    assert_non_null(strstr(joined, " s:/x "));
    assert_int_equal(run.cfg.runtime_s, 7);

    /* the remote shell: RSH words, -l SFS_USER, the host, one quoted string */
    {
        static char *rargv[PR_ARGV_MAX + 80], rbuf[PR_ARGBUF + 4096];
        int n = pr_remote_argv(&run, &run.clients[1], argv, rargv, PR_ARGV_MAX + 80, rbuf,
                               sizeof(rbuf));
        assert_int_equal(n, 7);
        assert_string_equal(rargv[0], "ssh");
        assert_string_equal(rargv[1], "-o");
        assert_string_equal(rargv[2], "BatchMode=yes");
        assert_string_equal(rargv[3], "-l");
        assert_string_equal(rargv[4], "spec");
        assert_string_equal(rargv[5], "c2");
        assert_non_null(strstr(rargv[6], "' '-N2' '--prime-ssh' "));
        assert_int_equal(rargv[6][0], '\'');
    }
    pr_run_free(&run);
}

static void expect_error(const char *text, const char *msg)
{
    struct pr_run run;

    assert_int_equal(load_text(&run, text), -EINVAL);
    if (strstr(diagbuf, msg) == NULL)
        fail_msg("wanted \"%s\" in: %.600s", msg, diagbuf);
    pr_run_free(&run);
}

static void errors_name_their_line(void **state)
{
    (void)state;
    expect_error("LOAD=\"300 200\"\nCLIENTS=a\nMNT_POINTS=s:/x\n",
                 "test_prime_rc:1: error: LOAD: load points must increase");
    expect_error("LOAD=1\nCLIENTS=\"a b\"\nMNT_POINTS=s:/x\n",
                 "1 ops/s over 2 clients leaves 0 per client");
    expect_error("LOAD=100\nCLIENTS=a\nPROCS=abc\nMNT_POINTS=s:/x\n",
                 "test_prime_rc:3: error: PROCS:");
    expect_error("LOAD=100\nCLIENTS=a\nPROCS=2\nMNT_POINTS=\"s:/1 s:/2 s:/3\"\n",
                 "test_prime_rc:4: error: MNT_POINTS: 3 mount points");
    expect_error("LOAD=100\nNUM_RUNS=3\nCLIENTS=a\nMNT_POINTS=s:/x\n",
                 "test_prime_rc:2: error: NUM_RUNS: 3 points need INCR_LOAD above 0");
    expect_error("LOAD=100\nCLIENTS=a\nMNT_POINTS=s:/x\nNFS_VERSION=5\n",
                 "test_prime_rc:4: error: NFS_VERSION");
    /* NFSv4.1: over TCP only; the null workload does not run over it */
    expect_error("LOAD=100\nCLIENTS=a\nMNT_POINTS=s:/x\nNFS_VERSION=4\nTCP=off\n",
                 "test_prime_rc:5: error: TCP: NFSv4.1 runs over TCP only: UDP "
                 "(TCP off) refused (NFS_VERSION=4)");
    expect_error(
        "LOAD=100\nCLIENTS=a\nMNT_POINTS=s:/x\nNFS_VERSION=4\nWORKLOAD=null\n",
        "test_prime_rc:4: error: NFS_VERSION: the null workload does not run over "
        "NFSv4.1 yet");
    expect_error("LOAD=100\nCLIENTS=a\nMNT_POINTS=s:/x\nTCP=maybe\n",
                 "test_prime_rc:4: error: TCP: 'maybe' is neither on");
    expect_error("LOAD=100\nCLIENTS=a\nMNT_POINTS=nothere\n", "nothere: not found");
    expect_error("LOAD=100\nCLIENTS=a\nMNT_POINTS=s:/x\nMIXFILE=nothere.mix\n",
                 "test_prime_rc:4: error: MIXFILE: nothere.mix: not found");
    expect_error("LOAD=100\nCLIENTS=a\nMNT_POINTS=s:/x\nACCESS_PCNT=101\n",
                 "test_prime_rc:4: error: ACCESS_PCNT:");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(points_from_list_and_from_increments),
        cmocka_unit_test(replay_points_per_speed),
        cmocka_unit_test(shared_mounts_and_repeated_hosts),
        cmocka_unit_test(options_pass_through_generically),
        cmocka_unit_test(errors_name_their_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
