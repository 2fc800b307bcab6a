/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs.h - NFS traces: one event model for packet captures (pcap and
 * pcapng, read through libpcap) and the Harvard/SNIA "nfsdump" text traces.
 *
 * A trace is a stream of RPC messages - calls and replies - that a reader
 * pairs (client address, client port, transport, connection, XID) into
 * events, one event per NFS or MOUNT call.  Events come out in the order of
 * their calls, with call times that never step back: in a capture whose
 * stamps step back (counted as time_backwards) a call stamped before the
 * previous event's is moved to that time and its reply with it, so that
 * its response time stays the one the stamps show.  An event is released when its reply
 * has been seen, or when the trace has moved more than tr_nfs_options.pair_window_ns past
 * its call (an unanswered call), or at the end of the trace; so a reader holds at most
 * the calls of one pairing window (and never more than max_pending of them), never the
 * whole trace.  A reply whose call the trace lacks is counted (replies_without_calls),
 * never an event: it does not say what was asked. A call sent again with its XID is one
 * event (TR_NFS_F_RETRANS), its first send's time; one sent again after its reply was
 * seen is counted (retransmissions) and dropped, and so is a reply seen twice.
 *
 * The same events feed the analyser (sfs_trace stats, mrc, image on NFS
 * traces), the conversion to nfsdump text, the file-system image the
 * trace implies (src/image/im.h) and the NFS trace replay.  This layer never prints:
 * errors go into the caller's buffer
 * ("FILE:LINE: message" for text, "FILE: frame N: message" for captures),
 * warnings through tr_options-style callbacks, and what was skipped into
 * named counters (tr_nfs_counters).
 *
 * Versions: NFSv2 and NFSv3 calls and replies are decoded in full, with the
 * project's rpcgen XDR (the nfs layer's procedure tables), and MOUNT v1/v3
 * so that an export's path and root handle are learnt from MNT.  NFSv4
 * COMPOUNDs (minor versions 0, 1 and 2) become events when the caller asks
 * for them (tr_nfs_options.nfsv4): one event per COMPOUND, its operations
 * in ev->v4 (struct tr_nfs4_compound) with their arguments, results and
 * the current-filehandle flow; tr_nfs4_op_event gives an operation as the
 * NFSv3-shaped event of the same SFS op, so that what reads v3 events
 * (the image, the miss-ratio curve) reads v4 ones too.  Otherwise NFSv4
 * and other RPC programs are counted ("nfsv4_calls", "other_rpc_calls")
 * and never decoded as v2/v3.
 */
#ifndef TR_NFS_H
#define TR_NFS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "nfs/nf.h"
#include "trace/tr.h"

/* RPC program numbers an NFS trace holds. */
#define TR_NFS_PROG_NFS   100003u
#define TR_NFS_PROG_MOUNT 100005u

enum tr_nfs_transport { TR_NFS_UDP, TR_NFS_TCP };

/* Object types, in NFSv3's numbering (ftype3); v2 types are mapped onto it. */
enum tr_nfs_ftype {
    TR_NFS_NONE = 0, /* not seen */
    TR_NFS_REG = 1,
    TR_NFS_DIR = 2,
    TR_NFS_BLK = 3,
    TR_NFS_CHR = 4,
    TR_NFS_LNK = 5,
    TR_NFS_SOCK = 6,
    TR_NFS_FIFO = 7
};

/* Which fields of a struct tr_nfs_attr a message carried. */
#define TR_NFS_A_TYPE   0x001u
#define TR_NFS_A_MODE   0x002u
#define TR_NFS_A_NLINK  0x004u
#define TR_NFS_A_UID    0x008u
#define TR_NFS_A_GID    0x010u
#define TR_NFS_A_SIZE   0x020u
#define TR_NFS_A_FILEID 0x040u
#define TR_NFS_A_FSID   0x080u
#define TR_NFS_A_MTIME  0x100u
#define TR_NFS_A_CTIME  0x200u
#define TR_NFS_A_ATIME  0x400u
#define TR_NFS_A_USED   0x800u

/* An object's attributes as one message showed them (post-op attributes,
 * wcc pre-op attributes, SETATTR/CREATE's requested ones).  A field is
 * valid only when its bit is in have. */
