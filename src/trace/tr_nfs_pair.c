/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_pair.c - pairing NFS calls with their replies, shared by the
 * capture and the nfsdump readers.  A call opens a slot keyed by (client
 * address and port, transport, TCP connection, XID) and joins a queue in
 * call order; its reply, found by the same key, completes it.  Events leave
 * from the head of the queue only, so they come out in call order: the
 * head goes once it is answered, once the trace has moved a window past it
 * (unanswered), when more than max_pending calls are held (released early,
 * counted), or at the end.  Memory is the slots of one window; slots and
 * their string arenas are reused.
 *
 * A compact memory of recent keys (hash and time, for one window) tells a
 * call sent again after its reply (a retransmission, dropped and counted)
 * and a reply seen twice (a duplicate) from new traffic, and lets the
 * replies of NFSv4 and other programs' calls be counted as theirs.  It
 * holds 64-bit hashes of the keys, so its table stays small; past
 * RECENT_MAX live keys it is cleared and the reset counted.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "trace/tr_nfs_int.h"

#define RECENT_MAX     (1u << 21)
#define ARENA_KEEP     (64u * 1024)
#define ENTS_KEEP      256u
#define OPS4_KEEP      16u
#define BUCKETS_MIN    1024u
#define RECENT_MIN_CAP 1024u

/* ---- keys ------------------------------------------------------------------ */

