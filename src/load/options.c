/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.c - the sfs/sfs3 option table (docs/SFS30.md §13.1) and the
 * checks that need more than one value (mount-point count and syntax, -T
 * against the NFS version, -d list).  One row per option; the cm_opt engine does the
 * parsing, range messages and --help.  Each row names its own exit code,
 * a row of common/exit.h's table (never a literal), where no code can
 * appear twice: SFS's options follow SFS's scheme (one code per option
 * from 97, 96 being a usage error; the exact SFS numbers are not known),
 * FreeSFS's own options have codes from 32 up (below 126, where a shell
 * would read them as its own).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/cm.h"
#include "common/error.h"
#include "common/opt.h"
#include "ctl/ct.h"
#include "load/debug.h"
#include "load/options.h"
#include "load/workload.h"
#include "nfs/nf_ops.h"
#include "nfs/nf_proto.h"
#include "nfs/nf_spec.h"

#define F(field) offsetof(struct ld_config, field), sizeof(((struct ld_config *)0)->field)

static const struct cm_opt_enum pace_modes[] = {
    {"sfs", LD_PACE_SFS},
    {"poisson", LD_PACE_OPEN_POISSON},
    {"fixed", LD_PACE_OPEN_FIXED},
    {NULL, 0},
};

/* Rows: short, long, rc name, type, field, default, min, max, unit,
 * argument name, help, enums, bare value, flags, exit code. */
