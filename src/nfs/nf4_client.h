/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf4_client.h - the NFSv4.1 (and 4.0) client of the nfs layer, over the one rpc
 * engine (rp.h) and the rpcgen types of proto/nfs4_prot.x: compounds built
 * in the caller's storage (v4_build.c), replies decoded into the caller's
 * storage (v4_decode.c, v4_attr.c: no allocation per call), the client's
 * state - client id, session, fore-channel slots, lease (v4_session.c,
 * v4_client.c) - and the v4 mount: PUTROOTFH and a LOOKUP per component of
 * the export path, no MOUNT program (v4_mount.c).  docs/nfsv4.md describes
 * what is sent and how each error is handled.
 *
 * A call is a struct nf4_call the caller owns: it builds the compound's
 * operations once (nf4_compound_init, then nf4_op_*), and may start the
 * same call again and again; the client puts SEQUENCE in front (4.1), takes
 * a slot, sends, and answers the errors a client answers itself - DELAY
 * and GRACE by sending again later, BADSESSION/DEADSESSION with a new
 * session, STALE_CLIENTID/EXPIRED with a new client - before the done
 * callback sees the final reply.  The contract is the rpc engine's: 0 and
 * exactly one callback later, or a negative errno and none.
 */
#ifndef NF4_CLIENT_H
#define NF4_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "nfs4_prot.h"
#include "common/clock.h"
#include "nfs/nf.h"
#include "nfs/nf4.h"
#include "rpc/rp.h"

/* ---- bounds ------------------------------------------------------------- */

#define NF4_MAX_OPS         12 /* operations in one compound (SEQUENCE included) */
#define NF4_COUNTED_OPS     (OP_RECLAIM_COMPLETE + 1) /* nfs_opnum4 0..58: NFSv4.1's */
#define NF4_FH_MAX          NFS4_FHSIZE
#define NF4_MAX_SLOTS       1024 /* fore-channel slots a client asks for, at most */
#define NF4_ATTR_WORDS      3    /* attribute bitmap words kept (attributes 0..95) */
#define NF4_SETATTR_MAX     64   /* encoded bytes of the attributes a call sets */
#define NF4_SATTR_SETS      2    /* attribute sets in one compound */
#define NF4_KEPT_MAX        512  /* bytes of a kept compound's encoding */
#define NF4_OWNER_MAX       64   /* the client's owner string */
#define NF4_PATH_COMPONENTS 64   /* components of an export path */

/* ---- file handles and attributes ---------------------------------------- */

/* An NFSv4 file handle by value (up to 128 bytes, RFC 8881 4.2.1). */
struct nf4_fh {
    uint32_t len;
    uint8_t data[NF4_FH_MAX];
};

struct nf4_time {
    int64_t sec;
    uint32_t nsec;
};

/*
 * The attributes FreeSFS asks for, decoded from a fattr4 (v4_attr.c) in
 * the order of their numbers.  have[] says which were in the reply; the
 * booleans are 0 or 1.  Strings (owner, owner_group) are read over: their
 * lengths only.
 */
struct nf4_attrs {
    uint32_t have[NF4_ATTR_WORDS];
    uint32_t supported[NF4_ATTR_WORDS];
    uint32_t type; /* nfs_ftype4 */
    uint32_t fh_expire_type;
    uint64_t change;
    uint64_t size;
    uint8_t link_support, symlink_support, named_attr, unique_handles;
    uint8_t cansettime, case_insensitive, case_preserving, chown_restricted;
    uint8_t homogeneous, no_trunc;
    uint64_t fsid_major, fsid_minor;
    uint32_t lease_time; /* seconds */
    uint32_t rdattr_error;
    uint32_t aclsupport;
    uint64_t fileid;
    uint64_t files_avail, files_free, files_total;
    uint64_t maxfilesize;
    uint32_t maxlink, maxname;
    uint64_t maxread, maxwrite;
    uint32_t mode;
    uint32_t numlinks;
    uint32_t owner_len, owner_id; /* owner: its length, and its value when it
                                     is a number ("1000"), else UINT32_MAX */
    uint32_t owner_group_len, owner_group_id;
    uint32_t rawdev_major, rawdev_minor;
    uint64_t space_avail, space_free, space_total, space_used;
    struct nf4_time time_access, time_create, time_delta, time_metadata, time_modify;
    uint64_t mounted_on_fileid;
};

