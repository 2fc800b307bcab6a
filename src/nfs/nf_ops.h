/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf_ops.h - the SFS operation numbering shared by v2 and v3
 * (docs/SFS30.md §2.1) and the call classes that set RPC timeouts (§2.3).
 * These are SFS op numbers, not NFS procedure numbers: the procedure tables
 * map each NFS procedure onto one of them.  The mix files, the per-op
 * statistics, the reports and the YAML all index by this enum.
 */
#ifndef NF_OPS_H
#define NF_OPS_H

#include <stdint.h>

/* X-macro: op number, token (mix files and reports), call class. */
#define NF_OP_MAP(X)                                                                     \
    X(NULL_OP, 0, "null", LOOKUP)                                                        \
    X(GETATTR, 1, "getattr", LOOKUP)                                                     \
    X(SETATTR, 2, "setattr", WRITE)                                                      \
    X(ROOT, 3, "root", LOOKUP)                                                           \
    X(LOOKUP, 4, "lookup", LOOKUP)                                                       \
    X(READLINK, 5, "readlink", LOOKUP)                                                   \
    X(READ, 6, "read", READ)                                                             \
    X(WRCACHE, 7, "wrcache", LOOKUP)                                                     \
    X(WRITE, 8, "write", WRITE)                                                          \
    X(CREATE, 9, "create", WRITE)                                                        \
    X(REMOVE, 10, "remove", WRITE)                                                       \
    X(RENAME, 11, "rename", WRITE)                                                       \
    X(LINK, 12, "link", WRITE)                                                           \
    X(SYMLINK, 13, "symlink", WRITE)                                                     \
    X(MKDIR, 14, "mkdir", WRITE)                                                         \
    X(RMDIR, 15, "rmdir", WRITE)                                                         \
    X(READDIR, 16, "readdir", READ)                                                      \
    X(FSSTAT, 17, "fsstat", LOOKUP)                                                      \
    X(ACCESS, 18, "access", LOOKUP)                                                      \
    X(COMMIT, 19, "commit", WRITE)                                                       \
    X(FSINFO, 20, "fsinfo", LOOKUP)                                                      \
    X(MKNOD, 21, "mknod", WRITE)                                                         \
    X(PATHCONF, 22, "pathconf", LOOKUP)                                                  \
    X(READDIRPLUS, 23, "readdirplus", READ)

enum nf_op {
#define NF_OP_ENUM(sym, num, name, cls) NF_OP_##sym = num,
    NF_OP_MAP(NF_OP_ENUM)
#undef NF_OP_ENUM
        NF_NOPS = 24, /* number of op types */
    NF_OP_TOTAL = 24  /* the TOTAL slot of per-op tables sized NF_NOPS + 1 */
};

/* Call classes (docs/SFS30.md §2.3).  INIT applies to every call made
 * before the warm-up phase; the others follow the op.  v3-only ops take the
 * "natural assignment" of docs/SFS30.md §2.3: access/fsinfo/pathconf Lookup, readdirplus
 * Read, commit/mknod Write. */
enum nf_call_class { NF_CLASS_INIT, NF_CLASS_LOOKUP, NF_CLASS_READ, NF_CLASS_WRITE };

/* "getattr" for NF_OP_GETATTR; "TOTAL" for NF_OP_TOTAL; NULL when out of
 * range. */
const char *nf_op_name(int op);
/* The op whose token is name (exact, lower case), or -1. */
int nf_op_from_name(const char *name);
/* The call class of an op in the run phases. */
enum nf_call_class nf_op_class(int op);
/* Whether the op exists in the given NFS version (v2 lacks access, commit,
 * fsinfo, mknod, pathconf, readdirplus; v3 lacks root and wrcache; a
 * protocol of nf_proto.h has its sfs_ops set's, NFSv4.1 v3's). */
int nf_op_in_version(int op, int nfs_version);
/* The SFS timeout of a call class: UDP init 10 s, lookup 1 s, read 2 s,
 * write 3 s; TCP 60 s for all. */
uint32_t nf_class_timeout_ms(enum nf_call_class cls, int tcp);

#endif /* NF_OPS_H */
