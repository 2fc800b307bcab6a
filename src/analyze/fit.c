/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fit.c - the pass over an NFS trace's events that gathers what the SFS
 * model is fitted from (az_fit.h): calls per SFS op, READ and WRITE
 * requests grouped per stream, each stream's calls in flight, appends and
 * stable writes, the file-system image, the handles the working-set ops
 * touch and the exact miss-ratio curve of the READ and WRITE blocks.
 * Every event costs a bounded amount of work; memory grows with the
 * streams, the handles and the request sizes the trace shows, never with
 * its events.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az_fit.h"
#include "common/alloc.h"

static int nomem(struct az_fit *f)
{
    cm_errf(f->last_error, sizeof(f->last_error), "out of memory");
    return -ENOMEM;
}

int az_fit_init(struct az_fit *f, uint64_t block_size)
{
    struct az_mrc_opts o = {
        .block_size = block_size, .unit_bits = AZ_KEY_NFS_UNIT_BITS, .lenient = 1};
    char err[CM_ERR_LEN];

    memset(f, 0, sizeof(*f));
    f->block_size = block_size;
    f->img = im_new();
    f->units = im_fhmap_new();
    f->handles = im_fhmap_new();
    f->touched = im_fhmap_new();
    f->listed = im_fhmap_new();
    f->mrc = cm_calloc(1, sizeof(*f->mrc));
    if (f->mrc && az_mrc_init(f->mrc, &o, err, sizeof(err)) < 0) {
        free(f->mrc); /* az_mrc_init frees what it made when it fails */
        f->mrc = NULL;
    }
    if (!f->img || !f->units || !f->handles || !f->touched || !f->listed || !f->mrc) {
        az_fit_free(f);
        return nomem(f);
    }
    return 0;
}

static void sizes_free(struct az_fit_sizes *s)
{
    free(s->bytes);
    free(s->count);
    memset(s, 0, sizeof(*s));
}

void az_fit_free(struct az_fit *f)
{
    unsigned k;

    im_free(f->img);
    im_fhmap_free(f->units);
    im_fhmap_free(f->handles);
    im_fhmap_free(f->touched);
    im_fhmap_free(f->listed);
    free(f->touches);
    if (f->mrc) {
        az_mrc_free(f->mrc);
        free(f->mrc);
    }
    free(f->streams);
    free(f->size_of);
    for (k = 0; k < 2; k++)
        sizes_free(&f->c.sizes[k]);
    sizes_free(&f->c.full);
    memset(f, 0, sizeof(*f));
}

/* ---- request sizes ------------------------------------------------------- */

/* Counts n at bytes in a sorted list (few distinct sizes: a binary search
 * and, for a new size, a move). */
static int sizes_add(struct az_fit_sizes *s, uint64_t bytes, uint64_t n)
{
    uint32_t lo = 0, hi = s->n;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (s->bytes[mid] < bytes)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo < s->n && s->bytes[lo] == bytes) {
        s->count[lo] += n;
        return 0;
    }
    if (s->n == s->cap) {
        uint32_t cap = s->cap ? s->cap * 2 : 16;
        uint64_t *b = cm_reallocarray(s->bytes, cap, sizeof(*b));
        uint64_t *c = b ? cm_reallocarray(s->count, cap, sizeof(*c)) : NULL;
        if (b)
            s->bytes = b;
        if (!c)
            return -ENOMEM;
        s->count = c;
        s->cap = cap;
    }
    memmove(s->bytes + lo + 1, s->bytes + lo, (s->n - lo) * sizeof(uint64_t));
    memmove(s->count + lo + 1, s->count + lo, (s->n - lo) * sizeof(uint64_t));
    s->bytes[lo] = bytes;
    s->count[lo] = n;
    s->n++;
    return 0;
}

/* ---- streams --------------------------------------------------------------- */

static uint64_t stream_hash(uint32_t client, uint16_t port, uint32_t conn)
{
    return az_hash((uint64_t)client << 32 ^ (uint64_t)port << 16 ^ conn);
}

static int streams_grow(struct az_fit *f)
{
    uint32_t cap = f->streams_cap ? f->streams_cap * 2 : 64, i;
    struct az_fit_stream *old = f->streams, *t = cm_calloc(cap, sizeof(*t));

    if (!t)
        return -ENOMEM;
    for (i = 0; i < f->streams_cap; i++) {
        uint32_t j;
        if (!old[i].used)
            continue;
        j = (uint32_t)stream_hash(old[i].client, old[i].port, old[i].conn) & (cap - 1);
        while (t[j].used)
            j = (j + 1) & (cap - 1);
        t[j] = old[i];
    }
    free(old);
    f->streams = t;
    f->streams_cap = cap;
    return 0;
}