/* 1 when attribute n (FATTR4_*) is set in a bitmap of NF4_ATTR_WORDS words. */
static inline int nf4_attr_isset(const uint32_t *bits, unsigned n)
{
    return n < 32u * NF4_ATTR_WORDS && (bits[n / 32] >> (n % 32) & 1u);
}

/*
 * The attribute masks of the calls FreeSFS makes (v4_attr.c), each the set
 * a Linux NFSv4.1 client asks for the same work: GETATTR after most
 * operations (stat: type, change, size, fsid, fileid, mode, numlinks,
 * owner, owner_group, rawdev, space_used, the three times,
 * mounted_on_fileid); READDIR for `ls` (type and fileid) and for `ls -l`
 * (the GETATTR set); the file system's figures for FSSTAT, FSINFO and
 * PATHCONF; the lease time and the server's limits at mount.
 */
enum nf4_mask {
    NF4_MASK_GETATTR,
    NF4_MASK_READDIR,
    NF4_MASK_READDIR_PLUS,
    NF4_MASK_FSSTAT,
    NF4_MASK_FSINFO,
    NF4_MASK_PATHCONF,
    NF4_MASK_SERVER, /* lease_time, supported_attrs, maxread, maxwrite, type, fsid */
    NF4_MASK_TYPE,   /* type, fileid */
    NF4_NMASKS
};

/* The words of a mask as a bitmap4 the compound can point at (static). */
const bitmap4 *nf4_mask_bitmap(enum nf4_mask m);

/* The attributes a call sets (SETATTR, OPEN(CREATE), CREATE): each only
 * when its flag is set. */
struct nf4_sattr {
    unsigned set_mode : 1, set_size : 1, set_atime_now : 1, set_mtime_now : 1;
    unsigned set_times : 1; /* both times to time_s (the client's time) */
    uint32_t mode;
    uint64_t size;
    int64_t time_s;
};

/* Decodes the fattr4 value list (the opaque's bytes, len of them) whose
 * bitmap is mask into a: every attribute FreeSFS knows; the first unknown
 * one ends the decode (the rest is read over).  Returns 0, or -EPROTO when
 * the bytes are too short for what the bitmap announces. */
int nf4_attrs_decode(struct nf4_attrs *a, const uint32_t *mask, u_int nwords,
                     const char *vals, u_int len);

/* ---- compounds ---------------------------------------------------------- */

struct nf4_compound;
/* The names of a compound's operations, space-separated ("SEQUENCE PUTFH
 * GETATTR"), into buf (len bytes; cut when longer).  Returns buf. */
const char *nf4_compound_shape(const struct nf4_compound *c, char *buf, size_t len);

/*
 * The arguments of one COMPOUND, in the caller's storage (no allocation:
 * rpcgen's encoder reads them and allocates nothing).  Names, file handles
 * and data the operations point at are the caller's and must outlive the
 * call (as nf_fh_to_v3's handles do); the attributes a call sets are
 * encoded into sattr_buf.  In 4.1, op[0] is SEQUENCE, filled by the client
 * at every send.  A compound sent again and again unchanged can keep its
 * encoding (nf4_compound_keep).
 */
struct nf4_compound {
    COMPOUND4args args;
    nfs_argop4 op[NF4_MAX_OPS];
    uint32_t minor;      /* 0 or 1 */
    uint32_t nseq;       /* 1 when op[0] is the client's SEQUENCE */
    uint32_t cachethis;  /* ask the server to cache the reply (changes) */
    uint32_t nopen;      /* OPENs whose owner the client fills in (and LOCKs and
                            LOCKTs whose lock owner's client id it fills in) */
    uint32_t nsattr;     /* attribute sets encoded */
    uint32_t sattr_used; /* bytes of sattr_buf in use */
    uint32_t sattr_words[NF4_SATTR_SETS][2];
    char sattr_buf[NF4_SETATTR_MAX];
    /* the kept encoding (nf4_compound_keep): rpcgen's bytes of the first
     * send, copied at every later one with SEQUENCE's fields written over */
    uint32_t keep;
    uint32_t kept_len; /* bytes in kept; 0: none yet */
    uint32_t kept_seq; /* where SEQUENCE's arguments start in kept */
    char kept[NF4_KEPT_MAX];
};

