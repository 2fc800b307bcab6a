/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rb.h - the replay base (prefix rb_): what both trace replays - the block
 * and POSIX replay (replay/rl.h) and the NFS trace replay (nreplay/nr.h) -
 * are built on, so that neither calls the other:
 *
 *   window.c  the window of calls in flight: slots with their arguments
 *             and results (decoded into the slot, nfs/nf.h struct nf_res),
 *             the free list, the READ/WRITE bytes in flight and their bound,
 *             the calls waiting to be sent again after a JUKEBOX;
 *   loop.c    the timed loop's clock: when a call is due (start + t /
 *             speed), when -t ends the run, when the parent's socket is
 *             looked at, the sleep to the next deadline (ppoll, then
 *             --spin's polling) and the run's start and end in the results;
 *   sched.c   how a replay process is scheduled while it replays: the 1 ns
 *             timer slack, --realtime's SCHED_FIFO, --cpus's CPU, and the
 *             plan's warning of a real-time spin that would never sleep;
 *   mount.c   the mount with room for the window, the transfer maxima
 *             (FSINFO), LOOKUP into the child's last error;
 *   points.c  sfs_mgr's points per TRACE_SPEED, a list of numbers in an rc
 *             variable, the run time -t gives, the phases' schedule;
 *   live.c    the progress lines' counters and text;
 *   options.c the trace's options, which both replays read (their
 *             workloads' option group, load/config.h);
 *   stats.c   the counters both replays keep (the first part of their
 *             workloads' results, load/workload.h).
 *
 * Nothing here knows what a trace is: the replays hand in their times,
 * their calls and their counts.
 */
#ifndef RB_H
#define RB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/fields.h"
#include "common/hist.h"
#include "load/jukebox.h"
#include "load/options.h"
#include "load/workload.h"
#include "nfs/nf.h"

struct cm_rc;
struct ld_live;

#define RB_NONE         (-1)            /* end of a slot list */
#define RB_MAX_XFER     (1024u * 1024u) /* bytes per READ or WRITE over TCP */
#define RB_MAX_XFER_UDP (32u * 1024u)   /* over UDP */

/* ---- options.c, stats.c: what both replays own ------------------------------ */

/* The trace's options, which the block replay and the NFS replay both
 * read (each workload lists rb_trace_options among its option groups). */
struct rb_trace_opts {
    char trace_file[LD_PATH_MAX]; /* --trace FILE */
    char trace_format[16];        /* --trace-format spc|masta|sysio|...|auto */
    double trace_speed;           /* --speed: 1 real time, 0 as fast as possible */
    int trace_window;             /* --window: calls in flight per process */
    int trace_lenient;            /* --lenient: skip and count bad records */
    int nclients;                 /* --clients: clients sharing the trace */
    int trace_spin_us;            /* --spin: polled, not slept, before a due call */
    int trace_realtime;           /* --realtime: SCHED_FIFO priority (0: none) */
    char trace_cpus[128];         /* --cpus: a CPU of this list per process */
};
extern const struct ld_opt_group rb_trace_options;
/* A config's values of them (registered by every program that may run a
 * replay, load/options.h). */
#define RB_TOPTS(cfg)                                                                    \
    ((const struct rb_trace_opts *)ld_config_opts((cfg), &rb_trace_options))
#define RB_TOPTS_SET(cfg)                                                                \
    ((struct rb_trace_opts *)ld_config_opts_set((cfg), &rb_trace_options))

/* The counters both replays keep, the first part of their workloads'
 * results (load/workload.h: merged, sent and printed as rb_stats_fields
 * says): counters add over processes; run_ns and trace_ns keep the
 * largest; late holds each call's lateness (actual minus planned issue
 * time, us); trace_records (the whole trace's, every process knows it)
 * keeps the largest; cut counts the processes whose replay the run time
 * (-t, sfs_mgr's STOP) ended early; the file set of its streams:
 * sparse_bytes as prepared (each file as large as its highest byte used),
 * touched_bytes the distinct bytes the trace's READ and WRITE records
 * touch. */
struct rb_stats {
    uint64_t replay_records, replay_calls, replay_skipped, replay_behind;
    uint64_t replay_bytes_read, replay_bytes_written;
    uint64_t replay_run_ns, replay_trace_ns;
    uint64_t replay_trace_records, replay_cut;
    uint64_t replay_sparse_bytes, replay_touched_bytes;
    struct cm_hist replay_late;
};
#define RB_STATS_NFIELDS 13
extern const struct cm_field rb_stats_fields[RB_STATS_NFIELDS];
/* A replay child's counters: the start of its results (struct ld_child's
 * results; a replay's own block begins with struct rb_stats). */
#define RB_STATS(c) ((struct rb_stats *)(c)->results)

/* ---- window.c: the calls in flight ---------------------------------------- */

/* One call in flight: the engine's call, its arguments, its result (READ
 * data into the window's sink, a handle a reply names into res.fh) and
 * what the replay needs to account for it. */
struct rb_slot {
    struct rp_call call;
    union {
        union nf2_args a2;
        union nf3_args a3;
    } args;
    struct nf_res res;
    void *owner;    /* the replay (the done callback's data is the slot) */
    uint32_t tag;   /* the replay's: its item, its call */
    uint32_t piece; /* of a READ or WRITE cut at the server's maximum */
    int op;         /* enum nf_op */
    uint32_t count; /* bytes of a READ or WRITE */
    uint32_t bytes; /* of those, counted in the window's bytes */
    /* answered NFS3ERR_JUKEBOX: the slot keeps the call and sends it again
     * after --jukebox-delay (load/jukebox.h), on the waiting list */
    struct ld_jukebox jb;
    int32_t next; /* the free list, or the waiting list */
};

struct rb_window {
    struct rb_slot *slot;
    uint32_t size, in_flight; /* slots, and those taken */
    int32_t free;             /* the first free slot (RB_NONE: none) */
    int32_t whead, wtail;     /* waiting to be sent again, in the order they go */
    uint64_t bytes, budget;   /* READ/WRITE data in flight, and its bound */
    char *sink;               /* READ data lands here (never looked at) */
    char *wdata;              /* WRITE data: SFS's 0xDEADBEEF pattern */
};

/* size slots for owner, a sink of rmax bytes (0: none) and wmax bytes of
 * write data; no bound on the bytes in flight.  0 or -ENOMEM (then
 * rb_window_free). */
int rb_window_init(struct rb_window *w, uint32_t size, void *owner, uint32_t rmax,
                   uint32_t wmax);
void rb_window_free(struct rb_window *w);

/* Whether a call of `bytes` READ/WRITE data may go now: a free slot and
 * room in the budget (a call always goes when no data is in flight). */
int rb_window_room(const struct rb_window *w, uint32_t bytes);
/* A free slot, counted in flight with its bytes (check rb_window_room). */
struct rb_slot *rb_window_take(struct rb_window *w, uint32_t bytes);
/* The slot back on the free list. */
void rb_window_give(struct rb_window *w, struct rb_slot *s);

/* Starts the call of s->args (s->op set) as procedure proc over c: its
 * result decoded into the slot (nf_res_codec's how), completion through
 * done(call, s).  0, or -errno when it could not start (done is not
 * called). */
int rb_slot_start(struct rb_slot *s, struct rp_client *c, int version, uint32_t proc,
                  unsigned how, rp_done_fn done);

/* In a done callback: a v3 call the server answered NFS3ERR_JUKEBOX keeps
 * its slot and goes on the waiting list, to be sent again delay_ms later
 * (1); 0 when it is not one, or has had its sends again. */
int rb_window_hold(struct rb_window *w, struct rb_slot *s, int version,
                   uint32_t delay_ms);
/* The first waiting slot whose time has come (now), off the list; NULL
 * when none.  UINT64_MAX takes every one. */
struct rb_slot *rb_window_due(struct rb_window *w, uint64_t now);
/* When the first waiting slot is to be sent again (UINT64_MAX: none). */
uint64_t rb_window_wake(const struct rb_window *w);

/* ---- loop.c: the timed loop's clock --------------------------------------- */

struct rb_loop {
    uint64_t start_ns; /* the replay's time 0 (CLOCK_MONOTONIC) */
    uint64_t spin_ns;  /* --spin: this close to a deadline, poll, do not sleep */
    uint64_t last_ns;  /* the last answer */
    uint64_t end_ns;   /* -t's end (UINT64_MAX: none) */
    uint64_t next_check_ns;
    double speed;
};

/* The RUN phase begins: the child's results reset and counted from now,
 * its scheduling for the replay (rb_sched_enter), the clock 2 ms ahead
 * (speed 0: now, nothing waits for it) and -t's end (limit_s > 0).  0, or
 * -errno with c->last_error when the scheduling asked for cannot be had. */
int rb_run_begin(struct ld_child *c, struct rb_loop *l, double speed, uint32_t limit_s);
/* When a call planned t_ns into the trace is due. */
uint64_t rb_planned(const struct rb_loop *l, int64_t t_ns);
/* At now: 1 when the run is to stop (its time is over, or the parent said
 * STOP), -EPIPE when the parent is gone, else 0 (the socket is looked at
 * every 50 ms). */
int rb_loop_check(struct rb_loop *l, struct ld_child *c, uint64_t now);
/* The wake-up of a loop with nothing due before: the next look at the
 * parent's socket. */
uint64_t rb_loop_wake(const struct rb_loop *l, uint64_t now);
/* Sleeps until wake (ns, CLOCK_MONOTONIC), a reply, or the client's own
 * next timeout, whichever comes first (the last l->spin_ns polled without
 * sleeping), then services the client: the calls it completed, or -errno
 * (a broken client).  The sleep is measured from the clock as it is read
 * here, not from the loop's reading before its sends. */
int rb_wait_service(const struct rb_loop *l, struct rp_client *cl, uint64_t wake);
/* The sleep under rb_wait_service, for a caller that services its own
 * connection (the NFSv4 replay's session): until wake, a timeout_ms of the
 * connection's own (-1: none) or an event on fd; the events seen, 0, or
 * -errno. */
int rb_wait_fd(const struct rb_loop *l, int fd, short events, int timeout_ms,
               uint64_t wake);
/* The same over nfds descriptors (the NFSv4 replay's clients): each one's
 * revents set; the descriptors with events, 0, or -errno. */
struct pollfd;
int rb_wait_fds(const struct rb_loop *l, struct pollfd *pf, unsigned nfds, int timeout_ms,
                uint64_t wake);
/* The RUN phase ends: the process's ordinary scheduling back, the last
 * progress reading published, and the run's times into the results (its
 * duration to end_ns, to the last answer, the trace's). */
void rb_run_end(struct ld_child *c, const struct rb_loop *l, uint64_t end_ns,
                int64_t trace_ns);

/* ---- sched.c: the replay process's scheduling ------------------------------ */

#define RB_MAX_CPUS 1024 /* CPUs in a --cpus list */

/* In the parent, before anything is prepared: --cpus is a list of CPUs
 * this process may run on, and the system grants --realtime's class (tried
 * and undone).  0, or the option's exit code with the reason in err. */
int rb_sched_check(const struct ld_config *cfg, char *err, size_t errlen);
/* In a child as its replay begins: the 1 ns timer slack, l->spin_ns from
 * --spin, the CPU of --cpus for its index (in the list's order, round and
 * round), --realtime's SCHED_FIFO.  0, or -errno with c->last_error. */
int rb_sched_enter(struct ld_child *c, struct rb_loop *l);
/* As the replay ends: the ordinary class back (the CPU stays). */
void rb_sched_leave(struct ld_child *c);
/* In the parent, once the plan is known: a real-time replay (--realtime)
 * whose --spin is at least the mean time between one process's calls -
 * `rate` of them per second (what) over `procs` busy processes - would
 * never sleep, and the kernel's real-time throttling
 * (/proc/sys/kernel/sched_rt_runtime_us, unless -1) then takes its CPU for
 * the rest of each period (50 ms of every second by default): said on log
 * as one warning line naming prog.  1 when said, else 0. */
int rb_spin_warn(FILE *log, const char *prog, const struct ld_config *cfg, double rate,
                 const char *what, unsigned procs);

/* ---- mount.c --------------------------------------------------------------- */

/* Mounts the child's mount point for a replay: the program's transport for
 * MOUNT and NFS, room for window calls in flight and a 4 MiB send buffer;
 * reconnect_ms as rp_client_opts' (0: a lost TCP connection is fatal).
 * Mounts c->ses; on failure says why (ld_child_fail). */
int rb_mount_window(struct ld_child *c, uint32_t window, uint32_t reconnect_ms);
/* The largest READ and WRITE the server takes (FSINFO; NFSv2 8 KiB), at
 * most RB_MAX_XFER (TCP) or RB_MAX_XFER_UDP. */
void rb_transfer_maxima(struct ld_child *c, uint32_t *rtmax, uint32_t *wtmax);
/* LOOKUP of name in dir with the child's client; 0 or -errno with
 * c->last_error. */
int rb_lookup(struct ld_child *c, const struct nf_fh *dir, const char *name,
              struct nf_fh *out);

/* ---- points.c: sfs_mgr's points, the run's time ------------------------------- */

/* A replay expected to take longer than this (s) without an explicit -t
 * is refused before anything is prepared: a forgotten --speed must not run
 * for days. */
#define RB_MAX_UNBOUNDED_S 86400

/* The seconds a replay may run: -t when given (under -M: RUNTIME, after
 * which the prime's STOP comes), else 0 (until the trace ends). */
int rb_limit_s(const struct ld_config *cfg);

/* The schedule of a replay expected to take expect_s (0: unknown) and cut
 * at limit_s (> 0): no warm-up, RUN's argument and wait. */
void rb_schedule(struct ld_schedule *s, double expect_s, int limit_s);

/* A list of numbers in an rc variable, one sfs_mgr point each: its name,
 * the value when it is unset, the range (whole numbers only when whole),
 * what one value is ("a speed (0..1000000; ...)") and the values are
 * ("replay speeds"), for the messages. */
struct rb_rc_list {
    const char *name, *dflt;
    double lo, hi;
    int whole;
    const char *what, *many;
};

/* The values of l into pts[k].v[var] (at most max); how many (0: unset
 * and no default), or -1 with the error said on rc. */
int rb_rc_values(struct cm_rc *rc, const struct rb_rc_list *l, struct ld_point *pts,
                 unsigned max, unsigned var);

/* The points of TRACE_SPEED's speeds (v[0]), the workload table's
 * rc_points, point_set and client_args for them (--clients=N --speed=S). */
int rb_speed_points(struct cm_rc *rc, unsigned nloads, struct ld_point *pts,
                    unsigned max);
void rb_speed_point_set(struct ld_config *cfg, const struct ld_point *pt);
int rb_speed_client_args(const struct ld_config *cfg, const struct ld_point *pt,
                         unsigned nclients, char (*word)[64], int max);

/* ---- live.c: the progress lines -------------------------------------------- */

/* The progress lines' counters of a replay (live.h), from its statistics:
 * its calls, done of total (records, or calls), waits (records held back,
 * or calls held by a dependency) and the p99 of its calls' lateness. */
void rb_live(struct ld_child *c, uint64_t done, uint64_t total, uint64_t waits);
/* A replay's part of a progress line: "<unit> D of T, late p99 X ms,
 * <waits> W" (snprintf's contract). */
int rb_progress_text(const struct ld_live *sum, const char *unit, const char *waits,
                     char *buf, size_t len);

#endif /* RB_H */
