/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf.h - the public interface of the nfs layer: NFSv2, NFSv3 and MOUNT v1/v3
 * on top of the rpc engine (rp.h).  Procedure tables (one row a procedure,
 * built from the rpcgen constants and codecs, docs/STYLE.md 2.6), the status
 * names and errno map (NF_STATUS_MAP), version-neutral file handles, mount
 * strings (docs/DECISIONS.md D2), the mount session (rpcbind or explicit ports,
 * MNT/UMNT/EXPORT) and one generic table-driven call with thin typed
 * wrappers.  The SFS op numbering is in nf_ops.h.  The load generator, the
 * trace replayer, sfs_ping and the server (tables and status names only) use
 * this header.  Nothing here prints; errors come back as -errno with one
 * line of text in the caller's buffer.
 */
#ifndef NF_H
#define NF_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "nfs2_prot.h"
#include "nfs3_prot.h"
#include "nfs/nf_ops.h"
#include "nfs/nf_spec.h"
#include "rpc/rp.h"

/* ---- file handles ------------------------------------------------------- */

#define NF_FH_MAX 64 /* NFS3_FHSIZE; a v2 handle is NFS_FHSIZE = 32 */

/* A handle of either version, stored by value (no allocation). */
struct nf_fh {
    uint32_t len; /* 32 for v2, 0..64 for v3 */
    uint8_t data[NF_FH_MAX];
};

/* Copies a v2 handle in.  Always succeeds. */
void nf_fh_from_v2(struct nf_fh *fh, const nfs_fh *v2);
/* Copies out as a v2 handle; -EINVAL (and an all-zero v2 handle, which no
 * server hands out) unless fh->len == 32. */
int nf_fh_to_v2(const struct nf_fh *fh, nfs_fh *v2);
/* Copies a v3 handle in; -EINVAL when longer than 64 bytes. */
int nf_fh_from_v3(struct nf_fh *fh, const nfs_fh3 *v3);
/* Points a v3 handle at fh's bytes (no copy: fh must outlive v3's use). */
void nf_fh_to_v3(const struct nf_fh *fh, nfs_fh3 *v3);
/* 1 when both hold the same bytes. */
int nf_fh_equal(const struct nf_fh *a, const struct nf_fh *b);

/* ---- status names and errno map ----------------------------------------- */

/*
 * NFS status values of v2 (nfsstat) and v3 (nfsstat3) in one list: symbol,
 * number, the errno it maps to.  The numbers are the same in both versions;
 * WFLUSH is v2 only, the 10000s are v3 only.
 */
#define NF_STATUS_MAP(X)                                                                 \
    X(OK, 0, 0)                                                                          \
    X(PERM, 1, EPERM)                                                                    \
    X(NOENT, 2, ENOENT)                                                                  \
    X(IO, 5, EIO)                                                                        \
    X(NXIO, 6, ENXIO)                                                                    \
    X(ACCES, 13, EACCES)                                                                 \
    X(EXIST, 17, EEXIST)                                                                 \
    X(XDEV, 18, EXDEV)                                                                   \
    X(NODEV, 19, ENODEV)                                                                 \
    X(NOTDIR, 20, ENOTDIR)                                                               \
    X(ISDIR, 21, EISDIR)                                                                 \
    X(INVAL, 22, EINVAL)                                                                 \
    X(FBIG, 27, EFBIG)                                                                   \
    X(NOSPC, 28, ENOSPC)                                                                 \
    X(ROFS, 30, EROFS)                                                                   \
    X(MLINK, 31, EMLINK)                                                                 \
    X(NAMETOOLONG, 63, ENAMETOOLONG)                                                     \
    X(NOTEMPTY, 66, ENOTEMPTY)                                                           \
    X(DQUOT, 69, EDQUOT)                                                                 \
    X(STALE, 70, ESTALE)                                                                 \
    X(REMOTE, 71, EREMOTE)                                                               \
    X(WFLUSH, 99, EIO)                                                                   \
    X(BADHANDLE, 10001, EBADF)                                                           \
    X(NOT_SYNC, 10002, EINVAL)                                                           \
    X(BAD_COOKIE, 10003, EINVAL)                                                         \
    X(NOTSUPP, 10004, EOPNOTSUPP)                                                        \
    X(TOOSMALL, 10005, EINVAL)                                                           \
    X(SERVERFAULT, 10006, EIO)                                                           \
    X(BADTYPE, 10007, EINVAL)                                                            \
    X(JUKEBOX, 10008, EAGAIN)

