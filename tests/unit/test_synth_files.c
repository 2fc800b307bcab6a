/* SPDX-License-Identifier: BSD-2-Clause */
/* test_synth_files.c - unit tests for the child's file table: layout and
 * names, the D6 best fit (first of equals, generation fallback, no-fit
 * clipping), append within the accessed-set limit, truncate picks and the
 * namespace picks by state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "synth/files.h"
#include "common/error.h"
#include "common/rng.h"

static struct sy_files_layout small_layout(void)
{
    struct sy_files_layout lay;

    memset(&lay, 0, sizeof(lay));
    lay.n_io = 240;
    lay.n_working = 24;
    lay.n_nonio = 10;
    lay.n_symlink = 3;
    lay.n_dir = 9;
    lay.n_spare_dir = 2;
    lay.files_per_dir = 30;
    lay.append_pcnt = 70;
    lay.delta_pcnt = 10;
    return lay;
}

static void setup_table(struct sy_files *t)
{
    struct sy_files_layout lay = small_layout();
    char err[CM_ERR_LEN];

    assert_int_equal(sy_files_init(t, &lay, err, sizeof(err)), 0);
}

static void layout_and_names(void **state)
{
    struct sy_files t;
    char name[SY_NAME_MAX];
    uint32_t i, io0, holding_seen[9] = {0};

    (void)state;
    setup_table(&t);
    assert_int_equal(t.n, 240 + 10 + 3 + 9 + 2);
    io0 = t.first[SY_CAT_IO];
    assert_int_equal(t.f[io0].cat, SY_CAT_IO);
    assert_int_equal(t.f[io0].parent, 0);
    assert_int_equal(t.f[io0 + 30].parent, 1);
    sy_files_name(&t, io0 + 7, name, sizeof(name));
    assert_string_equal(name, "file_en.00018");
    sy_files_name(&t, 3, name, sizeof(name));
    assert_string_equal(name, "dir_ent.00003");
    sy_files_name(&t, t.first[SY_CAT_SYMLINK], name, sizeof(name));
    assert_string_equal(name, "symlink.00261");
    assert_true(t.f[9].spare && t.f[10].spare && !t.f[8].spare);
    /* the working set is spread over every holding dir */
    for (i = 0; i < t.n_working; i++) {
        assert_true(t.f[t.ws[i]].working);
        holding_seen[t.f[t.ws[i]].parent] = 1;
    }
    for (i = 0; i < 8; i++)
        assert_true(holding_seen[i]);
    sy_files_free(&t);
}

static void bad_layout_rejected(void **state)
{
    struct sy_files t;
    struct sy_files_layout lay = small_layout();
    char err[CM_ERR_LEN];

    (void)state;
    lay.n_working = 0;
    assert_int_equal(sy_files_init(&t, &lay, err, sizeof(err)), -EINVAL);
    assert_non_null(strstr(err, "impossible layout"));
}

/* Two groups of 12 working files each, sizes chosen per test. */
static void set_sizes(struct sy_files *t, const uint64_t *sizes)
{
    uint32_t k;

    for (k = 0; k < t->n_working; k++) {
        t->f[t->ws[k]].init_size = sizes[k];
        t->f[t->ws[k]].size = sizes[k];
    }
    sy_files_reset_accounting(t);
}

static const struct sy_group_span two_groups[24] = {
    {0, 12}, {12, 12}, /* the rest are empty and never drawn */
};

static void best_fit_first_of_equals(void **state)
{
    struct sy_files t;
    struct cm_rng rng;
    struct sy_io_pick p;
    uint64_t sizes[24];
    uint32_t k, i;

    (void)state;
    setup_table(&t);
    for (k = 0; k < 24; k++)
        sizes[k] = 1024;
    sizes[3] = 65536;
    sizes[5] = 16384; /* two equal best fits: 5 and 9 */
    sizes[9] = 16384;
    sizes[11] = 32768;
    set_sizes(&t, sizes);
    cm_rng_seed(&rng, 7);
    for (i = 0; i < 200; i++) {
        sy_files_pick_io(&t, two_groups, 1, 0, 0, 10000, &rng, &p);
        assert_false(p.nofit);
        assert_true(p.file == t.ws[5] || p.file == t.ws[9]);
        assert_int_equal(p.len, 10000);
        assert_int_equal(p.offset, 0); /* (16384 - 10000) / 8192 + 1 = 1 slot */
    }
    sy_files_free(&t);
}

static void generation_fallback_and_nofit(void **state)
{
    struct sy_files t;
    struct cm_rng rng;
    struct sy_io_pick p;
    uint64_t sizes[24];
    uint32_t k;
    struct sy_group_span groups[24];

    (void)state;
    setup_table(&t);
    /* 24 groups of one file: groups 0 and 12 share generation 0 */
    for (k = 0; k < 24; k++) {
        groups[k].first = k;
        groups[k].count = 1;
        sizes[k] = 2048;
    }
    sizes[12] = 40960;
    set_sizes(&t, sizes);
    cm_rng_seed(&rng, 11);
    sy_files_pick_io(&t, groups, 24, 0, 0, 8192, &rng, &p);
    assert_int_equal(p.file, t.ws[12]);
    assert_false(p.nofit);
    assert_int_equal(p.offset % 8192, 0);
    assert_true(p.offset + p.len <= 40960);
    /* nothing in generation 1 fits 8 KB: clipped to the largest */
    sy_files_pick_io(&t, groups, 24, 1, 0, 8192, &rng, &p);
    assert_true(p.nofit);
    assert_int_equal(p.len, 2048);
    assert_int_equal(t.nofit, 1);
    sy_files_free(&t);
}

