/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sv.h - the server layer's public interface: sfs_nfsd, the bundled
 * user-space NFSv2/v3 + MOUNT v1/v3 server (docs/sfs_nfsd.md).  Two levels:
 * struct sv_core answers one RPC message from a byte buffer (in-memory file
 * system, dispatch, fault injection, counters; no sockets, so unit tests and
 * the fuzz driver use it directly), and struct sv_server puts a core behind
 * UDP and TCP sockets on every configured port in one poll() loop.  The
 * server layer may call nfs, rpc and common; nothing calls the server.
 */
#ifndef SV_H
#define SV_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SV_MAX_EXPORTS      16
#define SV_DEFAULT_NFS_PORT 12049
#define SV_DEFAULT_MNT_PORT 12050
#define SV_MAX_CONNECTIONS  1024
#define SV_DEFAULT_IDLE_S   300 /* idle TCP connections closed after 5 min */
/* Default capacity for file data: half the physical memory, or this when
 * that is unknown (0 = no limit).  An SFS file set needs about 10 MB per
 * op/s of requested load. */
#define SV_DEFAULT_MAX_BYTES (1024ULL * 1024 * 1024)
/* Connection buffers of all connections: 1/32 of the memory, at least
 * 64 MiB (or this when the memory is unknown). */
#define SV_MIN_BUFFER_BYTES (64ULL * 1024 * 1024)

struct cm_yaml;
struct cm_clock;

/* One --error OP=STATUS:PCT[:N] rule: procedure name (v2 and v3 names
 * alike, e.g. "write"), the NFS status to answer, the probability and the
 * most calls it answers (0: no limit; a fault that goes away, as a busy
 * server's DELAY does). */
struct sv_error_rule {
    char op[16];
    uint32_t status;
    double pct;
    uint64_t max;  /* N */
    uint64_t hits; /* the calls it answered so far */
};
#define SV_MAX_ERROR_RULES 16

/* Fault injection (all off when zero); decisions come from one seeded
 * Park-Miller generator, so a run is reproducible with the same --seed and
 * the same call sequence. */
struct sv_fault {
    int64_t seed;
    double drop_pct;     /* replies not sent (the call is executed) */
    uint64_t delay_us;   /* every reply delayed by delay_us ... */
    uint64_t jitter_us;  /* ... plus a uniform draw in [0, jitter_us] */
    char delay_op[16];   /* ... or only the replies of this NFS op ("" = all) */
    int64_t service_us;  /* NFS calls served one at a time, this long each */
    uint64_t exit_after; /* exit after answering this many calls */
    double corrupt_pct;  /* READ replies with one data byte flipped */
    /* A server that lies, for the validation suite's negative tests: */
    double wrong_attrs_pct;  /* replies whose attributes report size + 1 and
                                mode ^ 0777 */
    double drop_dirent_pct;  /* READDIR(PLUS) replies missing one entry */
    double change_fh_pct;    /* replies whose handles differ from the usual
                                one of their object (and still resolve) */
    double change_verf_pct;  /* v3 WRITE and COMMIT replies carrying another
                                verifier than the instance's */
    int64_t write_verf;      /* a fixed write verifier (0: the instance's,
                                new at every start) */
    double weak_write_pct;   /* v3 WRITE replies answering UNSTABLE */
    double wrong_eof_pct;    /* v3 READ replies with eof inverted */
    double bad_fs_pct;       /* FSSTAT, FSINFO, PATHCONF replies whose values
                                contradict each other or what works */
    double bad_access_pct;   /* ACCESS replies granting what the mode denies */
    double bad_mknod_pct;    /* MKNOD making a regular file whatever the type */
    double expire_lease_pct; /* NFSv4 SEQUENCE and RENEW calls whose client's lease
                                is found run out: the client goes with its state */
    struct sv_error_rule errors[SV_MAX_ERROR_RULES];
    int nerrors;
};