/* Starts an empty compound for minor version 0 or 1 (with SEQUENCE first
 * unless noseq: EXCHANGE_ID, CREATE_SESSION, DESTROY_CLIENTID and the
 * 4.0 compounds go without). */
void nf4_compound_init(struct nf4_compound *c, uint32_t minor, int noseq);

/* The compound will be sent again unchanged (sfs_ping's calls): its first
 * send keeps rpcgen's encoding, and every later one copies it, writing
 * only SEQUENCE's session, slot and sequence id over - rpcgen's encode was
 * a quarter of an NFSv4.1 GETATTR's user-space work.  Anything appended
 * (nf4_op, the helpers) or a new nf4_compound_init drops what was kept;
 * what the operations point at (handles, names, data) must not change
 * while it is kept.  Compounds with an OPEN (their owner is the client's,
 * filled at every send) or longer than NF4_KEPT_MAX are encoded at every
 * send as before. */
void nf4_compound_keep(struct nf4_compound *c);

/* Operations appended in order; each returns the operation's argument
 * union (for fields the helper does not take), or NULL when the compound
 * is full (NF4_MAX_OPS) - nothing is appended then. */
nfs_argop4 *nf4_op(struct nf4_compound *c, nfs_opnum4 op);
nfs_argop4 *nf4_op_putfh(struct nf4_compound *c, const struct nf4_fh *fh);
nfs_argop4 *nf4_op_putrootfh(struct nf4_compound *c);
nfs_argop4 *nf4_op_getfh(struct nf4_compound *c);
nfs_argop4 *nf4_op_savefh(struct nf4_compound *c);
nfs_argop4 *nf4_op_restorefh(struct nf4_compound *c);
nfs_argop4 *nf4_op_getattr(struct nf4_compound *c, enum nf4_mask m);
nfs_argop4 *nf4_op_lookup(struct nf4_compound *c, const char *name);
nfs_argop4 *nf4_op_access(struct nf4_compound *c, uint32_t bits);
nfs_argop4 *nf4_op_readlink(struct nf4_compound *c);
nfs_argop4 *nf4_op_read(struct nf4_compound *c, const stateid4 *sid, uint64_t off,
                        uint32_t count);
nfs_argop4 *nf4_op_write(struct nf4_compound *c, const stateid4 *sid, uint64_t off,
                         stable_how4 stable, const void *data, uint32_t len);
nfs_argop4 *nf4_op_commit(struct nf4_compound *c, uint64_t off, uint32_t count);
/* OPEN by name in the current directory (name != NULL, CLAIM_NULL) or of
 * the current file (name == NULL, CLAIM_FH, 4.1), reading and writing,
 * denying nothing, asking for no delegation (4.1); with create, OPEN4_CREATE
 * UNCHECKED4 with the attributes of sa (NULL: none).  The owner is the
 * client's, filled at every send, unless the caller set one in the
 * returned arguments (owner.owner: an open owner of its own). */
nfs_argop4 *nf4_op_open(struct nf4_compound *c, const char *name, int create,
                        const struct nf4_sattr *sa);
nfs_argop4 *nf4_op_close(struct nf4_compound *c, const stateid4 *sid);
nfs_argop4 *nf4_op_setattr(struct nf4_compound *c, const stateid4 *sid,
                           const struct nf4_sattr *sa);
/* CREATE of a directory, symbolic link (target), FIFO or socket, or a
 * block or character device (spec). */
nfs_argop4 *nf4_op_create(struct nf4_compound *c, nfs_ftype4 type, const char *name,
                          const char *target, const struct nf4_sattr *sa);
nfs_argop4 *nf4_op_remove(struct nf4_compound *c, const char *name);
/* RENAME from the saved directory to the current one. */
nfs_argop4 *nf4_op_rename(struct nf4_compound *c, const char *from, const char *to);
/* LINK of the saved file into the current directory. */
nfs_argop4 *nf4_op_link(struct nf4_compound *c, const char *name);
nfs_argop4 *nf4_op_readdir(struct nf4_compound *c, uint64_t cookie, const char *verf,
                           uint32_t dircount, uint32_t maxcount, enum nf4_mask m);
nfs_argop4 *nf4_op_delegreturn(struct nf4_compound *c, const stateid4 *sid);

