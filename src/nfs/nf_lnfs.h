/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf_lnfs.h - the libnfs wrapper of the nfs layer (docs/DECISIONS.md D3):
 * libnfs is the independent second client, for preparing and cleaning
 * server-side trees and for reading back what the engine wrote.  It is not
 * a hot path: every function is synchronous and bounded by a timeout.  The
 * interface names no libnfs or rpcgen type, so any layer above may include
 * it beside nf.h; lnfs.c is the only file in src/ that includes libnfs.
 * NFSv3, or NFSv4.0 where asked (libnfs 4.0 has no NFSv2 file API).  Paths are relative
 * to the export root and start with '/'.  Errors: a negative errno with one line in the
 * context's last error.
 */
#ifndef NF_LNFS_H
#define NF_LNFS_H

#include <stddef.h>
#include <stdint.h>

struct nf_lnfs;

/* Mounts spec (any form of nf_spec.h) with libnfs over TCP; timeout_ms
 * bounds every call (0 = 10 s).  Returns 0 and *out, or -errno with err. */
int nf_lnfs_open(struct nf_lnfs **out, const char *spec, uint32_t timeout_ms, char *err,
                 size_t errlen);
/* The same over NFSv4.0 (nfs_version 4: libnfs's v4 client, no MOUNT
 * program; the mount point's MOUNT port is not used) or NFSv3 (3). */
int nf_lnfs_open_version(struct nf_lnfs **out, const char *spec, int nfs_version,
                         uint32_t timeout_ms, char *err, size_t errlen);
/* Unmounts and frees; NULL is fine. */
void nf_lnfs_close(struct nf_lnfs *l);
const char *nf_lnfs_last_error(const struct nf_lnfs *l);

/* Reads up to len bytes at off; *got = bytes read (short at end of file). */
int nf_lnfs_read(struct nf_lnfs *l, const char *path, uint64_t off, void *buf, size_t len,
                 size_t *got);
/* Writes len bytes at off, creating the file (mode 0644) when create. */
int nf_lnfs_write(struct nf_lnfs *l, const char *path, uint64_t off, const void *buf,
                  size_t len, int create);
/* Size of a file; -ENOENT when it does not exist. */
int nf_lnfs_size(struct nf_lnfs *l, const char *path, uint64_t *size);
/* Makes path a regular file of at least size bytes: created (mode 0644)
 * when missing, extended with a truncate (sparse) when shorter, left alone
 * when long enough (a prepared tree is reused).  *created / *grown (may be
 * NULL) say what was done.  -EISDIR when path is a directory. */
int nf_lnfs_prepare_file(struct nf_lnfs *l, const char *path, uint64_t size, int *created,
                         int *grown);
/* mkdir -p (mode 0755). */
int nf_lnfs_mkdir_p(struct nf_lnfs *l, const char *path);
/* Calls fn for each entry of a directory except "." and ".."; fn returns 0
 * to go on, anything else to stop (returned). */
int nf_lnfs_list(struct nf_lnfs *l, const char *dir,
                 int (*fn)(const char *name, int is_dir, void *data), void *data);
/* rm -rf: removes path and everything below it (at most 64 levels deep);
 * a missing path is not an error. */
int nf_lnfs_remove_tree(struct nf_lnfs *l, const char *path);

#endif /* NF_LNFS_H */
