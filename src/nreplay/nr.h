/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nr.h - the NFS trace replay as a workload (prefix nr_; docs/nfs_replay.md):
 * a packet capture or an nfsdump text trace (trace/tr_nfs.h) played against
 * any NFS server - the traced calls, on the file-system image the trace
 * implies (image/im.h), at the traced times or faster.
 *
 *   plan     (the parent, before any child): two passes over the trace.  The
 *            first builds the image; the second turns every call into a
 *            compact struct nr_call (objects by image id, names in an
 *            arena, the traced status and response time) and computes its
 *            dependencies: the earlier calls it must wait for (per object:
 *            a call that changes it waits for the last call on it, a call
 *            that only reads it for the last that changed it; the same per
 *            directory and name).  Memory grows with the trace's calls.
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

#include "common/cm.h"
#include "load/config.h"
#include "load/stats.h"
#include "replay/rl.h"
#include "trace/tr_nfs.h"

struct im_image;
struct ld_workload_ops;
struct ld_report_ops;

#define NR_DIR      "nreplay" /* CL<N>/nreplay under the mount point */
#define NR_NONE     UINT32_MAX
#define NR_DEPS     8u /* earlier calls one call may wait for */
#define NR_NO_REPLY UINT32_MAX

/* The NFS replay's own option (options beside the trace's of replay/rl.h,
 * which it reads too). */
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
 * after the block replay's (its calls, bytes, lateness and durations are
 * those): statuses compared with the trace's and mismatched, per op and
 * per pair of status classes, the first mismatches (~(call << 16 |
 * replayed status), 0 none: the larger keeps the earlier call), calls not
 * replayable by reason, calls a dependency held and for how long, the
 * image's objects; its faults: the calls' sends again (UDP after a
 * timeout, TCP on a new connection), the calls never sent because the
 * replay ended early (its stale handles, a server gone, the run time), and
 * when (from the start of the run, ns; max) its handles went stale; the
 * streams, the traced calls of the streams replayed (every copy's), the
 * dependencies on a call another client replays (kept by the schedule
 * only) with the calls holding one; the traced server's response times of
 * the replayed calls. */
struct nr_stats {
    struct rl_stats rl;
    uint64_t nr_compared, nr_mismatches;
    uint64_t nr_mismatch[NF_NOPS + 1];
    uint64_t nr_pair[NF_NOPS * NR_CLASSES * NR_CLASSES];
    uint64_t nr_example[NR_EXAMPLES];
    uint64_t nr_unreplayable[NR_SKIPS];
    uint64_t nr_held, nr_prep_objects, nr_prep_failed;
    uint64_t nr_resends, nr_not_sent, nr_stale_ns;
    uint64_t nr_streams, nr_unit_calls, nr_cross_deps, nr_cross_calls;
    struct cm_hist nr_wait;
    struct cm_hist nr_traced[NF_NOPS + 1];
    uint64_t nr_traced_us[NF_NOPS + 1];
};
#define NR_STATS_NFIELDS 20
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
    NR_NSKIPS = 7
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

/* Attributes a call sets (SETATTR, CREATE, MKDIR, SYMLINK, MKNOD). */
#define NR_S_MODE  0x01u
#define NR_S_UID   0x02u
#define NR_S_GID   0x04u
#define NR_S_SIZE  0x08u
#define NR_S_ATIME 0x10u /* set to the server's time */
#define NR_S_MTIME 0x20u

/* One traced call as the replay sends it. */
struct nr_call {
    int64_t t_ns;                /* traced call time (the trace's origin) */
    uint64_t offset;             /* READ, WRITE, COMMIT; READDIR's cookie */
    uint64_t size;               /* the size a SETATTR or CREATE sets */
    uint32_t obj, obj2;          /* fh's and fh2's objects (NR_NONE) */
    uint32_t res_obj;            /* the object a LOOKUP/CREATE... reply named */
    uint32_t name, name2, text;  /* offsets in the plan's names, NR_NONE none */
    uint32_t dep[NR_DEPS];       /* calls it waits for (NR_NONE) */
    uint32_t status;             /* traced NFS status, NR_NO_REPLY */
    uint32_t rt_us;              /* traced response time (with a reply) */
    uint32_t count, access, how; /* how: WRITE's stable_how, CREATE's mode */
    uint32_t mode, uid, gid;     /* with sattr's bits */
    uint32_t stream;             /* the traced client host: 0..nstreams-1 */
    uint16_t proc;               /* the procedure number */
    int8_t op;                   /* enum nf_op */
    uint8_t sattr;               /* NR_S_* */
    uint8_t ftype;               /* MKNOD's type (enum tr_nfs_ftype) */
};

/* What the plan learnt; read-only after nr_plan_build. */
struct nr_plan {
    char file[LD_PATH_MAX];
    char format[16]; /* "pcap", "pcapng", "nfsdump" */
    int nfs_version;
    struct im_image *img;
    struct nr_call *calls;
    uint32_t ncalls, cap_calls;
    char *names; /* NUL-terminated names and symlink targets */
    uint64_t names_len, names_cap;
    uint32_t nstreams;
    uint64_t events;            /* events the reader gave */
    uint64_t skipped[NR_SKIPS]; /* calls not replayable, by reason */
    uint64_t readdir_restarted; /* READDIR continuations sent from cookie 0 */
    int64_t trace_ns;           /* the last call's time */
    struct tr_counter counters[TR_MAX_COUNTERS]; /* the reader's counters */
    unsigned ncounters;
    struct cm_hist traced[NF_NOPS + 1]; /* every traced reply's response time */
    /* Per copy of the trace this client replays, shared by its processes
     * (mapped by the workload's plan before the fork): the image objects'
     * handles on the server under test, then the calls' completion stamps
     * (at shm_done_off). */
    void *shm;
    size_t shm_bytes, shm_copy_bytes, shm_done_off;
};

/* Builds the plan of RL_TOPTS(cfg)->trace_file.  0, or -errno with one line in err. */
int nr_plan_build(struct nr_plan *p, const struct ld_config *cfg, char *err,
                  size_t errlen);
void nr_plan_free(struct nr_plan *p);

/* A name of a call (NULL for NR_NONE). */
static inline const char *nr_name(const struct nr_plan *p, uint32_t off)
{
    return off == NR_NONE ? NULL : p->names + off;
}

/* How strongly the options ask for an NFS trace replay (workload.h: enum
 * ld_accept): YES for --trace-format pcap, pcapng or nfsdump, or auto and
 * a file whose first bytes are a capture's magic number or an nfsdump
 * line; UNREADABLE when that file cannot be read here. */
int nr_accepts(const struct ld_config *cfg, char *why, size_t whylen);

/* The class of an NFS status (enum nr_class) and the classes' names. */
unsigned nr_class_of(uint32_t status);
const char *nr_class_name(unsigned cls);
/* The names of the skip reasons ("mount", "version", ...). */
const char *nr_skip_name(unsigned reason);

/* The copies of the trace the run replays (--scale; 0: one per client). */
static inline uint32_t nr_scale(const struct ld_config *cfg)
{
    return NR_OPTS(cfg)->trace_scale > 0 ? (uint32_t)NR_OPTS(cfg)->trace_scale
                                         : (uint32_t)RL_TOPTS(cfg)->nclients;
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

    return (uint32_t)(u % (uint32_t)RL_TOPTS(cfg)->nclients) + 1;
}

/* The process, within its client, that replays stream s of copy j. */
static inline unsigned nr_unit_proc(const struct ld_config *cfg, uint32_t j, uint32_t s,
                                    uint32_t nstreams)
{
    uint64_t u = (uint64_t)j * (nstreams ? nstreams : 1) + s;

    return (unsigned)((u / (uint32_t)RL_TOPTS(cfg)->nclients) % (uint32_t)cfg->procs);
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
 * replay (kept by the schedule only), and the calls holding one. */
void nr_cross_deps(const struct nr_plan *p, const struct ld_config *cfg, uint64_t *deps,
                   uint64_t *calls);

/* Seconds the replay is expected to take (0 at speed 0). */
double nr_expected_s(const struct nr_plan *p, double speed);

/* The NFS trace replay as a workload (workload.c). */
extern const struct ld_workload_ops nr_workload;
/* Its part of the results (report.c). */
extern const struct ld_report_ops nr_report;

#endif /* NR_H */