/* ---- the SFS operations as compounds -------------------------------------- */

/*
 * What an SFS op works on, version-neutral (v4_sfs.c): fh is the object
 * (getattr, setattr, read, write, commit, readlink, access, readdir,
 * fsstat, fsinfo, pathconf; the file link links) or the directory (lookup,
 * create, symlink, mkdir, mknod, remove, rmdir; rename's source); fh2 is
 * rename's target directory and link's directory; name (and rename's
 * name2) the entries; sid an OPEN's stateid (read, write; setattr's when
 * set); count the bytes (read, write, commit, readdir's maxcount).  The
 * pointers must outlive the call, as nf4_op_*'s.
 */
struct nf4_sfs_args {
    const struct nf4_fh *fh, *fh2;
    const char *name, *name2, *target;
    const stateid4 *sid;
    uint64_t offset;
    uint32_t count, dircount;
    const void *data;
    int stable;          /* write: FILE_SYNC4, else UNSTABLE4 (COMMIT later) */
    struct nf4_sattr sa; /* setattr; the new object's mode */
    nfs_ftype4 type;     /* mknod: NF4FIFO when 0 */
    uint64_t cookie;     /* readdir */
    const char *verf;    /* readdir: the cookie verifier (NULL: zeros) */
    uint32_t access;     /* ACCESS4_* bits (0: all) */
};

/*
 * Builds into c the compound a Linux NFSv4.1 client sends for SFS op
 * (NF_OP_*) - docs/nfsv4.md, "The SFS mix over NFSv4": SEQUENCE (4.1),
 * then the shape nf4_sfs_shape names.  Returns 0, -EOPNOTSUPP for an op
 * with no compound (null: the RPC NULL procedure; root and wrcache:
 * NFSv2's) or create over 4.0, -EINVAL when an argument it needs is
 * missing.
 */
int nf4_sfs_compound(struct nf4_compound *c, uint32_t minor, int op,
                     const struct nf4_sfs_args *a);
/* The operations after SEQUENCE of op's compound ("PUTFH GETATTR"), or
 * NULL. */
const char *nf4_sfs_shape(int op);
/* The OPEN a client sends before a file's first READ or WRITE (SEQUENCE
 * PUTFH OPEN(CLAIM_FH) ACCESS GETATTR, 4.1), and the CLOSE when it is done
 * with it (SEQUENCE PUTFH CLOSE GETATTR): fh the file, sid the open's. */
int nf4_sfs_open(struct nf4_compound *c, const struct nf4_sfs_args *a);
/* The reclaim of a file's open after a server restart (RFC 8881 18.16,
 * 8.4.2): the same compound with the OPEN's claim CLAIM_PREVIOUS and
 * OPEN_DELEGATE_NONE (no delegation was held). */
int nf4_sfs_reclaim(struct nf4_compound *c, const struct nf4_sfs_args *a);
int nf4_sfs_close(struct nf4_compound *c, const struct nf4_sfs_args *a);

/* ---- decoded replies ---------------------------------------------------- */

/* One operation's result: its number, status, and what FreeSFS keeps of
 * it (the union member named after the operation; nothing for those with
 * only a status). */
struct nf4_resop {
    uint32_t op;
    uint32_t status;
    union {
        SEQUENCE4resok sequence;
        struct nf4_attrs getattr;
        struct nf4_fh getfh;
        ACCESS4resok access;
        stateid4 close; /* and OPEN_CONFIRM's, OPEN_DOWNGRADE's, LOCK's and LOCKU's */
        struct {
            stateid4 stateid;
            change_info4 cinfo;
            uint32_t rflags;
            uint32_t deleg_type; /* open_delegation_type4 */
            stateid4 deleg;      /* READ or WRITE delegations */
        } open;
        struct {
            uint32_t eof;
            uint32_t len; /* bytes, in nf4_res.data (read over without it) */
        } read;
        WRITE4resok write;
        COMMIT4resok commit;
        struct {
            verifier4 cookieverf;
            uint32_t eof;
            uint32_t entries;
            uint64_t last_cookie;
            uint32_t names_len; /* bytes of NUL-terminated names in
                                   nf4_res.data (when set) */
        } readdir;
        struct {
            uint32_t len; /* bytes, in nf4_res.data */
        } readlink;
        change_info4 cinfo; /* CREATE, REMOVE, LINK; RENAME's target */
        struct {
            clientid4 clientid;
            sequenceid4 sequenceid;
            uint32_t flags;
            uint64_t server_id; /* a digest of server_owner4 and server_scope:
                                   the same server instance, the same digest */
        } exchange_id;
        struct {
            sessionid4 sessionid;
            sequenceid4 sequence;
            uint32_t flags;
            channel_attrs4 fore; /* ca_rdma_ird read over */
        } create_session;
        SETCLIENTID4resok setclientid;
    } u;
};