static const struct cm_opt ld_opts[] = {
    {'l', "load", "LOAD", CM_OPT_INT, F(load), "60", 1, 10000000, "ops/s", "LOAD",
     "Requested load of this client in NFS operations per second.", NULL, NULL,
     CM_OPT_POINT, CM_EXIT_SFS_LOAD},
    {'p', "procs", "PROCS", CM_OPT_INT, F(procs), "4", 1, LD_MAX_PROCS, "processes", "N",
     "Number of load-generating child processes.", NULL, NULL, 0, CM_EXIT_SFS_PROCS},
    {'t', "runtime", "RUNTIME", CM_OPT_INT, F(runtime_s), "300", 1, 1000000, "s", "SEC",
     "Length of the measured run.", NULL, NULL, CM_OPT_NONSTD, CM_EXIT_SFS_RUNTIME},
    {'w', "warmup", "WARMUP_TIME", CM_OPT_INT, F(warmup_s), "300", 0, 1000000, "s", "SEC",
     "Length of the warm-up before the run.", NULL, NULL, CM_OPT_NONSTD,
     CM_EXIT_SFS_WARMUP},
    {'m', "mix", "MIXFILE", CM_OPT_STRING, F(mix_file), "", 0, 0, NULL, "FILE",
     "Operation mix file (version 2 or nfsstat version 1).", NULL, NULL, CM_OPT_NONSTD,
     CM_EXIT_SFS_MIX},
    {'b', "iodist", "BLOCK_FILE", CM_OPT_STRING, F(iodist_file), "", 0, 0, NULL, "FILE",
     "Block-size distribution file.", NULL, NULL, CM_OPT_NONSTD, CM_EXIT_SFS_IODIST},
    {'B', "block-kb", "BLOCK_SIZE", CM_OPT_INT, F(kb_per_block), "8", 1, 8, "KB", "KB",
     "KB per block of a read or write.", NULL, NULL, CM_OPT_NONSTD, CM_EXIT_SFS_BLOCK_KB},
    {'f', "fileset-delta", NULL, CM_OPT_INT, F(fss_delta_pct), "10", 0, 100, "%", "PCT",
     "Growth allowed to the accessed file set.", NULL, NULL, CM_OPT_NONSTD,
     CM_EXIT_SFS_FILESET_DELTA},
    {'a', "access", "ACCESS_PCNT", CM_OPT_INT, F(access_pct), "10", 0, 100, "%", "PCT",
     "Share of io files in the working set.", NULL, NULL, CM_OPT_NONSTD,
     CM_EXIT_SFS_ACCESS},
    {'A', "append", "APPEND_PCNT", CM_OPT_INT, F(append_pct), "70", 0, 100, "%", "PCT",
     "Share of write requests that append.", NULL, NULL, CM_OPT_NONSTD,
     CM_EXIT_SFS_APPEND},
    {'D', "dir-files", "DIR_COUNT", CM_OPT_INT, F(files_per_dir), "30", 1, 100000,
     "files", "N", "Files per directory.", NULL, NULL, CM_OPT_NONSTD,
     CM_EXIT_SFS_DIR_FILES},
    {'F', "io-files", "FILE_COUNT", CM_OPT_INT, F(io_files), "0", 0, 100000000, "files",
     "N", "io files per client (0 = 390 per op/s of load).", NULL, NULL, 0,
     CM_EXIT_SFS_IO_FILES},
    {'S', "symlinks", "SYMLINK_COUNT", CM_OPT_INT, F(symlinks), "20", 0, 1000000,
     "symlinks", "N", "Symbolic links per client.", NULL, NULL, CM_OPT_NONSTD,
     CM_EXIT_SFS_SYMLINKS},
    {'d', "debug", "DEBUG", CM_OPT_STRING, F(debug_list), "", 0, 0, NULL, "LIST",
     "DEBUG flags to turn on, e.g. 3,4,8-10.", NULL, NULL, 0, CM_EXIT_SFS_DEBUG},
    {'i', "interactive", NULL, CM_OPT_FLAG, F(interactive), NULL, 0, 1, NULL, NULL,
     "Wait for a key press before the run (not with -M).", NULL, NULL, CM_OPT_CLI_ONLY,
     CM_EXIT_SFS_INTERACTIVE},
    {'P', "populate", "POPULATE", CM_OPT_FLAG, F(populate_only), NULL, 0, 1, NULL, NULL,
     "Populate the file set, then exit.", NULL, NULL, 0, CM_EXIT_SFS_POPULATE},
    {'T', "test-op", NULL, CM_OPT_INT, F(test_op), "-1", -1, NF_NOPS - 1, NULL, "OP",
     "Issue only this op number (-1 = the mix).", NULL, NULL, CM_OPT_CLI_ONLY,
     CM_EXIT_SFS_TEST_OP},
    {'V', "validate", NULL, CM_OPT_INT, F(validate), "0", 0, 3, NULL, "LEVEL",
     "Run the validation suite at this level instead of a load.", NULL, NULL,
     CM_OPT_CLI_ONLY, CM_EXIT_SFS_VALIDATE},
    {'z', "dump", "DUMP", CM_OPT_FLAG, F(raw_dump), NULL, 0, 1, NULL, NULL,
     "Write the raw per-op dump of the run phase.", NULL, NULL, 0, CM_EXIT_SFS_DUMP},
    {'Q', "tcp", "TCP", CM_OPT_FLAG, F(tcp), NULL, 0, 1, NULL, NULL,
     "Use TCP (and its timers) instead of UDP.", NULL, NULL, 0, CM_EXIT_SFS_TCP},
    {'R', "biod-reads", "BIOD_MAX_READS", CM_OPT_INT, F(biod_reads), "2", 0, LD_MAX_BIODS,
     "calls", "N", "Read calls in flight per child.", NULL, NULL, CM_OPT_NONSTD,
     CM_EXIT_SFS_BIOD_READS},
    {'W', "biod-writes", "BIOD_MAX_WRITES", CM_OPT_INT, F(biod_writes), "2", 0,
     LD_MAX_BIODS, "calls", "N", "Write calls in flight per child.", NULL, NULL,
     CM_OPT_NONSTD, CM_EXIT_SFS_BIOD_WRITES},
    {'M', "prime", NULL, CM_OPT_STRING, F(prime_host), "", 0, 0, NULL, "HOST:PORT",
     "Run as a client of the prime listening there (the run's token is read from "
     "standard input).",
     NULL, NULL, CM_OPT_CLI_ONLY, CM_EXIT_SFS_PRIME},
    {'N', "client", NULL, CM_OPT_INT, F(client_num), "1", 1, 10000, NULL, "N",
     "This client's number.", NULL, NULL, CM_OPT_CLI_ONLY, CM_EXIT_SFS_CLIENT},
    {0, "prime-ssh", NULL, CM_OPT_FLAG, F(prime_ssh), NULL, 0, 1, NULL, NULL,
     "With -M: reach the prime at the address this client's ssh connection came "
     "from (SSH_CONNECTION), else at -M's host.",
     NULL, NULL, CM_OPT_CLI_ONLY, CM_EXIT_SFS_PRIME_SSH},
    {0, "pid-file", NULL, CM_OPT_STRING, F(pid_file), "", 0, 0, NULL, "FILE",
     "With -M: record this client's process ids here while it runs.", NULL, NULL,
     CM_OPT_CLI_ONLY, CM_EXIT_SFS_PID_FILE},
    {0, "kill-run", NULL, CM_OPT_STRING, F(kill_run), "", 0, 0, NULL, "FILE",
     "Stop the client (and its children) a --pid-file names, then exit "
     "(what sfs_mgr -k runs on each client).",
     NULL, NULL, CM_OPT_CLI_ONLY, CM_EXIT_SFS_KILL_RUN},
    {'c', NULL, NULL, CM_OPT_INT, F(calls_obsolete), "0", -2147483647.0, 2147483647.0,
     NULL, "CALLS", "Fixed call count (SFS 2.0): no longer supported.", NULL, NULL,
     CM_OPT_CLI_ONLY | CM_OPT_HIDDEN, CM_EXIT_SFS_CALLS},
    {0, "open-loop", NULL, CM_OPT_ENUM, F(pace_mode), "sfs", 0, 0, NULL, "ARRIVALS",
     "Open-loop pacing on absolute deadlines (poisson or fixed arrivals).", pace_modes,
     "poisson", CM_OPT_CLI_ONLY | CM_OPT_OPT_ARG, CM_EXIT_SFS_OPEN_LOOP},
    {0, "seed", NULL, CM_OPT_I64, F(seed), "2231", 1, 2147483646.0, NULL, "N",
     "Random seed; child k of client n uses seed + 1024 x (n - 1) + k.", NULL, NULL, 0,
     CM_EXIT_SFS_SEED},
    {0, "yaml", NULL, CM_OPT_STRING, F(yaml_path), "", 0, 0, NULL, "FILE",
     "Also write every result and parameter to this YAML file.", NULL, NULL,
     CM_OPT_CLI_ONLY, CM_EXIT_SFS_YAML},
    {0, "restart-cmd", NULL, CM_OPT_STRING, F(restart_cmd), "", 0, 0, NULL, "CMD",
     "With -V: shell command that restarts the server, to check that the COMMIT "
     "verifier changes.",
     NULL, NULL, CM_OPT_CLI_ONLY, CM_EXIT_SFS_RESTART_CMD},
    {0, "minor", NULL, CM_OPT_INT, F(minor), "1", 0, 1, NULL, "N",
     "sfs4: the NFSv4 minor version, 1; NFSv4.0 (0) is refused, docs/sfs.md says why.",
     NULL, NULL, CM_OPT_CLI_ONLY, CM_EXIT_SFS_MINOR},
    {0, "workload", "WORKLOAD", CM_OPT_STRING, F(workload), "auto", 0, 0, NULL, "NAME",
     "What to run: auto (the SFS mix, or the replay a --trace asks for) or a workload "
     "named below.",
     NULL, NULL, 0, CM_EXIT_SFS_WORKLOAD},
    {0, "progress", NULL, CM_OPT_INT, F(progress_s), "10", 0, 86400, "s", "SEC",
     "A progress line this often during the warm-up and the run, on stderr (one "
     "updating line on a terminal); 0 = none.",
     NULL, NULL, CM_OPT_CLI_ONLY, CM_EXIT_SFS_PROGRESS},
    {0, "jukebox-delay", "JUKEBOX_DELAY", CM_OPT_INT, F(jukebox_delay_ms), "5000", 0,
     60000, "ms", "MS",
     "Wait before sending again a call the server answered NFS3ERR_JUKEBOX (the Linux "
     "client waits 5 s).",
     NULL, NULL, 0, CM_EXIT_SFS_JUKEBOX_DELAY},
};

