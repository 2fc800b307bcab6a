/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_tcp.c - TCP streams of a capture and the RPC records in them.
 * Each connection (numbered in the order it is first seen; a new SYN on a
 * closed one starts a new number) has two directions, each reassembled by
 * sequence number: a segment at the next offset is delivered at once, one
 * ahead of it waits (out of order), one behind it is a retransmission or
 * an overlap and only its new bytes count.  A hole that stays - more than
 * TR__OOO_MAX bytes waiting, TR__GAP_WAIT of trace time, the connection's
 * end or the capture's - becomes a gap: bytes of known length that were
 * not captured, exactly like the bytes a snap length cut.
 *
 * Records (RFC 5531 section 11) are framed from the delivered bytes.
 * Uncaptured bytes inside a record make it a cut record, handed over with
 * its captured prefix; uncaptured bytes where a record mark should be lose
 * the framing.  A stream whose start the capture missed, or that lost its
 * framing, is searched for a record boundary that is certain: a mark whose
 * record starts like an RPC call of a known program and version, or like
 * a reply (tr__rpc_plausible), and ends either where the bytes seen so far
 * end or at another such mark; bytes before it are skipped and counted.
 * Buffers are bounded per direction and all together (TR__MEM_BUDGET).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "common/bytes.h"
#include "trace/tr_nfs_int.h"

#define TH_FIN 0x01
#define TH_SYN 0x02
#define TH_RST 0x04

#define REC_FRAGS_MAX 1024u /* record-marking fragments in one record */
#define HDR_MIN       24u   /* the shortest RPC header (a reply's) */
#define SCAN_MAX      (2u * TR__RECORD_MAX)

/* ---- buffers under the budget --------------------------------------------- */

static int mem_take(struct tr__cap *c, size_t n)
{
    if (c->mem + n > TR__MEM_BUDGET)
        return 0;
    c->mem += n;
    return 1;
}

static void mem_give(struct tr__cap *c, size_t n)
{
    c->mem -= n < c->mem ? n : c->mem;
}

/* Grows *buf to hold need bytes: 1, 0 when the budget says no, -ENOMEM. */
static int grow(struct tr__cap *c, uint8_t **buf, uint32_t *cap, uint32_t need)
{
    uint32_t n = *cap ? *cap : 4096;
    uint8_t *b;

    if (need <= *cap)
        return 1;
    while (n < need)
        n *= 2;
    if (!mem_take(c, n - *cap))
        return 0;
    b = cm_realloc(*buf, n);
    if (!b) {
        mem_give(c, n - *cap);
        return -ENOMEM;
    }
    *buf = b;
    *cap = n;
    return 1;
}

static void dir_free(struct tr__cap *c, struct tr__dir *d)
{
    struct tr__seg *s = d->ooo;

    while (s) {
        struct tr__seg *n = s->next;
        mem_give(c, sizeof(*s) + s->caplen);
        free(s);
        s = n;
    }
    mem_give(c, d->rec_cap);
    mem_give(c, d->scan_cap);
    free(d->rec);
    free(d->scan);
    memset(d, 0, sizeof(*d));
}

/* ---- records ----------------------------------------------------------------- */

struct ctx {
    struct tr_nfs_reader *r;
    struct tr__conn *k;
    int di;
};

static void msg_of(const struct ctx *x, struct tr__msg *m)
{
    const struct tr__dir *d = &x->k->d[x->di];

    memset(m, 0, sizeof(*m));
    m->src = x->di ? x->k->b : x->k->a;
    m->dst = x->di ? x->k->a : x->k->b;
    m->transport = TR_NFS_TCP;
    m->conn = x->k->index;
    m->t_ns = d->rec_t ? d->rec_t : d->t;
    m->where = d->rec_where ? d->rec_where : d->where;
}

static void lose_sync(struct ctx *x)
{
    struct tr__dir *d = &x->k->d[x->di];

    d->sync = 0;
    d->in_frag = 0;
    d->mark_have = 0;
    d->rec_kept = 0;
    d->rec_wire = 0;
    d->rec_cut = 0;
    d->nfrags = 0;
    d->scan_len = 0;
    d->npieces = 0;
    d->rec_where = 0;
    d->rec_t = 0;
}