/*
 * A decoded COMPOUND4res.  The caller points data at a buffer of
 * data_max bytes for READ data, READLINK text and READDIR's names (NULL:
 * read over); the
 * decoder fills the rest.  A reply with more results than NF4_MAX_OPS, a
 * result of an operation FreeSFS never sends, or a string, handle or
 * bitmap longer than its bound does not decode (RP_ERR_GARBAGE).
 */
struct nf4_res {
    uint32_t status; /* the compound's: the last result's status */
    uint32_t nops;
    char *data;
    uint32_t data_max;
    uint32_t dir_fileids; /* READDIR: each name's NUL is followed by the
                             entry's fileid (8 bytes, host order, unaligned;
                             UINT64_MAX when its attributes had none) */
    struct nf4_resop op[NF4_MAX_OPS];
};

/* The result codec for struct nf4_res (rp_call.res_codec): decodes into
 * it, allocates nothing, frees nothing; encodes nothing (FALSE). */
bool_t nf4_xdr_res(XDR *x, void *res);

/* The result of operation op in r at or after index from, or NULL. */
const struct nf4_resop *nf4_res_find(const struct nf4_res *r, uint32_t op, uint32_t from);

/* ---- the client --------------------------------------------------------- */

struct nf4_client;
struct nf4_call;
typedef void (*nf4_done_fn)(struct nf4_call *call, void *data);

/*
 * One call.  The caller fills args (nf4_compound_init, nf4_op_*), res.data
 * and res.data_max, done and data, and optionally timeout_ms; everything
 * else is the client's.  The call may be started again once done ran
 * (from inside done too), with the same or new operations.
 */
struct nf4_call {
    struct nf4_compound args;
    struct nf4_res res;
    nf4_done_fn done; /* NULL only for nf4_call_sync */
    void *data;
    uint32_t timeout_ms; /* per send; 0 = the TCP call-class timeout */

    /* outputs, valid in done */
    int status;          /* 0: res decoded (res.status is the NFS status);
                            else a negative errno (RP_ERR_*, -ENOTCONN when
                            the client is gone) */
    uint64_t t_start_ns; /* nf4_call_start: waits for a slot count */
    uint64_t t_reply_ns; /* the final reply (or failure) */
    uint32_t delays;     /* sent again after NFS4ERR_DELAY */
    uint32_t graces;     /* sent again after NFS4ERR_GRACE */
    uint32_t resends;    /* sent again after a new session, a new client
                            or a slot's sequence repaired */
    uint32_t epoch;      /* the client's epoch at the final send: opens of
                            an older epoch are gone (nf4_client_epoch) */

    /* private to the client */
    struct rp_call rpc;
    struct nf4_client *cl;
    struct nf4_call *next;
    uint64_t hold_until_ns;
    uint64_t first_grace_ns;
    uint32_t slot;
    uint32_t session_gen;
    uint32_t state;
    uint32_t flags;
};