struct tr_nfs_attr {
    uint32_t have; /* TR_NFS_A_* */
    enum tr_nfs_ftype type;
    uint32_t mode; /* permission bits (07777) */
    uint32_t nlink, uid, gid;
    uint64_t size, used; /* bytes */
    uint64_t fileid, fsid;
    int64_t atime_ns, mtime_ns, ctime_ns; /* since the epoch */
};

/* One entry of a READDIR or READDIRPLUS reply.  fh.len is 0 and
 * attr.have 0 when the entry did not carry them (READDIR, or a READDIRPLUS
 * entry without handle or attributes). */
struct tr_nfs_dirent {
    const char *name;
    uint64_t fileid;
    struct nf_fh fh;
    struct tr_nfs_attr attr;
};

/* Event flags.
 * REPLY: the reply was seen, the reply fields are valid.
 * CALL_CUT: the call's fields stop early (cut by the snap length, an
 *   nfsdump LONGPKT, or undecodable): fields after the cut are not set.
 * REPLY_CUT: the same for the reply.
 * RETRANS: the call was seen again with its XID before its reply; one
 *   event, with the first send's time.
 * DATA_CUT: WRITE data (or READ reply data) not all captured; the count
 *   still tells the size. */
#define TR_NFS_F_REPLY     0x001u
#define TR_NFS_F_CALL_CUT  0x004u
#define TR_NFS_F_REPLY_CUT 0x008u
#define TR_NFS_F_RETRANS   0x010u
#define TR_NFS_F_DATA_CUT  0x020u

/* The op of an NFSv4 event: it has none (its operations have). */
#define TR_NFS_OP_NFSV4 (-2)

/* An sattr time meaning "set to the server's time" (v3 SET_TO_SERVER_TIME;
 * v2 has no such value and its times are kept as sent). */
#define TR_NFS_TIME_SERVER INT64_MIN

/* How the server answered at the RPC level (accept_stat numbers; the two
 * denials after them).  Only TR_NFS_RPC_SUCCESS replies carry an NFS
 * status and results. */
enum tr_nfs_rpc_status {
    TR_NFS_RPC_SUCCESS = 0,
    TR_NFS_RPC_PROG_UNAVAIL = 1,
    TR_NFS_RPC_PROG_MISMATCH = 2,
    TR_NFS_RPC_PROC_UNAVAIL = 3,
    TR_NFS_RPC_GARBAGE_ARGS = 4,
    TR_NFS_RPC_SYSTEM_ERR = 5,
    TR_NFS_RPC_MISMATCH = 6,  /* MSG_DENIED, RPC_MISMATCH */
    TR_NFS_RPC_AUTH_ERROR = 7 /* MSG_DENIED, AUTH_ERROR */
};

/* ---- NFSv4 -------------------------------------------------------------- */

/* Operations kept per COMPOUND (the XDR allows 1024; clients send a
 * handful): the rest are counted (nfsv4_ops_not_kept), never held. */
#define TR_NFS4_OPS_MAX 128u

/* A stateid: its seqid and the 12 bytes that name the state. */
struct tr_nfs4_stateid {
    uint32_t seqid;
    uint8_t other[12];
};

/* What an operation of a COMPOUND holds.
 * ARGS: its arguments were decoded from the call (else it is known from
 *   its result only: the call was cut).
 * RES: its result is in the reply: status is valid.  An operation of an
 *   answered COMPOUND without RES was not executed (an earlier one
 *   failed).
 * CUT: its arguments or result stop early (snap length, a gap, or
 *   undecodable): the fields after the stop are not set.
 * FH, FH2, RES_FH: fh, fh2, res_fh are known (the flow below).
 * STATEID, RES_STATEID, CLIENTID, OWNER, SESSION: those fields are set.
 * ROOT_KEY: res_fh is not a handle the trace showed but the key of the
 *   server's root: PUTROOTFH whose handle no GETFH of the trace showed
 *   (a server has one root; the key is the bytes "\0ROOT" and the
 *   server's address and port, so that what is looked up from the root
 *   stays under one object).
 * DATA_CUT: WRITE's data (READ's, in the reply) not all captured. */
#define TR_NFS4_O_ARGS        0x001u
#define TR_NFS4_O_RES         0x002u
#define TR_NFS4_O_CUT         0x004u
#define TR_NFS4_O_FH          0x008u
#define TR_NFS4_O_FH2         0x010u
#define TR_NFS4_O_RES_FH      0x020u
#define TR_NFS4_O_STATEID     0x040u
#define TR_NFS4_O_RES_STATEID 0x080u
#define TR_NFS4_O_CLIENTID    0x100u
#define TR_NFS4_O_OWNER       0x200u
#define TR_NFS4_O_DATA_CUT    0x400u
#define TR_NFS4_O_SESSION     0x800u
#define TR_NFS4_O_ROOT_KEY    0x1000u

