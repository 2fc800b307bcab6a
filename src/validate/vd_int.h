/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vd_int.h - the validate layer's private header: the run's context, the
 * object set, attributes in a version-neutral form, the round trip of every
 * NFS procedure (generated from the procedure lists of nfs/nf.h), the
 * per-version protocol adapters (proto.c) that turn them into neutral
 * results, and the message functions every step uses (msg.c).  The steps
 * (create.c, attr.c, io.c, dir.c, clean.c, extended.c, commit.c) are
 * written once over the adapters; only READDIRPLUS and the extended section
 * speak NFSv3 directly.  Every file of the layer includes this header and
 * none of its siblings.
 */
#ifndef VD_INT_H
#define VD_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/cm.h"
#include "nfs/nf.h"
#include "validate/vd.h"

#define VD_MAX_OBJS      64 /* 51 in v3 */
#define VD_NAME_MAX      64
#define VD_TIMEOUT_TRIES 4 /* a call that timed out is sent again this often */
#define VD_WORKDIR       "validatedir"

/* ---- objects -------------------------------------------------------------- */

/* Object kinds, in the order the create step makes them. */
enum vd_kind { VD_FILE, VD_DIR, VD_LINK, VD_SYMLINK, VD_NKINDS };

/* File types in the v3 numbering (ftype3); v2's NFFIFO (8) becomes 7. */
enum vd_type {
    VD_T_REG = 1,
    VD_T_DIR = 2,
    VD_T_BLK = 3,
    VD_T_CHR = 4,
    VD_T_LNK = 5,
    VD_T_SOCK = 6,
    VD_T_FIFO = 7,
    VD_T_BAD = 99 /* v2's NFNON and NFBAD */
};

/* A stored attribute of all ones is not known yet: the next reply's value
 * is adopted with an information note (docs/SFS30.md §19). */
#define VD_UNKNOWN32 UINT32_MAX
#define VD_UNKNOWN64 UINT64_MAX

/* Attributes of either version; v2's 32-bit fields widen. */
struct vd_attr {
    uint32_t type; /* enum vd_type */
    uint32_t mode; /* permission bits only (07777) */
    uint32_t nlink;
    uint32_t uid;
    uint32_t gid;
    uint64_t size;
    uint64_t fsid;
    uint64_t fileid;
    uint32_t rdev1; /* v3 specdata1 (major); v2 rdev */
    uint32_t rdev2; /* v3 specdata2 (minor); v2 0 */
    uint32_t atime_s;
    uint32_t mtime_s;
};

struct vd_obj {
    char name[VD_NAME_MAX]; /* current name (rename prefixes 'n') */
    enum vd_kind kind;
    struct nf_fh fh;
    int ino;         /* index into vd_ctx.attrs: a hard link shares its file's */
    int target;      /* LINK: the file linked to; SYMLINK: the file named; else -1 */
    int exists;      /* made and not removed */
    uint64_t length; /* bytes the write step put in a file, 0 = not written */
};

/* ---- one reply in neutral form -------------------------------------------- */

struct vd_res {
    struct nf_fh fh; /* CREATE, MKDIR, SYMLINK, LOOKUP */
    int have_fh;
    struct vd_attr attr; /* the object's attributes after the call */
    int have_attr;
    uint32_t count;  /* READ, WRITE */
    int eof;         /* READ, READDIR: 1, 0, or -1 when v2 does not say */
    int committed;   /* WRITE: stable_how (v2: FILE_SYNC) */
    uint8_t verf[8]; /* WRITE (v3) */
    char text[NF_PATH_MAX];
};

struct vd_ctx;

/* Called for each READDIR entry; nonzero stops the listing (returned). */
typedef int (*vd_entry_fn)(struct vd_ctx *v, const char *name, uint64_t fileid,
                           void *data);

/* Where a READDIR listing goes on (v2 keeps its 4-byte cookie here too). */
struct vd_cursor {
    uint64_t cookie;
    uint8_t verf[8];
};

/*
 * The calls the reference steps make, one adapter per NFS version (proto.c,
 * whose two tables are generated from VD_PROTO_CALLS).  Each returns the
 * NFS status of the reply (>= 0, NF_ST_*), or a negative RPC status when no
 * reply came after the retries (the caller stops the run).  Results are
 * copied into *r; nothing stays allocated.
 */
