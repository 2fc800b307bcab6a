/* SPDX-License-Identifier: BSD-2-Clause */
/* test_rpc_recmark.c - unit tests of the record-marking framer: every split
 * of a byte stream (headers cut in two, records in many fragments, several
 * records in one read) yields the same records, each word-aligned;
 * oversized records and zero-length records are handled. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rpc/recmark.h"

/* Appends a fragment (marker + body) to buf at *len. */
static void frag(uint8_t *buf, size_t *len, const char *body, size_t n, int last)
{
    rp_recmark_put(buf + *len, n, last);
    memcpy(buf + *len + 4, body, n);
    *len += 4 + n;
}

/* Feeds stream in pieces of `step` bytes; collects records joined by '|'. */
static int feed_all(struct rp_recmark *rm, const uint8_t *s, size_t len, size_t step,
                    char *out, size_t outlen)
{
    size_t off = 0, o = 0;

    out[0] = '\0';
    while (off < len) {
        size_t n = len - off < step ? len - off : step;
        size_t used = 0;

        while (used < n) {
            const uint8_t *rec;
            size_t rl;
            ssize_t k = rp_recmark_feed(rm, s + off + used, n - used, &rec, &rl);

            if (k < 0)
                return (int)k;
            assert_true(k > 0);
            used += (size_t)k;
            if (rec) {
                assert_int_equal((uintptr_t)rec & 3u, 0);
                assert_true(o + rl + 2 < outlen);
                memcpy(out + o, rec, rl);
                o += rl;
                out[o++] = '|';
                out[o] = '\0';
            }
        }
        off += n;
    }
    return 0;
}

static void every_split_gives_the_same_records(void **state)
{
    uint8_t s[256];
    size_t len = 0, step;
    char out[256];

    (void)state;
    frag(s, &len, "hello", 5, 1);
    frag(s, &len, "wor", 3, 0); /* one record in three fragments */
    frag(s, &len, "ld", 2, 0);
    frag(s, &len, "!", 1, 1);
    frag(s, &len, "", 0, 1); /* an empty record */
    frag(s, &len, "last one", 8, 1);
    for (step = 1; step <= len; step++) {
        struct rp_recmark rm;

        rp_recmark_init(&rm, 64);
        assert_int_equal(feed_all(&rm, s, len, step, out, sizeof(out)), 0);
        assert_string_equal(out, "hello|world!||last one|");
        rp_recmark_free(&rm);
    }
}

static void whole_record_is_handed_out_in_place(void **state)
{
    uint32_t words[16]; /* the stream starts on a word, as a recv buffer does */
    uint8_t *s = (uint8_t *)words;
    size_t len = 0;
    const uint8_t *rec;
    size_t rl;
    struct rp_recmark rm;

    (void)state;
    frag(s, &len, "abcdef", 6, 1);
    rp_recmark_init(&rm, 64);
    assert_int_equal(rp_recmark_feed(&rm, s, len, &rec, &rl), (ssize_t)len);
    assert_ptr_equal(rec, s + 4);
    assert_int_equal(rl, 6);
    assert_null(rm.buf); /* nothing allocated */
    rp_recmark_free(&rm);
}

/* A read that begins inside a word (the read before ended mid-word: TCP
 * cuts a segment at any byte when the receive window fills) puts every
 * record of it off a word.  Each is still handed out word-aligned, with its
 * bytes: decoders inline fixed parts of it (xdr_inline), which libtirpc's
 * memory streams refuse on an unaligned buffer - sfs_ping -4 at 64 calls
 * in flight saw half its 4 KiB READ replies "undecodable". */
static void every_record_is_handed_out_word_aligned(void **state)
{
    uint32_t words[64];
    uint8_t *base = (uint8_t *)words;
    uint8_t body[24];
    size_t skew, i;

    (void)state;
    for (i = 0; i < sizeof(body); i++)
        body[i] = (uint8_t)(i * 7 + 1);
    for (skew = 0; skew < 4; skew++) {
        uint8_t *s = base + skew;
        size_t len = 0, used = 0;
        int records = 0;
        struct rp_recmark rm;

        frag(s, &len, (const char *)body, sizeof(body), 1);
        frag(s, &len, (const char *)body, 8, 1);
        frag(s, &len, "", 0, 1);
        rp_recmark_init(&rm, 64);
        while (used < len) {
            const uint8_t *rec;
            size_t rl;
            ssize_t k = rp_recmark_feed(&rm, s + used, len - used, &rec, &rl);

            assert_true(k > 0);
            used += (size_t)k;
            if (!rec)
                continue;
            assert_int_equal((uintptr_t)rec & 3u, 0);
            assert_int_equal(rl, records == 0 ? sizeof(body) : records == 1 ? 8 : 0);
            assert_memory_equal(rec, body, rl);
            if (skew == 0 && rl) /* on a word: in place, not copied */
                assert_ptr_equal(rec, s + used - rl);
            records++;
        }
        assert_int_equal(records, 3);
        rp_recmark_free(&rm);
    }
}

