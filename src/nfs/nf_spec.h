/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf_spec.h - mount points as the user writes them (nfs layer,
 * docs/DECISIONS.md D2): "host:/path", "host:port:/path" and
 * "nfs://host[:port]/path?mountport=N".  Kept apart from nf.h because it
 * needs no rpcgen types: lnfs.c, which must not see our nfs3_prot.h (its
 * names collide with libnfs's raw headers), parses mount points too.
 */
#ifndef NF_SPEC_H
#define NF_SPEC_H

#include <stddef.h>
#include <stdint.h>

#define NF_HOST_MAX 256
#define NF_PATH_MAX 1025 /* MNTPATHLEN + 1 */

struct nf_mount_spec {
    char host[NF_HOST_MAX]; /* name or address (IPv6 without brackets) */
    uint16_t nfs_port;      /* 0 = ask rpcbind */
    uint16_t mount_port;    /* 0 = ask rpcbind */
    char path[NF_PATH_MAX]; /* absolute export path */
};

/*
 * Parses "host:/path" (rpcbind), "host:port:/path" (NFS and MOUNT both at
 * port) or "nfs://host[:port]/path[?mountport=N]" (a missing mountport
 * means rpcbind for MOUNT; a missing port means rpcbind for NFS).  Returns
 * 0, or -EINVAL with one line in err naming what is wrong ("mount point
 * 'x': no ':/path' part").
 */
int nf_parse_mount_spec(const char *s, struct nf_mount_spec *out, char *err,
                        size_t errlen);

#endif /* NF_SPEC_H */