/* Hands the finished record to the RPC layer. */
static int record(struct ctx *x)
{
    struct tr__dir *d = &x->k->d[x->di];
    struct tr__msg m;
    int rc;

    msg_of(x, &m);
    rc = tr__rpc_msg(x->r, &m, d->rec, d->rec_kept,
                     d->rec_cut ? d->rec_wire : d->rec_kept);
    d->rec_kept = 0;
    d->rec_wire = 0;
    d->rec_cut = 0;
    d->nfrags = 0;
    if (rc < 0)
        return rc;
    if (rc == 0) {
        x->r->cnt[TR__C_NON_RPC]++;
        lose_sync(x); /* not RPC: the framing was wrong */
    }
    return 0;
}

/* Frames the in-sync bytes p[0..cap) of a run of len (the rest was not
 * captured).  Returns how many it consumed: all of them, or fewer where the
 * framing was lost (the caller searches from there); -errno. */
static int64_t frame_sync(struct ctx *x, const uint8_t *p, uint64_t cap, uint64_t len)
{
    struct tr__dir *d = &x->k->d[x->di];
    struct tr__cap *c = x->r->cap;
    uint64_t pos = 0;
    int rc;

    while (pos < len && d->sync) {
        if (!d->in_frag) {
            uint32_t mark, flen;
            if (pos >= cap) {
                lose_sync(x); /* the mark was not captured */
                break;
            }
            while (d->mark_have < 4 && pos < cap)
                d->mark[d->mark_have++] = p[pos++];
            if (d->mark_have < 4) {
                if (pos < len)
                    lose_sync(x);
                break;
            }
            d->mark_have = 0;
            mark = cm_be32_get(d->mark);
            flen = mark & 0x7fffffffu;
            if (d->rec_wire + flen > TR__RECORD_MAX || ++d->nfrags > REC_FRAGS_MAX) {
                x->r->cnt[TR__C_BIG_RECORDS]++;
                lose_sync(x);
                break;
            }
            d->in_frag = 1;
            d->last_frag = (mark & 0x80000000u) != 0;
            d->frag_left = flen;
        }
        {
            uint64_t n = len - pos < d->frag_left ? len - pos : d->frag_left;
            uint64_t real = pos < cap ? (cap - pos < n ? cap - pos : n) : 0;
            if (real && !d->rec_cut) {
                int g = grow(c, &d->rec, &d->rec_cap, d->rec_kept + (uint32_t)real);
                if (g < 0)
                    return g;
                if (g) {
                    memcpy(d->rec + d->rec_kept, p + pos, (size_t)real);
                    d->rec_kept += (uint32_t)real;
                    d->rec_where = d->where;
                    d->rec_t = d->t;
                } else {
                    d->rec_cut = 1; /* over the budget: the rest is not kept */
                }
            }
            if (real < n)
                d->rec_cut = 1;
            d->rec_wire += n;
            d->frag_left -= (uint32_t)n;
            pos += n;
        }
        if (d->frag_left == 0) {
            d->in_frag = 0;
            if (d->last_frag) {
                rc = record(x);
                if (rc < 0)
                    return rc;
            }
        }
    }
    return (int64_t)pos;
}

/* A record mark at p that could start a record: its length. */
static int mark_ok(const uint8_t *p, uint32_t *len)
{
    uint32_t m = cm_be32_get(p), n = m & 0x7fffffffu;

    if (!(m & 0x80000000u) || n < HDR_MIN || n > TR__RECORD_MAX)
        return 0;
    *len = n;
    return 1;
}

/* The first certain record boundary in the scan buffer: 1 with *at set,
 * 0 with *at the bytes that can be dropped (no boundary can start in
 * them). */