struct sv_config {
    const char *bind_addr; /* IPv4 or IPv6 literal; default 127.0.0.1 */
    uint16_t nfs_port;
    uint16_t mount_port;
    int register_rpcbind;
    const char *exports[SV_MAX_EXPORTS];
    int nexports;
    uint64_t max_bytes;  /* file data capacity, 0 = unlimited */
    int root_squash;     /* AUTH_SYS uid 0 (and gid 0) served as nobody */
    int max_connections; /* TCP connections at once (1..SV_MAX_CONNECTIONS) */
    /* what all TCP connections together may pin in buffers (reply queues,
     * partial records, input held back) before the worst offenders are
     * closed (net.c); 0 = no limit */
    uint64_t max_buffer_bytes;
    unsigned idle_timeout_s; /* close TCP connections idle this long, 0 = never */
    const char *stats_file;
    struct sv_fault fault;
    /* Writes the options the server runs with into the stats file's
     * "options" map (sv_options_parse sets it); NULL: no such map. */
    void (*echo)(struct cm_yaml *y, const void *data);
    const void *echo_data;
    /* Server instance in handles and the write verifier; 0 = from the
     * clock and pid (a restart changes it).  Fixed only by tests and the
     * fuzz driver, so that their inputs can carry valid handles. */
    uint64_t instance;
    /* NFSv4: the lease clients renew (--lease, seconds; 0 = 90), the
     * grace period after start in which OPEN and LOCK without reclaim
     * answer GRACE (--grace, seconds; 0 = none), and the clock leases
     * run on (NULL: CLOCK_MONOTONIC; tests step their own). */
    unsigned lease_s, grace_s;
    const struct cm_clock *clock;
};

/* Fills cfg with the defaults documented in sfs_nfsd --help. */
void sv_config_defaults(struct sv_config *cfg);

/* ---- the command line (options.c) ---------------------------------------- */

#include "common/opt.h"

/* What sfs_nfsd's option table fills: the config, plus what main() needs
 * and the text the table keeps before it becomes config.  cfg points into
 * this struct and into argv. */
struct sv_options {
    struct sv_config cfg;
    char bind[64];
    int nfs_port, mount_port, idle_timeout_s;
    int lease_s, grace_s;
    int max_buffer_mb;
    int64_t exit_after;
    struct cm_opt_list exports, errors;
    char delay[64];
    char delay_op[16];
    char pidfile[4096];
    char stats_file[4096];
    int foreground;
    unsigned char src[48]; /* where each row's value came from */
};
#define SV_OPTIONS_HELP 1

/* Parses sfs_nfsd's argv into o.  Returns 0, SV_OPTIONS_HELP for --help,
 * or a negative errno with one line naming the option in err (a usage
 * error: exit 2). */
int sv_options_parse(struct sv_options *o, int argc, char **argv, char *err,
                     size_t errlen);
/* The generated --help text. */
void sv_options_help(FILE *out);
/* Parses "OP=STATUS:PCT[:N]" (STATUS a name such as NOSPC or a number, N
 * the most calls the rule answers) into the next error rule.  Returns 0 or -EINVAL with
 * the reason in err. */
int sv_fault_parse_error(struct sv_fault *f, const char *spec, char *err, size_t errlen);
/* Parses "N[:JITTER]" microseconds.  Returns 0 or -EINVAL. */
int sv_fault_parse_delay(struct sv_fault *f, const char *spec, char *err, size_t errlen);
/* --delay-only OP: an NFS op's name (v2 and v3 alike, e.g. "getattr"). */
int sv_fault_parse_delay_op(struct sv_fault *f, const char *op, char *err, size_t errlen);

/* ---- core: one message in, one reply out ------------------------------- */

struct sv_core;

/* What the transport must do with the reply sv_core_handle produced. */
struct sv_reply {
    size_t len;        /* reply bytes in the output buffer; 0 = no reply */
    uint64_t delay_ns; /* hold the reply this long before sending */
};

/* Creates the file system with the exports of cfg (each a directory tree
 * made on the fly).  Returns NULL with the reason in err.  The core keeps a
 * copy of what it needs from cfg. */
struct sv_core *sv_core_create(const struct sv_config *cfg, char *err, size_t errlen);
void sv_core_destroy(struct sv_core *c);

/* Decodes one RPC call of msg_len bytes, executes it and encodes the reply
 * into out (out_cap bytes; SV_REPLY_MAX is always enough).  peer names the
 * caller for MOUNT DUMP.  udp limits READ/READDIR sizes to what a datagram
 * holds.  Never blocks, never fails: hostile input gives an RPC error reply
 * or no reply (len 0). */
#define SV_REPLY_MAX (256 * 1024)
#define SV_MSG_MAX   (256 * 1024) /* largest call accepted (TCP record) */
struct sv_reply sv_core_handle(struct sv_core *c, const void *msg, size_t msg_len,
                               void *out, size_t out_cap, const char *peer, int udp);

/* Serves c over n (1..8) connected descriptors that someone else made
 * (socketpairs in the unit tests), stream[i] saying whether fds[i] is a
 * byte stream (record marking) or datagrams; blocks until every peer has
 * closed, stop_fd (when >= 0) becomes readable, or --exit-after.  The
 * descriptors stay the caller's.  Returns 0 or -errno with err. */
