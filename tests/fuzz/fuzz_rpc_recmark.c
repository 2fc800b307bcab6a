/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_rpc_recmark.c - libFuzzer driver for the record-marking framer that
 * the TCP client and the server (sfs_nfsd) feed with untrusted bytes.  The
 * first byte sets the record limit, the second the size of the pieces the
 * stream is fed in; the rest is the stream.  Checked: every call consumes
 * at least one byte and no more than it was given, a record never exceeds
 * the limit, and feeding the same stream in one piece yields the same
 * records (same count, same total size) up to the first error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rpc/recmark.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Feeds data in pieces of step bytes; returns the number of records (their
 * total size in *total), or -1 after an error. */
static long run(const uint8_t *data, size_t size, size_t step, size_t limit,
                size_t *total)
{
    struct rp_recmark rm;
    size_t off = 0;
    long n = 0;

    *total = 0;
    rp_recmark_init(&rm, limit);
    while (off < size) {
        size_t len = size - off < step ? size - off : step, used = 0;

        while (used < len) {
            const uint8_t *rec;
            size_t rl;
            ssize_t k = rp_recmark_feed(&rm, data + off + used, len - used, &rec, &rl);

            if (k < 0) {
                rp_recmark_free(&rm);
                return -1;
            }
            if (k == 0 || (size_t)k > len - used || (rec && rl > limit))
                abort();
            used += (size_t)k;
            if (rec) {
                n++;
                *total += rl;
            }
        }
        off += len;
    }
    rp_recmark_free(&rm);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t limit, step, t1, t2;
    long a, b;

    if (size < 2)
        return 0;
    limit = (size_t)data[0] * 64;
    step = (size_t)data[1] % 17 + 1;
    a = run(data + 2, size - 2, step, limit, &t1);
    b = run(data + 2, size - 2, size, limit, &t2);
    if ((a < 0) != (b < 0) || (a >= 0 && (a != b || t1 != t2)))
        abort();
    return 0;
}
