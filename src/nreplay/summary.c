/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * summary.c - what a plan holds, op by op (nr.h, for sfs_trace plan): its
 * calls per SFS op, read once from the plan file, the calls not
 * replayable by reason and, of an NFSv4 plan, the opens the trace shows
 * only in use, from its trailer - what a test or a user compares with
 * another decoder's count of the capture.
 */
#include <stdio.h>
#include <string.h>

#include "nreplay/nr_int.h"

int nr_plan_summary(const struct nr_plan *p, char *buf, size_t len, char *err,
                    size_t errlen)
{
    uint64_t per_op[NF_NOPS] = {0};
    struct nr_stream in;
    struct nr_call c;
    size_t at = 0;
    unsigned k, n = 0;
    int rc = nr_stream_open(&in, p, 0, err, errlen);

    if (rc < 0)
        return rc;
    while ((rc = nr_stream_next(&in, &c, err, errlen)) > 0)
        if (c.v4 == NR_V4_CALL && c.op >= 0 && c.op < NF_NOPS)
            per_op[c.op]++;
    nr_stream_close(&in);
    if (rc < 0)
        return rc;
    buf[0] = '\0';
    at += (size_t)snprintf(buf + at, len - at, "calls:");
    for (k = 0; k < NF_NOPS && at < len; k++)
        if (per_op[k])
            at += (size_t)snprintf(buf + at, len - at, "%s %s %llu", n++ ? "," : "",
                                   nf_op_name((int)k), (unsigned long long)per_op[k]);
    for (k = 1, n = 0; k < NR_NSKIPS && at < len; k++)
        if (p->skipped[k])
            at += (size_t)snprintf(buf + at, len - at, "%s %s %llu",
                                   n++ ? "," : "; not replayable:", nr_skip_name(k),
                                   (unsigned long long)p->skipped[k]);
    if (p->nfs_version == 4 && at < len)
        snprintf(buf + at, len - at, "; opens in use before the trace: %llu",
                 (unsigned long long)p->v4_opens_in_use);
    return 0;
}