/*
 * One operation of a COMPOUND, with its result.  Handles follow the
 * current-filehandle flow of the COMPOUND: PUTFH sets the current handle,
 * PUTROOTFH, PUTPUBFH, LOOKUP, LOOKUPP, OPEN, CREATE, OPENATTR and
 * RESTOREFH set a new one whose value the trace shows only when a later
 * GETFH of the same COMPOUND returns it (then every operation on it
 * knows it), SAVEFH keeps it as the saved handle.  NFSv4 handles longer
 * than NF_FH_MAX bytes are kept as their first NF_FH_MAX - 8 bytes and an
 * 8-byte hash of the whole (counted: nfsv4_long_handles), so that each
 * stays one key.
 */
struct tr_nfs4_op {
    uint32_t op;         /* its number: OP_ACCESS (3) ... OP_RECLAIM_COMPLETE (58) */
    uint32_t flags;      /* TR_NFS4_O_* */
    uint32_t status;     /* nfsstat4 of its result (TR_NFS4_O_RES) */
    struct nf_fh fh;     /* the current handle it acts on (a LOOKUP's or
                            CREATE's directory, a READ's file; RENAME's and
                            LINK's target directory; PUTFH's argument) */
    struct nf_fh fh2;    /* the saved handle RENAME (source directory) and
                            LINK (the file) use */
    struct nf_fh res_fh; /* the current handle after it, when it set a new
                            one; GETFH's result */
    uint32_t fh_id, fh2_id, res_fh_id;  /* which handle of the COMPOUND fh,
                                           fh2 and res_fh are: 1 + the index
                                           of the operation that made it the
                                           current one (0: none), so that
                                           operations on one object are
                                           known as such also when its handle
                                           never showed */
    const char *name;                   /* LOOKUP, CREATE, REMOVE, SECINFO, OPEN's file
                                           (claims NULL, DELEGATE_CUR, DELEGATE_PREV),
                                           RENAME's old name, LINK's new name */
    const char *name2;                  /* RENAME's new name */
    const char *text;                   /* CREATE's symlink target; READLINK's result */
    uint64_t offset;                    /* READ, READ_PLUS, WRITE, COMMIT, LOCK, LOCKT,
                                           LOCKU, SEEK, ALLOCATE, DEALLOCATE, COPY's and
                                           CLONE's destination; READDIR's cookie */
    uint64_t length;                    /* LOCK, LOCKT, LOCKU, ALLOCATE, DEALLOCATE,
                                           COPY, CLONE */
    uint32_t count;                     /* READ, READ_PLUS, COMMIT, WRITE (bytes sent);
                                           READDIR's maxcount */
    uint32_t res_count;                 /* bytes READ returned (READ_PLUS: its data
                                           and holes cover), WRITE wrote */
    uint32_t how;                       /* WRITE: stable_how4; OPEN: createmode4 (opentype
                                           CREATE) or TR_NFS4_NOCREATE; CREATE: the
                                           nfs_ftype4 made; LOCK, LOCKT: nfs_lock_type4;
                                           ACCESS: the bits asked */
    uint32_t res_how;                   /* WRITE: committed; ACCESS: the bits granted;
                                           OPEN: rflags */
    uint32_t claim;                     /* OPEN: open_claim_type4 */
    uint32_t share_access, share_deny;  /* OPEN, OPEN_DOWNGRADE */
    uint32_t seqid;                     /* NFSv4.0's owner seqid: OPEN, OPEN_CONFIRM,
                                           OPEN_DOWNGRADE, CLOSE, LOCK, LOCKU */
    uint32_t delegation;                /* OPEN's result: open_delegation_type4 */
    uint64_t clientid;                  /* the client id it names or returns
                                           (TR_NFS4_O_CLIENTID): SETCLIENTID's and
                                           EXCHANGE_ID's result, SETCLIENTID_CONFIRM,
                                           RENEW, CREATE_SESSION, DESTROY_CLIENTID,
                                           RELEASE_LOCKOWNER, OPEN's and LOCK's owner */
    uint8_t sessionid[16];              /* the session CREATE_SESSION made (its result),
                                           DESTROY_SESSION and BIND_CONN_TO_SESSION name
                                           (TR_NFS4_O_SESSION) */
    uint64_t owner;                     /* OPEN's open owner, LOCK's, LOCKT's and
                                           RELEASE_LOCKOWNER's lock owner: a hash of the
                                           client id and the owner's bytes */
    struct tr_nfs4_stateid stateid;     /* the call's: READ, WRITE, SETATTR,
                                           CLOSE, OPEN_CONFIRM,
                                           OPEN_DOWNGRADE, LOCK (the open
                                           or lock stateid), LOCKU,
                                           DELEGRETURN, FREE_STATEID,
                                           LAYOUTGET, LAYOUTRETURN */
    struct tr_nfs4_stateid res_stateid; /* the result's: OPEN, OPEN_CONFIRM,
                                           OPEN_DOWNGRADE, CLOSE, LOCK,
                                           LOCKU */
    struct tr_nfs_attr attr;            /* GETATTR's result */
    struct tr_nfs_attr sattr;           /* the attributes set: SETATTR, CREATE,
                                           OPEN's create (UNCHECKED, GUARDED,
                                           EXCLUSIVE4_1) */
    int eof;                            /* READ, READDIR */
    const struct tr_nfs_dirent *entries; /* READDIR's (handles and
                                            attributes when asked) */
    uint32_t nentries;
};

