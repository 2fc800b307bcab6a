/* SPDX-License-Identifier: BSD-2-Clause */
/* test_load_mix.c - unit tests for mix.c: the default mixes (D4), every
 * mix-file fixture of tests/fixtures/mix against its expected.json answer
 * (effective mix for v2 and v3 runs, total, warning; FILE:LINE errors), and
 * op selection: simulated requests with the default block-size distribution
 * give the target CALL mix within a tight tolerance. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cm.h"
#include "common/error.h"
#include "common/rng.h"
#include "common/text.h"
#include "load/iodist.h"
#include "load/mix.h"

#define FIX "tests/fixtures/mix/"

static char *expected_json;

static int setup(void **state)
{
    char err[CM_ERR_LEN];
    size_t len;

    (void)state;
    return cm_text_read(FIX "expected.json", &expected_json, &len, stderr, err,
                        sizeof(err));
}

static int teardown(void **state)
{
    (void)state;
    free(expected_json);
    return 0;
}

/* ---- a very small reader for expected.json's known shape ------------------ */

/* The text after `"key": ` inside [from, end), or NULL. */
static const char *find_key(const char *from, const char *end, const char *key)
{
    char pat[128];
    const char *p;

    snprintf(pat, sizeof(pat), "\"%s\":", key);
    p = strstr(from, pat);
    if (!p || (end && p >= end))
        return NULL;
    p += strlen(pat);
    while (*p == ' ')
        p++;
    return p;
}

/* The end of the {...} or [...] that starts at p. */
static const char *block_end(const char *p)
{
    int depth = 0;

    for (; *p; p++) {
        if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']') {
            if (--depth == 0)
                return p;
        }
    }
    return p;
}

/* Parses {"op": n, ...} into pct[] (others 0). */
static void read_mix(const char *p, int pct[NF_NOPS])
{
    const char *end = block_end(p);

    memset(pct, 0, sizeof(int) * NF_NOPS);
    while ((p = strchr(p, '"')) != NULL && p < end) {
        char name[32];
        int v, op;

        if (sscanf(p, "\"%31[^\"]\": %d", name, &v) != 2)
            break;
        op = nf_op_from_name(name);
        assert_true(op >= 0);
        pct[op] = v;
        p = strchr(p, ',');
        if (!p || p > end)
            break;
    }
}

/* Checks one fixture run (v2 or v3) against the JSON object at run. */
static void check_run(const char *file, const char *run, int version)
{
    const char *end = block_end(run), *p;
    int want[NF_NOPS], total, op;
    char err[CM_ERR_LEN], *out = NULL, path[256];
    size_t outlen = 0;
    struct ld_mix m;
    FILE *diag = open_memstream(&out, &outlen);

    snprintf(path, sizeof(path), FIX "%s", file);
    assert_int_equal(ld_mix_load(&m, version, path, diag, err, sizeof(err)), 0);
    fclose(diag);
    p = find_key(run, end, "mix_nonzero");
    assert_non_null(p);
    read_mix(p, want);
    for (op = 0; op < NF_NOPS; op++) {
        if (m.pct[op] != want[op])
            fail_msg("%s v%d: %s is %d, expected %d", file, version, nf_op_name(op),
                     m.pct[op], want[op]);
    }
    p = find_key(run, end, "total");
    assert_non_null(p);
    total = atoi(p);
    assert_int_equal(m.total, total);
    /* the warning text (if any) appears, on a FILE: line */
    if (total != 100) {
        char w[512];

        snprintf(w, sizeof(w), "%s: warning: WARNING total mix percentage %d != 100",
                 path, total);
        assert_non_null(strstr(out, w));
    } else {
        assert_null(strstr(out, "WARNING total"));
    }
    /* v3-only ops in a v2 run: flagged and warned about */
    p = find_key(run, end, "v3_only_ops_nonzero");
    if (p) {
        uint32_t mask = 0;
        const char *q = p, *qend = block_end(p);

        while ((q = strchr(q, '"')) != NULL && q < qend) {
            char name[32];

            assert_int_equal(sscanf(q, "\"%31[^\"]\"", name), 1);
            mask |= 1u << nf_op_from_name(name);
            q = strchr(q + 1, '"') + 1;
        }
        assert_int_equal(m.foreign_mask, mask);
        assert_non_null(strstr(out, "not an NFSv2 operation"));
    } else {
        assert_int_equal(m.foreign_mask, 0);
    }
    assert_int_equal(m.file_version, 2);
    free(out);
}

