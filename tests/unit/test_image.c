/* SPDX-License-Identifier: BSD-2-Clause */
/* test_image.c - the file-system image an NFS trace implies
 * (src/image), from events built here: the tree at the start and
 * its walk, paths, sizes at the start, objects created, renamed and
 * removed, hard links, symlink targets, name-only objects and their
 * handles, orphans, the inferred root, and what a lossy trace repairs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "image/im.h"

static struct nf_fh fh(unsigned n)
{
    struct nf_fh f;

    memset(&f, 0, sizeof(f));
    f.len = 12;
    memcpy(f.data, "handle", 6);
    f.data[8] = (uint8_t)(n >> 8);
    f.data[9] = (uint8_t)n;
    return f;
}

static struct tr_nfs_event ev(int op, int64_t t, unsigned dir)
{
    struct tr_nfs_event e;

    memset(&e, 0, sizeof(e));
    e.prog = TR_NFS_PROG_NFS;
    e.vers = 3;
    e.op = op;
    e.t_ns = t;
    e.reply_t_ns = t + 100;
    e.flags = TR_NFS_F_REPLY;
    if (dir)
        e.fh = fh(dir);
    return e;
}

static struct tr_nfs_attr attr(enum tr_nfs_ftype type, uint64_t size)
{
    struct tr_nfs_attr a = {.have = TR_NFS_A_TYPE | TR_NFS_A_SIZE | TR_NFS_A_MODE,
                            .type = type,
                            .size = size,
                            .mode = 0644};
    return a;
}

static void feed(struct im_image *img, const struct tr_nfs_event *e)
{
    assert_int_equal(im_event(img, e), 0);
}

static void mnt(struct im_image *img, unsigned root)
{
    struct tr_nfs_event e = ev(0, 0, 0);

    e.prog = TR_NFS_PROG_MOUNT;
    e.proc = 1;
    e.op = NF_OP_MOUNT;
    e.text = "/export";
    e.res_fh = fh(root);
    feed(img, &e);
}

static void lookup(struct im_image *img, int64_t t, unsigned dir, const char *name,
                   unsigned res, enum tr_nfs_ftype type, uint64_t size)
{
    struct tr_nfs_event e = ev(NF_OP_LOOKUP, t, dir);

    e.name = name;
    e.res_fh = fh(res);
    e.attr = attr(type, size);
    feed(img, &e);
}

static uint32_t id(const struct im_image *img, unsigned n)
{
    struct nf_fh f = fh(n);

    return im_find(img, &f);
}

static const struct im_obj *obj(const struct im_image *img, unsigned n)
{
    uint32_t i = id(img, n);

    assert_int_not_equal(i, IM_NONE_ID);
    return im_obj(img, i);
}

static const char *path(const struct im_image *img, uint32_t i)
{
    static char buf[TR_NFS_PATH_MAX];
    const char *p = im_path(img, i, buf, sizeof(buf));

    return p ? p : "(none)";
}

/* The walk as lines "KIND path", one string. */
struct walked {
    char text[4096];
};

static int on_walk(void *data, const struct im_walk_item *w)
{
    static const char *kinds[] = {"root", "orphan", "entry", "link"};
    struct walked *s = data;
    size_t n = strlen(s->text);

    snprintf(s->text + n, sizeof(s->text) - n, "%s %s;", kinds[w->kind], w->path);
    return 0;
}

static const char *walk(const struct im_image *img)
{
    static struct walked s;

    s.text[0] = 0;
    assert_int_equal(im_walk(img, on_walk, &s, NULL), 0);
    return s.text;
}

