/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs.h - NFS traces: one event model for packet captures (pcap and
 * pcapng, read through libpcap) and the Harvard/SNIA "nfsdump" text traces.
 *
 * A trace is a stream of RPC messages - calls and replies - that a reader
 * pairs (client address, client port, connection, XID) into events, one
 * event per NFS or MOUNT call.  Events come out in the order of their calls'
 * times.  An event is released when its reply has been seen, or when the
 * trace has moved more than tr_nfs_options.pair_window_ns past its call
 * (an unanswered call), or at the end of the trace; so a reader holds at
 * most the calls of one pairing window, never the whole trace.
 *
 * The same events feed the analyser (sfs_trace stats, mrc, image on NFS
 * traces), the conversion to nfsdump text, the file-system image the
 * trace implies (tr_nfs_image.h) and the NFS trace replay in the load
 * generator.  This layer never prints: errors go into the caller's buffer
 * ("FILE:LINE: message" for text, "FILE: frame N: message" for captures),
 * warnings through tr_options-style callbacks, and what was skipped into
 * named counters (tr_nfs_counters).
 *
 * Versions: NFSv2 and NFSv3 calls and replies are decoded in full, with the
 * project's rpcgen XDR (the nfs layer's procedure tables), and MOUNT v1/v3
 * so that an export's path and root handle are learnt from MNT.  NFSv4 and
 * other RPC programs are counted ("nfsv4_calls", "other_rpc_calls") and
 * never decoded as v2/v3.
 */
#ifndef TR_NFS_H
#define TR_NFS_H

#include <stddef.h>
#include <stdint.h>

#include "common/cm.h"
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

/* Event flags. */
#define TR_NFS_F_REPLY 0x001u /* the reply was seen: reply fields valid */
#define TR_NFS_F_NO_CALL                                                                 \
    0x002u /* a reply whose call the trace lacks (only                                   \
              when the format names the procedure: the                                   \
              nfsdump text; a capture's is counted) */
#define TR_NFS_F_CALL_CUT                                                                \
    0x004u                        /* the call was cut (snap length, LONGPKT):            \
                                     fields after the cut are not set */
#define TR_NFS_F_REPLY_CUT 0x008u /* the same for the reply */
#define TR_NFS_F_RETRANS                                                                 \
    0x010u /* the call was seen again with its XID; one                                  \
              event, the first send's time */
#define TR_NFS_F_DATA_CUT                                                                \
    0x020u /* WRITE data (or READ reply data) not all                                    \
              captured; count still tells the size */

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
    int64_t t_ns;       /* the call, ns since the trace's first message */
    int64_t reply_t_ns; /* the reply (TR_NFS_F_REPLY), same origin */
    uint32_t client;    /* client host index: tr_nfs_client_name */
    uint32_t server;    /* server host index: tr_nfs_client_name too */
    uint16_t client_port, server_port;
    uint32_t conn; /* TCP connection index (1-based), 0 for UDP */
    enum tr_nfs_transport transport;
    uint64_t where; /* frame number (capture) or line (text) of the call,
                       or of the reply when there is no call */

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
    uint32_t count;    /* requested bytes: READ, WRITE, COMMIT, READDIR */
    uint32_t stable;   /* WRITE: stable_how3 (v2: FILE_SYNC); CREATE: createmode3 */
    uint32_t access;   /* ACCESS: the bits asked (reply: res_access) */
    struct tr_nfs_attr sattr; /* SETATTR, CREATE, MKDIR, SYMLINK, MKNOD: the
                                 attributes set (size: a truncation); MKNOD's
                                 object type in sattr.type (TR_NFS_A_TYPE) */

    /* the reply (TR_NFS_F_REPLY) */
    uint32_t status;             /* nfsstat3 (v2 shares the numbers); MNT: mountstat */
    struct nf_fh res_fh;         /* the handle LOOKUP, CREATE, MKDIR, SYMLINK,
                                    MKNOD or MNT returned */
    struct tr_nfs_attr attr;     /* the object's attributes after the call
                                    (res_fh's for the calls above, else fh's) */
    struct tr_nfs_attr pre;      /* wcc pre-op attributes (size, times) */
    struct tr_nfs_attr dir_attr; /* the directory's after the call (fh's when
                                    the call names a name; fh2's for LINK) */
    uint32_t res_count;          /* bytes READ returned, WRITE wrote */
    uint32_t res_access;         /* ACCESS: the bits granted */
    uint32_t committed;          /* WRITE: stable_how3 the server gave */
    int eof;                     /* READ, READDIR(PLUS) */
    const struct tr_nfs_dirent *entries; /* READDIR(PLUS) */
    uint32_t nentries;
};

/* Options of tr_nfs_open. */
struct tr_nfs_options {
    const char *format;     /* "pcap", "nfsdump", or NULL/"auto" */
    int lenient;            /* nfsdump: count and skip damaged lines */
    int64_t pair_window_ns; /* a call unanswered this long (trace time) is
                               released without reply; 0 = 60 s */
    tr_warn_fn warn;        /* may be NULL: warnings are then only counted */
    void *warn_data;
};

struct tr_nfs_reader;

/* Opens path ("-" = stdin for nfsdump text) with the format of
 * opt->format, or the one detected from the first bytes.  Returns 0 with
 * *r set, or -errno with the reason in err (nothing to close). */
int tr_nfs_open(struct tr_nfs_reader **r, const char *path,
                const struct tr_nfs_options *opt, char *err, size_t errlen);

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

/* The trace's first message, ns since the epoch: event times are relative
 * to it. */
int64_t tr_nfs_origin_ns(const struct tr_nfs_reader *r);

/* The reader's named counters (calls, replies, unanswered calls, replies
 * without calls, retransmissions, nfsv4_calls, other_rpc_calls,
 * non_rpc_packets, ip_fragments_reassembled, tcp_gaps, truncated_records,
 * skipped lines...), valid until tr_nfs_close; *n gets their number. */
const struct tr_counter *tr_nfs_counters(const struct tr_nfs_reader *r, unsigned *n);

/* One counter by name, 0 when it never counted. */
uint64_t tr_nfs_counter(const struct tr_nfs_reader *r, const char *name);

/* The procedure's name ("read", "mnt"), from the nfs layer's tables;
 * "unknown" outside them. */
const char *tr_nfs_proc_name(uint32_t prog, uint32_t vers, uint32_t proc);

#endif /* TR_NFS_H */
