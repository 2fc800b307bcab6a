/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fit_v4.c - an NFSv4 COMPOUND fitted as the SFS op it carries
 * (az_fit_v4_event).  A client sends one COMPOUND for one piece of work:
 * after SEQUENCE (4.1, 4.2) and the filehandle operations that set it up
 * (PUTFH, PUTROOTFH, PUTPUBFH, GETFH, SAVEFH, RESTOREFH), its first other
 * operation says what it does (docs/nfsv4.md, "The SFS mix over NFSv4":
 * SEQUENCE PUTFH GETATTR is a getattr, SEQUENCE PUTFH READ a read,
 * SEQUENCE PUTFH SAVEFH PUTFH RENAME a rename); the GETATTR after a change
 * only refreshes the client's cache.  That operation, as the NFSv3-shaped
 * event of the same SFS op (tr_nfs4_op_event), is counted as the
 * COMPOUND's call; every operation goes to the image.
 *
 * Apart: an OPEN that creates nothing and a CLOSE are the state a v4
 * client keeps around its READs and WRITEs, which SFS's model has no op
 * for (its v4 client opens a file before its first READ or WRITE), so
 * they are counted and stated, not mixed; an OPEN that creates is a
 * create.  fsstat, fsinfo and pathconf are GETATTRs of other attributes,
 * which the reader does not keep: all are getattrs, and the report says
 * so.  Every other COMPOUND (EXCHANGE_ID, CREATE_SESSION, a lone
 * SEQUENCE that renews the lease, LOCK, DELEGRETURN...) is not mapped:
 * counted by its leading operation's name.
 */
#include <errno.h>
#include <string.h>

#include "analyze/az_fit.h"
#include "nfs/nf4.h"
#include "nfs4_prot.h"

/* The operations that only set up the current and saved handles. */
static int handle_setup(uint32_t op)
{
    return op == OP_SEQUENCE || op == OP_PUTFH || op == OP_PUTROOTFH ||
           op == OP_PUTPUBFH || op == OP_GETFH || op == OP_SAVEFH || op == OP_RESTOREFH;
}

/* The index of the operation that says what c does; c->nops when only
 * handle setup (then the first operation names it). */
static uint32_t leading(const struct tr_nfs4_compound *c)
{
    uint32_t i;

    for (i = 0; i < c->nops; i++)
        if (!handle_setup(c->ops[i].op))
            return i;
    return c->nops;
}

static void unmapped(struct az_fit_counts *c, const char *name)
{
    uint32_t i;

    for (i = 0; i < c->nv4_unmapped; i++)
        if (strcmp(c->v4_unmapped[i].name, name) == 0) {
            c->v4_unmapped[i].n++;
            return;
        }
    if (c->nv4_unmapped == AZ_FIT_V4_NAMES) {
        c->v4_unmapped_other++;
        return;
    }
    snprintf(c->v4_unmapped[i].name, sizeof(c->v4_unmapped[i].name), "%s", name);
    c->v4_unmapped[i].n = 1;
    c->nv4_unmapped++;
}

/* Operation i as its SFS op's event.  One that did not run (an earlier
 * operation failed) is still the call the client made: its arguments,
 * with the COMPOUND's failing status.  0 when it has no such form. */
static int lowered(const struct tr_nfs_event *ev, uint32_t i, struct tr_nfs_event *out)
{
    struct tr_nfs_event call;

    if (tr_nfs4_op_event(ev, i, out))
        return 1;
    if (!(ev->flags & TR_NFS_F_REPLY))
        return 0;
    call = *ev;
    call.flags &= ~TR_NFS_F_REPLY;
    if (!tr_nfs4_op_event(&call, i, out))
        return 0;
    out->flags |= ev->flags & TR_NFS_F_REPLY;
    out->reply_t_ns = ev->reply_t_ns;
    out->status = ev->v4->status;
    return 1;
}

/* READDIR asking for the entries' handles is what `ls -l` and SFS's
 * readdirplus send; without them a readdir. */
static int readdir_op(const struct tr_nfs_event *op)
{
    uint32_t k;

    if (!(op->flags & TR_NFS_F_REPLY))
        return NF_OP_READDIRPLUS; /* unknown: as v4 clients mostly list */
    for (k = 0; k < op->nentries; k++)
        if (op->entries[k].fh.len)
            return NF_OP_READDIRPLUS;
    return op->nentries ? NF_OP_READDIR : NF_OP_READDIRPLUS;
}

int az_fit_v4_event(struct az_fit *f, const struct tr_nfs_event *ev)
{
    const struct tr_nfs4_compound *c = ev->v4;
    struct az_fit_counts *n = &f->c;
    struct tr_nfs_event op;
    uint32_t i, lead;

    n->v4_compounds++;
    if (!c && ev->proc != 0) {
        unmapped(n, "COMPOUND (not decoded)");
        return 0;
    }
    if (!c) { /* the NULL procedure */
        op = *ev;
        op.op = NF_OP_NULL_OP;
        n->v4_mapped++;
        return az_fit_call(f, &op);
    }
    if (c->minor < 3)
        n->v4_minor[c->minor]++;
    for (i = 0; i < c->nops; i++)
        if (tr_nfs4_op_event(ev, i, &op) && im_event(f->img, &op) < 0)
            return cm_errf(f->last_error, sizeof(f->last_error), "out of memory"),
                   -ENOMEM;
    lead = leading(c);
    if (lead == c->nops) {
        unmapped(n, c->nops ? nf4_op_name(c->ops[0].op) : "(no operation)");
        return 0;
    }
    switch (c->ops[lead].op) {
    case OP_OPEN:
        if (c->ops[lead].how == TR_NFS4_NOCREATE) {
            n->v4_opens++;
            return 0;
        }
        break;
    case OP_CLOSE:
        n->v4_closes++;
        return 0;
    case OP_GETATTR:
        n->v4_getattrs++;
        break;
    default:
        break;
    }
    if (!lowered(ev, lead, &op) || op.prog != TR_NFS_PROG_NFS) {
        unmapped(n, nf4_op_name(c->ops[lead].op));
        return 0;
    }
    if (op.op == NF_OP_READDIRPLUS)
        op.op = readdir_op(&op);
    n->v4_mapped++;
    return az_fit_call(f, &op);
}
