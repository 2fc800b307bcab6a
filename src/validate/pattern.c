/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pattern.c - the data the write step puts in the files and the read step
 * and the libnfs read-back check (vd_int.h; docs/SFS30.md §19 step 4): file
 * f (0-based, the first 17 files) gets blocks b = 0 .. 17 - f of 8192
 * bytes, the last one shorter; a block is a 16-bit BSD checksum of its
 * data, the 16-bit data length (both big-endian) and data bytes equal to b.
 * Pure functions, unit-tested.
 */
#include <errno.h>
#include <string.h>

#include "validate/vd_int.h"
#include "common/bytes.h"

#define HEADER_BYTES 4

unsigned vd_file_blocks(unsigned f)
{
    return f < VD_MAX_BLOCKS ? VD_MAX_BLOCKS - f : 0;
}

uint32_t vd_block_bytes(unsigned f, unsigned b)
{
    unsigned n = vd_file_blocks(f);

    if (b >= n)
        return 0;
    /* the last block is shorter, by a different amount in every file, so
     * that the files' lengths differ too */
    return b + 1 < n ? VD_BLOCK_BYTES : VD_BLOCK_BYTES / 2 + 64 * f;
}

uint64_t vd_file_length(unsigned f)
{
    unsigned n = vd_file_blocks(f);

    return n ? (uint64_t)(n - 1) * VD_BLOCK_BYTES + vd_block_bytes(f, n - 1) : 0;
}

uint16_t vd_bsd_sum(const uint8_t *p, size_t n)
{
    uint32_t sum = 0;
    size_t i;

    for (i = 0; i < n; i++) {
        sum = (sum >> 1) + ((sum & 1) << 15);
        sum = (sum + p[i]) & 0xffff;
    }
    return (uint16_t)sum;
}

void vd_block_fill(unsigned f, unsigned b, uint8_t *buf)
{
    uint32_t len = vd_block_bytes(f, b), data = len - HEADER_BYTES;
    uint16_t sum;

    memset(buf + HEADER_BYTES, (int)(b & 0xff), data);
    sum = vd_bsd_sum(buf + HEADER_BYTES, data);
    cm_be16_put(buf, sum);
    cm_be16_put(buf + 2, (uint16_t)data);
}

int vd_block_verify(unsigned f, unsigned b, const uint8_t *buf, uint32_t len)
{
    uint32_t want = vd_block_bytes(f, b), i;
    uint16_t sum, data;

    if (want == 0 || len != want)
        return -EILSEQ;
    sum = cm_be16_get(buf);
    data = cm_be16_get(buf + 2);
    if (data != len - HEADER_BYTES || sum != vd_bsd_sum(buf + HEADER_BYTES, data))
        return -EILSEQ;
    for (i = HEADER_BYTES; i < len; i++)
        if (buf[i] != (uint8_t)b)
            return -EILSEQ;
    return 0;
}