static int search(struct ctx *x, uint32_t *at)
{
    struct tr__dir *d = &x->k->d[x->di];
    uint32_t i = 0;

    while (i + 4 + HDR_MIN <= d->scan_len) {
        uint32_t len, end, len2, avail = d->scan_len - i - 4;
        int certain;
        if (!mark_ok(d->scan + i, &len) ||
            !tr__rpc_plausible(d->scan + i + 4, avail < len ? avail : len)) {
            i++;
            continue;
        }
        end = i + 4 + len;
        if (end > d->scan_len || (end < d->scan_len && end + 4 + HDR_MIN > d->scan_len))
            break; /* it could be: wait for the bytes that tell */
        certain = end == d->scan_len;
        if (!certain) {
            avail = d->scan_len - end - 4;
            certain = mark_ok(d->scan + end, &len2) &&
                      tr__rpc_plausible(d->scan + end + 4, avail < len2 ? avail : len2);
        }
        if (certain) {
            *at = i;
            return 1;
        }
        i++;
    }
    *at = i;
    return 0;
}

/* Drops the scan buffer's first n bytes (and the pieces they were). */
static void scan_drop(struct tr__dir *d, uint32_t n)
{
    unsigned i, k = 0;

    memmove(d->scan, d->scan + n, d->scan_len - n);
    d->scan_len -= n;
    for (i = 0; i < d->npieces; i++)
        if (d->pieces[i].end > n) {
            d->pieces[k] = d->pieces[i];
            d->pieces[k++].end -= n;
        }
    d->npieces = k;
}

/* Frames the scan buffer from its start, a known boundary, piece by piece
 * so that each record gets the frame its bytes came in.  Returns how many
 * bytes it consumed (fewer than all when the framing was lost again). */
static int64_t scan_frame(struct ctx *x)
{
    struct tr__dir *d = &x->k->d[x->di];
    struct tr__cap *c = x->r->cap;
    struct tr__piece pc[TR__SCAN_PIECES];
    uint8_t *buf = d->scan;
    uint32_t len = d->scan_len, cap = d->scan_cap, pos = 0;
    uint64_t where = d->where;
    int64_t t = d->t, used = 0;
    unsigned np = d->npieces, k;

    memcpy(pc, d->pieces, sizeof(pc));
    /* the framing works on its own: losing sync empties the scan buffer */
    d->scan = NULL;
    d->scan_len = d->scan_cap = 0;
    d->npieces = 0;
    for (k = 0; k < np && d->sync && pos < len; k++) {
        uint32_t end = pc[k].end < len ? pc[k].end : len;
        if (end <= pos)
            continue;
        d->where = pc[k].where;
        d->t = pc[k].t;
        used = frame_sync(x, buf + pos, end - pos, end - pos);
        if (used < 0)
            break;
        pos += (uint32_t)used;
        if (pos < end)
            break; /* lost again inside this piece */
    }
    d->where = where;
    d->t = t;
    if (used < 0 || pos == len) {
        mem_give(c, cap);
        free(buf);
        return used < 0 ? used : (int64_t)len;
    }
    /* lost again inside: the rest is searched anew */
    mem_give(c, d->scan_cap);
    free(d->scan);
    d->scan = buf;
    d->scan_cap = cap;
    d->scan_len = len;
    memcpy(d->pieces, pc, sizeof(pc));
    d->npieces = np;
    scan_drop(d, pos);
    return pos;
}

/* Bytes p[0..n), all captured, while the framing is lost: kept until a
 * certain boundary shows, then framed from it (again and again, as long as
 * the framing is lost anew inside them). */
