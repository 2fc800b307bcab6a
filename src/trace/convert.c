/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * convert.c - any trace to SPC text (docs/TRACE_FORMATS.md section 6): every
 * read and write becomes one SPC line, with what SPC cannot say counted,
 * never dropped silently.  SPC addresses in LBAs, so an offset that is not
 * a multiple of the LBA size is rounded down and its size grown to keep the
 * same last byte (counted; --lba-size 1 is exact).  SPC timestamps never
 * decrease, while sysio streams are concatenated although they ran
 * concurrently: a smaller timestamp is raised to the previous one (counted),
 * keeping file order.
 */
#include <errno.h>
#include <string.h>

#include "trace/tr.h"

int tr_convert_spc(struct tr_reader *r, FILE *out, uint32_t lba_size,
                   struct tr_convert_stats *st)
{
    struct tr_record rec;
    int64_t last_ns = 0;
    int rc;

    memset(st, 0, sizeof(*st));
    if (lba_size == 0)
        return -EINVAL;
    while ((rc = tr_reader_next(r, &rec)) > 0) {
        if (rec.op != TR_OP_READ && rec.op != TR_OP_WRITE) {
            st->dropped[rec.op]++;
            continue;
        }
        if (rec.offset % lba_size) {
            rec.length += rec.offset % lba_size;
            rec.offset -= rec.offset % lba_size;
            st->rounded++;
        }
        if (rec.t_ns < last_ns) {
            rec.t_ns = last_ns;
            st->clamped++;
        }
        last_ns = rec.t_ns;
        if (tr_spc_write(out, &rec, lba_size) < 0) {
            cm_errf(r->last_error, sizeof(r->last_error), "%s: write error", r->file);
            return -EIO;
        }
        st->written++;
    }
    return rc;
}
