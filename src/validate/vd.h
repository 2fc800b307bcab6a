/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * vd.h - the public interface of the validate layer: the SFS 3.0 validation
 * suite (docs/SFS30.md §19) and FreeSFS's checks beyond it.  `sfs -V LEVEL
 * MOUNT` and `sfs3 -V LEVEL MOUNT` reach it through the load layer
 * (cl_validate); sfs_mgr -v runs those and keeps their output in sfsval.SFX.
 *
 * One run mounts the export, works in <export>/validatedir and goes through
 * the reference steps of SFS 3.0 for the NFS version (v2: 22 objects, v3:
 * 51), the read-back of every written file through libnfs (an independent
 * client, docs/DECISIONS.md D3) and an "extended" section (FSSTAT, FSINFO,
 * PATHCONF, ACCESS, COMMIT, MKNOD).  Findings are I (information), W
 * (warning: a deviation, naming the RFC section) or E (error: the run
 * stops); W and E are errors.  The last line is "validation completed
 * successfully." or "validation terminated with errors".
 *
 * Every call is bounded (the SFS call-class timeouts, a few retries after a
 * timeout), and so is the restart command.  Nothing here exits; the text
 * goes to the streams the caller gives.
 */
#ifndef VD_H
#define VD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nfs/nf.h"

/* Levels (docs/SFS30.md §19). */
#define VD_LEVEL_BATCH       1 /* W and E only */
#define VD_LEVEL_VERBOSE     2 /* every step, I too */
#define VD_LEVEL_INTERACTIVE 3 /* verbose, and "continue? (y or n)" after each W */

/* vd_run's results. */
#define VD_PASSED 0 /* "validation completed successfully." */
#define VD_FAILED 1 /* "validation terminated with errors" */

struct vd_opts {
    int level;                 /* 1..3 */
    int nfs_version;           /* 2 or 3 */
    int tcp;                   /* NFS over TCP (-Q) instead of UDP */
    const char *mount;         /* one mount point, any form of nf_spec.h */
    const char *prog;          /* "sfs3", for the header line */
    const char *restart_cmd;   /* shell command that restarts the server, for
                                  the COMMIT verifier check; NULL = skip it */
    uint32_t restart_limit_ms; /* time limit of restart_cmd (0 = 120 s) */
    /* Reaches the server through descriptors it hands out instead of the
     * network (nf_mount_opts.connect: the unit tests' in-process server);
     * libnfs cannot follow, so the read-backs are skipped (an I note).
     * NULL: the network. */
    nf_connect_fn connect;
    void *connect_data;
};

/* Fills o with the defaults (level 1, NFSv3, UDP, no restart command). */
void vd_opts_init(struct vd_opts *o);

/*
 * Runs the suite: messages to out, the level-3 answers read from in (EOF
 * means no).  Returns VD_PASSED or VD_FAILED, after the final line; a mount
 * that fails is reported as an E line and VD_FAILED as well.  Blocks for as
 * long as the server takes (seconds on a healthy one), bounded throughout.
 */
int vd_run(const struct vd_opts *o, FILE *out, FILE *in);
/* Whether the suite validates over this NFS version (2 and 3). */
int vd_speaks(int nfs_version);

#endif /* VD_H */