enum nf_status {
#define NF_STATUS_ENUM(sym, num, err) NF_ST_##sym = num,
    NF_STATUS_MAP(NF_STATUS_ENUM)
#undef NF_STATUS_ENUM
};

/* "OK", "NOENT", "JUKEBOX"...; "UNKNOWN" for a number not in the map. */
const char *nf_status_name(uint32_t status);
/* 0 for OK, else the negative errno of the map (-EIO when unknown). */
int nf_status_errno(uint32_t status);

/* ---- procedure tables --------------------------------------------------- */

/* The four programs FreeSFS speaks. */
enum nf_prog { NF_NFS2, NF_NFS3, NF_MOUNT1, NF_MOUNT3, NF_NPROGS };

/* The placeholder type of procedures without arguments or result. */
typedef struct {
    char unused;
} nf_void;
bool_t xdr_nf_void(XDR *xdrs, nf_void *v);

/*
 * One row per procedure: X(rpcgen constant, name, args type, result type,
 * SFS op).  Rows are in procedure-number order and cover every procedure.
 * The tables, the typed wrappers below and the server's dispatch all come
 * from these lists.  MOUNT procedures have no SFS op (MOUNT).
 */
#define NF_NFS2_PROCS(X)                                                                 \
    X(NFSPROC_NULL, null, nf_void, nf_void, NULL_OP)                                     \
    X(NFSPROC_GETATTR, getattr, nfs_fh, attrstat, GETATTR)                               \
    X(NFSPROC_SETATTR, setattr, sattrargs, attrstat, SETATTR)                            \
    X(NFSPROC_ROOT, root, nf_void, nf_void, ROOT)                                        \
    X(NFSPROC_LOOKUP, lookup, diropargs, diropres, LOOKUP)                               \
    X(NFSPROC_READLINK, readlink, nfs_fh, readlinkres, READLINK)                         \
    X(NFSPROC_READ, read, readargs, readres, READ)                                       \
    X(NFSPROC_WRITECACHE, writecache, nf_void, nf_void, WRCACHE)                         \
    X(NFSPROC_WRITE, write, writeargs, attrstat, WRITE)                                  \
    X(NFSPROC_CREATE, create, createargs, diropres, CREATE)                              \
    X(NFSPROC_REMOVE, remove, diropargs, nfsstat, REMOVE)                                \
    X(NFSPROC_RENAME, rename, renameargs, nfsstat, RENAME)                               \
    X(NFSPROC_LINK, link, linkargs, nfsstat, LINK)                                       \
    X(NFSPROC_SYMLINK, symlink, symlinkargs, nfsstat, SYMLINK)                           \
    X(NFSPROC_MKDIR, mkdir, createargs, diropres, MKDIR)                                 \
    X(NFSPROC_RMDIR, rmdir, diropargs, nfsstat, RMDIR)                                   \
    X(NFSPROC_READDIR, readdir, readdirargs, readdirres, READDIR)                        \
    X(NFSPROC_STATFS, statfs, nfs_fh, statfsres, FSSTAT)

