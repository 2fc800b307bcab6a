/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs_live.c - what sfs_trace adds to an NFS trace's reading: a live
 * capture opened from the command line (--interface, the filter given or
 * made from the server's mount point, the bounds, the pcapng kept), the
 * progress lines (--progress SEC: calls/s, the top procedures, response
 * times and the capture's drops of each interval), and the capture's drop
 * figures as the reports state them (the headline of a capture that
 * dropped packets says so).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/az_nfs.h"
#include "analyze/cli_int.h"
#include "common/error.h"
#include "nfs/nf_spec.h"

#define NFS_PORT 2049

/* ---- drops as the reports state them ------------------------------------- */

const char *az_nfs_capture_text(const struct tr_nfs_reader *r, char *buf, size_t len)
{
    struct tr_nfs_drops d;
    uint64_t lost;

    if (tr_nfs_live_drops(r, &d) < 0)
        return NULL;
    lost = d.dropped + d.if_dropped;
    if (lost == 0)
        snprintf(buf, len, "%" PRIu64 " packets, none dropped",
                 tr_nfs_counter(r, "packets"));
    else
        snprintf(buf, len,
                 "%" PRIu64 " packets, %" PRIu64 " DROPPED (%" PRIu64
                 " by the kernel, %" PRIu64
                 " by the interface): the figures below miss them",
                 tr_nfs_counter(r, "packets"), lost, d.dropped, d.if_dropped);
    return buf;
}

void az_nfs_capture_yaml(struct cm_yaml *y, const struct tr_nfs_reader *r)
{
    struct tr_nfs_drops d;

    if (tr_nfs_live_drops(r, &d) < 0)
        return;
    cm_yaml_key(y, "capture");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "packets", tr_nfs_counter(r, "packets"));
    cm_yaml_kv_uint(y, "received", d.received);
    cm_yaml_kv_uint(y, "dropped_kernel", d.dropped);
    cm_yaml_kv_uint(y, "dropped_interface", d.if_dropped);
    cm_yaml_map_end(y);
}

/* ---- progress lines ------------------------------------------------------ */

#define TOP_ROWS 3 /* procedures named on a line */

static void progress_line(struct az__progress *p, int64_t end_abs)
{
    double secs = (double)p->every_ns / 1e9;
    uint64_t shown[TOP_ROWS] = {0};
    int top[TOP_ROWS], i, k, n = 0;
    struct tr_nfs_drops d;

    fprintf(p->diag, "sfs_trace: %.1f s: %.1f calls/s",
            (double)(end_abs - p->start_abs) / 1e9, (double)p->calls / secs);
    /* the largest rows, ties to the lower row */
    for (k = 0; k < TOP_ROWS; k++) {
        top[k] = -1;
        for (i = 0; i < AZ_NFS_ROWS; i++) {
            int taken = 0, j;
            for (j = 0; j < k; j++)
                taken |= top[j] == i;
            if (!taken && p->row[i] > 0 && (top[k] < 0 || p->row[i] > shown[k])) {
                top[k] = i;
                shown[k] = p->row[i];
            }
        }
        if (top[k] >= 0)
            n++;
    }
    for (k = 0; k < n; k++)
        fprintf(p->diag, "%s %s %.0f%%", k ? "," : ";", az_nfs_row_name(top[k]),
                100.0 * (double)shown[k] / (double)p->calls);
    if (p->rt.count)
        fprintf(p->diag, "; response mean %.3f ms, p99 %.3f ms",
                p->rt_sum_ms / (double)p->rt.count, cm_hist_quantile_ms(&p->rt, 0.99));
    if (p->reader && tr_nfs_live_drops(p->reader, &d) == 0)
        fprintf(p->diag, "; %" PRIu64 " dropped", d.dropped + d.if_dropped);
    fprintf(p->diag, "\n");
    fflush(p->diag);
    p->calls = 0;
    p->rt_sum_ms = 0;
    memset(p->row, 0, sizeof(p->row));
    memset(&p->rt, 0, sizeof(p->rt));
}

/* Prints the intervals that ended before now_abs. */
static void progress_until(struct az__progress *p, int64_t now_abs)
{
    while (now_abs >= p->next_abs) {
        progress_line(p, p->next_abs);
        p->next_abs += p->every_ns;
    }
}

void az__progress_event(struct az__progress *p, const struct tr_nfs_event *ev)
{
    int row;

    if (p->every_ns <= 0)
        return;
    if (!p->live) { /* the trace's own time drives the lines */
        int64_t abs = tr_nfs_origin_ns(p->reader) + ev->t_ns;
        if (!p->started) {
            p->start_abs = abs;
            p->next_abs = abs + p->every_ns;
            p->started = 1;
        }
        progress_until(p, abs);
    }
    p->calls++;
    row = az_nfs_row(ev);
    if (row >= 0)
        p->row[row]++;
    if ((ev->flags & TR_NFS_F_REPLY) && ev->reply_t_ns >= ev->t_ns) {
        int64_t ns = ev->reply_t_ns - ev->t_ns;
        cm_hist_add(&p->rt, (uint64_t)(ns / 1000));
        p->rt_sum_ms += (double)ns / 1e6;
    }
}

/* A live capture's clock (tr_nfs_live.tick). */
static void progress_tick(void *data, int64_t now_ns)
{
    struct az__progress *p = data;

    if (!p->started) {
        p->start_abs = now_ns;
        p->next_abs = now_ns + p->every_ns;
        p->started = 1;
    }
    progress_until(p, now_ns);
}

/* ---- opening -------------------------------------------------------------- */

const char *az__nfs_trace_name(const struct az_cli *c)
{
    return c->interface[0] ? c->interface : c->trace;
}

/* The capture's filter: --filter, or the mount point's host and ports (the
 * IPv4 fragments after the first carry no port: a large UDP READ reply's
 * rest), or none. */
static int live_filter(const struct az_cli *c, char *buf, size_t len, char *err,
                       size_t errlen)
{
    struct nf_mount_spec spec;
    char ports[64];

    if (c->filter[0] || !c->trace) {
        snprintf(buf, len, "%s", c->filter);
        return 0;
    }
    if (nf_parse_mount_spec(c->trace, &spec, err, errlen) < 0)
        return -EINVAL;
    if (spec.mount_port && spec.mount_port != spec.nfs_port)
        snprintf(ports, sizeof(ports), "port %u or port %u",
                 (unsigned)(spec.nfs_port ? spec.nfs_port : NFS_PORT),
                 (unsigned)spec.mount_port);
    else
        snprintf(ports, sizeof(ports), "port %u",
                 (unsigned)(spec.nfs_port ? spec.nfs_port : NFS_PORT));
    snprintf(buf, len, "host %s and (%s or (ip and ip[6:2] & 0x1fff != 0))", spec.host,
             ports);
    return 0;
}

int az__nfs_open(const struct az_cli *c, const char *format, struct az__progress *p,
                 struct tr_nfs_reader **r, FILE *diag)
{
    struct tr_nfs_options o = {.format = format,
                               .lenient = c->lenient,
                               .pair_window_ns = (int64_t)(c->pair_window * 1e9),
                               .warn = az__cli_warning,
                               .warn_data = p->warn,
                               .nfsv4 = 1};
    char err[CM_ERR_LEN], filter[sizeof(c->filter) + 512];
    struct tr_nfs_live lv;
    int rc;

    p->diag = diag;
    p->every_ns = (int64_t)(c->progress * 1e9);
    if (!c->interface[0]) {
        if ((rc = tr_nfs_open(r, c->trace, &o, err, sizeof(err))) < 0)
            fprintf(diag, "%s\n", err);
        p->reader = *r;
        return rc;
    }
    if ((rc = live_filter(c, filter, sizeof(filter), err, sizeof(err))) < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        return rc;
    }
    memset(&lv, 0, sizeof(lv));
    lv.interface = c->interface;
    lv.filter = filter;
    lv.duration_ns = (int64_t)(c->duration * 1e9);
    lv.count = (uint64_t)c->count;
    lv.write = c->write;
    lv.buffer_mb = (uint32_t)c->buffer_mb;
    lv.stop = c->stop;
    p->live = 1;
    if (p->every_ns > 0) {
        lv.tick = progress_tick;
        lv.tick_data = p;
    }
    rc = tr_nfs_open_live(r, &lv, &o, err, sizeof(err));
    if (rc < 0) {
        fprintf(diag, "sfs_trace: %s\n", err);
        return rc;
    }
    p->reader = *r;
    fprintf(diag, "sfs_trace: capturing on %s%s%s%s\n", c->interface,
            filter[0] ? " (filter: " : "", filter, filter[0] ? ")" : "");
    return 0;
}
