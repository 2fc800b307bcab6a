/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * parent.h - the generator parent's process management (docs/SFS30.md §1,
 * docs/SFS30.md §12.2; docs/DECISIONS.md D8): fork PROCS children, drive them through the
 * phases with one message per phase over a socketpair each, collect their
 * answers, and abort them all when one dies or a signal arrives.
 *
 * Why socketpairs and not SFS's signals and /tmp/sfs_log: a message carries
 * its phase and an error text, the parent notices a dead child at once (EOF
 * on its socket) instead of by SIGCHLD, the child notices a dead parent the
 * same way, and no file in /tmp is shared between concurrent runs.  The
 * phase commands are the same as SFS's (mount, init, warm-up, run, results),
 * so the later prime can drive them one by one across hosts.
 *
 * The messages themselves are in ctl/ct.h.
 */
#ifndef CL_PARENT_H
#define CL_PARENT_H

#include <stddef.h>
#include <stdint.h>
#include <poll.h>
#include <sys/types.h>

#include "common/error.h"
#include "ctl/ct.h"

/* The child body: runs in the forked process; its return value is the
 * child's exit status (0 ok).  fd is its end of the socketpair. */
typedef int (*cl_child_fn)(int fd, unsigned child, void *data);

struct cl_proc {
    pid_t pid;
    int fd;
    int done;      /* answered the current phase */
    void *payload; /* the last answer's payload (owned) */
    uint32_t payload_len;
};

struct cl_parent {
    unsigned nprocs;
    struct cl_proc *procs;
    int debug_signals; /* DEBUG 3: log every kill sent */
    FILE *log;         /* progress and DEBUG lines (stderr by default) */
    /* called on every turn of cl_parent_phase's wait (about 5 times a
     * second; the progress lines); may be NULL */
    void (*tick)(void *data);
    void *tick_data;
    char last_error[CM_ERR_LEN];
};

/*
 * Forks n children, each running fn(fd, k, data) and exiting with its
 * return value.  Installs the parent's SIGINT/SIGTERM handling (a flag the
 * phase waits check) and ignores SIGPIPE.  Returns 0, or -errno with
 * last_error set (the children already forked are stopped).
 */
int cl_parent_spawn(struct cl_parent *p, unsigned n, cl_child_fn fn, void *data);

/*
 * Sends the command to every child and waits for every answer of the same
 * type, for at most timeout_s seconds.  Each answer's payload is kept in
 * procs[k].payload.  On a child's error message, a dead child, a timeout or
 * a signal, stops every child and returns -errno (-EIO, -ECHILD,
 * -ETIMEDOUT, -EINTR) with the cause in last_error.
 */
int cl_parent_phase(struct cl_parent *p, uint32_t cmd, uint32_t arg, unsigned timeout_s);

/*
 * The same phase for a caller with its own poll() loop (the client of a
 * prime): cl_parent_command sends cmd to every child (0, or -errno when a
 * child is already gone); cl_parent_pollfds fills pf[0..nprocs) (children
 * that answered get fd -1) and returns nprocs; after poll(),
 * cl_parent_service reads the answers and returns how many children have
 * still to answer cmd, or -errno with last_error (the children are not
 * stopped: the caller decides).
 */
int cl_parent_command(struct cl_parent *p, uint32_t cmd, uint32_t arg);
unsigned cl_parent_pollfds(const struct cl_parent *p, struct pollfd *pf);
int cl_parent_service(struct cl_parent *p, const struct pollfd *pf, uint32_t cmd);

/* Sends CT_MSG_STOP to every child (the prime's STOP). */
void cl_parent_stop_phase(struct cl_parent *p);

/* Waits (bounded) for every child to exit after the results; returns 0 when
 * all exited 0, else -ECHILD with the cause in last_error. */
int cl_parent_reap(struct cl_parent *p);

/* Stops every live child: SIGTERM, a bounded wait, SIGKILL; reaps them. */
void cl_parent_kill_all(struct cl_parent *p);

/* Frees everything (children must be gone). */
void cl_parent_free(struct cl_parent *p);

/* Whether SIGINT/SIGTERM reached the parent. */
int cl_parent_interrupted(void);

#endif /* CL_PARENT_H */
