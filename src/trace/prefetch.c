/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prefetch.c - reading on a second thread: a producer thread runs
 * tr_reader_next into a ring of record batches while the caller consumes
 * them, so that parsing overlaps the analysis on a second core (parsing
 * is about a quarter of an exact analysis: docs/PERFORMANCE.md).  Only the producer
 * touches the reader until tr_prefetch_stop has joined it; records are
 * copied without their path (which points into the reader).  The warning
 * callback runs on the producer thread.  Memory is fixed: NBATCH batches
 * of BATCH records, whatever the trace length.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "trace/tr_int.h"
#include "common/alloc.h"

#define BATCH  2048u
#define NBATCH 4u

struct tr_prefetch {
    struct tr_reader *r;
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t filled, drained;
    struct tr_record *rec[NBATCH];
    size_t count[NBATCH];
    unsigned head, tail, used; /* producer writes head, consumer reads tail */
    int done;                  /* producer finished: rc says how */
    int rc;                    /* 0 at the end of the trace, -errno on error */
    int stop;                  /* consumer asked the producer to stop */
};

static void *producer(void *arg)
{
    struct tr_prefetch *pf = arg;
    int rc = 0;

    for (;;) {
        struct tr_record *batch;
        size_t n = 0;

        pthread_mutex_lock(&pf->mu);
        while (pf->used == NBATCH && !pf->stop)
            pthread_cond_wait(&pf->drained, &pf->mu);
        if (pf->stop) {
            pthread_mutex_unlock(&pf->mu);
            break;
        }
        batch = pf->rec[pf->head];
        pthread_mutex_unlock(&pf->mu);
        while (n < BATCH && (rc = tr_reader_next(pf->r, &batch[n])) > 0)
            batch[n++].path = NULL;
        pthread_mutex_lock(&pf->mu);
        if (n) {
            pf->count[pf->head] = n;
            pf->head = (pf->head + 1) % NBATCH;
            pf->used++;
        }
        if (rc <= 0) {
            pf->done = 1;
            pf->rc = rc;
        }
        pthread_cond_signal(&pf->filled);
        pthread_mutex_unlock(&pf->mu);
        if (rc <= 0)
            break;
    }
    pthread_mutex_lock(&pf->mu);
    pf->done = 1;
    pthread_cond_signal(&pf->filled);
    pthread_mutex_unlock(&pf->mu);
    return NULL;
}

int tr_prefetch_start(struct tr_prefetch **out, struct tr_reader *r)
{
    struct tr_prefetch *pf = cm_calloc(1, sizeof(*pf));
    unsigned i;
    int rc;

    *out = NULL;
    if (!pf)
        return -ENOMEM;
    pf->r = r;
    for (i = 0; i < NBATCH; i++)
        if (!(pf->rec[i] = cm_malloc(BATCH * sizeof(*pf->rec[i])))) {
            rc = -ENOMEM;
            goto fail;
        }
    pthread_mutex_init(&pf->mu, NULL);
    pthread_cond_init(&pf->filled, NULL);
    pthread_cond_init(&pf->drained, NULL);
    rc = -pthread_create(&pf->thread, NULL, producer, pf);
    if (rc < 0) {
        pthread_mutex_destroy(&pf->mu);
        pthread_cond_destroy(&pf->filled);
        pthread_cond_destroy(&pf->drained);
        goto fail;
    }
    *out = pf;
    return 0;
fail:
    for (i = 0; i < NBATCH; i++)
        free(pf->rec[i]);
    free(pf);
    return rc;
}

int tr_prefetch_next(struct tr_prefetch *pf, const struct tr_record **recs, size_t *n)
{
    int rc = 1;

    pthread_mutex_lock(&pf->mu);
    if (pf->used && pf->count[pf->tail] == 0) {
        /* release the batch handed out last time */
        pf->tail = (pf->tail + 1) % NBATCH;
        pf->used--;
        pthread_cond_signal(&pf->drained);
    }
    while (pf->used == 0 && !pf->done)
        pthread_cond_wait(&pf->filled, &pf->mu);
    if (pf->used) {
        *recs = pf->rec[pf->tail];
        *n = pf->count[pf->tail];
        pf->count[pf->tail] = 0; /* handed out: released on the next call */
    } else {
        *recs = NULL;
        *n = 0;
        rc = pf->rc;
    }
    pthread_mutex_unlock(&pf->mu);
    return rc;
}

void tr_prefetch_stop(struct tr_prefetch *pf)
{
    unsigned i;

    if (!pf)
        return;
    pthread_mutex_lock(&pf->mu);
    pf->stop = 1;
    pthread_cond_signal(&pf->drained);
    pthread_mutex_unlock(&pf->mu);
    pthread_join(pf->thread, NULL);
    pthread_mutex_destroy(&pf->mu);
    pthread_cond_destroy(&pf->filled);
    pthread_cond_destroy(&pf->drained);
    for (i = 0; i < NBATCH; i++)
        free(pf->rec[i]);
    free(pf);
}
