/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * init.h - a child's mount and population phases (sfs-reference §5.3,
 * §5.4, §4 "reliable initialisation routines").
 *
 * Mount: wait child x 200 ms, MOUNT (v1 for NFSv2, v3 for NFSv3) with up to
 * 10 retries after a timeout (each adding a random 0-1999 ms pause), then
 * look up or make CL<client>/testdir<child> (open item 8: the child's own
 * number, 0-based, as SFS passed it).
 *
 * Populate: idempotent.  Every entry is looked up first; what is missing is
 * created, what is too long is truncated with SETATTR, what is too short is
 * filled with 0xDEADBEEF writes, what should not exist (the non-io slots and
 * spare dirs left empty for creates and mkdirs) is removed, an entry of the
 * wrong type is removed and made again.  So a re-run on an existing tree
 * restores the base set instead of failing.  Sizes come from a generator
 * seeded by --seed and the child number only, so a re-run asks for the same
 * sizes.  Directories just made need no lookups of their contents.  Every
 * call uses the INIT class timeout and is retried (bounded) after an RPC
 * failure.
 */
#ifndef LD_INIT_H
#define LD_INIT_H

#include "load/child.h"

/* Mounts the child's mount point and finds or makes its testdir.  Returns
 * 0, or -errno with one line in c->last_error. */
int ld_init_mount(struct ld_child *c);

/* Populates the child's file set.  Returns 0, or -errno with one line in
 * c->last_error. */
int ld_init_populate(struct ld_child *c);

/* Unmounts (best effort). */
void ld_init_unmount(struct ld_child *c);

#endif /* LD_INIT_H */
