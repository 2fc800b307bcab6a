/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_generate.c - main() of sfs_generate, SFS 3.0's submission tool
 * (docs/SFS30.md §20.2; docs/generate.md): asks its questions on the
 * terminal and writes the submission file.  The questions and the file are
 * the submit layer's (submit/sb.h).  For scripted submissions the files
 * may be named on the command line instead (--info takes the static
 * information from a YAML file without the menu); whatever is not named is
 * asked.  Exit codes: 0 written (or [3] Exit), 1 the input ended first, 2
 * the file could not be written, a named file cannot be used, or bad usage.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "common/opt.h"
#include "submit/sb.h"
#include "common/cm.h"
#include "common/error.h"

struct gen_cli {
    char info[4096], rc[4096], sum[4096], out[4096];
};

#define F(field) offsetof(struct gen_cli, field), sizeof(((struct gen_cli *)0)->field)

static const struct cm_opt gen_opts[] = {
    {'i', "info", NULL, CM_OPT_STRING, F(info), "", 0, 0, NULL, "FILE",
     "The static information from this YAML file, without the menu.", NULL, NULL, 0,
     SB_EXIT_WRITE},
    {'r', "rc", NULL, CM_OPT_STRING, F(rc), "", 0, 0, NULL, "RC",
     "The rc file of the run (else asked).", NULL, NULL, 0, SB_EXIT_WRITE},
    {'s', "sfssum", NULL, CM_OPT_STRING, F(sum), "", 0, 0, NULL, "FILE",
     "The sfssum file of the run (else asked).", NULL, NULL, 0, SB_EXIT_WRITE},
    {'o', "output", NULL, CM_OPT_STRING, F(out), "", 0, 0, NULL, "FILE",
     "The submission file, replaced when it exists (else asked).", NULL, NULL, 0,
     SB_EXIT_WRITE},
};

#define GEN_USAGE                                                                        \
    "usage: sfs_generate [--info FILE] [--rc RC] [--sfssum FILE] [--output FILE]\n"      \
    "Writes a submission file with every disclosure item (docs/generate.md) from the\n"  \
    "static information (asked, or a YAML file), the rc file and the sfssum file of a\n" \
    "run, and each client's type and network (asked: RETURN takes the first).\n"

int main(int argc, char **argv)
{
    struct gen_cli cli;
    struct sb_given given;
    char err[CM_ERR_LEN];
    int first = argc, rc;

    memset(&cli, 0, sizeof(cli));
    rc = cm_opt_main(gen_opts, CM_ARRAY_LEN(gen_opts), &cli, argc, argv, GEN_USAGE,
                     stdout, &first, NULL, err, sizeof(err));
    if (rc == 1)
        return SB_EXIT_OK;
    if (rc == 0 && first < argc)
        rc = cm_errf(err, sizeof(err), "unexpected argument '%s'", argv[first]);
    if (rc < 0) {
        fprintf(stderr, "sfs_generate: %s (try --help)\n", err);
        return SB_EXIT_WRITE;
    }
    given.info = cli.info;
    given.rc = cli.rc;
    given.sum = cli.sum;
    given.out = cli.out;
    return sb_session(stdin, stdout, stderr, &given);
}
