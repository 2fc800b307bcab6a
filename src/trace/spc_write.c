/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * spc_write.c - writes normalised records as SPC text (docs/TRACE_FORMATS.md
 * section 6), so that MaStA and sysio traces can be analysed and replayed
 * the way SPC traces are.  Only reads and writes are expressible; the
 * caller counts what this refuses.  Timestamps get 6 decimals from the
 * integer nanoseconds, without floating point.
 */
#include <errno.h>
#include <inttypes.h>

#include "trace/tr.h"

int tr_spc_write(FILE *out, const struct tr_record *rec, uint32_t lba_size)
{
    int64_t us;

    if (rec->op != TR_OP_READ && rec->op != TR_OP_WRITE)
        return -EINVAL;
    if (lba_size == 0 || rec->offset % lba_size != 0)
        return -EINVAL;
    us = (rec->t_ns < 0 ? 0 : rec->t_ns) / 1000;
    if (fprintf(out, "%" PRIu32 ",%" PRIu64 ",%" PRIu64 ",%c,%" PRId64 ".%06" PRId64 "\n",
                rec->unit, rec->offset / lba_size, rec->length,
                rec->op == TR_OP_READ ? 'R' : 'W', us / 1000000, us % 1000000) < 0)
        return -EIO;
    return 0;
}