static void good_v2_fixtures(void **state)
{
    static const char *const files[] = {
        "v2-all-ops.mix", "v2-nfsv2-default.mix", "v2-nfsv3-default.mix",
        "v2-partial.mix", "v2-sum-110.mix",       "v2-sum-99.mix",
    };
    size_t i;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(files); i++) {
        char key[64];
        const char *obj, *run;

        snprintf(key, sizeof(key), "%s", files[i]);
        obj = find_key(expected_json, NULL, key);
        assert_non_null(obj);
        run = find_key(obj, block_end(obj), "nfsv2_run");
        assert_non_null(run);
        check_run(files[i], run, 2);
        run = find_key(obj, block_end(obj), "nfsv3_run");
        assert_non_null(run);
        check_run(files[i], run, 3);
    }
}

static void v1_fixture(void **state)
{
    const char *obj = find_key(expected_json, NULL, "v1-nfsstat.mix");
    char err[CM_ERR_LEN];
    int want[NF_NOPS], op, v;
    struct ld_mix m;

    (void)state;
    assert_non_null(obj);
    read_mix(find_key(obj, block_end(obj), "mix_nonzero"), want);
    for (v = 2; v <= 3; v++) {
        assert_int_equal(ld_mix_load(&m, v, FIX "v1-nfsstat.mix", NULL, err, sizeof(err)),
                         0);
        assert_int_equal(m.file_version, 1);
        for (op = 0; op < NF_NOPS; op++)
            assert_int_equal(m.pct[op], want[op]);
        assert_int_equal(m.total, 100);
    }
}

static void bad_fixtures(void **state)
{
    static const char *const files[] = {"bad-header.mix", "bad-unknown-op.mix",
                                        "bad-v1-short.mix", "bad-version-3.mix"};
    size_t i;

    (void)state;
    for (i = 0; i < CM_ARRAY_LEN(files); i++) {
        const char *obj = find_key(expected_json, NULL, files[i]), *e;
        char err[CM_ERR_LEN], want[512], path[128], *out = NULL;
        size_t outlen = 0;
        long line;
        int n;
        struct ld_mix m;
        FILE *diag = open_memstream(&out, &outlen);

        assert_non_null(obj);
        e = find_key(obj, block_end(obj), "error");
        assert_non_null(e);
        /* "line N: message" -> "PATH:N: error: message" */
        assert_int_equal(sscanf(e, "\"line %ld: %n", &line, &n), 1);
        snprintf(path, sizeof(path), FIX "%s", files[i]);
        snprintf(want, sizeof(want), "%s:%ld: error: %.*s", path, line,
                 (int)(strchr(e + n, '"') - (e + n)), e + n);
        assert_int_equal(ld_mix_load(&m, 3, path, diag, err, sizeof(err)), -EINVAL);
        fclose(diag);
        assert_string_equal(err, want);
        assert_non_null(strstr(out, want));
        free(out);
    }
}

static void reports_every_error(void **state)
{
    const char text[] = "SFS MIXFILE VERSION 2\nfoo 1%\nlookup x\nbar 2%\nread 101%\n";
    char err[CM_ERR_LEN], *out = NULL;
    size_t outlen = 0;
    struct ld_mix m;
    FILE *diag = open_memstream(&out, &outlen);

    (void)state;
    assert_int_equal(
        ld_mix_parse(&m, 3, "t.mix", text, sizeof(text) - 1, diag, err, sizeof(err)),
        -EINVAL);
    fclose(diag);
    assert_string_equal(err, "t.mix:2: error: unknown op name: foo");
    assert_non_null(strstr(out, "t.mix:3: error:"));
    assert_non_null(strstr(out, "t.mix:4: error: unknown op name: bar"));
    assert_non_null(strstr(out, "t.mix:5: error:"));
    free(out);
}

