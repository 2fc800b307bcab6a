/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ops.c - the op generators (ops.h): file choice, v2/v3 arguments, reply
 * bookkeeping.  Arguments point into the slot (names) and the file table
 * (handles), never into fresh memory; results are decoded by XDR and freed
 * by biod after ld_op_done has read them.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "load/debug.h"
#include "load/dump.h"
#include "load/ops.h"

#define LD_INIT_WRITE_DEPTH 8
#define WBUF_BYTES          8192u /* the largest call: -B is at most 8 KB */
#define DIR_COUNT           8192u /* readdir/readdirplus byte counts (§3) */
#define MODE_FILE           0666u
#define MODE_DIR            0777u
#define MODE_LINK           0777u
#define V2_IFREG            0100000u
#define V2_IFDIR            0040000u
#define V2_IFLNK            0120000u
#define V2_NOCHANGE         0xffffffffu

static char wbuf[WBUF_BYTES];
static int wbuf_ready;

const char *ld_op_write_data(void)
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

/* ---- helpers: handles, names, attributes --------------------------------- */

static const struct ld_fh *fh_of(const struct ld_child *c, uint32_t i)
{
    if (i == LD_NO_FILE || i == LD_NO_PARENT || !c->files.f[i].has_fh)
        return &c->testdir;
    return &c->files.f[i].fh;
}

static const struct ld_fh *dir_of(const struct ld_child *c, uint32_t i)
{
    return fh_of(c, c->files.f[i].parent);
}

static void to_v3(const struct ld_fh *fh, nfs_fh3 *v3)
{
    v3->data.data_len = fh->len;
    v3->data.data_val = (char *)fh->data;
}

static void to_v2(const struct ld_fh *fh, nfs_fh *v2)
{
    memset(v2->data, 0, sizeof(v2->data));
    memcpy(v2->data, fh->data, fh->len < NFS_FHSIZE ? fh->len : NFS_FHSIZE);
}

static void store_v3(struct ld_child *c, uint32_t i, const nfs_fh3 *v3)
{
    struct ld_file *f = &c->files.f[i];

    if (v3->data.data_len > LD_FH_MAX)
        return;
    f->fh.len = v3->data.data_len;
    memcpy(f->fh.data, v3->data.data_val, v3->data.data_len);
    f->has_fh = 1;
}

static void store_v2(struct ld_child *c, uint32_t i, const nfs_fh *v2)
{
    struct ld_file *f = &c->files.f[i];

    f->fh.len = NFS_FHSIZE;
    memcpy(f->fh.data, v2->data, NFS_FHSIZE);
    f->has_fh = 1;
}

static void dirop3(struct ld_child *c, struct ld_slot *s, int k, uint32_t i,
                   diropargs3 *d)
{
    ld_files_name(&c->files, i, s->name[k], sizeof(s->name[k]));
    to_v3(dir_of(c, i), &d->dir);
    d->name = s->name[k];
}

static void dirop2(struct ld_child *c, struct ld_slot *s, int k, uint32_t i, diropargs *d)
{
    ld_files_name(&c->files, i, s->name[k], sizeof(s->name[k]));
    to_v2(dir_of(c, i), &d->dir);
    d->name = s->name[k];
}

static void sattr3_init(sattr3 *a, uint32_t mode, int times)
{
    uint32_t sec, nsec;

    memset(a, 0, sizeof(*a));
    a->mode.set_it = TRUE;
    a->mode.set_mode3_u.mode = mode;
    if (times) {
        cm_wall_time(&sec, &nsec);
        a->atime.set_it = SET_TO_CLIENT_TIME;
        a->atime.set_atime_u.atime.seconds = sec;
        a->atime.set_atime_u.atime.nseconds = nsec;
        a->mtime.set_it = SET_TO_CLIENT_TIME;
        a->mtime.set_mtime_u.mtime.seconds = sec;
        a->mtime.set_mtime_u.mtime.nseconds = nsec;
    }
}

static void sattr2_init(sattr *a, uint32_t mode)
{
    uint32_t sec, nsec;

    cm_wall_time(&sec, &nsec);
    a->mode = mode;
    a->uid = a->gid = a->size = V2_NOCHANGE;
    a->atime.seconds = a->mtime.seconds = sec;
    a->atime.useconds = a->mtime.useconds = nsec / 1000;
}

static void post_attr3(struct ld_req *r, const post_op_attr *a)
{
    if (a->attributes_follow) {
        r->attr_type = (int)a->post_op_attr_u.attributes.type;
        r->attr_size = a->post_op_attr_u.attributes.size;
    }
}

static void attr2(struct ld_req *r, const fattr *a)
{
    r->attr_type = (int)a->type;
    r->attr_size = a->size;
}

/* ---- decks (child.h) ------------------------------------------------------ */

/* Fills a deck of n cards from integer counts, then shuffles it. */
static void deal_counts(struct ld_deck *d, const uint32_t *count, unsigned nkinds,
                        struct cm_rng *rng)
{
    unsigned k;
    uint32_t i, j;

