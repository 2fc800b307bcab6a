/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ops.h - the 24 SFS op generators (sfs-reference §2, §3, §4): for each op
 * the file choice by (state, category), the v2 or v3 arguments, and the
 * bookkeeping of the reply in the file table.  Calls go through biod.c
 * (reads and writes keep up to BIOD_MAX_READS/WRITES in flight, every
 * other op is one synchronous call).  Accounting (§4): a completed RPC is a
 * good call whatever its NFS status (an NFS error is logged with DEBUG 4);
 * an RPC failure (timeout, send error) is a bad call without a time.
 *
 * Choices for the open points of §22 item 9 (see docs/sfs.md):
 *  - getattr, setattr, access, commit, pathconf, fsstat: a working io file
 *    drawn from the cyclical Poisson groups; fsinfo: the testdir;
 *  - lookup: 35 % (DEFAULT_FAILED_LOOKUP) at a non-existent non-io name,
 *    else a working io file by its parent and name;
 *  - readdir / readdirplus: the directory holding a working io file;
 *  - create, mknod, symlink, link (new name): a non-existent non-io slot;
 *    remove, rename source, link source: an existing non-io entry; rename
 *    target: a free non-io slot in the same directory;
 *  - mkdir / rmdir: the spare directories;
 *  - readlink: a symlink.
 *  - v3 writes are UNSTABLE (commit has something to do); v3 readdir and
 *    readdirplus ask for 8192 bytes from cookie 0, like v2 readdir.
 */
#ifndef LD_OPS_H
#define LD_OPS_H

#include <stdint.h>

#include "load/child.h"

/* Builds the child's op and transfer decks from the selector's request
 * shares and the block-size rows (no allocation). */
void ld_op_decks_init(struct ld_child *c);

/* Deals the next request's op. */
int ld_op_next(struct ld_child *c);

/*
 * Chooses the file(s) of a load-phase request of op into c->req (D6 best
 * fit for reads and writes).  Returns 0, or -ENOENT when the op has
 * nothing to work on (counted as a "no_calls" pick by the caller).
 */
int ld_op_pick(struct ld_child *c, int op);

/*
 * Sends the request in c->req and accounts its calls.  Returns the number
 * of calls it made (for the pacer; an op the NFS version lacks counts one
 * bad call and returns 1), or -ENOTCONN when the client is unusable.
 */
int ld_op_issue(struct ld_child *c);

/* ld_op_pick then ld_op_issue (plus the v2 symlink's follow-up lookup).
 * Returns the number of calls made, 0 when nothing was picked, or
 * -ENOTCONN. */
int ld_op_request(struct ld_child *c, int op);

/* The biod callbacks of a child (data = the struct ld_child). */
int ld_op_prepare(struct ld_slot *s, uint32_t i, void *data);
void ld_op_done(struct ld_slot *s, void *data);

/* The 0xDEADBEEF pattern writes carry (sfs-reference §3), one buffer of
 * the largest transfer shared by every call. */
const char *ld_op_write_data(void);

#endif /* LD_OPS_H */
