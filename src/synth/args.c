/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * args.c - the version-neutral arguments of one call (sy_int.h:
 * sy_args_build; the protocol builds its own from them, nfs/nf_proto.h).
 * Arguments point into the slot (names, symlink text) and the file table
 * (handles), never into fresh memory.  Modes and times follow SFS: files
 * 0666, directories and symlinks 0777, the client's times on what is made
 * or changed (where the protocol takes them).
 */
#include <string.h>

#include "synth/sy_int.h"

#define WBUF_BYTES 8192u /* the largest call: -B is at most 8 KB */
#define DIR_COUNT  8192u /* readdir/readdirplus byte counts (docs/SFS30.md §3) */
#define MODE_FILE  0666u
#define MODE_DIR   0777u
#define MODE_LINK  0777u

static char wbuf[WBUF_BYTES];
static int wbuf_ready;

const char *sy_op_write_data(void)
{
    if (!wbuf_ready) {
        static const unsigned char word[4] = {0xde, 0xad, 0xbe, 0xef};
        unsigned k;
        for (k = 0; k < WBUF_BYTES; k++)
            wbuf[k] = (char)word[k % 4];
        wbuf_ready = 1;
    }
    return wbuf;
}

/* ---- handles and names ------------------------------------------------------ */

static const struct nf_fh *fh_of(const struct sy_child *c, uint32_t i)
{
    if (i == SY_NO_FILE || i == SY_NO_PARENT || !c->files.f[i].has_fh)
        return &c->testdir;
    return &c->files.f[i].fh;
}

/* Entry i as (its directory, its name in slot name k). */
static void entry_of(struct sy_child *c, struct sy_slot *s, int k, uint32_t i,
                     const struct nf_fh **dir, const char **name)
{
    sy_files_name(&c->files, i, s->name[k], sizeof(s->name[k]));
    *dir = fh_of(c, c->files.f[i].parent);
    *name = s->name[k];
}

/* Call i of a read or write request: its offset and length (block-sized
 * calls, the last one shorter) into the slot and the arguments. */
static void rw_chunk(const struct sy_req *r, struct sy_slot *s, uint32_t i,
                     struct nf_op_args *a)
{
    uint32_t done = i * r->block;
    uint32_t len = r->len - done < r->block ? r->len - done : r->block;

    s->offset = r->offset + done;
    s->len = len;
    a->offset = s->offset;
    a->count = len;
}

/* Builds the symlink text "./<name of an existing non-io or io file>". */
static void symlink_text(struct sy_child *c, struct sy_slot *s)
{
    uint32_t target =
        sy_files_pick(&c->files, SY_CAT_NONIO, SY_EXISTS, SY_NO_FILE, &c->rng);
    char name[SY_NAME_MAX];

    if (target == SY_NO_FILE)
        target = c->files.ws[0];
    sy_files_name(&c->files, target, name, sizeof(name));
    snprintf(s->text, sizeof(s->text), "./%s", name);
}

/* ---- entry point ---------------------------------------------------------- */

void sy_args_build(struct sy_child *c, struct sy_slot *s, uint32_t i)
{
    const struct sy_req *r = &c->req;
    struct nf_op_args *a = &s->args;

    memset(a, 0, sizeof(*a));
    a->op = r->op;
    a->times = 1;
    switch (r->op) {
    case NF_OP_READ:
        a->fh = fh_of(c, r->file);
        rw_chunk(r, s, i, a);
        break;
    case NF_OP_WRITE:
        a->fh = fh_of(c, r->file);
        rw_chunk(r, s, i, a);
        a->data = sy_op_write_data();
        break;
    case NF_OP_SETATTR:
        a->fh = fh_of(c, r->file);
        a->mode = MODE_FILE;
        a->set_size = r->truncate;
        a->size = r->new_size;
        break;
    case NF_OP_LOOKUP:
    case NF_OP_REMOVE:
    case NF_OP_RMDIR:
        entry_of(c, s, 0, r->file, &a->fh, &a->name);
        break;
    case NF_OP_CREATE:
    case NF_OP_MKNOD:
        entry_of(c, s, 0, r->file, &a->fh, &a->name);
        a->mode = MODE_FILE;
        break;
    case NF_OP_MKDIR:
        entry_of(c, s, 0, r->file, &a->fh, &a->name);
        a->mode = MODE_DIR;
        break;
    case NF_OP_SYMLINK:
        entry_of(c, s, 0, r->file, &a->fh, &a->name);
        symlink_text(c, s);
        a->text = s->text;
        a->mode = MODE_LINK;
        break;
    case NF_OP_RENAME:
        entry_of(c, s, 0, r->file, &a->fh, &a->name);
        entry_of(c, s, 1, r->file2, &a->fh2, &a->name2);
        break;
    case NF_OP_LINK:
        a->fh = fh_of(c, r->file);
        entry_of(c, s, 1, r->file2, &a->fh2, &a->name2);
        break;
    case NF_OP_READDIR:
    case NF_OP_READDIRPLUS:
        a->fh = fh_of(c, r->file);
        a->dir_bytes = DIR_COUNT;
        break;
    case NF_OP_FSINFO:
        a->fh = fh_of(c, SY_NO_FILE);
        break;
    case NF_OP_GETATTR:
    case NF_OP_ACCESS:
    case NF_OP_READLINK:
    case NF_OP_FSSTAT:
    case NF_OP_PATHCONF:
    case NF_OP_COMMIT:
        a->fh = fh_of(c, r->file);
        break;
    default: /* null, root, wrcache */
        break;
    }
    if (a->fh != NULL && r->file != SY_NO_FILE && a->fh == &c->files.f[r->file].fh)
        a->fstate = sy_fstate(c, r->file); /* the object is the file itself */
}
