/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * az_fit.h - a synthetic SFS workload fitted to an NFS trace (sfs_trace
 * fit): what the trace's events say in the SFS model's terms, and the
 * model's files.
 *
 * One pass over the events (fit.c) counts the calls per SFS op, groups
 * each stream's READ and WRITE calls into requests (a stream is a client
 * address, port and connection: an SFS process, or a kernel client's
 * connection; a request is a run of calls on one file at consecutive
 * offsets, all but the last of the same size, with no other call of the
 * stream between), measures each stream's calls in flight, the appending
 * and the stable writes, builds the file-system image (src/image) and
 * the exact miss-ratio curve of the READ and WRITE blocks.  fit_model.c
 * turns the counts into the model: the op mix in whole percents over the
 * SFS op set, the block-size rows, KB per block, the file set and its
 * working set, the rate, the clients and processes, the biods, and a list
 * of what could not be mapped.  fit_write.c writes NAME.mix, NAME.iodist
 * and NAME_rc; fit_report.c the report (what the fit keeps, what it
 * cannot keep, the measure of fit) as text and YAML, beside a second
 * trace's fit when one is compared (the fitted run's own capture).
 */
#ifndef AZ_FIT_H
#define AZ_FIT_H

#include <stdint.h>
#include <stdio.h>

#include "analyze/az.h"
#include "analyze/az_nfs.h"
#include "image/im.h"
#include "load/iodist.h"
#include "nfs/nf_ops.h"
#include "trace/tr_nfs.h"

/* Calls in flight a stream is measured up to (SFS's biods go to 32). */
#define AZ_FIT_FLIGHT_MAX 32
/* Outstanding replies a stream remembers per kind (READ, WRITE). */
#define AZ_FIT_OUT_MAX 64

/* One request being grouped in a stream. */
struct az_fit_req {
    int op; /* NF_OP_READ, NF_OP_WRITE, -1: none open */
    struct nf_fh fh;
    uint64_t next;    /* the offset a continuing call starts at */
    uint64_t bytes;   /* the calls' counts so far */
    uint32_t calls;   /* calls so far */
    uint32_t first;   /* the first call's count: the block of the request */
    uint32_t last;    /* the last call's count */
    int append;       /* a WRITE request that started at the file's end */
    int append_known; /* the file's size before it was known */
};

/* A stream: one client address, port, transport and connection. */
struct az_fit_stream {
    uint32_t client;
    uint16_t port;
    uint32_t conn;
    int used;
    uint64_t calls;
    struct az_fit_req req;
    /* the reply times of its READs [0] and WRITEs [1] still outstanding */
    int64_t out[2][AZ_FIT_OUT_MAX];
    uint32_t nout[2];
};

/* Request sizes seen: bytes -> requests (a short sorted list per op). */
struct az_fit_sizes {
    uint64_t *bytes, *count;
    uint32_t n, cap;
};

/* Names of unmapped NFSv4 COMPOUNDs kept (the rest counted together). */
#define AZ_FIT_V4_NAMES 16

