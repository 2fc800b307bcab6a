/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plan.c - planning an NFS trace replay (nr.h): the first pass over the
 * capture builds the file-system image (image/im.h), the second turns each
 * call of the replay's NFS version into a struct nr_call with its
 * dependencies and writes it to the plan file (planfile.c), so that
 * nothing here grows with the trace's calls: the maps below grow with its
 * objects, names and hosts.  A capture given to the replay as it is gets a
 * plan of its own in an unlinked temporary file.
 *
 * Dependencies are kept per key - an object, or a directory and a name
 * (in an NFSv4 plan also an open owner and a stateid: plan4.c) - as (the last call on the
 * key, the last call that changed it, the reads since): a call that changes a key waits
 * for the last call on it and the reads since its last change (dep_on), a call that only
 * reads it for the last one that changed it.  A name's key also
 * reaches the object the name stands for at that point of the trace (so RMDIR of a
 * directory waits for the REMOVEs inside it), which the plan follows through LOOKUP,
 * CREATE, LINK, RENAME and REMOVE.  Name keys are 64-bit hashes: two names that collide
 * only add a dependency, never lose one.  A dependency NR_LOOKAHEAD calls back or more is
 * left out: the replay never holds that many calls open, so it has completed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/hist.h"
#include "common/error.h"
#include "common/atomic.h"
#include "common/alloc.h"
#include "image/im.h"
#include "nfs/nf_proto.h"
#include "nreplay/nr_int.h"

/* ---- a small hash of 64-bit keys -------------------------------------- */

/* The reads of a key since its last change kept apart (deps below): a
 * change waits for each of them. */
#define NR_READERS 4u

struct kv {
    uint64_t key; /* 0: empty */
    uint32_t a, b;
    uint32_t r[NR_READERS]; /* deps: the reads since the last change (NR_NONE) */
};

struct kmap {
    struct kv *slot;
    uint64_t mask, used;
};

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static int kmap_grow(struct kmap *m)
{
    uint64_t n = m->mask ? (m->mask + 1) * 2 : 1024, i, j;
    struct kv *s = cm_calloc(n, sizeof(*s));

    if (!s)
        return -ENOMEM;
    for (i = 0; m->mask && i <= m->mask; i++) {
        if (!m->slot[i].key)
            continue;
        for (j = mix64(m->slot[i].key) & (n - 1); s[j].key; j = (j + 1) & (n - 1))
            ;
        s[j] = m->slot[i];
    }
    free(m->slot);
    m->slot = s;
    m->mask = n - 1;
    return 0;
}

/* The entry of key, made (a = b = r[] = NR_NONE) when new; NULL when out
 * of memory. */
static struct kv *kmap_get(struct kmap *m, uint64_t key)
{
    uint64_t j;

    if ((m->used + 1) * 2 > m->mask + 1 && kmap_grow(m) < 0)
        return NULL;
    for (j = mix64(key) & m->mask; m->slot[j].key; j = (j + 1) & m->mask)
        if (m->slot[j].key == key)
            return &m->slot[j];
    m->slot[j].key = key;
    m->slot[j].a = m->slot[j].b = NR_NONE;
    for (unsigned k = 0; k < NR_READERS; k++)
        m->slot[j].r[k] = NR_NONE;
    m->used++;
    return &m->slot[j];
}

static uint64_t obj_key(uint32_t obj)
{
    return (uint64_t)obj + 1;
}

/* FNV-1a over the directory and the name, in the upper half of keys. */
static uint64_t name_key(uint32_t dir, const char *name)
{
    uint64_t h = 0xcbf29ce484222325ull;
    int i;

    for (i = 0; i < 4; i++)
        h = (h ^ ((dir >> (8 * i)) & 0xffu)) * 0x100000001b3ull;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 0x100000001b3ull;
    return h | (1ull << 63);
}

/* ---- the plan's state while building ----------------------------------- */