struct nf4_client_opts {
    uint32_t minor;            /* 1 (default) or 0 */
    unsigned slots;            /* fore-channel slots asked (calls in flight);
                                  default 64, at most NF4_MAX_SLOTS */
    uint32_t timeout_ms;       /* of the client's own calls (EXCHANGE_ID...);
                                  default the INIT class's 10 s */
    uint32_t delay_ms;         /* wait before sending again after DELAY
                                  (default 100 ms) */
    unsigned delay_tries;      /* sends of a call after DELAYs, at most
                                  (default 16): then DELAY is its answer */
    uint32_t grace_retry_ms;   /* wait between sends during a grace period
                                  (default 1000) */
    uint32_t grace_max_ms;     /* GRACE is the answer after this long
                                  (default 2 leases) */
    uint32_t recovery_max_ms;  /* a new session or client is given up after
                                  this long (default 2 leases) */
    char owner[NF4_OWNER_MAX]; /* client owner; "" = freesfs/<host>/<pid>/<n> */
    /* The caller's reclaim after a server restart (4.1; NULL: none, the
     * new client sends RECLAIM_COMPLETE at once): called once the new
     * client has its session, before RECLAIM_COMPLETE.  It starts its
     * reclaims (nf4_reclaim_start) and calls nf4_reclaim_end when they
     * are all answered (at once when there is nothing to reclaim); the
     * client ends the reclaim itself after reclaim_max_ms. */
    void (*reclaim)(struct nf4_client *cl, void *data);
    void *reclaim_data;
    uint32_t reclaim_max_ms; /* default 2 leases */
    /* The clock of the client's waits and of t_start_ns (NULL =
     * cm_monotonic_clock; copied): the rpc client's, so that a call's
     * times are on one clock (the unit tests step it). */
    const struct cm_clock *clock;
};

void nf4_client_opts_init(struct nf4_client_opts *o);

/* What the client counted (nf4_client_stats). */
struct nf4_client_stats {
    uint64_t calls;           /* calls started by the caller */
    uint64_t delays;          /* sends again after DELAY (state calls too) */
    uint64_t graces;          /* sends again after GRACE (state calls too) */
    uint64_t new_sessions;    /* sessions created after the first (set-up too) */
    uint64_t new_clients;     /* clients made after the first (set-up too) */
    uint64_t slot_repairs;    /* slots whose sequence id was set back */
    uint64_t renewals;        /* SEQUENCE-only (4.1) or RENEW (4.0) calls */
    uint64_t delegations;     /* delegations granted (none asked) */
    uint64_t delegreturns;    /* ... and returned */
    uint64_t slot_waits;      /* calls that waited for a free slot */
    uint64_t status_flags;    /* SEQUENCE replies with sr_status_flags set */
    uint64_t recovery_failed; /* recoveries given up */
    uint64_t restarts;        /* new clients after a server restart (a new
                                 server instance, not a lease lost) */
    uint64_t reclaims_cut;    /* reclaims the client ended at reclaim_max_ms */
    unsigned slots_asked, slots_granted;
    uint32_t lease_s;
    uint32_t max_ops; /* ca_maxoperations */
    uint32_t max_request, max_response;
    /* every compound sent (the client's own too: its state calls, lease
     * renewals, DELEGRETURNs, sends again), and its operations by number,
     * as a capture of the connection shows them (an engine retransmission
     * keeps its XID and is not counted again) */
    uint64_t compounds;
    uint64_t ops[NF4_COUNTED_OPS];
    uint64_t ops_other; /* operations numbered past NFSv4.1's */
};

/*
 * Establishes the client on the rpc client rpc (TCP, program 100003
 * version 4; the nf4 client owns it from now on, even on failure): 4.1
 * EXCHANGE_ID, CREATE_SESSION with opts->slots fore-channel slots and
 * RECLAIM_COMPLETE; 4.0 SETCLIENTID and SETCLIENTID_CONFIRM; then the
 * lease time (PUTROOTFH GETATTR).  Blocks, each call bounded by
 * opts->timeout_ms.  Returns 0 and *out, or -errno with one line in err
 * ("EXCHANGE_ID: MINOR_VERS_MISMATCH", "no reply in 10000 ms"...).
 */
int nf4_client_open(struct nf4_client **out, struct rp_client *rpc,
                    const struct nf4_client_opts *opts, char *err, size_t errlen);

/*
 * Ends the client: a recovery under way ends first (bounded by about two
 * seconds, so that the session or client it made is the one destroyed),
 * the calls still waiting complete with RP_ERR_CANCELED,
 * then (when the server is still reachable) DESTROY_SESSION and
 * DESTROY_CLIENTID (4.1) - each bounded by about a second - and the rpc
 * client is closed.  NULL is fine.  Never from a done callback.  Returns
 * 0 (destroyed, or nothing to destroy), DESTROY_CLIENTID's nfsstat4 when
 * the server refused it (CLIENTID_BUSY: the client still holds an open),
 * or -errno when it got no answer.
 */
int nf4_client_close(struct nf4_client *cl);

