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

/* Records a batch gets at a time on one thread: its hints miss the first
 * AZ_MRC_AHEAD of each. */
#define WINDOW 256u

typedef int (*record_fn)(void *, const struct tr_record *);
/* A batch of records: the count done, and *rc < 0 when record i failed. */
typedef size_t (*batch_fn)(void *, const struct tr_record *, size_t, int *);

/* A failed record: its place and the analysis's message into err. */
static int record_error(struct tr_reader *r, const struct tr_record *rec, int rc,
                        const char *msg, char *err, size_t errlen)
{
    char where[CM_ERR_LEN];

    cm_errf(err, errlen, "%s: %s", tr_reader_where(r, rec->line, where, sizeof(where)),
            msg);
    return rc;
}

static int feed(struct tr_reader *r, int threads, record_fn fn, batch_fn batch,
                void *data, const char *msg, char *err, size_t errlen)
{
    struct tr_prefetch *pf = NULL;
    struct tr_record rec;
    int rc;

    if (threads > 1 && tr_prefetch_start(&pf, r) == 0) {
        const struct tr_record *recs;
        size_t n, i;

        while ((rc = tr_prefetch_next(pf, &recs, &n)) > 0) {
            if (batch)
                i = batch(data, recs, n, &rc);
            else
                for (i = 0; i < n && (rc = fn(data, &recs[i])) >= 0; i++)
                    ;
            if (rc < 0) {
                rc = record_error(r, &recs[i], rc, msg, err, errlen);
                tr_prefetch_stop(pf);
                return rc;
            }
        }
        tr_prefetch_stop(pf);
    } else if (batch) {
        /* one thread, records read a window ahead so that the batch can
         * hint the ones to come (no analysis with a batch reads a record's
         * path, which the next read may reuse) */
        struct tr_record win[WINDOW];
        size_t n = 0, i;
        int brc;

        do {
            if ((rc = tr_reader_next(r, &win[n])) > 0 && ++n < WINDOW)
                continue;
            i = batch(data, win, n, &brc);
            if (brc < 0)
                return record_error(r, &win[i], brc, msg, err, errlen);
            n = 0;
        } while (rc > 0);
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

static size_t mrc_batch(void *m, const struct tr_record *recs, size_t n, int *rc)
{
    return az_mrc_records(m, recs, n, rc);
}

static int stats_fn(void *s, const struct tr_record *rec)
{
    return az_stats_record(s, rec);
}

int az_mrc_feed(struct az_mrc *m, struct tr_reader *r, int threads, char *err,
                size_t errlen)
{
    int rc = feed(r, threads, mrc_fn, mrc_batch, m, m->last_error, err, errlen);

    if (rc == 0)
        az_mrc_finish(m);
    return rc;
}

int az_stats_feed(struct az_stats *s, struct tr_reader *r, int threads, char *err,
                  size_t errlen)
{
    return feed(r, threads, stats_fn, NULL, s, s->last_error, err, errlen);
}
