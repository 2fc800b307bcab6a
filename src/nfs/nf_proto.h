/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf_proto.h - the protocol seam: one const table per NFS protocol (NFSv2
 * in proto2.c, NFSv3 in proto3.c, the list in proto.c), as the rpc layer's
 * transports are behind rp_transport_ops, so that a workload speaks of SFS
 * ops and files and never asks which protocol carries them.  A protocol
 * says
 *
 *   who it is      its name, the program that speaks it (sfs, sfs3, sfs4),
 *                  its version of NFS's RPC program, the SFS op set its
 *                  mix uses, whether it runs over TCP only;
 *   its session    mount (v2/v3: MOUNT, then the NFS client; a protocol
 *                  without a MOUNT program finds the export itself) and
 *                  unmount; the client state made before the timed phase
 *                  for the calls a process keeps in flight and torn down
 *                  at the end (also after SIGINT); an idle keep-alive; the
 *                  calls it lets a process keep in flight;
 *   its calls      an SFS op's call built from version-neutral arguments
 *                  in the caller's pre-allocated storage and STARTED by
 *                  the protocol itself (it may queue it for a slot, hold
 *                  it, send it again); the session SERVICED through the
 *                  protocol's poll or fd/events/service/next_ms; one
 *                  completion callback per started call with a
 *                  version-neutral result, the times and the retransmits;
 *                  "the server is busy, send it again later";
 *   its files      a file entering and leaving a process's working set (a
 *                  stateful protocol opens and closes it);
 *   its counters   what it counts beyond SFS's per-op table (a cm_field
 *                  table, as a workload's results) and its report rows.
 *
 * The life of a process's session, as the caller drives it:
 *
 *   s->proto = p; s->in_flight = N;   mount(s, ...)   begin(s, ...)
 *   ... population and the load phases: nf_call_start / poll / done ...
 *   end(s)   unmount(s)                (end and unmount after SIGINT too)
 *
 * A call: the caller fills c->done, c->data (and c->timeout_ms, c->buf),
 * then nf_call_start(s, c, &args): 0 and exactly one done later, from
 * inside the session's poll or service (never from inside the start), or
 * a negative errno and no done.  In done, c->status says whether a reply
 * came (0) and c->res what it says; c->res.busy asks for the same call
 * again later (nf_call_again) when the protocol leaves that to the caller
 * (v3's JUKEBOX: the workload's --jukebox-delay); a protocol that holds
 * and resends itself (v4.1's DELAY and GRACE) never sets it and counts its
 * resends in c->again.  Hooks documented "may be NULL" are optional.
 * docs/ARCHITECTURE.md, "Where NFSv4.1 plugs in", says what a new
 * protocol adds.
 */
#ifndef NF_PROTO_H
#define NF_PROTO_H

#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/fields.h"
#include "nfs/nf.h"

struct nf_proto;
struct cm_yaml;

/* ---- the session -------------------------------------------------------- */

/* One process's session with a server, the caller's (zeroed, then proto
 * and in_flight set before mount). */
struct nf_session {
    const struct nf_proto *proto;
    unsigned in_flight;    /* the calls the caller keeps in flight at once, at
                              most (a sessions protocol: the slots it asks
                              for) */
    struct nf_mount mnt;   /* the server and the export's root (mnt.root);
                              v2/v3: the MOUNT session, mnt.nfs the NFS
                              client */
    struct rp_client *rpc; /* the rpc client the calls go over, while
                              mounted: its state, statistics and last error
                              are the session's (the engine is every
                              protocol's) */
    int mounted;
    void *state; /* the protocol's own (client id, session, slots, opens):
                    made by mount or begin, freed by end or unmount; NULL
                    when it keeps none */
    void *stats; /* its counters (proto->counters.size bytes), the
                    caller's, zeroed; NULL: none counted */
    const volatile sig_atomic_t *stop; /* the caller's flag, non-zero once the
                                          process is to end (SIGINT, SIGTERM):
                                          a protocol's waits then end at once
                                          and start nothing that would leave
                                          state behind; NULL: none */
};

/* ---- what a call works on, and what its reply says ---------------------- */

/* Entry types of a neutral result (the v2/v3 ftype numbering). */
enum nf_ftype { NF_FT_NONE = 0, NF_FT_REG = 1, NF_FT_DIR = 2, NF_FT_LNK = 5 };

/*
 * What an SFS op works on, in no protocol's terms.  The pointers stay
 * valid until the call's done ran (a protocol may send the call again
 * from them); unused fields are ignored.  fh is the object (getattr,
 * setattr, access, readlink, read, write, commit, readdir(plus), fsstat,
 * fsinfo, pathconf; link's file) or the directory of name (lookup,
 * create, mkdir, symlink, mknod, remove, rmdir; rename's source).
 */
struct nf_op_args {
    int op;                  /* enum nf_op */
    const struct nf_fh *fh;  /* the object, or the directory of name */
    const char *name;        /* the entry in fh */
    const struct nf_fh *fh2; /* link: the directory of name2; rename: the
                                target directory */
    const char *name2;       /* link: the new name; rename: the target */
    const char *text;        /* symlink: what it points at */
    uint64_t offset;         /* read, write */
    uint32_t count;          /* read, write */
    const char *data;        /* write: count bytes */
    int set_size;            /* setattr: truncate or extend to size */
    uint64_t size;
    uint32_t mode;      /* create, mkdir, symlink, mknod, setattr: permission
                           bits only (the protocol adds a type where it needs
                           one: v2) */
    int times;          /* set the client's times where the protocol may (v3:
                           not on a symlink or special file) */
    uint32_t dir_bytes; /* readdir, readdirplus: bytes asked for */
    void *fstate;       /* the object's file state (proto->file_bytes bytes of
                           the caller's, see file_enter), NULL when none */
};

/* What a reply says, in no protocol's terms (valid in done when
 * c->status is 0). */
struct nf_op_res {
    uint32_t status; /* the NFS status in nf.h's numbering (NF_ST_*), 0 OK */
    int attr_type;   /* the object's type from attributes (enum nf_ftype),
                        -1 none */
    uint64_t attr_size;
    int has_fh; /* the reply names the object's handle: fh (a handle
                   longer than NF_FH_MAX is not kept: the object is
                   then reached by name) */
    struct nf_fh fh;
    int fh_forgotten; /* the object was made anew and the reply names no
                         handle: an earlier one no longer applies (v2
                         SYMLINK; the caller looks it up) */
    int unstable;     /* write: the data awaits a COMMIT */
    int busy;         /* the server asks for the call again later and the
                         protocol leaves that to the caller (v3 JUKEBOX):
                         nf_call_again, or take it as the answer */
};

/* ---- one call ----------------------------------------------------------- */

struct nf_call;
typedef void (*nf_call_done_fn)(struct nf_call *c, void *data);

/*
 * One call, the caller's storage (pre-allocated with nf_calls_alloc: the
 * hot path allocates nothing).  The caller sets the inputs; the protocol
 * the outputs, before done.  A call may be started again once its done
 * ran (from inside done too).
 */
struct nf_call {
    /* inputs */
    nf_call_done_fn done;
    void *data;
    uint32_t timeout_ms; /* of every send; 0: the op's SFS call class's
                            (nf_class_timeout_ms) */
    char *buf;           /* READ data, READLINK text, directory entries:
                            buf_max bytes of the caller's (NULL: read over) */
    uint32_t buf_max;

    /* outputs, valid in done */
    int op;     /* the args' op */
    int status; /* 0: a reply, read out into res; else a negative
                   errno (RP_ERR_*, -ENOTCONN: the session is gone) */
    struct nf_op_res res;
    uint64_t t_start_ns;      /* the start of the call's time (the client's
                                 clock): its first send, or when it started
                                 waiting for a slot where the protocol has them */
    uint64_t t_send_ns;       /* its final send: "late" is judged from it */
    uint64_t t_reply_ns;      /* its reply; 0 when none */
    uint32_t send_timeout_ms; /* the timeout the final send ran under: the
                                 call is late when t_reply_ns - t_send_ns
                                 exceeds it */
    uint32_t retransmits;     /* same-call resends (UDP timeouts, a new
                                 connection) */
    uint32_t again;           /* sends again after "busy" answers (v3 JUKEBOX
                                 by nf_call_again, v4.1 DELAY and GRACE by the
                                 protocol itself) */
    uint32_t xid;             /* of the final send (for logs) */

    /* the protocol's: its arguments, result and engine call
     * (proto->call_bytes bytes, from nf_calls_alloc) */
    void *pc;
};

/* ---- the table ---------------------------------------------------------- */

struct nf_proto {
    const char *name; /* "NFSv3" */
    const char *prog; /* the program that speaks it: "sfs3" */
    int version;      /* of program 100003 */
    int sfs_ops;      /* the SFS op set its mix uses (nf_op_in_version's 2 or 3) */
    int tcp_only;     /* runs over TCP only (NFSv4: RFC 8881 asks a congestion-
                         controlled transport): TCP implied, UDP refused */

    /* ---- the session ---- */

    /* Mounts spec: the server, the export's root handle (s->mnt.root),
     * the connection on o's transport (s->rpc).  s->proto and
     * s->in_flight are set; a protocol whose every call needs client
     * state may make it here (population runs between begin and end).
     * 0, or -errno with one line in err. */
    int (*mount)(struct nf_session *s, const char *spec, const struct nf_mount_opts *o,
                 char *err, size_t errlen);
    /* Unmounts (best effort, bounded) and closes what mount opened;
     * safe on a session mount failed on.  Never from a done callback. */
    void (*unmount)(struct nf_session *s);
    /* The client state a process needs for s->in_flight calls at once,
     * before population and the timed phases (4.1: EXCHANGE_ID,
     * CREATE_SESSION, RECLAIM_COMPLETE).  Blocks, bounded.  0, or -errno
     * with err.  May be NULL (none). */
    int (*begin)(struct nf_session *s, char *err, size_t errlen);
    /* Tears it down (4.1: DESTROY_SESSION, DESTROY_CLIENTID), at the end
     * and when the process is stopped; closes the files still in the
     * working set first.  Bounded.  May be NULL. */
    void (*end)(struct nf_session *s);
    /* Called while a process is idle, idle_ns after its last call: keeps
     * the client state alive (a lease).  0 or -errno.  May be NULL. */
    int (*keepalive)(struct nf_session *s, uint64_t idle_ns);
    /* The calls a process may keep in flight (the slots granted); 0: no
     * bound of its own.  May be NULL (0). */
    unsigned (*max_in_flight)(const struct nf_session *s);

    /* ---- its calls ---- */

    /* Whether it has SFS op op (the mix's ops it lacks are bad calls, as
     * SFS counted them). */
    int (*has_op)(int op);
    /* Bytes of its own storage per call (c->pc). */
    size_t call_bytes;
    /* Builds the call of a->op into c->pc and starts it (queued for a
     * slot, sent).  0: done runs exactly once later, from poll or
     * service; else -errno and no done (-EOPNOTSUPP: no such op). */
    int (*call_start)(struct nf_session *s, struct nf_call *c,
                      const struct nf_op_args *a);
    /* Sends a finished call again, its arguments as they were, after a
     * busy reply (c->res.busy): c->again counts it, c->t_start_ns stays.
     * 0 or -errno as call_start.  May be NULL when no reply is busy. */
    int (*call_again)(struct nf_session *s, struct nf_call *c);
    /* Services the session for at most timeout_ms (-1: until its next
     * deadline): replies, timeouts, calls held coming due; done runs from
     * here.  Returns the calls completed, or -errno (-EINTR). */
    int (*poll)(struct nf_session *s, int timeout_ms);
    /* The same for a caller's own poll loop: the descriptor and events to
     * wait for, the service of what came, and the ms until the next thing
     * to do (-1 none). */
    int (*fd)(const struct nf_session *s);
    short (*events)(const struct nf_session *s);
    int (*service)(struct nf_session *s, short revents);
    int (*next_ms)(const struct nf_session *s);

    /* ---- files in a process's working set ---- */

    /* Bytes of state the caller keeps per file for the protocol (zeroed
     * before file_enter; passed back as nf_op_args.fstate); 0: none. */
    size_t file_bytes;
    /* A file enters / leaves the process's working set (4.1: OPEN before
     * its first READ or WRITE, now or at that call; CLOSE).  May send
     * calls of their own (counted in the protocol's counters, not as SFS
     * calls), synchronously and bounded or serviced by later polls.  0 or
     * -errno.  May be NULL (nothing to do: v2, v3). */
    int (*file_enter)(struct nf_session *s, const struct nf_fh *fh, void *fstate);
    int (*file_leave)(struct nf_session *s, const struct nf_fh *fh, void *fstate);

    /* ---- what it counts ---- */

    /* Its counters beyond SFS's per-op table (common/fields.h: merged,
     * sent and written under the YAML's "protocol" key as a workload's
     * results; size 0: none), kept by the caller at s->stats.  start and
     * stop bound what they count (the run phase): start zeroes s->stats
     * and counts from now, stop adds to it what the session did since
     * (every call it sent, its own included; its recoveries).  Its rows
     * in the report's text (sfs_calls: the SFS ops' calls, what its own
     * calls are a share of) and its entries in the YAML's "protocol"
     * mapping.  Hooks may be NULL when size is 0. */
    struct {
        const struct cm_field *fields;
        size_t n;
        size_t size;
        void (*start)(struct nf_session *s);
        void (*stop)(struct nf_session *s);
        void (*report_rows)(FILE *out, const void *stats, uint64_t sfs_calls);
        void (*report_yaml)(struct cm_yaml *y, const void *stats);
    } counters;
};

/* ---- the list, and the seam's generic helpers (proto.c) ------------------ */

/* The protocol of an RPC version, or of the name of the program that
 * speaks it; NULL when none. */
const struct nf_proto *nf_proto_by_version(int version);
const struct nf_proto *nf_proto_by_prog(const char *prog);
/* Every protocol, in version order: the i-th, NULL past the last. */
const struct nf_proto *nf_proto_nth(size_t i);
/* The lowest and highest version of them. */
void nf_proto_versions(int *lo, int *hi);

extern const struct nf_proto nf_proto_v2, nf_proto_v3, nf_proto_v4;

/* n calls for protocol p, each with its storage (one allocation, at set-up;
 * zeroed).  NULL when out of memory.  nf_calls_free(NULL) is fine. */
struct nf_call *nf_calls_alloc(const struct nf_proto *p, size_t n);
void nf_calls_free(struct nf_call *calls);

/* The session's hooks, NULL ones included (proto.c). */
int nf_session_mount(struct nf_session *s, const struct nf_proto *p, unsigned in_flight,
                     const char *spec, const struct nf_mount_opts *o, char *err,
                     size_t errlen);
/* end then unmount (what a process does at its end and after SIGINT);
 * safe when not mounted. */
void nf_session_close(struct nf_session *s);
static inline int nf_call_start(struct nf_session *s, struct nf_call *c,
                                const struct nf_op_args *a)
{
    return s->proto->call_start(s, c, a);
}
static inline int nf_call_again(struct nf_session *s, struct nf_call *c)
{
    return s->proto->call_again ? s->proto->call_again(s, c) : -EOPNOTSUPP;
}
static inline int nf_session_poll(struct nf_session *s, int timeout_ms)
{
    return s->proto->poll(s, timeout_ms);
}

/* Starts c and services the session until its done ran (the session's
 * other calls keep going); c->done and c->data are the helper's.  Returns
 * c->status, or the start's error.  Bounded by the protocol's timeouts. */
int nf_call_run(struct nf_session *s, struct nf_call *c, const struct nf_op_args *a);

/* Whether a finished call is late (its final send unanswered within its
 * timeout: a bad call, as SFS counted it). */
static inline int nf_call_late(const struct nf_call *c)
{
    return c->t_reply_ns > c->t_send_ns &&
           c->t_reply_ns - c->t_send_ns > (uint64_t)c->send_timeout_ms * 1000000u;
}

/* Its time: from its start to its final reply (0 when the clocks say
 * otherwise). */
static inline uint64_t nf_call_elapsed_ns(const struct nf_call *c)
{
    return c->t_reply_ns > c->t_start_ns ? c->t_reply_ns - c->t_start_ns : 0;
}

#endif /* NF_PROTO_H */