    d->n = 0;
    for (k = 0; k < nkinds; k++)
        for (j = 0; j < count[k] && d->n < LD_OP_DECK; j++)
            d->card[d->n++] = (uint16_t)k;
    for (i = d->n; i > 1; i--) { /* Fisher-Yates */
        uint32_t r = cm_rng_below(rng, i);
        uint16_t t = d->card[i - 1];
        d->card[i - 1] = d->card[r];
        d->card[r] = t;
    }
    d->next = 0;
}

/* Integer counts summing to total from shares (largest remainder). */
static void apportion(const double *share, unsigned nkinds, uint32_t total,
                      uint32_t *count)
{
    double rem[NF_NOPS];
    uint32_t sum = 0;
    unsigned k;

    for (k = 0; k < nkinds; k++) {
        double x = share[k] * total;
        count[k] = (uint32_t)x;
        rem[k] = x - count[k];
        sum += count[k];
    }
    while (sum < total) {
        unsigned best = 0;
        for (k = 1; k < nkinds; k++)
            if (rem[k] > rem[best])
                best = k;
        if (rem[best] <= 0)
            break;
        count[best]++;
        rem[best] = 0;
        sum++;
    }
}

static void shuffle_ops(struct ld_child *c)
{
    uint32_t count[NF_NOPS];

    apportion(c->setup->opsel.req_share, NF_NOPS, LD_OP_DECK, count);
    deal_counts(&c->op_deck, count, NF_NOPS, &c->rng);
}

static void shuffle_xfers(struct ld_child *c, int write)
{
    const struct ld_iodist_table *t =
        write ? &c->setup->iodist.write : &c->setup->iodist.read;
    uint32_t count[LD_IODIST_MAX_ROWS];
    int k;

    for (k = 0; k < t->nrows; k++)
        count[k] = t->row[k].pct > 0 ? (uint32_t)t->row[k].pct : 0;
    deal_counts(&c->xfer_deck[write], count, (unsigned)t->nrows, &c->rng);
}

void ld_op_decks_init(struct ld_child *c)
{
    shuffle_ops(c);
    shuffle_xfers(c, 0);
    shuffle_xfers(c, 1);
}

int ld_op_next(struct ld_child *c)
{
    if (c->op_deck.next >= c->op_deck.n)
        shuffle_ops(c);
    if (c->op_deck.n == 0) /* cannot happen with a valid selector */
        return ld_opsel_draw(&c->setup->opsel, &c->rng);
    return c->op_deck.card[c->op_deck.next++];
}

/* One request's transfer from the deck of block-size rows (the fragment
 * size stays a random draw, as in ld_iodist_draw). */
static void deal_xfer(struct ld_child *c, int write, struct ld_xfer *x)
{
    const struct ld_iodist *d = &c->setup->iodist;
    const struct ld_iodist_table *t = write ? &d->write : &d->read;
    struct ld_deck *dk = &c->xfer_deck[write];

    if (dk->next >= dk->n)
        shuffle_xfers(c, write);
    if (dk->n == 0) {
        ld_iodist_draw(d, write, &c->rng, x);
        return;
    }
    ld_iodist_row_xfer(d, &t->row[dk->card[dk->next++]], &c->rng, x);
}

/* ---- picks (open item 9, ops.h) ----------------------------------------- */

static uint32_t draw_group(struct ld_child *c)
{
    return ld_workset_draw_group(&c->ws, &c->rng);
}

static uint32_t working(struct ld_child *c)
{
    return ld_files_pick_working(&c->files, c->groups, draw_group(c), &c->rng);
}

static int pick_io(struct ld_child *c, struct ld_req *r, int write)
{
    struct ld_xfer x;
    struct ld_io_pick p;
    uint32_t g = draw_group(c);

    deal_xfer(c, write, &x);
    ld_files_pick_io(&c->files, c->groups, c->ws.ngroups, g, write, x.bytes, &c->rng, &p);
    if (p.nofit && ld_debug_child_on(c->debug, LD_DBG_CHILD_FIT, (int)c->index))
        ld_child_log(c, "no fit for %u bytes in group %u: clipped to %u", x.bytes, g,
                     p.len);
    r->file = p.file;
    r->offset = p.offset;
    r->len = p.len;
    r->append = p.append;
    if (p.nofit)
        c->stats.nofit++;
    if (p.append && c->measuring)
        c->stats.appends++;
    r->block = c->setup->iodist.block_bytes;
    r->ncalls = r->len == 0 ? 1 : (r->len + r->block - 1) / r->block;
    return 0;
}

