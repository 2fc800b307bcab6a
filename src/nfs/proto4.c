/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * proto4.c - NFSv4.1's table of the protocol seam (nf_proto.h), over the
 * v4 client (nf4_client.h): the mount makes the client state (EXCHANGE_ID,
 * CREATE_SESSION with a slot per call the process keeps in flight,
 * RECLAIM_COMPLETE) and finds the export (PUTROOTFH, a LOOKUP per
 * component); the unmount ends it (DESTROY_SESSION, DESTROY_CLIENTID).
 * Each SFS op is v4_sfs.c's compound, started on the client, which takes a
 * slot, holds DELAY and GRACE and recovers sessions and clients itself;
 * the reply is read out as the mix's neutral result (nf4_load.h).  A
 * working-set file is OPENed when it enters and CLOSEd when it leaves (its
 * stateid in the caller's per-file storage), and OPENed again before its
 * next READ, WRITE or SETATTR when a new client lost its open (a reopen,
 * counted apart from the mix's calls).  A created file's OPEN is CLOSEd
 * at once, a working-set file's when it leaves, without waiting for the
 * reply: on a call of a small pool, or as soon as one is free (a bounded
 * queue); a file entering again while its CLOSE is queued or in flight
 * waits for it, so the server never sees its OPEN first.  At the end the
 * CLOSEs in flight and queued go first, on every slot of the session,
 * then those that failed in the run (DELAY to the client's last try, no
 * reply) once more, all bounded, since a server refuses DESTROY_CLIENTID
 * while the client holds an open (CLIENTID_BUSY).  Once the process is to
 * end (a signal: s->stop), no CREATE starts and no wait goes on.  Writes
 * go UNSTABLE, as NFSv3's do, COMMIT following as the mix says.
 */
#include <inttypes.h>
#include <string.h>

#include "common/alloc.h"
#include "common/error.h"
#include "nfs/nf4_load.h"
#include "nfs/nf_proto.h"

/* One call's storage (c->pc). */
struct p4_call {
    struct nf4_call call;
    struct nf4_fh fh, fh2;
    struct nf4_sfs_args args;
    struct nf_call *c;
    struct nf_session *s;
    void *fstate;        /* the file's open (READ, WRITE, SETATTR) */
    uint32_t sid_epoch;  /* the client's epoch of the open whose stateid the
                            call carries; NO_OPEN: the anonymous one */
    uint32_t again;      /* sends before the call was sent with a new
                            stateid (restated) */
    uint64_t t_first_ns; /* its first start */
    int restated;
    int reopening;               /* the call is its file's OPEN, the op's compound next */
    struct p4_call *parked_next; /* waiting for another call's reopen */
};

#define NO_OPEN UINT32_MAX

/* A CLOSE on a call of the pool: a created file's, or a working-set
 * file's (f its open, NF4_CLOSING until the reply). */
struct p4_close {
    struct nf4_call call;
    struct nf4_fh fh;
    stateid4 sid;
    struct nf4_open *f;
    struct p4_state *st;
    struct p4_close *next; /* free list */
};

/* A file whose CLOSE waits for a call of the pool. */
struct p4_unclosed {
    struct nf4_fh fh;
    stateid4 sid;
    struct nf4_open *f; /* a working-set file's open; NULL: a created file */
    uint32_t epoch;     /* the client's when it was opened */
};

/* Created files whose CLOSE may wait: a burst of CREATEs while CLOSEs are
 * held (DELAY) outruns the pool.  A CREATE goes only once its file's CLOSE
 * is sure of a place - fewer than this many queued and CREATEs in flight
 * (created_room) - so the queue never drops one; a file is left open
 * (counted) only when that wait ran out.  The queue holds this many more
 * than the working set's files, which may all leave at once (at the end).
 * It is what the end can close in its bounded time: sfs4 keeps 32 calls in
 * flight, so the end sends on 64 slots, and these with the 32 in flight
 * are 5 rounds of them - with 40 % of CLOSEs answered DELAY (each held
 * 100 ms) about 0.6 s of the end's 2 s after a SIGINT in the population,
 * where 512 took twice that, too near the bound on a busy machine. */
#define UNCLOSED_MAX 256u
/* A file entering the working set again waits this long at most for its
 * CLOSE (queued, then sent: each send bounded by its timeout). */
#define CLOSE_WAIT_MS 10000u
/* CLOSEs that failed in a way that may leave the open on the server,
 * kept for the end to send again (past these, counted, not retried). */
#define FAILED_MAX 512u
/* The end's CLOSEs (in flight, queued, failed) get this long, at most: a
 * parent that was interrupted kills a child still running 3 s after its
 * SIGTERM (client/parent.c), and DESTROY_SESSION and DESTROY_CLIENTID
 * come after. */
#define END_CLOSES_MS 2000u

struct p4_state {
    struct nf4_mount m;
    struct nf4_call sync; /* the working set's OPENs */
    struct p4_close *closers, *free_closers;
    unsigned closers_n;     /* a call per slot asked */
    unsigned closers_limit; /* in flight at once: the calls the mix leaves
                               free (half the slots), at the end all */
    unsigned closers_busy;
    struct p4_unclosed *unclosed; /* a ring of unclosed_cap */
    unsigned unclosed_head, unclosed_len, unclosed_cap;
    struct p4_unclosed *failed; /* a ring of FAILED_MAX: CLOSEs to send again */
    unsigned failed_head, failed_len;
    /* the session's flag (nf_proto.h): the process is to end */
    const volatile sig_atomic_t *stop;
    unsigned ws_files;            /* working-set files in (entered, not left) */
    unsigned ws_queued;           /* working-set files left, their CLOSE queued */
    unsigned creates_out;         /* CREATEs in flight: each a CLOSE to come */
    uint64_t left_open;           /* created files of this epoch left open */
    uint64_t close_failed;        /* ... and CLOSEs of it that failed (DELAY or
                                     GRACE to the client's last try, no
                                     reply), not sent again since: the
                                     server may hold those opens too */
    int ending;                   /* the client closes: no more CLOSEs start */
    uint32_t left_epoch;          /* ... the epoch they were counted in */
    struct p4_call *parked;       /* ops waiting for their file's reopen */
    struct nf4_open_counts open;  /* the opens' counts, from the mount on */
    struct nf4_reclaimer reclaim; /* the opens reclaimed after a restart */
    /* what they and the client had counted when the caller's counting
     * started (counters.start) */
    struct nf4_open_counts open_mark;
    struct nf4_client_stats client_mark;
    int counting;
};

static const stateid4 anonymous; /* all zeros: RFC 8881's anonymous stateid */

static struct nf4_client *client(const struct nf_session *s)
{
    return ((const struct p4_state *)s->state)->m.cl;
}

static int has_op(int op)
{
    return nf4_sfs_shape(op) != NULL;
}

/* 1 once the process is to end (its caller's flag, set by a signal). */
static int stopping(const struct p4_state *st)
{
    return st->stop != NULL && *st->stop != 0;
}

static void free_state(struct p4_state *st)
{
    free(st->closers);
    free(st->unclosed);
    free(st->failed);
    free(st);
}

/* ---- the session ------------------------------------------------------------ */

static int mount4(struct nf_session *s, const char *spec, const struct nf_mount_opts *o,
                  char *err, size_t errlen)
{
    struct nf4_client_opts v4;
    struct p4_state *st = cm_calloc(1, sizeof(*st));
    unsigned i, n = s->in_flight ? s->in_flight : 1;
    int rc;

    if (st == NULL)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    nf4_client_opts_init(&v4);
    /* a slot per call in flight, and one for a CLOSE each */
    v4.slots = 2 * n < NF4_MAX_SLOTS ? 2 * n : NF4_MAX_SLOTS;
    st->closers_n = v4.slots;
    st->closers_limit = n < v4.slots ? n : v4.slots;
    st->unclosed_cap = UNCLOSED_MAX;
    st->closers = cm_calloc(st->closers_n, sizeof(*st->closers));
    st->unclosed = cm_calloc(st->unclosed_cap, sizeof(*st->unclosed));
    st->failed = cm_calloc(FAILED_MAX, sizeof(*st->failed));
    if (st->closers == NULL || st->unclosed == NULL || st->failed == NULL) {
        free_state(st);
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    }
    for (i = 0; i < st->closers_n; i++) {
        st->closers[i].st = st;
        st->closers[i].next = i + 1 < st->closers_n ? &st->closers[i + 1] : NULL;
    }
    st->free_closers = st->closers;
    st->stop = s->stop;
    if (nf4_reclaimer_init(&st->reclaim, n, &st->open, s->proto->prog) < 0) {
        free_state(st);
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    }
    /* after a server restart, the working set's opens are reclaimed (as
     * many at once as calls in flight) before RECLAIM_COMPLETE */
    v4.reclaim = nf4_reclaimer_run;
    v4.reclaim_data = &st->reclaim;
    rc = nf4_mount(&st->m, spec, o, &v4, err, errlen);
    if (rc == 0 && nf4_fh_to_nf(&st->m.root, &s->mnt.root) < 0) {
        cm_errf(err, errlen, "%s: the export's handle takes %u bytes, more than %d", spec,
                st->m.root.len, NF_FH_MAX);
        nf4_umount(&st->m);
        rc = -E2BIG;
    }
    if (rc < 0) {
        nf4_reclaimer_free(&st->reclaim);
        free_state(st);
        return rc;
    }
    s->mnt.spec = st->m.m.spec;
    s->mnt.addr = st->m.m.addr;
    s->mnt.addrlen = st->m.m.addrlen;
    s->mnt.nfs_version = 4;
    s->mnt.nfs_port = st->m.m.nfs_port;
    s->mnt.opts = st->m.m.opts;
    s->mnt.nfs = NULL; /* the v4 client's own */
    s->rpc = nf4_client_rpc(st->m.cl);
    s->state = st;
    s->mounted = 1;
    return 0;
}

static void end_closes(struct p4_state *st);

static void unmount4(struct nf_session *s)
{
    struct p4_state *st = s->state;
    uint64_t left, failed;
    unsigned busy, queued;
    int rc;

    if (st == NULL)
        return;
    end_closes(st);
    /* what is still open, counted before the close cancels the CLOSEs in
     * flight (their failures are not counted again) */
    left = st->left_epoch == nf4_client_epoch(st->m.cl) ? st->left_open : 0;
    failed = st->left_epoch == nf4_client_epoch(st->m.cl) ? st->close_failed : 0;
    busy = st->closers_busy;
    queued = st->unclosed_len;
    st->ending = 1;          /* the close cancels what is in flight: nothing more */
    rc = nf4_umount(&st->m); /* DESTROY_SESSION, DESTROY_CLIENTID; bounded */
    if (rc == NFS4ERR_CLIENTID_BUSY)
        fprintf(stderr,
                "%s: DESTROY_CLIENTID refused (CLIENTID_BUSY): %" PRIu64
                " files may still be open on the server (%" PRIu64 " still open in "
                "the working set, %u CLOSEs unanswered, %u not sent, %" PRIu64
                " failed, %" PRIu64 " left open)\n",
                s->proto->prog, st->open.in_use + busy + queued + failed + left,
                st->open.in_use, busy, queued, failed, left);
    nf4_reclaimer_free(&st->reclaim);
    free_state(st);
    s->state = NULL;
    s->mounted = 0;
    s->rpc = NULL;
}

static int keepalive4(struct nf_session *s, uint64_t idle_ns)
{
    int rc;

    (void)idle_ns; /* the client renews after a third of the lease itself,
                      when serviced: its timers run here */
    if (rp_client_state(nf4_client_rpc(client(s))) == RP_STATE_DEAD)
        return -ENOTCONN;
    rc = nf4_poll(client(s), 0);
    return rc < 0 && rc != -EINTR ? rc : 0;
}

static unsigned max_in_flight4(const struct nf_session *s)
{
    struct nf4_client_stats st;

    nf4_client_stats(client(s), &st);
    return st.slots_granted / 2; /* half for the files' CLOSEs */
}

/* ---- the calls -------------------------------------------------------------- */

/* left_open and close_failed count epoch's files (a new client's start
 * from 0: the server forgot the older one's opens). */
static void count_epoch(struct p4_state *st, uint32_t epoch)
{
    if (st->left_epoch != epoch) {
        st->left_epoch = epoch;
        st->left_open = st->close_failed = 0;
    }
}

/* A file of the present epoch left open: no call for its CLOSE and no
 * room to wait for one, or the CLOSE could not go (said at the end if the
 * server then refuses DESTROY_CLIENTID).  A working-set file's open (f)
 * is closed as far as the process goes. */
static void left_open(struct p4_state *st, uint32_t epoch, struct nf4_open *f)
{
    if (f != NULL)
        f->state = NF4_CLOSED;
    st->open.closes_skipped++;
    count_epoch(st, epoch);
    st->left_open++;
}

static void closed(struct nf4_call *call, void *data);

/* Sends the CLOSE of (fh, sid) (of the working-set file f, or NULL) on
 * k, a call taken from the pool.  Returns 0, or -1 when it could not go
 * (k back in the pool). */
static int send_close(struct p4_state *st, struct p4_close *k, const struct nf4_fh *fh,
                      const stateid4 *sid, struct nf4_open *f)
{
    struct nf4_sfs_args a;

    memset(&a, 0, sizeof(a));
    k->fh = *fh;
    k->sid = *sid;
    k->f = f;
    a.fh = &k->fh;
    a.sid = &k->sid;
    k->call.done = closed;
    k->call.data = k;
    k->call.res.data = NULL;
    k->call.res.data_max = 0;
    st->closers_busy++;
    if (nf4_sfs_close(&k->call.args, &a) < 0 || nf4_call_start(st->m.cl, &k->call) < 0) {
        st->closers_busy--;
        k->next = st->free_closers;
        st->free_closers = k;
        return -1;
    }
    st->open.closes++;
    return 0;
}

/* A call of the pool, when one is free and the limit leaves room. */
static struct p4_close *take_closer(struct p4_state *st)
{
    struct p4_close *k = st->free_closers;

    if (k == NULL || st->closers_busy >= st->closers_limit)
        return NULL;
    st->free_closers = k->next;
    return k;
}

/* Sends the CLOSEs of a ring (the queue, or the failed ones: head, len,
 * cap) that free calls of the pool can take, in order; those of an older
 * epoch need none (the server forgot the open with its client). */
static void send_ring(struct p4_state *st, struct p4_unclosed *ring, unsigned *head,
                      unsigned *len, unsigned cap)
{
    uint32_t epoch = nf4_client_epoch(st->m.cl);

    while (!st->ending && *len > 0) {
        struct p4_unclosed *u = &ring[*head];
        struct p4_close *k = NULL;

        if (u->epoch == epoch && (k = take_closer(st)) == NULL)
            break;
        *head = (*head + 1) % cap;
        (*len)--;
        if (u->f != NULL)
            st->ws_queued--;
        if (u->epoch != epoch) {
            if (u->f != NULL)
                u->f->state = NF4_CLOSED;
            if (ring != st->failed) /* a failed one was counted sent */
                st->open.closes_gone++;
            continue;
        }
        if (ring == st->failed && st->close_failed > 0)
            st->close_failed--; /* in flight again (closers_busy) */
        if (send_close(st, k, &u->fh, &u->sid, u->f) < 0)
            left_open(st, epoch, u->f);
    }
}

/* Sends the queued CLOSEs that a free call of the pool can take. */
static void close_queued(struct p4_state *st)
{
    send_ring(st, st->unclosed, &st->unclosed_head, &st->unclosed_len, st->unclosed_cap);
}

/* A CLOSE that failed in a way that may leave the open on the server -
 * DELAY or GRACE to the client's last try, or no reply (a timeout, a lost
 * connection) - of the present epoch: counted (close_failed) and kept for
 * the end to send again, with the same stateid (past FAILED_MAX kept, it
 * stays counted, not sent).  Another answer leaves nothing of it to close
 * (BAD_STATEID: no such open; OLD_STATEID: the file was opened again
 * since, and that newer open is closed by its own CLOSE): counted with
 * the CLOSEs' errors only, as is one of an older epoch (gone with its
 * client). */
static void failed_close(struct p4_state *st, const struct p4_close *k)
{
    const struct nf4_call *call = &k->call;
    struct p4_unclosed *u;

    if (call->epoch != nf4_client_epoch(st->m.cl) ||
        (call->status == 0 && call->res.status != NFS4ERR_DELAY &&
         call->res.status != NFS4ERR_GRACE))
        return;
    count_epoch(st, call->epoch);
    st->close_failed++;
    if (st->ending || st->failed_len == FAILED_MAX)
        return;
    u = &st->failed[(st->failed_head + st->failed_len) % FAILED_MAX];
    st->failed_len++;
    u->fh = k->fh;
    u->sid = k->sid;
    u->f = NULL; /* its file's open, if any, is closed as far as the mix goes */
    u->epoch = call->epoch;
}

/* A CLOSE came back (counted when it failed or was slow): a working-set
 * file is closed, its call goes back to the pool and takes the next
 * queued CLOSE. */
static void closed(struct nf4_call *call, void *data)
{
    struct p4_close *k = data;
    struct p4_state *st = k->st;

    if (call->status != 0 || call->res.status != NFS4_OK) {
        st->open.close_errors++;
        failed_close(st, k);
    }
    if (call->t_reply_ns > call->t_start_ns + NF4_SLOW_NS) {
        if (k->f != NULL)
            st->open.slow_ws_closes++;
        else
            st->open.slow_created_closes++;
    }
    if (k->f != NULL && k->f->state == NF4_CLOSING)
        k->f->state = NF4_CLOSED;
    k->f = NULL;
    st->closers_busy--;
    k->next = st->free_closers;
    st->free_closers = k;
    close_queued(st);
}

/* CLOSEs (fh, sid) of epoch (of the working-set file f, or NULL) on a
 * call of the pool - or once one is free and the files queued before it
 * went, queued: a working-set file always finds room (queue_room), a
 * created file while fewer than UNCLOSED_MAX of them wait (its CREATE
 * waited for that: created_room). */
static void close_file(struct p4_state *st, const struct nf4_fh *fh, const stateid4 *sid,
                       uint32_t epoch, struct nf4_open *f)
{
    struct p4_close *k = st->unclosed_len == 0 ? take_closer(st) : NULL;
    struct p4_unclosed *u;

    if (k != NULL) {
        if (send_close(st, k, fh, sid, f) < 0)
            left_open(st, epoch, f);
        return;
    }
    if (st->unclosed_len == st->unclosed_cap ||
        (f == NULL && st->unclosed_len - st->ws_queued >= UNCLOSED_MAX)) {
        left_open(st, epoch, f);
        return;
    }
    u = &st->unclosed[(st->unclosed_head + st->unclosed_len) % st->unclosed_cap];
    st->unclosed_len++;
    if (f != NULL)
        st->ws_queued++;
    u->fh = *fh;
    u->sid = *sid;
    u->f = f;
    u->epoch = epoch;
}

/* CLOSEs the open a CREATE's OPEN made (epoch the call's). */
static void close_created(struct p4_state *st, const struct nf4_res *r, uint32_t epoch)
{
    const struct nf4_resop *open = nf4_res_find(r, OP_OPEN, 0);
    const struct nf4_resop *fh = nf4_res_find(r, OP_GETFH, 0);

    if (open == NULL || open->status != NFS4_OK || fh == NULL || fh->status != NFS4_OK)
        return;
    close_file(st, &fh->u.getfh, &open->u.open.stateid, epoch, NULL);
}

/* The end's CLOSEs that free calls can take: the queued ones, then those
 * that failed (in the run, or again here), each sent once more. */
static void end_feed(struct p4_state *st)
{
    close_queued(st);
    if (st->unclosed_len == 0)
        send_ring(st, st->failed, &st->failed_head, &st->failed_len, FAILED_MAX);
}

/* The process ends: the CLOSEs in flight come back and the queued ones go
 * together, then the failed ones again, on every slot of the session (the
 * mix's calls are done), bounded by END_CLOSES_MS, so that nothing of the
 * client's stays open on the server when DESTROY_CLIENTID goes. */
static void end_closes(struct p4_state *st)
{
    uint64_t end = cm_now_ns() + (uint64_t)END_CLOSES_MS * 1000000u;

    st->closers_limit = st->closers_n;
    end_feed(st);
    while (st->closers_busy > 0 || st->unclosed_len > 0 || st->failed_len > 0) {
        uint64_t now = cm_now_ns();
        int rc;

        if (now >= end || rp_client_state(nf4_client_rpc(st->m.cl)) == RP_STATE_DEAD)
            break;
        rc = nf4_poll(st->m.cl, (int)((end - now) / 1000000u) + 1);
        if (rc < 0 && rc != -EINTR)
            break;
        end_feed(st);
    }
}

static int restate(struct p4_call *p);
static int reopened(struct p4_call *p);

static void on_reply(struct nf4_call *call, void *data)
{
    struct p4_call *p = data;
    struct nf_call *c = p->c;
    struct p4_state *st = p->s->state;
    struct nf4_sfs_result r;

    if (reopened(p) || restate(p))
        return;
    memset(&c->res, 0, sizeof(c->res));
    c->res.attr_type = -1;
    c->status = call->status;
    c->t_start_ns = p->t_first_ns; /* a restated call's time runs from its first start */
    c->t_send_ns = call->rpc.t_send_ns;
    c->t_reply_ns = call->t_reply_ns;
    c->send_timeout_ms = call->rpc.timeout_ms;
    c->retransmits = call->rpc.retransmits;
    c->again = p->again + call->delays + call->graces + call->resends;
    c->xid = call->rpc.xid;
    if (call->status == 0) {
        nf4_sfs_result(&call->res, &r);
        c->res.status = r.status;
        if (r.has_attrs) {
            c->res.attr_type = (int)r.type;
            c->res.attr_size = r.size;
        }
        c->res.has_fh = r.has_fh && nf4_fh_to_nf(&r.fh, &c->res.fh) == 0;
        c->res.unstable = r.unstable;
    }
    if (c->op == NF_OP_CREATE) {
        st->creates_out--; /* its place in the queue, taken now or freed */
        if (call->status == 0)
            close_created(st, &call->res, call->epoch);
    }
    if (c->t_reply_ns > c->t_start_ns + NF4_SLOW_NS) /* a reopen's time included */
        st->open.slow_ops++;
    c->done(c, c->data);
}

/* The stateid a READ, WRITE or SETATTR of the file goes with: its open's
 * (p->sid_epoch the epoch it was opened in), else the anonymous one
 * (counted for READ and WRITE; p->sid_epoch NO_OPEN). */
static const stateid4 *stateid_of(struct p4_state *st, struct p4_call *p, int op)
{
    const stateid4 *sid = NULL;
    uint32_t epoch = nf4_client_epoch(st->m.cl);

    p->sid_epoch = NO_OPEN;
    if (nf4_open_need(p->fstate, epoch, &sid) == NF4_OPEN) {
        p->sid_epoch = epoch;
        return sid;
    }
    if (op == NF_OP_READ || op == NF_OP_WRITE)
        st->open.anonymous_io++;
    return &anonymous;
}

/*
 * Starts p's op: its compound with the stateid the file's open gives now -
 * or first, when a new client lost the open the file had (nf4_open_lost),
 * the file's OPEN again (a reopen: counted with the opens, not a call of
 * the mix; the op goes when it is answered, its time running from its
 * first start), as a client opens its application's files again after
 * recovering its state.  Returns 0 (on_reply comes later) or -errno.
 */
static int start_op(struct p4_state *st, struct p4_call *p)
{
    struct nf4_call *call = &p->call;
    int op = p->c->op, rc;

    call->res.data = p->c->buf;
    call->res.data_max = p->c->buf ? p->c->buf_max : 0;
    if ((op == NF_OP_READ || op == NF_OP_WRITE || op == NF_OP_SETATTR) &&
        nf4_open_need(p->fstate, nf4_client_epoch(st->m.cl), &(const stateid4 *){NULL}) ==
            NF4_OPENING) {
        /* another call's reopen of the file is in flight: wait for it */
        call->t_start_ns = cm_now_ns(); /* the client's clock: monotonic */
        p->parked_next = st->parked;
        st->parked = p;
        return 0;
    }
    if ((op == NF_OP_READ || op == NF_OP_WRITE || op == NF_OP_SETATTR) &&
        nf4_open_lost(p->fstate, nf4_client_epoch(st->m.cl))) {
        struct nf4_sfs_args a;

        memset(&a, 0, sizeof(a));
        a.fh = &p->fh;
        if (nf4_sfs_open(&call->args, &a) < 0)
            return -EINVAL;
        call->res.data = NULL;
        call->res.data_max = 0;
        nf4_open_sending(&st->open, p->fstate);
        p->reopening = 1;
        rc = nf4_call_start(st->m.cl, call);
        if (rc < 0) {
            p->reopening = 0;
            (void)nf4_open_done(&st->open, p->fstate, NULL, 0);
        }
        return rc;
    }
    if (op == NF_OP_READ || op == NF_OP_WRITE || op == NF_OP_SETATTR)
        p->args.sid = stateid_of(st, p, op);
    rc = nf4_sfs_compound(&call->args, nf4_client_minor(st->m.cl), op, &p->args);
    return rc < 0 ? rc : nf4_call_start(st->m.cl, call);
}

/*
 * A READ, WRITE or SETATTR built with the stateid of an open, sent again by
 * the client after it was established anew (a restarted server answers the
 * old session BADSESSION and the old client STALE_CLIENTID), carries a
 * stateid the new server instance never issued: it answers STALE_STATEID
 * (BAD_STATEID in 4.1); a client made anew after its lease ran out finds
 * the old stateid EXPIRED.  A client sends such a call again with the stateid
 * its present state gives (its open's once opened again, else the
 * anonymous one, counted) instead of failing the application's I/O; once.
 * Returns 1 when the call went out again (done comes later).
 */
static int restate(struct p4_call *p)
{
    struct p4_state *st = p->s->state;
    struct nf4_call *call = &p->call;
    uint32_t s4 = call->res.status;

    if (call->status != 0 || p->restated || p->sid_epoch == NO_OPEN ||
        (s4 != NFS4ERR_STALE_STATEID && s4 != NFS4ERR_BAD_STATEID &&
         s4 != NFS4ERR_EXPIRED) ||
        p->sid_epoch == nf4_client_epoch(st->m.cl))
        return 0;
    p->restated = 1;
    p->again += call->delays + call->graces + call->resends + 1;
    if (start_op(st, p) < 0)
        return 0; /* the stale answer stands */
    st->open.stale_resends++;
    return 1;
}

/* The ops that waited for the reopen of file f go now, with the stateid
 * it gave (or the anonymous one when it failed); one that cannot go fails
 * as its start did. */
static void unpark(struct p4_state *st, const void *f)
{
    struct p4_call **pp = &st->parked, *q, *mine = NULL, **tail = &mine;

    while ((q = *pp) != NULL) { /* taken off first: on_reply may park more */
        if (q->fstate != f) {
            pp = &q->parked_next;
            continue;
        }
        *pp = q->parked_next;
        q->parked_next = NULL;
        *tail = q;
        tail = &q->parked_next;
    }
    while ((q = mine) != NULL) {
        int rc;

        mine = q->parked_next;
        rc = start_op(st, q);
        if (rc < 0) {
            q->call.status = rc;
            q->call.t_reply_ns = cm_now_ns();
            q->call.delays = q->call.graces = q->call.resends = 0;
            q->call.rpc.retransmits = 0;
            q->call.rpc.t_send_ns = 0;
            on_reply(&q->call, q);
        }
    }
}

/* The reply of a file's OPEN sent again before the op (start_op): the
 * file's open is the new one (or, failed, counted, the op goes with the
 * anonymous stateid), and the op's own compound goes now.  Returns 1 when
 * it went (done comes later); 0 when the reply is not a reopen's, or when
 * the op could not go - its call then fails with the reopen's failure or
 * the start's. */
static int reopened(struct p4_call *p)
{
    struct p4_state *st = p->s->state;
    struct nf4_call *call = &p->call;
    int rc;

    if (!p->reopening)
        return 0;
    p->reopening = 0;
    (void)nf4_open_done(&st->open, p->fstate, call->status == 0 ? &call->res : NULL,
                        call->epoch);
    unpark(st, p->fstate);
    if (call->status != 0)
        return 0; /* the client failed the OPEN: the op fails as it did */
    rc = start_op(st, p);
    if (rc == 0)
        return 1;
    call->status = rc;
    return 0;
}

/* A CREATE's OPEN leaves a file open whose CLOSE may have to wait: the
 * CREATE goes once the created files' CLOSEs queued and to come (CREATEs
 * in flight) are fewer than UNCLOSED_MAX, the process waiting for CLOSEs
 * to be answered meanwhile (counted), as an application's close() would
 * hold it.  The wait is bounded by CLOSE_WAIT_MS: the CREATE then goes all
 * the same, and its file may be left open (counted).  Once the process is
 * to end (stopping) no CREATE goes: its file would be one more to close
 * in the end's bounded time (a caller without a stop flag: a signal ends
 * the wait, the CREATE going).  0, -EINTR (stopping), or -ENOTCONN when
 * the client died. */
static int created_room(struct p4_state *st)
{
    uint64_t t0, end;
    int rc = 0;

    if (stopping(st))
        return -EINTR;
    if (st->unclosed_len - st->ws_queued + st->creates_out < UNCLOSED_MAX)
        return 0;
    t0 = cm_now_ns();
    end = t0 + (uint64_t)CLOSE_WAIT_MS * 1000000u;
    st->open.create_waits++;
    while (st->unclosed_len - st->ws_queued + st->creates_out >= UNCLOSED_MAX) {
        uint64_t now = cm_now_ns();
        int prc;

        if (rp_client_state(nf4_client_rpc(st->m.cl)) == RP_STATE_DEAD)
            return -ENOTCONN;
        if (stopping(st)) {
            rc = -EINTR;
            break;
        }
        if (now >= end)
            break;
        prc = nf4_poll(st->m.cl, (int)((end - now) / 1000000u) + 1);
        close_queued(st); /* a new client's: the older epoch's need no CLOSE */
        if (prc < 0 && prc != -EINTR)
            return prc;
        if (prc == -EINTR && st->stop == NULL)
            break;
    }
    st->open.create_wait_s += (double)(cm_now_ns() - t0) / 1e9;
    return rc;
}

static int call_start4(struct nf_session *s, struct nf_call *c,
                       const struct nf_op_args *a)
{
    struct p4_state *st = s->state;
    struct p4_call *p = c->pc;
    struct nf4_sfs_args *x = &p->args;
    int rc;

    c->op = a->op;
    p->c = c;
    p->s = s;
    p->fstate = a->fstate;
    p->sid_epoch = NO_OPEN;
    p->restated = 0;
    p->reopening = 0;
    p->again = 0;
    memset(x, 0, sizeof(*x));
    if (a->fh) {
        nf4_fh_from_nf(a->fh, &p->fh);
        x->fh = &p->fh;
    }
    if (a->fh2) {
        nf4_fh_from_nf(a->fh2, &p->fh2);
        x->fh2 = &p->fh2;
    }
    x->name = a->name;
    x->name2 = a->name2;
    x->target = a->text;
    x->offset = a->offset;
    x->count =
        a->op == NF_OP_READDIR || a->op == NF_OP_READDIRPLUS ? a->dir_bytes : a->count;
    x->dircount = a->dir_bytes;
    x->data = a->data;
    x->sa.set_mode = 1;
    x->sa.mode = a->mode;
    x->sa.set_size = a->set_size != 0;
    x->sa.size = a->size;
    x->sa.set_atime_now = x->sa.set_mtime_now = a->times != 0;
    p->call.done = on_reply;
    p->call.data = p;
    p->call.timeout_ms = c->timeout_ms;
    if (a->op == NF_OP_CREATE && (rc = created_room(st)) < 0)
        return rc;
    rc = start_op(st, p);
    if (rc == 0)
        p->t_first_ns = p->call.t_start_ns;
    if (rc == 0 && a->op == NF_OP_CREATE)
        st->creates_out++;
    return rc;
}

static int poll4(struct nf_session *s, int timeout_ms)
{
    return nf4_poll(client(s), timeout_ms);
}

static int fd4(const struct nf_session *s)
{
    return nf4_client_fd(client(s));
}

static short events4(const struct nf_session *s)
{
    return nf4_client_events(client(s));
}

static int service4(struct nf_session *s, short revents)
{
    return nf4_client_service(client(s), revents);
}

static int next_ms4(const struct nf_session *s)
{
    return nf4_client_timeout_ms(client(s));
}

/* ---- the working set's files ------------------------------------------------ */

/* Room in the CLOSE queue for every file of the working set (one more
 * entering) to leave at once, besides the created files' UNCLOSED_MAX:
 * grown as files enter (set-up), never in the run.  0 or -ENOMEM. */
static int queue_room(struct p4_state *st)
{
    unsigned cap = st->unclosed_cap, i;
    struct p4_unclosed *q;

    if (UNCLOSED_MAX + st->ws_files + st->ws_queued + 1 <= cap)
        return 0;
    cap *= 2;
    q = cm_calloc(cap, sizeof(*q));
    if (q == NULL)
        return -ENOMEM;
    for (i = 0; i < st->unclosed_len; i++)
        q[i] = st->unclosed[(st->unclosed_head + i) % st->unclosed_cap];
    free(st->unclosed);
    st->unclosed = q;
    st->unclosed_cap = cap;
    st->unclosed_head = 0;
    return 0;
}

/* f left the working set and comes back: its CLOSE, queued or in flight,
 * is answered first (the server must not see the OPEN before it).
 * 0, or -errno when the client died, the bound ran out or the process is
 * to end. */
static int wait_closed(struct p4_state *st, const struct nf4_open *f)
{
    uint64_t end = cm_now_ns() + (uint64_t)CLOSE_WAIT_MS * 1000000u;

    while (f->state == NF4_CLOSING) {
        uint64_t now = cm_now_ns();
        int rc;

        if (rp_client_state(nf4_client_rpc(st->m.cl)) == RP_STATE_DEAD)
            return -ENOTCONN;
        if (now >= end)
            return -ETIMEDOUT;
        if (stopping(st))
            return -EINTR;
        rc = nf4_poll(st->m.cl, (int)((end - now) / 1000000u) + 1);
        if (rc < 0 && rc != -EINTR)
            return rc;
    }
    return 0;
}

static int file_enter4(struct nf_session *s, const struct nf_fh *fh, void *fstate)
{
    struct p4_state *st = s->state;
    struct nf4_open *f = fstate;
    struct nf4_sfs_args a;
    struct nf4_fh h;
    uint64_t t0 = cm_now_ns();
    int rc;

    rc = queue_room(st);
    if (rc == 0 && f->state == NF4_CLOSING)
        rc = wait_closed(st, f);
    if (rc == 0) {
        memset(&a, 0, sizeof(a));
        nf4_fh_from_nf(fh, &h);
        a.fh = &h;
        rc = nf4_sfs_open(&st->sync.args, &a) < 0 ? -EINVAL : 0;
    }
    if (rc < 0)
        return rc;
    nf4_reclaimer_keep(&st->reclaim, fstate, fh);
    st->ws_files++;
    nf4_open_sending(&st->open, f);
    st->sync.res.data = NULL;
    st->sync.res.data_max = 0;
    rc = nf4_call_sync(st->m.cl, &st->sync);
    /* a failed OPEN is counted; the file's READs and WRITEs then go with
     * the anonymous stateid, counted too */
    nf4_open_done(&st->open, f, rc == 0 ? &st->sync.res : NULL, st->sync.epoch);
    if (st->sync.t_reply_ns > st->sync.t_start_ns + NF4_SLOW_NS)
        st->open.slow_ws_opens++;
    st->open.ws_wait_s += (double)(cm_now_ns() - t0) / 1e9;
    return rc == -ENOTCONN ? rc : 0;
}

/* The CLOSE goes as a created file's does, the process not waiting for
 * it (f NF4_CLOSING until it is answered). */
static int file_leave4(struct nf_session *s, const struct nf_fh *fh, void *fstate)
{
    struct p4_state *st = s->state;
    struct nf4_open *f = fstate;
    uint32_t epoch = nf4_client_epoch(st->m.cl);
    uint64_t t0 = cm_now_ns();
    struct nf4_fh h;
    stateid4 sid;

    if (st->ws_files > 0)
        st->ws_files--;
    if (!nf4_open_leave(&st->open, f, epoch, &sid))
        return 0;
    st->open.closes--; /* counted when it is sent (send_close) */
    f->state = NF4_CLOSING;
    nf4_fh_from_nf(fh, &h);
    close_file(st, &h, &sid, epoch, f);
    st->open.ws_wait_s += (double)(cm_now_ns() - t0) / 1e9;
    return rp_client_state(nf4_client_rpc(st->m.cl)) == RP_STATE_DEAD ? -ENOTCONN : 0;
}

const struct nf4_mount *nf4_session_mount(const struct nf_session *s)
{
    return s->proto == &nf_proto_v4 && s->state ? &((const struct p4_state *)s->state)->m
                                                : NULL;
}

/* ---- the counters ---------------------------------------------------------- */

static void counters_start4(struct nf_session *s)
{
    struct p4_state *st = s->state;

    if (s->stats)
        memset(s->stats, 0, sizeof(struct nf4_load_stats));
    if (st == NULL)
        return;
    st->open_mark = st->open;
    nf4_client_stats(st->m.cl, &st->client_mark);
    st->counting = 1;
}

static void counters_stop4(struct nf_session *s)
{
    struct p4_state *st = s->state;
    struct nf4_client_stats now;

    if (st == NULL || !st->counting || s->stats == NULL)
        return;
    st->counting = 0;
    nf4_client_stats(st->m.cl, &now);
    nf4_load_client(s->stats, &now, &st->client_mark);
    nf4_load_opens(s->stats, &st->open, &st->open_mark);
}

static void report_rows4(FILE *out, const void *stats, uint64_t sfs_calls)
{
    nf4_load_report(out, stats, sfs_calls);
}

static void report_yaml4(struct cm_yaml *y, const void *stats)
{
    nf4_load_yaml(y, stats);
}

const struct nf_proto nf_proto_v4 = {
    .name = "NFSv4.1",
    .prog = "sfs4",
    .version = 4,
    .sfs_ops = 3,
    .tcp_only = 1,
    .mount = mount4,
    .unmount = unmount4,
    .keepalive = keepalive4,
    .max_in_flight = max_in_flight4,
    .has_op = has_op,
    .call_bytes = sizeof(struct p4_call),
    .call_start = call_start4,
    .poll = poll4,
    .fd = fd4,
    .events = events4,
    .service = service4,
    .next_ms = next_ms4,
    .file_bytes = sizeof(struct nf4_kept_open), /* its open first */
    .file_enter = file_enter4,
    .file_leave = file_leave4,
    .counters = {nf4_load_field_table, NF4_LOAD_NFIELDS, sizeof(struct nf4_load_stats),
                 counters_start4, counters_stop4, report_rows4, report_yaml4},
};
