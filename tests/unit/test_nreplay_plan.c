/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nreplay_plan.c - the NFS trace replay's plan (nr.h) on a hand-made
 * nfsdump trace (tests/fixtures/nfsdump/nreplay-deps.txt): the calls kept
 * with their objects, names, traced statuses and times; the dependencies
 * (a change waits for the last use of its object or name and the reads
 * since its last change, a read for the last change; RMDIR waits for the REMOVEs inside
 * the directory through the names it held; a RENAME inside one directory does not wait
 * for itself; an unrelated call waits for nothing); the image at the start; the workload
 * chosen by format or content; a trace of the other NFS version refused with the program
 * to use; the status classes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "image/im.h"
#include "helpers/th_config.h"
#include "load/options.h"
#include "nreplay/nr.h"

#define DEPS  "tests/fixtures/nfsdump/nreplay-deps.txt"
#define HOSTS "tests/fixtures/nfsdump/nreplay-hosts.txt"

static void config(struct ld_config *cfg, int version, const char *file)
{
    assert_int_equal(th_config_for(cfg, version, &nr_workload), 0);
    snprintf(RB_TOPTS_SET(cfg)->trace_file, LD_PATH_MAX, "%s", file);
}

/* The plan's calls as its stream gives them, their names kept. */
#define MAX_CALLS 16
static struct nr_call calls[MAX_CALLS];
static char names[MAX_CALLS][3][64];

static const char *keep(const char *name, char *buf)
{
    if (!name)
        return NULL;
    snprintf(buf, 64, "%s", name);
    return buf;
}

static void read_calls(const struct nr_plan *p)
{
    struct nr_stream in;
    char err[CM_ERR_LEN];
    uint64_t i = 0;

    assert_int_equal(nr_stream_open(&in, p, 0, err, sizeof(err)), 0);
    while (nr_stream_next(&in, &calls[i], err, sizeof(err)) > 0) {
        calls[i].name = keep(calls[i].name, names[i][0]);
        calls[i].name2 = keep(calls[i].name2, names[i][1]);
        calls[i].text = keep(calls[i].text, names[i][2]);
        assert_true(++i < MAX_CALLS);
    }
    assert_int_equal(i, p->ncalls);
    nr_stream_close(&in);
}

/* Whether call i waits for call j. */
static int waits(uint32_t i, uint32_t j)
{
    unsigned k;

    for (k = 0; k < NR_DEPS; k++)
        if (calls[i].dep[k] && i - calls[i].dep[k] == j)
            return 1;
    return 0;
}

