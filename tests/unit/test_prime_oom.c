/* SPDX-License-Identifier: BSD-2-Clause */
/* test_prime_oom.c - the prime's out-of-memory paths under the failing-
 * allocator hook (helpers/th_oom.h): reading and resolving an rc file
 * (pr_run_load) ends in -EINVAL with a message on diag and frees all it
 * made; writing the results (pr_results_final) ends in -EIO with a message
 * and never leaves a half-written sfsres.yaml. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/alloc.h"
#include "helpers/th_oom.h"
#include "helpers/th_text.h"
#include "prime/pr_int.h"

struct fix {
    char dir[64];
    char rc[128];
    char diagbuf[4096];
};

static void fix_make(struct fix *f)
{
    FILE *fp;

    snprintf(f->dir, sizeof(f->dir), "/tmp/test_prime_oom.XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->rc, sizeof(f->rc), "%s/sfs_rc", f->dir);
    fp = fopen(f->rc, "w");
    assert_non_null(fp);
    fprintf(fp,
            "LOAD=\"100 200 300\"\n"
            "CLIENTS=\"c1 c2\"\n"
            "PROCS=2\n"
            "MNT_POINTS=\"s:/a s:/b\"\n"
            "WORK_DIR=%s\n"
            "SUFFIX=t\n"
            "RUNTIME=30\n",
            f->dir);
    assert_int_equal(fclose(fp), 0);
}

static void fix_remove(struct fix *f)
{
    char path[256];

    snprintf(path, sizeof(path), "%s/sfsres.t", f->dir);
    unlink(path);
    unlink(f->rc);
    assert_int_equal(rmdir(f->dir), 0);
}

/* Loads the rc with diag in memory; the first line of diag goes to err. */
static int load(struct fix *f, struct pr_run *run, char *err, size_t errlen)
{
    FILE *diag = fmemopen(f->diagbuf, sizeof(f->diagbuf), "w");
    int rc;

    assert_non_null(diag);
    rc = pr_run_load(run, f->rc, NULL, diag);
    fclose(diag);
    snprintf(err, errlen, "%.*s", (int)strcspn(f->diagbuf, "\n"), f->diagbuf);
    return rc;
}

static int run_load_op(void *ctx, char *err, size_t errlen)
{
    struct fix *f = ctx;
    struct pr_run run;
    int rc = load(f, &run, err, errlen);

    if (rc == 0 && (run.npoints != 3 || run.nclients != 2))
        rc = cm_errf(err, errlen, "%u points, %u clients", run.npoints, run.nclients);
    pr_run_free(&run);
    return rc;
}

static void rc_resolution_runs_out_of_memory_cleanly(void **state)
{
    struct fix f = {"", "", ""};

    (void)state;
    fix_make(&f);
    assert_true(th_oom_run("pr_run_load", run_load_op, &f, -EINVAL) > 10);
    fix_remove(&f);
}

struct results {
    struct fix f;
    struct pr_run run;
    struct pr_opts opts;
    struct pr_ctx ctx;
    struct pr_point pt;
    char yaml[256];
};

static int results_op(void *data, char *err, size_t errlen)
{
    struct results *r = data;
    FILE *diag = fmemopen(r->f.diagbuf, sizeof(r->f.diagbuf), "w");
    FILE *out = fopen("/dev/null", "w");
    struct stat st;
    int rc;

    r->opts.diag = diag;
    rc = pr_results_final(&r->ctx, &r->pt, 1, out);
    fclose(out);
    fclose(diag);
    snprintf(err, errlen, "%.*s", (int)strcspn(r->f.diagbuf, "\n"), r->f.diagbuf);
    if (rc < 0 && stat(r->yaml, &st) == 0)
        return cm_errf(err, errlen, "a failed write left %s", r->yaml);
    if (th_oom_dir_entries(r->f.dir) != 2 + (rc == 0)) /* rc, sfsres.t, the YAML */
        return cm_errf(err, errlen, "a temporary file is left in %s", r->f.dir);
    if (rc == 0 && stat(r->yaml, &st) != 0)
        return cm_errf(err, errlen, "no %s", r->yaml);
    unlink(r->yaml);
    return rc;
}

static void results_run_out_of_memory_without_a_half_file(void **state)
{
    static struct results r;
    char err[CM_ERR_LEN];

    (void)state;
    memset(&r, 0, sizeof(r));
    fix_make(&r.f);
    assert_int_equal(load(&r.f, &r.run, err, sizeof(err)), 0);
    r.opts.name = "sfs_mgr";
    r.ctx.run = &r.run;
    r.ctx.opts = &r.opts;
    r.pt.load = 100;
    snprintf(r.pt.error, sizeof(r.pt.error), "c1: no answer"); /* an unfinished point */
    snprintf(r.yaml, sizeof(r.yaml), "%s/sfsres.t.yaml", r.f.dir);
    assert_true(th_oom_run("pr_results_final", results_op, &r, -EIO) >= 1);
    pr_run_free(&r.run);
    fix_remove(&r.f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rc_resolution_runs_out_of_memory_cleanly),
        cmocka_unit_test(results_run_out_of_memory_without_a_half_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