int ld_op_pick(struct ld_child *c, int op)
{
    struct ld_req *r = &c->req;
    struct ld_files *t = &c->files;
    uint32_t g;

    memset(r, 0, sizeof(*r));
    r->op = op;
    r->file = r->file2 = LD_NO_FILE;
    r->ncalls = 1;
    switch (op) {
    case NF_OP_READ:
        return pick_io(c, r, 0);
    case NF_OP_WRITE:
        return pick_io(c, r, 1);
    case NF_OP_GETATTR:
    case NF_OP_ACCESS:
    case NF_OP_COMMIT:
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
        r->file = ld_files_pick_truncate(t, c->groups, c->ws.ngroups, g, &c->rng);
        if (r->file != LD_NO_FILE) {
            r->truncate = 1;
            r->new_size = t->f[r->file].init_size;
        } else {
            r->file = ld_files_pick_working(t, c->groups, g, &c->rng);
        }
        break;
    case NF_OP_LOOKUP:
        if (cm_rng_below(&c->rng, 100) < LD_FAILED_LOOKUP_PCNT) {
            r->file = ld_files_pick(t, LD_CAT_NONIO, LD_NONEXISTENT, LD_NO_FILE, &c->rng);
            r->expect_noent =
                r->file != LD_NO_FILE && t->f[r->file].state == LD_NONEXISTENT;
        }
        if (r->file == LD_NO_FILE)
            r->file = working(c);
        break;
    case NF_OP_READLINK:
        r->file = ld_files_pick(t, LD_CAT_SYMLINK, LD_EXISTS, LD_NO_FILE, &c->rng);
        break;
    case NF_OP_CREATE:
    case NF_OP_MKNOD:
    case NF_OP_SYMLINK:
        r->file = ld_files_pick(t, LD_CAT_NONIO, LD_NONEXISTENT, LD_NO_FILE, &c->rng);
        r->existed = r->file != LD_NO_FILE && t->f[r->file].state == LD_EXISTS;
        break;
    case NF_OP_REMOVE:
        r->file = ld_files_pick(t, LD_CAT_NONIO, LD_EXISTS, LD_NO_FILE, &c->rng);
        break;
    case NF_OP_RENAME:
        r->file = ld_files_pick(t, LD_CAT_NONIO, LD_EXISTS, LD_NO_FILE, &c->rng);
        if (r->file != LD_NO_FILE)
            r->file2 = ld_files_pick(t, LD_CAT_NONIO, LD_NONEXISTENT,
                                     t->f[r->file].parent, &c->rng);
        if (r->file2 == r->file)
            r->file2 = LD_NO_FILE;
        break;
    case NF_OP_LINK:
        r->file = ld_files_pick(t, LD_CAT_NONIO, LD_EXISTS, LD_NO_FILE, &c->rng);
        r->file2 = ld_files_pick(t, LD_CAT_NONIO, LD_NONEXISTENT, LD_NO_FILE, &c->rng);
        if (r->file2 == r->file)
            r->file2 = LD_NO_FILE;
        break;
    case NF_OP_MKDIR:
        r->file = ld_files_pick(t, LD_CAT_DIR, LD_NONEXISTENT, LD_NO_FILE, &c->rng);
        break;
    case NF_OP_RMDIR:
        r->file = ld_files_pick(t, LD_CAT_DIR, LD_EMPTY_DIR, LD_NO_FILE, &c->rng);
        break;
    default: /* null, root, wrcache, fsinfo: no file */
        return 0;
    }
    if (r->file == LD_NO_FILE ||
        ((op == NF_OP_RENAME || op == NF_OP_LINK) && r->file2 == LD_NO_FILE))
        return -ENOENT;
    return 0;
}

/* ---- READ results into the slot's buffer ------------------------------------ */

/* The slot a result lives in (res is a member of struct ld_slot). */
static struct ld_slot *slot_of(void *res)
{
    return (struct ld_slot *)((char *)res - offsetof(struct ld_slot, res));
}

/* READ data: at most the slot's buffer, copied in by XDR (no allocation). */
static bool_t data_into_slot(XDR *x, struct ld_slot *s, u_int *len, char **val)
{
    if (!xdr_u_int(x, len) || *len > LD_RBUF_BYTES)
        return FALSE;
    *val = s->rbuf;
    return xdr_opaque(x, s->rbuf, *len);
}

/* xdr_READ3res, decoding the data into the slot; freeing frees nothing.
 * Deviation from rpcgen's codec only in where the bytes go: a READ reply is
 * the one large result on the hot path. */
static bool_t xdr_read3_slot(XDR *x, READ3res *r)
{
    READ3resok *ok = &r->READ3res_u.resok;

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_READ3res(x, r);
    if (!xdr_nfsstat3(x, &r->status))
        return FALSE;
    if (r->status != NFS3_OK)
        return xdr_post_op_attr(x, &r->READ3res_u.resfail.file_attributes);
    return xdr_post_op_attr(x, &ok->file_attributes) && xdr_count3(x, &ok->count) &&
           xdr_bool(x, &ok->eof) &&
           data_into_slot(x, slot_of(r), &ok->data.data_len, &ok->data.data_val);
}

/* The same for the v2 readres. */
static bool_t xdr_read2_slot(XDR *x, readres *r)
{
    readokres *ok = &r->readres_u.reply;

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_readres(x, r);
    if (!xdr_nfsstat(x, &r->status))
        return FALSE;
    if (r->status != NFS_OK)
        return TRUE;
    return xdr_fattr(x, &ok->attributes) &&
           data_into_slot(x, slot_of(r), &ok->data.data_len, &ok->data.data_val);
}

/* LOOKUP3's handle: xdr_bytes decodes into a buffer it is given, so the
 * slot's (idle: this is no READ) buffer takes it instead of malloc'd memory;
 * the handle is copied into the file table before the slot is reused. */
static bool_t xdr_lookup3_slot(XDR *x, LOOKUP3res *r)
{
    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op == XDR_DECODE)
        r->LOOKUP3res_u.resok.object.data.data_val = slot_of(r)->rbuf;
    return xdr_LOOKUP3res(x, r);
}

