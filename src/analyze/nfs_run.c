/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs_run.c - sfs_trace on NFS traces (packet captures and nfsdump text,
 * src/trace/tr_nfs.h): which format a trace is (--format, or detected from
 * its first bytes), and `convert --to nfsdump [--anonymize KEY]`, the
 * reader's events written as nfsdump text through the trace layer's writer,
 * atomically, with a one-line summary of what was read and skipped.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/cli_int.h"
#include "common/cm.h"
#include "common/error.h"
#include "common/atomic.h"
#include "trace/tr_nfs.h"

#define PROBE_BYTES 4096

const char *az_nfs_format(const struct az_cli *c)
{
    unsigned char buf[PROBE_BYTES];
    const char *fmt = NULL;
    size_t n;
    FILE *fp;

    if (strcmp(c->format, "pcap") == 0 || strcmp(c->format, "nfsdump") == 0)
        return c->format;
    if (strcmp(c->format, "auto") != 0 || strcmp(c->trace, "-") == 0)
        return NULL;
    fp = fopen(c->trace, "rb");
    if (!fp)
        return NULL; /* the block readers say why */
    n = fread(buf, 1, sizeof(buf), fp);
    fclose(fp);
    return tr_nfs_probe(buf, n, &fmt) ? fmt : NULL;
}

/* What NFSv4 a conversion left out: nfsdump has no form for it. */
struct v4_left {
    uint64_t calls, compounds, ops;
};

/* What was read and what could not be used, on one line. */
static void summary(FILE *diag, const struct tr_nfs_reader *r, uint64_t events,
                    const struct v4_left *v4)
{
    static const char *const noted[] = {"unanswered_calls",
                                        "replies_without_calls",
                                        "retransmissions",
                                        "nfsv4_calls",
                                        "other_rpc_calls",
                                        "calls_cut",
                                        "replies_cut",
                                        "undecodable_calls",
                                        "undecodable_replies",
                                        "skipped_lines",
                                        "tcp_gaps",
                                        "truncated_records",
                                        "calls_released_early",
                                        "entries_cut"};
    size_t i;

    fprintf(diag, "sfs_trace: convert: %" PRIu64 " calls written as nfsdump (%s)", events,
            tr_nfs_format(r));
    if (v4->calls)
        fprintf(diag,
                "; %" PRIu64 " NFSv4 calls not written (%" PRIu64 " COMPOUNDs of %" PRIu64
                " operations): nfsdump has no NFSv4 form",
                v4->calls, v4->compounds, v4->ops);
    for (i = 0; i < CM_ARRAY_LEN(noted); i++) {
        uint64_t n = tr_nfs_counter(r, noted[i]);
        if (n)
            fprintf(diag, "; %s %" PRIu64, noted[i], n);
    }
    fprintf(diag, "\n");
}

int az_nfs_convert(struct az_cli *c, const char *format, FILE *out, FILE *diag)
{
    struct az__warn_state ws = {diag, 0};
    struct tr_nfs_options o = {.format = format,
                               .lenient = c->lenient,
                               .pair_window_ns = (int64_t)(c->pair_window * 1e9),
                               .warn = az__cli_warning,
                               .warn_data = &ws,
                               .nfsv4 = 1}; /* to count what is left out */
    struct v4_left v4 = {0, 0, 0};
    struct tr_nfs_write_options wo = {.anon_key = c->anonymize};
    struct tr_nfs_reader *r;
    struct tr_nfs_writer *w;
    struct tr_nfs_event ev;
    struct cm_atomic_file af;
    char err[CM_ERR_LEN];
    int to_file = strcmp(c->output, "-") != 0, rc;
    uint64_t events = 0;

    if (strcmp(c->to, "nfsdump") != 0) {
        fprintf(diag, "sfs_trace: convert: an NFS trace converts --to nfsdump only\n");
        return AZ_EXIT_USAGE;
    }
    if (tr_nfs_open(&r, c->trace, &o, err, sizeof(err)) < 0) {
        fprintf(diag, "%s\n", err);
        return AZ_EXIT_INPUT;
    }
    if (to_file && cm_atomic_open(&af, c->output, err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        tr_nfs_close(r);
        return AZ_EXIT_INPUT;
    }
    rc = tr_nfs_writer_open(&w, to_file ? af.fp : out, r, &wo, err, sizeof(err));
    if (rc < 0)
        fprintf(diag, "sfs_trace: %s\n", err);
    while (rc == 0) {
        int n = tr_nfs_next(r, &ev);
        if (n == 0)
            break;
        if (n < 0) {
            fprintf(diag, "%s\n", tr_nfs_error(r));
            rc = n;
            break;
        }
        if (ev.prog == TR_NFS_PROG_NFS && ev.vers == 4) {
            v4.calls++;
            v4.compounds += ev.v4 != NULL;
            v4.ops += ev.v4 ? ev.v4->nops : 0;
            continue;
        }
        events++;
        rc = tr_nfs_write(w, &ev);
        if (rc < 0)
            fprintf(diag, "sfs_trace: %s: %s\n", c->output, strerror(-rc));
    }
    if (w && tr_nfs_writer_close(w, err, sizeof(err)) < 0 && rc == 0) {
        fprintf(diag, "sfs_trace: %s: %s\n", c->output, err);
        rc = -EIO;
    }
    if (to_file && rc < 0)
        cm_atomic_abort(&af);
    else if (to_file && cm_atomic_commit(&af, err, sizeof(err)) < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        rc = -EIO;
    }
    if (rc == 0)
        summary(diag, r, events, &v4);
    tr_nfs_close(r);
    return rc < 0 ? AZ_EXIT_INPUT : AZ_EXIT_OK;
}