#define NF_NFS3_PROCS(X)                                                                 \
    X(NFSPROC3_NULL, null, nf_void, nf_void, NULL_OP)                                    \
    X(NFSPROC3_GETATTR, getattr, GETATTR3args, GETATTR3res, GETATTR)                     \
    X(NFSPROC3_SETATTR, setattr, SETATTR3args, SETATTR3res, SETATTR)                     \
    X(NFSPROC3_LOOKUP, lookup, LOOKUP3args, LOOKUP3res, LOOKUP)                          \
    X(NFSPROC3_ACCESS, access, ACCESS3args, ACCESS3res, ACCESS)                          \
    X(NFSPROC3_READLINK, readlink, READLINK3args, READLINK3res, READLINK)                \
    X(NFSPROC3_READ, read, READ3args, READ3res, READ)                                    \
    X(NFSPROC3_WRITE, write, WRITE3args, WRITE3res, WRITE)                               \
    X(NFSPROC3_CREATE, create, CREATE3args, CREATE3res, CREATE)                          \
    X(NFSPROC3_MKDIR, mkdir, MKDIR3args, MKDIR3res, MKDIR)                               \
    X(NFSPROC3_SYMLINK, symlink, SYMLINK3args, SYMLINK3res, SYMLINK)                     \
    X(NFSPROC3_MKNOD, mknod, MKNOD3args, MKNOD3res, MKNOD)                               \
    X(NFSPROC3_REMOVE, remove, REMOVE3args, REMOVE3res, REMOVE)                          \
    X(NFSPROC3_RMDIR, rmdir, RMDIR3args, RMDIR3res, RMDIR)                               \
    X(NFSPROC3_RENAME, rename, RENAME3args, RENAME3res, RENAME)                          \
    X(NFSPROC3_LINK, link, LINK3args, LINK3res, LINK)                                    \
    X(NFSPROC3_READDIR, readdir, READDIR3args, READDIR3res, READDIR)                     \
    X(NFSPROC3_READDIRPLUS, readdirplus, READDIRPLUS3args, READDIRPLUS3res, READDIRPLUS) \
    X(NFSPROC3_FSSTAT, fsstat, FSSTAT3args, FSSTAT3res, FSSTAT)                          \
    X(NFSPROC3_FSINFO, fsinfo, FSINFO3args, FSINFO3res, FSINFO)                          \
    X(NFSPROC3_PATHCONF, pathconf, PATHCONF3args, PATHCONF3res, PATHCONF)                \
    X(NFSPROC3_COMMIT, commit, COMMIT3args, COMMIT3res, COMMIT)

/* MOUNT v1: the types are those of mount_prot.h (include it to expand). */
#define NF_MOUNT1_PROCS(X)                                                               \
    X(MOUNTPROC_NULL, null, nf_void, nf_void, MOUNT)                                     \
    X(MOUNTPROC_MNT, mnt, dirpath, fhstatus, MOUNT)                                      \
    X(MOUNTPROC_DUMP, dump, nf_void, mountlist, MOUNT)                                   \
    X(MOUNTPROC_UMNT, umnt, dirpath, nf_void, MOUNT)                                     \
    X(MOUNTPROC_UMNTALL, umntall, nf_void, nf_void, MOUNT)                               \
    X(MOUNTPROC_EXPORT, export, nf_void, exports, MOUNT)                                 \
    X(MOUNTPROC_EXPORTALL, exportall, nf_void, exports, MOUNT)

#define NF_MOUNT3_PROCS(X)                                                               \
    X(MOUNTPROC3_NULL, null, nf_void, nf_void, MOUNT)                                    \
    X(MOUNTPROC3_MNT, mnt, mnt3_dirpath, mountres3, MOUNT)                               \
    X(MOUNTPROC3_DUMP, dump, nf_void, mnt3_list, MOUNT)                                  \
    X(MOUNTPROC3_UMNT, umnt, mnt3_dirpath, nf_void, MOUNT)                               \
    X(MOUNTPROC3_UMNTALL, umntall, nf_void, nf_void, MOUNT)                              \
    X(MOUNTPROC3_EXPORT, export, nf_void, mnt3_exports, MOUNT)

/* Every argument and every result type of NFSv2 and NFSv3 in one union
 * each, members named after the procedures (union nf3_res r; r.getattr,
 * r.readdirplus...): storage for a call of any procedure, e.g. one slot of
 * a load generator's window. */
#define NF_UNION_ARGS(cst, nm, at, rt, op) at nm;
#define NF_UNION_RES(cst, nm, at, rt, op)  rt nm;
union nf2_args {
    NF_NFS2_PROCS(NF_UNION_ARGS)
};
union nf2_res {
    NF_NFS2_PROCS(NF_UNION_RES)
};
union nf3_args {
    NF_NFS3_PROCS(NF_UNION_ARGS)
};
union nf3_res {
    NF_NFS3_PROCS(NF_UNION_RES)
};
#undef NF_UNION_ARGS
#undef NF_UNION_RES

/* The "SFS op" of MOUNT procedures: none (they run before the load). */
#define NF_OP_MOUNT (-1)

struct nf_proc {
    uint32_t proc;        /* the rpcgen constant */
    const char *name;     /* "getattr", "statfs", "mnt"... */
    xdrproc_t args_codec; /* xdr_nf_void when none */
    xdrproc_t res_codec;
    size_t args_size; /* sizeof the C types (nf_void: 1) */
    size_t res_size;
    int op;                 /* enum nf_op, or NF_OP_MOUNT */
    enum nf_call_class cls; /* for the timeout in the run phases */
};