/* OPEN's how when it creates nothing. */
#define TR_NFS4_NOCREATE UINT32_MAX

/* What a COMPOUND holds.
 * SEQUENCE: it starts with SEQUENCE (4.1, 4.2): the session fields are set.
 * UNKNOWN_OP: decoding stopped at an operation number the reader does not
 *   know (a later minor version's, a vendor's): unknown_op; the
 *   operations before it are kept.
 * OPS_CUT: more than TR_NFS4_OPS_MAX operations (or results): the rest
 *   are not kept.
 * CLIENTID: clientid is set (an operation named one). */
#define TR_NFS4_C_SEQUENCE   0x01u
#define TR_NFS4_C_UNKNOWN_OP 0x02u
#define TR_NFS4_C_OPS_CUT    0x04u
#define TR_NFS4_C_CLIENTID   0x08u

struct tr_nfs4_compound {
    uint32_t minor;      /* minorversion: 0, 1, 2 */
    uint32_t flags;      /* TR_NFS4_C_* */
    uint32_t nops;       /* operations in ops[] */
    uint32_t nops_call;  /* the call's count of operations */
    uint32_t nres;       /* results the reply held (TR_NFS_F_REPLY) */
    uint32_t status;     /* the COMPOUND's status (TR_NFS_F_REPLY) */
    uint32_t unknown_op; /* TR_NFS4_C_UNKNOWN_OP: its number */
    const char *tag;     /* the call's tag (NULL when empty) */
    uint8_t sessionid[16];
    uint32_t sequenceid, slotid, highest_slotid; /* SEQUENCE's */
    uint64_t clientid; /* the client id one of its operations names */
    const struct tr_nfs4_op *ops;
};

/* Sizes that bound one event (longer names or lists are counted and cut,
 * never allocated without limit). */
#define TR_NFS_NAME_MAX    1024u /* NFS names are at most 255 in practice */
#define TR_NFS_PATH_MAX    4096u /* MNT paths and SYMLINK targets */
#define TR_NFS_ENTRIES_MAX 4096u /* READDIR(PLUS) entries kept per reply */

/*
 * One NFS or MOUNT call and what its reply said.  Pointers (names, entries)
 * point into the reader and stay valid until the next tr_nfs_next.  Fields
 * a procedure does not have are zero (handles of length 0, NULL names).
 */
struct tr_nfs_event {
    /* where and when */
    int64_t t_ns;       /* the call, ns since the origin (tr_nfs_origin_ns:
                           the first event's call, so the first is 0) */
    int64_t reply_t_ns; /* the reply (TR_NFS_F_REPLY), same origin */
    uint32_t client;    /* client host index: tr_nfs_client_name; hosts are
                           numbered in the order events first name them */
    uint32_t server;    /* server host index: tr_nfs_client_name too */
    uint16_t client_port, server_port;
    uint32_t conn; /* TCP connection index (1-based), 0 for UDP */
    enum tr_nfs_transport transport;
    uint64_t where;       /* frame number (capture, 1-based) or line (text)
                             of the call */
    uint64_t reply_where; /* the same for the reply (TR_NFS_F_REPLY) */

