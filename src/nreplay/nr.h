/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nr.h - src/nreplay is the NFS trace replay ("n" for NFS; src/replay is
 * the block and POSIX trace replay), a workload (prefix nr_;
 * docs/nfs_replay.md): a packet capture or an nfsdump text trace
 * (trace/tr_nfs.h) played against any NFS server - the traced calls, on
 * the file-system image the trace implies (image/im.h), at the traced
 * times or faster.
 *
 *   plan     (`sfs_trace plan`, or the parent before any child): two
 *            passes over the capture into a plan file.  The first builds
 *            the image; the second turns every call into a compact record
 *            (objects by image id, its names, the traced status and
 *            response time) with its dependencies: the earlier calls, at
 *            most NR_LOOKAHEAD back, it must wait for (per object: a call
 *            that changes it waits for the last call on it, a call that
 *            only reads it for the last that changed it; the same per
 *            directory and name).  The replay reads the image and the
 *            figures; each process streams the calls.  Memory grows with
 *            the image's objects, not with the trace's calls.
 *   prepare  (the child's INIT): the image's tree at the start is created
 *            under CL<n>/nreplay/ (root k as r<k>, orphans by handle under
 *            orphans/) through the child's own client - directories, files
 *            with their start size written, symlinks with their targets,
 *            hard links, special files - and every object's handle on the
 *            server under test noted (traced handle -> replayed handle).
 *   run      (the child's RUN): every call is due at start + t / speed and
 *            goes once its dependencies have completed and the window has
 *            room; objects the trace creates take their handle from the
 *            replayed reply.  Every reply's status is compared with the
 *            traced one.
 *
 * --scale N copies of the trace, each on its own tree, and their streams
 * (traced client hosts) are dealt over the clients and their processes
 * (nr_unit_client, nr_unit_proc).  The dependencies of a trace cross its
 * streams (one host's LOOKUP of a name another host created): a client's
 * processes share each copy's handles and completion times (the plan's
 * shm); a dependency on a call another client replays is kept by the
 * schedule only (nr_cross_deps).
 */
#ifndef NR_H
#define NR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/hist.h"
#include "load/config.h"
#include "load/stats.h"
#include "replaybase/rb.h"
#include "trace/tr_nfs.h"

struct im_image;
struct ld_workload_ops;
struct ld_report_ops;

#define NR_DIR      "nreplay" /* CL<N>/nreplay under the mount point */
#define NR_NONE     UINT32_MAX
#define NR_DEPS     16u /* earlier calls one call may wait for */
#define NR_NO_REPLY UINT32_MAX

/* The NFS replay's own option, beside the trace's (replaybase/rb.h), which
 * it reads too. */
struct nr_opts {
    int trace_scale; /* --scale: copies of the trace in all (0: one per client) */
};
extern const struct ld_opt_group nr_options;
#define NR_OPTS(cfg)     ((const struct nr_opts *)ld_config_opts((cfg), &nr_options))
#define NR_OPTS_SET(cfg) ((struct nr_opts *)ld_config_opts_set((cfg), &nr_options))

/* Status classes of a mismatch pair, mismatches kept as examples, reasons
 * a call is not replayed: the slots of the counters below. */
#define NR_CLASSES  8
#define NR_EXAMPLES 4
#define NR_SKIPS    8

/* The NFS replay's own counters (its workload's results, load/workload.h),
 * after the replays' shared ones (rb.h: its calls, bytes, lateness and
 * durations are those): statuses compared with the trace's and
 * mismatched, per op and per pair of status classes, the first mismatches
 * in trace order (~(call << 16 | replayed status), largest - the earliest
 * call - first, 0 none), calls not replayable by reason, calls a dependency held and for
 * how long, the image's objects; its faults: the calls' sends again (UDP after a timeout,
 * TCP on a new connection), the calls never sent because the replay ended early (its
 * stale handles, a server gone, the run time) or because the transport never took them,
 * the RPCs sent and never answered, and when (from the start of the run, ns; max) its
 * handles went stale; the streams, the traced calls of the streams replayed (every
 * copy's), the dependencies on a call another client replays (kept by the schedule only)
 * with the calls holding one; the traced server's response times of the replayed calls.
 */
struct nr_stats {
    struct rb_stats rb; /* first: RB_STATS reads it */
    uint64_t nr_compared, nr_mismatches;
    uint64_t nr_mismatch[NF_NOPS + 1];
    uint64_t nr_pair[NF_NOPS * NR_CLASSES * NR_CLASSES];
    uint64_t nr_example[NR_EXAMPLES];
    uint64_t nr_unreplayable[NR_SKIPS];
    uint64_t nr_held, nr_prep_objects, nr_prep_failed;
    uint64_t nr_resends, nr_not_sent, nr_unanswered, nr_stale_ns;
    uint64_t nr_streams, nr_unit_calls, nr_cross_deps, nr_cross_calls;
    struct cm_hist nr_wait;
    struct cm_hist nr_traced[NF_NOPS + 1];
    uint64_t nr_traced_us[NF_NOPS + 1];
    /* NFSv4: the opens the replay made (the traced OPENs, and those of
     * stateids in use before the capture), those that failed, the CLOSEs
     * (at the traced CLOSE, and at the end), the opens left (none unless
     * the server went), the READs and WRITEs sent with the anonymous
     * stateid (a traced special stateid's), the CLOSEs at the traced CLOSE */
    uint64_t nr_v4_opens, nr_v4_open_errors, nr_v4_closes, nr_v4_left, nr_v4_anonymous;
    uint64_t nr_v4_closes_traced;
    uint64_t nr_v4_stale_resends; /* READs, WRITEs and SETATTRs sent again after a
                                     stale stateid (a new client lost its open) */
    uint64_t nr_v4_downgrades;    /* OPEN_DOWNGRADEs sent at the traced one */
    /* NFSv4 locks: the LOCKs, LOCKUs and LOCKTs sent, their statuses
     * compared with the traced ones (apart from the calls') and mismatched */
    uint64_t nr_v4_locks, nr_v4_lock_compared, nr_v4_lock_mismatches;
};
#define NR_STATS_NFIELDS 32
extern const struct cm_field nr_stats_fields[NR_STATS_NFIELDS];
/* An NFS replay child's counters (struct ld_child's results). */
#define NR_STATS(c) ((struct nr_stats *)(c)->results)

/* Why a call is not replayed (NR_SKIPS slots). */
enum nr_skip {
    NR_REPLAYED = 0,
    NR_SKIP_MOUNT = 1,     /* a MOUNT call: the replay's own mount stands for it */
    NR_SKIP_VERSION = 2,   /* an NFS version other than the replay's */
    NR_SKIP_PROC = 3,      /* a procedure the replay does not send (ROOT, WRITECACHE) */
    NR_SKIP_UNKNOWN = 4,   /* a handle the image does not hold */
    NR_SKIP_NO_HANDLE = 5, /* its object has no handle on the server under test
                              (its creation failed or was not replayed) */
    NR_SKIP_CUT = 6,       /* a call the trace cut (no arguments) */
    NR_SKIP_V4_STATE = 7,  /* NFSv4 client, session, open and lock state (plan4.c) */
    NR_NSKIPS = 8
};

/* Status classes of a mismatch pair. */
enum nr_class {
    NR_C_OK,
    NR_C_NOENT,
    NR_C_EXIST,
    NR_C_NOTEMPTY,
    NR_C_NOTDIR_ISDIR,
    NR_C_ACCES,
    NR_C_STALE,
    NR_C_OTHER
};

/* How far back a dependency reaches, in calls: the plan keeps a call's
 * dependencies on the NR_LOOKAHEAD - 1 calls before it; a client's
 * processes hold at most that many calls open (a call becomes due only
 * once the call NR_LOOKAHEAD before it has completed), so an older
 * dependency has completed by then.  It bounds what a process keeps of
 * the trace while it replays it. */
#define NR_LOOKAHEAD (1u << 16)

/* One traced call as the replay sends it.  Its names point into the
 * memory of whoever read it (the plan's call stream, a replaying
 * process's held calls). */
struct nr_call {
    int64_t t_ns;                /* traced call time (the trace's origin) */
    uint64_t offset;             /* READ, WRITE, COMMIT; READDIR's cookie */
    uint64_t size;               /* the size a SETATTR or CREATE sets */
    uint32_t obj, obj2;          /* fh's and fh2's objects (NR_NONE) */
    uint32_t res_obj;            /* the object a LOOKUP/CREATE... reply named */
    const char *name, *name2;    /* NULL: none */
    const char *text;            /* SYMLINK's target, NULL: none */
    uint32_t dep[NR_DEPS];       /* the earlier calls it waits for, as distances
                                    back (1..NR_LOOKAHEAD - 1); 0: none */
    uint32_t status;             /* traced NFS status, NR_NO_REPLY */
    uint32_t rt_us;              /* traced response time (with a reply) */
    uint32_t count, access, how; /* how: WRITE's stable_how, CREATE's mode */
    uint32_t mode, uid, gid;     /* with sattr's bits (NF_SA_*: nfs/nf.h) */
    uint32_t stream;             /* the traced client host (NFSv4: the traced
                                    client): 0..nstreams-1 */
    uint32_t sid, res_sid;       /* NFSv4: the traced open state the call uses, and
                                    the one its reply makes, as the plan numbers them
                                    (slots 0..nsids-1, NR_NONE: none) */
    uint32_t owner;              /* NFSv4: an OPEN's open owner (1..nowners; 0: the
                                    replay's client's own) */
    uint16_t proc;               /* the procedure number */
    int8_t op;                   /* enum nf_op */
    uint8_t sattr;               /* NF_SA_*: the attributes it sets */
    uint8_t ftype;               /* MKNOD's type (enum tr_nfs_ftype) */
    uint8_t v4;                  /* NR_V4_CALL, or a state record's kind */
    uint8_t share;               /* NFSv4 OPEN: share_access (bits 0-1) and
                                    share_deny (bits 2-3); 0: both, none */
};

/* What a record of an NFSv4 plan's call stream is (nr_call.v4): a call, or
 * a state record - an operation on the traced open state that is no call of
 * the trace (its counts have it as v4_state) and that the replay still
 * sends as its own, at its traced place: the traced CLOSE of state sid, an
 * OPEN by handle (CLAIM_FH, CLAIM_PREVIOUS...) making state res_sid, an
 * OPEN_DOWNGRADE of state sid, and the locks (their statuses compared
 * apart). */
#define NR_V4_CALL  0
#define NR_V4_CLOSE 1
#define NR_V4_OPEN  2
#define NR_V4_LOCK                                                                       \
    3                 /* LOCK (offset, size: the range; how: the type) of state          \
                         sid (an open's, with a new lock owner `owner`; else             \
                         the lock's) making lock state res_sid */
#define NR_V4_LOCKU 4 /* LOCKU of lock state sid */
#define NR_V4_LOCKT 5 /* LOCKT of lock owner `owner` */
#define NR_V4_DOWNGRADE                                                                  \
    6 /* OPEN_DOWNGRADE of open state sid to the share modes `share` */

/*
 * A plan: what replaying a capture needs, read once from its file (a plan
 * file `sfs_trace plan` wrote, or one planned into an unlinked temporary
 * file for a capture given as it is): the image, the figures of the
 * plan line and the report, and where the calls are.  The calls stay in
 * the file: each process streams them (nr_stream), so that no process
 * holds the trace.  Read-only after nr_plan_build; the children inherit
 * it (and the file's descriptor) through fork.
 */
struct nr_plan {
    char file[LD_PATH_MAX];    /* what --trace named: the plan or the capture */
    char capture[LD_PATH_MAX]; /* the capture planned */
    char format[16];           /* the capture's: "pcap", "pcapng", "nfsdump" */
    int nfs_version;
    int from_file;    /* 1: a plan file; 0: the capture, planned for this run */
    uint32_t version; /* the plan file's format (3: no NFSv4 state in its records) */
    struct im_image *img;
    uint64_t ncalls;            /* the calls replayed, in the order the stream gives */
    uint64_t nrecords;          /* the stream's records: the calls and (NFSv4) the
                                   state records between them */
    uint32_t nsids, nowners;    /* NFSv4: the open state slots and open owners the
                                   records name */
    uint32_t nstreams;          /* traced client hosts (NFSv4: clients) */
    uint64_t *stream_calls;     /* per stream, its calls */
    uint64_t events;            /* events the reader gave */
    uint64_t skipped[NR_SKIPS]; /* calls not replayable, by reason */
    uint64_t readdir_restarted; /* READDIR continuations sent from cookie 0 */
    uint64_t v4_opens_in_use;   /* NFSv4: stateids used, never made in the trace */
    int64_t trace_ns;           /* the last call's time */
    struct tr_counter counters[TR_MAX_COUNTERS]; /* the reader's counters */
    unsigned ncounters;
    struct cm_hist traced[NF_NOPS + 1]; /* every traced reply's response time */
    /* the call stream: the plan file's descriptor (read with pread, so
     * every process keeps its own position), its calls' bytes, and every
     * NR_INDEX_STEP-th call's offset and the time before it */
    int fd;
    uint64_t calls_off, calls_end;
    uint64_t *index_off;
    int64_t *index_t;
    uint32_t nindex;
    /* Per copy of the trace this client replays, shared by its processes
     * (mapped by the workload's plan before the fork): the image objects'
     * handles on the server under test, then the completions of its last
     * NR_LOOKAHEAD calls (at shm_done_off); after the copies, a flag per
     * process of the client that ended early (at shm_ended_off). */
    void *shm;
    size_t shm_bytes, shm_copy_bytes, shm_done_off, shm_ended_off;
};

#define NR_INDEX_STEP 65536u /* calls between two entries of the plan's index */

/* What a replay of NFSv2 or v3 says of a trace with only NFSv4 calls
 * (docs/nfs_replay.md, "NFSv4"). */
#define NR_V4_ELSEWHERE                                                                  \
    "NFSv4 traces are replayed by sfs4 (or planned: sfs_trace plan --nfs-version 4)"

/* The plan of RB_TOPTS(cfg)->trace_file (cfg->nfs_version's calls): a plan file is
 * read and checked against its capture (when the capture is there: the
 * same size and bytes); a capture is planned into a temporary file
 * (unlinked: nothing is left).  0, or -errno with one line in err. */
int nr_plan_build(struct nr_plan *p, const struct ld_config *cfg, char *err,
                  size_t errlen);
void nr_plan_free(struct nr_plan *p);

/* A plan file: read, and checked against its capture when that is there.
 * 0, or -errno with one line in err. */
int nr_plan_open(struct nr_plan *p, const char *path, char *err, size_t errlen);

/* What planning a capture needs besides its name. */
struct nr_plan_opts {
    const char *format; /* NULL or "auto": told from the content */
    int lenient;
    int nfs_version; /* the calls kept: 2, 3 or 4 */
};

/* Plans capture into the plan file out (written whole or not at all:
 * cm_atomic).  0, or -errno with one line in err. */
int nr_plan_write(const char *capture, const struct nr_plan_opts *o, const char *out,
                  char *err, size_t errlen);

/* Whether path is a plan file (its first bytes), so that --trace takes it. */
int nr_plan_is_file(const char *path);

/* A process's read of a plan's calls, in order, from the file with its
 * own buffer (no allocation per call). */
struct nr_stream {
    const struct nr_plan *p;
    uint64_t next; /* the index of the call nr_stream_next gives next */
    uint64_t off;  /* the file offset of the buffer's first byte */
    uint8_t *buf;  /* bytes read, [pos, len) not decoded yet */
    size_t pos, len, cap;
    int64_t t;   /* the time of the call before */
    char *names; /* the last call's names (3 x TR_NFS_PATH_MAX) */
};

/* Opens a stream at call `from` (0: the first; else the index's entry at
 * or before it, then calls read over).  0 or -errno with err. */
int nr_stream_open(struct nr_stream *s, const struct nr_plan *p, uint64_t from, char *err,
                   size_t errlen);
/* The next call into *c (its names valid until the next call): 1, 0 at the
 * end, -errno (EIO, or EINVAL for a damaged plan) with err. */
int nr_stream_next(struct nr_stream *s, struct nr_call *c, char *err, size_t errlen);
void nr_stream_close(struct nr_stream *s);

/* How strongly the options ask for an NFS trace replay (workload.h: enum
 * ld_accept): YES for --trace-format pcap, pcapng or nfsdump, or auto and
 * a file whose first bytes are a capture's magic number, an nfsdump line
 * or a plan file's; UNREADABLE when that file cannot be read here. */
int nr_accepts(const struct ld_config *cfg, char *why, size_t whylen);

/* The class of an NFS status (enum nr_class) and the classes' names. */
unsigned nr_class_of(uint32_t status);
const char *nr_class_name(unsigned cls);
/* The plan's calls per SFS op and its calls not replayable by reason, as
 * "calls: getattr 12, lookup 3; not replayable: mount 1" (an NFSv4 plan's
 * with "; opens in use before the trace: N") into buf (len
 * bytes; cut when longer).  One read of the plan's calls; 0 or -errno with
 * err. */
int nr_plan_summary(const struct nr_plan *p, char *buf, size_t len, char *err,
                    size_t errlen);

/* The names of the skip reasons ("mount", "version", ...). */
const char *nr_skip_name(unsigned reason);

/* The copies of the trace the run replays (--scale; 0: one per client). */
static inline uint32_t nr_scale(const struct ld_config *cfg)
{
    return NR_OPTS(cfg)->trace_scale > 0 ? (uint32_t)NR_OPTS(cfg)->trace_scale
                                         : (uint32_t)RB_TOPTS(cfg)->nclients;
}

/*
 * Units: stream s (a traced client host) of copy j of the trace is unit u =
 * j x nstreams + s of the run.  Unit u is replayed by client u mod clients
 * + 1 (the units go round the clients first, so that copy j of a one-host
 * trace is client j mod clients + 1's, and the streams of a several-host
 * trace are spread over the clients), and there by process (u / clients)
 * mod procs (a client deals its units over its processes in turn).  Copy
 * j's tree is made by the client and process of its stream 0 (its home),
 * under that client's CL<N>/; clients holding another stream of it learn
 * its handles by LOOKUP once the home's marker is there (prep.c).
 */

/* The client (1-based) that replays stream s of copy j. */
static inline uint32_t nr_unit_client(const struct ld_config *cfg, uint32_t j, uint32_t s,
                                      uint32_t nstreams)
{
    uint64_t u = (uint64_t)j * (nstreams ? nstreams : 1) + s;

    return (uint32_t)(u % (uint32_t)RB_TOPTS(cfg)->nclients) + 1;
}

/* The process, within its client, that replays stream s of copy j. */
static inline unsigned nr_unit_proc(const struct ld_config *cfg, uint32_t j, uint32_t s,
                                    uint32_t nstreams)
{
    uint64_t u = (uint64_t)j * (nstreams ? nstreams : 1) + s;

    return (unsigned)((u / (uint32_t)RB_TOPTS(cfg)->nclients) % (uint32_t)cfg->procs);
}

/* The copies this client (cfg->client_num) replays a stream of: the
 * slots of the area its processes share. */
uint32_t nr_client_copies(const struct ld_config *cfg, uint32_t nstreams);

/* Copy j's tree's directory under its home client's CL<N>/: "nreplay" for
 * the first copy homed there, then "nreplay.1", "nreplay.2", ... */
void nr_copy_dir(const struct ld_config *cfg, uint32_t j, uint32_t nstreams, char *buf,
                 size_t len);

/* Processes of all clients that replay nothing (no stream of any copy). */
unsigned nr_idle_procs(const struct ld_config *cfg, uint32_t nstreams);

/* The units client `client` replays, as text ("copy 0 stream 1 (process
 * 0), ..."; with_proc 0: without the processes), at most len bytes, the
 * rest as "...". */
void nr_units_text(const struct ld_config *cfg, uint32_t client, uint32_t nstreams,
                   int with_proc, char *buf, size_t len);

/* The dependencies, over every copy, between calls that two clients
 * replay (kept by the schedule only), and the calls holding one; only
 * the calls of client `client` and its process `proc` when client > 0
 * (proc < 0: every process of it).  One read of the plan's calls; 0 or
 * -errno with err. */
int nr_cross_deps(const struct nr_plan *p, const struct ld_config *cfg, uint32_t client,
                  int proc, uint64_t *deps, uint64_t *calls, char *err, size_t errlen);

/* Seconds the replay is expected to take (0 at speed 0). */
double nr_expected_s(const struct nr_plan *p, double speed);

/* The NFS trace replay as a workload (workload.c). */
extern const struct ld_workload_ops nr_workload;
/* Its part of the results (report.c). */
extern const struct ld_report_ops nr_report;

#endif /* NR_H */
