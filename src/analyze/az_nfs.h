/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * az_nfs.h - the analysis of NFS traces (packet captures and nfsdump text,
 * read by the trace layer's tr_nfs readers): statistics per procedure and
 * per client with the traced server's response times (nfs_stats.c), the
 * miss-ratio curve over (file handle, block) of READ and WRITE on the
 * block traces' machinery (nfs_mrc.c), the reports of both and of the
 * file-system image (nfs_report.c), and the sfs_trace runners for NFS
 * traces (nfs_cli.c).  Procedures are keyed by the SFS op names of the nfs
 * layer (nf_ops.h), MOUNT's by their own names.
 */
#ifndef AZ_NFS_H
#define AZ_NFS_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/az.h"
#include "common/hist.h"
#include "nfs/nf_ops.h"
#include "trace/tr_nfs.h"
#include "image/im.h"

/* ---- statistics (nfs_stats.c) ------------------------------------------- */

/* Rows of the procedure table: the SFS ops, then MOUNT's procedures 0-6
 * (null, mnt, dump, umnt, umntall, export, exportall). */
#define AZ_NFS_MOUNT_PROCS 7
#define AZ_NFS_ROWS        (NF_NOPS + AZ_NFS_MOUNT_PROCS)

/* One procedure's figures. */
struct az_nfs_proc {
    uint64_t calls, replies, unanswered, retransmitted;
    uint64_t errors;     /* replies with an NFS (or MOUNT) status other than OK */
    uint64_t rpc_errors; /* replies refused at the RPC level */
    uint64_t bytes;      /* READ: bytes returned; WRITE: bytes sent */
    int64_t rt_sum_ns, rt_min_ns, rt_max_ns; /* call to reply */
    struct cm_hist rt;                       /* the same, for percentiles */
};

/* One client host's figures (by the reader's host index). */
struct az_nfs_client {
    uint64_t calls, replies, unanswered, errors, bytes_read, bytes_written;
};

/* (procedure row, status) pairs seen in error replies. */
#define AZ_NFS_ERR_PAIRS 256
struct az_nfs_err {
    uint32_t row, status;
    uint64_t n;
};

struct az_nfs4_stats;

struct az_nfs_stats {
    uint64_t calls, replies, unanswered, retransmitted, errors, rpc_errors;
    uint64_t by_version[5]; /* NFS calls by version (2, 3, 4) */
    uint64_t mount_calls, udp_calls, tcp_calls;
    uint64_t bytes_read, bytes_written;
    int64_t first_ns, last_ns; /* the first call, the last call or reply */
    int any;
    struct az_nfs_proc proc[AZ_NFS_ROWS];
    struct az_nfs_err err[AZ_NFS_ERR_PAIRS];
    uint32_t nerr;
    uint64_t err_other; /* error replies past AZ_NFS_ERR_PAIRS pairs */
    struct az_nfs_client *clients;
    uint32_t nclients;
    struct az_nfs4_stats *v4; /* NFSv4's tables, from its first event */
    char last_error[CM_ERR_LEN];
};

void az_nfs_stats_init(struct az_nfs_stats *s);
void az_nfs_stats_free(struct az_nfs_stats *s);
/* Adds one event.  0 or -ENOMEM (a client table that cannot grow). */
int az_nfs_stats_event(struct az_nfs_stats *s, const struct tr_nfs_event *ev);
/* The row of an event's procedure, or -1 (a procedure outside the tables). */
int az_nfs_row(const struct tr_nfs_event *ev);
/* A row's name: "getattr", ... for the SFS ops, "mnt", ... for MOUNT. */
const char *az_nfs_row_name(int row);

/* ---- NFSv4 statistics (nfs4_stats.c) ----------------------------------- */

/* Operation rows: numbers 0-75 (3-58 are 4.0's and 4.1's, 59-75 4.2's),
 * then ILLEGAL. */
#define AZ_NFS4_OP_ROWS 77
/* Operations a shape names (a longer COMPOUND's shape ends in "..."). */
#define AZ_NFS4_SHAPE_OPS 16
/* Shapes, sessions and client ids kept each; opens held at once. */
#define AZ_NFS4_ROWS_MAX  4096
#define AZ_NFS4_OPENS_MAX (1u << 20)

struct az_nfs4_shape {
    uint8_t n, more; /* operations named; 1 when the COMPOUND had more */
    uint16_t ops[AZ_NFS4_SHAPE_OPS];
    struct az_nfs_proc p;
};

struct az_nfs4_session {
    uint8_t id[16];
    int seen, created, destroyed, has_client;
    uint64_t clientid; /* from its CREATE_SESSION */
    uint64_t compounds;
    uint32_t slots; /* the highest slot id used + 1 */
};

struct az_nfs4_client {
    uint64_t id;
    uint32_t host; /* the traced host of its first COMPOUND */
    uint64_t compounds, sessions;
};

struct az_nfs4_stats {
    struct az_nfs_proc proc[2]; /* NULL, COMPOUND */
    struct az_nfs_proc op[AZ_NFS4_OP_ROWS];
    uint64_t minor[3], minor_other;
    uint64_t bytes_read, bytes_written;
    struct az_nfs_err err[AZ_NFS_ERR_PAIRS]; /* row: the operation number */
    uint32_t nerr;
    uint64_t err_other;
    struct az_nfs4_shape *shapes;
    uint32_t nshapes, shapes_cap;
    uint64_t shapes_not_kept; /* COMPOUNDs of shapes past the table */
    struct az_nfs4_session *sessions;
    uint32_t nsessions, sessions_cap;
    uint64_t sessions_not_kept;
    struct az_nfs4_client *clients;
    uint32_t nclients, clients_cap;
    uint64_t clients_not_kept;
    /* opens: OPEN's stateid until its CLOSE */
    uint64_t opens_ok, opens_closed, closes_not_opened, opens_not_kept;
    uint64_t opens_held;
    int64_t open_sum_ns, open_min_ns, open_max_ns;
    struct cm_hist open_time;
    uint64_t delegations, delegreturns;
    void *shape_index, *session_index, *opens, *client_index; /* Judy */
};

/* Adds an NFSv4 event (NULL or COMPOUND) to s's v4 tables, made at the
 * first; *read and *written get its READ and WRITE bytes.  0 or
 * -ENOMEM. */
int az_nfs4_stats_event(struct az_nfs_stats *s, const struct tr_nfs_event *ev,
                        uint64_t *read, uint64_t *written);
void az_nfs4_stats_free(struct az_nfs4_stats *v);
/* The row of an operation number, or -1; the operation of a row. */
int az_nfs4_op_row(uint32_t op);
uint32_t az_nfs4_row_op(int row);

/* ---- the miss-ratio curve (nfs_mrc.c) ----------------------------------- */

/* Feeds one event to m: READ (bytes returned, or asked when unanswered)
 * and WRITE (bytes sent) of the file whose handle units numbers densely;
 * other events count as other records.  0, or a negative errno with
 * m->last_error set. */
int az_nfs_mrc_event(struct az_mrc *m, struct im_fhmap *units,
                     const struct tr_nfs_event *ev);

/* ---- reports (nfs_report.c) --------------------------------------------- */

/* What an NFS report needs to know about the trace: its name, the reader
 * (format, hosts, counters), the options to echo. */
struct az_nfs_source {
    const char *file;
    struct tr_nfs_reader *reader;
    const struct cm_opt *opts;
    size_t nopts;
    const void *cfg;
};

void az_nfs_stats_table(FILE *out, const struct az_nfs_source *src,
                        const struct az_nfs_stats *s);
void az_nfs_stats_yaml(struct cm_yaml *y, const struct az_nfs_source *src,
                       const struct az_nfs_stats *s);
/* The image's summary: objects by type, depth, sizes, bytes, orphans,
 * created and removed during the trace. */
void az_nfs_image_table(FILE *out, const struct az_nfs_source *src,
                        const struct im_image *img);
/* The summary and the whole image (every object, every name). */
void az_nfs_image_yaml(struct cm_yaml *y, const struct az_nfs_source *src,
                       const struct im_image *img);
/* nfs_rows.c: a row of figures in the text table (its header first; names
 * in a column width wide), and as a YAML map under name (with share_pct
 * when share >= 0). */
void az__nfs_proc_header(FILE *out, int width, const char *what);
/* A percentile of h (whole microseconds) kept within the exact minimum
 * and maximum printed beside it, which have the nanoseconds the histogram
 * rounds. */
double az__nfs_quantile_ms(const struct cm_hist *h, double q, int64_t min_ns,
                           int64_t max_ns);
/* A reply's response time (ns; below 0 counts as 0) into p. */
void az__nfs_proc_reply(struct az_nfs_proc *p, int64_t rt_ns);
/* One error reply of (row, status) in the pairs err[0..*nerr) (at most
 * AZ_NFS_ERR_PAIRS; past them *other counts it). */
void az__nfs_err_count(struct az_nfs_err *err, uint32_t *nerr, uint64_t *other,
                       uint32_t row, uint32_t status);
void az__nfs_proc_row(FILE *out, int width, const char *name,
                      const struct az_nfs_proc *p);
void az__nfs_proc_yaml(struct cm_yaml *y, const char *name, const struct az_nfs_proc *p,
                       double share);
/* nfs4_report.c: the NFSv4 tables of stats, after the v2/v3 ones. */
void az__nfs4_stats_table(FILE *out, const struct az_nfs_source *src,
                          const struct az_nfs4_stats *v);
void az__nfs4_stats_yaml(struct cm_yaml *y, const struct az_nfs_source *src,
                         const struct az_nfs4_stats *v);

/* The reader's counters under "reader" (shared with the mrc report). */
void az_nfs_reader_yaml(struct cm_yaml *y, struct tr_nfs_reader *r);

/* ---- live captures (nfs_live.c) ----------------------------------------- */

/* A live capture's packets and drops in words, the headline's note ("live
 * capture, 1200 packets, 3 DROPPED (...): the figures below miss them"),
 * into buf; NULL for a trace read from a file. */
const char *az_nfs_capture_text(const struct tr_nfs_reader *r, char *buf, size_t len);
/* The same figures under "capture" (nothing for a file). */
void az_nfs_capture_yaml(struct cm_yaml *y, const struct tr_nfs_reader *r);

#endif /* AZ_NFS_H */