static unsigned ndeps(uint32_t i)
{
    unsigned k, n = 0;

    for (k = 0; k < NR_DEPS; k++)
        n += calls[i].dep[k] != 0;
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
    read_calls(&p);
    assert_int_equal(calls[0].op, NF_OP_LOOKUP);
    assert_string_equal(calls[0].name, "d");
    assert_int_equal(calls[4].op, NF_OP_RENAME);
    assert_string_equal(calls[4].name2, "b");
    assert_int_equal(calls[4].obj, calls[4].obj2);
    for (i = 0; i < p.ncalls; i++) {
        assert_int_equal(calls[i].status, 0);
        assert_int_equal(calls[i].rt_us, 100);
    }
    assert_int_equal(ndeps(0), 0);
    assert_true(waits(1, 0));      /* CREATE in d after d's LOOKUP */
    assert_true(waits(2, 1));      /* WRITE x after its CREATE */
    assert_true(waits(3, 1));      /* LOOKUP in d after d changed */
    assert_true(waits(4, 3));      /* RENAME a after a's LOOKUP ... */
    assert_false(waits(4, 4));     /* ... never after itself */
    assert_true(waits(5, 4));      /* REMOVE x: d changed by the RENAME, */
    assert_true(waits(5, 2));      /* and x written */
    assert_true(waits(6, 4));      /* REMOVE b: the name the RENAME made */
    assert_true(waits(7, 6));      /* RMDIR d after the last REMOVE in it */
    assert_int_equal(ndeps(8), 0); /* READ of y: nothing */
    for (i = 0; i < p.ncalls; i++) /* only earlier calls */
        for (unsigned k = 0; k < NR_DEPS && calls[i].dep[k]; k++)
            assert_true(calls[i].dep[k] <= i);
    /* the image: root, d, a and y at the start; x created */
    assert_int_equal(im_obj(p.img, calls[2].obj)->flags & IM_O_CREATED, IM_O_CREATED);
    assert_int_equal(im_obj(p.img, calls[3].res_obj)->flags & IM_O_AT_START,
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
    RB_TOPTS_SET(&cfg)->nclients = 2;
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
    RB_TOPTS_SET(&cfg)->nclients =
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
    uint64_t deps, ncalls;

    (void)state;
    config(&cfg, 3, HOSTS);
    assert_int_equal(nr_plan_build(&p, &cfg, err, sizeof(err)), 0);
    assert_int_equal(p.ncalls, 4);
    assert_int_equal(p.nstreams, 2);
    read_calls(&p);
    assert_true(waits(1, 0));      /* host 32's LOOKUP after host 30's CREATE */
    assert_true(waits(2, 1));      /* its READ after its own LOOKUP */
    assert_true(waits(2, 0));      /* and after the CREATE */
    assert_int_equal(ndeps(3), 1); /* host 30's READ: its CREATE only */
    assert_true(waits(3, 0));
    assert_int_equal(nr_cross_deps(&p, &cfg, 0, -1, &deps, &ncalls, err, sizeof(err)), 0);
    assert_int_equal(deps, 0); /* one client: none */
    RB_TOPTS_SET(&cfg)->nclients = 2;
    NR_OPTS_SET(&cfg)->trace_scale = 1;
    assert_int_equal(nr_cross_deps(&p, &cfg, 0, -1, &deps, &ncalls, err, sizeof(err)), 0);
    assert_int_equal(deps, 2); /* LOOKUP and READ on CREATE */
    assert_int_equal(ncalls, 2);
    assert_int_equal(nr_cross_deps(&p, &cfg, 2, 0, &deps, &ncalls, err, sizeof(err)), 0);
    assert_int_equal(deps, 2); /* both are client 2's */
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
    snprintf(RB_TOPTS_SET(&cfg)->trace_format, 16, "spc");
    assert_int_equal(nr_accepts(&cfg, err, sizeof(err)), LD_ACCEPT_NO);
    snprintf(RB_TOPTS_SET(&cfg)->trace_format, 16, "nfsdump");
    assert_int_equal(nr_accepts(&cfg, err, sizeof(err)), LD_ACCEPT_YES);
    config(&cfg, 3, "tests/fixtures/spc/seed-example.spc");
    assert_int_equal(nr_accepts(&cfg, err, sizeof(err)), LD_ACCEPT_NO);
    config(&cfg, 2, DEPS);
    assert_int_equal(nr_plan_build(&p, &cfg, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "no NFSv2 call to replay"));
    assert_non_null(strstr(err, "replayed by sfs3"));
}

/* A plan written to its file reads back as the plan made for the run (the
 * same figures, the same calls in the same order); a copy of it whose
 * capture changed, a damaged one and one of the other NFS version are
 * refused with one line naming them. */
static void a_plan_file_reads_back_and_is_checked(void **state)
{
    struct nr_plan a, b;
    struct nr_plan_opts o = {NULL, 0, 3};
    struct ld_config cfg;
    char err[CM_ERR_LEN], cap[] = "/tmp/freesfs-t-capXXXXXX", plan[64], cmd[256];
    struct nr_call first[MAX_CALLS];
    FILE *f;
    int fd = mkstemp(cap);
    uint64_t i;

    (void)state;
    assert_true(fd >= 0);
    close(fd);
    snprintf(cmd, sizeof(cmd), "cp " DEPS " %s", cap);
    assert_int_equal(system(cmd), 0);
    snprintf(plan, sizeof(plan), "%s.plan", cap);
    config(&cfg, 3, cap);
    assert_int_equal(nr_plan_build(&a, &cfg, err, sizeof(err)), 0);
    read_calls(&a);
    memcpy(first, calls, sizeof(first));
    assert_int_equal(nr_plan_write(cap, &o, plan, err, sizeof(err)), 0);
    assert_true(nr_plan_is_file(plan));
    assert_false(nr_plan_is_file(cap));
    config(&cfg, 3, plan);
    assert_int_equal(nr_accepts(&cfg, err, sizeof(err)), LD_ACCEPT_YES);
    assert_int_equal(nr_plan_build(&b, &cfg, err, sizeof(err)), 0);
    assert_int_equal(b.from_file, 1);
    assert_string_equal(b.capture, cap);
    assert_string_equal(b.format, "nfsdump");
    assert_int_equal(b.ncalls, a.ncalls);
    assert_int_equal(b.nstreams, a.nstreams);
    assert_int_equal(b.stream_calls[0] + b.stream_calls[1], 9);
    assert_int_equal(b.trace_ns, a.trace_ns);
    assert_int_equal(b.events, a.events);
    assert_memory_equal(b.skipped, a.skipped, sizeof(a.skipped));
    assert_memory_equal(b.traced, a.traced, sizeof(a.traced));
    assert_int_equal(im_nobjs(b.img), im_nobjs(a.img));
    read_calls(&b);
    for (i = 0; i < b.ncalls; i++) {
        assert_int_equal(calls[i].t_ns, first[i].t_ns);
        assert_int_equal(calls[i].op, first[i].op);
        assert_int_equal(calls[i].obj, first[i].obj);
        assert_memory_equal(calls[i].dep, first[i].dep, sizeof(first[i].dep));
        assert_true((!calls[i].name && !first[i].name) ||
                    strcmp(calls[i].name, first[i].name) == 0);
    }
    nr_plan_free(&a);
    nr_plan_free(&b);

    config(&cfg, 2, plan); /* the other version */
    assert_int_equal(nr_plan_build(&b, &cfg, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "holds the NFSv3 calls"));
    assert_non_null(strstr(err, "replay it with sfs3"));

    f = fopen(cap, "a"); /* the capture changed since */
    assert_non_null(f);
    fputs("# a line more\n", f);
    fclose(f);
    config(&cfg, 3, plan);
    assert_int_equal(nr_plan_build(&b, &cfg, err, sizeof(err)), -ESTALE);
    assert_non_null(strstr(err, "plan it again"));
    assert_int_equal(unlink(cap), 0); /* a plan without its capture stands alone */
    assert_int_equal(nr_plan_build(&b, &cfg, err, sizeof(err)), 0);
    nr_plan_free(&b);

    fd = open(plan, O_WRONLY); /* damaged: the trailer's offset points outside */
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 100), 0);
    close(fd);
    assert_true(nr_plan_build(&b, &cfg, err, sizeof(err)) < 0);
    assert_non_null(strstr(err, plan));
    unlink(plan);
}