const struct cm_opt *ld_options_table(size_t *n)
{
    *n = CM_ARRAY_LEN(ld_opts);
    return ld_opts;
}

void ld_config_defaults(struct ld_config *cfg, int nfs_version)
{
    char err[CM_ERR_LEN];

    memset(cfg, 0, sizeof(*cfg));
    /* The table's defaults always parse (test_load_options checks it). */
    (void)cm_opt_defaults(ld_opts, CM_ARRAY_LEN(ld_opts), cfg, cfg->src, err,
                          sizeof(err));
    cfg->nfs_version = nfs_version;
}

static const struct cm_opt *row_of(int short_flag)
{
    return cm_opt_by_short(ld_opts, CM_ARRAY_LEN(ld_opts), short_flag);
}

static int fail(int *exit_code, int code, int rc)
{
    if (exit_code)
        *exit_code = code;
    return rc;
}

int ld_config_transport(struct ld_config *cfg, char *err, size_t errlen)
{
    const struct nf_proto *p = nf_proto_by_version(cfg->nfs_version);
    const struct cm_opt *q = row_of('Q');

    if (p == NULL || !p->tcp_only)
        return 0;
    if (!cfg->tcp && cfg->src[q - ld_opts] != CM_SRC_DEFAULT)
        return cm_errf(err, errlen, "%s runs over TCP only: UDP (%s off) refused",
                       p->name, q->rc_name);
    cfg->tcp = 1;
    return 0;
}