struct build {
    struct nr_plan *p;
    struct kmap deps;  /* key -> (last call, last call that changed it) */
    struct kmap names; /* name key -> (object, -) */
    struct kmap hosts; /* traced clients (the streams): hosts, NFSv4 clients */
    struct kmap named; /* (stream, object) -> the stream's last call whose
                          reply named the object; (NR_NONE, object) -> the
                          stream that named it first, + 1 */
    struct nr_call *c; /* the call being planned, number idx */
    uint32_t idx;
    int64_t origin;         /* the first planned call's time (-1: none yet) */
    struct nr__v4_state v4; /* an NFSv4 plan's traced stateids */
    struct nr__writer w;
};

/* The call waits for call `wait` (NR_NONE: none), kept as the distance
 * back. */
static void add_wait(struct build *b, uint32_t wait)
{
    uint32_t i, d;

    /* itself: a key the call names twice (RENAME in one directory) */
    if (wait == NR_NONE || wait >= b->idx)
        return;
    d = b->idx - wait;
    if (d >= NR_LOOKAHEAD) /* done before the call can be due */
        return;
    for (i = 0; i < NR_DEPS; i++) {
        if (b->c->dep[i] == d)
            return;
        if (b->c->dep[i] == 0) {
            b->c->dep[i] = d;
            return;
        }
    }
    if (d < b->c->dep[NR_DEPS - 1]) /* full: wait for the latest of them instead */
        b->c->dep[NR_DEPS - 1] = d;
}

/* The call waits for every read of e since its last change, now none. */
static void wait_readers(struct build *b, struct kv *e)
{
    unsigned k;

    for (k = 0; k < NR_READERS; k++) {
        add_wait(b, e->r[k]);
        e->r[k] = NR_NONE;
    }
}

/* A call depends on key: add the calls it waits for, then take the key.
 * A change waits for the last call on the key and for every read since
 * the last change: reads in flight together complete in any order (a
 * server with threads, e.g. ganesha, may answer the last first), so the
 * last alone does not say the others are done - a REMOVE sent once the
 * file's last GETATTR was answered made an earlier READ of it STALE.  A
 * read waits for the last change; past NR_READERS reads since it, one
 * more also waits for those and stands for them, so that a change waits
 * for a few calls, not for every read of a file read for long. */
static int dep_on(struct build *b, uint64_t key, int changes)
{
    struct kv *e = kmap_get(&b->deps, key);
    unsigned n;

    if (!e)
        return -ENOMEM;
    if (changes) {
        add_wait(b, e->a);
        wait_readers(b, e);
        e->a = e->b = b->idx;
        return 0;
    }
    add_wait(b, e->b);
    for (n = 0; n < NR_READERS && e->r[n] != NR_NONE && e->r[n] != b->idx; n++)
        ;
    if (n == NR_READERS) {
        wait_readers(b, e);
        n = 0;
    }
    e->r[n] = b->idx;
    e->a = b->idx;
    return 0;
}

static int dep_obj(struct build *b, uint32_t obj, int changes)
{
    return obj == NR_NONE ? 0 : dep_on(b, obj_key(obj), changes);
}

static uint64_t named_key(uint32_t stream, uint32_t obj)
{
    return ((uint64_t)stream << 32 | obj) + 1;
}

/* A call on an object another stream named first (made, or looked up)
 * waits for its own stream's last call whose reply named it: the traced
 * client learnt the handle there, and when another client host replays
 * the other stream, the handle on the server under test comes from that
 * reply too. */
static int dep_named(struct build *b, uint32_t obj)
{
    struct kv *first, *mine;

    if (obj == NR_NONE)
        return 0;
    first = kmap_get(&b->named, named_key(NR_NONE, obj));
    if (!first)
        return -ENOMEM;
    if (first->a == NR_NONE || first->a == b->c->stream + 1)
        return 0;
    mine = kmap_get(&b->named, named_key(b->c->stream, obj));
    if (!mine)
        return -ENOMEM;
    add_wait(b, mine->a);
    return 0;
}

/* The call's reply names res_obj: noted for its stream's later calls. */
static int named_by(struct build *b, const struct nr_call *c)
{
    struct kv *first, *mine;

    if (c->res_obj == NR_NONE)
        return 0;
    first = kmap_get(&b->named, named_key(NR_NONE, c->res_obj));
    mine = kmap_get(&b->named, named_key(c->stream, c->res_obj));
    if (!first || !mine)
        return -ENOMEM;
    if (first->a == NR_NONE)
        first->a = c->stream + 1;
    mine->a = b->idx;
    return 0;
}