/* A name or handle of a directory entry, read over (into the slot's idle
 * buffer): nothing looks at readdir entries. */
static bool_t skip_opaque(XDR *x, struct ld_slot *s)
{
    u_int len;

    return xdr_u_int(x, &len) && len <= LD_RBUF_BYTES && xdr_opaque(x, s->rbuf, len);
}

/* The entry list of READDIR3 (plus = 0) or READDIRPLUS3, read over instead
 * of decoded into a malloc'd list; ends because every entry consumes
 * reply bytes. */
static bool_t skip_entries3(XDR *x, struct ld_slot *s, int plus)
{
    bool_t more;
    fileid3 id;
    cookie3 cookie;
    post_op_attr attr;
    bool_t fh_follows;

    if (!xdr_bool(x, &more))
        return FALSE;
    while (more) {
        if (!xdr_fileid3(x, &id) || !skip_opaque(x, s) || !xdr_cookie3(x, &cookie))
            return FALSE;
        if (plus && (!xdr_post_op_attr(x, &attr) || !xdr_bool(x, &fh_follows) ||
                     (fh_follows && !skip_opaque(x, s))))
            return FALSE;
        if (!xdr_bool(x, &more))
            return FALSE;
    }
    return TRUE;
}

/* The fields of READDIR3res and READDIRPLUS3res a decode fills (the two
 * differ only in their entries, which are read over). */
struct dir3_fields {
    nfsstat3 *status;
    post_op_attr *fail_attr;
    post_op_attr *ok_attr;
    char *verf;
    bool_t *eof;
};

static bool_t dir3_slot(XDR *x, const struct dir3_fields *d, struct ld_slot *s, int plus)
{
    if (!xdr_nfsstat3(x, d->status))
        return FALSE;
    if (*d->status != NFS3_OK)
        return xdr_post_op_attr(x, d->fail_attr);
    return xdr_post_op_attr(x, d->ok_attr) && xdr_cookieverf3(x, d->verf) &&
           skip_entries3(x, s, plus) && xdr_bool(x, d->eof);
}

/* READDIR3res with its entries read over (entries stays NULL). */
static bool_t xdr_readdir3_slot(XDR *x, READDIR3res *r)
{
    READDIR3resok *ok = &r->READDIR3res_u.resok;
    const struct dir3_fields d = {&r->status, &r->READDIR3res_u.resfail.dir_attributes,
                                  &ok->dir_attributes, ok->cookieverf, &ok->reply.eof};

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_READDIR3res(x, r);
    return dir3_slot(x, &d, slot_of(r), 0);
}

/* The same for READDIRPLUS3res. */
static bool_t xdr_readdirplus3_slot(XDR *x, READDIRPLUS3res *r)
{
    READDIRPLUS3resok *ok = &r->READDIRPLUS3res_u.resok;
    const struct dir3_fields d = {&r->status,
                                  &r->READDIRPLUS3res_u.resfail.dir_attributes,
                                  &ok->dir_attributes, ok->cookieverf, &ok->reply.eof};

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_READDIRPLUS3res(x, r);
    return dir3_slot(x, &d, slot_of(r), 1);
}

/* The v2 readdirres: entries are fileid, name, 4-byte cookie. */
static bool_t xdr_readdir2_slot(XDR *x, readdirres *r)
{
    bool_t more;
    u_int id;
    nfscookie cookie;

    if (x->x_op == XDR_FREE)
        return TRUE;
    if (x->x_op != XDR_DECODE)
        return xdr_readdirres(x, r);
    if (!xdr_nfsstat(x, &r->status))
        return FALSE;
    if (r->status != NFS_OK)
        return TRUE;
    if (!xdr_bool(x, &more))
        return FALSE;
    while (more)
        if (!xdr_u_int(x, &id) || !skip_opaque(x, slot_of(r)) ||
            !xdr_nfscookie(x, cookie) || !xdr_bool(x, &more))
            return FALSE;
    return xdr_bool(x, &r->readdirres_u.reply.eof);
}

/* ---- arguments ----------------------------------------------------------- */

/* Call i of a read or write request: its offset and length (block-sized
 * calls, the last one shorter) into the slot; returns the length. */
static uint32_t rw_chunk(const struct ld_req *r, struct ld_slot *s, uint32_t i)
{
    uint32_t done = i * r->block;
    uint32_t len = r->len - done < r->block ? r->len - done : r->block;

    s->offset = r->offset + done;
    s->len = len;
    return len;
}

static void prep_rw3(struct ld_child *c, struct ld_slot *s, uint32_t i)
{
    const struct ld_req *r = &c->req;
    uint32_t len = rw_chunk(r, s, i);

    if (r->op == NF_OP_READ) {
        to_v3(fh_of(c, r->file), &s->args.a3_read.file);
        s->args.a3_read.offset = s->offset;
        s->args.a3_read.count = len;
    } else {
        WRITE3args *w = &s->args.a3_write;
        to_v3(fh_of(c, r->file), &w->file);
        w->offset = s->offset;
        w->count = len;
        w->stable = UNSTABLE; /* population too: nothing measures it */
        w->data.data_len = len;
        w->data.data_val = (char *)ld_op_write_data();
    }
}

