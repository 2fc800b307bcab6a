/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf4.h - NFSv4 names of the nfs layer: the status names of nfsstat4
 * (RFC 5662, RFC 7863), without the NFS4ERR_ prefix as nf.h's v2/v3 names
 * are written (status4.c), and the names of the operations and callback
 * operations as the RFCs and tshark write them, "PUTFH", "CB_RECALL"
 * (names4.c).  The types and codecs are rpcgen's, from
 * src/nfs/proto/nfs4_prot.x (nfs4_prot.h); this header needs none of them.
 */
#ifndef NF4_H
#define NF4_H

#include <stdint.h>

/* "OK", "DELAY", "BADSESSION"...; "UNKNOWN" for a number not in nfsstat4. */
const char *nf4_status_name(uint32_t status);
/* The nfsstat4 number of a name, with or without NFS4ERR_, in any case.
 * Returns 0, or -1 for a name nfsstat4 does not have. */
int nf4_status_value(const char *name, uint32_t *status);

/* An operation's name ("PUTFH"), or NULL for a number nfs_opnum4 does not
 * have. */
const char *nf4_op_name(uint32_t op);
/* A callback operation's name ("CB_RECALL"), or NULL. */
const char *nf4_cb_op_name(uint32_t op);

#endif /* NF4_H */
