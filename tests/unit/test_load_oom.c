/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_oom.c - the load layer's input readers under the failing-
 * allocator hook (helpers/th_oom.h): mix and block-size files, and the
 * trace replay plan over each trace format (SPC, MASTA, sysio: the trace
 * layer's readers under it), and the generator parent driving stand-in
 * children (every child stopped when a phase fails).  Each allocation fails in turn, once
 * and for good; every run must end in -ENOMEM with a message and free all it made (the
 * ASan build checks). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "helpers/th_oom.h"
#include "load/iodist.h"
#include "load/ld_int.h"
#include "load/mix.h"
#include "load/options.h"
#include "load/parent.h"
#include "load/replay.h"

#define FIX "tests/fixtures/"

static int mix_op(void *ctx, char *err, size_t errlen)
{
    struct ld_mix m;

    return ld_mix_load(&m, 3, ctx, NULL, err, errlen);
}

static void mix_files_run_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("mix v2", mix_op, FIX "mix/v2-nfsv3-default.mix", -ENOMEM) >=
                1);
    assert_true(th_oom_run("mix v1", mix_op, FIX "mix/v1-nfsstat.mix", -ENOMEM) >= 1);
}

static int iodist_op(void *ctx, char *err, size_t errlen)
{
    struct ld_iodist d;

    return ld_iodist_load(&d, 8, ctx, NULL, err, errlen);
}

static void block_size_files_run_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("iodist", iodist_op, FIX "iodist/default.bsd", -ENOMEM) >= 1);
}

struct plan {
    const char *file;
    int version;
};

static int plan_op(void *ctx, char *err, size_t errlen)
{
    const struct plan *pl = ctx;
    struct ld_replay_plan p;
    struct ld_config cfg;
    int rc;

    ld_config_defaults(&cfg, pl->version);
    snprintf(cfg.trace_file, sizeof(cfg.trace_file), "%s", pl->file);
    rc = ld_replay_plan_build(&p, &cfg, NULL, err, errlen);
    if (rc == 0 && p.nunits == 0)
        rc = cm_errf(err, errlen, "no units");
    if (rc == 0)
        ld_replay_plan_free(&p);
    return rc;
}

static void replay_plans_run_out_of_memory_cleanly(void **state)
{
    struct plan spc = {FIX "spc/seed-example.spc", 3};
    struct plan masta = {FIX "masta/sample.mtr", 3};
    struct plan sysio = {FIX "sysio/sample.trace", 3};
    struct plan sysio_big = {FIX "sysio/synthetic.trace", 3};
    struct plan masta_big = {FIX "masta/synthetic-2k.mtr", 3};

    (void)state;
    assert_true(th_oom_run("plan spc", plan_op, &spc, -ENOMEM) > 3);
    assert_true(th_oom_run("plan masta", plan_op, &masta, -ENOMEM) > 3);
    assert_true(th_oom_run("plan sysio", plan_op, &sysio, -ENOMEM) > 3);
    assert_true(th_oom_run("plan sysio synthetic", plan_op, &sysio_big, -ENOMEM) > 3);
    assert_true(th_oom_run("plan masta synthetic", plan_op, &masta_big, -ENOMEM) > 3);
}

/* ---- the parent and its children ------------------------------------------ */

/* A stand-in child: answers each phase with its type (RESULTS with two
 * bytes of payload) and ends after RESULTS or when the parent goes. */
static int answering_child(int fd, unsigned k, void *data)
{
    struct ld_msg_hdr h;

    (void)k;
    (void)data;
    while (ld_msg_recv(fd, &h, NULL, 0) == 0) {
        ld_msg_send(fd, h.type, 0, "xy", h.type == LD_MSG_RESULTS ? 2 : 0);
        if (h.type == LD_MSG_RESULTS)
            return 0;
    }
    return 1;
}

/* The generator parent with two children through MOUNT and RESULTS, as
 * sfs drives them: -ENOMEM with "out of memory" in last_error, and every
 * child already stopped and reaped when a phase fails (its contract). */
static int parent_op(void *ctx, char *err, size_t errlen)
{
    struct ld_parent p;
    int rc;

    (void)ctx;
    memset(&p, 0, sizeof(p));
    rc = ld_parent_spawn(&p, 2, answering_child, NULL);
    if (rc == 0)
        rc = ld_parent_phase(&p, LD_MSG_MOUNT, 0, 10);
    if (rc == 0)
        rc = ld_parent_phase(&p, LD_MSG_RESULTS, 0, 10);
    if (rc == 0 && p.procs[1].payload_len != 2)
        rc = cm_errf(err, errlen, "results lost");
    if (rc == 0)
        rc = ld_parent_reap(&p);
    if (rc < 0) {
        snprintf(err, errlen, "%s", p.last_error);
        for (unsigned k = 0; k < p.nprocs; k++)
            if (p.procs[k].pid > 0) {
                rc = cm_errf(err, errlen, "child %u left running after: %s", k,
                             p.last_error);
                ld_parent_kill_all(&p);
                break;
            }
    }
    ld_parent_free(&p);
    return rc;
}

static void parent_runs_out_of_memory_cleanly(void **state)
{
    (void)state;
    assert_true(th_oom_run("parent", parent_op, NULL, -ENOMEM) >= 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mix_files_run_out_of_memory_cleanly),
        cmocka_unit_test(block_size_files_run_out_of_memory_cleanly),
        cmocka_unit_test(replay_plans_run_out_of_memory_cleanly),
        cmocka_unit_test(parent_runs_out_of_memory_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
