/* SPDX-License-Identifier: BSD-2-Clause */
/* test_trace_nfs_oom.c - the NFS trace readers and the nfsdump writer under
 * the failing-allocator hook (helpers/th_oom.h): a capture over UDP and TCP,
 * a capture of IP fragments and the nfsdump text are read and written back
 * as anonymised nfsdump with each allocation failing in turn, once and for
 * good; every run must end with -ENOMEM and "out of memory", and free all
 * it made (the ASan build checks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "helpers/th_oom.h"
#include "trace/tr_nfs.h"

#define FIX "tests/fixtures/"

/* Reads the whole trace and writes it as anonymised nfsdump: 0, or the
 * first error with its message. */
static int read_and_write(void *ctx, char *err, size_t errlen)
{
    const char *path = ctx;
    struct tr_nfs_write_options wo = {.anon_key = "k"};
    struct tr_nfs_reader *r;
    struct tr_nfs_writer *w = NULL;
    struct tr_nfs_event ev;
    FILE *out = fopen("/dev/null", "w");
    int rc, n, crc;

    assert_non_null(out);
    rc = tr_nfs_open(&r, path, NULL, err, errlen);
    if (rc < 0) {
        fclose(out);
        return rc;
    }
    rc = tr_nfs_writer_open(&w, out, r, &wo, err, errlen);
    while (rc == 0) {
        n = tr_nfs_next(r, &ev);
        if (n == 0)
            break;
        if (n < 0) {
            cm_errf(err, errlen, "%s", tr_nfs_error(r));
            rc = n;
            break;
        }
        rc = tr_nfs_write(w, &ev);
        if (rc < 0)
            cm_errf(err, errlen, "writing: %s", strerror(-rc));
    }
    crc = tr_nfs_writer_close(w, rc ? NULL : err, rc ? 0 : errlen);
    if (rc == 0)
        rc = crc;
    tr_nfs_close(r);
    fclose(out);
    return rc;
}

static void capture_runs_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("session.pcap", read_and_write, FIX "pcap/session.pcap",
                           -ENOMEM) > 10);
}

static void fragments_run_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("fragments.pcap", read_and_write, FIX "pcap/fragments.pcap",
                           -ENOMEM) > 5);
}

static void nfsdump_runs_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(
        th_oom_run("basic.txt", read_and_write, FIX "nfsdump/basic.txt", -ENOMEM) > 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(capture_runs_out_of_memory_cleanly),
        cmocka_unit_test(fragments_run_out_of_memory_cleanly),
        cmocka_unit_test(nfsdump_runs_out_of_memory_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