struct nf_proc_table {
    enum nf_prog id;
    const char *name; /* "NFSv2", "NFSv3", "MOUNTv1", "MOUNTv3" */
    uint32_t prog;
    uint32_t vers;
    const struct nf_proc *rows; /* rows[i].proc == i */
    size_t nrows;
};

/* The table of a program (NULL when out of range). */
const struct nf_proc_table *nf_proc_table(enum nf_prog id);
/* The table for an RPC (program, version) pair, or NULL. */
const struct nf_proc_table *nf_proc_table_for(uint32_t prog, uint32_t vers);
/* A row, or NULL when proc is out of range. */
const struct nf_proc *nf_proc_row(enum nf_prog id, uint32_t proc);
/* The procedure number that carries an SFS op in an NFS version (2 or 3),
 * or -1 when the version has no such procedure. */
int nf_op_proc(int op, int nfs_version);

/* ---- calls -------------------------------------------------------------- */

/*
 * Prepares call for procedure proc of the program the client c was opened
 * for (NFSv2/v3, MOUNT v1/v3): codecs from the table row, timeout from the
 * op's call class and c's transport (nf_class_timeout_ms; MOUNT calls use
 * the INIT class).  Override call->timeout_ms afterwards for the INIT class
 * of the population phase.  args and *res must stay valid until done; res
 * is the caller's, zeroed, freed with nf_call_free after status 0.
 * Returns 0, or -EINVAL when c's program has no table or proc is out of
 * range.
 */
int nf_call_init(struct rp_call *call, const struct rp_client *c, uint32_t proc,
                 const void *args, void *res, rp_done_fn done, void *data);

/* The NFS (or MOUNT) status of a finished call: the first word of every
 * decoded NFS result (nfsstat / nfsstat3, fhs_status for MNT); 0 for
 * procedures without a result (NULL, ROOT, WRITECACHE, UMNT...) and for
 * calls whose RPC failed (check call->status first). */
uint32_t nf_call_nfs_status(const struct rp_call *call);

/* nf_call_init then rp_call_sync: returns the RPC status (0 = decoded). */
int nf_call_sync(struct rp_client *c, uint32_t proc, const void *args, void *res);

/* Frees what XDR allocated in a finished call's result (xdr_free with the
 * row's codec; freed pointers are left NULL).  Only after status 0. */
void nf_call_free(struct rp_call *call);

/* nf_call_init then rp_call_sync, with the NFS status of the decoded
 * result in *status (0 when the RPC failed): returns the RPC status. */
int nf_call_sync_status(struct rp_client *c, uint32_t proc, const void *args, void *res,
                        uint32_t *status);
/* Frees what XDR allocated in res, a result of procedure proc of c's
 * program (after a call whose RPC succeeded). */
void nf_res_free(const struct rp_client *c, uint32_t proc, void *res);

/* LOOKUP of name in dir over c (NFSv2 or v3, as c was opened) into out,
 * and the object's type into *type when type is not NULL (the numbering
 * both versions share: 1 a regular file, 2 a directory, 5 a symlink...; 0
 * when the reply carried no attributes).  Returns 0, or -errno with one
 * line in err: "LOOKUP name: NOENT" (the status's errno), "LOOKUP name:
 * <the RPC's error>" (the RPC status). */
int nf_lookup(struct rp_client *c, const struct nf_fh *dir, const char *name,
              struct nf_fh *out, uint32_t *type, char *err, size_t errlen);

/* ---- results decoded into the caller's memory (res.c) -------------------- */

/*
 * A result of any NFSv2 or v3 procedure with the memory its decoding uses
 * instead of malloc'd memory, so that a window of calls allocates nothing
 * per call: READ data goes into data (at most data_max bytes: a longer
 * reply fails to decode), the handle a v3 LOOKUP, CREATE, MKDIR, SYMLINK
 * or MKNOD reply names into fh, READDIR(PLUS) entries are read over.  Pass
 * &res.r3 (or &res.r2) as the call's result.
 */
struct nf_res {
    union {
        union nf2_res r2;
        union nf3_res r3;
    };
    uint8_t fh[NF_FH_MAX];
    char *data; /* NULL: a READ reply fails to decode */
    u_int data_max;
};
/* The bytes of a struct nf_res that hold the results (zero them between
 * calls; data and data_max stay). */
#define NF_RES_BYTES offsetof(struct nf_res, fh)