/* The object a name stands for now (NR_NONE when unknown). */
static uint32_t name_obj(struct build *b, uint32_t dir, const char *name)
{
    struct kv *e;

    if (dir == NR_NONE || !name)
        return NR_NONE;
    e = kmap_get(&b->names, name_key(dir, name));
    return e ? e->a : NR_NONE;
}

static int name_set(struct build *b, uint32_t dir, const char *name, uint32_t obj)
{
    struct kv *e;

    if (dir == NR_NONE || !name)
        return 0;
    e = kmap_get(&b->names, name_key(dir, name));
    if (!e)
        return -ENOMEM;
    e->a = obj;
    return 0;
}

/* The names at the start, from the image's walk. */
static int start_name(void *data, const struct im_walk_item *w)
{
    struct build *b = data;
    char name[TR_NFS_NAME_MAX + 1];
    size_t n = w->name_len < TR_NFS_NAME_MAX ? w->name_len : TR_NFS_NAME_MAX;

    if (w->kind != IM_W_ENTRY && w->kind != IM_W_HARD_LINK)
        return 0;
    memcpy(name, w->name, n);
    name[n] = '\0';
    return name_set(b, w->dir, name, w->obj);
}

/* ---- calls ------------------------------------------------------------ */

/* Whether the op changes the object of its fh. */
static int changes_fh(int op)
{
    switch (op) {
    case NF_OP_SETATTR:
    case NF_OP_WRITE:
    case NF_OP_COMMIT:
    case NF_OP_CREATE:
    case NF_OP_MKDIR:
    case NF_OP_SYMLINK:
    case NF_OP_MKNOD:
    case NF_OP_REMOVE:
    case NF_OP_RMDIR:
    case NF_OP_RENAME:
    case NF_OP_LINK:
        return 1;
    default:
        return 0;
    }
}

static int creates(int op)
{
    return op == NF_OP_CREATE || op == NF_OP_MKDIR || op == NF_OP_SYMLINK ||
           op == NF_OP_MKNOD;
}

static void take_sattr(struct nr_call *c, const struct tr_nfs_attr *a)
{
    c->sattr = 0;
    if (a->have & TR_NFS_A_MODE) {
        c->sattr |= NF_SA_MODE;
        c->mode = a->mode & 07777;
    }
    if (a->have & TR_NFS_A_UID) {
        c->sattr |= NF_SA_UID;
        c->uid = a->uid;
    }
    if (a->have & TR_NFS_A_GID) {
        c->sattr |= NF_SA_GID;
        c->gid = a->gid;
    }
    if (a->have & TR_NFS_A_SIZE) {
        c->sattr |= NF_SA_SIZE;
        c->size = a->size;
    }
    if (a->have & TR_NFS_A_ATIME)
        c->sattr |= NF_SA_ATIME_SERVER;
    if (a->have & TR_NFS_A_MTIME)
        c->sattr |= NF_SA_MTIME_SERVER;
    if (a->have & TR_NFS_A_TYPE)
        c->ftype = (uint8_t)a->type;
}

static uint32_t find_obj(const struct nr_plan *p, const struct nf_fh *fh)
{
    uint32_t o = fh->len ? im_find(p->img, fh) : IM_NONE_ID;

    return o == IM_NONE_ID ? NR_NONE : o;
}

/* Why the event is not replayed (NR_REPLAYED: it is). */
static int skip_reason(const struct nr_plan *p, const struct tr_nfs_event *ev)
{
    if (ev->prog == TR_NFS_PROG_MOUNT)
        return NR_SKIP_MOUNT;
    if ((int)ev->vers != p->nfs_version)
        return NR_SKIP_VERSION;
    if (ev->op < 0 || ev->op == NF_OP_ROOT || ev->op == NF_OP_WRCACHE)
        return NR_SKIP_PROC;
    if (ev->flags & TR_NFS_F_CALL_CUT)
        return NR_SKIP_CUT;
    if (ev->op != NF_OP_NULL_OP && (find_obj(p, &ev->fh) == NR_NONE ||
                                    ((ev->op == NF_OP_RENAME || ev->op == NF_OP_LINK) &&
                                     find_obj(p, &ev->fh2) == NR_NONE)))
        return NR_SKIP_UNKNOWN;
    return NR_REPLAYED;
}