/* --minor: NFSv4.1 only.  NFSv4.0 load would need OPEN by name with an
 * OPEN_CONFIRM and the open owner's sequence ids, which order every OPEN
 * and CLOSE of a process (RFC 7530 9.1.7): the SFS working set opens
 * files by handle (CLAIM_FH, 4.1 only) with calls in flight at once. */
static int check_minor(const struct ld_config *cfg, char *err, size_t errlen)
{
    size_t row;

    for (row = 0; row < CM_ARRAY_LEN(ld_opts); row++)
        if (ld_opts[row].offset == offsetof(struct ld_config, minor))
            break;
    if (row == CM_ARRAY_LEN(ld_opts) || cfg->src[row] == CM_SRC_DEFAULT)
        return 0;
    if (cfg->nfs_version != 4)
        return cm_errf(err, errlen, "--minor: NFSv%d has no minor versions (sfs4 only)",
                       cfg->nfs_version);
    if (cfg->minor == 0)
        return cm_errf(
            err, errlen,
            "--minor 0: NFSv4.0 load is not offered, NFSv4.1 only (docs/sfs.md, "
            "\"NFSv4.0\")");
    return 0;
}

/* The checks that involve more than one row. */
static int check_combined(struct ld_config *cfg, int *exit_code, char *err, size_t errlen)
{
    char label[64];
    int rc, k;

    if (cfg->src[row_of('c') - ld_opts] == CM_SRC_CLI)
        return fail(exit_code, CM_EXIT_SFS_CALLS,
                    cm_errf(err, errlen, "-c: no longer supported"));
    rc = ld_config_transport(cfg, err, errlen);
    if (rc < 0)
        return fail(exit_code, row_of('Q')->exit_code, rc);
    rc = check_minor(cfg, err, errlen);
    if (rc < 0)
        return fail(exit_code, CM_EXIT_SFS_MINOR, rc);
    rc = ld_debug_parse(cfg->debug_list, &cfg->debug_mask, err, errlen);
    if (rc < 0)
        return fail(exit_code, row_of('d')->exit_code, rc);
    if (cfg->test_op >= 0 && !nf_op_in_version(cfg->test_op, cfg->nfs_version))
        return fail(exit_code, row_of('T')->exit_code,
                    cm_errf(err, errlen, "%s: op %d (%s) does not exist in NFSv%d",
                            cm_opt_label(row_of('T'), label, sizeof(label)), cfg->test_op,
                            nf_op_name(cfg->test_op), cfg->nfs_version));
    if (cfg->interactive && cfg->prime_host[0])
        return fail(exit_code, row_of('i')->exit_code,
                    cm_errf(err, errlen, "-i: not allowed with -M"));
    if (cfg->validate && cfg->nmounts > 1) /* docs/SFS30.md §19 */
        return fail(exit_code, CM_EXIT_SFS_MOUNTS,
                    cm_errf(err, errlen, "Can only validate one directory at a time."));
    if (cfg->prime_host[0]) {
        char host[LD_HOST_MAX];
        uint16_t port;

        if (ct_split_hostport(cfg->prime_host, host, sizeof(host), &port) < 0)
            return fail(exit_code, row_of('M')->exit_code,
                        cm_errf(err, errlen,
                                "-M %s: give HOST:PORT, the control port the prime "
                                "listens on",
                                cfg->prime_host));
    }
    if (cfg->kill_run[0])
        return 0; /* needs no mount point */
    if (cfg->nmounts == 0)
        return fail(exit_code, CM_EXIT_SFS_MOUNTS,
                    cm_errf(err, errlen,
                            "no mount point given (host:/path, "
                            "host:port:/path or nfs://host[:port]/path)"));
    if (cfg->nmounts > LD_MAX_MOUNTS ||
        (cfg->nmounts != 1 && cfg->nmounts % cfg->procs != 0))
        return fail(exit_code, CM_EXIT_SFS_MOUNTS,
                    cm_errf(err, errlen,
                            "%d mount points for %d processes: give 1, %d or a "
                            "multiple of %d",
                            cfg->nmounts, cfg->procs, cfg->procs, cfg->procs));
    /* a mount point that cannot parse fails now, not in every child */
    for (k = 0; k < cfg->nmounts; k++) {
        struct nf_mount_spec spec;

        rc = nf_parse_mount_spec(cfg->mounts[k], &spec, err, errlen);
        if (rc < 0)
            return fail(exit_code, CM_EXIT_SFS_MOUNTS, rc);
    }
    return 0;
}

