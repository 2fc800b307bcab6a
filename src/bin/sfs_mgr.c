/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_mgr.c - main() of sfs_mgr (docs/SFS30.md §13.3, §15; docs/sfs_mgr.md):
 * `sfs_mgr -r RC [-s SFX] [-v LEVEL]` runs every load point of the rc file
 * on its clients; --check prints the resolved run, -c removes the
 * benchmark trees, -k stops what a crash left behind.  Parses the options,
 * hands the work to the prime layer (pr.h) and returns its exit code.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/opt.h"
#include "prime/pr.h"

struct mgr_cli {
    char rc[4096];
    char suffix[128];
    int validate;
    int check; /* 0 none, 1 text, 2 yaml */
    int clean;
    int kill;
    int trees;
    int progress;
};

#define F(field) offsetof(struct mgr_cli, field), sizeof(((struct mgr_cli *)0)->field)

static const struct cm_opt_enum check_forms[] = {
    {"none", 0}, {"text", 1}, {"yaml", 2}, {NULL, 0}};

static const struct cm_opt mgr_opts[] = {
    {'r', "rc", NULL, CM_OPT_STRING, F(rc), "", 0, 0, NULL, "RC",
     "The rc file (parsed as data, never executed).", NULL, NULL, 0, CM_EXIT_USAGE},
    {'s', "suffix", NULL, CM_OPT_STRING, F(suffix), "", 0, 0, NULL, "SFX",
     "Suffix of the result files (default: SUFFIX, else the rc file's name "
     "without _rc).",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {'v', "validate", NULL, CM_OPT_INT, F(validate), "0", 0, 3, NULL, "LEVEL",
     "Run the validation suite (sfs -V LEVEL) first; output in sfsval.SFX.", NULL, NULL,
     0, CM_EXIT_USAGE},
    {0, "check", NULL, CM_OPT_ENUM, F(check), "none", 0, 0, NULL, "FORM",
     "Print the resolved run (text or yaml) and start nothing.", check_forms, "text",
     CM_OPT_OPT_ARG, CM_EXIT_USAGE},
    {'c', "clean", NULL, CM_OPT_FLAG, F(clean), NULL, 0, 1, NULL, NULL,
     "Remove the benchmark trees (CL<n>) from every mount point, then exit.", NULL, NULL,
     0, CM_EXIT_USAGE},
    {'k', "kill", NULL, CM_OPT_FLAG, F(kill), NULL, 0, 1, NULL, NULL,
     "Stop every FreeSFS process an earlier run of this rc file left behind.", NULL, NULL,
     0, CM_EXIT_USAGE},
    {0, "trees", NULL, CM_OPT_FLAG, F(trees), NULL, 0, 1, NULL, NULL,
     "Say whether the mount points hold CL<n> trees of an earlier run (exit 0 fresh, 1 "
     "not fresh or unknown), then exit.",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "progress", NULL, CM_OPT_INT, F(progress), "10", 0, 86400, "s", "SEC",
     "A progress line this often during each point's warm-up and run, summed over the "
     "clients (one updating line on a terminal); 0 = none.",
     NULL, NULL, 0, CM_EXIT_USAGE},
};

#define MGR_USAGE                                                                        \
    "usage: sfs_mgr -r RC [-s SFX] [-v LEVEL] [--progress SEC] [--check[=text|yaml]]\n"  \
    "               [--trees] [-c] [-k]\n"                                               \
    "Runs every load point of the rc file RC on its clients (docs/sfs_mgr.md).\n"

int main(int argc, char **argv)
{
    struct mgr_cli cli;
    struct pr_run run;
    struct pr_opts o;
    char err[CM_ERR_LEN];
    int first = argc, rc, code;

    memset(&cli, 0, sizeof(cli));
    rc = cm_opt_main(mgr_opts, CM_ARRAY_LEN(mgr_opts), &cli, argc, argv, MGR_USAGE,
                     stdout, &first, NULL, err, sizeof(err));
    if (rc == 1)
        return CM_EXIT_OK;
    if (argc == 1) { /* nothing asked: what could be */
        fputs(MGR_USAGE, stdout);
        cm_opt_help(stdout, mgr_opts, CM_ARRAY_LEN(mgr_opts));
        return CM_EXIT_USAGE;
    }
    if (rc == 0 && first < argc)
        rc = cm_errf(err, sizeof(err), "unexpected argument '%s'", argv[first]);
    if (rc == 0 && cli.rc[0] == '\0')
        rc = cm_errf(err, sizeof(err), "-r RC is required");
    if (rc < 0) {
        fprintf(stderr, "sfs_mgr: %s\n", err);
        return CM_EXIT_USAGE;
    }
    /* an rc file that cannot be read: one line with the reason, not the rc
       errors' summary after it */
    if (access(cli.rc, R_OK) < 0) {
        fprintf(stderr, "sfs_mgr: %s: %s\n", cli.rc, strerror(errno));
        return CM_EXIT_USAGE;
    }
    if (pr_run_load(&run, cli.rc, cli.suffix[0] ? cli.suffix : NULL, stderr) < 0) {
        fprintf(stderr, "sfs_mgr: %s: the rc file has errors; nothing was started\n",
                cli.rc);
        pr_run_free(&run);
        return CM_EXIT_USAGE;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (cli.check)
        pr_run_check(&run, stdout, cli.check == 2), code = CM_EXIT_OK;
    else if (cli.trees) {
        char state[600];

        code =
            pr_trees_state(&run, state, sizeof(state)) == 1 ? CM_EXIT_OK : CM_EXIT_FAILED;
        printf("test_directories: %s\n", state);
    } else if (cli.kill)
        code = pr_kill(&run, stdout, stderr);
    else if (cli.clean)
        code = pr_clean(&run, stdout, stderr);
    else {
        memset(&o, 0, sizeof(o));
        o.name = "sfs_mgr";
        o.validate = cli.validate;
        o.launch = 1;
        o.progress_s = (unsigned)cli.progress;
        o.out = stdout;
        o.diag = stderr;
        code = pr_mgr_run(&run, &o);
    }
    pr_run_free(&run);
    return code;
}