static uint64_t mix64(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

uint64_t tr__pair_key(const struct tr__ep *cli, enum tr_nfs_transport t, uint32_t conn,
                      uint32_t xid)
{
    uint64_t a, b;

    memcpy(&a, cli->a, 8);
    memcpy(&b, cli->a + 8, 8);
    a = mix64(a ^ ((uint64_t)cli->fam << 56 | (uint64_t)cli->len << 48 |
                   (uint64_t)cli->port << 32 | xid));
    b = mix64(b ^ a ^ ((uint64_t)conn << 1 | (uint64_t)t));
    return b | 1; /* 0 marks an empty recent-table cell */
}

static int same_key(const struct tr__slot *s, const struct tr__ep *cli,
                    enum tr_nfs_transport t, uint32_t conn, uint32_t xid)
{
    return s->ev.xid == xid && s->ev.conn == conn && s->ev.transport == t &&
           s->cli.port == cli->port && s->cli.fam == cli->fam && s->cli.len == cli->len &&
           memcmp(s->cli.a, cli->a, 16) == 0;
}

/* ---- the recent-key memory ------------------------------------------------ */

static int recent_live(const struct tr__pair *p, const struct tr__recent *e)
{
    return e->h && p->now - e->t <= p->window_ns;
}

static struct tr__recent *recent_find(struct tr__pair *p, uint64_t h)
{
    uint32_t j;

    if (!p->recent_cap)
        return NULL;
    j = (uint32_t)h & (p->recent_cap - 1);
    while (p->recent[j].h) {
        if (p->recent[j].h == h)
            return recent_live(p, &p->recent[j]) ? &p->recent[j] : NULL;
        j = (j + 1) & (p->recent_cap - 1);
    }
    return NULL;
}

/* Rebuilds the table with its live keys only, in a table four times their
 * number (or clears it past RECENT_MAX). */
static int recent_rebuild(struct tr_nfs_reader *r)
{
    struct tr__pair *p = &r->pair;
    uint32_t live = 0, cap = RECENT_MIN_CAP, i;
    struct tr__recent *t;

    for (i = 0; i < p->recent_cap; i++)
        live += recent_live(p, &p->recent[i]) ? 1 : 0;
    if (live > RECENT_MAX / 4) {
        r->cnt[TR__C_DUP_FORGOTTEN]++;
        live = 0;
    }
    while (cap < live * 4)
        cap *= 2;
    t = cm_calloc(cap, sizeof(*t));
    if (!t)
        return -ENOMEM;
    for (i = 0; live && i < p->recent_cap; i++) {
        const struct tr__recent *e = &p->recent[i];
        uint32_t j;
        if (!recent_live(p, e))
            continue;
        j = (uint32_t)e->h & (cap - 1);
        while (t[j].h)
            j = (j + 1) & (cap - 1);
        t[j] = *e;
    }
    free(p->recent);
    p->recent = t;
    p->recent_cap = cap;
    p->recent_used = live;
    return 0;
}

static int recent_add(struct tr_nfs_reader *r, uint64_t h, int64_t t, uint32_t kind)
{
    struct tr__pair *p = &r->pair;
    uint32_t j;

    if ((p->recent_used + 1) * 2 > p->recent_cap && recent_rebuild(r) < 0)
        return -ENOMEM;
    j = (uint32_t)h & (p->recent_cap - 1);
    while (p->recent[j].h && p->recent[j].h != h)
        j = (j + 1) & (p->recent_cap - 1);
    if (!p->recent[j].h)
        p->recent_used++;
    p->recent[j].h = h;
    p->recent[j].t = t;
    p->recent[j].kind = kind;
    return 0;
}

/* ---- slots ----------------------------------------------------------------- */

int tr__pair_init(struct tr__pair *p, int64_t window_ns, uint32_t max_pending)
{
    memset(p, 0, sizeof(*p));
    p->window_ns = window_ns;
    p->max_pending = max_pending;
    p->nbuckets = BUCKETS_MIN;
    p->bucket = cm_calloc(p->nbuckets, sizeof(*p->bucket));
    p->now = INT64_MIN / 2;
    p->released_t = INT64_MIN;
    return p->bucket ? 0 : -ENOMEM;
}

void tr__pair_free(struct tr__pair *p)
{
    uint32_t i;

    for (i = 0; i < p->nslots; i++) {
        free(p->slots[i]->arena);
        free(p->slots[i]->ents);
        free(p->slots[i]->ent_off);
        free(p->slots[i]->ops4);
        free(p->slots[i]->ops4x);
        free(p->slots[i]);
    }
    free(p->slots);
    free(p->bucket);
    free(p->recent);
    memset(p, 0, sizeof(*p));
}

static void slot_free(struct tr__pair *p, struct tr__slot *s)
{
    if (s->acap > ARENA_KEEP) {
        free(s->arena);
        s->arena = NULL;
        s->acap = 0;
    }
    if (s->ent_cap > ENTS_KEEP) {
        free(s->ents);
        free(s->ent_off);
        s->ents = NULL;
        s->ent_off = NULL;
        s->ent_cap = 0;
    }
    if (s->ops4_cap > OPS4_KEEP) {
        free(s->ops4);
        free(s->ops4x);
        s->ops4 = NULL;
        s->ops4x = NULL;
        s->ops4_cap = 0;
    }
    s->qnext = p->free_head;
    p->free_head = s->idx + 1;
}

static struct tr__slot *slot_get(struct tr__pair *p)
{
    struct tr__slot *s;

    if (p->free_head) {
        s = p->slots[p->free_head - 1];
        p->free_head = s->qnext;
        return s;
    }
    if (p->nslots == p->slots_cap) {
        uint32_t cap = p->slots_cap ? p->slots_cap * 2 : 64;
        struct tr__slot **v = cm_reallocarray(p->slots, cap, sizeof(*v));
        if (!v)
            return NULL;
        p->slots = v;
        p->slots_cap = cap;
    }
    s = cm_calloc(1, sizeof(*s));
    if (!s)
        return NULL;
    s->idx = p->nslots;
    p->slots[p->nslots++] = s;
    return s;
}

/* Grows the hash when it holds more slots than buckets. */
static int buckets_grow(struct tr__pair *p)
{
    uint32_t n = p->nbuckets * 2, i;
    uint32_t *b = cm_calloc(n, sizeof(*b));

    if (!b)
        return -ENOMEM;
    for (i = 0; i < p->nbuckets; i++) {
        uint32_t k = p->bucket[i];
        while (k) {
            struct tr__slot *s = p->slots[k - 1];
            uint32_t next = s->hnext, j = (uint32_t)s->keyhash & (n - 1);
            s->hnext = b[j];
            b[j] = k;
            k = next;
        }
    }
    free(p->bucket);
    p->bucket = b;
    p->nbuckets = n;
    return 0;
}

static struct tr__slot *find(struct tr__pair *p, uint64_t h, const struct tr__ep *cli,
                             enum tr_nfs_transport t, uint32_t conn, uint32_t xid)
{
    uint32_t k = p->bucket[(uint32_t)h & (p->nbuckets - 1)];

    while (k) {
        struct tr__slot *s = p->slots[k - 1];
        if (s->keyhash == h && same_key(s, cli, t, conn, xid))
            return s;
        k = s->hnext;
    }
    return NULL;
}

static void unhash(struct tr__pair *p, struct tr__slot *s)
{
    uint32_t *k = &p->bucket[(uint32_t)s->keyhash & (p->nbuckets - 1)];

    while (*k) {
        if (*k == s->idx + 1) {
            *k = s->hnext;
            return;
        }
        k = &p->slots[*k - 1]->hnext;
    }
}

void tr__pair_time(struct tr_nfs_reader *r, int64_t t_ns)
{
    if (t_ns > r->pair.now)
        r->pair.now = t_ns;
}

struct tr__slot *tr__pair_call(struct tr_nfs_reader *r, const struct tr__msg *m,
                               uint32_t prog, uint32_t vers, uint32_t proc, int *rc)
{
    struct tr__pair *p = &r->pair;
    uint64_t h = tr__pair_key(&m->src, m->transport, m->conn, m->xid);
    const struct nf_proc *row = tr__proc_row(prog, vers, proc);
    struct tr__slot *s;
    struct tr__recent *e;

    *rc = 0;
    tr__pair_time(r, m->t_ns);
    s = find(p, h, &m->src, m->transport, m->conn, m->xid);
    if (s) {
        if (!s->dead) {
            /* a copy after the reply (the event not yet released) is not
             * the event's retransmission: it is dropped like a later one */
            if (s->answered)
                r->cnt[TR__C_RETRANS_AFTER]++;
            else
                s->ev.flags |= TR_NFS_F_RETRANS;
            r->cnt[TR__C_RETRANS]++;
        }
        return NULL;
    }
    e = recent_find(p, h);
    if (e && e->kind == TR__RECENT_DONE) {
        r->cnt[TR__C_RETRANS]++;
        r->cnt[TR__C_RETRANS_AFTER]++;
        return NULL;
    }
    if (p->npending >= p->nbuckets && buckets_grow(p) < 0) {
        *rc = -ENOMEM;
        return NULL;
    }
    s = slot_get(p);
    if (!s) {
        *rc = -ENOMEM;
        return NULL;
    }
    memset(&s->ev, 0, sizeof(s->ev));
    s->ev.prog = prog;
    s->ev.vers = vers;
    s->ev.proc = proc;
    s->ev.op = row ? row->op : prog == TR_NFS_PROG_MOUNT ? NF_OP_MOUNT : TR_NFS_OP_NFSV4;
    s->ev.xid = m->xid;
    s->ev.transport = m->transport;
    s->ev.conn = m->conn;
    s->ev.client_port = m->src.port;
    s->ev.server_port = m->dst.port;
    s->ev.where = m->where;
    s->cli = m->src;
    s->srv = m->dst;
    s->t_abs = m->t_ns;
    s->reply_t_abs = 0;
    s->keyhash = h;
    s->answered = 0;
    s->dead = 0;
    s->alen = 0;
    s->nents = 0;
    memset(&s->c4, 0, sizeof(s->c4));
    s->tag_off = TR__NOSTR;
    s->soff[TR__S_NAME] = s->soff[TR__S_NAME2] = s->soff[TR__S_TEXT] = TR__NOSTR;
    s->hnext = p->bucket[(uint32_t)h & (p->nbuckets - 1)];
    p->bucket[(uint32_t)h & (p->nbuckets - 1)] = s->idx + 1;
    s->qnext = 0;
    if (p->qtail)
        p->slots[p->qtail - 1]->qnext = s->idx + 1;
    else
        p->qhead = s->idx + 1;
    p->qtail = s->idx + 1;
    p->npending++;
    return s;
}

int tr__pair_foreign_call(struct tr_nfs_reader *r, const struct tr__msg *m, uint32_t kind)
{
    uint64_t h = tr__pair_key(&m->src, m->transport, m->conn, m->xid);
    struct tr__recent *e;

    tr__pair_time(r, m->t_ns);
    e = recent_find(&r->pair, h);
    if (e && e->kind == kind)
        return 0;
    return recent_add(r, h, m->t_ns, kind) < 0 ? -ENOMEM : 1;
}

struct tr__slot *tr__pair_reply(struct tr_nfs_reader *r, const struct tr__msg *m,
                                uint32_t *kind)
{
    struct tr__pair *p = &r->pair;
    uint64_t h = tr__pair_key(&m->dst, m->transport, m->conn, m->xid);
    struct tr__slot *s;
    struct tr__recent *e;

    tr__pair_time(r, m->t_ns);
    *kind = 0;
    s = find(p, h, &m->dst, m->transport, m->conn, m->xid);
    if (s) {
        if (s->dead) {
            *kind = TR__RECENT_DEAD;
            return NULL;
        }
        if (s->answered) {
            *kind = TR__RECENT_DONE;
            return NULL;
        }
        s->answered = 1;
        s->reply_t_abs = m->t_ns;
        s->ev.flags |= TR_NFS_F_REPLY;
        s->ev.reply_where = m->where;
        return s;
    }
    e = recent_find(p, h);
    if (e)
        *kind = e->kind;
    return NULL;
}

void tr__pair_drop(struct tr_nfs_reader *r, struct tr__slot *s)
{
    (void)r;
    s->dead = 1; /* freed when it reaches the head; its reply is absorbed */
}

/* ---- releasing ---------------------------------------------------------------- */

static const char *arena_str(const struct tr__slot *s, int which)
{
    return s->soff[which] == TR__NOSTR ? NULL : s->arena + s->soff[which];
}

int tr__pair_next(struct tr_nfs_reader *r, int at_end, struct tr_nfs_event *ev)
{
    struct tr__pair *p = &r->pair;
    struct tr__slot *s;
    uint32_t i;
    int rc, early = 0, v4;

    if (p->released) {
        slot_free(p, p->slots[p->released - 1]);
        p->released = 0;
    }
    for (;;) {
        if (!p->qhead)
            return 0;
        s = p->slots[p->qhead - 1];
        if (!s->dead && !s->answered && !at_end && p->now - s->t_abs <= p->window_ns) {
            if (p->npending <= p->max_pending)
                return 0;
            early = 1;
        }
        p->qhead = s->qnext;
        if (!p->qhead)
            p->qtail = 0;
        p->npending--;
        unhash(p, s);
        if (s->dead) {
            /* no event; its reply, if it comes later, is absorbed */
            rc = recent_add(r, s->keyhash, s->t_abs, TR__RECENT_DEAD);
            slot_free(p, s);
            if (rc < 0)
                return -ENOMEM;
            continue;
        }
        break;
    }
    if (early)
        r->cnt[TR__C_EARLY]++;
    /* NFSv4 events count as NFSv4's (nfsv4_calls, nfsv4_replies), as they
     * do when they are not events: calls, replies and unanswered_calls
     * stay NFSv2/v3's and MOUNT's */
    v4 = s->ev.vers == 4 && s->ev.prog == TR_NFS_PROG_NFS;
    if (!v4)
        r->cnt[TR__C_CALLS]++;
    if (s->answered) {
        r->cnt[v4 ? TR__C_NFSV4_REPLIES : TR__C_REPLIES]++;
        if (recent_add(r, s->keyhash, s->t_abs, TR__RECENT_DONE) < 0) {
            slot_free(p, s);
            return -ENOMEM;
        }
    } else if (!v4) {
        r->cnt[TR__C_UNANSWERED]++;
    }
    rc = tr__host_index(&r->hosts, &s->cli, &s->ev.client);
    if (rc == 0)
        rc = tr__host_index(&r->hosts, &s->srv, &s->ev.server);
    if (rc < 0) {
        slot_free(p, s);
        return rc;
    }
    /* Events leave in call order with times that never step back: a call
     * stamped before the event handed out last (a capture whose stamps
     * step back, counted as time_backwards) moves to that time and its
     * reply with it, so that its response time stays what the stamps say;
     * a reply stamped before its call is moved to the call. */
    s->ev.t_ns = s->t_abs;
    s->ev.reply_t_ns = s->reply_t_abs;
    if (p->released_t > s->ev.t_ns) {
        if (s->answered)
            s->ev.reply_t_ns += p->released_t - s->ev.t_ns;
        s->ev.t_ns = p->released_t;
    }
    if (s->answered && s->ev.reply_t_ns < s->ev.t_ns)
        s->ev.reply_t_ns = s->ev.t_ns;
    p->released_t = s->ev.t_ns;
    s->ev.name = arena_str(s, TR__S_NAME);
    s->ev.name2 = arena_str(s, TR__S_NAME2);
    s->ev.text = arena_str(s, TR__S_TEXT);
    for (i = 0; i < s->nents; i++)
        s->ents[i].name = s->arena + s->ent_off[i];
    if (s->ev.vers == 4 && s->ev.proc == 1) {
        tr__nfs4_finish(&r->roots, s); /* ev.v4; its entries are its READDIRs' */
    } else {
        s->ev.entries = s->nents ? s->ents : NULL;
        s->ev.nentries = s->nents;
    }
    *ev = s->ev;
    p->released = s->idx + 1;
    return 1;
}

/* ---- strings and entries -------------------------------------------------- */

static int arena_put(struct tr__slot *s, const char *str, size_t len, uint32_t *off)
{
    if ((size_t)s->alen + len + 1 > s->acap) {
        size_t cap = s->acap ? s->acap : 256;
        char *a;
        while (cap < (size_t)s->alen + len + 1)
            cap *= 2;
        if (cap > UINT32_MAX)
            return -ENOMEM;
        a = cm_realloc(s->arena, cap);
        if (!a)
            return -ENOMEM;
        s->arena = a;
        s->acap = (uint32_t)cap;
    }
    memcpy(s->arena + s->alen, str, len);
    s->arena[s->alen + len] = '\0';
    *off = s->alen;
    s->alen += (uint32_t)len + 1;
    return 0;
}

int tr__slot_str(struct tr__slot *s, int which, const char *str, size_t len)
{
    return arena_put(s, str, len, &s->soff[which]);
}

int tr__slot_put(struct tr__slot *s, const char *str, size_t len, uint32_t *off)
{
    return arena_put(s, str, len, off);
}

struct tr_nfs4_op *tr__slot_op4(struct tr__slot *s, int *rc)
{
    struct tr_nfs4_op *op;
    struct tr__op4x *x;
    uint32_t n = s->c4.nops;

    *rc = 0;
    if (n == TR_NFS4_OPS_MAX)
        return NULL;
    if (n == s->ops4_cap) {
        uint32_t cap = s->ops4_cap ? s->ops4_cap * 2 : 8;
        struct tr_nfs4_op *o = cm_reallocarray(s->ops4, cap, sizeof(*o));
        if (!o) {
            *rc = -ENOMEM;
            return NULL;
        }
        s->ops4 = o;
        x = cm_reallocarray(s->ops4x, cap, sizeof(*x));
        if (!x) {
            *rc = -ENOMEM;
            return NULL;
        }
        s->ops4x = x;
        s->ops4_cap = cap;
    }
    op = &s->ops4[n];
    memset(op, 0, sizeof(*op));
    x = &s->ops4x[n];
    x->soff[TR__S4_NAME] = x->soff[TR__S4_NAME2] = x->soff[TR__S4_TEXT] = TR__NOSTR;
    x->ent0 = s->nents;
    s->c4.nops = n + 1;
    return op;
}

struct tr_nfs_dirent *tr__slot_dirent(struct tr__slot *s, const char *name, size_t len,
                                      int *rc)
{
    struct tr_nfs_dirent *d;

    *rc = 0;
    if (s->nents == TR_NFS_ENTRIES_MAX)
        return NULL;
    if (s->nents == s->ent_cap) {
        uint32_t cap = s->ent_cap ? s->ent_cap * 2 : 32;
        struct tr_nfs_dirent *e = cm_reallocarray(s->ents, cap, sizeof(*e));
        uint32_t *o;
        if (!e) {
            *rc = -ENOMEM;
            return NULL;
        }
        s->ents = e;
        o = cm_reallocarray(s->ent_off, cap, sizeof(*o));
        if (!o) {
            *rc = -ENOMEM;
            return NULL;
        }
        s->ent_off = o;
        s->ent_cap = cap;
    }
    if (arena_put(s, name, len, &s->ent_off[s->nents]) < 0) {
        *rc = -ENOMEM;
        return NULL;
    }
    d = &s->ents[s->nents++];
    memset(d, 0, sizeof(*d));
    return d;
}
