/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_int.h - private declarations of sfs_nfsd's NFSv4.0 and NFSv4.1
 * server (RFC 7530, RFC 8881): the COMPOUND loop (nfs4_compound.c), the
 * operation table (nfs4_ops.c), what every handler shares (nfs4_call.c:
 * the current and saved handles, statuses, names), attributes
 * (nfs4_attr.c), the name space and directory operations (nfs4_ns.c),
 * client records and leases (nfs4_client.c), sessions, slots and the reply
 * cache (nfs4_session.c), open and lock state (nfs4_state.c), and the
 * operations that change files (nfs4_file.c).  The file system is the one
 * v2 and v3 use (fs.c, through access.c), with the same handles, so an
 * object made over one version is seen over the others.
 *
 * Files call downwards only: compound -> xid (4.0's reply cache) -> ops
 * (the table) -> the handler files -> state -> session -> client -> call
 * -> attr -> fs/access.
 */
#ifndef SV_NFS4_INT_H
#define SV_NFS4_INT_H

#include "server/sv_int.h"
#include "nfs4_prot.h"

/* ---- limits (each with the error a client gets past it) ------------------ */

#define SV4_MAX_OPS       64    /* per compound: RESOURCE (4.0), TOO_MANY_OPS (4.1) */
#define SV4_MAX_CLIENTS   8192  /* client records: RESOURCE (4.0), DELAY (4.1) */
#define SV4_MAX_SESSIONS  16    /* per client: CREATE_SESSION answers NOSPC */
#define SV4_MAX_SLOTS     128   /* per session: CREATE_SESSION grants at most */
#define SV4_MAX_STATES    16384 /* open and lock stateids per client: RESOURCE/DELAY */
#define SV4_MAX_LOCKS     65536 /* byte ranges held per client: same errors */
#define SV4_MAX_OWNERS    16384 /* open and lock owners per client: same errors */
#define SV4_CACHED_MAX    (64 * 1024) /* largest reply a slot caches */
#define SV4_MIN_CHANNEL   128         /* smaller ca_maxrequest/responsesize: TOOSMALL */
#define SV4_TAG_MAX       NFS4_OPAQUE_LIMIT /* longer tags are not echoed whole */
#define SV4_ATTR_MAX      (16 * 1024)       /* one object's attribute values */
#define SV4_OWNER_MAX     NFS4_OPAQUE_LIMIT
#define SV4_DEFAULT_LEASE 90
#define SV4_MINOR_MAX     1
#define SV4_XID_ENTRIES   1024 /* 4.0's reply cache by XID (nfs4_xid.c) */
#define SV4_XID_REPLY_MAX 2048 /* larger replies are not kept there */

/* Supported attributes: bits of words 0, 1 and 2 (fattr4 numbering). */
#define SV4_ATTR_WORDS 3

/* ---- client records, sessions, state --------------------------------------- */

struct sv4_client;
struct sv4_session;

/* A session slot (RFC 8881 2.10.6): the sequence id of the last request,
 * its reply when the client asked for it to be cached, and a hash of the
 * request that a false retry (same sequence id, another request) would
 * not match. */
struct sv4_slot {
    uint32_t seqid;
    int cached; /* reply[0..len) is the COMPOUND4res of seqid */
    uint64_t req_hash;
    uint8_t *reply;
    uint32_t len, cap;
};

struct sv4_session {
    struct sv4_session *next; /* the client's list */
    struct sv4_client *cl;
    uint8_t id[NFS4_SESSIONID_SIZE];
    channel_attrs4 fore, back; /* what CREATE_SESSION granted */
    uint32_t flags;            /* csr_flags */
    uint32_t nslots;
    int dead; /* --dead-session: SEQUENCE answers DEADSESSION */
    struct sv4_slot *slots;
};

/* An open owner or a lock owner: its client, the owner bytes and, in
 * NFSv4.0, the sequence of its requests (RFC 7530 9.1.7). */
struct sv4_owner {
    struct sv4_owner *next; /* the client's list */
    struct sv4_client *cl;
    int lock;      /* a lock owner (else an open owner) */
    int confirmed; /* 4.0 open owner: OPEN_CONFIRM done */
    uint32_t seqid;
    int has_seqid;    /* seqid is the last one seen */
    uint32_t nstates; /* stateids that name this owner */
    /* 4.0: the last seqid-ordered reply of this owner (the operation's
     * encoded result), re-sent to a retransmission of the same request */
    uint32_t last_op;
    uint8_t *last_reply;
    uint32_t last_len, last_cap;
    uint32_t closed_key; /* 4.0: the state its last CLOSE removed */
    uint32_t len;
    uint8_t data[];
};

struct sv4_file;

/* A byte range a lock state holds. */
struct sv4_range {
    struct sv4_range *next; /* the lock state's list, by offset */
    uint64_t off, end;      /* [off, end), end = UINT64_MAX: to the end */
    int write;
};

/* An open or lock stateid. */
struct sv4_state {
    struct sv4_state *next_in_file; /* the file's opens, or its locks */
    struct sv4_state *next_in_client;
    struct sv4_client *cl;
    struct sv4_owner *owner;
    struct sv4_file *file;
    uint32_t key;   /* other = instance, client number, key */
    uint32_t seqid; /* the stateid's seqid */
    int lock;       /* a lock stateid (else an open stateid) */
    int revoked;    /* ADMIN_REVOKED on use until FREE_STATEID */
    /* open: the share reservation, and the access and deny modes it was
     * ever opened with (OPEN_DOWNGRADE may go back to any of them) */
    uint32_t access, deny;
    uint32_t access_seen, deny_seen;
    /* lock: the open it came from, and its ranges */
    struct sv4_state *open;
    struct sv4_range *ranges;
};

/* The state of one file: its opens and its lock stateids.  While it
 * exists it holds the file (sv__fs_hold), which outlives its last name. */
struct sv4_file {
    uint64_t fileid;
    struct sv4_state *opens, *locks;
};

struct sv4_client {
    struct sv4_client *next; /* all clients */
    uint64_t clientid;
    uint32_t number; /* clientid's low word, in every stateid it owns */
    uint32_t minor;  /* 0: SETCLIENTID, 1: EXCHANGE_ID */
    uint32_t uid;    /* the principal (AUTH_SYS uid) that made the record */
    int confirmed;
    verifier4 verifier; /* the client's boot verifier */
    verifier4 confirm;  /* 4.0: what SETCLIENTID_CONFIRM must give */
    uint64_t renewed_ns;
    int reclaim_complete;
    /* 4.1: CREATE_SESSION's sequence and the reply it cached */
    uint32_t cs_seq;
    int cs_cached;
    CREATE_SESSION4resok cs_reply;
    uint32_t cs_status;
    struct sv4_session *sessions;
    uint32_t nsessions;
    struct sv4_owner *owners;
    uint32_t nowners;
    struct sv4_state *states;
    uint32_t nstates, nranges;
    uint32_t ownerlen;
    uint8_t owner[SV4_OWNER_MAX];
};

/* An entry of 4.0's reply cache by XID: the reply (COMPOUND4res) of the
 * last request kept under xid % SV4_XID_ENTRIES; len 0 when none. */
struct sv4_xid_entry {
    uint32_t xid, len;
    uint64_t peer_hash, req_hash;
    uint8_t *reply; /* SV4_XID_REPLY_MAX bytes, made at the first store */
};

/* Counters of the v4 server (the stats file's nfs_v4 map). */
#define SV4_OPS          60 /* opnums 0..58 and OP_ILLEGAL counted at [59] */
#define SV4_ILLEGAL_SLOT 59

struct sv4 {
    struct sv_core *c;
    const struct cm_clock *clock;
    uint32_t lease_s, grace_s;
    uint64_t start_ns;
    uint32_t instance32;
    uint32_t next_client, next_state, next_session;
    struct sv4_client *clients;
    uint32_t nclients;
    /* client number -> struct sv4_client: every SEQUENCE finds its
     * session's client here, not by walking the list (which pynfs makes
     * thousands long) */
    struct sv_map by_number;
    struct sv_map states; /* key -> struct sv4_state */
    struct sv_map files;  /* fileid -> struct sv4_file */
    uint64_t last_reap_ns;
    /* expired client numbers (the most recent SV4_EXPIRED_MAX), so that
     * their ids and stateids are EXPIRED rather than unknown: as many as
     * there can be clients, since one reap can expire them all */
#define SV4_EXPIRED_MAX SV4_MAX_CLIENTS
    uint32_t expired[SV4_EXPIRED_MAX];
    uint8_t rebooted[SV4_EXPIRED_MAX]; /* 1: replaced by its reboot, not expired */
    uint32_t nexpired;
    struct sv4_xid_entry *xid_cache; /* SV4_XID_ENTRIES, made at the first store */
    /* counters */
    uint64_t null_calls, compounds[SV4_MINOR_MAX + 2];
    uint64_t ops[SV4_OPS];
    uint64_t leases_expired, leases_cut, slot_replays, xid_replays;
    /* the server's owner and scope in EXCHANGE_ID (new at each start) */
    char scope[32];
    u_int scope_len;
    /* scratch of the call being answered: the tag, and the arguments
     * nfs4_compound.c decodes in place (a handle, a bitmap) */
    char tag[SV4_TAG_MAX];
    uint8_t fh_in[NFS4_FHSIZE];
    uint32_t bitmap_in[NFS4_XDR_BITMAP];
    uint8_t attrs[SV4_ATTR_MAX];
};

/* ---- one compound being answered ------------------------------------------ */

/* A handle the compound holds (the current or the saved one): the bytes,
 * resolved again by each operation, because an operation before it may
 * have removed the object. */
struct sv4_fh {
    int set;
    uint8_t fh[SV_FH_LEN];
};

struct sv4_call {
    struct sv_core *c;
    struct sv4 *v;
    uint32_t minor;
    uint64_t now_ns;
    struct sv4_fh cur, saved;
    /* 4.1: the current stateid (RFC 8881 16.2.3.1.2), and the one SAVEFH
     * kept with the saved handle */
    int cur_sid_set, saved_sid_set;
    stateid4 cur_sid, saved_sid;
    /* 4.1: what SEQUENCE found */
    struct sv4_session *sess;
    struct sv4_slot *slot;
    struct sv4_client *cl;
    int cachethis;
    uint64_t req_hash;       /* of this request, for the false-retry check */
    size_t req_len;          /* the whole RPC message */
    const uint8_t *req_args; /* COMPOUND4args, the hash's input */
    size_t req_args_len;
    /* a retried SEQUENCE whose slot cached the reply: these bytes are the
     * COMPOUND4res to send, instead of what the compound encoded */
    const uint8_t *replay;
    uint32_t replay_len;
    uint32_t nops, opindex;
    int xid_keep; /* 4.0: an operation that changes state ran (nfs4_xid.c) */
    /* 4.0: a retransmission of an owner's last seqid request gets these
     * bytes as its result (set by the handler, written by the compound);
     * seq_owner: the owner whose reply this operation's result becomes */
    const uint8_t *op_replay;
    uint32_t op_replay_len;
    struct sv4_owner *seq_owner;
    uint8_t *outbuf;      /* the reply being encoded */
    uint32_t reply_room;  /* bytes the reply may still grow (maxresponsesize) */
    uint32_t reply_start; /* the RPC reply header's size */
    /* what results point to until the compound encodes them */
    uint8_t fhout[SV_FH_LEN];
    uint32_t words[SV4_ATTR_WORDS];
    secinfo4 sec[2];
};

/* An operation's handler: reads args, fills res (zeroed, its resop set)
 * and returns the status it put there.  Whatever res points to must stay
 * valid until the compound encodes it, right after the handler. */
typedef nfsstat4 (*sv4_op_fn)(struct sv4_call *x, nfs_argop4 *args, nfs_resop4 *res);
struct sv4_op {
    const char *name; /* lower case, as in the stats file */
    sv4_op_fn fn;     /* NULL: NOTSUPP */
    uint8_t minors;   /* bit m: allowed in minor version m */
};
#define SV4_M0   1u
#define SV4_M1   2u
#define SV4_MALL 3u
/* The table, indexed by operation number (nfs4_ops.c). */
const struct sv4_op *sv4_op_row(uint32_t opnum);
/* The stats name of an operation number (ILLEGAL beyond the table). */
const char *sv4_op_name(uint32_t opnum);

/* ---- nfs4_compound.c -------------------------------------------------------- */

/* Answers NFS version 4 procedure proc (NULL, COMPOUND) of the call msg
 * (msg_len bytes, in decoding its arguments) after the accepted reply
 * header already in out (over outbuf).  Returns 0, or -1 when the
 * arguments do not decode (GARBAGE_ARGS). */
int sv4_call_proc(struct sv_core *c, XDR *in, XDR *out, uint8_t *outbuf, size_t out_cap,
                  u_int proc, const uint8_t *msg, size_t msg_len);

/* ---- nfs4_xid.c: NFSv4.0's reply cache by XID ------------------------------ */

/* Notes that operation op runs in this compound (4.0: one that changes
 * state makes the reply worth keeping). */
void sv4_xid_note_op(struct sv4_call *x, uint32_t op);
/* 1 when xid from this peer with these arguments (x->req_args) was
 * answered before: *reply, *len are that COMPOUND4res. */
int sv4_xid_lookup(struct sv4_call *x, uint32_t xid, const uint8_t **reply,
                   uint32_t *len);
/* Keeps the reply of a 4.0 compound that changed state. */
void sv4_xid_store(struct sv4_call *x, uint32_t xid, const uint8_t *reply, uint32_t len);
void sv4_xid_free(struct sv4 *v);

/* ---- nfs4_call.c: what every handler shares ------------------------------ */

/* An NFSv4 status for a status of the file system (NFSv3 numbering). */
nfsstat4 sv4_status(int st3);
/* The node of the current (or saved) handle: 0, NOFILEHANDLE, STALE... */
nfsstat4 sv4_cur(struct sv4_call *x, struct sv_node **n);
nfsstat4 sv4_saved(struct sv4_call *x, struct sv_node **n);
void sv4_set_cur(struct sv4_call *x, const struct sv_node *n);
/* Whether n lies in the pseudo file system above the exports (read-only,
 * and holding nothing but the paths to the exports). */
int sv4_is_pseudo(struct sv4_call *x, const struct sv_node *n);
/* A component (LOOKUP, CREATE, OPEN, REMOVE...) checked and copied into
 * name: 0, INVAL (empty, not UTF-8), NAMETOOLONG, BADNAME ("." "..", a
 * slash, a NUL). */
nfsstat4 sv4_name(const component4 *comp, char name[SV_NAME_MAX + 1]);
/* A stateid of all zeros (anonymous) or all ones (READ bypass). */
int sv4_sid_anonymous(const stateid4 *s);
int sv4_sid_bypass(const stateid4 *s);
/* Time now on the v4 clock, and whether the grace period still runs. */
uint64_t sv4_now(struct sv4 *v);
int sv4_in_grace(struct sv4_call *x);

/* ---- nfs4_attr.c: attributes ---------------------------------------------- */

/* The supported attributes of a minor version (word i). */
uint32_t sv4_attr_supported(uint32_t minor, int word);
/* Encodes the attributes of mask that n has into v->attrs; *out gets the
 * bitmap of those returned (words in out_words, at least SV4_ATTR_WORDS).
 * rdattr: the value of rdattr_error when asked for.  0, INVAL for a
 * write-only attribute, RESOURCE when they do not fit. */
nfsstat4 sv4_attr_encode(struct sv4_call *x, const struct sv_node *n, const bitmap4 *mask,
                         nfsstat4 rdattr, uint32_t *out_words, fattr4 *out);
/* The same into buf (cap bytes) instead of v->attrs (READDIR's entries). */
nfsstat4 sv4_attr_encode_into(struct sv4_call *x, const struct sv_node *n,
                              const bitmap4 *mask, nfsstat4 rdattr, uint8_t *buf,
                              u_int cap, uint32_t *out_words, fattr4 *out);
/* Attributes a client sets (SETATTR, CREATE, OPEN): decoded from fa into
 * sa; *set gets the bitmap of those set.  0, ATTRNOTSUPP, INVAL (a
 * read-only attribute), BADXDR, BADOWNER. */
nfsstat4 sv4_attr_decode(struct sv4_call *x, const fattr4 *fa, struct sv_sattr *sa,
                         uint32_t set[SV4_ATTR_WORDS]);
/* VERIFY (want_same 1) and NVERIFY (0). */
nfsstat4 sv4_attr_verify(struct sv4_call *x, const struct sv_node *n, const fattr4 *fa,
                         int want_same);
/* The change attribute of n. */
uint64_t sv4_change(const struct sv_node *n);
/* A bitmap4 over the caller's words (len words of w). */
void sv4_bitmap(bitmap4 *b, uint32_t *w, u_int len);

/* ---- nfs4_client.c: client records and leases ---------------------------- */

struct sv4_client *sv4_client_find(struct sv4 *v, clientid4 id);
/* The client of a record number (a session id's or a stateid's), or NULL. */
struct sv4_client *sv4_client_numbered(const struct sv4 *v, uint32_t number);
/* Renews cl's lease. */
void sv4_client_renew(struct sv4_call *x, struct sv4_client *cl);
/* Expires the clients whose lease ran out (at most once a second). */
void sv4_reap(struct sv4 *v, uint64_t now_ns);
/* Removes a client whose lease ran out, remembering its number. */
void sv4_client_expire(struct sv4 *v, struct sv4_client *cl);
/* --expire-leases: 1 when this call finds cl's lease run out (cl is then
 * gone), else 0. */
int sv4_lease_cut(struct sv4_call *x, struct sv4_client *cl);
/* Whether a client number belonged to a client that went: SV4_GONE_LEASE
 * (its lease ran out), SV4_GONE_REBOOT (replaced by its next incarnation),
 * or 0 (not one that went). */
#define SV4_GONE_LEASE  1
#define SV4_GONE_REBOOT 2
int sv4_client_gone(const struct sv4 *v, uint32_t number);
/* Frees a client with all its sessions and state. */
void sv4_client_free(struct sv4 *v, struct sv4_client *cl);
void sv4_clients_free(struct sv4 *v);
/* The client a 4.0 operation names by clientid: 0, EXPIRED (removed when
 * its lease ran out) or STALE_CLIENTID (unknown, or from another
 * instance). */
nfsstat4 sv4_client_lookup40(struct sv4_call *x, clientid4 id, struct sv4_client **out);

nfsstat4 sv4_op_setclientid(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_setclientid_confirm(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_renew(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_exchange_id(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_destroy_clientid(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_reclaim_complete(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);

/* State memory (kept with the records, so that a client going takes it
 * all): a file's state (created on demand), owners, stateids. */
void sv4_session_free(struct sv4_session *s);
struct sv4_file *sv4_file_get(struct sv4 *v, uint64_t fileid, int create);
/* Drops f once no state names it. */
void sv4_file_put(struct sv4 *v, struct sv4_file *f);
struct sv4_owner *sv4_owner_find(struct sv4_client *cl, int lock, const char *data,
                                 u_int len);
struct sv4_owner *sv4_owner_new(struct sv4_client *cl, int lock, const char *data,
                                u_int len);
void sv4_owner_free(struct sv4_owner *o);
/* A new stateid of cl (seqid 1) on file f; NULL past SV4_MAX_STATES or
 * out of memory. */
struct sv4_state *sv4_state_new(struct sv4 *v, struct sv4_client *cl, struct sv4_owner *o,
                                struct sv4_file *f, int lock);
void sv4_state_free(struct sv4 *v, struct sv4_state *st);

/* ---- nfs4_session.c: sessions, slots, the reply cache --------------------- */

/* An error injected into a SEQUENCE (--error sequence=...) made real:
 * BADSESSION destroys the session, DEADSESSION makes it refuse every
 * SEQUENCE from now on. */
void sv4_session_fault(struct sv4_call *x, const SEQUENCE4args *args, nfsstat4 st);
/* Stores the reply of the request a SEQUENCE of this compound started, in
 * its slot, when the client asked for it to be cached. */
void sv4_slot_store(struct sv4_call *x, const uint8_t *reply, uint32_t len);
/* Hash of a request for the false-retry check. */
uint64_t sv4_request_hash(const uint8_t *msg, size_t len);

nfsstat4 sv4_op_create_session(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_destroy_session(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_bind_conn_to_session(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_sequence(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_backchannel_ctl(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);

/* ---- nfs4_ns.c: the name space and reading directories -------------------- */

nfsstat4 sv4_op_putfh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_putrootfh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_putpubfh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_getfh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_savefh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_restorefh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_lookup(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_lookupp(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_getattr(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_verify(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_nverify(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_access(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_readdir(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_readlink(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_secinfo(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_secinfo_no_name(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_openattr(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);

/* ---- nfs4_state.c: stateids, OPEN and its kin ------------------------------ */

#define SV4_SID_ANY  0
#define SV4_SID_OPEN 1
#define SV4_SID_LOCK 2
/* The stateid of st. */
void sv4_stateid_of(const struct sv4 *v, const struct sv4_state *st, stateid4 *sid);
/* The state sid names (want: SV4_SID_ANY, _OPEN, _LOCK), renewing its
 * client: 0, BAD_STATEID, OLD_STATEID, STALE_STATEID (4.0, another
 * instance's), EXPIRED (its client's lease ran out), ADMIN_REVOKED. 4.1's
 * current stateid is resolved. */
nfsstat4 sv4_state_find(struct sv4_call *x, const stateid4 *sid, int want,
                        struct sv4_state **out);
/* The stateid of a READ (write 0), WRITE or SETATTR of the size (write 1)
 * on n: the special ones (anonymous: share reservations hold, LOCKED;
 * READ bypass: READ only), or an open or lock state of n (WRITE needs the
 * open's write access: OPENMODE). */
nfsstat4 sv4_io_stateid(struct sv4_call *x, const stateid4 *sid, const struct sv_node *n,
                        int write);
/* 4.0 sequencing of an owner's requests: sv4_seq_check before (1: a
 * retransmission, answered from x->op_replay; *bad: BAD_SEQID), then
 * sv4_seq_done with the request's status; the compound hands the encoded
 * result to sv4_owner_keep_reply. */
int sv4_seq_check(struct sv4_call *x, struct sv4_owner *o, uint32_t op, seqid4 s,
                  nfsstat4 *bad);
void sv4_seq_done(struct sv4_call *x, struct sv4_owner *o, seqid4 s, nfsstat4 st);
/* 4.0: a request whose stateid st_rc refused (OLD_STATEID: a stateid its
 * first run advanced; BAD_STATEID: one its first run - a CLOSE - removed)
 * that retransmits its owner's last request: 1, the reply re-sent. */
int sv4_seq_replay(struct sv4_call *x, nfsstat4 st_rc, const stateid4 *sid, uint32_t op,
                   seqid4 s);
void sv4_owner_keep_reply(struct sv4_call *x, uint32_t op, const uint8_t *bytes,
                          uint32_t len);
/* RESOURCE (4.0) or DELAY (4.1): a cap reached. */
nfsstat4 sv4_no_room(const struct sv4_call *x);
/* ISDIR, SYMLINK, or WRONG_TYPE (4.1) / INVAL (4.0) for an object that is
 * not a regular file. */
nfsstat4 sv4_type_error(const struct sv4_call *x, const struct sv_node *n);

nfsstat4 sv4_op_open(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_open_confirm(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_open_downgrade(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_close(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_test_stateid(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_free_stateid(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_delegreturn(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);

/* ---- nfs4_lock.c: byte-range locks ------------------------------------------- */

nfsstat4 sv4_op_lock(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_lockt(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_locku(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_release_lockowner(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);

/* ---- nfs4_file.c: reading, writing and changing files ------------------------- */

nfsstat4 sv4_op_read(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_write(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_commit(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_setattr(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_create(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_link(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_remove(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);
nfsstat4 sv4_op_rename(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r);

/* ---- lifecycle (nfs4_ops.c) ------------------------------------------------ */

struct sv4 *sv4_create(struct sv_core *c, const struct sv_config *cfg);
void sv4_destroy(struct sv4 *v);
/* The nfs_v4 and nfs_v4_state maps of the stats file. */
void sv4_write_stats(const struct sv4 *v, struct cm_yaml *y);
/* Calls of an operation so far (OP_ILLEGAL: those of no operation). */
uint64_t sv4_count(const struct sv4 *v, uint32_t opnum);

#endif /* SV_NFS4_INT_H */