static int resync_feed(struct ctx *x, const uint8_t *p, uint32_t n)
{
    struct tr__dir *d = &x->k->d[x->di];
    struct tr__cap *c = x->r->cap;
    uint32_t at;
    int g = grow(c, &d->scan, &d->scan_cap, d->scan_len + n);

    if (g < 0)
        return g;
    if (!g) {
        x->r->cnt[TR__C_TCP_SKIPPED] += d->scan_len + n;
        d->scan_len = 0;
        d->npieces = 0;
        return 0;
    }
    memcpy(d->scan + d->scan_len, p, n);
    d->scan_len += n;
    if (d->npieces == TR__SCAN_PIECES) {
        /* the oldest piece joins the next: its bytes get that frame */
        memmove(d->pieces, d->pieces + 1, (TR__SCAN_PIECES - 1) * sizeof(d->pieces[0]));
        d->npieces--;
    }
    d->pieces[d->npieces].end = d->scan_len;
    d->pieces[d->npieces].where = d->where;
    d->pieces[d->npieces++].t = d->t;
    for (;;) {
        int found = search(x, &at);
        int64_t used;
        x->r->cnt[TR__C_TCP_SKIPPED] += at;
        scan_drop(d, at);
        if (!found)
            break;
        x->r->cnt[TR__C_TCP_RESYNCS]++;
        d->sync = 1;
        used = scan_frame(x);
        if (used < 0)
            return (int)used;
        if (!d->scan_len)
            return 0;
    }
    if (d->scan_len > SCAN_MAX) {
        uint32_t drop = d->scan_len - SCAN_MAX;
        x->r->cnt[TR__C_TCP_SKIPPED] += drop;
        scan_drop(d, drop);
    }
    return 0;
}

/* Frames a run of in-order bytes p[0..cap) of len (the rest not captured),
 * in sync or searching. */
static int frame(struct ctx *x, const uint8_t *p, uint64_t cap, uint64_t len)
{
    struct tr__dir *d = &x->k->d[x->di];
    uint64_t pos = 0;
    int rc;

    while (pos < len) {
        if (d->sync) {
            int64_t used =
                frame_sync(x, p ? p + pos : NULL, cap > pos ? cap - pos : 0, len - pos);
            if (used < 0)
                return (int)used;
            pos += (uint64_t)used;
            continue;
        }
        if (pos < cap) {
            rc = resync_feed(x, p + pos, (uint32_t)(cap - pos));
            if (rc < 0)
                return rc;
            pos = cap;
            continue;
        }
        /* not captured and no framing: nothing can be told from it (its
         * bytes are the gap's, counted there; the ones searched are
         * skipped) */
        x->r->cnt[TR__C_TCP_SKIPPED] += d->scan_len;
        d->scan_len = 0;
        d->npieces = 0;
        break;
    }
    return 0;
}

/* ---- stream reassembly -------------------------------------------------------- */

/* Delivers in-order bytes: data[0..cap) of len at stream offset d->next. */
static int deliver(struct ctx *x, const uint8_t *data, uint64_t cap, uint64_t len)
{
    struct tr__dir *d = &x->k->d[x->di];

    d->next += len;
    return frame(x, data, cap, len);
}

/* Delivers the waiting segments that have become in order. */
static int drain(struct ctx *x, int after_gap)
{
    struct tr__dir *d = &x->k->d[x->di];
    struct tr__cap *c = x->r->cap;
    int rc = 0;

    while (d->ooo && d->ooo->off <= d->next && rc == 0) {
        struct tr__seg *s = d->ooo;
        uint64_t skip = d->next - s->off;
        d->ooo = s->next;
        d->ooo_n--;
        d->ooo_bytes -= s->caplen;
        if (skip < s->len) {
            uint64_t w = d->where;
            int64_t t = d->t;
            if (skip)
                x->r->cnt[TR__C_TCP_OVERLAPS]++;
            if (after_gap) {
                /* a hole declared a gap: the bytes are their own frame's
                 * (filled holes complete in the frame that filled them) */
                d->where = s->where;
                d->t = s->t;
            }
            rc = deliver(x, s->data + (skip < s->caplen ? skip : s->caplen),
                         skip < s->caplen ? s->caplen - skip : 0, s->len - skip);
            d->where = w;
            d->t = t;
        } else {
            x->r->cnt[TR__C_TCP_RETRANS]++;
        }
        mem_give(c, sizeof(*s) + s->caplen);
        free(s);
    }
    if (!d->ooo)
        d->ooo_since = 0;
    return rc;
}

/* Declares the hole before the first waiting segment a gap. */
static int gap(struct ctx *x)
{
    struct tr__dir *d = &x->k->d[x->di];
    uint64_t n;
    int rc;

    if (!d->ooo)
        return 0;
    n = d->ooo->off - d->next;
    x->r->cnt[TR__C_TCP_GAPS]++;
    x->r->cnt[TR__C_TCP_GAP_BYTES] += n;
    rc = deliver(x, NULL, 0, n);
    return rc < 0 ? rc : drain(x, 1);
}