/* The codec of op's result in an NFS version for a struct nf_res: the
 * ones above for READ, READDIR(PLUS) and the handles; dflt (the table
 * row's) for the others, or with NF_RES_STATUS_ONLY in how, the status
 * alone for every result but the handles.  XDR_FREE frees nothing they
 * decoded; nf_call_free stays safe. */
#define NF_RES_STATUS_ONLY 1u
xdrproc_t nf_res_codec(int version, int op, unsigned how, xdrproc_t dflt);

/* The handle a successful LOOKUP, CREATE, MKDIR, SYMLINK or MKNOD reply
 * names (v2: LOOKUP, CREATE, MKDIR) into out: 1, else 0 (another op, an
 * error status, a v3 reply without the handle). */
int nf_res_handle(const struct nf_res *r, int version, int op, struct nf_fh *out);

/* ---- attributes a call sets (sattr.c) ------------------------------------ */

/* What SETATTR, CREATE, MKDIR, SYMLINK and MKNOD set, in either version:
 * the fields whose NF_SA_ bit is in set.  Times are the client's (atime_s,
 * atime_ns...) or, with the _SERVER bits, the server's (v3 only: v2 leaves
 * them). */
#define NF_SA_MODE         0x01u
#define NF_SA_UID          0x02u
#define NF_SA_GID          0x04u
#define NF_SA_SIZE         0x08u
#define NF_SA_ATIME_SERVER 0x10u
#define NF_SA_MTIME_SERVER 0x20u
#define NF_SA_ATIME        0x40u
#define NF_SA_MTIME        0x80u
struct nf_sattr {
    unsigned set;
    uint32_t mode, uid, gid;
    uint64_t size;
    uint32_t atime_s, atime_ns, mtime_s, mtime_ns;
};

/* s sets the mode alone. */
void nf_sattr_mode(struct nf_sattr *s, uint32_t mode);
/* s also sets both times to the client's wall clock now. */
void nf_sattr_times_now(struct nf_sattr *s);
/* The v3 and v2 forms (v2: -1 in every field not set). */
void nf_sattr_to_v3(const struct nf_sattr *s, sattr3 *a);
void nf_sattr_to_v2(const struct nf_sattr *s, sattr *a);

/*
 * Typed synchronous wrappers, one per procedure, generated from the lists
 * above: nf2_getattr(c, const nfs_fh *, attrstat *), nf3_read(c, const
 * READ3args *, READ3res *), nfm3_export(c, const nf_void *, mnt3_exports
 * *)...  MOUNT v1 has none: its types live in mount_prot.h, which nf.h
 * does not include because mount.x declares a global type called "name"
 * (every "name" parameter would then trip -Wshadow).  Each returns the RPC
 * status; free the result with xdr_free((xdrproc_t)xdr_<result type>, r).
 */
#define NF_TYPED_WRAPPER(pfx, cst, nm, at, rt, op)                                       \
    static inline int pfx##_##nm(struct rp_client *c, const at *a, rt *r)                \
    {                                                                                    \
        return nf_call_sync(c, cst, a, r);                                               \
    }
#define NF_W2(cst, nm, at, rt, op)  NF_TYPED_WRAPPER(nf2, cst, nm, at, rt, op)
#define NF_W3(cst, nm, at, rt, op)  NF_TYPED_WRAPPER(nf3, cst, nm, at, rt, op)
#define NF_WM3(cst, nm, at, rt, op) NF_TYPED_WRAPPER(nfm3, cst, nm, at, rt, op)
NF_NFS2_PROCS(NF_W2)
NF_NFS3_PROCS(NF_W3)
NF_MOUNT3_PROCS(NF_WM3)
#undef NF_W2
#undef NF_W3
#undef NF_WM3

/* Mount strings (struct nf_mount_spec, nf_parse_mount_spec): nf_spec.h. */

/* ---- the mount session -------------------------------------------------- */

/* Connects one client of a mount session to the server: returns a
 * connected descriptor for program prog over transport t (a stream for
 * RP_TCP, datagrams for RP_UDP) or -errno; the session owns it from then
 * on (nf_mount_opts.connect). */
typedef int (*nf_connect_fn)(void *data, uint32_t prog, enum rp_transport_kind t);

/* NFSv4's RPC version and its own port (RFC 7530 3.1), used when no
 * rpcbind answers; a v4 mount has no MOUNT program (nf4_client.h). */
