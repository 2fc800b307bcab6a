/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dump.c - the -z raw dump (sy_int.h, docs/SFS30.md §16.6).  Column widths
 * are SFS's: name 11, response 8.3, start 19.3, unique id 8, then length 8,
 * offset 8, count 5.  Unlike SFS (whose read/write test compared op numbers
 * with NFS procedure numbers, docs/SFS30.md §16.6) rows are tagged by the SFS op.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "synth/sy_int.h"
#include "common/alloc.h"

struct sy_dump {
    FILE *fp;
    char path[1024];
};

static const char rule[] =
    "-----------------------------------------------------------------------------\n";

struct sy_dump *sy_dump_open(unsigned client, unsigned child, char *err, size_t errlen)
{
    const char *dir = getenv("TMPDIR");
    struct sy_dump *d = cm_calloc(1, sizeof(*d));

    if (d == NULL) {
        cm_errf(err, errlen, "dump: out of memory");
        return NULL;
    }
    snprintf(d->path, sizeof(d->path), "%s/c%03u-p%03u", dir && *dir ? dir : "/tmp",
             client, child);
    d->fp = fopen(d->path, "w");
    if (d->fp == NULL) {
        cm_errf(err, errlen, "%s: %s", d->path, strerror(errno));
        free(d);
        return NULL;
    }
    fputs(rule, d->fp);
    fprintf(d->fp, "%-11s %8s %19s %8s %8s %8s %5s\n", "Op Code", "Response",
            "Start Time", "Unique", "File", "Offset", "Size");
    fprintf(d->fp, "%-11s %8s %19s %8s %8s %8s %5s\n", "", "Time", "", "File Id",
            "Length", "", "");
    fputs(rule, d->fp);
    return d;
}

void sy_dump_call(struct sy_dump *d, const struct sy_child *c, const struct sy_slot *s,
                  uint64_t ns)
{
    double start_ms = s->call->t_send_ns > c->phase_start_ns
                          ? (s->call->t_send_ns - c->phase_start_ns) / 1e6
                          : 0.0;
    uint32_t unique = s->file != UINT32_MAX ? c->files.f[s->file].unique : 0;

    fprintf(d->fp, "%-11s %8.3f %19.3f %8u", nf_op_name(s->op), ns / 1e6, start_ms,
            unique);
    if (s->op == NF_OP_READ || s->op == NF_OP_WRITE)
        fprintf(d->fp, " %8llu %8llu %5u\n", (unsigned long long)c->files.f[s->file].size,
                (unsigned long long)s->offset, s->len);
    else if (s->op == NF_OP_SETATTR && c->req.truncate)
        fputs(" TRUNCATE\n", d->fp);
    else if (s->op == NF_OP_CREATE && c->req.existed)
        fputs(" CREATE_EXISTING\n", d->fp);
    else
        fputc('\n', d->fp);
}

const char *sy_dump_path(const struct sy_dump *d)
{
    return d->path;
}

int sy_dump_close(struct sy_dump *d)
{
    int rc = 0;

    if (d == NULL)
        return 0;
    if (ferror(d->fp) || fclose(d->fp) != 0)
        rc = -EIO;
    free(d);
    return rc;
}
