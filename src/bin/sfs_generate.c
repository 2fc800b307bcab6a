/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_generate.c - main() of sfs_generate, SFS 3.0's submission tool
 * (sfs-reference 20.2; docs/generate.md): asks its questions on the
 * terminal and writes the submission file.  The questions and the file are
 * the submit layer's (submit/sb.h).  Exit codes: 0 written (or [3] Exit),
 * 1 the input ended first, 2 the file could not be written or bad usage.
 */
#include <stdio.h>

#include "common/opt.h"
#include "submit/sb.h"

int main(int argc, char **argv)
{
    const struct cm_opt *bad = NULL;
    char err[CM_ERR_LEN];
    int first = argc, rc;

    /* no options beyond --help: every answer is asked for */
    rc = cm_opt_parse_argv(NULL, 0, NULL, NULL, argc, argv, &first, &bad, err,
                           sizeof(err));
    if (rc == 1) {
        printf("usage: sfs_generate\n"
               "Asks for the static information (or a YAML file of it), the rc file and\n"
               "the sfssum file of a run, and each client's type and network; writes a\n"
               "submission file with every disclosure item (docs/generate.md).\n");
        return SB_EXIT_OK;
    }
    if (rc == 0 && first < argc)
        rc = cm_errf(err, sizeof(err), "unexpected argument '%s'", argv[first]);
    if (rc < 0) {
        fprintf(stderr, "sfs_generate: %s (try --help)\n", err);
        return SB_EXIT_WRITE;
    }
    return sb_session(stdin, stdout, stderr);
}