static void prep_rw2(struct ld_child *c, struct ld_slot *s, uint32_t i)
{
    const struct ld_req *r = &c->req;
    uint32_t len = rw_chunk(r, s, i);

    if (r->op == NF_OP_READ) {
        to_v2(fh_of(c, r->file), &s->args.a2_read.file);
        s->args.a2_read.offset = (u_int)s->offset;
        s->args.a2_read.count = len;
        s->args.a2_read.totalcount = len;
    } else {
        writeargs *w = &s->args.a2_write;
        to_v2(fh_of(c, r->file), &w->file);
        w->beginoffset = w->offset = (u_int)s->offset;
        w->totalcount = len;
        w->data.data_len = len;
        w->data.data_val = (char *)ld_op_write_data();
    }
}

/* Builds the symlink text "./<name of an existing non-io or io file>". */
static void symlink_text(struct ld_child *c, struct ld_slot *s)
{
    uint32_t target =
        ld_files_pick(&c->files, LD_CAT_NONIO, LD_EXISTS, LD_NO_FILE, &c->rng);
    char name[LD_NAME_MAX];

    if (target == LD_NO_FILE)
        target = c->files.ws[0];
    ld_files_name(&c->files, target, name, sizeof(name));
    snprintf(s->text, sizeof(s->text), "./%s", name);
}

static void prep3(struct ld_child *c, struct ld_slot *s)
{
    const struct ld_req *r = &c->req;
    union ld_args *a = &s->args;

    switch (r->op) {
    case NF_OP_GETATTR:
        to_v3(fh_of(c, r->file), &a->a3_getattr.object);
        break;
    case NF_OP_SETATTR:
        memset(&a->a3_setattr, 0, sizeof(a->a3_setattr));
        to_v3(fh_of(c, r->file), &a->a3_setattr.object);
        sattr3_init(&a->a3_setattr.new_attributes, MODE_FILE, 1);
        if (r->truncate) {
            a->a3_setattr.new_attributes.size.set_it = TRUE;
            a->a3_setattr.new_attributes.size.set_size3_u.size = r->new_size;
        }
        break;
    case NF_OP_LOOKUP:
        dirop3(c, s, 0, r->file, &a->a3_lookup.what);
        break;
    case NF_OP_ACCESS:
        to_v3(fh_of(c, r->file), &a->a3_access.object);
        a->a3_access.access = ACCESS3_READ | ACCESS3_LOOKUP | ACCESS3_MODIFY |
                              ACCESS3_EXTEND | ACCESS3_DELETE | ACCESS3_EXECUTE;
        break;
    case NF_OP_READLINK:
        to_v3(fh_of(c, r->file), &a->a3_readlink.symlink);
        break;
    case NF_OP_CREATE:
        memset(&a->a3_create, 0, sizeof(a->a3_create));
        dirop3(c, s, 0, r->file, &a->a3_create.where);
        a->a3_create.how.mode = UNCHECKED;
        sattr3_init(&a->a3_create.how.createhow3_u.obj_attributes, MODE_FILE, 1);
        break;
    case NF_OP_MKDIR:
        memset(&a->a3_mkdir, 0, sizeof(a->a3_mkdir));
        dirop3(c, s, 0, r->file, &a->a3_mkdir.where);
        sattr3_init(&a->a3_mkdir.attributes, MODE_DIR, 1);
        break;
    case NF_OP_SYMLINK:
        memset(&a->a3_symlink, 0, sizeof(a->a3_symlink));
        dirop3(c, s, 0, r->file, &a->a3_symlink.where);
        sattr3_init(&a->a3_symlink.symlink.symlink_attributes, MODE_LINK, 0);
        symlink_text(c, s);
        a->a3_symlink.symlink.symlink_data = s->text;
        break;
    case NF_OP_MKNOD:
        memset(&a->a3_mknod, 0, sizeof(a->a3_mknod));
        dirop3(c, s, 0, r->file, &a->a3_mknod.where);
        a->a3_mknod.what.type = NF3FIFO;
        sattr3_init(&a->a3_mknod.what.mknoddata3_u.pipe_attributes, MODE_FILE, 0);
        break;
    case NF_OP_REMOVE:
        dirop3(c, s, 0, r->file, &a->a3_remove.object);
        break;
    case NF_OP_RMDIR:
        dirop3(c, s, 0, r->file, &a->a3_rmdir.object);
        break;
    case NF_OP_RENAME:
        dirop3(c, s, 0, r->file, &a->a3_rename.from);
        dirop3(c, s, 1, r->file2, &a->a3_rename.to);
        break;
    case NF_OP_LINK:
        to_v3(fh_of(c, r->file), &a->a3_link.file);
        dirop3(c, s, 1, r->file2, &a->a3_link.link);
        break;
    case NF_OP_READDIR:
        memset(&a->a3_readdir, 0, sizeof(a->a3_readdir));
        to_v3(fh_of(c, r->file), &a->a3_readdir.dir);
        a->a3_readdir.count = DIR_COUNT;
        break;
    case NF_OP_READDIRPLUS:
        memset(&a->a3_readdirplus, 0, sizeof(a->a3_readdirplus));
        to_v3(fh_of(c, r->file), &a->a3_readdirplus.dir);
        a->a3_readdirplus.dircount = DIR_COUNT;
        a->a3_readdirplus.maxcount = DIR_COUNT;
        break;
    case NF_OP_FSSTAT:
        to_v3(fh_of(c, r->file), &a->a3_fsstat.fsroot);
        break;
    case NF_OP_FSINFO:
        to_v3(fh_of(c, LD_NO_FILE), &a->a3_fsinfo.fsroot);
        break;
    case NF_OP_PATHCONF:
        to_v3(fh_of(c, r->file), &a->a3_pathconf.object);
        break;
    case NF_OP_COMMIT:
        to_v3(fh_of(c, r->file), &a->a3_commit.file);
        a->a3_commit.offset = 0;
        a->a3_commit.count = 0;
        break;
    default: /* null */
        break;
    }
}