/* The name map after the traced call (its traced outcome; a call without
 * a reply is taken to have succeeded, as the image takes it). */
static int follow_names(struct build *b, const struct nr_call *c)
{
    const char *n1 = c->name, *n2 = c->name2;
    uint32_t moved;

    if (c->status != 0 && c->status != NR_NO_REPLY)
        return 0;
    switch (c->op) {
    case NF_OP_LOOKUP:
    case NF_OP_CREATE:
    case NF_OP_MKDIR:
    case NF_OP_SYMLINK:
    case NF_OP_MKNOD:
        return c->res_obj != NR_NONE ? name_set(b, c->obj, n1, c->res_obj) : 0;
    case NF_OP_LINK:
        return name_set(b, c->obj2, n2, c->obj);
    case NF_OP_REMOVE:
    case NF_OP_RMDIR:
        return name_set(b, c->obj, n1, NR_NONE);
    case NF_OP_RENAME:
        moved = name_obj(b, c->obj, n1);
        if (name_set(b, c->obj, n1, NR_NONE) < 0)
            return -ENOMEM;
        return name_set(b, c->obj2, n2, moved);
    default:
        return 0;
    }
}

static int add_deps(struct build *b, struct nr_call *c)
{
    const char *n1 = c->name, *n2 = c->name2;
    int ch = changes_fh(c->op), rc = 0, changes[4];
    /* an NFSv4 OPEN or CLOSE changes its file's share state: what the
     * server answers another owner's OPEN, READ or WRITE of it */
    int state = c->v4 != NR_V4_CALL || c->res_sid != NR_NONE;
    uint64_t keys[4];
    unsigned k, nkeys;

    rc |= dep_obj(b, c->obj, ch || c->v4 != NR_V4_CALL);
    rc |= dep_obj(b, c->obj2, ch);
    rc |= dep_obj(b, c->res_obj, creates(c->op) || state);
    rc |= dep_named(b, c->obj);
    rc |= dep_named(b, c->obj2);
    if (n1 && c->obj != NR_NONE) {
        rc |= dep_on(b, name_key(c->obj, n1), c->op != NF_OP_LOOKUP);
        if (c->op != NF_OP_LOOKUP || state) /* an OPEN the server refused too */
            rc |= dep_obj(b, name_obj(b, c->obj, n1), 1);
    }
    if (n2 && c->obj2 != NR_NONE) {
        rc |= dep_on(b, name_key(c->obj2, n2), 1);
        rc |= dep_obj(b, name_obj(b, c->obj2, n2), 1);
    }
    nkeys = nr__v4_dep_keys(&b->v4, keys, changes); /* open owners, stateids */
    for (k = 0; k < nkeys; k++)
        rc |= dep_on(b, keys[k], changes[k]);
    return rc < 0 ? -ENOMEM : 0;
}

/* The stream of a traced client (a new one numbered next): an NFSv4
 * COMPOUND's client (its client id or session, plan4.c), else its host; a
 * call (count) is counted in it. */
static int stream_of(struct build *b, uint32_t host, uint32_t *stream, int count)
{
    struct nr_plan *p = b->p;
    uint64_t key = b->v4.client ? (1ull << 32) | b->v4.client : host;
    struct kv *h = kmap_get(&b->hosts, key + 1);

    if (!h)
        return -ENOMEM;
    if (h->a == NR_NONE) {
        uint64_t *x =
            cm_reallocarray(p->stream_calls, (size_t)p->nstreams + 1, sizeof(*x));

        if (!x)
            return -ENOMEM;
        p->stream_calls = x;
        x[p->nstreams] = 0;
        h->a = p->nstreams++;
    }
    *stream = h->a;
    p->stream_calls[h->a] += count != 0;
    return 0;
}