/*
 * Starts a call: SEQUENCE is filled in and the call sent when a slot is
 * free and the session up, else it waits (in order).  Returns 0 (done
 * will run exactly once), -EINVAL for a call without done or without
 * operations, -ENOTCONN once the client gave up.  Never blocks.
 */
int nf4_call_start(struct nf4_client *cl, struct nf4_call *call);

/* Runs one call to completion (the client's other calls keep going).
 * Returns call->status or the start error.  Bounded by the call's
 * timeouts and the recovery bounds. */
int nf4_call_sync(struct nf4_client *cl, struct nf4_call *call);

/* For a caller's poll loop: the socket, the events it wants, servicing
 * (replies, timeouts, calls held for DELAY/GRACE coming due, the lease
 * renewed when the client was idle for a third of it), and the time until
 * the next thing to do (ms, -1 = nothing).  nf4_client_service returns
 * the calls completed or -errno as rp_client_service. */
int nf4_client_fd(const struct nf4_client *cl);
short nf4_client_events(const struct nf4_client *cl);
int nf4_client_service(struct nf4_client *cl, short revents);
int nf4_client_timeout_ms(const struct nf4_client *cl);

/* Polls and services cl for at most timeout_ms (-1: until its next
 * deadline).  Returns the calls completed, 0, or -errno (-EINTR). */
int nf4_poll(struct nf4_client *cl, int timeout_ms);

/*
 * The reclaim after a server restart (RFC 8881 8.4.2): between a new
 * client's CREATE_SESSION and its RECLAIM_COMPLETE, opts.reclaim starts
 * calls that go while the rest wait - OPENs with CLAIM_PREVIOUS - on the
 * session's slots.  nf4_reclaim_start returns as nf4_call_start, or
 * -EAGAIN when the client is not reclaiming (it ended the reclaim at its
 * bound, or never began one).  nf4_reclaim_end lets RECLAIM_COMPLETE go
 * (nothing when the client is not reclaiming); nf4_client_reclaiming is
 * 1 while the reclaim is open.
 */
int nf4_reclaim_start(struct nf4_client *cl, struct nf4_call *call);
void nf4_reclaim_end(struct nf4_client *cl);
int nf4_client_reclaiming(const struct nf4_client *cl);

/* Calls started and not yet done (waiting, held or in flight). */
unsigned nf4_client_pending(const struct nf4_client *cl);
/* Changes each time a new client is established (after STALE_CLIENTID or
 * EXPIRED): the stateids of an older epoch are gone. */
uint32_t nf4_client_epoch(const struct nf4_client *cl);
uint32_t nf4_client_minor(const struct nf4_client *cl);
/* The rpc client under it (stats, transport). */
struct rp_client *nf4_client_rpc(const struct nf4_client *cl);
void nf4_client_stats(const struct nf4_client *cl, struct nf4_client_stats *st);
/* The text of the client's last error ("" when none). */
const char *nf4_client_last_error(const struct nf4_client *cl);

/* ---- the v4 mount ------------------------------------------------------- */

/*
 * A v4 mount: the mount point's host and port (the NFS port: a v4 mount
 * point's MOUNT port, when it names one, is not used), one TCP client, the
 * client state, and the export's handle found by PUTROOTFH and LOOKUP per
 * component of its path (as a Linux client walks the server's pseudo file
 * system).
 */
struct nf4_mount {
    struct nf_mount m;     /* host, address, port and the rpc client */
    struct nf4_client *cl; /* owns m.nfs */
    struct nf4_fh root;    /* the export */
    struct nf4_attrs root_attrs;
};

/*
 * Mounts spec over NFSv4 (opts: the mount's; v4: the client's, NULL for
 * the defaults).  opts->transport must be RP_TCP ("NFSv4 runs over TCP
 * only" otherwise).  Blocks, bounded.  Returns 0, or -errno with one line
 * in err ("HOST:/PATH: LOOKUP export: NOENT", "HOST: server offers NFS
 * versions 3..3, not 4"...).
 */
int nf4_mount(struct nf4_mount *m, const char *spec, const struct nf_mount_opts *opts,
              const struct nf4_client_opts *v4, char *err, size_t errlen);

/* Ends the client (nf4_client_close: DESTROY_SESSION, DESTROY_CLIENTID)
 * and closes the connection; returns as nf4_client_close. */
int nf4_umount(struct nf4_mount *m);

#endif /* NF4_CLIENT_H */
