/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_reclaim.c - a load process's opens reclaimed after its server
 * restarted (nf4_load.h, struct nf4_reclaimer; RFC 8881 8.4.2, 18.16):
 * the working-set files are kept on a list as they enter it, and when the
 * client (v4_client.c) has made its new client and session after a
 * restart, it hands over here before RECLAIM_COMPLETE.  Each file whose
 * open the previous client held is OPENed with CLAIM_PREVIOUS on calls
 * allocated once; a reclaimed file's open is the new client's, so its
 * READs and WRITEs go on with the new stateid and no reopen.  What is not
 * reclaimed stays an open of the old epoch, which the protocol table
 * (proto4.c) opens again after the grace period, as before.  Nothing here
 * allocates after init.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/alloc.h"
#include "common/clock.h"
#include "nfs/nf4_load.h"

#define NS_PER_MS       1000000ull
#define RECLAIM_CALL_MS 10000u /* each reclaim's timeout (the state calls') */

struct nf4_reclaim_call {
    struct nf4_call call;
    struct nf4_fh fh;
    struct nf4_kept_open *f;
    struct nf4_reclaimer *r;
    struct nf4_reclaim_call *next; /* free list */
};

int nf4_reclaimer_init(struct nf4_reclaimer *r, unsigned ncalls,
                       struct nf4_open_counts *counts, const char *prog)
{
    unsigned i;

    memset(r, 0, sizeof(*r));
    r->ncalls = ncalls ? ncalls : 1;
    r->calls = cm_calloc(r->ncalls, sizeof(*r->calls));
    if (r->calls == NULL)
        return -ENOMEM;
    for (i = 0; i < r->ncalls; i++) {
        r->calls[i].r = r;
        r->calls[i].next = i + 1 < r->ncalls ? &r->calls[i + 1] : NULL;
    }
    r->free_calls = r->calls;
    r->counts = counts;
    r->prog = prog;
    return 0;
}

void nf4_reclaimer_free(struct nf4_reclaimer *r)
{
    free(r->calls);
    r->calls = r->free_calls = NULL;
}

void nf4_reclaimer_keep(struct nf4_reclaimer *r, struct nf4_kept_open *f,
                        const struct nf_fh *fh)
{
    f->fh = *fh;
    if (f->kept)
        return;
    f->kept = 1;
    f->next = r->files;
    r->files = f;
}

/* 1 when f's open is one the previous client held. */
static int reclaimable(const struct nf4_reclaimer *r, const struct nf4_kept_open *f)
{
    return f->open.state == NF4_OPEN && f->open.epoch == r->from_epoch;
}

/* The rest of the list is not tried this time: counted. */
static void stop(struct nf4_reclaimer *r)
{
    struct nf4_kept_open *f;

    r->stopped = 1;
    for (f = r->cursor; f != NULL; f = f->next)
        if (reclaimable(r, f))
            r->counts->reclaim_untried++;
    r->cursor = NULL;
}

static void reclaim_done(struct nf4_call *call, void *data);

/* Starts reclaims while a call is free and a file is left; stops when the
 * time is up or the client no longer reclaims (it ended at its bound). */
static void feed(struct nf4_reclaimer *r)
{
    while (!r->stopped && r->cursor != NULL && r->free_calls != NULL) {
        struct nf4_kept_open *f = r->cursor;
        struct nf4_reclaim_call *k = r->free_calls;
        struct nf4_sfs_args a;

        if (!reclaimable(r, f)) {
            r->cursor = f->next;
            continue;
        }
        if (cm_now_ns() >= r->deadline_ns || !nf4_client_reclaiming(r->cl)) {
            r->abandoned = 1;
            stop(r);
            break;
        }
        memset(&a, 0, sizeof(a));
        nf4_fh_from_nf(&f->fh, &k->fh);
        a.fh = &k->fh;
        if (nf4_sfs_reclaim(&k->call.args, &a) < 0) {
            r->counts->reclaim_untried++;
            r->cursor = f->next;
            continue;
        }
        k->f = f;
        k->call.done = reclaim_done;
        k->call.data = k;
        k->call.res.data = NULL;
        k->call.res.data_max = 0;
        k->call.timeout_ms = RECLAIM_CALL_MS;
        if (nf4_reclaim_start(r->cl, &k->call) < 0) {
            r->abandoned = 1;
            stop(r);
            break;
        }
        r->cursor = f->next;
        r->free_calls = k->next;
        r->busy++;
    }
}

/* Feeds more, or - nothing left out - lets RECLAIM_COMPLETE go. */
static void go_on(struct nf4_reclaimer *r)
{
    feed(r);
    if (r->busy > 0 || (r->cursor != NULL && !r->stopped))
        return;
    if (r->abandoned)
        fprintf(stderr,
                "%s: reclaim after the server's restart abandoned after %" PRIu64
                " ms: %" PRIu64 " opens not reclaimed are opened again after its "
                "grace period\n",
                r->prog, (uint64_t)((cm_now_ns() - r->started_ns) / NS_PER_MS),
                r->counts->reclaim_untried);
    nf4_reclaim_end(r->cl);
}

static void reclaim_done(struct nf4_call *call, void *data)
{
    struct nf4_reclaim_call *k = data;
    struct nf4_reclaimer *r = k->r;
    struct nf4_kept_open *f = k->f;
    const struct nf4_resop *op =
        call->status == 0 ? nf4_res_find(&call->res, OP_OPEN, 0) : NULL;
    uint32_t s = op ? op->status : NFS4ERR_SERVERFAULT;

    r->busy--;
    k->next = r->free_calls;
    r->free_calls = k;
    if (op != NULL && s == NFS4_OK) {
        r->counts->reclaims++;
        if (reclaimable(r, f)) { /* else it left the working set meanwhile */
            f->open.stateid = op->u.open.stateid;
            f->open.epoch = call->epoch;
        }
    } else if (s == NFS4ERR_NO_GRACE) {
        r->counts->reclaim_no_grace++;
        stop(r); /* the server is not in grace: every other one would be */
    } else if (s == NFS4ERR_RECLAIM_BAD) {
        r->counts->reclaim_bad++;
    } else {
        r->counts->reclaim_errors++;
    }
    go_on(r);
}

void nf4_reclaimer_run(struct nf4_client *cl, void *data)
{
    struct nf4_reclaimer *r = data;
    struct nf4_client_stats st;

    nf4_client_stats(cl, &st);
    r->cl = cl;
    r->from_epoch = nf4_client_epoch(cl) - 1;
    r->cursor = r->files;
    r->stopped = r->abandoned = 0;
    r->started_ns = cm_now_ns();
    /* a server's grace period lasts a lease at least (RFC 8881 8.4.2.1):
     * no reclaim starts after one */
    r->deadline_ns =
        r->started_ns + (uint64_t)(st.lease_s ? st.lease_s : 90) * 1000u * NS_PER_MS;
    go_on(r);
}
