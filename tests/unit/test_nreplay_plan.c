/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nreplay_plan.c - the NFS trace replay's plan (nr.h) on a hand-made
 * nfsdump trace (tests/fixtures/nfsdump/nreplay-deps.txt): the calls kept
 * with their objects, names, traced statuses and times; the dependencies
 * (a change waits for the last use of its object or name, a read for the
 * last change; RMDIR waits for the REMOVEs inside the directory through
 * the names it held; a RENAME inside one directory does not wait for
 * itself; an unrelated call waits for nothing); the image at the start;
 * the workload chosen by format or content; a trace of the other NFS
 * version refused with the program to use; the status classes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "image/im.h"
#include "helpers/th_config.h"
#include "load/options.h"
#include "nreplay/nr.h"

#define DEPS  "tests/fixtures/nfsdump/nreplay-deps.txt"
#define HOSTS "tests/fixtures/nfsdump/nreplay-hosts.txt"

static void config(struct ld_config *cfg, int version, const char *file)
{
    assert_int_equal(th_config_for(cfg, version, &nr_workload), 0);
    snprintf(RL_TOPTS_SET(cfg)->trace_file, LD_PATH_MAX, "%s", file);
}

/* Whether call i waits for call j. */
static int waits(const struct nr_plan *p, uint32_t i, uint32_t j)
{
    unsigned k;

    for (k = 0; k < NR_DEPS; k++)
        if (p->calls[i].dep[k] == j)
            return 1;
    return 0;
}

static unsigned ndeps(const struct nr_plan *p, uint32_t i)
{
    unsigned k, n = 0;

    for (k = 0; k < NR_DEPS; k++)
        n += p->calls[i].dep[k] != NR_NONE;
    return n;
}

static void calls_and_dependencies(void **state)
{
    struct nr_plan p;
    struct ld_config cfg;
    char err[CM_ERR_LEN];
    uint32_t i;

    (void)state;
    config(&cfg, 3, DEPS);
    assert_int_equal(nr_plan_build(&p, &cfg, err, sizeof(err)), 0);
    assert_string_equal(p.format, "nfsdump");
    assert_int_equal(p.ncalls, 9);
    assert_int_equal(p.nstreams, 2); /* hosts 30 and 32 */
    assert_int_equal(p.trace_ns, 1600000);
    assert_int_equal(p.calls[0].op, NF_OP_LOOKUP);
    assert_string_equal(nr_name(&p, p.calls[0].name), "d");
    assert_int_equal(p.calls[4].op, NF_OP_RENAME);
    assert_string_equal(nr_name(&p, p.calls[4].name2), "b");
    assert_int_equal(p.calls[4].obj, p.calls[4].obj2);
    for (i = 0; i < p.ncalls; i++) {
        assert_int_equal(p.calls[i].status, 0);
        assert_int_equal(p.calls[i].rt_us, 100);
    }
    assert_int_equal(ndeps(&p, 0), 0);
    assert_true(waits(&p, 1, 0));      /* CREATE in d after d's LOOKUP */
    assert_true(waits(&p, 2, 1));      /* WRITE x after its CREATE */
    assert_true(waits(&p, 3, 1));      /* LOOKUP in d after d changed */
    assert_true(waits(&p, 4, 3));      /* RENAME a after a's LOOKUP ... */
    assert_false(waits(&p, 4, 4));     /* ... never after itself */
    assert_true(waits(&p, 5, 4));      /* REMOVE x: d changed by the RENAME, */
    assert_true(waits(&p, 5, 2));      /* and x written */
    assert_true(waits(&p, 6, 4));      /* REMOVE b: the name the RENAME made */
    assert_true(waits(&p, 7, 6));      /* RMDIR d after the last REMOVE in it */
    assert_int_equal(ndeps(&p, 8), 0); /* READ of y: nothing */
    for (i = 0; i < p.ncalls; i++)     /* only earlier calls */
        for (unsigned k = 0; k < NR_DEPS && p.calls[i].dep[k] != NR_NONE; k++)
            assert_true(p.calls[i].dep[k] < i);
    /* the image: root, d, a and y at the start; x created */
    assert_int_equal(im_obj(p.img, p.calls[2].obj)->flags & IM_O_CREATED, IM_O_CREATED);
    assert_int_equal(im_obj(p.img, p.calls[3].res_obj)->flags & IM_O_AT_START,
                     IM_O_AT_START);
    assert_int_equal(p.traced[NF_OP_TOTAL].count, 9);
    nr_plan_free(&p);
}

/* Streams over clients and processes: units go round the clients first,
 * then a client's processes; a copy's tree lives under its stream 0's
 * client, named by the copies homed there before it. */