/* What the pass over the events gathered (fit.c). */
struct az_fit_counts {
    uint64_t calls[NF_NOPS]; /* NFS calls by SFS op, all versions */
    uint64_t by_version[4];  /* NFS calls by version (2, 3) */
    uint64_t mount_calls, udp_calls, tcp_calls;
    uint64_t errors[NF_NOPS]; /* replies with an NFS status other than OK */
    uint64_t requests[2];     /* READ [0], WRITE [1] requests */
    uint64_t req_calls[2];    /* their calls */
    uint64_t req_bytes[2];    /* their bytes (the calls' counts) */
    struct az_fit_sizes sizes[2];
    /* calls of full blocks: a request's calls but its last (their count is
     * the block the client used) by size, the largest call of each kind */
    struct az_fit_sizes full;
    uint64_t max_call[2];
    uint64_t appends, append_unknown; /* WRITE requests at the end of the file; of
                                         which the file's size was unknown */
    uint64_t stable_writes;           /* WRITE calls not UNSTABLE */
    /* calls in flight in their stream when each READ [0] and WRITE [1] call
     * was sent, this one included (the last bin: AZ_FIT_FLIGHT_MAX or more) */
    uint64_t flight[2][AZ_FIT_FLIGHT_MAX + 1];
    int64_t first_ns, last_ns; /* the first call, the last call or reply */
    int any;
    uint64_t rate[AZ_RATE_BUCKETS]; /* NFS calls per second of the trace */
    uint32_t nrate;
    uint64_t sequential[2]; /* requests that start where the stream's
                               previous one of the file ended */
    /* NFSv4 (fit_v4.c): COMPOUNDs (and NULL calls) read, those mapped to
     * an SFS op, the OPENs of existing files and CLOSEs (the state SFS's
     * model keeps implicit), getattr-shaped ones (fsstat, fsinfo and
     * pathconf are GETATTRs of other attributes), and the unmapped ones
     * by their leading operation's name */
    uint64_t v4_compounds, v4_mapped, v4_opens, v4_closes, v4_getattrs;
    uint64_t v4_minor[3];
    struct {
        char name[24];
        uint64_t n;
    } v4_unmapped[AZ_FIT_V4_NAMES];
    uint32_t nv4_unmapped;
    uint64_t v4_unmapped_other; /* past AZ_FIT_V4_NAMES names */
};

/* The model fitted (fit_model.c). */
#define AZ_FIT_NOTES_MAX 24
struct az_fit_model {
    int nfs_version, tcp;
    /* the mix: whole percents of the SFS ops, summing to 100 */
    int pct[NF_NOPS];
    double trace_pct[NF_NOPS];   /* the trace's calls, in percent of the mapped */
    double model_calls[NF_NOPS]; /* the calls the model makes for the trace's
                                    requests (READ/WRITE split in blocks) */
    uint64_t mapped_calls, unmapped_calls;
    /* the block-size rows (iodist.h), per READ [0] and WRITE [1] */
    struct ld_iodist_table table[2];
    int have_table[2];
    double trace_row_pct[2][LD_IODIST_MAX_ROWS]; /* the trace's share of each row */
    uint32_t kb_per_block;
    /* the rate and its points */
    double duration_s, rate;
    int load;
    int points;
    int runtime_s, warmup_s;
    /* clients, processes, biods */
    uint32_t clients, streams, procs;
    int biod_reads, biod_writes;
    /* the file set */
    uint64_t files_at_start; /* regular files at the start holding data: those
                                known, and those estimated in directories
                                never listed whole (their mean) */
    uint64_t files_known;    /* of which the trace showed */
    uint64_t dirs_listed;    /* directories holding files listed whole */
    uint64_t files_touched;  /* of which the working set ops touched */
    uint64_t picked, picks;  /* of which SFS's groups picked (getattr, access,
                                lookup...: uniform in a group), and their picks */
    double working_set;      /* the working set SFS's groups need to touch
                                files_touched files in picks picks */
    uint64_t empty_files, symlinks, dirs_with_files;
    uint64_t bytes_at_start; /* their sizes */
    int file_count, access_pct, dir_count, symlink_count;
    int append_pct;
    double stable_pct;
    /* the miss-ratio curve's summary */
    uint64_t footprint_blocks, references;
    /* what could not be mapped or kept, one line each */
    char notes[AZ_FIT_NOTES_MAX][256];
    unsigned nnotes;
    uint64_t notes_more;
};

/* The whole fit of one trace. */
struct az_fit {
    struct az_fit_counts c;
    struct az_fit_model m;
    struct az_fit_stream *streams; /* open addressing on (client, port, conn) */
    uint32_t nstreams, streams_cap;
    uint64_t streams_dropped; /* past AZ_FIT_STREAMS_MAX: not grouped */
    struct im_image *img;
    struct im_fhmap *units;   /* files of the miss-ratio curve */
    struct im_fhmap *handles; /* every handle with a size seen */
    uint64_t *size_of;        /* by handles' id: the last size seen, +1 (0:
                                 unknown) */
    uint32_t size_cap;
    struct im_fhmap *touched; /* handles the working-set ops used */
    uint32_t *touches;        /* by touched's id: how often (saturating) */
    uint32_t touches_cap;
    struct im_fhmap *listed; /* directories a READDIR(PLUS) listed whole */
    struct az_mrc *mrc;
    uint64_t block_size; /* the curve's */
    char last_error[CM_ERR_LEN];
};