static void header_forms(void **state)
{
    static const char ok[] = "SFS MIXFILE VERSION 2  \r\nlookup 36%\r\n";
    static const char bad[] = "SFS MIXFILE VERSION 2x\nlookup 36%\n";
    char err[CM_ERR_LEN];
    struct ld_mix m;

    (void)state;
    assert_int_equal(
        ld_mix_parse(&m, 2, "ok.mix", ok, sizeof(ok) - 1, NULL, err, sizeof(err)), 0);
    assert_int_equal(m.pct[NF_OP_LOOKUP], 36);
    assert_int_equal(
        ld_mix_parse(&m, 2, "bad.mix", bad, sizeof(bad) - 1, NULL, err, sizeof(err)),
        -EINVAL);
    assert_string_equal(err, "bad.mix:1: error: bad mix format - initial line "
                             "'SFS MIXFILE VERSION 2x'");
    assert_int_equal(ld_mix_parse(&m, 2, "empty.mix", "", 0, NULL, err, sizeof(err)),
                     -EINVAL);
    assert_string_equal(err, "empty.mix:1: error: empty mix file");
}

static void missing_file(void **state)
{
    char err[CM_ERR_LEN];
    struct ld_mix m;

    (void)state;
    assert_int_equal(ld_mix_load(&m, 3, FIX "no-such.mix", NULL, err, sizeof(err)),
                     -ENOENT);
    assert_non_null(strstr(err, "no-such.mix"));
}

static void defaults(void **state)
{
    struct ld_mix m;

    (void)state;
    ld_mix_default(&m, 2);
    assert_int_equal(m.total, 100);
    assert_int_equal(m.pct[NF_OP_GETATTR], 26);
    assert_int_equal(m.pct[NF_OP_LOOKUP], 36);
    assert_int_equal(m.pct[NF_OP_ACCESS], 0);
    ld_mix_default(&m, 3);
    assert_int_equal(m.total, 100);
    assert_int_equal(m.pct[NF_OP_FSINFO], 1); /* D4 */
    assert_int_equal(m.pct[NF_OP_READDIRPLUS], 9);
    assert_int_equal(m.pct[NF_OP_COMMIT], 5);
    assert_int_equal(m.file_version, 0);
}

/* Simulated requests: each draw of read/write costs its transfer's calls;
 * the resulting CALL mix must match the target within 0.3 points. */
static void call_mix_meets_target(void **state)
{
    int versions[] = {2, 3}, vi;

    (void)state;
    for (vi = 0; vi < 2; vi++) {
        struct ld_mix m;
        struct ld_iodist d;
        struct ld_opsel s;
        struct cm_rng rng;
        uint64_t calls[NF_NOPS] = {0}, total = 0;
        int i, op;

        ld_mix_default(&m, versions[vi]);
        ld_iodist_default(&d, 8);
        assert_int_equal(ld_opsel_init(&s, &m, &d, versions[vi], 0), 0);
        cm_rng_seed(&rng, 4242);
        for (i = 0; i < 1000000; i++) {
            uint32_t n = 1;

            op = ld_opsel_draw(&s, &rng);
            assert_true(op >= 0 && op < NF_NOPS);
            if (op == NF_OP_READ || op == NF_OP_WRITE) {
                struct ld_xfer x;

                ld_iodist_draw(&d, op == NF_OP_WRITE, &rng, &x);
                n = x.calls;
            }
            calls[op] += n;
            total += n;
        }
        for (op = 0; op < NF_NOPS; op++) {
            double got = 100.0 * (double)calls[op] / (double)total;

            if (fabs(got - m.pct[op]) > 0.3)
                fail_msg("v%d %s: %.2f%% of calls, target %d%%", versions[vi],
                         nf_op_name(op), got, m.pct[op]);
            assert_true(fabs(s.call_share[op] * 100 - m.pct[op]) < 0.01);
        }
        /* reads are drawn less often than their call share */
        assert_true(s.req_share[NF_OP_READ] < s.call_share[NF_OP_READ]);
    }
}

