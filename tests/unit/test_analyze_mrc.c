/* SPDX-License-Identifier: BSD-2-Clause */
/* test_analyze_mrc.c - the miss-ratio analysis end to end on the fixtures
 * (tests/fixtures/spc, figures from expected-stackdist.json and the
 * fixtures README): references, cold misses, the exact distance histogram
 * and the hits per cache size; per-unit attribution; the key-packing
 * refusal; cache-size lists; and the statistics of MaStA and sysio traces. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az.h"
#include "common/cm.h"
#include "common/error.h"
#include "common/rng.h"

#define FIX "tests/fixtures/"

/* Reads path and feeds every record to fn(data, rec), which must accept it. */
static void feed(const char *path, int (*fn)(void *, const struct tr_record *),
                 void *data)
{
    struct tr_reader r;
    struct tr_record rec;
    char err[CM_ERR_LEN];
    int rc;

    assert_int_equal(tr_reader_open(&r, path, NULL, NULL, err, sizeof(err)), 0);
    while ((rc = tr_reader_next(&r, &rec)) > 0)
        assert_int_equal(fn(data, &rec), 0);
    assert_int_equal(rc, 0);
    tr_reader_close(&r);
}

static int mrc_fn(void *m, const struct tr_record *rec)
{
    return az_mrc_record(m, rec);
}

static int stats_fn(void *s, const struct tr_record *rec)
{
    return az_stats_record(s, rec);
}

static void run_mrc(const char *path, struct az_mrc *m, int per_unit)
{
    struct az_mrc_opts o = {
        .block_size = 4096, .per_unit = per_unit, .isolated = per_unit};
    char err[CM_ERR_LEN];

    assert_int_equal(az_mrc_init(m, &o, err, sizeof(err)), 0);
    feed(path, mrc_fn, m);
    az_mrc_finish(m);
}

static void run_stats(const char *path, struct az_stats *s)
{
    az_stats_init(s, 4096);
    feed(path, stats_fn, s);
}

static void seed_example(void **state)
{
    struct az_mrc m;

    (void)state;
    run_mrc(FIX "spc/seed-example.spc", &m, 1);
    assert_int_equal(m.records, 11);
    assert_int_equal(m.main.total.references, 17);
    assert_int_equal(m.main.total.cold, 16);
    assert_int_equal(az_sd_unique(m.main.sd), 16);
    assert_int_equal(az_hist_hits(&m.main.total, 1), 1);
    assert_int_equal(az_hist_hits(&m.main.total, 65536), 1);
    /* the reuse is in ASU 1 */
    assert_int_equal(m.main.units[1].references, 8);
    assert_int_equal(m.main.units[1].cold, 7);
    assert_int_equal(m.main.units[0].references, 7);
    az_mrc_free(&m);
}

static void edge_cases(void **state)
{
    static const uint64_t sizes[] = {1, 2, 4, 8, 16, 32, 256, 512, 65536};
    static const uint64_t hits[] = {0, 1, 3, 3, 3, 5, 5, 6, 6};
    uint64_t got[CM_ARRAY_LEN(sizes)];
    struct az_mrc m;

    (void)state;
    run_mrc(FIX "spc/edge-cases.spc", &m, 1);
    assert_int_equal(m.zero_size, 1);
    assert_int_equal(m.main.total.references, 282);
    assert_int_equal(m.main.total.cold, 276);
    /* distances {2:1, 3:1, 4:1, 20:2, 274:1} */
    assert_int_equal(m.main.total.max_depth, 274);
    assert_int_equal(az_hist_sum_depth(&m.main.total), 2 + 3 + 4 + 20 * 2 + 274);
    az_hist_hits_at(&m.main.total, sizes, CM_ARRAY_LEN(sizes), got);
    assert_memory_equal(got, hits, sizeof(hits));
    /* ASU 0 in the shared cache: distances up to 20; alone: up to 3 */
    assert_int_equal(m.main.units[0].max_depth, 20);
    assert_int_equal(m.main.iso[0].references, 261);
    assert_int_equal(m.main.iso[0].cold, 256);
    assert_int_equal(m.main.iso[0].max_depth, 3);
    assert_int_equal(m.main.iso[2].max_depth, 17);
    assert_int_equal(m.main.units[2].max_depth, 274);
    az_mrc_free(&m);
}

/* Hits are exact at cache sizes that are not powers of two when they are
 * given before the run (the histogram's bins include them). */
static void exact_at_given_sizes(void **state)
{
    static const uint64_t sizes[] = {2, 3, 19, 20, 273, 274, 1000};
    static const uint64_t hits[] = {1, 2, 3, 5, 5, 6, 6};
    uint64_t got[CM_ARRAY_LEN(sizes)];
    struct az_mrc_opts o = {
        .block_size = 4096, .cache_sizes = sizes, .ncache_sizes = CM_ARRAY_LEN(sizes)};
    struct az_mrc m;
    char err[CM_ERR_LEN];

    (void)state;
    assert_int_equal(az_mrc_init(&m, &o, err, sizeof(err)), 0);
    feed(FIX "spc/edge-cases.spc", mrc_fn, &m);
    az_hist_hits_at(&m.main.total, sizes, CM_ARRAY_LEN(sizes), got);
    assert_memory_equal(got, hits, sizeof(hits));
    az_mrc_free(&m);
}

/* The footprint kept as runs equals a bitmap of every block, whatever the
 * overlaps: records inside, across, touching and swallowing earlier runs,
 * in three units (unit 1 ends at the top of the block range, so that its
 * runs touch unit 2's first keys). */
