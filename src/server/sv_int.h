/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sv_int.h - private declarations of the server layer: the in-memory file
 * system (fs.c), the file handle format, the core context shared by the
 * dispatcher (dispatch.c) and the protocol handlers (nfs3.c, nfs2.c,
 * mount.c), the bounded argument decoders (xdr_args.c) and fault injection
 * (fault.c).  File-system functions return NFSv3 status numbers (nfsstat3,
 * 0 = OK); the v2 handlers map them with sv__v2_status.
 */
#ifndef SV_INT_H
#define SV_INT_H

#include "common/rng.h"
#include "common/yaml.h"
#include "nfs/nf.h"
#include "server/sv.h"

#include <rpc/rpc.h>
#include <stdint.h>

/* ---- file system -------------------------------------------------------- */

#define SV_FH_LEN     32           /* v2 and v3 handles alike */
#define SV_CHUNK      (16 * 1024)  /* sparse data granule */
#define SV_NAME_MAX   255          /* longer names: NAMETOOLONG */
#define SV_PATH_MAX   1024         /* symlink targets */
#define SV_FILE_MAX   (1ULL << 50) /* largest file offset (FBIG beyond) */
#define SV_FSID       0x53465331u  /* "SFS1" */
#define SV_IO_MAX     (64 * 1024)  /* rtmax / wtmax over TCP */
#define SV_IO_MAX_UDP (32 * 1024)  /* what one reply datagram carries */

enum sv_type {
    SV_REG = 1,
    SV_DIR = 2,
    SV_BLK = 3,
    SV_CHR = 4,
    SV_LNK = 5,
    SV_SOCK = 6,
    SV_FIFO = 7
}; /* = ftype3 numbering */

struct sv_time {
    uint32_t sec;
    uint32_t nsec;
};

/* Ordered 64-bit key -> pointer map over JudyL (map.c); zero-initialised
 * it is empty, and JudyL frees its last node when its last key goes, so an
 * emptied map holds no memory.  Walk it with sv__map_next. */
struct sv_map {
    void *judy; /* JudyL array: key -> value */
};
/* Stores val (never NULL) under key; 0 or -ENOMEM. */
int sv__map_put(struct sv_map *m, uint64_t key, void *val);
/* The value under key, or NULL. */
void *sv__map_get(const struct sv_map *m, uint64_t key);
/* Removes key; returns its value, or NULL when absent. */
void *sv__map_del(struct sv_map *m, uint64_t key);
/* The first entry with a key >= *key: sets *key and returns its value, or
 * returns NULL when there is none.  Walks keys in ascending order. */
void *sv__map_next(const struct sv_map *m, uint64_t *key);
void sv__map_free(struct sv_map *m);

struct sv_dirent;
/* A directory's entries in cookie order; removed ones are NULL until the
 * next compaction, which keeps cookies (they are stored, not positions). */
struct sv_dirslot {
    uint64_t cookie;
    struct sv_dirent *e;
};

struct sv_node {
    uint64_t fileid;
    uint32_t gen;
    enum sv_type type;
    uint32_t mode; /* permission bits only */
    uint32_t nlink;
    uint32_t uid, gid;
    uint32_t rdev_major, rdev_minor;
    uint64_t size;
    uint64_t used; /* bytes of data chunks held */
    struct sv_time atime, mtime, ctime;
    struct sv_time btime; /* creation (NFSv4 time_create) */
    uint64_t parent;      /* fileid of the parent directory (directories) */
    int export_root;      /* an export's top: its ".." is itself to clients */
    uint64_t create_verf; /* EXCLUSIVE create verifier, 0 = none */
    uint32_t holds;       /* NFSv4 files with open state: kept at nlink 0 */
    union {
        struct {
            struct sv_dirent **buckets; /* by name hash, chained */
            size_t nbuckets;
            struct sv_dirslot *order; /* ascending cookies */
            size_t norder, order_cap, dead;
            uint64_t next_cookie;
            uint64_t nentries;
        } dir;
        struct {
            struct sv_map chunks; /* chunk index -> SV_CHUNK bytes */
        } reg;
        struct {
            char *target;
        } lnk;
    } u;
};

/* A directory entry; cookies grow per directory and are never reused, so a
 * READDIR cookie stays valid across removals. */
struct sv_dirent {
    struct sv_dirent *hnext; /* name hash chain */
    struct sv_node *node;
    uint64_t cookie;
    uint32_t hash;
    char name[];
};
#define SV_COOKIE_FIRST 3 /* 1 and 2 are "." and ".." */