static void single_op_and_skip_foreign(void **state)
{
    struct ld_opsel s;
    struct cm_rng rng;
    struct ld_mix m;
    int i;

    (void)state;
    cm_rng_seed(&rng, 1);
    ld_opsel_single(&s, NF_OP_MKDIR);
    for (i = 0; i < 100; i++)
        assert_int_equal(ld_opsel_draw(&s, &rng), NF_OP_MKDIR);
    ld_mix_default(&m, 3);
    assert_int_equal(ld_opsel_init(&s, &m, NULL, 2, 1), 0);
    for (i = 0; i < 10000; i++) {
        int op = ld_opsel_draw(&s, &rng);

        assert_true(nf_op_in_version(op, 2));
        assert_true(m.pct[op] > 0);
    }
    memset(&m, 0, sizeof(m));
    assert_int_equal(ld_opsel_init(&s, &m, NULL, 3, 0), -EINVAL);
}

/* The two parsers of outside input behind one signature. */
static int parse_mix(const char *buf, size_t len, char *err, size_t errlen)
{
    struct ld_mix m;

    return ld_mix_parse(&m, 3, "fuzz", buf, len, NULL, err, errlen);
}

static int parse_iodist(const char *buf, size_t len, char *err, size_t errlen)
{
    struct ld_iodist d;

    return ld_iodist_parse(&d, 8, "fuzz", buf, len, NULL, err, errlen);
}

/* Mutated inputs (bytes flipped, lines cut, NULs, long lines) never crash
 * the mix or block-size parser and always end in 0 or -EINVAL with a
 * "fuzz:LINE:" message (run under ASan by `make test`). */
static void mutated_inputs(void **state)
{
    static const struct {
        const char *seed;
        int (*parse)(const char *, size_t, char *, size_t);
    } cases[] = {
        {"SFS MIXFILE VERSION 2\nlookup 36%\n# c\nread 14%\nClient nfs:\n1 2%\n",
         parse_mix},
        {"Client nfs:\ncalls\n100\nnames\n1 1% 2 2% 3 3% 4 4% 5 5% 6 6% 7 7%\n",
         parse_mix},
        {"Read\n85 1 0\n15 2 1\nwrite\n100 16 1\n", parse_iodist},
    };
    char buf[6000], err[CM_ERR_LEN];
    struct cm_rng rng;
    size_t c;
    int i;

    (void)state;
    cm_rng_seed(&rng, 2024);
    for (c = 0; c < CM_ARRAY_LEN(cases); c++) {
        for (i = 0; i < 2000; i++) {
            size_t len = strlen(cases[c].seed), k;
            int n = 1 + (int)cm_rng_below(&rng, 6), rc;

            memcpy(buf, cases[c].seed, len);
            if (i % 100 == 0) { /* one very long line */
                memset(buf + len, i % 200 ? 'x' : '7', sizeof(buf) - len);
                len = sizeof(buf);
            }
            for (k = 0; k < (size_t)n; k++)
                buf[cm_rng_below(&rng, (uint32_t)len)] = (char)cm_rng_below(&rng, 256);
            len = 1 + cm_rng_below(&rng, (uint32_t)len);
            rc = cases[c].parse(buf, len, err, sizeof(err));
            assert_true(rc == 0 || rc == -EINVAL);
            if (rc < 0)
                assert_true(strncmp(err, "fuzz:", 5) == 0);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mutated_inputs),
        cmocka_unit_test(defaults),
        cmocka_unit_test(good_v2_fixtures),
        cmocka_unit_test(v1_fixture),
        cmocka_unit_test(bad_fixtures),
        cmocka_unit_test(reports_every_error),
        cmocka_unit_test(header_forms),
        cmocka_unit_test(missing_file),
        cmocka_unit_test(call_mix_meets_target),
        cmocka_unit_test(single_op_and_skip_foreign),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