/* The stream of an event, made on first sight; NULL past the bound (the
 * calls then count, ungrouped) or on no memory (rc -ENOMEM). */
static struct az_fit_stream *stream_of(struct az_fit *f, const struct tr_nfs_event *ev,
                                       int *rc)
{
    uint32_t j;

    *rc = 0;
    if ((f->nstreams + 1) * 2 > f->streams_cap) {
        if (f->nstreams >= AZ_FIT_STREAMS_MAX)
            goto find_only;
        if (streams_grow(f) < 0) {
            *rc = -ENOMEM;
            return NULL;
        }
    }
find_only:
    j = (uint32_t)stream_hash(ev->client, ev->client_port, ev->conn) &
        (f->streams_cap - 1);
    while (f->streams[j].used) {
        struct az_fit_stream *s = &f->streams[j];
        if (s->client == ev->client && s->port == ev->client_port && s->conn == ev->conn)
            return s;
        j = (j + 1) & (f->streams_cap - 1);
    }
    if (f->nstreams >= AZ_FIT_STREAMS_MAX) {
        f->streams_dropped++;
        return NULL;
    }
    f->streams[j].used = 1;
    f->streams[j].client = ev->client;
    f->streams[j].port = ev->client_port;
    f->streams[j].conn = ev->conn;
    f->streams[j].req.op = -1;
    f->nstreams++;
    return &f->streams[j];
}

/* ---- sizes of files ---------------------------------------------------------- */

/* An array indexed by handle ids (*cap entries, zero-filled), grown to
 * hold id: the array (moved, perhaps), or NULL (out of memory; the old
 * one kept). */
static void *grown(void *array, uint32_t *cap, int64_t id, size_t elem)
{
    uint32_t n = *cap ? *cap * 2 : 1024;
    char *t;

    if ((uint64_t)id < *cap)
        return array;
    while (n <= (uint64_t)id)
        n *= 2;
    if (!(t = cm_reallocarray(array, n, elem)))
        return NULL;
    memset(t + (size_t)*cap * elem, 0, (size_t)(n - *cap) * elem);
    *cap = n;
    return t;
}
/* The last size seen of a handle, +1 (0: unknown), by the handle map. */
static int size_set(struct az_fit *f, const struct nf_fh *fh, uint64_t size)
{
    uint64_t *sizes;
    int64_t id;

    if (fh->len == 0)
        return 0;
    id = im_fhmap_id(f->handles, fh, 1, NULL);
    if (id < 0)
        return id == -EINVAL ? 0 : -ENOMEM;
    if (!(sizes = grown(f->size_of, &f->size_cap, id, sizeof(*sizes))))
        return -ENOMEM;
    f->size_of = sizes;
    f->size_of[id] = size + 1;
    return 0;
}

/* 1 with *size, 0 when unknown. */
static int size_get(const struct az_fit *f, const struct nf_fh *fh, uint64_t *size)
{
    int64_t id = im_fhmap_id(f->handles, fh, 0, NULL);

    if (id < 0 || (uint64_t)id >= f->size_cap || f->size_of[id] == 0)
        return 0;
    *size = f->size_of[id] - 1;
    return 1;
}

/* What the reply says of the object's size (post-op attributes). */
static int learn_size(struct az_fit *f, const struct tr_nfs_event *ev)
{
    const struct nf_fh *fh = ev->res_fh.len ? &ev->res_fh : &ev->fh;

    if (!(ev->flags & TR_NFS_F_REPLY) || ev->rpc_status != TR_NFS_RPC_SUCCESS ||
        !(ev->attr.have & TR_NFS_A_SIZE) || ev->attr.type == TR_NFS_DIR)
        return 0;
    if (ev->op == NF_OP_LINK || ev->op == NF_OP_RENAME || ev->op == NF_OP_REMOVE ||
        ev->op == NF_OP_RMDIR || ev->op == NF_OP_READDIR || ev->op == NF_OP_READDIRPLUS)
        return 0; /* attributes of another object than fh */
    return size_set(f, fh, ev->attr.size);
}

/* A working-set op used fh; pick: its file was SFS's pick, uniform within
 * its group (counted, saturating), not a best fit or a commit's. */