/* Attributes to set (SETATTR, CREATE...).  Times: 0 keep, 1 server time,
 * 2 the given value. */
struct sv_sattr {
    int set_mode, set_uid, set_gid, set_size, set_atime, set_mtime;
    uint32_t mode, uid, gid;
    uint64_t size;
    struct sv_time atime, mtime;
};

struct sv_fs;

struct sv_fs *sv__fs_new(uint64_t max_bytes, uint64_t instance);
void sv__fs_free(struct sv_fs *fs);
struct sv_node *sv__fs_root(struct sv_fs *fs);
/* The 32-byte handle of node. */
void sv__fs_handle(const struct sv_fs *fs, const struct sv_node *n,
                   uint8_t fh[SV_FH_LEN]);
/* Finds the node of a handle: 0, NFS3ERR_BADHANDLE (not ours) or
 * NFS3ERR_STALE (removed, or from another server instance). */
int sv__fs_from_handle(struct sv_fs *fs, const void *fh, size_t len,
                       struct sv_node **out);
/* Name rules shared by every procedure that takes a name: 0, INVAL,
 * NAMETOOLONG, or ACCES for "." and ".." where they are not allowed. */
int sv__fs_check_name(const char *name);
int sv__fs_lookup(struct sv_fs *fs, struct sv_node *dir, const char *name,
                  struct sv_node **out);
/* Creates name in dir.  EXIST (with *out the existing node) when taken. */
int sv__fs_create(struct sv_fs *fs, struct sv_node *dir, const char *name,
                  enum sv_type type, const struct sv_sattr *sa, uint32_t uid,
                  uint32_t gid, const char *target, struct sv_node **out);
/* Removes name from dir: REMOVE (want_dir 0) or RMDIR (want_dir 1). */
int sv__fs_remove(struct sv_fs *fs, struct sv_node *dir, const char *name, int want_dir);
int sv__fs_rename(struct sv_fs *fs, struct sv_node *fdir, const char *fname,
                  struct sv_node *tdir, const char *tname);
int sv__fs_link(struct sv_fs *fs, struct sv_node *n, struct sv_node *dir,
                const char *name);
/* A hold keeps a file that loses its last name (REMOVE, or RENAME over
 * it), with its handle and data, until the last hold is released: NFSv4
 * opens hold their file until CLOSE.  By file id, so that no pointer into
 * the file system outlives a node; an id of no node is ignored. */
void sv__fs_hold(struct sv_fs *fs, uint64_t fileid);
void sv__fs_release(struct sv_fs *fs, uint64_t fileid);
int sv__fs_setattr(struct sv_fs *fs, struct sv_node *n, const struct sv_sattr *sa);
/* Reads up to count bytes at off into buf (holes read as zeros). */
int sv__fs_read(struct sv_fs *fs, struct sv_node *n, uint64_t off, uint32_t count,
                void *buf, uint32_t *got, int *eof);
int sv__fs_write(struct sv_fs *fs, struct sv_node *n, uint64_t off, const void *data,
                 uint32_t count);
/* The entry of dir after cookie (0 = from the start; "." and ".." come
 * first with cookies 1 and 2): 1 with *pos filled, 0 at the end, or -1 when
 * the cookie was never handed out (BAD_COOKIE). */
struct sv_dirpos {
    const char *name;
    struct sv_node *node;
    uint64_t cookie;
};
int sv__fs_dir_after(struct sv_fs *fs, struct sv_node *dir, uint64_t cookie,
                     struct sv_dirpos *pos);
/* Parent directory of a directory as clients see it ("..", READDIR's ".."
 * entry): an export's root is its own parent, as on the Linux server, so
 * no handle path climbs from an export to the internal root or another
 * export (the internal root is its own parent too). */
struct sv_node *sv__fs_parent(struct sv_fs *fs, struct sv_node *dir);
/* The directory that holds dir in the internal tree, export roots
 * included (the root holds itself): NFSv4's LOOKUPP climbs from an export
 * into the pseudo file system above it. */
struct sv_node *sv__fs_tree_parent(struct sv_fs *fs, struct sv_node *dir);
struct sv_fs_usage {
    uint64_t total_bytes, used_bytes, files;
};
void sv__fs_usage(const struct sv_fs *fs, struct sv_fs_usage *u);
/* The next component of a slash-separated path: copies it into comp and
 * returns where the rest starts; NULL at the end of the path, or with *st
 * = NAMETOOLONG for a component longer than SV_NAME_MAX. */
