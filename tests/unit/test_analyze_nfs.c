/* SPDX-License-Identifier: BSD-2-Clause */
/* test_analyze_nfs.c - the analysis of NFS traces from events built here:
 * the statistics per procedure and client (calls, replies, errors by
 * status, unanswered and retransmitted calls, bytes, response times), and
 * the miss-ratio curve over (file handle, block), which must equal the
 * curve of the same references fed as block records, with more files than
 * a block trace's unit field holds. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az_nfs.h"

static struct tr_nfs_event ev(int op, int64_t t, unsigned file, int64_t rt_ns)
{
    struct tr_nfs_event e;

    memset(&e, 0, sizeof(e));
    e.prog = TR_NFS_PROG_NFS;
    e.vers = 3;
    e.op = op;
    e.proc = (uint32_t)op;
    e.t_ns = t;
    e.reply_t_ns = t + rt_ns;
    e.flags = rt_ns >= 0 ? TR_NFS_F_REPLY : 0;
    e.fh.len = 8;
    memcpy(e.fh.data, &file, sizeof(file));
    return e;
}

static void stats(void **state)
{
    struct az_nfs_stats *s = calloc(1, sizeof(*s));
    struct tr_nfs_event e;

    (void)state;
    az_nfs_stats_init(s);
    e = ev(NF_OP_READ, 1000, 1, 200000);
    e.count = 8192;
    e.res_count = 5000;
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    e = ev(NF_OP_READ, 2000, 1, 400000);
    e.count = 8192;
    e.res_count = 8192;
    e.client = 1;
    e.transport = TR_NFS_TCP;
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    e = ev(NF_OP_WRITE, 3000, 2, 1000000);
    e.count = 100;
    e.status = 28; /* NOSPC: the bytes were still sent */
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    e = ev(NF_OP_LOOKUP, 4000, 2, 50000);
    e.status = 2;
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    e = ev(NF_OP_GETATTR, 5000, 2, -1); /* unanswered */
    e.flags |= TR_NFS_F_RETRANS;
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    e = ev(NF_OP_GETATTR, 6000, 2, 10);
    e.rpc_status = TR_NFS_RPC_GARBAGE_ARGS;
    assert_int_equal(az_nfs_stats_event(s, &e), 0);
    e = ev(0, 7000, 2, 30000);
    e.prog = TR_NFS_PROG_MOUNT;
    e.op = NF_OP_MOUNT;
    e.proc = 1;
    e.client = 3;
    assert_int_equal(az_nfs_stats_event(s, &e), 0);

    assert_int_equal(s->calls, 8);
    assert_int_equal(s->replies, 7);
    assert_int_equal(s->unanswered, 1);
    assert_int_equal(s->retransmitted, 1);
    assert_int_equal(s->errors, 3);
    assert_int_equal(s->rpc_errors, 1);
    assert_int_equal(s->by_version[3], 7);
    assert_int_equal(s->mount_calls, 1);
    assert_int_equal(s->tcp_calls, 1);
    assert_int_equal(s->bytes_read, 13192);
    assert_int_equal(s->bytes_written, 100);
    assert_int_equal(s->first_ns, 1000);
    assert_int_equal(s->last_ns, 1003000);
    assert_int_equal(s->proc[NF_OP_READ].calls, 2);
    assert_int_equal(s->proc[NF_OP_READ].rt_sum_ns, 600000);
    assert_int_equal(s->proc[NF_OP_READ].rt_min_ns, 200000);
    assert_int_equal(s->proc[NF_OP_READ].rt_max_ns, 400000);
    assert_true(cm_hist_quantile_ms(&s->proc[NF_OP_READ].rt, 0.99) > 0.38);
    assert_int_equal(s->proc[NF_OP_GETATTR].unanswered, 1);
    assert_int_equal(s->proc[NF_OP_GETATTR].rpc_errors, 1);
    assert_int_equal(s->proc[NF_NOPS + 1].calls, 1);
    assert_string_equal(az_nfs_row_name(NF_NOPS + 1), "mnt");
    assert_string_equal(az_nfs_row_name(NF_OP_READDIRPLUS), "readdirplus");
    assert_int_equal(s->nerr, 2);
    assert_int_equal(s->err[0].row, NF_OP_WRITE);
    assert_int_equal(s->err[0].status, 28);
    assert_int_equal(s->err[1].n, 2);
    assert_int_equal(s->clients[0].calls, 6);
    assert_int_equal(s->clients[1].bytes_read, 8192);
    assert_int_equal(s->clients[3].calls, 1);
    assert_int_equal(s->clients[2].calls, 0);
    az_nfs_stats_free(s);
    free(s);
}

/* The same references as NFS events and as block records. */
static void mrc_matches_block_records(void **state)
{
    struct az_mrc_opts o = {.block_size = 4096, .unit_bits = AZ_KEY_NFS_UNIT_BITS};
    struct az_mrc *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));
    struct im_fhmap *units = im_fhmap_new();
    uint64_t sizes[] = {1, 2, 4, 8, 16, 64, 1024, 65536, 131072}, ha[9], hb[9];
    char err[CM_ERR_LEN];
    struct tr_nfs_event e;
    struct tr_record r;
    unsigned i, f;

    (void)state;
    o.cache_sizes = sizes;
    o.ncache_sizes = 9;
    assert_int_equal(az_mrc_init(a, &o, err, sizeof(err)), 0);
    assert_int_equal(az_mrc_init(b, &o, err, sizeof(err)), 0);
    for (i = 0; i < 200000; i++) {
        /* 70 000 files (past a block trace's 65 536 units), a few hot */
        f = i % 3 == 0 ? i % 7 : 7 + i % 70000;
        e = ev(i % 2 ? NF_OP_READ : NF_OP_WRITE, i, f, 10);
        e.offset = (uint64_t)(i % 5) * 6000;
        e.count = 9000;
        e.res_count = i % 11 == 0 ? 0 : 9000; /* a READ past the end moves nothing */
        assert_int_equal(az_nfs_mrc_event(a, units, &e), 0);
        memset(&r, 0, sizeof(r));
        r.unit = (uint32_t)im_fhmap_id(units, &e.fh, 0, NULL);
        r.op = i % 2 ? TR_OP_READ : TR_OP_WRITE;
        r.offset = e.offset;
        r.length = i % 2 ? e.res_count : e.count;
        assert_int_equal(az_mrc_record(b, &r), 0);
    }
    e = ev(NF_OP_GETATTR, 1, 1, 10);
    assert_int_equal(az_nfs_mrc_event(a, units, &e), 0);
    e = ev(NF_OP_READ, 1, 1, 10);
    e.status = 70; /* STALE: nothing read */
    e.res_count = 4096;
    assert_int_equal(az_nfs_mrc_event(a, units, &e), 0);
    az_mrc_finish(a);
    az_mrc_finish(b);
    assert_int_equal(im_fhmap_count(units), 70007);
    assert_int_equal(a->other_records, 2);
    assert_int_equal(a->references, b->references);
    assert_int_equal(a->main.total.cold, b->main.total.cold);
    az_hist_hits_at(&a->main.total, sizes, 9, ha);
    az_hist_hits_at(&b->main.total, sizes, 9, hb);
    assert_memory_equal(ha, hb, sizeof(ha));
    assert_true(ha[8] > ha[0]);
    az_mrc_free(a);
    az_mrc_free(b);
    free(a);
    free(b);
    im_fhmap_free(units);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stats),
        cmocka_unit_test(mrc_matches_block_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