/* --workload names auto or one of the workloads. */
static int check_workload(const struct ld_config *cfg,
                          const struct ld_workload_ops *const *wl, size_t n,
                          int *exit_code, char *err, size_t errlen)
{
    char names[256];
    size_t i, used;

    if (strcmp(cfg->workload, "auto") == 0)
        return 0;
    used = (size_t)snprintf(names, sizeof(names), "auto");
    for (i = 0; i < n; i++) {
        if (strcmp(cfg->workload, wl[i]->name) == 0)
            return 0;
        if (used < sizeof(names))
            used +=
                (size_t)snprintf(names + used, sizeof(names) - used, ", %s", wl[i]->name);
    }
    return fail(
        exit_code, CM_EXIT_SFS_WORKLOAD,
        cm_errf(err, errlen, "--workload %s: not a workload (%s)", cfg->workload, names));
}

int ld_options_parse(struct ld_config *cfg, int nfs_version,
                     const struct ld_workload_ops *const *wl, size_t nwl, int argc,
                     char **argv, int *exit_code, char *err, size_t errlen)
{
    struct cm_opt_set sets[LD_WL_GROUPS + 1];
    const struct cm_opt *bad;
    size_t nsets;
    int first = argc, rc;

    ld_config_defaults(cfg, nfs_version);
    rc = ld_config_add_workloads(cfg, wl, nwl, err, errlen);
    if (rc < 0)
        return fail(exit_code, CM_EXIT_FAILED, rc);
    nsets = ld_config_sets(cfg, sets, CM_ARRAY_LEN(sets));
    rc = cm_opt_parse_sets(sets, nsets, argc, argv, &first, &bad, err, errlen);
    if (rc == LD_OPTIONS_HELP)
        return rc;
    if (rc < 0) {
        if (bad && bad == row_of('c'))
            return fail(exit_code, CM_EXIT_SFS_CALLS,
                        cm_errf(err, errlen, "-c: no longer supported"));
        return fail(exit_code, bad ? bad->exit_code : CM_EXIT_SFS_USAGE, rc);
    }
    cfg->nmounts = argc - first;
    cfg->mounts = argv + first;
    rc = check_workload(cfg, wl, nwl, exit_code, err, errlen);
    return rc < 0 ? rc : check_combined(cfg, exit_code, err, errlen);
}

