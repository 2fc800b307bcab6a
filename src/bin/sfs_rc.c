/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_rc.c - main() of sfs_rc, the rc file from the shell (docs/runsfs.md):
 * runsfs reads and writes rc files through it, so that the one rc parser
 * (common/rc.h, docs/DECISIONS.md D9) serves every reader and no shell code
 * ever sources or parses an rc file.  The commands are usage()'s: show
 * (a value's newlines and tabs as blanks), set (the rest of the file kept,
 * written atomically), check, and describe and pages from the tables a run
 * checks with (prime/describe.c).  Exit codes: 0 done, 2 bad usage or an rc
 * file with errors (each reported as FILE:LINE), 1 a file not written.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/exit.h"
#include "common/opt.h"
#include "common/rc.h"
#include "common/alloc.h"
#include "prime/pr.h"

#define EXIT_WRITE CM_EXIT_FAILED
#define EXIT_USAGE CM_EXIT_USAGE

struct rc_cli {
    char from[4096];
};

#define F(field) offsetof(struct rc_cli, field), sizeof(((struct rc_cli *)0)->field)

static const struct cm_opt table[] = {
    {0, "from", NULL, CM_OPT_STRING, F(from), "", 0, 0, NULL, "SRC",
     "set: start from SRC (e.g. a template) instead of FILE itself.", NULL, NULL, 0,
     EXIT_USAGE},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: sfs_rc show FILE NAME...\n"
                 "       sfs_rc set [--from SRC] FILE NAME=VALUE...\n"
                 "       sfs_rc check FILE\n"
                 "       sfs_rc describe [NAME...]\n"
                 "       sfs_rc pages\n");
    cm_opt_help(out, table, CM_ARRAY_LEN(table));
}

/* The value on one line: newlines and tabs become blanks. */
static void print_flat(const char *name, const char *value)
{
    const char *p;

    printf("%s=", name);
    for (p = value; *p; p++)
        putchar(*p == '\n' || *p == '\t' || *p == '\r' ? ' ' : *p);
    putchar('\n');
}

static int show(const char *file, char **names, int n)
{
    struct cm_rc rc;
    char err[CM_ERR_LEN];
    int i, r = cm_rc_load(&rc, file, NULL, NULL, stderr, err, sizeof(err));

    if (r == 0)
        for (i = 0; i < n; i++)
            print_flat(names[i], cm_rc_value(&rc, names[i], ""));
    cm_rc_free(&rc);
    return r < 0 ? EXIT_USAGE : 0;
}

static int set(const char *file, const char *from, char **args, int n)
{
    struct cm_rc_assign *sets = cm_calloc((size_t)n + 1, sizeof(*sets));
    char err[CM_ERR_LEN];
    int i, r = 0;

    if (sets == NULL) {
        fprintf(stderr, "sfs_rc: out of memory\n");
        return EXIT_WRITE;
    }
    for (i = 0; i < n && r == 0; i++) {
        char *eq = strchr(args[i], '=');
        if (eq == NULL) {
            fprintf(stderr, "sfs_rc: '%s' is not NAME=VALUE\n", args[i]);
            r = EXIT_USAGE;
            break;
        }
        *eq = '\0';
        sets[i].name = args[i];
        sets[i].value = eq + 1;
    }
    if (r == 0) {
        /* cm_rc_write reports every failure on stderr itself */
        int w = cm_rc_write(file, from[0] ? from : NULL, sets, (size_t)n, stderr, err,
                            sizeof(err));
        r = w == 0 ? 0 : w == -EINVAL ? EXIT_USAGE : EXIT_WRITE;
    }
    free(sets);
    return r;
}

int main(int argc, char **argv)
{
    struct rc_cli cli;
    const struct cm_opt *bad = NULL;
    char err[CM_ERR_LEN];
    const char *cmd = argc > 1 ? argv[1] : "";
    int first = argc, rc, nargs;
    char **args;

    memset(&cli, 0, sizeof(cli));
    cm_opt_defaults(table, CM_ARRAY_LEN(table), &cli, NULL, err, sizeof(err));
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
        usage(stdout);
        return CM_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0) {
        cm_opt_version(stdout);
        return CM_EXIT_OK;
    }
    rc = cm_opt_parse_argv(table, CM_ARRAY_LEN(table), &cli, NULL, argc - 1, argv + 1,
                           &first, &bad, err, sizeof(err));
    if (rc < 0) {
        fprintf(stderr, "sfs_rc: %s\n", err);
        return bad ? bad->exit_code : EXIT_USAGE;
    }
    if (rc == 1) {
        usage(stdout);
        return CM_EXIT_OK;
    }
    args = argv + 1 + first;
    nargs = argc - 1 - first;
    if (strcmp(cmd, "show") == 0 && nargs >= 1 && !cli.from[0])
        return show(args[0], args + 1, nargs - 1);
    if (strcmp(cmd, "set") == 0 && nargs >= 2)
        return set(args[0], cli.from, args + 1, nargs - 1);
    if (strcmp(cmd, "check") == 0 && nargs == 1 && !cli.from[0])
        return show(args[0], NULL, 0);
    if (strcmp(cmd, "describe") == 0 && !cli.from[0])
        return pr_rc_describe(stdout, stderr, args, nargs) < 0 ? EXIT_USAGE : 0;
    if (strcmp(cmd, "pages") == 0 && nargs == 0 && !cli.from[0]) {
        pr_rc_pages(stdout);
        return CM_EXIT_OK;
    }
    usage(stderr);
    return EXIT_USAGE;
}