    /* what */
    uint32_t prog; /* TR_NFS_PROG_NFS or TR_NFS_PROG_MOUNT */
    uint32_t vers; /* 2 or 3 (NFS); 1 or 3 (MOUNT) */
    uint32_t proc; /* the procedure number in that program and version */
    int op;        /* the SFS op (enum nf_op), NF_OP_MOUNT for MOUNT */
    uint32_t xid;
    uint32_t flags;    /* TR_NFS_F_* */
    uint32_t uid, gid; /* the call's AUTH_SYS credential (0 when none) */

    /* the call's arguments */
    struct nf_fh fh;   /* the object, or the directory of a name */
    struct nf_fh fh2;  /* RENAME's target directory, LINK's directory */
    const char *name;  /* the name in fh: LOOKUP, CREATE, MKDIR, SYMLINK,
                          MKNOD, REMOVE, RMDIR, RENAME's from-name */
    const char *name2; /* RENAME's to-name, LINK's new name (in fh2) */
    const char *text;  /* SYMLINK's target (call), READLINK's (reply), the
                          MNT path (call) */
    uint64_t offset;   /* READ, WRITE, COMMIT; READDIR(PLUS)'s cookie */
    uint32_t count;    /* requested bytes: READ, WRITE, COMMIT, READDIR;
                          READDIRPLUS: maxcount */
    uint32_t stable;   /* WRITE: stable_how3 (v2: FILE_SYNC); CREATE: createmode3 */
    uint32_t access;   /* ACCESS: the bits asked (reply: res_access) */
    struct tr_nfs_attr sattr; /* SETATTR, CREATE, MKDIR, SYMLINK, MKNOD: the
                                 attributes set (size: a truncation; times
                                 may be TR_NFS_TIME_SERVER; MKNOD: type) */

    /* the reply (TR_NFS_F_REPLY) */
    uint32_t rpc_status;                 /* enum tr_nfs_rpc_status; the fields below
                                            are set only for TR_NFS_RPC_SUCCESS */
    uint32_t status;                     /* nfsstat3 (v2 shares the numbers); MNT:
                                            the mount status */
    struct nf_fh res_fh;                 /* the handle LOOKUP, CREATE, MKDIR, SYMLINK,
                                            MKNOD or MNT returned */
    struct tr_nfs_attr attr;             /* the object's post-op attributes: res_fh's
                                            for the calls above, else fh's (LINK:
                                            the file's; READDIR: the directory's) */
    struct tr_nfs_attr pre;              /* wcc pre-op attributes (size, mtime, ctime)
                                            of the object the wcc is about: fh's for
                                            SETATTR, WRITE, COMMIT; the directory's
                                            for the calls that name a name (LINK:
                                            fh2's; RENAME: the from-directory's) */
    struct tr_nfs_attr dir_attr;         /* the directory's post-op attributes for
                                            the calls that name a name: fh's (LINK:
                                            fh2's; RENAME: the from-directory's) */
    uint32_t res_count;                  /* bytes READ returned, WRITE wrote */
    uint32_t res_access;                 /* ACCESS: the bits granted */
    uint32_t committed;                  /* WRITE: stable_how3 the server gave */
    int eof;                             /* READ, READDIR(PLUS) */
    const struct tr_nfs_dirent *entries; /* READDIR(PLUS) */
    uint32_t nentries;

    /* NFSv4 (vers 4, proc 1): the COMPOUND; NULL for every other event */
    const struct tr_nfs4_compound *v4;
};

/* The pairing window by default: long enough for the slowest replies real
 * captures hold (a server stalled for seconds; 10 s was too short for
 * one), while the calls held at once stay bounded by max_pending. */
#define TR_NFS_PAIR_WINDOW_NS (120ll * 1000000000)

/* Options of tr_nfs_open. */
struct tr_nfs_options {
    const char *format;     /* "pcap", "nfsdump", or NULL/"auto" */
    int lenient;            /* nfsdump: count and skip damaged lines;
                               captures: read a file cut inside a frame
                               up to the cut (counted) */
    int64_t pair_window_ns; /* a call unanswered this long (trace time) is
                               released without reply; 0 =
                               TR_NFS_PAIR_WINDOW_NS */
    uint32_t max_pending;   /* calls held at once (answered ones waiting
                               for an older call count too); past it the
                               oldest is released early, counted as
                               calls_released_early; 0 = 65536 */
    tr_warn_fn warn;        /* may be NULL: warnings are then only counted */
    void *warn_data;
    int nfsv4; /* NFSv4 calls become events (ev->v4); else
                  they are only counted, as other programs' */
};