static int hold(struct ctx *x, uint64_t off, const uint8_t *data, uint32_t cap,
                uint32_t len)
{
    struct tr__dir *d = &x->k->d[x->di];
    struct tr__cap *c = x->r->cap;
    struct tr__seg *s, **pp;

    x->r->cnt[TR__C_TCP_OUT_OF_ORDER]++;
    if (!mem_take(c, sizeof(*s) + cap))
        return gap(x) < 0 ? -ENOMEM : 0;
    s = cm_malloc(sizeof(*s) + cap);
    if (!s) {
        mem_give(c, sizeof(*s) + cap);
        return -ENOMEM;
    }
    s->off = off;
    s->len = len;
    s->caplen = cap;
    s->where = d->where;
    s->t = d->t;
    memcpy(s->data, data, cap);
    for (pp = &d->ooo; *pp && (*pp)->off <= off; pp = &(*pp)->next)
        ;
    s->next = *pp;
    *pp = s;
    d->ooo_n++;
    d->ooo_bytes += cap;
    if (!d->ooo_since)
        d->ooo_since = d->t ? d->t : 1;
    return 0;
}

static int segment(struct ctx *x, uint32_t seq, const uint8_t *data, uint32_t cap,
                   uint32_t len)
{
    struct tr__dir *d = &x->k->d[x->di];
    uint64_t off;
    int rc;

    if (!d->based) {
        d->based = 1;
        d->base = seq; /* a stream whose start was not captured */
        d->next = 0;
    }
    off = d->next + (uint64_t)(int64_t)(int32_t)(seq - (uint32_t)(d->base + d->next));
    if ((int64_t)off < 0 || off + len <= d->next) {
        x->r->cnt[TR__C_TCP_RETRANS]++;
        return 0;
    }
    if (off < d->next) {
        uint32_t skip = (uint32_t)(d->next - off);
        x->r->cnt[TR__C_TCP_OVERLAPS]++;
        data += skip < cap ? skip : cap;
        cap = skip < cap ? cap - skip : 0;
        len -= skip;
        off = d->next;
    }
    if (off == d->next) {
        rc = deliver(x, data, cap, len);
        return rc < 0 ? rc : drain(x, 0);
    }
    rc = hold(x, off, data, cap, len);
    if (rc < 0)
        return rc;
    if (d->ooo_bytes > TR__OOO_MAX || d->ooo_n > 4096 ||
        (d->ooo_since && d->t - d->ooo_since > TR__GAP_WAIT))
        return gap(x);
    return 0;
}

/* ---- connections -------------------------------------------------------------- */

static int ep_cmp(const struct tr__ep *a, const struct tr__ep *b)
{
    int c = memcmp(a->a, b->a, 16);

    if (c)
        return c;
    if (a->fam != b->fam)
        return a->fam < b->fam ? -1 : 1;
    return a->port < b->port ? -1 : a->port > b->port;
}

static uint32_t conn_hash(const struct tr__ep *a, const struct tr__ep *b)
{
    const struct tr__ep *lo = ep_cmp(a, b) <= 0 ? a : b, *hi = lo == a ? b : a;
    uint64_t h = 0xcbf29ce484222325ull;
    unsigned i;

    for (i = 0; i < 16; i++)
        h = (h ^ lo->a[i] ^ ((uint64_t)hi->a[i] << 8)) * 0x100000001b3ull;
    h ^= (uint64_t)lo->port << 16 | hi->port;
    h *= 0x100000001b3ull;
    return (uint32_t)(h ^ h >> 32);
}

static int same_pair(const struct tr__conn *k, const struct tr__ep *s,
                     const struct tr__ep *d, int *di)
{
    if (!ep_cmp(&k->a, s) && !ep_cmp(&k->b, d)) {
        *di = 0;
        return 1;
    }
    if (!ep_cmp(&k->a, d) && !ep_cmp(&k->b, s)) {
        *di = 1;
        return 1;
    }
    return 0;
}

