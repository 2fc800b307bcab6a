/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * resblock.c - the results' block beyond struct ld_stats (stats.h): the
 * workload's counters, then the protocol's, described as one block so
 * that the merge, the wire form and the aggregate carry both.
 */
#include <string.h>

#include "load/stats.h"
#include "nfs/nf_proto.h"

/* A row holding a whole table at offset at. */
static struct cm_field table_row(const char *name, size_t at, size_t size,
                                 const struct cm_field *sub, size_t nsub)
{
    struct cm_field f;

    memset(&f, 0, sizeof(f));
    f.name = name;
    f.type = CM_FIELD_TABLE;
    f.merge = CM_MERGE_SUM;
    f.offset = at;
    f.size = size;
    f.count = 0; /* one */
    f.decimals = 3;
    f.sub = sub;
    f.nsub = nsub;
    return f;
}

void ld_results_block_init(struct ld_results_block *b, const struct ld_wstats *w,
                           const struct nf_proto *p)
{
    size_t n = 0, at = 0;

    memset(b, 0, sizeof(*b));
    if (w && w->size) {
        b->rows[n++] = table_row("workload", 0, w->size, w->fields, w->n);
        at = (w->size + 15) & ~(size_t)15;
    }
    if (p && p->counters.size) {
        b->rows[n++] = table_row("protocol", at, p->counters.size, p->counters.fields,
                                 p->counters.n);
        b->proto = p;
        b->proto_at = at;
        at += p->counters.size;
    } else {
        at = w ? w->size : 0;
    }
    b->all.fields = b->rows;
    b->all.n = n;
    b->all.size = n ? at : 0;
}

const void *ld_results_proto(const struct ld_results_block *b, const void *block)
{
    if (b->proto == NULL || block == NULL)
        return NULL;
    return (const char *)block + b->proto_at;
}
