/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * pick.c - the file a request works on (sy_int.h: sy_op_pick): the working
 * set's cyclical Poisson groups for io and attribute ops, best fit with
 * append and truncate limits for reads and writes (docs/DECISIONS.md D6, through
 * files.c), and picks by (state, category) for the namespace ops.
 */
#include <errno.h>
#include <string.h>

#include "load/debug.h"
#include "synth/sy_int.h"

static uint32_t draw_group(struct sy_child *c)
{
    return ld_workset_draw_group(&c->ws, &c->rng);
}

static uint32_t working(struct sy_child *c)
{
    return sy_files_pick_working(&c->files, c->groups, draw_group(c), &c->rng);
}

static int pick_io(struct sy_child *c, struct sy_req *r, int write)
{
    struct ld_xfer x;
    struct sy_io_pick p;
    uint32_t g = draw_group(c);

    sy_deck_xfer(c, write, &x);
    sy_files_pick_io(&c->files, c->groups, c->ws.ngroups, g, write, x.bytes, &c->rng, &p);
    if (p.nofit && ld_debug_child_on(c->cx.debug, LD_DBG_CHILD_FIT, (int)c->cx.index))
        ld_child_log(&c->cx, "no fit for %u bytes in group %u: clipped to %u", x.bytes, g,
                     p.len);
    r->file = p.file;
    r->offset = p.offset;
    r->len = p.len;
    r->append = p.append;
    if (p.nofit)
        c->cx.stats.nofit++;
    if (p.nofit && c->cx.measuring)
        LD_STATS_COUNT(&c->cx.stats, r->op, nofit);
    if (p.append && c->cx.measuring)
        c->cx.stats.appends++;
    r->block = c->cx.setup->iodist.block_bytes;
    r->ncalls = r->len == 0 ? 1 : (r->len + r->block - 1) / r->block;
    /* what the deck needs to re-weight reads and writes (deck.c) */
    c->io_reqs[write]++;
    c->io_calls[write] += r->ncalls;
    c->dealt_calls[r->op] += r->ncalls;
    return 0;
}

/* COMMIT (v3): a file holding UNSTABLE data not yet committed, else (none
 * has any) a working io file (docs/sfs.md). */
static uint32_t pick_commit(struct sy_child *c)
{
    if (c->n_uncommitted > 0)
        return c->uncommitted[cm_rng_below(&c->rng, c->n_uncommitted)];
    return working(c);
}

/* Remembers the states of the picked entries: the errors they imply are
 * expected (reply.c). */
static int picked(struct sy_child *c, struct sy_req *r)
{
    const struct sy_files *t = &c->files;

    if (r->file != SY_NO_FILE)
        r->pick_state = t->f[r->file].state;
    if (r->file2 != SY_NO_FILE)
        r->pick_state2 = t->f[r->file2].state;
    return 0;
}

int sy_op_pick(struct sy_child *c, int op)
{
    struct sy_req *r = &c->req;
    struct sy_files *t = &c->files;
    uint32_t g;

    memset(r, 0, sizeof(*r));
    r->op = op;
    r->file = r->file2 = SY_NO_FILE;
    r->ncalls = 1;
    switch (op) {
    case NF_OP_READ:
        return pick_io(c, r, 0);
    case NF_OP_WRITE:
        return pick_io(c, r, 1);
    case NF_OP_COMMIT:
        r->file = pick_commit(c);
        break;
    case NF_OP_GETATTR:
    case NF_OP_ACCESS:
    case NF_OP_PATHCONF:
    case NF_OP_FSSTAT:
    case NF_OP_READDIR:
    case NF_OP_READDIRPLUS:
        r->file = working(c);
        if (op == NF_OP_READDIR || op == NF_OP_READDIRPLUS)
            r->file = t->f[r->file].parent;
        break;
    case NF_OP_SETATTR:
        g = draw_group(c);
        r->file = sy_files_pick_truncate(t, c->groups, c->ws.ngroups, g, &c->rng);
        if (r->file != SY_NO_FILE) {
            r->truncate = 1;
            r->new_size = t->f[r->file].init_size;
        } else {
            r->file = sy_files_pick_working(t, c->groups, g, &c->rng);
        }
        break;
    case NF_OP_LOOKUP:
        if (cm_rng_below(&c->rng, 100) < SY_FAILED_LOOKUP_PCNT) {
            r->file = sy_files_pick(t, SY_CAT_NONIO, SY_NONEXISTENT, SY_NO_FILE, &c->rng);
            r->expect_noent =
                r->file != SY_NO_FILE && t->f[r->file].state == SY_NONEXISTENT;
        }
        if (r->file == SY_NO_FILE)
            r->file = working(c);
        break;
    case NF_OP_READLINK:
        r->file = sy_files_pick(t, SY_CAT_SYMLINK, SY_EXISTS, SY_NO_FILE, &c->rng);
        break;
    case NF_OP_CREATE:
    case NF_OP_MKNOD:
    case NF_OP_SYMLINK:
        r->file = sy_files_pick(t, SY_CAT_NONIO, SY_NONEXISTENT, SY_NO_FILE, &c->rng);
        r->existed = r->file != SY_NO_FILE && t->f[r->file].state == SY_EXISTS;
        break;
    case NF_OP_REMOVE:
        r->file = sy_files_pick(t, SY_CAT_NONIO, SY_EXISTS, SY_NO_FILE, &c->rng);
        break;
    case NF_OP_RENAME:
        r->file = sy_files_pick(t, SY_CAT_NONIO, SY_EXISTS, SY_NO_FILE, &c->rng);
        if (r->file != SY_NO_FILE)
            r->file2 = sy_files_pick(t, SY_CAT_NONIO, SY_NONEXISTENT,
                                     t->f[r->file].parent, &c->rng);
        if (r->file2 == r->file)
            r->file2 = SY_NO_FILE;
        break;
    case NF_OP_LINK:
        r->file = sy_files_pick(t, SY_CAT_NONIO, SY_EXISTS, SY_NO_FILE, &c->rng);
        r->file2 = sy_files_pick(t, SY_CAT_NONIO, SY_NONEXISTENT, SY_NO_FILE, &c->rng);
        if (r->file2 == r->file)
            r->file2 = SY_NO_FILE;
        break;
    case NF_OP_MKDIR:
        r->file = sy_files_pick(t, SY_CAT_DIR, SY_NONEXISTENT, SY_NO_FILE, &c->rng);
        break;
    case NF_OP_RMDIR:
        r->file = sy_files_pick(t, SY_CAT_DIR, SY_EMPTY_DIR, SY_NO_FILE, &c->rng);
        break;
    default: /* null, root, wrcache, fsinfo: no file */
        return 0;
    }
    if (r->file == SY_NO_FILE ||
        ((op == NF_OP_RENAME || op == NF_OP_LINK) && r->file2 == SY_NO_FILE))
        return -ENOENT;
    return picked(c, r);
}