#define VD_PROTO_CALLS(X)                                                                \
    X(null)                                                                              \
    X(getattr)                                                                           \
    X(setattr)                                                                           \
    X(lookup)                                                                            \
    X(create)                                                                            \
    X(mkdir)                                                                             \
    X(link)                                                                              \
    X(symlink)                                                                           \
    X(readlink)                                                                          \
    X(write)                                                                             \
    X(read)                                                                              \
    X(readdir)                                                                           \
    X(remove)                                                                            \
    X(rmdir)                                                                             \
    X(rename)
struct vd_proto {
    int version;
    const char *rfc;              /* "RFC 1094", "RFC 1813" */
    const char *section[NF_NOPS]; /* per SFS op: "RFC 1813 section 3.3.3" */
    uint32_t readdir_count;       /* bytes asked per READDIR */
    int (*null)(struct vd_ctx *v);
    int (*getattr)(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r);
    /* mode and both times (seconds, client time); guard off */
    int (*setattr)(struct vd_ctx *v, const struct nf_fh *fh, uint32_t mode,
                   uint32_t time_s, struct vd_res *r);
    int (*lookup)(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                  struct vd_res *r);
    /* regular file, v3 UNCHECKED: mode, our uid and gid, size 0, times now */
    int (*create)(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                  uint32_t mode, struct vd_res *r);
    int (*mkdir)(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                 uint32_t mode, struct vd_res *r);
    /* r->attr: the file's attributes after the call (v3 only) */
    int (*link)(struct vd_ctx *v, const struct nf_fh *file, const struct nf_fh *dir,
                const char *name, struct vd_res *r);
    int (*symlink)(struct vd_ctx *v, const struct nf_fh *dir, const char *name,
                   const char *text, struct vd_res *r);
    int (*readlink)(struct vd_ctx *v, const struct nf_fh *fh, struct vd_res *r);
    /* stable: a v3 stable_how (v2 writes are always synchronous); r->count
     * bytes were written */
    int (*write)(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off, const void *buf,
                 uint32_t len, int stable, struct vd_res *r);
    /* r->count bytes were read into buf */
    int (*read)(struct vd_ctx *v, const struct nf_fh *fh, uint64_t off, void *buf,
                uint32_t len, struct vd_res *r);
    /* one READDIR call from *cur; advances it; r->eof */
    int (*readdir)(struct vd_ctx *v, const struct nf_fh *dir, struct vd_cursor *cur,
                   vd_entry_fn fn, void *data, struct vd_res *r);
    int (*remove)(struct vd_ctx *v, const struct nf_fh *dir, const char *name);
    int (*rmdir)(struct vd_ctx *v, const struct nf_fh *dir, const char *name);
    int (*rename)(struct vd_ctx *v, const struct nf_fh *dir, const char *from,
                  const char *to);
    /* v4: one READDIR with the attributes `ls -l` asks (the mix's
     * readdirplus), as readdir; NULL where READDIRPLUS is its own
     * procedure (v3, readdirplus step) or absent (v2) */
    int (*readdir_plus)(struct vd_ctx *v, const struct nf_fh *dir, struct vd_cursor *cur,
                        vd_entry_fn fn, void *data, struct vd_res *r);
};

extern const struct vd_proto vd_proto2;
extern const struct vd_proto vd_proto3;
extern const struct vd_proto vd_proto4;

struct vd4;
/* The v4 adapter's mount (proto4.c): the client state and the export's
 * handle into v->m.root; 0 or -errno with err.  vd4_umount CLOSEs what
 * is open and ends the client state; vd4_free frees the adapter (once). */
int vd4_mount(struct vd_ctx *v, const struct nf_mount_opts *mo, char *err, size_t errlen);
void vd4_umount(struct vd_ctx *v);
void vd4_free(struct vd_ctx *v);
/* CLOSEs the files the adapter opened for READ and WRITE (before the
 * rename and remove steps, as a client closes a file it is done with). */
void vd4_release(struct vd_ctx *v);

/* NFSv3 attributes in neutral form, for the v3-only steps (proto.c). */
void vd3_attr(const fattr3 *f, struct vd_attr *a);
/* Copies post-op attributes into r (have_attr) when they follow. */
void vd3_post_op(const post_op_attr *p, struct vd_res *r);
/* The handle (have_fh) and attributes of a new object (CREATE, MKDIR,
 * SYMLINK, MKNOD), when they follow. */