/* MNT, lookups, attributes, reads and a write past the end. */
static void tree_and_sizes(void **state)
{
    struct im_image *img = im_new();
    struct tr_nfs_event e;
    const uint32_t *roots;

    (void)state;
    mnt(img, 1);
    lookup(img, 10, 1, "a", 2, TR_NFS_DIR, 4096);
    lookup(img, 20, 2, "f", 3, TR_NFS_REG, 100);
    e = ev(NF_OP_READ, 30, 3);
    e.count = 4096;
    e.res_count = 100;
    e.eof = 1;
    feed(img, &e);
    e = ev(NF_OP_WRITE, 40, 3);
    e.offset = 100;
    e.count = 50;
    e.pre = attr(TR_NFS_REG, 100);
    e.attr = attr(TR_NFS_REG, 150);
    feed(img, &e);
    e = ev(NF_OP_GETATTR, 50, 3);
    e.attr = attr(TR_NFS_REG, 150);
    feed(img, &e);
    assert_int_equal(im_finish(img), 0);

    assert_int_equal(im_roots(img, &roots), 1);
    assert_int_equal(roots[0], id(img, 1));
    assert_string_equal(im_root_path(img, roots[0]), "/export");
    assert_int_equal(im_root_inferred(img), 0);
    assert_int_equal(obj(img, 1)->type, TR_NFS_DIR);
    assert_int_equal(obj(img, 2)->type, TR_NFS_DIR);
    assert_int_equal(obj(img, 3)->type, TR_NFS_REG);
    assert_int_equal(obj(img, 3)->size, 100); /* at the start, not 150 */
    assert_int_equal(obj(img, 3)->size_max, 150);
    assert_true(obj(img, 3)->flags & IM_O_SIZE_EXACT);
    assert_true(obj(img, 3)->flags & IM_O_SIZE_CHANGED);
    assert_int_equal(obj(img, 3)->mode, 0644);
    assert_int_equal(obj(img, 3)->depth, 2);
    assert_string_equal(path(img, id(img, 3)), "a/f");
    assert_string_equal(path(img, id(img, 1)), "");
    assert_string_equal(walk(img), "root ;entry a;entry a/f;");
    assert_int_equal(im_event(img, &e), -EINVAL); /* after finish */
    im_free(img);
}

/* Sizes from READ replies alone (lower bounds), a READ the capture has no
 * reply for, and a SETATTR of the size whose pre-op attributes tell the
 * size before it. */
static void sizes_without_attributes(void **state)
{
    struct im_image *img = im_new();
    struct tr_nfs_event e;

    (void)state;
    mnt(img, 1);
    e = ev(NF_OP_READ, 10, 5);
    e.offset = 8192;
    e.count = 4096;
    e.res_count = 4096;
    feed(img, &e);
    e.offset = 0;
    e.res_count = 10;
    feed(img, &e); /* a smaller read does not lower it */
    e = ev(NF_OP_WRITE, 20, 5);
    e.offset = 20000;
    e.count = 100;
    feed(img, &e); /* past the known end: the size may change here */
    e = ev(NF_OP_READ, 30, 5);
    e.offset = 20000;
    e.res_count = 100;
    feed(img, &e); /* after the change: not the start size */
    e = ev(NF_OP_READ, 10, 6);
    e.flags = 0; /* unanswered: offset + count */
    e.offset = 100;
    e.count = 28;
    feed(img, &e);
    e = ev(NF_OP_SETATTR, 40, 7);
    e.sattr.have = TR_NFS_A_SIZE;
    e.pre = attr(TR_NFS_REG, 777);
    e.attr = attr(TR_NFS_REG, 0);
    feed(img, &e);
    assert_int_equal(im_finish(img), 0);
    assert_int_equal(obj(img, 5)->size, 12288);
    assert_false(obj(img, 5)->flags & IM_O_SIZE_EXACT);
    assert_true(obj(img, 5)->flags & IM_O_TYPE_GUESSED);
    assert_int_equal(obj(img, 5)->type, TR_NFS_REG);
    assert_int_equal(obj(img, 6)->size, 128);
    assert_int_equal(obj(img, 7)->size, 777);
    assert_true(obj(img, 7)->flags & IM_O_SIZE_CHANGED);
    /* used by handle only: orphan tops named by their handles */
    assert_true(obj(img, 5)->flags & IM_O_ORPHAN);
    assert_string_equal(path(img, id(img, 5)), "h68616e646c65000000050000");
    im_free(img);
}

/* Objects created, renamed and removed during the trace; a REMOVE of a
 * name never looked up; a directory emptied and removed. */