/* A dependency NR_LOOKAHEAD calls back or more is left out (the replay
 * never holds that many calls open); one less is kept. */
static void dependencies_reach_back_less_than_the_look_ahead(void **state)
{
    struct nr_plan p;
    struct ld_config cfg;
    struct nr_stream in;
    struct nr_call c;
    char err[CM_ERR_LEN], cap[] = "/tmp/freesfs-t-farXXXXXX";
    const char *fh = "0100000000000000000000000000000000000000000000000000000000000003";
    FILE *f;
    int fd = mkstemp(cap);
    uint32_t k, n = NR_LOOKAHEAD + 2;
    double t = 1034787600.0;

    (void)state;
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    /* a WRITE of x, n - 2 GETATTRs of x, then two more WRITEs: the first
     * after n - 1 calls (left out), the second right after the first */
    for (k = 0; k < n + 1; k++, t += 0.00001) {
        int write = k == 0 || k >= n - 1;

        fprintf(f,
                "%.6f 30.0321 31.0801 U C3 %08x %s fh %s%s con = XXX len = XXX\n"
                "%.6f 31.0801 30.0321 U R3 %08x %s OK%s status=XXX pl = XXX con = XXX "
                "len = XXX\n",
                t, k + 1, write ? "7 write" : "1 getattr", fh,
                write ? " off 0 count 10 stable U" : "", t + 0.000005, k + 1,
                write ? "7 write" : "1 getattr", write ? " count 10 stable U" : "");
    }
    fclose(f);
    config(&cfg, 3, cap);
    assert_int_equal(nr_plan_build(&p, &cfg, err, sizeof(err)), 0);
    assert_int_equal(p.ncalls, n + 1);
    assert_int_equal(nr_stream_open(&in, &p, n - 1, err, sizeof(err)), 0);
    assert_int_equal(nr_stream_next(&in, &c, err, sizeof(err)), 1);
    assert_int_equal(c.op, NF_OP_WRITE); /* call n - 1: a write after the GETATTRs */
    /* the GETATTRs since the last that stood for those before it (every
     * NR_READERS + 1-th), not the WRITE n - 1 calls back */
    assert_int_equal(c.dep[0], 1);
    assert_int_equal(c.dep[1], 4);
    assert_int_equal(c.dep[2], 3);
    assert_int_equal(c.dep[3], 2);
    assert_int_equal(c.dep[4], 0);
    assert_int_equal(nr_stream_next(&in, &c, err, sizeof(err)), 1);
    assert_int_equal(c.dep[0], 1); /* the WRITE before it */
    assert_int_equal(nr_stream_next(&in, &c, err, sizeof(err)), 0);
    nr_stream_close(&in);
    nr_plan_free(&p);
    unlink(cap);
}