void vd3_new_obj(const post_op_fh3 *fh, const post_op_attr *attr, struct vd_res *r);

/* ---- the run -------------------------------------------------------------- */

struct vd_ctx {
    const struct vd_opts *o;
    FILE *out;
    FILE *in;
    const struct vd_proto *p;
    struct nf_mount m;
    int mounted;
    struct rp_client *clnt; /* m.nfs (v4: the v4 client's) */
    struct vd4 *v4;         /* the v4 adapter's state, NULL in v2/v3 */
    struct nf_fh workdir;   /* <export>/validatedir */
    struct vd_attr workdir_attr;
    uint32_t uid, gid; /* of the AUTH_SYS credential */
    uint32_t set_time; /* the times SETATTR sets (a day ago) */
    int nkind[VD_NKINDS];
    struct vd_obj obj[VD_MAX_OBJS];
    int nobj;
    struct vd_attr attrs[VD_MAX_OBJS]; /* what each object's attributes
                                          should be (by vd_obj.ino) */
    uint8_t write_verf[8];             /* of the write step's WRITEs (v3) */
    int have_write_verf;
    uint8_t commit_verf[8];     /* of the extended section's COMMIT */
    uint32_t fsinfo_properties; /* FSINFO's, for PATHCONF */
    int ext_file;               /* the extended section's file, or -1 */
    const char *step;           /* for messages */
    unsigned warnings;
    unsigned errors;
    unsigned deviations;
};

/* The RFC and section of an SFS op in this version, "RFC 1813 section
 * 3.3.3" (the RFC alone for an op the version lacks). */
const char *vd_rfc(struct vd_ctx *v, int op);

/* Sends a typed call again after a timeout, up to VD_TIMEOUT_TRIES times
 * (SFS retried forever; FreeSFS bounds every wait). */
#define VD_CALL(v, rc, expr)                                                             \
    do {                                                                                 \
        unsigned vd_try_ = 0;                                                            \
        for (;;) {                                                                       \
            (rc) = (expr);                                                               \
            if ((rc) != RP_ERR_TIMEDOUT || ++vd_try_ >= VD_TIMEOUT_TRIES)                \
                break;                                                                   \
            vd_retry_note((v), vd_try_);                                                 \
        }                                                                                \
    } while (0)

/* ---- messages (msg.c) ----------------------------------------------------- */

/* Starts a step: sets v->step; at level 2 and 3 prints "step: text". */
void vd_begin(struct vd_ctx *v, const char *step, const char *fmt, ...) CM_PRINTF(3, 4);
/* A detail line of the step (level 2 and 3). */
void vd_detail(struct vd_ctx *v, const char *fmt, ...) CM_PRINTF(2, 3);
/* "I: step: text" (level 2 and 3). */
void vd_info(struct vd_ctx *v, const char *fmt, ...) CM_PRINTF(2, 3);
/* "W: step: text" at every level, counted as an error; at level 3 asks
 * "continue? (y or n)".  Returns 0 to go on, -ECANCELED when the answer is
 * no (or EOF). */
int vd_warn(struct vd_ctx *v, const char *fmt, ...) CM_PRINTF(2, 3);
/* "W: step: text [deviation]": a departure from the RFC beyond what SFS 3.0
 * checks that loses no data (the read-back, verifiers and everything SFS
 * checks use vd_warn).  Printed and asked about like vd_warn, counted in
 * v->deviations, not an error.  0 or -ECANCELED. */
int vd_deviation(struct vd_ctx *v, const char *fmt, ...) CM_PRINTF(2, 3);
/* "E: step: text" at every level: the run stops.  Returns -EIO. */
int vd_error(struct vd_ctx *v, const char *fmt, ...) CM_PRINTF(2, 3);
/* The E line for a call that got no reply (rc < 0) or a status that stops
 * the run: "E: step: what: STATUS (section)".  Returns -EIO. */
int vd_fail_call(struct vd_ctx *v, int op, const char *what, int rc);
/* The note of a retry after a timeout (VD_CALL). */
void vd_retry_note(struct vd_ctx *v, unsigned try);