const char *sv__path_next(const char *p, char comp[SV_NAME_MAX + 1], int *st);
/* Looks up an absolute path from the root ("/a/b"); 0, NOENT or NOTDIR. */
int sv__fs_walk(struct sv_fs *fs, const char *path, struct sv_node **out);
/* mkdir -p of an absolute path for an export: the last directory becomes
 * an export root (mode 0777).  Returns 0 or an nfsstat3. */
int sv__fs_mkpath(struct sv_fs *fs, const char *path, struct sv_node **out);

/* ---- core context -------------------------------------------------------- */

struct sv_core;

/* A procedure's handler.  Numbers, names, codecs and sizes come from the
 * nfs layer's procedure table (nf.h, shared with the client); a handler
 * row only adds the function and, for the NFSv3 arguments with unbounded
 * strings or data, a bounded decoder used instead of the table's codec
 * (xdr_args.c).  Handlers read args and fill res (which dispatch.c
 * zeroed); whatever res points to must stay valid until the reply is
 * encoded (node names, c->scratch...).  A handler returns the status it
 * put in res (0 = OK). */
typedef int (*sv_handler_fn)(struct sv_core *c, void *args, void *res);
struct sv_handler {
    sv_handler_fn fn;
    xdrproc_t bounded_args; /* NULL: the table row's args codec */
};
struct sv_version {
    enum nf_prog id;                   /* the nf.h table */
    const char *stats_key;             /* "nfs_v3"... */
    const struct sv_handler *handlers; /* indexed by procedure number */
    uint32_t nhandlers;
    int nfs; /* NFS program (error rules and status injection apply) */
};
extern const struct sv_version sv__nfs2_version, sv__nfs3_version, sv__mount1_version,
    sv__mount3_version;

#define SV_MAX_PROCS  24
#define SV_MAX_GIDS   16    /* AUTH_SYS groups (RFC 5531 appendix A) */
#define SV_NOBODY     65534 /* AUTH_NONE callers and squashed root */
#define SV_MAX_MOUNTS 256
#define SV_ARGS_MAX   512 /* larger than any args or res struct (unit-tested) */

struct sv_mount_entry {
    char host[64];
    char path[SV_PATH_MAX + 1];
};

struct sv4;

struct sv_core {
    struct sv_fs *fs;
    struct sv4 *v4; /* the NFSv4 server's state (nfs4_int.h) */
    uint64_t instance;
    uint8_t write_verf[8];
    char exports[SV_MAX_EXPORTS][SV_PATH_MAX + 1];
    int nexports;
    struct sv_fault fault;
    struct cm_rng rng;
    uint64_t calls_answered;
    uint64_t busy_until_ns; /* --service-us: when the queue of calls empties */
    int exit_requested;
    int root_squash;                                   /* uid 0 is served as SV_NOBODY */
    void (*echo)(struct cm_yaml *y, const void *data); /* sv_config's */
    const void *echo_data;
    /* per call: the caller's credential (AUTH_SYS, or nobody) */
    uint32_t cred_uid, cred_gid;
    uint32_t cred_gids[SV_MAX_GIDS];
    int cred_ngids;
    const char *peer;
    int udp;
    /* counters: [version index][procedure] */
    uint64_t counts[4][SV_MAX_PROCS];
    uint64_t errors_injected, replies_dropped, reads_corrupted;
    uint64_t attrs_falsified, dirents_dropped, handles_changed;
    uint64_t other_lies; /* --change-verf ... --bad-mknod replies */
    /* this call's fault decisions (sv__fault_call) */
    int attrs_wrong;
    uint32_t fh_salt; /* 0: handles as usual */
    uint64_t garbage_args, bad_calls, bad_creds, prog_unavail, prog_mismatch,
        proc_unavail;
    /* MOUNT DUMP list */
    struct sv_mount_entry mounts[SV_MAX_MOUNTS];
    int nmounts;
    /* decoded arguments and results of the current call (dispatch.c) */
    union {
        double d;
        uint64_t u;
        void *p;
        uint8_t b[SV_ARGS_MAX];
    } args, res;
    /* scratch owned by the handler of the current call */
    uint8_t fh_scratch[2][SV_FH_LEN];
    uint8_t data[SV_IO_MAX];
    union {
        double align;
        uint8_t bytes[SV_REPLY_MAX];
    } dirbuf; /* readdir entry arrays */
};

/* ---- permission-checked operations (access.c) ----------------------------- */

