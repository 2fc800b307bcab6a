/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * binfile.c - big-endian integers in a FILE (binfile.h).
 */
#include "common/binfile.h"
#include "common/bytes.h"

void cm_bin_put32(FILE *f, uint32_t v)
{
    uint8_t b[4];

    cm_be32_put(b, v);
    (void)fwrite(b, 1, sizeof(b), f); /* ferror(f) tells the caller */
}

void cm_bin_put64(FILE *f, uint64_t v)
{
    uint8_t b[8];

    cm_be64_put(b, v);
    (void)fwrite(b, 1, sizeof(b), f);
}

uint32_t cm_bin_get32(struct cm_bin_reader *r)
{
    uint8_t b[4];

    if (fread(b, 1, sizeof(b), r->f) != sizeof(b)) {
        r->short_read = 1;
        return 0;
    }
    return cm_be32_get(b);
}

uint64_t cm_bin_get64(struct cm_bin_reader *r)
{
    uint8_t b[8];

    if (fread(b, 1, sizeof(b), r->f) != sizeof(b)) {
        r->short_read = 1;
        return 0;
    }
    return cm_be64_get(b);
}