static void create_rename_remove(void **state)
{
    struct im_image *img = im_new();
    struct tr_nfs_event e;
    const struct im_counts *c;
    uint32_t i, ghost = IM_NONE_ID;

    (void)state;
    mnt(img, 1);
    lookup(img, 10, 1, "d", 2, TR_NFS_DIR, 4096);
    lookup(img, 11, 2, "f", 3, TR_NFS_REG, 10);
    e = ev(NF_OP_CREATE, 20, 1);
    e.name = "new";
    e.res_fh = fh(4);
    e.attr = attr(TR_NFS_REG, 0);
    feed(img, &e);
    e = ev(NF_OP_WRITE, 21, 4);
    e.count = 5000;
    feed(img, &e);
    e = ev(NF_OP_RENAME, 30, 1);
    e.name = "new";
    e.fh2 = fh(2);
    e.name2 = "moved";
    feed(img, &e);
    e = ev(NF_OP_REMOVE, 40, 2);
    e.name = "f";
    feed(img, &e);
    e = ev(NF_OP_REMOVE, 41, 2);
    e.name = "ghost"; /* never looked up: existed at the start */
    feed(img, &e);
    e = ev(NF_OP_REMOVE, 42, 2);
    e.name = "moved";
    e.flags = 0; /* no reply: assumed done */
    feed(img, &e);
    e = ev(NF_OP_RMDIR, 50, 1);
    e.name = "d";
    feed(img, &e);
    e = ev(NF_OP_REMOVE, 51, 1);
    e.name = "nothere";
    e.status = 2; /* NOENT: nothing happens */
    feed(img, &e);
    assert_int_equal(im_finish(img), 0);

    assert_true(obj(img, 4)->flags & IM_O_CREATED);
    assert_false(obj(img, 4)->flags & IM_O_AT_START);
    assert_true(obj(img, 4)->flags & IM_O_RENAMED);
    assert_true(obj(img, 4)->flags & IM_O_REMOVED);
    assert_int_equal(obj(img, 4)->created_ns, 20);
    assert_int_equal(obj(img, 4)->removed_ns, 42);
    assert_int_equal(obj(img, 4)->size, 0);
    assert_int_equal(obj(img, 4)->size_max, 5000);
    assert_string_equal(path(img, id(img, 4)), "new"); /* where it was created */
    assert_true(obj(img, 3)->flags & IM_O_REMOVED);
    assert_true(obj(img, 3)->flags & IM_O_AT_START);
    assert_true(obj(img, 2)->flags & IM_O_REMOVED);
    for (i = 0; i < im_nobjs(img); i++)
        if (im_obj(img, i)->flags & IM_O_NO_HANDLE)
            ghost = i;
    assert_int_not_equal(ghost, IM_NONE_ID);
    assert_int_equal(im_obj(img, ghost)->type, TR_NFS_REG);
    assert_true(im_obj(img, ghost)->flags & IM_O_REMOVED);
    assert_string_equal(path(img, ghost), "d/ghost");
    /* the tree at the start: everything that existed, nothing created */
    assert_string_equal(walk(img), "root ;entry d;entry d/f;entry d/ghost;");
    c = im_counts(img);
    assert_int_equal(c->assumed_ok, 1);
    assert_int_equal(c->name_only, 1);
    assert_int_equal(c->untraced_names, 0);
    im_free(img);
}

/* Hard links at the start and made by LINK; symlinks; READLINK. */
static void links_and_symlinks(void **state)
{
    struct im_image *img = im_new();
    struct tr_nfs_event e;
    size_t len;
    const char *t;

    (void)state;
    mnt(img, 1);
    lookup(img, 10, 1, "x", 3, TR_NFS_REG, 1);
    lookup(img, 11, 1, "sub", 2, TR_NFS_DIR, 1);
    lookup(img, 12, 2, "y", 3, TR_NFS_REG, 1);
    e = ev(NF_OP_LINK, 20, 3);
    e.fh2 = fh(1);
    e.name2 = "z";
    feed(img, &e);
    e = ev(NF_OP_SYMLINK, 30, 2);
    e.name = "s";
    e.text = "../x";
    e.res_fh = fh(4);
    feed(img, &e);
    lookup(img, 40, 1, "old", 5, TR_NFS_LNK, 3);
    e = ev(NF_OP_READLINK, 41, 5);
    e.text = "abc";
    feed(img, &e);
    assert_int_equal(im_finish(img), 0);
    assert_int_equal(obj(img, 3)->nlinks, 3);
    assert_string_equal(walk(img), "root ;entry x;entry sub;entry old;link sub/y;");
    t = im_target(img, id(img, 4), &len);
    assert_non_null(t);
    assert_int_equal(len, 4);
    assert_memory_equal(t, "../x", 4);
    assert_int_equal(obj(img, 4)->type, TR_NFS_LNK);
    assert_true(obj(img, 4)->flags & IM_O_CREATED);
    t = im_target(img, id(img, 5), &len);
    assert_non_null(t);
    assert_memory_equal(t, "abc", 3);
    im_free(img);
}

