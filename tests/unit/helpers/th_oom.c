/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * th_oom.c - the out-of-memory loop of th_oom.h over common/alloc.h's
 * hook, failing the cmocka test on the first wrong answer.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "common/alloc.h"
#include "common/cm.h"
#include "helpers/th_oom.h"

/* Bounds the loop in case an operation allocates without end. */
#define TH_OOM_MAX_ALLOCS 100000

long th_oom_run(const char *name, th_oom_op op, void *ctx, int want)
{
    char err[CM_ERR_LEN] = "";
    unsigned long before = cm_alloc_count();
    long total;
    int rc = op(ctx, err, sizeof(err));

    if (rc != 0)
        fail_msg("%s: fails without an injected failure (%d): %s", name, rc, err);
    total = (long)(cm_alloc_count() - before);
    for (long n = 1; n <= total && n <= TH_OOM_MAX_ALLOCS; n++) {
        for (int sticky = 0; sticky <= 1; sticky++) {
            unsigned long failed;

            err[0] = '\0';
            cm_alloc_fail_nth(n, sticky);
            rc = op(ctx, err, sizeof(err));
            failed = cm_alloc_failed();
            cm_alloc_fail_off();
            if (failed == 0)
                fail_msg("%s: allocation %ld of %ld %s was not made", name, n, total,
                         sticky ? "(and later)" : "(once)");
            if (want != 0 ? rc != want : rc >= 0)
                fail_msg("%s: allocation %ld of %ld failing %s: returned %d, want %d (%s)",
                         name, n, total, sticky ? "for good" : "once", rc, want, err);
            if (err[0] == '\0')
                fail_msg("%s: allocation %ld of %ld failing %s: %d without a message",
                         name, n, total, sticky ? "for good" : "once", rc);
        }
    }
    return total;
}

int th_oom_dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    const struct dirent *e;
    int n = 0;

    if (d == NULL)
        return -1;
    while ((e = readdir(d)) != NULL)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}