static void prep2(struct ld_child *c, struct ld_slot *s)
{
    const struct ld_req *r = &c->req;
    union ld_args *a = &s->args;

    switch (r->op) {
    case NF_OP_GETATTR:
    case NF_OP_READLINK:
    case NF_OP_FSSTAT:
        to_v2(fh_of(c, r->file), &a->a2_fh);
        break;
    case NF_OP_SETATTR:
        to_v2(fh_of(c, r->file), &a->a2_setattr.file);
        sattr2_init(&a->a2_setattr.attributes, MODE_FILE);
        if (r->truncate)
            a->a2_setattr.attributes.size = (u_int)r->new_size;
        break;
    case NF_OP_LOOKUP:
    case NF_OP_REMOVE:
    case NF_OP_RMDIR:
        dirop2(c, s, 0, r->file, &a->a2_dirop);
        break;
    case NF_OP_CREATE:
        dirop2(c, s, 0, r->file, &a->a2_create.where);
        sattr2_init(&a->a2_create.attributes, V2_IFREG | MODE_FILE);
        a->a2_create.attributes.size = 0;
        break;
    case NF_OP_MKDIR:
        dirop2(c, s, 0, r->file, &a->a2_create.where);
        sattr2_init(&a->a2_create.attributes, V2_IFDIR | MODE_DIR);
        break;
    case NF_OP_SYMLINK:
        dirop2(c, s, 0, r->file, &a->a2_symlink.from);
        symlink_text(c, s);
        a->a2_symlink.to = s->text;
        sattr2_init(&a->a2_symlink.attributes, V2_IFLNK | MODE_LINK);
        break;
    case NF_OP_RENAME:
        dirop2(c, s, 0, r->file, &a->a2_rename.from);
        dirop2(c, s, 1, r->file2, &a->a2_rename.to);
        break;
    case NF_OP_LINK:
        to_v2(fh_of(c, r->file), &a->a2_link.from);
        dirop2(c, s, 1, r->file2, &a->a2_link.to);
        break;
    case NF_OP_READDIR:
        memset(&a->a2_readdir, 0, sizeof(a->a2_readdir));
        to_v2(fh_of(c, r->file), &a->a2_readdir.dir);
        a->a2_readdir.count = DIR_COUNT;
        break;
    default: /* null, root, wrcache */
        break;
    }
}

/* The results on the hot path that rpcgen's codecs would decode into
 * malloc'd memory get the codecs above instead; the rest keep theirs. */
static xdrproc_t slot_codec(int op, int version, xdrproc_t dflt)
{
    switch (op) {
    case NF_OP_READ:
        return version == 3 ? (xdrproc_t)xdr_read3_slot : (xdrproc_t)xdr_read2_slot;
    case NF_OP_LOOKUP:
        return version == 3 ? (xdrproc_t)xdr_lookup3_slot : dflt;
    case NF_OP_READDIR:
        return version == 3 ? (xdrproc_t)xdr_readdir3_slot : (xdrproc_t)xdr_readdir2_slot;
    case NF_OP_READDIRPLUS:
        return (xdrproc_t)xdr_readdirplus3_slot;
    default:
        return dflt;
    }
}

int ld_op_prepare(struct ld_slot *s, uint32_t i, void *data)
{
    struct ld_child *c = data;
    const struct ld_req *r = &c->req;
    int proc = nf_op_proc(r->op, c->nfs_version);
    const struct nf_proc *row;

    s->op = r->op;
    s->file = r->file;
    s->file2 = r->file2;
    s->offset = 0;
    s->len = 0;
    if (proc < 0)
        return -EOPNOTSUPP;
    if (r->op == NF_OP_READ || r->op == NF_OP_WRITE) {
        if (c->nfs_version == 3)
            prep_rw3(c, s, i);
        else
            prep_rw2(c, s, i);
    } else if (c->nfs_version == 3) {
        prep3(c, s);
    } else {
        prep2(c, s);
    }
    /* The table row of the child's version gives the codecs and the call
     * class (no client needed, so the generators work without a server). */
    row = nf_proc_row(c->nfs_version == 3 ? NF_NFS3 : NF_NFS2, (uint32_t)proc);
    if (row == NULL)
        return -EOPNOTSUPP;
    rp_call_prepare(&s->call, (uint32_t)proc, row->args_codec, &s->args, row->res_codec,
                    &s->res, nf_class_timeout_ms(row->cls, c->cfg->tcp), NULL, NULL);
    s->call.res_codec = slot_codec(r->op, c->nfs_version, s->call.res_codec);
    return 0;
}

