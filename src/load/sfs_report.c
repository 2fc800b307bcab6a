/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_report.c - the SFS 3.0 mix's part of the results (report.h): it asks
 * for -l's load, its mix is a target (the table's Target column), SFS's
 * rules judge it (validity.c: ld_validity_sfs) and its realised mix and
 * pacing lines follow the summary (text.c: ld_report_sfs_lines).  A table
 * of its own, so that the report's files reach each other only one way.
 */
#include <stddef.h>

#include "load/report.h"

const struct ld_report_ops ld_sfs_report = {
    .flags = LD_REPORT_LOAD | LD_REPORT_MIX,
    .validity = ld_validity_sfs,
    .lines = ld_report_sfs_lines,
};