#define NF_NFS4_VERSION 4
#define NF_NFS4_PORT    2049

struct nf_mount_opts {
    int nfs_version;                        /* 2, 3 or 4 (default 3; 4: TCP
                                               only, no MNT: nf4_mount) */
    enum rp_transport_kind transport;       /* of the NFS client (default UDP) */
    enum rp_transport_kind mount_transport; /* of MOUNT calls (default UDP) */
    struct rp_client_opts rpc;              /* base options of both clients */
    uint32_t timeout_ms;                    /* bound of each mount-phase step,
                                               shared by its UDP tries
                                               (default: the INIT class's
                                               10 s, on either transport) */
    int ping;                               /* send NFS NULL after MNT to check
                                               the version (default 1) */
    /* How the session's clients reach the server.  NULL (the default):
     * resolve the host, take the ports from the mount point or rpcbind
     * and connect.  A function: every client of the session (NFS, MNT,
     * UMNT, EXPORT, nf_mount_open_client) is opened on the descriptor it
     * returns (rp_client_open_fd), and neither the resolver nor rpcbind is
     * asked; the mount point's host only names the server in messages.
     * The unit tests serve the server core over socketpairs this way. */
    nf_connect_fn connect;
    void *connect_data;
};

/* Fills o with the defaults above for an NFS version (2, 3 or 4). */
void nf_mount_opts_init(struct nf_mount_opts *o, int nfs_version);

struct nf_mount {
    struct nf_mount_spec spec;
    struct sockaddr_storage addr; /* the server, port 0 */
    socklen_t addrlen;
    int nfs_version;
    uint16_t nfs_port;     /* resolved */
    uint16_t mount_port;   /* resolved */
    struct nf_fh root;     /* the export's root handle */
    struct rp_client *nfs; /* open NFS client; owned by the mount */
    struct nf_mount_opts opts;
};

/*
 * Mounts: resolves the host (loopback only is the tests' business, not
 * this function's), looks up the NFS port with rpcbind GETPORT unless
 * given, opens the NFS client on the requested transport and, with
 * opts->ping, checks the version with NULL first (so that a missing version
 * is reported as such, not as a MOUNT failure), then finds the MOUNT port
 * and calls MNT (MOUNT v1 for NFSv2, v3 for NFSv3; NFSv4 has no MOUNT:
 * the connection alone, over TCP only, its port from the mount point,
 * rpcbind or NF_NFS4_PORT, and nf4_mount does the rest).  Blocks; each step is
 * bounded by opts->timeout_ms in total (UDP tries share it).  Returns 0
 * with m filled, or -errno with one line in err, for example:
 *   "HOST: unknown host (...)"
 *   "HOST: no portmapper (rpcbind) answers at port 111"
 *   "HOST: NFS is not registered with rpcbind (udp)"
 *   "HOST: server offers NFS versions 3..3, not 2"
 *   "HOST: no NFS server answers at port P (connection refused)"
 *   "HOST: no valid NFS reply at port P in T ms (N replies with unknown
 *    XIDs or garbage dropped)"
 *   "HOST: bad reply from MOUNT at port P: ..."
 *   "HOST:/PATH: export refused (ACCES)"
 */
int nf_mount(struct nf_mount *m, const char *spec, const struct nf_mount_opts *opts,
             char *err, size_t errlen);

/* Opens one more NFS client to the mounted server (a load child may use
 * several sockets).  Returns 0 or -errno with err. */
int nf_mount_open_client(const struct nf_mount *m, enum rp_transport_kind t,
                         struct rp_client **out, char *err, size_t errlen);

/* Sends UMNT for the export (errors ignored after a bounded wait: the server
 * keeps no state that matters) and closes the NFS client.  m may be
 * mounted again afterwards. */
void nf_umount(struct nf_mount *m);

/* Closes the NFS client without UMNT. */
void nf_mount_close(struct nf_mount *m);

/* Calls fn for each exported directory of the server named by spec (the
 * path part is ignored) with MOUNT EXPORT: MOUNT v1 when
 * opts->nfs_version is 2, v3 otherwise.  Blocks (bounded).  Returns 0 or
 * -errno with err. */
int nf_exports(const char *spec, const struct nf_mount_opts *opts,
               void (*fn)(const char *dir, void *data), void *data, char *err,
               size_t errlen);

#endif /* NF_H */