/* ---- replies -------------------------------------------------------------- */

/* Reads the status and any attributes (type, size) or new handle out of a
 * decoded result into the request, and stores the handle for entry `into`. */
static uint32_t read_reply3(struct ld_child *c, struct ld_slot *s, uint32_t into)
{
    union ld_res *x = &s->res;
    struct ld_req *r = &c->req;
    uint32_t st = (uint32_t)x->r3_getattr.status;

    if (st != NFS3_OK)
        return st;
    switch (s->op) {
    case NF_OP_GETATTR:
        r->attr_type = (int)x->r3_getattr.GETATTR3res_u.resok.obj_attributes.type;
        r->attr_size = x->r3_getattr.GETATTR3res_u.resok.obj_attributes.size;
        break;
    case NF_OP_SETATTR:
        post_attr3(r, &x->r3_setattr.SETATTR3res_u.resok.obj_wcc.after);
        break;
    case NF_OP_LOOKUP:
        store_v3(c, into, &x->r3_lookup.LOOKUP3res_u.resok.object);
        post_attr3(r, &x->r3_lookup.LOOKUP3res_u.resok.obj_attributes);
        break;
    case NF_OP_WRITE:
        post_attr3(r, &x->r3_write.WRITE3res_u.resok.file_wcc.after);
        break;
    case NF_OP_CREATE:
    case NF_OP_MKDIR:
    case NF_OP_SYMLINK:
    case NF_OP_MKNOD: {
        /* the four resok types share their layout: obj, attributes, wcc */
        const CREATE3resok *ok = &x->r3_create.CREATE3res_u.resok;
        if (ok->obj.handle_follows)
            store_v3(c, into, &ok->obj.post_op_fh3_u.handle);
        post_attr3(r, &ok->obj_attributes);
        break;
    }
    default:
        break;
    }
    return st;
}

static uint32_t read_reply2(struct ld_child *c, struct ld_slot *s, uint32_t into)
{
    union ld_res *x = &s->res;
    struct ld_req *r = &c->req;
    uint32_t st = (uint32_t)x->r2_stat;

    if (st != NFS_OK)
        return st;
    switch (s->op) {
    case NF_OP_GETATTR:
    case NF_OP_SETATTR:
    case NF_OP_WRITE:
        attr2(r, &x->r2_attr.attrstat_u.attributes);
        break;
    case NF_OP_LOOKUP:
    case NF_OP_CREATE:
    case NF_OP_MKDIR:
        store_v2(c, into, &x->r2_dirop.diropres_u.diropres.file);
        attr2(r, &x->r2_dirop.diropres_u.diropres.attributes);
        break;
    default:
        break;
    }
    return st;
}

/* The file table after a successful (or expected) reply. */
static void apply(struct ld_child *c, struct ld_slot *s, uint32_t st)
{
    struct ld_files *t = &c->files;
    struct ld_req *r = &c->req;
    struct ld_file *f = s->file != LD_NO_FILE ? &t->f[s->file] : NULL;
    int ok = st == 0;

    switch (s->op) {
    case NF_OP_LOOKUP:
        if (ok && f->state == LD_NONEXISTENT)
            f->state = f->cat == LD_CAT_DIR ? LD_EMPTY_DIR : LD_EXISTS;
        else if (st == NF_ST_NOENT)
            f->state = LD_NONEXISTENT;
        break;
    case NF_OP_CREATE:
    case NF_OP_MKNOD:
    case NF_OP_SYMLINK:
        if (ok) {
            f->state = LD_EXISTS;
            f->size = 0;
            if (c->nfs_version == 2 && s->op == NF_OP_SYMLINK)
                f->has_fh = 0; /* v2 SYMLINK returns no handle */
        } else if (st == NF_ST_EXIST) {
            /* the name is there (a retransmission the server had already
             * done, or a slot the table lost track of after a timeout):
             * make it a remove candidate again instead of a create target */
            f->state = LD_EXISTS;
        }
        break;
    case NF_OP_MKDIR:
        if (ok || st == NF_ST_EXIST)
            f->state = LD_EMPTY_DIR;
        break;
    case NF_OP_REMOVE:
    case NF_OP_RMDIR:
        if (ok || st == NF_ST_NOENT) {
            f->state = LD_NONEXISTENT;
            f->has_fh = 0;
        }
        break;
    case NF_OP_RENAME:
        if (ok) {
            struct ld_file *to = &t->f[s->file2];
            to->fh = f->fh;
            to->has_fh = f->has_fh;
            to->size = f->size;
            to->state = LD_EXISTS;
            f->state = LD_NONEXISTENT;
            f->has_fh = 0;
        } else if (st == NF_ST_NOENT) {
            f->state = LD_NONEXISTENT; /* the source is gone (see REMOVE) */
            f->has_fh = 0;
        }
        break;
    case NF_OP_LINK:
        if (ok) {
            struct ld_file *to = &t->f[s->file2];
            to->fh = f->fh;
            to->has_fh = f->has_fh;
            to->state = LD_EXISTS;
        } else if (st == NF_ST_EXIST) {
            t->f[s->file2].state = LD_EXISTS; /* as for CREATE above */
        }
        break;
    case NF_OP_WRITE:
        if (ok && s->offset + s->len > f->size)
            ld_files_set_size(t, s->file, s->offset + s->len);
        break;
    case NF_OP_SETATTR:
        if (ok && r->truncate) {
            ld_files_set_size(t, s->file, r->new_size);
            if (c->measuring)
                c->stats.truncates++;
        }
        break;
    default:
        break;
    }
}

