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
#include "common/error.h"
#include "helpers/th_oom.h"

/* Bounds the loop in case an operation allocates without end. */
#define TH_OOM_MAX_ALLOCS 100000

/* One run of the case with the hook set (n = 0: off); returns what op did
 * and the failures the hook made in *failed. */
static int run_once(const struct th_oom_case *c, void *ctx, long n, int sticky,
                    unsigned long *failed, char *err, size_t errlen)
{
    int rc;

    if (c->setup)
        c->setup(ctx);
    err[0] = '\0';
    cm_alloc_fail_nth(n, sticky);
    rc = c->op(ctx, err, errlen);
    *failed = cm_alloc_failed();
    cm_alloc_fail_off();
    if (c->teardown)
        c->teardown(ctx);
    return rc;
}

long th_oom_check(const struct th_oom_case *c, void *ctx)
{
    char err[CM_ERR_LEN] = "";
    unsigned long before = cm_alloc_count(), failed;
    long total;
    int rc = 0;

    /* the count is of the op alone: setup and teardown allocate too */
    if (c->setup)
        c->setup(ctx);
    before = cm_alloc_count();
    rc = c->op(ctx, err, sizeof(err));
    total = (long)(cm_alloc_count() - before);
    if (c->teardown)
        c->teardown(ctx);
    if (rc != 0)
        fail_msg("%s: fails without an injected failure (%d): %s", c->name, rc, err);
    for (long n = 1; n <= total && n <= TH_OOM_MAX_ALLOCS; n++) {
        for (int sticky = 0; sticky <= 1; sticky++) {
            const char *mode = sticky ? "for good" : "once";

            rc = run_once(c, ctx, n, sticky, &failed, err, sizeof(err));
            if (failed == 0)
                fail_msg("%s: allocation %ld of %ld (%s) was not made (returned %d: %s)",
                         c->name, n, total, mode, rc, err);
            if (rc == 0 && n > total - c->courtesy_tail)
                continue;
            if (c->want != 0 ? rc != c->want : rc >= 0)
                fail_msg(
                    "%s: allocation %ld of %ld failing %s: returned %d, want %d (%s)",
                    c->name, n, total, mode, rc, c->want, err);
            if (err[0] == '\0')
                fail_msg("%s: allocation %ld of %ld failing %s: %d without a message",
                         c->name, n, total, mode, rc);
        }
    }
    return total;
}

long th_oom_run(const char *name, th_oom_op op, void *ctx, int want)
{
    const struct th_oom_case c = {name, NULL, op, NULL, want, 0};

    return th_oom_check(&c, ctx);
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
