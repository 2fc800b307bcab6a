/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * feed.c - the loop between a trace reader and an analysis: every record
 * goes to the statistics or the miss-ratio analysis, read on this thread or
 * (threads > 1) on a second one through the trace layer's prefetch ring, so
 * that parsing overlaps the analysis (bench/trace.sh measures both).  An
 * error of the analysis names the record's place in the trace ("FILE:LINE:
 * message", MaStA "FILE: entry N (offset O): message"); the reader's own
 * errors carry it already.
 */
#include <errno.h>
#include <string.h>

#include "analyze/az.h"

typedef int (*record_fn)(void *, const struct tr_record *);

/* A failed record: its place and the analysis's message into err. */
static int record_error(struct tr_reader *r, const struct tr_record *rec, int rc,
                        const char *msg, char *err, size_t errlen)
{
    char where[CM_ERR_LEN];

    cm_errf(err, errlen, "%s: %s", tr_reader_where(r, rec->line, where, sizeof(where)),
            msg);
    return rc;
}

static int feed(struct tr_reader *r, int threads, record_fn fn, void *data,
                const char *msg, char *err, size_t errlen)
{
    struct tr_prefetch *pf = NULL;
    struct tr_record rec;
    int rc;

    if (threads > 1 && tr_prefetch_start(&pf, r) == 0) {
        const struct tr_record *recs;
        size_t n, i;

        while ((rc = tr_prefetch_next(pf, &recs, &n)) > 0)
            for (i = 0; i < n; i++)
                if ((rc = fn(data, &recs[i])) < 0) {
                    rc = record_error(r, &recs[i], rc, msg, err, errlen);
                    tr_prefetch_stop(pf);
                    return rc;
                }
        tr_prefetch_stop(pf);
    } else {
        /* one thread (or no thread could be started) */
        while ((rc = tr_reader_next(r, &rec)) > 0)
            if ((rc = fn(data, &rec)) < 0)
                return record_error(r, &rec, rc, msg, err, errlen);
    }
    if (rc < 0)
        cm_errf(err, errlen, "%s", r->last_error);
    return rc;
}

static int mrc_fn(void *m, const struct tr_record *rec)
{
    return az_mrc_record(m, rec);
}

static int stats_fn(void *s, const struct tr_record *rec)
{
    return az_stats_record(s, rec);
}

int az_mrc_feed(struct az_mrc *m, struct tr_reader *r, int threads, char *err,
                size_t errlen)
{
    int rc = feed(r, threads, mrc_fn, m, m->last_error, err, errlen);

    if (rc == 0)
        az_mrc_finish(m);
    return rc;
}

int az_stats_feed(struct az_stats *s, struct tr_reader *r, int threads, char *err,
                  size_t errlen)
{
    return feed(r, threads, stats_fn, s, s->last_error, err, errlen);
}