static int touch(struct az_fit *f, const struct nf_fh *fh, int pick)
{
    uint32_t *touches;
    int64_t id = im_fhmap_id(f->touched, fh, 1, NULL);

    if (id < 0)
        return id == -ENOMEM ? -ENOMEM : 0;
    if (!(touches = grown(f->touches, &f->touches_cap, id, sizeof(*touches))))
        return -ENOMEM;
    f->touches = touches;
    if (pick && f->touches[id] < UINT32_MAX)
        f->touches[id]++;
    return 0;
}

/* ---- requests ---------------------------------------------------------------- */

static int req_close(struct az_fit *f, struct az_fit_stream *s)
{
    struct az_fit_req *q = &s->req;
    int k = q->op == NF_OP_WRITE;

    if (q->op < 0)
        return 0;
    f->c.requests[k]++;
    f->c.req_calls[k] += q->calls;
    f->c.req_bytes[k] += q->bytes;
    if (k && q->append)
        f->c.appends++;
    if (k && !q->append_known)
        f->c.append_unknown++;
    q->op = -1;
    return sizes_add(&f->c.sizes[k], q->bytes, 1) < 0 ? nomem(f) : 0;
}

/* The calls in flight in s when a call of kind k (0 READ, 1 WRITE) is sent
 * at t, counted with it; its reply time joins the outstanding ones. */
static void flight(struct az_fit *f, struct az_fit_stream *s, int k,
                   const struct tr_nfs_event *ev)
{
    uint32_t i, n = 0;

    for (i = 0; i < s->nout[k]; i++)
        if (s->out[k][i] > ev->t_ns)
            s->out[k][n++] = s->out[k][i];
    s->nout[k] = n;
    f->c.flight[k][n + 1 > AZ_FIT_FLIGHT_MAX ? AZ_FIT_FLIGHT_MAX : n + 1]++;
    if ((ev->flags & TR_NFS_F_REPLY) && n < AZ_FIT_OUT_MAX)
        s->out[k][s->nout[k]++] = ev->reply_t_ns;
}

/* A READ or WRITE call: it continues the stream's open request (same op
 * and file, at its next offset, every call so far of one size and this
 * one no larger) or closes it and opens one. */
static int io_call(struct az_fit *f, struct az_fit_stream *s,
                   const struct tr_nfs_event *ev)
{
    struct az_fit_req *q = &s->req;
    int k = ev->op == NF_OP_WRITE, rc;
    uint64_t size;

    if ((uint64_t)ev->count > f->c.max_call[k])
        f->c.max_call[k] = ev->count;
    flight(f, s, k, ev);
    if (q->op == ev->op && q->fh.len == ev->fh.len &&
        memcmp(q->fh.data, ev->fh.data, ev->fh.len) == 0 && ev->offset == q->next &&
        q->last == q->first && ev->count <= q->first && ev->count > 0) {
        if (sizes_add(&f->c.full, q->last, 1) < 0)
            return nomem(f);
        q->calls++;
        q->bytes += ev->count;
        q->last = ev->count;
        q->next = ev->offset + ev->count;
        return 0;
    }
    if (q->op == ev->op && q->fh.len == ev->fh.len &&
        memcmp(q->fh.data, ev->fh.data, ev->fh.len) == 0 && ev->offset == q->next)
        f->c.sequential[k]++;
    if ((rc = req_close(f, s)) < 0)
        return rc;
    q->op = ev->op;
    q->fh = ev->fh;
    q->next = ev->offset + ev->count;
    q->bytes = ev->count;
    q->calls = 1;
    q->first = q->last = ev->count;
    q->append = 0;
    q->append_known = 0;
    if ((rc = touch(f, &ev->fh, 0)) < 0)
        return nomem(f);
    if (k) {
        /* the size before this write: its reply's pre-operation size, or
         * the last the trace showed */
        if ((ev->flags & TR_NFS_F_REPLY) && (ev->pre.have & TR_NFS_A_SIZE)) {
            q->append_known = 1;
            q->append = ev->offset >= ev->pre.size;
        } else if (size_get(f, &ev->fh, &size)) {
            q->append_known = 1;
            q->append = ev->offset >= size;
        }
    }
    return 0;
}

/* ---- the working set's handles ---------------------------------------------- */