static void log_error(struct ld_child *c, const struct ld_slot *s, uint32_t st)
{
    char name[LD_NAME_MAX] = "-";

    if (!ld_debug_on(c->debug, LD_DBG_CHILD_ERROR))
        return;
    if (s->file != LD_NO_FILE)
        ld_files_name(&c->files, s->file, name, sizeof(name));
    if (s->call.status != 0)
        ld_child_log(c, "%s %s: RPC failed: %s", nf_op_name(s->op), name,
                     rp_status_text(s->call.status));
    else
        ld_child_log(c, "%s %s: NFS error %s", nf_op_name(s->op), name,
                     nf_status_name(st));
}

void ld_op_done(struct ld_slot *s, void *data)
{
    struct ld_child *c = data;
    struct ld_req *r = &c->req;
    uint32_t st = 0;
    uint64_t ns = 0;

    r->rpc_status = s->call.status;
    r->nfs_status = 0;
    if (s->call.status == 0) {
        ns = s->call.t_reply_ns > s->call.t_send_ns
                 ? s->call.t_reply_ns - s->call.t_send_ns
                 : 0;
        st =
            c->nfs_version == 3 ? read_reply3(c, s, s->file) : read_reply2(c, s, s->file);
        r->nfs_status = st;
        if (s->file != LD_NO_FILE)
            apply(c, s, st);
    }
    if (c->measuring) {
        if (s->call.status == 0)
            ld_stats_good(&c->stats, s->op, ns, st != 0);
        else
            ld_stats_bad(&c->stats, s->op);
        if (c->dump)
            ld_dump_call(c->dump, c, s, ns);
    }
    if ((s->call.status != 0 || st != 0) && !(r->expect_noent && st == NF_ST_NOENT) &&
        !r->init)
        log_error(c, s, st);
    if (s->call.retransmits > 0 &&
        ld_debug_child_on(c->debug, LD_DBG_CHILD_RPC, (int)c->index))
        ld_child_log(c, "%s xid %08x: %u retransmission(s), %s", nf_op_name(s->op),
                     s->call.xid, s->call.retransmits, rp_status_text(s->call.status));
}

/* ---- requests --------------------------------------------------------------- */

int ld_op_issue(struct ld_child *c)
{
    struct ld_req *r = &c->req;
    uint32_t depth = 1;
    int rc;

    if (nf_op_proc(r->op, c->nfs_version) < 0) {
        /* SFS wired ops the version lacks to a stub: one bad call. */
        if (c->measuring)
            ld_stats_bad(&c->stats, r->op);
        return 1;
    }
    if (r->op == NF_OP_READ)
        depth = (uint32_t)c->cfg->biod_reads;
    else if (r->op == NF_OP_WRITE)
        depth = (uint32_t)c->cfg->biod_writes;
    if (r->init && r->ncalls > 1)
        depth = LD_INIT_WRITE_DEPTH; /* population is not measured */
    r->attr_type = -1;
    rc = ld_biod_run(&c->biod, r->ncalls, depth);
    if (rc < 0)
        return rc;
    return (int)r->ncalls;
}

int ld_op_request(struct ld_child *c, int op)
{
    int rc, calls;

    if (ld_op_pick(c, op) < 0) {
        if (c->measuring)
            c->stats.op[op].no_calls++;
        return 0;
    }
    if (ld_debug_child_on(c->debug, LD_DBG_CHILD_FILES, (int)c->index) &&
        c->req.file != LD_NO_FILE) {
        char name[LD_NAME_MAX];
        ld_files_name(&c->files, c->req.file, name, sizeof(name));
        ld_child_log(c, "%s %s: offset %llu, %u bytes in %u call(s)%s", nf_op_name(op),
                     name, (unsigned long long)c->req.offset, c->req.len, c->req.ncalls,
                     c->req.append     ? ", append"
                     : c->req.truncate ? ", truncate"
                                       : "");
    }
    calls = ld_op_issue(c);
    if (calls < 0)
        return calls;
    /* v2 SYMLINK returns no handle: look the new link up at once (§2.4). */
    if (op == NF_OP_SYMLINK && c->nfs_version == 2 && c->req.nfs_status == 0 &&
        c->req.rpc_status == 0) {
        uint32_t file = c->req.file;
        memset(&c->req, 0, sizeof(c->req));
        c->req.op = NF_OP_LOOKUP;
        c->req.file = file;
        c->req.file2 = LD_NO_FILE;
        c->req.ncalls = 1;
        rc = ld_op_issue(c);
        if (rc < 0)
            return rc;
        calls += rc;
    }
    return calls;
}
