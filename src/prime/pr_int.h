/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pr_int.h - the prime layer's private header: what its files call on each
 * other.  resolve.c and clientcmd.c build the run and its command lines,
 * launch.c starts and stops processes, point.c drives one load point over
 * the control plane, aggregate.c adds the clients up (docs/SFS30.md §11),
 * results.c writes the result files (D10; the overall response time is
 * common/curve.h's), plot.c the picture, mgr.c runs the points, clean.c is
 * -c and -k.
 */
#ifndef PR_INT_H
#define PR_INT_H

#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

#include "load/config.h"
#include "load/iodist.h"
#include "load/live.h"
#include "load/mix.h"
#include "load/report.h"
#include "load/sizing.h"
#include "load/stats.h"
#include "prime/pr.h"

#define PR_ARGV_MAX 1200
#define PR_ARGBUF   (256 * 1024)

/* ---- resolve.c --------------------------------------------------------------- */

/* Keeps p (malloc'ed) until pr_run_free; returns p (NULL when p was). */
void *pr_keep(struct pr_run *run, void *p);
/* The first character of s outside the command-line-safe set, else 0. */
int pr_unsafe_char(const char *s);
int pr_valid_host(const char *h);
int pr_valid_suffix(const char *s);
/* WORK_DIR/NAME.SFX into buf. */
void pr_result_path(const struct pr_run *run, const char *name, char *buf, size_t len);

/* ---- clientcmd.c ---------------------------------------------------------------- */

/* The values of point idx (NULL when the points are LOAD's). */
const struct ld_point *pr_point_values(const struct pr_run *run, unsigned idx);

/* The remote shell's argv that runs client_argv on c->host: RSH words,
 * "-l SFS_USER" when set, the host, and one single-quoted command string;
 * or, when RSH is a template (pr_rsh_template), its words with %h the
 * host and %u the user, then client_argv's words as they are. */
int pr_remote_argv(const struct pr_run *run, const struct pr_client *c,
                   char **client_argv, char **argv, int max, char *buf, size_t buflen);
/* Whether RSH is a launcher template (a word holds %h). */
int pr_rsh_template(const struct pr_run *run);

/* ---- launch.c: processes the prime starts -------------------------------------------
 */

struct pr_proc {
    pid_t pid; /* 0: none */
    int in_fd; /* the write end of its stdin pipe, -1 none */
    int exited;
    int status;
};

/*
 * Starts argv[0] (PATH lookup) in a process group of its own, with stdin
 * a pipe whose write end stays in p->in_fd (the client's lifeline: it ends
 * when the prime closes it or dies) and stdout/stderr appended to out_fd
 * (-1: /dev/null).  env (may be NULL) adds "NAME=value" entries.  Returns 0
 * or -errno with err.
 */
int pr_spawn(struct pr_proc *p, char *const *argv, int out_fd, char *const *env,
             char *err, size_t errlen);
/* Reaps p without blocking; 1 when it has exited. */
int pr_proc_poll(struct pr_proc *p);
/* "exit status 3", "killed by signal 15 (Terminated)". */
void pr_status_text(int status, char *buf, size_t len);
/* Stops every process of procs[0..n): closes their stdin, waits up to
 * grace_ms for them to end by themselves, then SIGCONT + SIGTERM to their
 * groups, 2 s more, then SIGKILL; reaps them all.  Bounded: grace + 3 s. */
void pr_procs_stop(struct pr_proc **procs, size_t n, unsigned grace_ms);

/* ---- aggregate.c (docs/SFS30.md §11, §16.5) -----------------------------------------
 */

/* One client's results as the prime keeps them. */
struct pr_client_sum {
    unsigned num;
    char host[64];
    uint64_t ops_x100, resp_x100, runtime_s, calls;
    int code;           /* its validity code (docs/SFS30.md §16.4) */
    char reasons[1024]; /* every reason it is INVALID, in plain words */
    char workload[32];  /* the workload it runs, as its HELLO said */
};

struct pr_agg {
    struct ld_stats merged;    /* sums, pooled S and Q, file set */
    const struct ld_wstats *w; /* the workload's own counters ... */
    void *wmerged;             /* ... merged (w->size bytes, owned; NULL: none) */
    struct ld_report_agg agg;
    unsigned n;
    double sum_mean[NF_NOPS + 1];
    unsigned n_mean[NF_NOPS + 1];
    uint64_t ops_sum, resp_sum, time_sum;
};

/* The field table of struct pr_client_sum (common/fields.h): the keys the
 * result files give a client's figures. */
const struct cm_field *pr_client_sum_fields(size_t *n);

/* Starts an aggregate of the clients of a workload whose own counters w
 * describes (see ld_workload_ops.results); 0 or -ENOMEM.  pr_agg_free
 * releases it. */
int pr_agg_init(struct pr_agg *a, const struct ld_wstats *w);
void pr_agg_free(struct pr_agg *a);
/* Adds one client's results (in->stats and in->wstats, with in->agg NULL)
 * and fills cs. */
void pr_agg_add(struct pr_agg *a, const struct ld_report_in *in,
                struct pr_client_sum *cs);
/* Finishes the averages; requested = clients x per-client load; span_ns =
 * the run as the prime saw it (from its RUN to the last client's end of
 * the run; 0: not known, SFS's sum of the client throughputs). */
void pr_agg_finish(struct pr_agg *a, uint64_t requested, uint64_t span_ns);

/* The sfssum line's fields (docs/SFS30.md §16.5). */
struct pr_sum {
    int invalid;
    uint64_t requested; /* the Load column: LOAD's, or the workload's rate rounded */
    double ops, resp;
    uint64_t total_ops;
    uint64_t time_s;
    int nfs_version;
    int tcp;
    uint64_t fileset_kb;
    unsigned clients, procs, biod_reads, biod_writes;
};
/* One line with its newline; returns its length. */
int pr_sfssum_format(const struct pr_sum *s, char *buf, size_t len);
/* The same line as sfs_mgr prints it in its summary: the response time
 * with two decimals below 10 ms (a fast server's points would all read
 * 0.1); pr_summary_header names the columns above it. */
int pr_summary_format(const struct pr_sum *s, char *buf, size_t len);
const char *pr_summary_header(void);

/* ---- plot.c
 * ------------------------------------------------------------------------------ */

/* A measured point of the curve, in the order the points ran. */
struct pr_plot_point {
    double ops, resp;
    int valid;
};

/* Draws the throughput/response-time curve of the npt points into path
 * (.png or .svg) with gnuplot (bounded in time; the picture replaced
 * atomically), both axes from 0: the valid points as the curve from (0, 0)
 * with the peak and the overall response time, the invalid ones joined
 * apart, and the points after the highest throughput as the fold.  Returns
 * 0, or -errno / -ENODATA (no point) / CM_PLOT_NO_GNUPLOT with a one-line
 * note. */
int pr_plot_curve(const char *path, const char *title, const struct pr_plot_point *pt,
                  size_t npt, char *note, size_t notelen);

/* ---- point.c: one load point
 * ------------------------------------------------------------ */

/* Per-point setup the report needs (labels; the clients build their own). */
struct pr_setup {
    const struct ld_workload_ops *wl;
    struct ld_config cfg; /* the run's options, load = the per-client share,
                             the point's values applied */
    struct ld_mix mix;
    struct ld_iodist iodist;
    struct ld_sizing sizing;
    struct ld_results_block results; /* the workload's and the protocol's
                                        counters (pr_results_block) */
};

struct pr_point {
    unsigned index; /* 0-based */
    unsigned load;  /* aggregate requested */
    int finished;   /* every client sent its results */
    char error[1024];
    struct pr_setup su;
    struct pr_agg agg;
    struct ld_validity val;
    struct pr_client_sum *clients; /* nclients, owned */
    struct pr_sum sum;
    double rate; /* a workload without LD_REPORT_LOAD: sum.requested unrounded */
    time_t started, ended;
    uint64_t run_span_ns; /* from the prime's RUN to the last client's end of it */
};

/* ---- progress.c: the progress lines (docs/sfs_mgr.md, "Progress") ------- */

struct pr_meter {
    const struct pr_run *run;
    FILE *out, *log;  /* the terminal (stdout), sfslog */
    unsigned every_s; /* --progress; 0: none (the "Executing" lines stay) */
    int tty;          /* out is a terminal: one line rewritten in place */
    int whole;        /* the "Executing" line ends at once (sfs_prime) */
    struct pr_meter_client {
        struct ld_live cur;  /* the last heartbeat's counters */
        struct ld_live mark; /* ... as they were at the last line */
        uint64_t from_ms;    /* when the window of the calls since the mark began
                                (the first heartbeat after it says; 0 not yet) */
        double rate;         /* its ops/s between its last two readings */
        uint64_t beat_ms;    /* when its last heartbeat came (cm_now_ms) */
    } * client;              /* nclients */
    char label[64];          /* "run 3 of 10" */
    char prefix[160];        /* "Executing run 3 of 10 ..." */
    int shown;               /* figures were printed for this point */
    uint64_t point_ms;
    double after_s; /* the estimate of what follows this point */
    double overhead_sum_s;
    unsigned npoints_seen;
    /* the phase running */
    const char *phase;
    unsigned total_s, then_s, requested;
    uint64_t start_ms, next_ms;
    uint64_t mark_ms;    /* the last line's time (or the phase's start) */
    struct ld_live base; /* the sum at the phase's start */
};

/* Sets m up for run, lines on out and log every every_s (0: none); whole:
 * every line on out stands whole, never rewritten in place (sfs_prime,
 * which prints the clients' commands inside a point); -1 when out of
 * memory. */
int pr_meter_open(struct pr_meter *m, const struct pr_run *run, FILE *out, FILE *log,
                  unsigned every_s, int whole);
void pr_meter_close(struct pr_meter *m);
/* A point (or a search probe) begins: label names it in the lines, text
 * starts its terminal line ("Executing run i of N ..."), after_s is the
 * estimate of what the run does after it.  point_end prints tail ("
 * done") after text, on the same line when no figures came between. */
void pr_meter_point(struct pr_meter *m, const char *label, const char *text,
                    double after_s);
void pr_meter_point_end(struct pr_meter *m, const char *tail, int warmup_s,
                        int runtime_s);
/* A load phase of total_s begins (then_s: the timed phases after it in
 * this point; requested: the aggregate ops/s asked for, 0 none) / ends.
 * m may be NULL (no lines). */
void pr_meter_phase(struct pr_meter *m, const char *phase, unsigned total_s,
                    unsigned then_s, unsigned requested);
void pr_meter_phase_end(struct pr_meter *m);
/* A client's heartbeat payload (its live counters, load/live.h). */
void pr_meter_heartbeat(struct pr_meter *m, unsigned client, const void *payload,
                        size_t len);
/* Called on every turn of the point's loop: prints the line when due. */
void pr_meter_tick(struct pr_meter *m);
/* The estimate of one point of these times, from the points so far. */
double pr_meter_point_s(const struct pr_meter *m, int warmup_s, int runtime_s);
/* "12 min 05 s", "1 h 40 min", "45 s". */
void pr_meter_time(int s, char *buf, size_t len);

/* What the points share: the log, the lifeline of signals, the token. */
struct pr_ctx {
    const struct pr_run *run;
    const struct pr_opts *opts;
    FILE *log;  /* sfslog (and progress) */
    int sig_fd; /* read end of the self-pipe SIGINT/SIGTERM/SIGCHLD write to */
    volatile sig_atomic_t *interrupted;
    int mon_disabled;               /* the monitor failed once: not called again */
    struct pr_meter *meter;         /* the progress lines; NULL: none */
    const struct pr_search *search; /* LOAD=auto's search once done; NULL: none */
    uint8_t token[16];
};

/* ---- search.c: LOAD=auto (docs/sfs_mgr.md, "LOAD=auto") ------------------ */

#define PR_SEARCH_MAX  16 /* ramp probes at most */
#define PR_CONFIRM_MAX 3  /* confirmations of the peak at most */
#define PR_PROBE_RUN_S                                                                   \
    30 /* a probe's run (at most the rc's; its warm-up is the rc's)                      \
        */

struct pr_search {
    unsigned n; /* probes run */
    unsigned load[PR_SEARCH_MAX + PR_CONFIRM_MAX];
    double ops[PR_SEARCH_MAX + PR_CONFIRM_MAX], resp[PR_SEARCH_MAX + PR_CONFIRM_MAX];
    unsigned char confirm[PR_SEARCH_MAX + PR_CONFIRM_MAX]; /* 1: a confirmation */
    int warmup_s, runtime_s;                               /* each probe's */
    double peak;      /* the peak the points are chosen from */
    int saturated;    /* a probe fell short of its request: the peak is the server's */
    int settled;      /* a confirmation agreed with the peak before it */
    unsigned *points; /* the points chosen (auto_points of them), owned */
};

/* A probe's warm-up and run time for run: the points' warm-up, their run
 * time up to PR_PROBE_RUN_S. */
void pr_search_times(const struct pr_run *run, int *warmup_s, int *runtime_s);
/* After the s->n probes recorded in s (load, ops): updates s->peak,
 * s->saturated and s->settled and returns 1 with the next probe's load in
 * *load (and s->confirm[s->n] set when it is a confirmation), or 0 when
 * the search is over.  The ramp multiplies by four until a probe achieves
 * less than 90 % of its request; then confirmations at twice the peak
 * (a multiple of nclients, at least the last of npoints points' load) until
 * one saturates within 10 % of the peak before it - the peak then the
 * higher of the two - PR_CONFIRM_MAX at most. */
int pr_search_next(struct pr_search *s, unsigned nclients, unsigned npoints,
                   unsigned *load);
/* Searches ctx->run's peak (pr_search_next's probes, each a point of its
 * own), then sets *real to ctx->run with auto_points evenly spaced points
 * up to just past the peak.  Returns CM_EXIT_OK, or CM_EXIT_FAILED /
 * CM_EXIT_INTR when a probe failed (its cause on diag). */
int pr_search_run(struct pr_ctx *ctx, struct pr_search *s, struct pr_run *real);
/* The search's block of sfsres (a search, not a result). */
void pr_search_report(const struct pr_search *s, FILE *f);
/* How far the points got: the line "LOAD=auto: the points reached at most
 * TOP ops/s, P % of the peak the search found ..." into buf; returns 1 when
 * TOP is less than 90 % of the peak (the line then says so). */
int pr_search_reach(const struct pr_search *s, double top, char *buf, size_t len);
/* The search as sfsres.SFX.yaml's `search` section (its probes, the peak,
 * the points chosen and, top > 0, the most the points achieved), stated as
 * a search, not results. */
struct cm_yaml;
void pr_search_yaml(const struct pr_search *s, unsigned npoints, double top,
                    struct cm_yaml *y);

/* The results' block of a point's setup: the run's workload's counters
 * and its NFS version's protocol's (load/stats.h). */
void pr_results_block(const struct pr_run *run, struct pr_setup *su);

/* Builds the setup of point idx; 0 or -errno with err. */
int pr_setup_point(const struct pr_run *run, unsigned idx, struct pr_setup *su, char *err,
                   size_t errlen);
/* Runs one point.  Returns 0 when every client sent its results, else -1
 * with pt->error naming the host and cause (everything was stopped). */
int pr_point_run(struct pr_ctx *ctx, unsigned idx, struct pr_point *pt);
/* The workload the clients run when the prime could not choose it
 * (pr_run.ask_clients): they are started as for the first point, say it
 * in their HELLO and are sent away; all must say the same.  0 with name,
 * or -errno with one line in err. */
int pr_workload_ask(struct pr_ctx *ctx, char *name, size_t len, char *err, size_t errlen);
void pr_point_free(struct pr_point *pt);

/* ---- clean.c
 * --------------------------------------------------------------------------- */

/* WORK_DIR/sfs_mgr.SFX.pid: the running sfs_mgr (sfs_mgr -k stops it). */
void pr_mgr_pidfile(const struct pr_run *run, char *buf, size_t len);

/* ---- results.c: the files in WORK_DIR (D10)
 * ------------------------------------------------ */

/* Appends the point's sfssum line and sfsres block, rewrites the YAML and
 * the picture.  Returns 0 or -errno (reported on diag). */
int pr_results_point(const struct pr_ctx *ctx, struct pr_point *pts, unsigned npts);
/* The run's end: the summary (run rules, overall response time) in sfsres,
 * YAML and picture once more.  Prints where things are on out. */
int pr_results_final(const struct pr_ctx *ctx, struct pr_point *pts, unsigned npts,
                     FILE *out);

#endif /* PR_INT_H */