static int add_call(struct build *b, const struct tr_nfs_event *ev, int64_t origin)
{
    struct nr_plan *p = b->p;
    struct nr_call call, *c = &call;
    int rc;

    if (p->nrecords >= UINT32_MAX - 1)
        return -E2BIG;
    memset(c, 0, sizeof(*c));
    nr__v4_call_state(&b->v4, c); /* an NFSv4 call's state, or a state record */
    c->t_ns = ev->t_ns - origin;
    c->op = (int8_t)ev->op;
    c->proc = (uint16_t)ev->proc;
    c->obj = find_obj(p, &ev->fh);
    c->obj2 =
        ev->op == NF_OP_RENAME || ev->op == NF_OP_LINK ? find_obj(p, &ev->fh2) : NR_NONE;
    c->res_obj = NR_NONE;
    c->status = NR_NO_REPLY;
    if ((ev->flags & TR_NFS_F_REPLY) && ev->rpc_status == TR_NFS_RPC_SUCCESS) {
        int64_t rt = ev->reply_t_ns - ev->t_ns;

        c->status = ev->status;
        c->rt_us =
            rt > 0 ? (uint32_t)(rt / 1000 < UINT32_MAX ? rt / 1000 : UINT32_MAX) : 0;
        c->res_obj = find_obj(p, &ev->res_fh);
        if (c->v4 == NR_V4_CALL) { /* a state record is no call of the tables */
            cm_hist_add(&p->traced[c->op], c->rt_us);
            cm_hist_add(&p->traced[NF_OP_TOTAL], c->rt_us);
        }
    }
    if (c->res_obj == c->obj)
        c->res_obj = NR_NONE; /* LOOKUP of "." */
    c->offset = ev->offset;
    c->count = ev->count;
    c->access = ev->access;
    c->how = ev->stable;
    take_sattr(c, &ev->sattr);
    if (ev->op == NF_OP_READDIR || ev->op == NF_OP_READDIRPLUS) {
        if (c->offset != 0)
            p->readdir_restarted++;
        c->offset = 0; /* cookies are the traced server's */
    }
    c->name = ev->name;
    c->name2 = ev->name2;
    c->text = ev->op == NF_OP_SYMLINK ? ev->text : NULL;
    nr__v4_call_state(&b->v4, c); /* again: a lock's range over the fields */
    if ((rc = stream_of(b, ev->client, &c->stream, c->v4 == NR_V4_CALL)) < 0)
        return rc;
    b->c = c;
    b->idx = (uint32_t)p->nrecords;
    if ((rc = add_deps(b, c)) < 0 || (rc = follow_names(b, c)) < 0 ||
        (rc = named_by(b, c)) < 0 || (rc = nr__file_call(&b->w, c)) < 0)
        return rc;
    p->nrecords++;
    p->ncalls += c->v4 == NR_V4_CALL;
    p->trace_ns = c->t_ns;
    return 0;
}

/* ---- the two passes ---------------------------------------------------- */

static int open_trace(struct tr_nfs_reader **r, const char *capture,
                      const struct nr_plan_opts *o, char *err, size_t errlen)
{
    struct tr_nfs_options to;

    memset(&to, 0, sizeof(to));
    to.format = !o->format || strcmp(o->format, "auto") == 0 ? NULL : o->format;
    to.lenient = o->lenient;
    to.nfsv4 = o->nfs_version == 4; /* else its COMPOUNDs are only counted */
    return tr_nfs_open(r, capture, &to, err, errlen);
}

static int image_event(void *img, const struct tr_nfs_event *ev)
{
    return im_event(img, ev);
}

static int pass_image(struct nr_plan *p, struct nr__v4_state *v4,
                      const struct nr_plan_opts *o, char *err, size_t errlen)
{
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    unsigned i, n;
    const struct tr_counter *k;
    int rc = open_trace(&r, p->capture, o, err, errlen);

    if (rc < 0)
        return rc;
    snprintf(p->format, sizeof(p->format), "%s", tr_nfs_format(r));
    while ((rc = tr_nfs_next(r, &ev)) > 0) {
        p->events++;
        if ((rc = tr_nfs_each_v3(&ev, image_event, p->img)) < 0 ||
            (p->nfs_version == 4 && (rc = nr__v4_learn(v4, &ev)) < 0))
            break;
    }
    if (rc < 0)
        cm_errf(err, errlen, "%s", rc == -ENOMEM ? "out of memory" : tr_nfs_error(r));
    k = tr_nfs_counters(r, &n);
    for (i = 0; i < n && i < TR_MAX_COUNTERS; i++)
        p->counters[i] = k[i];
    p->ncounters = n < TR_MAX_COUNTERS ? n : TR_MAX_COUNTERS;
    tr_nfs_close(r);
    if (rc == 0 && im_finish(p->img) < 0) {
        cm_errf(err, errlen, "out of memory");
        rc = -ENOMEM;
    }
    return rc;
}

