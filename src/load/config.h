/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * config.h - struct ld_config: every sfs/sfs3 option value (
 * docs/SFS30.md §13.1 with the SFS 3.0 defaults, plus FreeSFS's long options) and where
 * each value came from.  options.c fills it from the command line (and,
 * later, the rc file); every other load module reads it.  Plain data: no
 * functions here.
 */
#ifndef LD_CONFIG_H
#define LD_CONFIG_H

#include <stddef.h>
#include <stdint.h>

#define LD_PATH_MAX    1024
#define LD_HOST_MAX    256
#define LD_MAX_BIODS   32 /* -R/-W upper bound (MAX_BIODS) */
#define LD_MAX_MOUNTS  1024
#define LD_MAX_PROCS   1024 /* -p upper bound */
#define LD_CONFIG_NSRC 64   /* >= rows of the option table */

/* SFS 3.0 standard values (docs/SFS30.md §23); a run that departs from one is INVALID. */
#define LD_STD_RUNTIME_S  300
#define LD_STD_WARMUP_S   300
#define LD_STD_ACCESS_PCT 10
#define LD_STD_APPEND_PCT 70
#define LD_STD_KB_PER_BLK 8
#define LD_STD_FILES_DIR  30
#define LD_STD_FSS_DELTA  10
#define LD_STD_SYMLINKS   20
#define LD_STD_MIN_BIODS  2

/* Pacing modes (D7).  SFS is the default; the open-loop modes are FreeSFS's
 * --open-loop[=poisson|fixed]. */
enum ld_pace_mode { LD_PACE_SFS = 0, LD_PACE_OPEN_POISSON = 1, LD_PACE_OPEN_FIXED = 2 };

/* A workload's own options (workload.h: ld_workload_ops.options): rows
 * (common/opt.h) over a struct of the workload's, of size bytes, with
 * their defaults; title heads them in --help.  Several workloads may read
 * one group (the two trace replays read the trace's). */
struct cm_opt;
struct ld_opt_group {
    const char *title;
    const struct cm_opt *rows;
    size_t nrows;
    size_t size;
};

/* Room in struct ld_config for the workloads' option structs. */
#define LD_WL_OPT_BYTES 4096
#define LD_WL_GROUPS    8
#define LD_WL_OPT_ROWS  32

struct ld_config {
    /* Set by main() from argv[0] (sfs -> 2, sfs3 -> 3), not an option. */
    int nfs_version;

    /* SFS 3.0 options (docs/SFS30.md §13.1); defaults in options.c. */
    int load;                      /* -l client load, ops/s (60) */
    int procs;                     /* -p children (4) */
    int runtime_s;                 /* -t (300) */
    int warmup_s;                  /* -w (300) */
    char mix_file[LD_PATH_MAX];    /* -m, "" = default mix */
    char iodist_file[LD_PATH_MAX]; /* -b, "" = default distribution */
    int kb_per_block;              /* -B 1..8 (8) */
    int fss_delta_pct;             /* -f 0..100 (10) */
    int access_pct;                /* -a 0..100 (10) */
    int append_pct;                /* -A 0..100 (70) */
    int files_per_dir;             /* -D (30) */
    int io_files;         /* -F io files per client, 0 = from the load (390 x L) */
    int symlinks;         /* -S symlinks per client (20) */
    char debug_list[256]; /* -d text, e.g. "3,4,8-10" */
    uint32_t debug_mask;  /* parsed from debug_list by ld_options_parse */
    int interactive;      /* -i */
    int populate_only;    /* -P */
    int test_op;          /* -T op number, -1 = the mix */
    int validate;         /* -V level 1..3, 0 = no validation */
    int raw_dump;         /* -z */
    int tcp;              /* -Q */
    int biod_reads;       /* -R 0..32 (2) */
    int biod_writes;      /* -W 0..32 (2) */
    char prime_host[LD_HOST_MAX]; /* -M, "" = standalone */
    int client_num;               /* -N >= 1 (1) */
    int prime_ssh; /* --prime-ssh: prefer SSH_CONNECTION's peer to -M's host */
    char pid_file[LD_PATH_MAX]; /* --pid-file: where a prime-driven client records itself
                                 */
    char kill_run[LD_PATH_MAX]; /* --kill-run: stop the client a pid file names, exit */

    /* FreeSFS long options. */
    int pace_mode;               /* --open-loop[=poisson|fixed]: enum ld_pace_mode */
    int64_t seed;                /* --seed (CM_RNG_DEFAULT_SEED); child k uses seed + k */
    int jukebox_delay_ms;        /* --jukebox-delay: wait before a call the server
                                    answered NFS3ERR_JUKEBOX is sent again (5000) */
    char yaml_path[LD_PATH_MAX]; /* --yaml FILE, "" = none */
    char restart_cmd[LD_PATH_MAX]; /* --restart-cmd CMD (-V), "" = none */
    int minor; /* --minor: sfs4's NFSv4 minor version; only 1 is offered */

    /* --workload: "auto" (chosen from the other options, docs/sfs.md) or
     * a workload's name. */
    char workload[32];

    /* --progress SEC: a progress line this often in the load phases
     * (docs/sfs.md, "Progress"); 0 = none. */
    int progress_s;

    /* -c (SFS 2.0's call count): accepted by the parser only to be rejected
     * with "no longer supported" (exit CM_EXIT_SFS_CALLS). */
    int calls_obsolete;

    /* Positional mount points (pointers into argv; not owned). */
    int nmounts;
    char **mounts;

    /* Per option-table row: enum cm_opt_src (default / rc / command line),
     * indexed like ld_options_table(). */
    unsigned char src[LD_CONFIG_NSRC];

    /* The workloads' own options (ld_config_add_workloads): each group's
     * struct at its offset in wl_opts, its rows' sources from wl_src[src0]
     * on.  By value, so that a copy of the config copies them. */
    unsigned ngroups;
    struct ld_config_group {
        const struct ld_opt_group *g;
        unsigned offset, src0;
    } group[LD_WL_GROUPS];
    _Alignas(16) unsigned char wl_opts[LD_WL_OPT_BYTES];
    unsigned char wl_src[LD_WL_OPT_ROWS];
};

#endif /* LD_CONFIG_H */