static void footprint_runs_match_bitmap(void **state)
{
    enum { BLOCKS = 5000 };
    static unsigned char seen[3][BLOCKS];
    struct az_stats s;
    struct tr_record rec;
    struct cm_rng rng;
    uint64_t want = 0, base[3] = {0, (1ull << AZ_KEY_BLOCK_BITS) - BLOCKS, 0};
    unsigned i, u;

    (void)state;
    memset(seen, 0, sizeof(seen));
    az_stats_init(&s, 1);
    cm_rng_seed(&rng, 5);
    for (i = 0; i < 20000; i++) {
        uint64_t first = cm_rng_below(&rng, BLOCKS), len = 1 + cm_rng_below(&rng, 40), b;
        u = cm_rng_below(&rng, 3);
        if (first + len > BLOCKS)
            len = BLOCKS - first;
        memset(&rec, 0, sizeof(rec));
        rec.op = TR_OP_READ;
        rec.unit = u;
        rec.offset = base[u] + first;
        rec.length = len;
        assert_int_equal(az_stats_record(&s, &rec), 0);
        for (b = first; b < first + len; b++) {
            want += !seen[u][b];
            seen[u][b] = 1;
        }
        if (i % 997 == 0)
            assert_int_equal(s.footprint.count, want);
    }
    assert_int_equal(s.footprint.count, want);
    az_stats_free(&s);
}

static void large_lba(void **state)
{
    struct az_mrc m;

    (void)state;
    run_mrc(FIX "spc/edge-large-lba.spc", &m, 0);
    assert_int_equal(m.main.total.references, 19);
    assert_int_equal(m.main.total.cold, 19);
    az_mrc_free(&m);
}

/* At 1-byte blocks the large-LBA trace does not fit 48-bit block numbers. */
static void key_overflow_refused(void **state)
{
    struct az_mrc_opts o = {.block_size = 1};
    struct az_mrc m;
    struct tr_reader r;
    struct tr_record rec;
    char err[CM_ERR_LEN];
    int rc = 0;

    (void)state;
    assert_int_equal(
        tr_reader_open(&r, FIX "spc/edge-large-lba.spc", NULL, NULL, err, sizeof(err)),
        0);
    assert_int_equal(az_mrc_init(&m, &o, err, sizeof(err)), 0);
    while (rc == 0 && tr_reader_next(&r, &rec) > 0)
        rc = az_mrc_record(&m, &rec);
    assert_int_equal(rc, -ERANGE);
    assert_non_null(strstr(m.last_error, "does not fit"));
    tr_reader_close(&r);
    az_mrc_free(&m);
}

static void cache_size_lists(void **state)
{
    char err[CM_ERR_LEN];
    uint64_t *v;
    size_t n;

    (void)state;
    assert_int_equal(az_cache_sizes(NULL, 16, &v, &n, err, sizeof(err)), 0);
    assert_int_equal(n, 5); /* 1 2 4 8 16 */
    assert_int_equal(v[4], 16);
    free(v);
    assert_int_equal(az_cache_sizes(NULL, 17, &v, &n, err, sizeof(err)), 0);
    assert_int_equal(v[n - 1], 32);
    free(v);
    assert_int_equal(az_cache_sizes("10,1K,2K", 5, &v, &n, err, sizeof(err)), 0);
    assert_int_equal(n, 3);
    assert_int_equal(v[1], 1024);
    free(v);
    assert_int_equal(az_cache_sizes("10,5", 5, &v, &n, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "ascending"));
    assert_int_equal(az_cache_sizes("10,x", 5, &v, &n, err, sizeof(err)), -EINVAL);
}

/* Figures from synthetic-2k.mtr.stats.json (tools/gen_masta.py stats). */
static void masta_stats(void **state)
{
    struct az_stats s;

    (void)state;
    run_stats(FIX "masta/synthetic-2k.mtr", &s);
    assert_int_equal(s.by_op[TR_OP_READ], 1058);
    assert_int_equal(s.by_op[TR_OP_WRITE], 942);
    assert_int_equal(s.by_op[TR_OP_SYNC], 310);
    assert_int_equal(s.units[0].bytes_read, 20930560);
    assert_int_equal(s.units[0].bytes_written, 9224192);
    assert_int_equal(s.units[0].max_end, 536387584);
    assert_int_equal(s.units[1].bytes_read, 876544);
    assert_int_equal(s.units[1].bytes_written, 5070848);
    assert_int_equal(s.units[1].max_end, 132988928);
    az_stats_free(&s);
}

/* Figures from sysio/expected.json: bytes per stream summed. */
static void sysio_stats(void **state)
{
    struct az_stats s;

    (void)state;
    run_stats(FIX "sysio/synthetic.trace", &s);
    assert_int_equal(s.bytes_written, 46923776ull + 36704256ull);
    assert_int_equal(s.bytes_read, 46931776ull + 36583880ull);
    assert_int_equal(s.by_op[TR_OP_OPEN], 26);
    az_stats_free(&s);
}

static void spc_stats(void **state)
{
    struct az_stats s;

    (void)state;
    run_stats(FIX "spc/edge-cases.spc", &s);
    assert_int_equal(s.bytes_read, 13312);
    assert_int_equal(s.bytes_written, 1124328);
    assert_int_equal(s.footprint.count, 276);
    assert_int_equal(s.zero_size, 1);
    assert_int_equal(s.units[1].max_end, 2097664);
    az_stats_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(seed_example),
        cmocka_unit_test(edge_cases),
        cmocka_unit_test(exact_at_given_sizes),
        cmocka_unit_test(footprint_runs_match_bitmap),
        cmocka_unit_test(large_lba),
        cmocka_unit_test(key_overflow_refused),
        cmocka_unit_test(cache_size_lists),
        cmocka_unit_test(masta_stats),
        cmocka_unit_test(sysio_stats),
        cmocka_unit_test(spc_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