/* The event planned as a call, or counted as not replayable. */
static int plan_event(void *data, const struct tr_nfs_event *ev)
{
    struct build *b = data;
    int why = skip_reason(b->p, ev);

    if (why != NR_REPLAYED) {
        b->p->skipped[why]++;
        return 0;
    }
    if (b->origin < 0)
        b->origin = ev->t_ns;
    return add_call(b, ev, b->origin);
}

static int pass_calls(struct nr_plan *p, struct build *b, const struct nr_plan_opts *o,
                      char *err, size_t errlen)
{
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    int rc = open_trace(&r, p->capture, o, err, errlen);

    if (rc < 0)
        return rc;
    b->origin = -1;
    rc = im_walk(p->img, start_name, b, NULL);
    while (rc == 0 && (rc = tr_nfs_next(r, &ev)) > 0)
        rc = p->nfs_version == 4 && ev.prog == TR_NFS_PROG_NFS && ev.vers == 4
                 ? nr__v4_calls(&b->v4, &ev, p->skipped, plan_event, b)
                 : plan_event(b, &ev);
    if (rc < 0)
        cm_errf(err, errlen, "%s: %s", p->capture,
                rc == -ENOMEM ? "out of memory"
                : rc == -E2BIG
                    ? "more calls than one plan holds (4 G)"
                    : (rc == -EIO ? "cannot write the plan" : tr_nfs_error(r)));
    tr_nfs_close(r);
    return rc;
}

/* The program that replays a trace's calls of NFS version v. */
static const char *plan_prog(int v)
{
    const struct nf_proto *p = nf_proto_by_version(v);

    return p ? p->prog : "sfs";
}

/* The reader's counter `name` as the first pass kept it. */
static uint64_t plan_counter(const struct nr_plan *p, const char *name)
{
    unsigned i;

    for (i = 0; i < p->ncounters; i++)
        if (strcmp(p->counters[i].name, name) == 0)
            return p->counters[i].n;
    return 0;
}

/* Plans capture (o) into f: p holds the figures after. */
static int plan_into(struct nr_plan *p, const char *capture, const struct nr_plan_opts *o,
                     FILE *f, char *err, size_t errlen)
{
    struct build b;
    uint64_t size = 0, hash = 0;
    int rc;

    memset(p, 0, sizeof(*p));
    p->fd = -1;
    snprintf(p->capture, sizeof(p->capture), "%s", capture);
    snprintf(p->file, sizeof(p->file), "%s", capture);
    p->nfs_version = o->nfs_version;
    p->img = im_new();
    if (!p->img)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    memset(&b, 0, sizeof(b));
    b.p = p;
    rc = pass_image(p, &b.v4, o, err, errlen);
    if (rc == 0 && (rc = nr__capture_id(capture, &size, &hash)) < 0)
        cm_errf(err, errlen, "%s: %s", capture, strerror(-rc));
    if (rc == 0 && (rc = nr__file_begin(&b.w, f, p)) < 0)
        cm_errf(err, errlen, "%s: cannot write the plan", capture);
    b.w.capture_size = size;
    b.w.capture_hash = hash;
    if (rc == 0)
        rc = pass_calls(p, &b, o, err, errlen);
    p->v4_opens_in_use = b.v4.in_use;
    p->nsids = b.v4.nslots;
    p->nowners = b.v4.nowners;
    if (rc == 0 && p->ncalls == 0) {
        uint64_t v4 = plan_counter(p, "nfsv4_calls");

        if (v4 > 0)
            cm_errf(err, errlen,
                    "%s: no NFSv%d call to replay (%llu events), but %llu NFSv4 "
                    "COMPOUNDs: %s",
                    capture, p->nfs_version, (unsigned long long)p->events,
                    (unsigned long long)v4, NR_V4_ELSEWHERE);
        else if (p->nfs_version == 4)
            cm_errf(err, errlen,
                    "%s: no NFSv4 call to replay (%llu events; NFSv3 and NFSv2 traces "
                    "are replayed by %s and %s)",
                    capture, (unsigned long long)p->events, plan_prog(3), plan_prog(2));
        else
            cm_errf(err, errlen,
                    "%s: no NFSv%d call to replay (%llu events; a trace of the other "
                    "version is replayed by %s)",
                    capture, p->nfs_version, (unsigned long long)p->events,
                    plan_prog(p->nfs_version == 3 ? 2 : 3));
        rc = -EINVAL;
    }
    if (rc == 0 && (rc = nr__file_end(&b.w, p)) < 0)
        cm_errf(err, errlen, "%s: cannot write the plan", capture);
    if (rc < 0)
        nr__file_abort(&b.w);
    free(b.deps.slot);
    free(b.names.slot);
    free(b.hosts.slot);
    free(b.named.slot);
    nr__v4_state_free(&b.v4);
    return rc;
}