/* The ops that use an io file of the working set in SFS's model
 * (docs/sfs.md: getattr, setattr, access, pathconf work on a working io
 * file drawn uniformly in its group, a lookup names one; a COMMIT's file
 * is one written before, a READ's or WRITE's the best fit in its group:
 * touches, not picks; io_call counts a READ or WRITE request once). */
static const struct nf_fh *working_handle(const struct tr_nfs_event *ev)
{
    switch (ev->op) {
    case NF_OP_GETATTR:
    case NF_OP_SETATTR:
    case NF_OP_ACCESS:
    case NF_OP_PATHCONF:
    case NF_OP_COMMIT:
        return &ev->fh;
    case NF_OP_LOOKUP:
        return (ev->flags & TR_NFS_F_REPLY) && ev->status == 0 ? &ev->res_fh : NULL;
    default:
        return NULL;
    }
}

/* ---- the event ---------------------------------------------------------------- */

int az_fit_event(struct az_fit *f, const struct tr_nfs_event *ev)
{
    if (im_event(f->img, ev) < 0)
        return nomem(f);
    return az_fit_call(f, ev);
}

int az_fit_call(struct az_fit *f, const struct tr_nfs_event *ev)
{
    struct az_fit_counts *c = &f->c;
    const struct nf_fh *wh;
    struct az_fit_stream *s;
    int64_t end;
    int rc;

    if (!c->any) {
        c->first_ns = ev->t_ns;
        c->any = 1;
    }
    end = (ev->flags & TR_NFS_F_REPLY) && ev->reply_t_ns > ev->t_ns ? ev->reply_t_ns
                                                                    : ev->t_ns;
    if (end > c->last_ns)
        c->last_ns = end;
    if (ev->prog == TR_NFS_PROG_MOUNT) {
        c->mount_calls++;
        return 0;
    }
    if (ev->prog != TR_NFS_PROG_NFS || ev->op < 0 || ev->op >= NF_NOPS)
        return 0;
    c->calls[ev->op]++;
    if (ev->vers < 4)
        c->by_version[ev->vers]++;
    if (ev->transport == TR_NFS_TCP)
        c->tcp_calls++;
    else
        c->udp_calls++;
    {
        int64_t sec = (ev->t_ns - c->first_ns) / 1000000000;
        if (sec >= 0 && sec < AZ_RATE_BUCKETS) {
            c->rate[sec]++;
            if ((uint32_t)sec + 1 > c->nrate)
                c->nrate = (uint32_t)sec + 1;
        }
    }
    if ((ev->flags & TR_NFS_F_REPLY) && ev->rpc_status == TR_NFS_RPC_SUCCESS &&
        ev->status != 0)
        c->errors[ev->op]++;
    if (ev->op == NF_OP_WRITE && ev->stable != 0)
        c->stable_writes++;
    if ((rc = learn_size(f, ev)) < 0)
        return nomem(f);
    if ((wh = working_handle(ev)) && wh->len && touch(f, wh, ev->op != NF_OP_COMMIT) < 0)
        return nomem(f);
    /* a directory listed whole with its entries' attributes: which of them
     * are files holding data is all known */
    if (ev->op == NF_OP_READDIRPLUS && (ev->flags & TR_NFS_F_REPLY) &&
        ev->rpc_status == TR_NFS_RPC_SUCCESS && ev->status == 0 && ev->offset == 0 &&
        ev->eof && ev->fh.len && im_fhmap_id(f->listed, &ev->fh, 1, NULL) == -ENOMEM)
        return nomem(f);
    if ((rc = az_nfs_mrc_event(f->mrc, f->units, ev)) < 0 && rc != -ERANGE)
        return cm_errf(f->last_error, sizeof(f->last_error), "%s", f->mrc->last_error),
               rc;
    s = stream_of(f, ev, &rc);
    if (rc < 0)
        return nomem(f);
    if (!s)
        return 0;
    s->calls++;
    if (ev->op == NF_OP_READ || ev->op == NF_OP_WRITE) {
        if (ev->fh.len == 0) /* cut before its handle */
            return req_close(f, s);
        return io_call(f, s, ev);
    }
    return req_close(f, s);
}

int az_fit_finish(struct az_fit *f, const struct tr_nfs_reader *r, int points)
{
    uint32_t i;
    int rc;

    for (i = 0; i < f->streams_cap; i++)
        if (f->streams[i].used && (rc = req_close(f, &f->streams[i])) < 0)
            return rc;
    if (im_finish(f->img) < 0)
        return nomem(f);
    az_mrc_finish(f->mrc);
    return az_fit_model(f, r, points);
}