/* READDIR names without handles take their handle from a later LOOKUP, or
 * merge into the object their fileid shows; READDIRPLUS names carry theirs. */
static void listings(void **state)
{
    struct im_image *img = im_new();
    struct tr_nfs_dirent d[4];
    struct tr_nfs_event e;
    uint32_t before;

    (void)state;
    mnt(img, 1);
    memset(d, 0, sizeof(d));
    d[0].name = ".";
    d[1].name = "p";
    d[1].fileid = 101;
    d[2].name = "q";
    d[2].fileid = 102;
    d[3].name = "r";
    d[3].fileid = 103;
    e = ev(NF_OP_READDIR, 10, 1);
    e.entries = d;
    e.nentries = 4;
    feed(img, &e);
    before = im_nobjs(img);
    assert_int_equal(before, 4);
    lookup(img, 20, 1, "p", 7, TR_NFS_REG, 70); /* takes its handle */
    assert_int_equal(im_nobjs(img), before);
    e = ev(NF_OP_GETATTR, 30, 8);
    e.attr = attr(TR_NFS_DIR, 4096);
    e.attr.have |= TR_NFS_A_FILEID;
    e.attr.fileid = 102; /* q's: the two are one object */
    feed(img, &e);
    memset(d, 0, sizeof(d));
    d[0].name = "t";
    d[0].fh = fh(9);
    d[0].attr = attr(TR_NFS_REG, 9);
    e = ev(NF_OP_READDIRPLUS, 40, 8);
    e.entries = d;
    e.nentries = 1;
    feed(img, &e);
    assert_int_equal(im_finish(img), 0);
    assert_int_equal(obj(img, 7)->size, 70);
    assert_false(obj(img, 7)->flags & IM_O_NO_HANDLE);
    assert_int_equal(im_counts(img)->merged, 1);
    assert_int_equal(obj(img, 8)->nlinks, 1);
    assert_string_equal(path(img, id(img, 8)), "q");
    assert_int_equal(obj(img, 9)->size, 9);
    assert_string_equal(walk(img), "root ;entry p;entry q;entry q/t;entry r;");
    im_free(img);
}

/* Without MNT the largest parentless tree is the root; with MNT it is an
 * orphan tree named by its top's handle, and a subdirectory of the export
 * mounted as well is placed inside the export's tree. */