int nr_plan_write(const char *capture, const struct nr_plan_opts *o, const char *out,
                  char *err, size_t errlen)
{
    struct cm_atomic_file af;
    struct nr_plan p;
    int rc = cm_atomic_open(&af, out, err, errlen);

    if (rc < 0)
        return rc;
    rc = plan_into(&p, capture, o, af.fp, err, errlen);
    nr_plan_free(&p);
    if (rc < 0) {
        cm_atomic_abort(&af);
        return rc;
    }
    return cm_atomic_commit(&af, err, errlen);
}

/* A temporary plan of a capture given as it is: in $TMPDIR (/tmp),
 * unlinked at once (the descriptor keeps it while the run lasts). */
static int plan_temporary(struct nr_plan *p, const struct ld_config *cfg, char *err,
                          size_t errlen)
{
    const char *dir = getenv("TMPDIR");
    char path[LD_PATH_MAX];
    struct nr_plan_opts o;
    FILE *f;
    int fd, rc;

    snprintf(path, sizeof(path), "%s/freesfs-plan-XXXXXX", dir && dir[0] ? dir : "/tmp");
    fd = mkstemp(path);
    if (fd < 0)
        return cm_errf(err, errlen, "%s: cannot make a temporary plan in %s: %s",
                       RB_TOPTS(cfg)->trace_file, dir && dir[0] ? dir : "/tmp",
                       strerror(errno)),
               -errno;
    (void)unlink(path);
    f = fdopen(dup(fd), "w+b");
    if (!f) {
        close(fd);
        return cm_errf(err, errlen, "%s: %s", RB_TOPTS(cfg)->trace_file, strerror(errno)),
               -EIO;
    }
    o.format = RB_TOPTS(cfg)->trace_format;
    o.lenient = RB_TOPTS(cfg)->trace_lenient;
    o.nfs_version = cfg->nfs_version;
    rc = plan_into(p, RB_TOPTS(cfg)->trace_file, &o, f, err, errlen);
    if (fclose(f) != 0 && rc == 0) {
        cm_errf(err, errlen, "%s: cannot write the plan", RB_TOPTS(cfg)->trace_file);
        rc = -EIO;
    }
    nr_plan_free(p);
    if (rc < 0) {
        close(fd);
        return rc;
    }
    memset(p, 0, sizeof(*p));
    snprintf(p->file, sizeof(p->file), "%s", RB_TOPTS(cfg)->trace_file);
    rc = nr__file_read(p, fd, 0, err, errlen);
    if (rc < 0)
        close(fd);
    return rc;
}

int nr_plan_open(struct nr_plan *p, const char *path, char *err, size_t errlen)
{
    int fd, rc;

    memset(p, 0, sizeof(*p));
    p->fd = -1;
    snprintf(p->file, sizeof(p->file), "%s", path);
    p->from_file = 1;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return cm_errf(err, errlen, "%s: %s", path, strerror(errno)), -errno;
    rc = nr__file_read(p, fd, 1, err, errlen);
    if (rc < 0) {
        if (p->fd < 0) /* not taken by the plan yet */
            close(fd);
        nr_plan_free(p);
    }
    return rc;
}