#define AZ_FIT_STREAMS_MAX (1u << 20)

/* Sets f up (the curve's block size, exact).  0, or -ENOMEM. */
int az_fit_init(struct az_fit *f, uint64_t block_size);
void az_fit_free(struct az_fit *f);
/* Adds one event (in call order).  0, or -errno with f->last_error. */
int az_fit_event(struct az_fit *f, const struct tr_nfs_event *ev);
/* az_fit_event without the image: the call of one SFS op counted (the
 * NFSv4 path gives the image every operation, the count one a COMPOUND). */
int az_fit_call(struct az_fit *f, const struct tr_nfs_event *ev);
/* An NFSv4 event (vers 4: a COMPOUND, or the NULL procedure) as the SFS op
 * its COMPOUND carries (fit_v4.c): every operation to the image, the one
 * that says what the COMPOUND does counted by az_fit_call, OPEN and CLOSE
 * and the unmapped counted apart.  0, or -errno with f->last_error. */
int az_fit_v4_event(struct az_fit *f, const struct tr_nfs_event *ev);
/* After the last event: the requests still open closed, the image and the
 * curve finished, the model fitted (points: the load points of the rc
 * file; r: the reader, for the calls it counted but did not decode, or
 * NULL).  0, or -errno with f->last_error. */
int az_fit_finish(struct az_fit *f, const struct tr_nfs_reader *r, int points);

/* ---- the model (fit_model.c) -------------------------------------------- */

/* Fills f->m from f->c and the image (az_fit_finish calls it). */
int az_fit_model(struct az_fit *f, const struct tr_nfs_reader *r, int points);
/* Whole percents summing to 100 from counts (largest remainder; 0 when the
 * total is 0). */
void az_fit_percents(const double *v, unsigned n, int *pct);
/* A note of what could not be mapped or kept. */
void az_fit_note(struct az_fit_model *m, const char *fmt, ...) CM_PRINTF(2, 3);

/* ---- the files (fit_write.c) -------------------------------------------- */

/* What the rc file says beside the model: its name, the mount point, the
 * trace it came from. */
struct az_fit_out {
    const char *name;  /* NAME: NAME.mix, NAME.iodist, NAME_rc */
    const char *mount; /* MNT_POINTS, or NULL: "$SFS_MOUNT" */
    const char *trace; /* for the comments */
};
/* Writes the three files atomically.  0, or -errno with err. */
int az_fit_write(const struct az_fit *f, const struct az_fit_out *o, char *err,
                 size_t errlen);

/* ---- the report (fit_report.c) ------------------------------------------ */

/* The text report of f (and, when other is not NULL, beside the fit of a
 * second trace with their distances). */
void az_fit_table(FILE *out, const char *trace, const struct az_fit *f,
                  const char *other_trace, const struct az_fit *other,
                  const struct az_fit_out *o);
void az_fit_yaml(struct cm_yaml *y, const char *trace, const struct az_fit *f,
                 const char *other_trace, const struct az_fit *other);
/* Distances between two fits (or a fit's trace and its model): the
 * largest difference of an op's share (points), the total variation of
 * the mix and of each block-size distribution, the mean absolute
 * difference of the miss ratios at the powers of two up to the larger
 * footprint. */
struct az_fit_distance {
    double mix_max, mix_tv;
    double rows_tv[2];
    double mrc_mean;
};
void az_fit_distance(const struct az_fit *a, const struct az_fit *b,
                     struct az_fit_distance *d);

#endif /* AZ_FIT_H */