int sv_core_serve_fds(struct sv_core *c, const int *fds, const int *stream, int n,
                      int stop_fd, char *err, size_t errlen);

/* Whether --exit-after has been reached (the loop then stops). */
int sv_core_exit_requested(const struct sv_core *c);

/* TCP connection counters of a server (sv_server_conn_stats). */
struct sv_conn_stats {
    uint64_t accepted;          /* connections accepted */
    uint64_t open;              /* open now */
    uint64_t closed_idle;       /* closed after --idle-timeout */
    uint64_t evicted;           /* closed at the limit to make room for a new one */
    uint64_t throttled;         /* times a connection was not read any more because
                                   its undrained replies passed the 4 MiB mark */
    uint64_t buffer_bytes;      /* connection buffers held now */
    uint64_t buffer_bytes_peak; /* the most they ever held */
    uint64_t delayed_lost;      /* delayed replies (--delay-us) lost: the delay heap
                                   full (65 536 held) or no memory to hold them */
    uint64_t closed_no_memory;  /* connections closed because a buffer of theirs
                                   (reply queue, partial record) could not grow */
    uint64_t buffer_limit;      /* --max-buffer-mb in bytes (0: none) */
    uint64_t shed;              /* connections closed because the buffers of all
                                   passed buffer_limit: those that pinned the most
                                   while not taking their replies, first */
    uint64_t shed_bytes;        /* the buffer bytes they held */
};

/* Writes the per-procedure counters (and, when conns is not NULL, the
 * connection counters) as YAML to path, atomically.  Returns 0 or -errno
 * with the reason in err. */
int sv_core_write_stats(const struct sv_core *c, const char *path,
                        const struct sv_conn_stats *conns, char *err, size_t errlen);
/* Calls counted so far for one program/version/procedure (tests).  For
 * NFS version 4, proc is an operation number (OP_ILLEGAL counts those of
 * no operation), or NFSPROC4_NULL's 0. */
uint64_t sv_core_count(const struct sv_core *c, uint32_t prog, uint32_t vers,
                       uint32_t proc);

/* ---- server: sockets and the event loop --------------------------------- */

struct sv_server;

/* Binds UDP and TCP on both ports (the ports may be equal).  Returns NULL
 * with the reason in err (e.g. address in use). */
struct sv_server *sv_server_create(const struct sv_config *cfg, char *err, size_t errlen);
/* The one "ready ..." line (without newline) describing the bound sockets. */
void sv_server_ready_line(const struct sv_server *s, char *buf, size_t len);
/* Registers with rpcbind (NFS 2/3 on the NFS port, MOUNT 1/3 on the mount
 * port, UDP and TCP).  Returns 0 or -errno with the reason in err. */
int sv_server_register(struct sv_server *s, char *err, size_t errlen);
/* Serves until *stop becomes non-zero or --exit-after is reached; each time
 * *dump is non-zero it is cleared and the stats file is written.  The
 * caller blocks stop_signals (SIGTERM, SIGINT, SIGUSR1) in the process
 * mask; the loop unblocks them only while it waits in ppoll, so a signal
 * is never lost between a check and the wait.  Returns 0 or -errno. */
int sv_server_run(struct sv_server *s, volatile sig_atomic_t *stop,
                  volatile sig_atomic_t *dump, char *err, size_t errlen);
/* Writes the stats file (when configured).  Returns 0 or -errno. */
int sv_server_write_stats(struct sv_server *s, char *err, size_t errlen);
/* The connection counters now. */
void sv_server_conn_stats(const struct sv_server *s, struct sv_conn_stats *st);
/* Starts serving (daemon.c): in the foreground, or detached into a child
 * process that leaves the session and the starter's descriptors; registers
 * with rpcbind when do_register (a failure is only a warning, in warn:
 * "" when none) and writes pidfile (when not NULL or "").  Returns
 * SV_START_SERVE in the process that must now call sv_server_run (*pid is
 * its id), SV_START_PARENT in the starter once the child is ready (*pid
 * is the child's), or -errno with the reason in err. */
#define SV_START_SERVE  0
#define SV_START_PARENT 1
int sv_server_start(struct sv_server *s, int foreground, int do_register,
                    const char *pidfile, long *pid, char *warn, size_t warnlen, char *err,
                    size_t errlen);
/* Writes pid to path atomically.  Returns 0 or -EIO with the reason. */
int sv_write_pidfile(const char *path, long pid, char *err, size_t errlen);
/* Unregisters (if registered), closes every socket, frees everything. */
void sv_server_destroy(struct sv_server *s);

#endif /* SV_H */