int nr_plan_build(struct nr_plan *p, const struct ld_config *cfg, char *err,
                  size_t errlen)
{
    int rc;

    if (!nr_plan_is_file(RB_TOPTS(cfg)->trace_file)) {
        memset(p, 0, sizeof(*p));
        p->fd = -1;
        return plan_temporary(p, cfg, err, errlen);
    }
    rc = nr_plan_open(p, RB_TOPTS(cfg)->trace_file, err, errlen);
    if (rc == 0 && p->nfs_version != cfg->nfs_version) {
        cm_errf(err, errlen,
                "%s holds the NFSv%d calls of %s: replay it with %s, or plan the "
                "capture again with --nfs-version %d",
                p->file, p->nfs_version, p->capture, plan_prog(p->nfs_version),
                cfg->nfs_version);
        rc = -EINVAL;
        nr_plan_free(p);
    }
    return rc;
}

void nr_plan_free(struct nr_plan *p)
{
    im_free(p->img);
    free(p->stream_calls);
    free(p->index_off);
    free(p->index_t);
    if (p->fd >= 0)
        close(p->fd);
    p->img = NULL;
    p->stream_calls = NULL;
    p->index_off = NULL;
    p->index_t = NULL;
    p->fd = -1;
}

double nr_expected_s(const struct nr_plan *p, double speed)
{
    return speed > 0 ? (double)p->trace_ns / 1e9 / speed : 0;
}

/* ---- which workload, names --------------------------------------------- */

int nr_accepts(const struct ld_config *cfg, char *why, size_t whylen)
{
    const char *f = RB_TOPTS(cfg)->trace_format, *fmt = NULL;
    unsigned char buf[512];
    size_t n;
    FILE *fp;

    if (!RB_TOPTS(cfg)->trace_file[0])
        return LD_ACCEPT_NO;
    if (!strcmp(f, "pcap") || !strcmp(f, "pcapng") || !strcmp(f, "nfsdump"))
        return LD_ACCEPT_YES;
    if (f[0] && strcmp(f, "auto") != 0)
        return LD_ACCEPT_NO;
    fp = fopen(RB_TOPTS(cfg)->trace_file, "rb");
    if (!fp)
        return cm_errf(why, whylen, "%s: %s", RB_TOPTS(cfg)->trace_file, strerror(errno)),
               LD_ACCEPT_UNREADABLE;
    n = fread(buf, 1, sizeof(buf), fp);
    fclose(fp);
    if (nr_plan_is_file(RB_TOPTS(cfg)->trace_file))
        return LD_ACCEPT_YES;
    return tr_nfs_probe(buf, n, &fmt) > 0 ? LD_ACCEPT_YES : LD_ACCEPT_NO;
}

unsigned nr_class_of(uint32_t status)
{
    switch (status) {
    case 0:
        return NR_C_OK;
    case NF_ST_NOENT:
        return NR_C_NOENT;
    case NF_ST_EXIST:
        return NR_C_EXIST;
    case NF_ST_NOTEMPTY:
        return NR_C_NOTEMPTY;
    case NF_ST_NOTDIR:
    case NF_ST_ISDIR:
        return NR_C_NOTDIR_ISDIR;
    case NF_ST_ACCES:
    case NF_ST_PERM:
        return NR_C_ACCES;
    case NF_ST_STALE:
    case NF_ST_BADHANDLE:
        return NR_C_STALE;
    default:
        return NR_C_OTHER;
    }
}

const char *nr_class_name(unsigned cls)
{
    static const char *const n[NR_CLASSES] = {
        "OK", "NOENT", "EXIST", "NOTEMPTY", "NOTDIR/ISDIR", "ACCES", "STALE", "other"};
    return cls < NR_CLASSES ? n[cls] : "other";
}

const char *nr_skip_name(unsigned reason)
{
    static const char *const n[NR_NSKIPS] = {"replayed",          "mount",
                                             "other_nfs_version", "procedure",
                                             "unknown_handle",    "no_replayed_handle",
                                             "call_cut",          "v4_state"};
    return reason < NR_NSKIPS ? n[reason] : "other";
}