struct tr_nfs_reader;

/* Opens path ("-" = stdin) with the format of opt->format, or the one
 * detected from the first bytes (a pcap or pcapng magic number, else
 * nfsdump text).  Returns 0 with *r set, or -errno with the reason in err
 * (nothing to close). */
int tr_nfs_open(struct tr_nfs_reader **r, const char *path,
                const struct tr_nfs_options *opt, char *err, size_t errlen);

/* How sure buf (a file's first bytes) is an NFS trace: 2 for a pcap or
 * pcapng magic number or an nfsdump line (the first that is not blank or
 * a comment) or FreeSFS's "#freesfs nfsdump" first line, else 0.  *format
 * gets "pcap" or "nfsdump". */
int tr_nfs_probe(const unsigned char *buf, size_t len, const char **format);

/* The same on a stream the caller keeps open and closes after
 * tr_nfs_close (a file, a pipe, an fmemopen buffer); name is used in
 * messages. */
int tr_nfs_open_fp(struct tr_nfs_reader **r, FILE *fp, const char *name,
                   const struct tr_nfs_options *opt, char *err, size_t errlen);

/* ---- live capture (tr_nfs_pcap.c; the pcapng kept: tr_nfs_pcapng.c) ----- */

/* What tr_nfs_open_live captures and for how long.  The capture ends at the
 * first of: duration_ns, count packets, *stop turning nonzero (a signal
 * handler's flag, checked at least every 100 ms), or an error. */
struct tr_nfs_live {
    const char *interface;             /* as libpcap names it ("lo", "eth0", "any") */
    const char *filter;                /* a BPF expression (pcap-filter(7)); NULL or "" =
                                          every packet */
    int64_t duration_ns;               /* 0 = no bound */
    uint64_t count;                    /* packets (as tcpdump -c); 0 = no bound */
    const char *write;                 /* keep what was read as a pcapng file here
                                          (written beside it and renamed into place at
                                          the end); NULL or "" = none */
    uint32_t snaplen;                  /* bytes kept of each packet; 0 = 262144 */
    uint32_t buffer_mb;                /* the kernel's capture buffer; 0 = 64 MiB */
    const volatile sig_atomic_t *stop; /* NULL = only the bounds above end it */
    /* Called with the wall-clock time (ns since the epoch) at least every
     * 100 ms while the capture runs, packets or not (progress lines); may
     * be NULL. */
    void (*tick)(void *data, int64_t now_ns);
    void *tick_data;
};

/* The kernel's figures of a live capture (libpcap's pcap_stats): packets
 * that passed the filter, those the capture buffer had no room for, those
 * the interface (its driver) dropped. */
struct tr_nfs_drops {
    uint64_t received, dropped, if_dropped;
};

/* Opens a live capture (needs the CAP_NET_RAW capability: without it the
 * error says so).  The reader then returns the events of the traffic as
 * it comes; tr_nfs_next blocks until an event can be released or the
 * capture ended.  Returns 0 with *r set, or -errno with the reason in err
 * (-EPERM: no capability; -ENODEV: no such interface; -EINVAL: the filter
 * does not compile). */
int tr_nfs_open_live(struct tr_nfs_reader **r, const struct tr_nfs_live *live,
                     const struct tr_nfs_options *opt, char *err, size_t errlen);

/* A live capture's drop figures so far (after the end: the final ones).
 * Returns 0, or -ENOTSUP for a reader of a file. */
int tr_nfs_live_drops(const struct tr_nfs_reader *r, struct tr_nfs_drops *d);

/* The next event in call-time order: 1 with *ev filled, 0 at the end of the
 * trace, or -errno with the reason in tr_nfs_error (strict nfsdump, a
 * capture libpcap cannot read on, out of memory). */
int tr_nfs_next(struct tr_nfs_reader *r, struct tr_nfs_event *ev);

/* Frees the reader.  NULL is allowed. */
void tr_nfs_close(struct tr_nfs_reader *r);

/* The last error ("FILE:LINE: message", "FILE: frame N: message"). */
const char *tr_nfs_error(const struct tr_nfs_reader *r);