/* ---- the round trip of every procedure ------------------------------------ */

/* The reply's NFS status (the first word of every NFS result; 0 for a
 * result without one), or rc when no reply came. */
static inline int vd_status(int rc, const void *res, size_t size)
{
    uint32_t st = 0;

    if (rc < 0)
        return rc;
    if (size >= sizeof(st))
        memcpy(&st, res, sizeof(st));
    return (int)st;
}

/*
 * Generated for every procedure of NFSv2 and NFSv3 from the procedure lists
 * of nfs/nf.h, as nf.h generates its typed calls (docs/STYLE.md 2.6):
 *   vd2_<proc>(v, &args, &res), vd3_<proc>(...)  zero the result and send
 *       the call, again after a timeout (VD_CALL); return the RPC status;
 *   vd2_<proc>_done(rc, &res), vd3_<proc>_done   the reply's NFS status
 *       (vd_status), the decoded result freed (nothing is freed when no
 *       reply came);
 *   vd2_<proc>_free(&res), vd3_<proc>_free       the result freed.
 */
#define VD_ROUND_TRIP(ver, cst, nm, at, rt, op)                                          \
    static inline int vd##ver##_##nm(struct vd_ctx *v, const at *a, rt *res)             \
    {                                                                                    \
        int rc;                                                                          \
                                                                                         \
        memset(res, 0, sizeof(*res));                                                    \
        VD_CALL(v, rc, nf##ver##_##nm(v->clnt, a, res));                                 \
        return rc;                                                                       \
    }                                                                                    \
    static inline void vd##ver##_##nm##_free(rt *res)                                    \
    {                                                                                    \
        xdr_free((xdrproc_t)xdr_##rt, (char *)res);                                      \
    }                                                                                    \
    static inline int vd##ver##_##nm##_done(int rc, rt *res)                             \
    {                                                                                    \
        rc = vd_status(rc, res, sizeof(*res));                                           \
        if (rc >= 0)                                                                     \
            vd##ver##_##nm##_free(res);                                                  \
        return rc;                                                                       \
    }
#define VD_RT2(cst, nm, at, rt, op) VD_ROUND_TRIP(2, cst, nm, at, rt, op)
#define VD_RT3(cst, nm, at, rt, op) VD_ROUND_TRIP(3, cst, nm, at, rt, op)
NF_NFS2_PROCS(VD_RT2)
NF_NFS3_PROCS(VD_RT3)
#undef VD_RT2
#undef VD_RT3

/* ---- attributes (attr.c) -------------------------------------------------- */

#define VD_CMP_NO_SIZE 0x1 /* the write step: size is still growing */

/* Compares got with what object o's attributes should be (type, mode bits,
 * nlink, uid, gid, size, rdev of devices, fsid, fileid), adopting stored
 * unknowns with an I note and reporting all differences in one W naming
 * via ("LOOKUP", "GETATTR"...) and op's RFC section.  0 or -ECANCELED. */
int vd_attr_check(struct vd_ctx *v, const struct vd_obj *o, const struct vd_attr *got,
                  unsigned flags, const char *via, int op);
/* What a new object of a kind should look like (unknowns where the server
 * decides: a directory's nlink and size, a symlink's mode and size). */
void vd_attr_expect(struct vd_ctx *v, struct vd_attr *a, enum vd_kind kind);

/* ---- objects (objects.c) -------------------------------------------------- */

/* Fills the object set of the NFS version: v3 21 files, 10 directories,
 * 10 hard links, 10 symlinks; v2 7/5/5/5 (docs/SFS30.md §19). */
void vd_objects_init(struct vd_ctx *v);
/* Adds an object beyond the reference set (the extended section's), with
 * its own attribute record.  NULL when the table is full. */
struct vd_obj *vd_object_add(struct vd_ctx *v, const char *name, enum vd_kind kind);
/* The object currently called name, or NULL. */
struct vd_obj *vd_object_named(struct vd_ctx *v, const char *name);
const char *vd_kind_name(enum vd_kind k);
/* The symlink text of a symlink object: "./<file name>". */
void vd_symlink_text(const struct vd_ctx *v, const struct vd_obj *o, char *buf,
                     size_t len);

/* ---- the data pattern (pattern.c) ----------------------------------------- */

#define VD_BLOCK_BYTES 8192
#define VD_MAX_BLOCKS  18 /* blocks 0..17 */
#define VD_WRITE_FILES 17 /* only the first 17 files are written */

/* Blocks written to file number f (0-based): 18 - f. */
unsigned vd_file_blocks(unsigned f);
/* Bytes of block b of file f: 8192, the last one shorter. */
uint32_t vd_block_bytes(unsigned f, unsigned b);
/* Length of file f once written. */
uint64_t vd_file_length(unsigned f);
/* Fills buf (vd_block_bytes) with block b of file f: a 16-bit checksum, a
 * 16-bit data length (big-endian), then data bytes all equal to b. */
void vd_block_fill(unsigned f, unsigned b, uint8_t *buf);
/* Checks a block read back: 0 when the checksum and length agree with the
 * data and the data with the block number, else -EILSEQ. */
int vd_block_verify(unsigned f, unsigned b, const uint8_t *buf, uint32_t len);
/* The BSD 16-bit rotate-and-add checksum of sum(1). */
uint16_t vd_bsd_sum(const uint8_t *p, size_t n);

/* ---- data helpers (io.c) -------------------------------------------------- */

struct nf_lnfs;

/* Writes all of buf at off (a v3 stable_how), re-issuing short writes; r
 * holds the last reply.  0, or a negative errno when the run must stop. */
int vd_write_all(struct vd_ctx *v, struct vd_obj *o, uint64_t off, const uint8_t *buf,
                 uint32_t len, int stable, struct vd_res *r);
/* Mounts the export with libnfs: 1 and *l, 0 when skipped (v2 against a
 * server without v3: an I note), or a negative errno when the run must stop
 * (a W answered no). */
int vd_lnfs_open(struct vd_ctx *v, struct nf_lnfs **l);
/* Reads validatedir/name through libnfs and compares it with want, byte for
 * byte (a W names the first difference).  0 or the run's stop. */
int vd_lnfs_compare(struct vd_ctx *v, struct nf_lnfs *l, const char *name,
                    const uint8_t *want, size_t len);

/* ---- steps ----------------------------------------------------------------- */

/* Each returns 0, or a negative errno when the run must stop (an E line was
 * printed or the level-3 answer was no). */
int vd_step_null(struct vd_ctx *v);
int vd_step_create(struct vd_ctx *v);
int vd_step_attributes(struct vd_ctx *v);
int vd_step_write(struct vd_ctx *v);
int vd_step_read(struct vd_ctx *v);
int vd_step_readback(struct vd_ctx *v);
int vd_step_readdir(struct vd_ctx *v);
int vd_step_readdirplus(struct vd_ctx *v);
int vd_step_release(struct vd_ctx *v); /* v4: the opens closed */
int vd_step_rename(struct vd_ctx *v);
int vd_step_remove(struct vd_ctx *v);
int vd_step_extended(struct vd_ctx *v);
/* The COMMIT checks of the extended section (commit.c): UNSTABLE writes,
 * two COMMITs, the verifiers, the data read back through libnfs; then,
 * with a restart command, the verifier after the server restarted. */
int vd_extended_commit(struct vd_ctx *v);
int vd_extended_restart(struct vd_ctx *v);

/* ---- the work directory and the mount (workdir.c) ------------------------- */

/* Unmounts (v4: the client state ended too). */
void vd_umount(struct vd_ctx *v);
/* Mounts o->mount with the version and transport of the options; bounded.
 * tries > 1 waits for a server that is (re)starting.  0 or -errno with err. */
int vd_mount(struct vd_ctx *v, unsigned tries, char *err, size_t errlen);
/* Looks up (or makes) <export>/validatedir and empties it of what an earlier
 * run left.  0 or a negative errno after an E line. */
int vd_workdir_open(struct vd_ctx *v);
/* Empties and removes validatedir, best effort (I lines at level 2). */
void vd_workdir_remove(struct vd_ctx *v);

/* ---- the restart command (restart.c) -------------------------------------- */

/* Runs o->restart_cmd with /bin/sh, bounded by o->restart_limit_ms (the
 * command's process group is killed at the limit), stdout sent to stderr.
 * 0 when it exited 0, else -errno with err. */
int vd_run_restart(const struct vd_opts *o, char *err, size_t errlen);

#endif /* VD_INT_H */