static void roots_and_orphans(void **state)
{
    struct im_image *img;
    struct tr_nfs_event e;
    const uint32_t *ids;
    int with_mnt;

    (void)state;
    for (with_mnt = 0; with_mnt < 2; with_mnt++) {
        img = im_new();
        if (with_mnt)
            mnt(img, 1);
        lookup(img, 10, 2, "c", 3, TR_NFS_DIR, 1);
        lookup(img, 11, 3, "e", 4, TR_NFS_REG, 1);
        e = ev(NF_OP_GETATTR, 12, 5);
        e.attr = attr(TR_NFS_REG, 3);
        feed(img, &e);
        if (with_mnt) { /* a subdirectory of the export mounted too */
            struct tr_nfs_event m = ev(0, 0, 0);
            m.prog = TR_NFS_PROG_MOUNT;
            m.proc = 1;
            m.text = "/export/sub";
            m.res_fh = fh(7);
            feed(img, &m);
            lookup(img, 13, 1, "sub", 7, TR_NFS_DIR, 1);
            lookup(img, 14, 7, "x", 8, TR_NFS_REG, 1);
        }
        assert_int_equal(im_finish(img), 0);
        assert_int_equal(im_roots(img, &ids), 1 + with_mnt);
        if (!with_mnt) {
            assert_int_equal(ids[0], id(img, 2));
            assert_int_equal(im_root_inferred(img), 1);
            assert_string_equal(path(img, id(img, 4)), "c/e");
            assert_int_equal(im_orphan_tops(img, &ids), 1);
            assert_int_equal(ids[0], id(img, 5));
        } else {
            assert_string_equal(path(img, id(img, 4)), "h68616e646c65000000020000/c/e");
            assert_true(obj(img, 4)->flags & IM_O_ORPHAN);
            assert_int_equal(im_orphan_tops(img, &ids), 2);
            assert_string_equal(path(img, id(img, 8)), "sub/x");
            assert_string_equal(walk(img), "root ;entry sub;entry sub/x;"
                                           "orphan h68616e646c65000000020000;"
                                           "entry h68616e646c65000000020000/c;"
                                           "entry h68616e646c65000000020000/c/e;"
                                           "orphan h68616e646c65000000050000;");
        }
        im_free(img);
    }
}

/* An image saved and loaded back answers as the one built: the walk,
 * paths (orphans by handle), targets, handles, roots and counts; a file
 * cut short or with an index out of range is refused. */
static void a_saved_image_answers_as_the_built_one(void **state)
{
    struct im_image *img = im_new(), *back = NULL;
    struct tr_nfs_event e;
    const uint32_t *ids;
    char err[CM_ERR_LEN], built[4096];
    FILE *f = tmpfile();
    long len;
    size_t n;
    const char *t;
    uint8_t *bytes;
    uint32_t o;

    (void)state;
    assert_non_null(f);
    mnt(img, 1);
    lookup(img, 10, 1, "x", 3, TR_NFS_REG, 1);
    lookup(img, 11, 3, "e", 4, TR_NFS_REG, 1); /* x is a file: an odd trace */
    lookup(img, 12, 6, "c", 9, TR_NFS_DIR, 1); /* 6: an orphan */
    e = ev(NF_OP_SYMLINK, 30, 1);
    e.name = "s";
    e.text = "../x";
    e.res_fh = fh(10);
    feed(img, &e);
    assert_int_equal(im_finish(img), 0);
    snprintf(built, sizeof(built), "%s", walk(img));
    assert_int_equal(im_save(img, f), 0);
    len = ftell(f);
    rewind(f);
    assert_int_equal(im_load(&back, f, err, sizeof(err)), 0);
    assert_int_equal(ftell(f), len);
    assert_string_equal(walk(back), built);
    assert_int_equal(im_nobjs(back), im_nobjs(img));
    for (o = 0; o < im_nobjs(img); o++) {
        char a[TR_NFS_PATH_MAX];

        assert_memory_equal(im_obj(back, o), im_obj(img, o), sizeof(struct im_obj));
        snprintf(a, sizeof(a), "%s", path(img, o));
        assert_string_equal(path(back, o), a);
    }
    assert_int_equal(im_find(back, &(struct nf_fh){0}), IM_NONE_ID);
    {
        struct nf_fh h = fh(9);
        assert_int_equal(im_find(back, &h), im_find(img, &h));
    }
    t = im_target(back, id(img, 10), &n);
    assert_non_null(t);
    assert_memory_equal(t, "../x", 4);
    assert_int_equal(im_roots(back, &ids), 1);
    assert_int_equal(im_orphan_tops(back, &ids), im_orphan_tops(img, &ids));
    assert_memory_equal(im_counts(back), im_counts(img), sizeof(struct im_counts));
    im_free(back);

    bytes = malloc((size_t)len);
    assert_non_null(bytes);
    rewind(f);
    assert_int_equal(fread(bytes, 1, (size_t)len, f), (size_t)len);
    assert_int_equal(ftruncate(fileno(f), len - 3), 0); /* cut short */
    assert_int_equal(fflush(f), 0);                     /* the buffer's copy goes */
    rewind(f);
    assert_true(im_load(&back, f, err, sizeof(err)) < 0);
    assert_null(back);
    assert_string_equal(err, "the image is cut short");
    bytes[40 + 72 + 64] = 0xff; /* object 0's top: header, counts, 64 bytes in */
    rewind(f);
    assert_int_equal(fwrite(bytes, 1, (size_t)len, f), (size_t)len);
    rewind(f);
    assert_true(im_load(&back, f, err, sizeof(err)) < 0);
    assert_string_equal(err, "the image is damaged");
    free(bytes);
    fclose(f);
    im_free(img);
}

