/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs_stats.c - statistics of an NFS trace for `sfs_trace stats`: calls
 * and replies per procedure (the SFS op names) and per client host, NFS
 * versions and transports, bytes read (returned by READ replies) and
 * written (sent by WRITE calls), the traced server's response time per
 * procedure from the call's and the reply's stamps (sum, minimum and
 * maximum exact; percentiles from common/hist.c's log-linear histogram),
 * error replies by procedure and status, unanswered and retransmitted
 * calls.  Every event costs the same; memory grows with the client hosts
 * only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "analyze/az_nfs.h"

static const char *const mount_names[AZ_NFS_MOUNT_PROCS] = {
    "null", "mnt", "dump", "umnt", "umntall", "export", "exportall"};

void az_nfs_stats_init(struct az_nfs_stats *s)
{
    unsigned i;

    memset(s, 0, sizeof(*s));
    for (i = 0; i < AZ_NFS_ROWS; i++)
        s->proc[i].rt_min_ns = INT64_MAX;
}

void az_nfs_stats_free(struct az_nfs_stats *s)
{
    az_nfs4_stats_free(s->v4);
    s->v4 = NULL;
    free(s->clients);
    s->clients = NULL;
    s->nclients = 0;
}

int az_nfs_row(const struct tr_nfs_event *ev)
{
    if (ev->prog == TR_NFS_PROG_MOUNT)
        return ev->proc < AZ_NFS_MOUNT_PROCS ? NF_NOPS + (int)ev->proc : -1;
    if (ev->prog == TR_NFS_PROG_NFS && ev->op >= 0 && ev->op < NF_NOPS)
        return ev->op;
    return -1;
}

const char *az_nfs_row_name(int row)
{
    if (row >= 0 && row < NF_NOPS)
        return nf_op_name(row);
    if (row >= NF_NOPS && row < AZ_NFS_ROWS)
        return mount_names[row - NF_NOPS];
    return "unknown";
}

static struct az_nfs_client *client_of(struct az_nfs_stats *s, uint32_t i)
{
    if (i >= s->nclients) {
        uint32_t n = i + 1 > s->nclients * 2 ? i + 1 : s->nclients * 2;
        struct az_nfs_client *c = cm_reallocarray(s->clients, n, sizeof(*c));
        if (!c)
            return NULL;
        memset(c + s->nclients, 0, (n - s->nclients) * sizeof(*c));
        s->clients = c;
        s->nclients = n;
    }
    return &s->clients[i];
}

int az_nfs_stats_event(struct az_nfs_stats *s, const struct tr_nfs_event *ev)
{
    int row = az_nfs_row(ev), reply = (ev->flags & TR_NFS_F_REPLY) != 0;
    struct az_nfs_client *c = client_of(s, ev->client);
    struct az_nfs_proc *p = row >= 0 ? &s->proc[row] : NULL;
    int64_t end = reply && ev->reply_t_ns > ev->t_ns ? ev->reply_t_ns : ev->t_ns;

    if (!c)
        return cm_errf(s->last_error, sizeof(s->last_error), "out of memory"), -ENOMEM;
    if (!s->any || ev->t_ns < s->first_ns)
        s->first_ns = ev->t_ns;
    if (!s->any || end > s->last_ns)
        s->last_ns = end;
    s->any = 1;
    s->calls++;
    c->calls++;
    if (ev->prog == TR_NFS_PROG_MOUNT)
        s->mount_calls++;
    else if (ev->vers <= 4)
        s->by_version[ev->vers]++;
    if (ev->transport == TR_NFS_TCP)
        s->tcp_calls++;
    else
        s->udp_calls++;
    if (p)
        p->calls++;
    if (ev->flags & TR_NFS_F_RETRANS) {
        s->retransmitted++;
        if (p)
            p->retransmitted++;
    }
    if (ev->prog == TR_NFS_PROG_NFS && ev->vers == 4) {
        uint64_t rd, wr;
        if (az_nfs4_stats_event(s, ev, &rd, &wr) < 0)
            return cm_errf(s->last_error, sizeof(s->last_error), "out of memory"),
                   -ENOMEM;
        s->bytes_read += rd;
        c->bytes_read += rd;
        s->bytes_written += wr;
        c->bytes_written += wr;
    }
    if (row == NF_OP_WRITE) {
        s->bytes_written += ev->count;
        c->bytes_written += ev->count;
        p->bytes += ev->count;
    }
    if (!reply) {
        s->unanswered++;
        c->unanswered++;
        if (p)
            p->unanswered++;
        return 0;
    }
    s->replies++;
    c->replies++;
    if (p)
        az__nfs_proc_reply(p, ev->reply_t_ns - ev->t_ns);
    if (ev->rpc_status != TR_NFS_RPC_SUCCESS) {
        s->rpc_errors++;
        c->errors++;
        if (p)
            p->rpc_errors++;
        return 0;
    }
    if (ev->status != 0) {
        s->errors++;
        c->errors++;
        if (p) {
            p->errors++;
            az__nfs_err_count(s->err, &s->nerr, &s->err_other, (uint32_t)row, ev->status);
        }
        return 0;
    }
    if (row == NF_OP_READ) {
        s->bytes_read += ev->res_count;
        c->bytes_read += ev->res_count;
        p->bytes += ev->res_count;
    }
    return 0;
}