static void append_stays_under_limit(void **state)
{
    struct sy_files t;
    struct cm_rng rng;
    struct sy_io_pick p;
    uint64_t sizes[24];
    uint32_t k, i, appends = 0;

    (void)state;
    setup_table(&t);
    for (k = 0; k < 24; k++)
        sizes[k] = 8192;
    set_sizes(&t, sizes);
    assert_int_equal(t.base_bytes, 24 * 8192);
    assert_int_equal(t.limit_bytes, 24 * 8192 + 24 * 8192 / 10);
    cm_rng_seed(&rng, 3);
    for (i = 0; i < 1000; i++) {
        sy_files_pick_io(&t, two_groups, 2, i % 2, 1, 4096, &rng, &p);
        if (p.append) {
            appends++;
            assert_int_equal(p.offset, t.f[p.file].size);
            sy_files_set_size(&t, p.file, p.offset + p.len);
        }
        assert_true(t.cur_bytes <= t.limit_bytes);
    }
    /* the limit allows 19.6 KB of growth: four 4 KB appends */
    assert_int_equal(appends, 4);
    assert_int_equal(t.most_bytes, t.base_bytes + 4 * 4096);
    sy_files_free(&t);
}

static void truncate_pick_needs_growth(void **state)
{
    struct sy_files t;
    struct cm_rng rng;
    uint64_t sizes[24];
    uint32_t k, pick;

    (void)state;
    setup_table(&t);
    for (k = 0; k < 24; k++)
        sizes[k] = 4096;
    set_sizes(&t, sizes);
    cm_rng_seed(&rng, 5);
    assert_int_equal(sy_files_pick_truncate(&t, two_groups, 2, 0, &rng), SY_NO_FILE);
    sy_files_set_size(&t, t.ws[20], 9000);
    pick = sy_files_pick_truncate(&t, two_groups, 2, 1, &rng);
    assert_int_equal(pick, t.ws[20]);
    sy_files_set_size(&t, pick, t.f[pick].init_size);
    assert_int_equal(t.cur_bytes, t.base_bytes);
    assert_int_equal(t.least_bytes, t.base_bytes);
    sy_files_free(&t);
}

static void namespace_picks_by_state(void **state)
{
    struct sy_files t;
    struct cm_rng rng;
    uint32_t i, k, first = 0;

    (void)state;
    setup_table(&t);
    cm_rng_seed(&rng, 9);
    first = t.first[SY_CAT_NONIO];
    for (k = 0; k < 10; k++)
        t.f[first + k].state = k < 5 ? SY_EXISTS : SY_NONEXISTENT;
    for (i = 0; i < 100; i++) {
        uint32_t e = sy_files_pick(&t, SY_CAT_NONIO, SY_EXISTS, SY_NO_FILE, &rng);
        uint32_t n = sy_files_pick(&t, SY_CAT_NONIO, SY_NONEXISTENT, SY_NO_FILE, &rng);
        assert_true(e >= first && e < first + 5);
        assert_true(n >= first + 5 && n < first + 10);
    }
    /* rename targets: the dir of entries first+4..first+7 (dir 1) has no
     * free slot left, so the pick falls back to one of them (a nopick) */
    for (k = 4; k < 8; k++)
        t.f[first + k].state = SY_EXISTS;
    k = sy_files_pick(&t, SY_CAT_NONIO, SY_NONEXISTENT, 1, &rng);
    assert_true(k >= first + 4 && k < first + 8);
    assert_int_equal(t.nopick, 1);
    /* spare dirs only for mkdir/rmdir */
    for (i = 0; i < 20; i++) {
        k = sy_files_pick(&t, SY_CAT_DIR, SY_NONEXISTENT, SY_NO_FILE, &rng);
        assert_true(k == 9 || k == 10);
    }
    sy_files_free(&t);
}

/* Rename targets come from the source's directory only, whatever the
 * start, including the last, partial block of slots; a dir without slots
 * gives nothing. */
static void rename_targets_stay_in_the_directory(void **state)
{
    struct sy_files_layout lay = small_layout();
    struct sy_files t;
    struct cm_rng rng;
    char err[CM_ERR_LEN];
    uint32_t d, i, first, seen[64];

    (void)state;
    lay.n_nonio = 50; /* 13 blocks of 4 over 9 dirs, the last one partial */
    assert_int_equal(sy_files_init(&t, &lay, err, sizeof(err)), 0);
    cm_rng_seed(&rng, 7);
    first = t.first[SY_CAT_NONIO];
    for (d = 0; d < lay.n_dir; d++) {
        uint32_t nslots = 0, distinct = 0;
        memset(seen, 0, sizeof(seen));
        for (i = 0; i < t.count[SY_CAT_NONIO]; i++)
            nslots += t.f[first + i].parent == d;
        for (i = 0; i < 400; i++) {
            uint32_t k = sy_files_pick(&t, SY_CAT_NONIO, SY_NONEXISTENT, d, &rng);
            assert_true(k >= first && k < first + t.count[SY_CAT_NONIO]);
            assert_int_equal(t.f[k].parent, d);
            distinct += !seen[k - first];
            seen[k - first] = 1;
        }
        assert_int_equal(distinct, nslots); /* every slot can be chosen */
    }
    assert_int_equal(t.nopick, 0);
    sy_files_free(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(layout_and_names),
        cmocka_unit_test(bad_layout_rejected),
        cmocka_unit_test(best_fit_first_of_equals),
        cmocka_unit_test(generation_fallback_and_nofit),
        cmocka_unit_test(append_stays_under_limit),
        cmocka_unit_test(truncate_pick_needs_growth),
        cmocka_unit_test(namespace_picks_by_state),
        cmocka_unit_test(rename_targets_stay_in_the_directory),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