/* A name that comes to name another object with no traced call; a name
 * in a directory the trace created; "." and ".."; a call the server
 * refused at the RPC level. */
static void untraced_changes(void **state)
{
    struct im_image *img = im_new();
    struct tr_nfs_event e;

    (void)state;
    mnt(img, 1);
    lookup(img, 10, 1, "a", 2, TR_NFS_REG, 1);
    lookup(img, 20, 1, "a", 3, TR_NFS_REG, 2);
    lookup(img, 21, 1, "..", 1, TR_NFS_DIR, 1);
    e = ev(NF_OP_MKDIR, 30, 1);
    e.name = "m";
    e.res_fh = fh(4);
    feed(img, &e);
    lookup(img, 40, 4, "inside", 5, TR_NFS_REG, 1);
    e = ev(NF_OP_REMOVE, 50, 1);
    e.name = "a";
    e.rpc_status = TR_NFS_RPC_GARBAGE_ARGS; /* refused: nothing removed */
    feed(img, &e);
    assert_int_equal(im_finish(img), 0);
    assert_int_equal(im_counts(img)->untraced_names, 2);
    assert_int_equal(im_counts(img)->dot_names, 1);
    assert_int_equal(im_counts(img)->events, 7);
    assert_true(obj(img, 2)->flags & IM_O_REMOVED);
    assert_int_equal(obj(img, 4)->type, TR_NFS_DIR);
    assert_false(obj(img, 5)->flags & IM_O_AT_START);
    assert_string_equal(path(img, id(img, 5)), "m/inside");
    assert_false(obj(img, 3)->flags & IM_O_AT_START); /* made untraced */
    assert_string_equal(walk(img), "root ;entry a;");
    im_free(img);
}

/* The handle map: dense ids in order of first sight, bytes kept. */
static void fhmap(void **state)
{
    struct im_fhmap *m = im_fhmap_new();
    struct nf_fh f, g;
    char hex[256];
    int added;
    unsigned i;

    (void)state;
    for (i = 0; i < 5000; i++) {
        f = fh(i);
        assert_int_equal(im_fhmap_id(m, &f, 1, &added), i);
        assert_int_equal(added, 1);
    }
    for (i = 0; i < 5000; i += 7) {
        f = fh(i);
        assert_int_equal(im_fhmap_id(m, &f, 0, &added), i);
        assert_int_equal(added, 0);
        im_fhmap_get(m, i, &g);
        assert_int_equal(g.len, 12);
        assert_memory_equal(g.data, f.data, 12);
    }
    f = fh(9999);
    assert_int_equal(im_fhmap_id(m, &f, 0, NULL), -ENOENT);
    f.len = 0;
    assert_int_equal(im_fhmap_id(m, &f, 1, NULL), -EINVAL);
    assert_int_equal(im_fhmap_count(m), 5000);
    f = fh(1);
    assert_string_equal(im_fh_hex(&f, hex, sizeof(hex)), "68616e646c65000000010000");
    assert_string_equal(im_fh_hex(&f, hex, 5), "");
    assert_true(im_fhmap_mem(m) > 5000 * 12);
    im_fhmap_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tree_and_sizes),
        cmocka_unit_test(sizes_without_attributes),
        cmocka_unit_test(create_rename_remove),
        cmocka_unit_test(links_and_symlinks),
        cmocka_unit_test(listings),
        cmocka_unit_test(roots_and_orphans),
        cmocka_unit_test(a_saved_image_answers_as_the_built_one),
        cmocka_unit_test(untraced_changes),
        cmocka_unit_test(fhmap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
