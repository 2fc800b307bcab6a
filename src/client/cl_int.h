/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cl_int.h - the client layer's private header: what its files call on
 * each other.  setup.c serves run.c (the standalone run) and remote.c (the
 * client of a prime) alike; neither calls the other, and setup.c calls
 * neither.
 */
#ifndef CL_INT_H
#define CL_INT_H

#include <stddef.h>
#include <stdio.h>

#include "client/cl.h"
#include "ctl/ct.h"
#include "load/report.h"
#include "load/stats.h"
#include "load/workload.h"

struct cl_parent;

/* ---- setup.c ------------------------------------------------------------- */

/* A progress line as SFS prints them: a 24-character ctime stamp first. */
void cl_progress(FILE *log, const char *fmt, ...) CM_PRINTF(2, 3);

/* Decodes and merges every child's results (their last answers) into all
 * and *wall, the workload's block (allocated here, NULL when it has none;
 * the caller frees it). */
int cl_collect(struct cl_parent *p, const struct ld_setup *su, struct ld_stats *all,
               void **wall, char *err, size_t errlen);

/* What the report module needs, from the setup and merged results
 * (wstats: the workload's block); host gets this machine's name. */
void cl_report_in(const struct ld_setup *su, const struct ld_stats *stats,
                  const void *wstats, char *host, size_t hostlen,
                  struct ld_report_in *in);

/* ---- progress.c: the progress lines (docs/sfs.md, "Progress") ------------ */

struct cl_meter {
    const struct ld_setup *su;
    FILE *log;
    unsigned every_s;  /* --progress; 0: no lines */
    int tty;           /* log is a terminal: one line rewritten in place */
    const char *phase; /* "warm-up", "run"; NULL between phases */
    unsigned total_s;  /* the phase's length, 0 unknown */
    uint64_t start_ms, next_ms;
    struct ld_live base, prev; /* the counters at the phase's start, at the last line */
    int open;                  /* a terminal line without its newline */
};

/* Sets m up for su's children, lines on log (--progress's cadence). */
void cl_meter_init(struct cl_meter *m, const struct ld_setup *su, FILE *log);
/* A load phase begins (total_s its length, 0 unknown) / ended (the open
 * terminal line gets its newline). */
void cl_meter_begin(struct cl_meter *m, const char *phase, unsigned total_s);
void cl_meter_end(struct cl_meter *m);
/* Called on every turn of a waiting loop: prints the line when due. */
void cl_meter_tick(void *m);
/* The children's summed live counters in their wire form into buf (a
 * heartbeat's payload); returns the bytes, 0 when there are none. */
int cl_meter_heartbeat(const struct ld_setup *su, unsigned char *buf, size_t cap);

/* ---- pidfile.c ------------------------------------------------------------- */

/* --pid-file / --kill-run: records this process (pid and start time)
 * atomically; stops the process group a pid file names when that process
 * still runs (SIGCONT, SIGTERM, bounded wait, SIGKILL) and removes the
 * file.  msg says what was done.  0 or -errno. */
int cl_pidfile_write(const char *path, char *err, size_t errlen);
int cl_pidfile_kill(const char *path, char *msg, size_t msglen);

#endif /* CL_INT_H */