static void oversized_record_is_refused(void **state)
{
    uint8_t s[64];
    size_t len = 0;
    char body[40] = {0};
    const uint8_t *rec;
    size_t rl;
    struct rp_recmark rm;

    (void)state;
    rp_recmark_init(&rm, 16);
    frag(s, &len, body, 17, 1);
    assert_int_equal(rp_recmark_feed(&rm, s, len, &rec, &rl), -EMSGSIZE);
    rp_recmark_free(&rm);

    /* fragments that only together exceed the limit */
    len = 0;
    rp_recmark_init(&rm, 16);
    frag(s, &len, body, 10, 0);
    frag(s, &len, body, 10, 1);
    assert_int_equal(feed_all(&rm, s, len, 3, body, sizeof(body)), -EMSGSIZE);
    rp_recmark_free(&rm);
}

/* Empty fragments carry no data but still cost their marker: an endless
 * stream of them is refused like an oversized record, while a record of a
 * few fragments still fits. */
static void empty_fragment_stream_is_bounded(void **state)
{
    static uint8_t s[4 * 64];
    size_t len = 0;
    char out[64];
    struct rp_recmark rm;

    (void)state;
    for (int i = 0; i < 64; i++)
        frag(s, &len, "", 0, 0);
    rp_recmark_init(&rm, 100);
    assert_int_equal(feed_all(&rm, s, len, 7, out, sizeof(out)), -EMSGSIZE);
    rp_recmark_free(&rm);

    len = 0;
    frag(s, &len, "", 0, 0);
    frag(s, &len, "ab", 2, 0);
    frag(s, &len, "cd", 2, 1);
    rp_recmark_init(&rm, 12); /* 4 data bytes + 2 extra markers */
    assert_int_equal(feed_all(&rm, s, len, 1, out, sizeof(out)), 0);
    assert_string_equal(out, "abcd|");
    rp_recmark_free(&rm);
    rp_recmark_init(&rm, 11);
    assert_int_equal(feed_all(&rm, s, len, 5, out, sizeof(out)), -EMSGSIZE);
    rp_recmark_free(&rm);

    /* the markers of one record are not charged to the next, however the
     * stream is split (the whole-record fast path included) */
    len = 0;
    for (int i = 0; i < 3; i++)
        frag(s, &len, "", 0, 0);
    frag(s, &len, "ab", 2, 1);
    frag(s, &len, "cdefgh", 6, 1);
    for (size_t step = 1; step <= len; step++) {
        rp_recmark_init(&rm, 14); /* 2 + 3 markers, then 6 */
        assert_int_equal(feed_all(&rm, s, len, step, out, sizeof(out)), 0);
        assert_string_equal(out, "ab|cdefgh|");
        rp_recmark_free(&rm);
    }
}

static void marker_encodes_last_bit_and_length(void **state)
{
    uint8_t m[4];

    (void)state;
    rp_recmark_put(m, 0x123456, 1);
    assert_int_equal(m[0], 0x80);
    assert_int_equal(m[1], 0x12);
    assert_int_equal(m[2], 0x34);
    assert_int_equal(m[3], 0x56);
    rp_recmark_put(m, 5, 0);
    assert_int_equal(m[0], 0);
    assert_int_equal(m[3], 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_split_gives_the_same_records),
        cmocka_unit_test(whole_record_is_handed_out_in_place),
        cmocka_unit_test(every_record_is_handed_out_word_aligned),
        cmocka_unit_test(oversized_record_is_refused),
        cmocka_unit_test(empty_fragment_stream_is_bounded),
        cmocka_unit_test(marker_encodes_last_bit_and_length),
    };

    return cmocka_run_group_tests_name("rpc_recmark", tests, NULL, NULL);
}