/* "pcap", "pcapng" or "nfsdump". */
const char *tr_nfs_format(const struct tr_nfs_reader *r);

/* The address of host index i as the trace wrote it ("10.1.2.3",
 * "fe80::1", an nfsdump host such as "30"), into buf; "?" when unknown. */
const char *tr_nfs_client_name(const struct tr_nfs_reader *r, uint32_t i, char *buf,
                               size_t len);

/* Hosts seen so far (indices are 0..n-1). */
uint32_t tr_nfs_nhosts(const struct tr_nfs_reader *r);

/* The origin of event times, ns since the epoch: the first event's call
 * (0 until the first event has been returned). */
int64_t tr_nfs_origin_ns(const struct tr_nfs_reader *r);

/* The reader's named counters that are not zero (calls, replies,
 * unanswered_calls, replies_without_calls, retransmissions, nfsv4_calls,
 * other_rpc_calls, non_rpc_packets, ip_fragments_reassembled, tcp_gaps,
 * truncated_records, skipped_lines...; docs/NFS_TRACES.md lists them all),
 * valid until the next call on r; *n gets their number. */
const struct tr_counter *tr_nfs_counters(const struct tr_nfs_reader *r, unsigned *n);

/* One counter by name, 0 when it never counted. */
uint64_t tr_nfs_counter(const struct tr_nfs_reader *r, const char *name);

/* The procedure's name ("read", "mnt"), from the nfs layer's tables;
 * "unknown" outside them. */
const char *tr_nfs_proc_name(uint32_t prog, uint32_t vers, uint32_t proc);

/* Operation i of an NFSv4 event as the NFSv3-shaped event of the same SFS
 * op (LOOKUP, OPEN as LOOKUP or CREATE, CREATE as MKDIR, SYMLINK or MKNOD,
 * REMOVE, RENAME, LINK, READ, WRITE, COMMIT, SETATTR, GETATTR, ACCESS,
 * READDIR as READDIRPLUS, READLINK; PUTROOTFH whose handle the COMPOUND
 * shows as the MNT of "/"): handles, names, offsets, counts, the
 * attributes set, its status and the attributes a GETATTR of the same
 * COMPOUND showed of the object it made or acted on.  Returns 1 with out
 * set, 0 when the operation has no such form or did not run (the reply
 * holds no result for it).  out's strings point into ev's. */
int tr_nfs4_op_event(const struct tr_nfs_event *ev, uint32_t i, struct tr_nfs_event *out);

/* fn(data, ev) on ev, or, for an NFSv4 COMPOUND, on each of its operations
 * that has an NFSv3 form (tr_nfs4_op_event): how the image, the miss-ratio
 * curve and the NFS replay's plan read v4 traffic with v3's rules.  An NFSv4
 * event that is not a COMPOUND (NULL) gives nothing.  Returns 0, or fn's
 * first negative return. */
int tr_nfs_each_v3(const struct tr_nfs_event *ev,
                   int (*fn)(void *data, const struct tr_nfs_event *ev), void *data);

/* ---- writing nfsdump text (tr_nfs_write.c, tr_nfs_anon.c) -------------- */

/* Options of the nfsdump writer. */
struct tr_nfs_write_options {
    /* Anonymise: names, handles, symlink and mount paths and host
     * addresses are replaced by a keyed function of themselves (the same
     * input and key give the same output, so two traces of one tree
     * anonymise alike; without the key the originals cannot be
     * recovered).  NULL or empty: written as they are. */
    const char *anon_key;
};

struct tr_nfs_writer;

/* Starts writing nfsdump text to out (which the caller keeps and closes),
 * host names taken from r.  Returns 0 or -errno with err. */
int tr_nfs_writer_open(struct tr_nfs_writer **w, FILE *out, const struct tr_nfs_reader *r,
                       const struct tr_nfs_write_options *o, char *err, size_t errlen);

/* Writes one event: its call line now, its reply line once no later call
 * can precede it, so that the lines stay in time order.  Returns 0 or
 * -errno (a write error, out of memory). */
int tr_nfs_write(struct tr_nfs_writer *w, const struct tr_nfs_event *ev);

/* Writes the reply lines still held and the reader's counters (as comment
 * lines the nfsdump reader takes back), frees w.  Returns 0 or -errno with
 * err (a write error).  NULL is allowed. */
int tr_nfs_writer_close(struct tr_nfs_writer *w, char *err, size_t errlen);

#endif /* TR_NFS_H */