static int chash_grow(struct tr__cap *c)
{
    uint32_t cap = c->chash_cap ? c->chash_cap * 2 : 256, i;
    uint32_t *h = cm_calloc(cap, sizeof(*h));

    if (!h)
        return -ENOMEM;
    for (i = 0; i < c->nconns; i++) {
        struct tr__conn *k = c->conns[i];
        uint32_t j = conn_hash(&k->a, &k->b) & (cap - 1);
        k->hnext = h[j];
        h[j] = i + 1;
    }
    free(c->chash);
    c->chash = h;
    c->chash_cap = cap;
    return 0;
}

/* Ends a connection: what waits becomes gaps, a record in progress is cut. */
static int conn_end(struct tr_nfs_reader *r, struct tr__conn *k)
{
    int di, rc = 0;

    for (di = 0; di < 2 && rc == 0; di++) {
        struct ctx x = {r, k, di};
        struct tr__dir *d = &k->d[di];
        while (d->ooo && rc == 0)
            rc = gap(&x);
        if (rc == 0 && d->sync && (d->in_frag || d->rec_wire) && d->rec_kept) {
            /* the capture (or connection) ended inside a record: what came of
             * it, as cut */
            d->rec_cut = 1;
            d->rec_wire += d->frag_left;
            rc = record(&x);
        }
        dir_free(r->cap, d);
    }
    k->closed = 1;
    return rc;
}

static void conn_unhash(struct tr__cap *c, uint32_t slot)
{
    struct tr__conn *k = c->conns[slot];
    uint32_t *pp = &c->chash[conn_hash(&k->a, &k->b) & (c->chash_cap - 1)];

    while (*pp) {
        if (*pp == slot + 1) {
            *pp = k->hnext;
            return;
        }
        pp = &c->conns[*pp - 1]->hnext;
    }
}

/* A slot for a new connection: a free one, a new one, or past
 * TR__CONNS_MAX the one idle longest (ended, counted). */
static int conn_slot(struct tr_nfs_reader *r, uint32_t *slot)
{
    struct tr__cap *c = r->cap;
    uint32_t i, best = 0;
    int rc;

    for (i = 0; i < c->nconns; i++)
        if (c->conns[i]->closed &&
            r->cap->last_t - c->conns[i]->last_t > r->opt.pair_window_ns)
            break;
    if (i == c->nconns && c->nconns >= TR__CONNS_MAX) {
        for (i = 1; i < c->nconns; i++)
            if (c->conns[i]->last_t < c->conns[best]->last_t)
                best = i;
        i = best;
        if (!c->conns[i]->closed) {
            r->cnt[TR__C_TCP_CONNS_DROPPED]++;
            rc = conn_end(r, c->conns[i]);
            if (rc < 0)
                return rc;
        }
    }
    if (i < c->nconns) {
        conn_unhash(c, i);
        *slot = i;
        return 0;
    }
    if (c->nconns == c->conns_cap) {
        uint32_t cap = c->conns_cap ? c->conns_cap * 2 : 64;
        struct tr__conn **v = cm_reallocarray(c->conns, cap, sizeof(*v));
        if (!v)
            return -ENOMEM;
        c->conns = v;
        c->conns_cap = cap;
    }
    c->conns[c->nconns] = cm_calloc(1, sizeof(struct tr__conn));
    if (!c->conns[c->nconns])
        return -ENOMEM;
    *slot = c->nconns++;
    return 0;
}