/* What the handlers call instead of the sv__fs_* operations: the same
 * arguments and statuses, plus ACCES (mode bits) and PERM (ownership)
 * against the current call's credential.  Created objects belong to it. */
int sv__lookup(struct sv_core *c, struct sv_node *dir, const char *name,
               struct sv_node **out);
int sv__create(struct sv_core *c, struct sv_node *dir, const char *name,
               enum sv_type type, const struct sv_sattr *sa, const char *target,
               struct sv_node **out);
int sv__remove(struct sv_core *c, struct sv_node *dir, const char *name, int want_dir);
int sv__rename(struct sv_core *c, struct sv_node *fdir, const char *fname,
               struct sv_node *tdir, const char *tname);
int sv__link(struct sv_core *c, struct sv_node *n, struct sv_node *dir, const char *name);
int sv__setattr(struct sv_core *c, struct sv_node *n, const struct sv_sattr *sa);
/* READDIR(PLUS) of dir: 0, NOTDIR or ACCES. */
int sv__readdir_check(struct sv_core *c, const struct sv_node *dir);
/* READ (write 0) or WRITE/COMMIT (write 1) of n's data: 0 or ACCES. */
int sv__data_check(struct sv_core *c, const struct sv_node *n, int write);
/* The ACCESS3 bits of asked that the caller has on n. */
uint32_t sv__access3(struct sv_core *c, const struct sv_node *n, uint32_t asked);

/* ---- protocol helpers ---------------------------------------------------- */

/* NFSv2 status for an NFSv3 one (v2 lacks INVAL, NOTSUPP, JUKEBOX...). */
uint32_t sv__v2_status(int st3);
/* Fault rule for a procedure name: the status to inject, or 0. */
uint32_t sv__fault_error(struct sv_core *c, const char *proc_name);
/* The per-call draws of --wrong-attrs (NFS calls only: nfs) and
 * --change-handles (MNT too); dispatch.c calls it before each handler. */
void sv__fault_call(struct sv_core *c, int nfs);
/* What --wrong-attrs reports instead of a size and a mode. */
void sv__fault_attrs(uint64_t *size, uint32_t *mode);
/* The handle of n in replies: sv__fs_handle's, changed by --change-handles
 * in the calls it hits.  Handlers use it, never sv__fs_handle. */
void sv__handle(struct sv_core *c, const struct sv_node *n, uint8_t fh[SV_FH_LEN]);
/* Whether this READDIR(PLUS) reply leaves an entry out (--drop-dirents),
 * and then, for each entry of the walk, whether it is the one left out:
 * the first other than "." and ".." (its cookie is passed over, so the
 * client never sees the name). */
int sv__fault_drop_dirent(struct sv_core *c);
int sv__fault_skip_dirent(struct sv_core *c, int *drop, const char *name);
/* Whether a percentage draw hits (pct in [0, 100]). */
int sv__fault_hit(struct sv_core *c, double pct);
#define SV_ACCESS3_UNASKED 0x40u /* --bad-access: beyond the six ACCESS3 bits */
#define SV_BAD_NAME_MAX    4u    /* --bad-fs: a directory's name_max */

/* The faults of the validation suite's extended checks: 1 when this reply
 * must lie (pct of the fault drawn, counted in other_lies). */
int sv__fault_lie(struct sv_core *c, double pct);
/* The write verifier of this WRITE or COMMIT reply (--change-verf). */
void sv__fault_verf(struct sv_core *c, uint8_t verf[8]);
/* Bounded decoders for the NFSv3 arguments whose rpcgen types have
 * unbounded strings or opaques (filename3, nfspath3, WRITE data): the
 * generated routines would allocate whatever length a hostile caller
 * claims before finding the message too short. */
bool_t sv__xdr_LOOKUP3args(XDR *x, void *a);
bool_t sv__xdr_CREATE3args(XDR *x, void *a);
bool_t sv__xdr_MKDIR3args(XDR *x, void *a);
bool_t sv__xdr_SYMLINK3args(XDR *x, void *a);
bool_t sv__xdr_MKNOD3args(XDR *x, void *a);
bool_t sv__xdr_REMOVE3args(XDR *x, void *a);
bool_t sv__xdr_RMDIR3args(XDR *x, void *a);
bool_t sv__xdr_RENAME3args(XDR *x, void *a);
bool_t sv__xdr_LINK3args(XDR *x, void *a);
bool_t sv__xdr_WRITE3args(XDR *x, void *a);

/* Node time stamps now. */
void sv__now(struct sv_time *t);

#endif /* SV_INT_H */
