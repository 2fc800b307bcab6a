/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * reply.c - what a reply says, and the file table after it (sy_int.h:
 * sy_reply_apply).  The status, the attributes population checks (type and
 * size) and any new handle are read out of the call's neutral result (the
 * protocol's read-out, nfs/nf_proto.h); then the
 * entry's state follows the reply, including the answers a retransmitted
 * call gets (EXIST after a create the server had already done, NOENT
 * after a remove it had already done).  Also here: which NFS errors the
 * workload expects (sy_reply_expected), and the list of files holding
 * UNSTABLE data that COMMIT takes its file from.  Asserted: an entry is
 * flagged unstable exactly while it is on that list; directory ops touch
 * directory entries, data ops io files.
 */
#include <assert.h>
#include <string.h>

#include "synth/sy_int.h"

/* ---- files with uncommitted data (v3 COMMIT, docs/sfs.md) ---------------- */

static void uncommitted_add(struct sy_child *c, uint32_t i)
{
    struct sy_file *f = &c->files.f[i];

    if (f->unstable || c->n_uncommitted >= SY_UNCOMMITTED_MAX)
        return;
    f->unstable = 1;
    c->uncommitted[c->n_uncommitted++] = i;
}

static void uncommitted_remove(struct sy_child *c, uint32_t i)
{
    uint32_t k;

    if (!c->files.f[i].unstable)
        return;
    c->files.f[i].unstable = 0;
    for (k = 0; k < c->n_uncommitted; k++)
        if (c->uncommitted[k] == i) {
            c->uncommitted[k] = c->uncommitted[--c->n_uncommitted];
            return;
        }
    assert(!"an unstable entry is missing from the commit list");
}

/* A WRITE the server did not make stable leaves data for COMMIT
 * (population's writes are left out: nothing commits them in SFS). */
static void note_unstable(struct sy_child *c, struct sy_slot *s)
{
    if (!c->req.init && s->call->res.unstable)
        uncommitted_add(c, s->file);
}

/* The file table after a successful (or expected) reply. */
static void apply(struct sy_child *c, struct sy_slot *s, uint32_t st)
{
    struct sy_files *t = &c->files;
    struct sy_req *r = &c->req;
    struct sy_file *f = s->file != SY_NO_FILE ? &t->f[s->file] : NULL;
    int ok = st == 0;

    assert(f != NULL);
    assert((s->op != NF_OP_MKDIR && s->op != NF_OP_RMDIR) || f->cat == SY_CAT_DIR);
    assert((s->op != NF_OP_WRITE && s->op != NF_OP_COMMIT) || f->cat == SY_CAT_IO);
    assert((s->op != NF_OP_RENAME && s->op != NF_OP_LINK) || s->file2 < t->n);
    switch (s->op) {
    case NF_OP_LOOKUP:
        if (ok && f->state == SY_NONEXISTENT)
            f->state = f->cat == SY_CAT_DIR ? SY_EMPTY_DIR : SY_EXISTS;
        else if (st == NF_ST_NOENT)
            f->state = SY_NONEXISTENT;
        break;
    case NF_OP_CREATE:
    case NF_OP_MKNOD:
    case NF_OP_SYMLINK:
        if (ok) {
            f->state = SY_EXISTS;
            f->size = 0;
            if (s->call->res.fh_forgotten)
                f->has_fh = 0; /* v2 SYMLINK returns no handle */
        } else if (st == NF_ST_EXIST) {
            /* the name is there (a retransmission the server had already
             * done, or a slot the table lost track of after a timeout):
             * make it a remove candidate again instead of a create target */
            f->state = SY_EXISTS;
        }
        break;
    case NF_OP_MKDIR:
        if (ok || st == NF_ST_EXIST)
            f->state = SY_EMPTY_DIR;
        break;
    case NF_OP_REMOVE:
    case NF_OP_RMDIR:
        if (ok || st == NF_ST_NOENT) {
            f->state = SY_NONEXISTENT;
            f->has_fh = 0;
        }
        break;
    case NF_OP_RENAME:
        if (ok) {
            struct sy_file *to = &t->f[s->file2];
            to->fh = f->fh;
            to->has_fh = f->has_fh;
            to->size = f->size;
            to->state = SY_EXISTS;
            f->state = SY_NONEXISTENT;
            f->has_fh = 0;
        } else if (st == NF_ST_NOENT) {
            f->state = SY_NONEXISTENT; /* the source is gone (see REMOVE) */
            f->has_fh = 0;
        }
        break;
    case NF_OP_LINK:
        if (ok) {
            struct sy_file *to = &t->f[s->file2];
            to->fh = f->fh;
            to->has_fh = f->has_fh;
            to->state = SY_EXISTS;
        } else if (st == NF_ST_EXIST) {
            t->f[s->file2].state = SY_EXISTS; /* as for CREATE above */
        }
        break;
    case NF_OP_WRITE:
        if (ok && s->offset + s->len > f->size)
            sy_files_set_size(t, s->file, s->offset + s->len);
        if (ok)
            note_unstable(c, s);
        break;
    case NF_OP_COMMIT:
        if (ok)
            uncommitted_remove(c, s->file);
        break;
    case NF_OP_SETATTR:
        if (ok && r->truncate) {
            sy_files_set_size(t, s->file, r->new_size);
            if (c->cx.measuring)
                c->cx.stats.truncates++;
        }
        break;
    default:
        break;
    }
}

uint32_t sy_reply_apply(struct sy_child *c, struct sy_slot *s)
{
    const struct nf_op_res *x = &s->call->res;
    struct sy_req *r = &c->req;
    uint32_t st = x->status;

    if (st == 0 && x->attr_type >= 0) {
        r->attr_type = x->attr_type;
        r->attr_size = x->attr_size;
    }
    if (st == 0 && x->has_fh && s->file != SY_NO_FILE) {
        /* the entry is reached by its handle from now on */
        c->files.f[s->file].fh = x->fh;
        c->files.f[s->file].has_fh = 1;
    }
    if (s->file != SY_NO_FILE)
        apply(c, s, st);
    return st;
}

int sy_reply_expected(const struct sy_child *c, const struct sy_slot *s, uint32_t st)
{
    const struct sy_req *r = &c->req;
    int again = s->call->retransmits > 0; /* the server may have done it */

    switch (s->op) {
    case NF_OP_LOOKUP:
        return st == NF_ST_NOENT && (r->expect_noent || r->pick_state == SY_NONEXISTENT);
    case NF_OP_CREATE:
    case NF_OP_MKNOD:
    case NF_OP_SYMLINK:
    case NF_OP_MKDIR:
        return st == NF_ST_EXIST && (again || r->pick_state != SY_NONEXISTENT);
    case NF_OP_REMOVE:
        return st == NF_ST_NOENT && (again || r->pick_state == SY_NONEXISTENT);
    case NF_OP_RMDIR:
        return (st == NF_ST_NOENT && (again || r->pick_state == SY_NONEXISTENT)) ||
               (st == NF_ST_NOTEMPTY && r->pick_state == SY_EXISTS);
    case NF_OP_RENAME:
        return st == NF_ST_NOENT && (again || r->pick_state == SY_NONEXISTENT);
    case NF_OP_LINK:
        return (st == NF_ST_EXIST && (again || r->pick_state2 != SY_NONEXISTENT)) ||
               (st == NF_ST_NOENT && r->pick_state == SY_NONEXISTENT);
    default:
        return 0;
    }
}