static void streams_over_clients(void **state)
{
    struct ld_config cfg;
    char dir[32], units[128];

    (void)state;
    config(&cfg, 3, DEPS);
    RL_TOPTS_SET(&cfg)->nclients = 2;
    cfg.procs = 2;
    NR_OPTS_SET(&cfg)->trace_scale =
        1; /* a two-host trace, one copy: one stream per client */
    assert_int_equal(nr_unit_client(&cfg, 0, 0, 2), 1);
    assert_int_equal(nr_unit_client(&cfg, 0, 1, 2), 2);
    assert_int_equal(nr_unit_proc(&cfg, 0, 1, 2), 0);
    assert_int_equal(nr_idle_procs(&cfg, 2), 2);
    cfg.client_num = 2;
    assert_int_equal(nr_client_copies(&cfg, 2), 1);
    nr_units_text(&cfg, 2, 2, 1, units, sizeof(units));
    assert_string_equal(units, "copy 0 stream 1 (process 0)");
    NR_OPTS_SET(&cfg)->trace_scale =
        4; /* a one-host trace: copy j on client j mod 2 + 1 */
    assert_int_equal(nr_unit_client(&cfg, 3, 0, 1), 2);
    assert_int_equal(nr_unit_proc(&cfg, 3, 0, 1), 1);
    assert_int_equal(nr_client_copies(&cfg, 1), 2); /* copies 1 and 3 */
    nr_copy_dir(&cfg, 3, 1, dir, sizeof(dir));
    assert_string_equal(dir, "nreplay.1");
    nr_copy_dir(&cfg, 1, 1, dir, sizeof(dir));
    assert_string_equal(dir, "nreplay");
    RL_TOPTS_SET(&cfg)->nclients =
        1; /* one client: (copy x streams + stream) mod procs */
    cfg.client_num = 1;
    NR_OPTS_SET(&cfg)->trace_scale = 2;
    assert_int_equal(nr_unit_proc(&cfg, 1, 0, 2), 0);
    assert_int_equal(nr_unit_proc(&cfg, 1, 1, 2), 1);
    assert_int_equal(nr_idle_procs(&cfg, 2), 0);
}

/* A call on an object another host made waits for its own host's LOOKUP
 * that named it; with the two hosts on two clients, the dependencies
 * between them are counted. */
static void dependencies_across_hosts(void **state)
{
    struct nr_plan p;
    struct ld_config cfg;
    char err[CM_ERR_LEN];
    uint64_t deps, calls;

    (void)state;
    config(&cfg, 3, HOSTS);
    assert_int_equal(nr_plan_build(&p, &cfg, err, sizeof(err)), 0);
    assert_int_equal(p.ncalls, 4);
    assert_int_equal(p.nstreams, 2);
    assert_true(waits(&p, 1, 0));      /* host 32's LOOKUP after host 30's CREATE */
    assert_true(waits(&p, 2, 1));      /* its READ after its own LOOKUP */
    assert_true(waits(&p, 2, 0));      /* and after the CREATE */
    assert_int_equal(ndeps(&p, 3), 1); /* host 30's READ: its CREATE only */
    assert_true(waits(&p, 3, 0));
    nr_cross_deps(&p, &cfg, &deps, &calls); /* one client: none */
    assert_int_equal(deps, 0);
    RL_TOPTS_SET(&cfg)->nclients = 2;
    NR_OPTS_SET(&cfg)->trace_scale = 1;
    nr_cross_deps(&p, &cfg, &deps, &calls); /* LOOKUP and READ on CREATE */
    assert_int_equal(deps, 2);
    assert_int_equal(calls, 2);
    nr_plan_free(&p);
}

static void chosen_and_refused(void **state)
{
    struct nr_plan p;
    struct ld_config cfg;
    char err[CM_ERR_LEN];

    (void)state;
    config(&cfg, 3, DEPS);
    assert_int_equal(nr_accepts(&cfg, err, sizeof(err)), LD_ACCEPT_YES); /* by content */
    snprintf(RL_TOPTS_SET(&cfg)->trace_format, 16, "spc");
    assert_int_equal(nr_accepts(&cfg, err, sizeof(err)), LD_ACCEPT_NO);
    snprintf(RL_TOPTS_SET(&cfg)->trace_format, 16, "nfsdump");
    assert_int_equal(nr_accepts(&cfg, err, sizeof(err)), LD_ACCEPT_YES);
    config(&cfg, 3, "tests/fixtures/spc/seed-example.spc");
    assert_int_equal(nr_accepts(&cfg, err, sizeof(err)), LD_ACCEPT_NO);
    config(&cfg, 2, DEPS);
    assert_int_equal(nr_plan_build(&p, &cfg, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "no NFSv2 call to replay"));
    assert_non_null(strstr(err, "replayed by sfs3"));
}

static void status_classes(void **state)
{
    (void)state;
    assert_int_equal(nr_class_of(0), NR_C_OK);
    assert_int_equal(nr_class_of(NF_ST_NOENT), NR_C_NOENT);
    assert_int_equal(nr_class_of(NF_ST_BADHANDLE), NR_C_STALE);
    assert_int_equal(nr_class_of(NF_ST_JUKEBOX), NR_C_OTHER);
    assert_string_equal(nr_class_name(NR_C_NOTEMPTY), "NOTEMPTY");
    assert_string_equal(nr_skip_name(NR_SKIP_NO_HANDLE), "no_replayed_handle");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(calls_and_dependencies),
        cmocka_unit_test(streams_over_clients),
        cmocka_unit_test(dependencies_across_hosts),
        cmocka_unit_test(chosen_and_refused),
        cmocka_unit_test(status_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