void ld_options_help(FILE *out, const char *prog, const struct ld_workload_ops *const *wl,
                     size_t nwl)
{
    static struct ld_config cfg; /* large: not on the stack */
    struct cm_opt_set sets[LD_WL_GROUPS + 1];
    char titles[LD_WL_GROUPS + 1][160], err[CM_ERR_LEN];
    size_t nsets, k, i;

    fprintf(out,
            "usage: %s [options] mount-point...\n"
            "  mount points: host:/path, host:port:/path or\n"
            "  nfs://host[:port]/path?mountport=N; give 1 (every child uses it), "
            "PROCS,\n  or a multiple of PROCS.\n"
            "options:\n",
            prog);
    ld_config_defaults(&cfg, 3);
    (void)ld_config_add_workloads(&cfg, wl, nwl, err, sizeof(err));
    nsets = ld_config_sets(&cfg, sets, CM_ARRAY_LEN(sets));
    /* each group's heading names the workloads that read it */
    for (k = 1; k < nsets; k++) {
        const struct ld_opt_group *g = cfg.group[k - 1].g;
        size_t used =
            (size_t)snprintf(titles[k], sizeof(titles[k]), "\n%s (--workload", g->title);
        const char *sep = " ";

        for (i = 0; i < nwl && used < sizeof(titles[k]); i++)
            if (ld_workload_reads(wl[i], g)) {
                used += (size_t)snprintf(titles[k] + used, sizeof(titles[k]) - used,
                                         "%s%s", sep, wl[i]->name);
                sep = ", ";
            }
        if (used < sizeof(titles[k]))
            snprintf(titles[k] + used, sizeof(titles[k]) - used, ")");
        sets[k].title = titles[k];
    }
    cm_opt_help_sets(out, sets, nsets);
}

const char *ld_config_mount_for_child(const struct ld_config *cfg, int child)
{
    int groups, group;

    if (cfg->nmounts <= 0)
        return NULL;
    if (cfg->nmounts == 1)
        return cfg->mounts[0];
    groups = cfg->nmounts / cfg->procs;
    group = (cfg->client_num - 1) % (groups > 0 ? groups : 1);
    return cfg->mounts[(group * cfg->procs + child % cfg->procs) % cfg->nmounts];
}

size_t ld_config_sets(struct ld_config *cfg, struct cm_opt_set *sets, size_t max)
{
    if (max == 0)
        return 0;
    sets[0].t = ld_opts;
    sets[0].n = CM_ARRAY_LEN(ld_opts);
    sets[0].base = cfg;
    sets[0].src = cfg->src;
    sets[0].title = NULL;
    return 1 + ld_config_group_sets(cfg, sets + 1, max - 1);
}

/* The row of long_name, the struct it fills (base) and its source. */
static const struct cm_opt *row_named(const struct ld_config *cfg, const char *long_name,
                                      const unsigned char **src, size_t *offset)
{
    const struct cm_opt *row = cm_opt_by_long(ld_opts, CM_ARRAY_LEN(ld_opts), long_name);

    if (row) {
        *src = &cfg->src[row - ld_opts];
        *offset = SIZE_MAX; /* the config itself */
        return row;
    }
    return ld_config_group_row(cfg, long_name, src, offset);
}

const struct cm_opt *ld_config_row(const struct ld_config *cfg, const char *long_name,
                                   const unsigned char **src)
{
    size_t offset;

    return row_named(cfg, long_name, src, &offset);
}

int ld_config_set_word(struct ld_config *cfg, const char *word, char *err, size_t errlen)
{
    char name[64];
    const char *eq = strchr(word, '=');
    size_t n = eq ? (size_t)(eq - word) : strlen(word), offset;
    const unsigned char *src;
    const struct cm_opt *row;

    if (strncmp(word, "--", 2) != 0 || n - 2 >= sizeof(name))
        return cm_errf(err, errlen, "%s: not a long option", word);
    memcpy(name, word + 2, n - 2);
    name[n - 2] = '\0';
    row = row_named(cfg, name, &src, &offset);
    if (row == NULL)
        return cm_errf(err, errlen, "%s: unknown option", word);
    return cm_opt_set(row, offset == SIZE_MAX ? (void *)cfg : cfg->wl_opts + offset,
                      eq ? eq + 1 : NULL, err, errlen);
}

int ld_config_was_set(const struct ld_config *cfg, const char *long_name)
{
    const unsigned char *src;

    return ld_config_row(cfg, long_name, &src) && *src != CM_SRC_DEFAULT;
}