/* A change waits for every read since the last change, not only the last
 * call: READs in flight together may be answered in any order (ganesha
 * answered a REMOVE before an earlier READ of the file, STALE).  Past
 * NR_READERS reads one more waits for them and stands for them. */
static void a_change_waits_for_every_read_since_the_last(void **state)
{
    struct nr_plan p;
    struct ld_config cfg;
    char err[CM_ERR_LEN], cap[] = "/tmp/freesfs-t-readsXXXXXX";
    const char *d = "0100000000000000000000000000000000000000000000000000000000000002";
    const char *x = "0100000000000000000000000000000000000000000000000000000000000003";
    const char *attr = "ftype 1 mode 1a4 nlink 1 uid 0 gid 0 size 1000 used 1000 rdev 0 "
                       "rdev2 0 fsid 2 fileid 3 atime 1034787500.000000 mtime "
                       "1034787400.000000 ctime 1034787400.000000";
    FILE *f;
    int fd = mkstemp(cap);
    unsigned k;

    (void)state;
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    /* 0 LOOKUP d/x, 1 WRITE x, 2-6 READs of x, 7 GETATTR x, 8 REMOVE d/x */
    fprintf(
        f,
        "1034787600.000100 30.0321 31.0801 U C3 00000001 3 lookup fh %s name \"x\" "
        "con = XXX len = XXX\n"
        "1034787600.000150 31.0801 30.0321 U R3 00000001 3 lookup OK fh %s %s "
        "status=XXX pl = XXX con = XXX len = XXX\n"
        "1034787600.000200 30.0321 31.0801 U C3 00000002 7 write fh %s off 0 count 100 "
        "stable U con = XXX len = XXX\n"
        "1034787600.000250 31.0801 30.0321 U R3 00000002 7 write OK count 100 stable U "
        "status=XXX pl = XXX con = XXX len = XXX\n",
        d, x, attr, x);
    for (k = 0; k < 5; k++) /* five READs in flight together */
        fprintf(
            f,
            "1034787600.0003%u0 30.0321 31.0801 U C3 0000001%u 6 read fh %s off %u count "
            "100 con = XXX len = XXX\n",
            k, k, x, k * 100);
    for (k = 0; k < 5; k++)
        fprintf(
            f,
            "1034787600.0009%u0 31.0801 30.0321 U R3 0000001%u 6 read OK %s count 100 "
            "eof 0 status=XXX pl = XXX con = XXX len = XXX\n",
            k, k, attr);
    fprintf(
        f,
        "1034787600.001000 30.0321 31.0801 U C3 00000020 1 getattr fh %s con = XXX len = "
        "XXX\n"
        "1034787600.001050 31.0801 30.0321 U R3 00000020 1 getattr OK %s status=XXX pl = "
        "XXX con = XXX len = XXX\n"
        "1034787600.001100 30.0321 31.0801 U C3 00000021 c remove fh %s name \"x\" con = "
        "XXX len = XXX\n"
        "1034787600.001150 31.0801 30.0321 U R3 00000021 c remove OK status=XXX pl = XXX "
        "con = XXX len = XXX\n",
        x, attr, d);
    fclose(f);
    config(&cfg, 3, cap);
    if (nr_plan_build(&p, &cfg, err, sizeof(err)) != 0)
        fail_msg("%s", err);
    assert_int_equal(p.ncalls, 9);
    read_calls(&p);
    assert_int_equal(calls[8].op, NF_OP_REMOVE);
    for (k = 2; k <= 5; k++) { /* READs: after the WRITE, not after each other */
        assert_true(waits(k, 1));
        assert_int_equal(ndeps(k), 1);
    }
    assert_true(waits(6, 1)); /* the fifth READ stands for the four before it */
    for (k = 2; k <= 5; k++)
        assert_true(waits(6, k));
    assert_int_equal(ndeps(7), 1); /* GETATTR: after the WRITE */
    assert_true(waits(8, 6));      /* REMOVE: after the READ that stands for the others */
    assert_true(waits(8, 7));      /* and the GETATTR, both reads since the WRITE */
    nr_plan_free(&p);
    unlink(cap);
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
        cmocka_unit_test(a_plan_file_reads_back_and_is_checked),
        cmocka_unit_test(dependencies_reach_back_less_than_the_look_ahead),
        cmocka_unit_test(a_change_waits_for_every_read_since_the_last),
        cmocka_unit_test(status_classes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
