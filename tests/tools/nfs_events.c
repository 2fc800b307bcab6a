/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs_events.c - integration helper: reads an NFS trace (capture or
 * nfsdump) with src/trace/tr_nfs.h and prints, per message, the fields the
 * tests compare with tshark's independent decode, one tab-separated line
 * for the call and one for the reply:
 *
 *   C FRAME EPOCH XID PROG VERS PROC FH NAME OFFSET COUNT FLAGS
 *   R FRAME EPOCH XID PROG VERS PROC STATUS RES_FH RES_COUNT RPC_STATUS FLAGS
 *
 * (handles in hex, "-" for none; EPOCH with 9 decimals), then the reader's
 * counters as "# name value" lines.  With -e it prints the whole event on
 * one line instead (every field, for round-trip comparisons).  With -4
 * NFSv4 COMPOUNDs are events too (tr_nfs_options.nfsv4): after their C
 * and R lines, one line for the COMPOUND and one per operation:
 *
 *   V FRAME XID MINOR NOPS_CALL NOPS NRES STATUS FLAGS SESSION SEQ SLOT CLIENTID
 *   O FRAME XID INDEX OP FLAGS STATUS FH FH2 RES_FH FH_ID FH2_ID RES_FH_ID
 *     NAME NAME2 TEXT OFFSET COUNT RES_COUNT STATEID RES_STATEID CLIENTID
 *     SIZE NENTRIES
 *
 * (a stateid as SEQID:OTHER in hex, SIZE the GETATTR's size or "-").
 * Exit 0, or 1 with the reader's message.
 *
 *   nfs_events [-e] [-l] [-4] [-f pcap|nfsdump] TRACE
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/tr_nfs.h"

static void hex(const struct nf_fh *fh)
{
    uint32_t i;

    if (!fh->len) {
        printf("-");
        return;
    }
    for (i = 0; i < fh->len; i++)
        printf("%02x", fh->data[i]);
}

static void attr(const char *tag, const struct tr_nfs_attr *a)
{
    printf(" %s=%x/%u/%o/%u/%u/%u/%" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
           "/%" PRId64 "/%" PRId64 "/%" PRId64,
           tag, a->have, (unsigned)a->type, a->mode, a->nlink, a->uid, a->gid, a->size,
           a->used, a->fsid, a->fileid, a->atime_ns, a->mtime_ns, a->ctime_ns);
}

static void epoch(int64_t ns)
{
    printf("%" PRId64 ".%09" PRId64, ns / 1000000000, ns % 1000000000);
}

static void whole(const struct tr_nfs_reader *r, const struct tr_nfs_event *e)
{
    char c[64], s[64];
    uint32_t i;

    printf("t=%" PRId64 " rt=%" PRId64 " %s:%u %s:%u %c conn=%u %u/%u/%u op=%d xid=%x "
           "fl=%x cred=%u/%u fh=",
           e->t_ns, e->reply_t_ns, tr_nfs_client_name(r, e->client, c, sizeof(c)),
           e->client_port, tr_nfs_client_name(r, e->server, s, sizeof(s)), e->server_port,
           e->transport == TR_NFS_TCP ? 'T' : 'U', e->conn, e->prog, e->vers, e->proc,
           e->op, e->xid, e->flags, e->uid, e->gid);
    hex(&e->fh);
    printf(" fh2=");
    hex(&e->fh2);
    printf(" name=%s name2=%s text=%s off=%" PRIu64 " count=%u stable=%u access=%u",
           e->name ? e->name : "(null)", e->name2 ? e->name2 : "(null)",
           e->text ? e->text : "(null)", e->offset, e->count, e->stable, e->access);
    attr("sattr", &e->sattr);
    printf(" rpc=%u status=%u res_fh=", e->rpc_status, e->status);
    hex(&e->res_fh);
    attr("attr", &e->attr);
    attr("pre", &e->pre);
    attr("dir", &e->dir_attr);
    printf(" rc=%u racc=%u com=%u eof=%d n=%u", e->res_count, e->res_access, e->committed,
           e->eof, e->nentries);
    for (i = 0; i < e->nentries; i++) {
        printf(" [%s %" PRIu64 " ", e->entries[i].name, e->entries[i].fileid);
        hex(&e->entries[i].fh);
        attr("a", &e->entries[i].attr);
        printf("]");
    }
    printf("\n");
}

static void stateid(const struct tr_nfs4_stateid *st, int have)
{
    unsigned i;

    if (!have) {
        printf("-");
        return;
    }
    printf("%x:", st->seqid);
    for (i = 0; i < sizeof(st->other); i++)
        printf("%02x", st->other[i]);
}

static const char *str(const char *s)
{
    return s ? s : "-";
}

static void v4(const struct tr_nfs_event *e)
{
    const struct tr_nfs4_compound *c = e->v4;
    uint32_t i, k;

    printf("V\t%" PRIu64 "\t%x\t%u\t%u\t%u\t%u\t%u\t%x\t", e->where, e->xid, c->minor,
           c->nops_call, c->nops, c->nres, c->status, c->flags);
    if (c->flags & TR_NFS4_C_SEQUENCE) {
        for (k = 0; k < sizeof(c->sessionid); k++)
            printf("%02x", c->sessionid[k]);
        printf("\t%u\t%u", c->sequenceid, c->slotid);
    } else {
        printf("-\t-\t-");
    }
    printf("\t%" PRIx64 "\n", (c->flags & TR_NFS4_C_CLIENTID) ? c->clientid : 0);
    for (i = 0; i < c->nops; i++) {
        const struct tr_nfs4_op *op = &c->ops[i];
        printf("O\t%" PRIu64 "\t%x\t%u\t%u\t%x\t%u\t", e->where, e->xid, i, op->op,
               op->flags, op->status);
        hex((op->flags & TR_NFS4_O_FH) ? &op->fh : &(struct nf_fh){0});
        printf("\t");
        hex((op->flags & TR_NFS4_O_FH2) ? &op->fh2 : &(struct nf_fh){0});
        printf("\t");
        hex((op->flags & TR_NFS4_O_RES_FH) ? &op->res_fh : &(struct nf_fh){0});
        printf("\t%u\t%u\t%u\t%s\t%s\t%s\t%" PRIu64 "\t%u\t%u\t", op->fh_id, op->fh2_id,
               op->res_fh_id, str(op->name), str(op->name2), str(op->text), op->offset,
               op->count, op->res_count);
        stateid(&op->stateid, op->flags & TR_NFS4_O_STATEID);
        printf("\t");
        stateid(&op->res_stateid, op->flags & TR_NFS4_O_RES_STATEID);
        printf("\t%" PRIx64 "\t", (op->flags & TR_NFS4_O_CLIENTID) ? op->clientid : 0);
        if (op->attr.have & TR_NFS_A_SIZE)
            printf("%" PRIu64, op->attr.size);
        else
            printf("-");
        printf("\t%u\n", op->nentries);
    }
}

int main(int argc, char **argv)
{
    struct tr_nfs_options o = {0};
    struct tr_nfs_reader *r;
    struct tr_nfs_event e;
    const struct tr_counter *c;
    char err[CM_ERR_LEN];
    int opt, all = 0, rc;
    unsigned n, i;

    while ((opt = getopt(argc, argv, "el4f:")) != -1) {
        if (opt == 'e')
            all = 1;
        else if (opt == '4')
            o.nfsv4 = 1;
        else if (opt == 'l')
            o.lenient = 1;
        else if (opt == 'f')
            o.format = optarg;
        else
            return 2;
    }
    if (optind != argc - 1) {
        fprintf(stderr, "usage: nfs_events [-e] [-l] [-4] [-f pcap|nfsdump] TRACE\n");
        return 2;
    }
    if (tr_nfs_open(&r, argv[optind], &o, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    while ((rc = tr_nfs_next(r, &e)) > 0) {
        int64_t org = tr_nfs_origin_ns(r);
        if (all) {
            whole(r, &e);
            continue;
        }
        printf("C\t%" PRIu64 "\t", e.where);
        epoch(org + e.t_ns);
        printf("\t%x\t%u\t%u\t%u\t", e.xid, e.prog, e.vers, e.proc);
        hex(&e.fh);
        printf("\t%s\t%" PRIu64 "\t%u\t%x\n",
               e.name    ? e.name
               : e.name2 ? e.name2
                         : "-",
               e.offset, e.count, e.flags);
        if (e.flags & TR_NFS_F_REPLY) {
            printf("R\t%" PRIu64 "\t", e.reply_where);
            epoch(org + e.reply_t_ns);
            printf("\t%x\t%u\t%u\t%u\t%u\t", e.xid, e.prog, e.vers, e.proc, e.status);
            hex(&e.res_fh);
            printf("\t%u\t%u\t%x\n", e.res_count, e.rpc_status, e.flags);
        }
        if (e.v4)
            v4(&e);
    }
    if (rc < 0) {
        fprintf(stderr, "%s\n", tr_nfs_error(r));
        tr_nfs_close(r);
        return 1;
    }
    c = tr_nfs_counters(r, &n);
    for (i = 0; i < n; i++)
        printf("# %s %" PRIu64 "\n", c[i].name, c[i].n);
    printf("# format %s\n", tr_nfs_format(r));
    tr_nfs_close(r);
    return 0;
}