static int conn_find(struct tr_nfs_reader *r, const struct tr__ep *s,
                     const struct tr__ep *d, int syn, uint32_t seq, struct tr__conn **out,
                     int *di)
{
    struct tr__cap *c = r->cap;
    uint32_t k, slot;
    int rc;

    if ((c->nconns + 1) * 2 > c->chash_cap && chash_grow(c) < 0)
        return -ENOMEM;
    for (k = c->chash[conn_hash(s, d) & (c->chash_cap - 1)]; k;
         k = c->conns[k - 1]->hnext) {
        struct tr__conn *kk = c->conns[k - 1];
        if (!same_pair(kk, s, d, di))
            continue;
        /* a SYN that is not this connection's (its first): a new one */
        if (syn && (kk->closed || (kk->d[*di].based && kk->d[*di].base != seq + 1))) {
            if (!kk->closed) {
                rc = conn_end(r, kk);
                if (rc < 0)
                    return rc;
            }
            break;
        }
        *out = kk;
        return 0;
    }
    rc = conn_slot(r, &slot);
    if (rc < 0)
        return rc;
    *out = c->conns[slot];
    /* a reused slot: bytes that came after its connection ended */
    dir_free(c, &(*out)->d[0]);
    dir_free(c, &(*out)->d[1]);
    memset(*out, 0, sizeof(**out));
    (*out)->a = *s;
    (*out)->b = *d;
    (*out)->index = c->next_conn_index++;
    *di = 0;
    k = conn_hash(s, d) & (c->chash_cap - 1);
    (*out)->hnext = c->chash[k];
    c->chash[k] = slot + 1;
    r->cnt[TR__C_TCP_CONNS]++;
    return 0;
}

int tr__tcp_segment(struct tr_nfs_reader *r, const struct tr__ep *src,
                    const struct tr__ep *dst, const uint8_t *tcp, size_t caplen,
                    size_t wire)
{
    struct tr__ep s = *src, d = *dst;
    struct tr__conn *k;
    struct tr__dir *dd;
    struct ctx x;
    size_t hl;
    uint32_t seq;
    uint8_t fl;
    int di, rc;

    if (caplen < 20 || (hl = (size_t)(tcp[12] >> 4) * 4) < 20 || caplen < hl ||
        wire < hl) {
        r->cnt[TR__C_SHORT_PACKETS]++;
        return 0;
    }
    s.port = cm_be16_get(tcp);
    d.port = cm_be16_get(tcp + 2);
    seq = cm_be32_get(tcp + 4);
    fl = tcp[13];
    rc = conn_find(r, &s, &d, (fl & TH_SYN) != 0, seq, &k, &di);
    if (rc < 0)
        return rc;
    k->last_t = r->cap->last_t;
    dd = &k->d[di];
    dd->t = r->cap->last_t;
    dd->where = r->cap->frame;
    x.r = r;
    x.k = k;
    x.di = di;
    if (fl & TH_SYN) {
        if (!dd->based) {
            dd->based = 1;
            dd->base = seq + 1;
            dd->next = 0;
            dd->sync = 1;
        }
        seq++;
    }
    if (wire > hl) {
        rc = segment(&x, seq, tcp + hl, (uint32_t)(caplen - hl), (uint32_t)(wire - hl));
        if (rc < 0)
            return rc;
    }
    for (di = 0; di < 2; di++) {
        /* a hole waiting too long in either direction becomes a gap */
        struct ctx y = {r, k, di};
        struct tr__dir *w = &k->d[di];
        if (w->ooo && w->ooo_since && r->cap->last_t - w->ooo_since > TR__GAP_WAIT) {
            rc = gap(&y);
            if (rc < 0)
                return rc;
        }
    }
    if (fl & TH_RST)
        return conn_end(r, k);
    if (fl & TH_FIN) {
        dd->fin = 1;
        if (k->d[!di].fin)
            return conn_end(r, k); /* both sides are done */
    }
    return 0;
}

int tr__tcp_flush(struct tr_nfs_reader *r)
{
    struct tr__cap *c = r->cap;
    uint32_t i;
    int rc;

    for (i = 0; i < c->nconns; i++)
        if (!c->conns[i]->closed && (rc = conn_end(r, c->conns[i])) < 0)
            return rc;
    return 0;
}

void tr__tcp_free(struct tr__cap *c)
{
    uint32_t i;

    for (i = 0; i < c->nconns; i++) {
        dir_free(c, &c->conns[i]->d[0]);
        dir_free(c, &c->conns[i]->d[1]);
        free(c->conns[i]);
    }
    free(c->conns);
    free(c->chash);
    c->conns = NULL;
    c->chash = NULL;
    c->nconns = 0;
}
