/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fs.c - the in-memory file system behind sfs_nfsd (server layer).  Nodes
 * are found by file id in a JudyL map (map.c; handles carry file id,
 * generation and server instance, so a removed object's handle is STALE
 * and no lookup scans anything); a directory keeps its entries in a
 * chained hash by name (measured faster than JudySL and JudyHS: see
 * name_hash) and an array in cookie order (READDIR resumes by binary
 * search); file data lives in chunks of up to SV_CHUNK bytes in a
 * per-file JudyL map keyed by chunk number, so holes cost nothing, and a
 * chunk holds only up to the last byte written in it (rounded to 1 KiB),
 * so small files cost little.  Capacity (--max-bytes) counts the bytes
 * chunks hold.  Everything returns NFSv3 status numbers; permission
 * checks are access.c's, around these operations.
 */
#include "server/sv_int.h"
#include "nfs3_prot.h"
#include "common/alloc.h"
#include "common/bytes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct sv_fs {
    struct sv_map nodes; /* fileid -> struct sv_node * */
    uint64_t next_fileid;
    uint32_t next_gen;
    uint64_t instance;
    uint64_t max_bytes;
    uint64_t used_bytes;
    uint64_t freed_bytes; /* file data freed since the heap was last trimmed */
    uint64_t nfiles;
    struct sv_node *root;
};

void sv__now(struct sv_time *t)
{
    cm_wall_time(&t->sec, &t->nsec);
}

/* ---- nodes --------------------------------------------------------------- */

static struct sv_node *node_new(struct sv_fs *fs, enum sv_type type, uint32_t uid,
                                uint32_t gid)
{
    struct sv_node *n = cm_calloc(1, sizeof(*n));

    if (n == NULL)
        return NULL;
    n->fileid = fs->next_fileid;
    if (sv__map_put(&fs->nodes, n->fileid, n) != 0) {
        free(n);
        return NULL;
    }
    fs->next_fileid++;
    n->gen = ++fs->next_gen;
    n->type = type;
    n->mode = type == SV_DIR ? 0755 : type == SV_LNK ? 0777 : 0644;
    n->nlink = type == SV_DIR ? 2 : 1;
    n->uid = uid;
    n->gid = gid;
    if (type == SV_DIR)
        n->u.dir.next_cookie = SV_COOKIE_FIRST;
    sv__now(&n->ctime);
    n->atime = n->mtime = n->btime = n->ctime;
    fs->nfiles++;
    return n;
}

/* A chunk: cap bytes of data held, the rest of its SV_CHUNK span reads as
 * zeros until a write extends it. */
struct chunk {
    uint32_t cap;
    uint8_t data[];
};
#define CHUNK_GRAIN 1024u

/* The capacity a chunk needs to hold bytes up to end (exclusive). */
static uint32_t chunk_cap_for(uint32_t cap, uint32_t end)
{
    uint32_t want;

    if (end <= cap)
        return cap;
    want = cap * 2 > end ? cap * 2 : end; /* doubling: appends stay O(1) */
    want = (want + CHUNK_GRAIN - 1) / CHUNK_GRAIN * CHUNK_GRAIN;
    return want > SV_CHUNK ? SV_CHUNK : want;
}

/* Frees the chunks at and beyond index first, in one ordered walk.  Every
 * TRIM_BYTES of file data freed, the heap gives its free pages back to the
 * system: chunks are small blocks, which libc keeps for reuse, so a server
 * whose files were removed would otherwise keep their size resident. */
#define TRIM_BYTES (16u << 20)
static void data_free_from(struct sv_fs *fs, struct sv_node *n, uint64_t first)
{
    struct sv_map *m = &n->u.reg.chunks;
    uint64_t key = first;
    struct chunk *ch;

    while ((ch = sv__map_next(m, &key)) != NULL) {
        sv__map_del(m, key);
        n->used -= ch->cap;
        fs->used_bytes -= ch->cap;
        fs->freed_bytes += ch->cap;
        free(ch);
        key++;
    }
    if (fs->freed_bytes >= TRIM_BYTES) {
        fs->freed_bytes = 0;
        cm_alloc_release();
    }
}

static void node_free(struct sv_fs *fs, struct sv_node *n)
{
    sv__map_del(&fs->nodes, n->fileid);
    if (n->type == SV_REG) {
        data_free_from(fs, n, 0);
    } else if (n->type == SV_LNK) {
        free(n->u.lnk.target);
    } else if (n->type == SV_DIR) {
        free(n->u.dir.buckets);
        free(n->u.dir.order);
    }
    fs->nfiles--;
    free(n);
}

/* ---- file system --------------------------------------------------------- */

struct sv_fs *sv__fs_new(uint64_t max_bytes, uint64_t instance)
{
    struct sv_fs *fs = cm_calloc(1, sizeof(*fs));

    if (fs == NULL)
        return NULL;
    fs->max_bytes = max_bytes;
    fs->instance = instance;
    fs->next_fileid = 2; /* 1 is left unused: some clients treat it as special */
    fs->root = node_new(fs, SV_DIR, 0, 0);
    if (fs->root == NULL) {
        free(fs);
        return NULL;
    }
    fs->root->mode = 0777;
    fs->root->parent = fs->root->fileid;
    return fs;
}

void sv__fs_free(struct sv_fs *fs)
{
    struct sv_node *n;
    uint64_t key = 0;

    if (fs == NULL)
        return;
    /* Free every node without walking the tree: dirents are owned by their
     * directory, nodes by the map (node_free takes each out of it). */
    while ((n = sv__map_next(&fs->nodes, &key)) != NULL) {
        if (n->type == SV_DIR)
            for (size_t k = 0; k < n->u.dir.norder; k++)
                free(n->u.dir.order[k].e);
        node_free(fs, n);
        key++;
    }
    sv__map_free(&fs->nodes);
    free(fs);
}

struct sv_node *sv__fs_root(struct sv_fs *fs)
{
    return fs->root;
}

void sv__fs_usage(const struct sv_fs *fs, struct sv_fs_usage *u)
{
    u->used_bytes = fs->used_bytes;
    u->total_bytes = fs->max_bytes ? fs->max_bytes : SV_FILE_MAX;
    u->files = fs->nfiles;
}

/* ---- handles ------------------------------------------------------------- */

/* Layout: "SFS" 0x01 | instance (8) | fileid (8) | generation (4) | zeros. */
static const uint8_t fh_magic[4] = {'S', 'F', 'S', 1};

void sv__fs_handle(const struct sv_fs *fs, const struct sv_node *n, uint8_t fh[SV_FH_LEN])
{
    memset(fh, 0, SV_FH_LEN);
    memcpy(fh, fh_magic, 4);
    cm_be64_put(fh + 4, fs->instance);
    cm_be64_put(fh + 12, n->fileid);
    cm_be32_put(fh + 20, n->gen);
}

int sv__fs_from_handle(struct sv_fs *fs, const void *fh, size_t len, struct sv_node **out)
{
    const uint8_t *p = fh;
    struct sv_node *n;

    *out = NULL;
    if (len != SV_FH_LEN || p == NULL || memcmp(p, fh_magic, 4) != 0)
        return NFS3ERR_BADHANDLE;
    if (cm_be64_get(p + 4) != fs->instance)
        return NFS3ERR_STALE;
    n = sv__map_get(&fs->nodes, cm_be64_get(p + 12));
    if (n == NULL)
        return NFS3ERR_STALE;
    if (n->gen != cm_be32_get(p + 20))
        return NFS3ERR_STALE;
    *out = n;
    return 0;
}

/* ---- directories --------------------------------------------------------- */

int sv__fs_check_name(const char *name)
{
    size_t len;

    if (name == NULL || name[0] == '\0')
        return NFS3ERR_INVAL;
    len = strlen(name);
    if (len > SV_NAME_MAX)
        return NFS3ERR_NAMETOOLONG;
    if (strchr(name, '/') != NULL)
        return NFS3ERR_INVAL;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return NFS3ERR_EXIST;
    return 0;
}

/* Names in a directory: a chained hash (FNV-1a; names are short and the
 * table is private, nothing to defend), not JudySL or JudyHS, because
 * bench/nfsd_names.c measured the hash faster where it counts: a LOOKUP
 * hit takes 1.05-1.4x (JudySL) and 0.95-1.6x (JudyHS) the hash's time,
 * inserts and removes 1.4-3.8x, for directories of 30 to 100 000 names
 * (docs/PERFORMANCE.md).  Only misses are faster in JudyHS. */
static uint32_t name_hash(const char *name)
{
    uint32_t h = 2166136261u;
    for (; *name; name++)
        h = (h ^ (uint8_t)*name) * 16777619u;
    return h;
}

static struct sv_dirent *dir_find(struct sv_node *dir, const char *name)
{
    uint32_t h;

    if (dir->u.dir.nbuckets == 0)
        return NULL;
    h = name_hash(name);
    for (struct sv_dirent *e = dir->u.dir.buckets[h & (dir->u.dir.nbuckets - 1)]; e;
         e = e->hnext)
        if (e->hash == h && strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

/* Keeps at most two entries per bucket on average. */
static int dir_rehash(struct sv_node *dir)
{
    size_t nb = dir->u.dir.nbuckets ? dir->u.dir.nbuckets * 2 : 8;
    struct sv_dirent **b = cm_calloc(nb, sizeof(*b));

    if (b == NULL)
        return -ENOMEM;
    for (size_t i = 0; i < dir->u.dir.nbuckets; i++) {
        struct sv_dirent *e = dir->u.dir.buckets[i], *next;
        for (; e; e = next) {
            next = e->hnext;
            e->hnext = b[e->hash & (nb - 1)];
            b[e->hash & (nb - 1)] = e;
        }
    }
    free(dir->u.dir.buckets);
    dir->u.dir.buckets = b;
    dir->u.dir.nbuckets = nb;
    return 0;
}

/* Index of the first slot with a cookie greater than cookie. */
static size_t order_after(const struct sv_node *dir, uint64_t cookie)
{
    size_t lo = 0, hi = dir->u.dir.norder;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (dir->u.dir.order[mid].cookie <= cookie)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int dir_add(struct sv_node *dir, const char *name, struct sv_node *n)
{
    size_t len = strlen(name);
    struct sv_dirent *e;
    size_t b;

    if (dir->u.dir.nentries + 1 > 2 * dir->u.dir.nbuckets && dir_rehash(dir) != 0)
        return NFS3ERR_NOSPC;
    if (dir->u.dir.norder == dir->u.dir.order_cap) {
        size_t cap = dir->u.dir.order_cap ? dir->u.dir.order_cap * 2 : 8;
        struct sv_dirslot *o = cm_realloc(dir->u.dir.order, cap * sizeof(*o));
        if (o == NULL)
            return NFS3ERR_NOSPC;
        dir->u.dir.order = o;
        dir->u.dir.order_cap = cap;
    }
    e = cm_malloc(sizeof(*e) + len + 1);
    if (e == NULL)
        return NFS3ERR_NOSPC;
    e->node = n;
    e->cookie = dir->u.dir.next_cookie++;
    e->hash = name_hash(name);
    memcpy(e->name, name, len + 1);
    b = e->hash & (dir->u.dir.nbuckets - 1);
    e->hnext = dir->u.dir.buckets[b];
    dir->u.dir.buckets[b] = e;
    dir->u.dir.order[dir->u.dir.norder].cookie = e->cookie;
    dir->u.dir.order[dir->u.dir.norder].e = e;
    dir->u.dir.norder++;
    dir->u.dir.nentries++;
    return 0;
}

static void dir_del(struct sv_node *dir, struct sv_dirent *e)
{
    struct sv_dirent **pp = &dir->u.dir.buckets[e->hash & (dir->u.dir.nbuckets - 1)];
    size_t i;

    while (*pp != e)
        pp = &(*pp)->hnext;
    *pp = e->hnext;
    i = order_after(dir, e->cookie - 1);
    dir->u.dir.order[i].e = NULL;
    dir->u.dir.dead++;
    dir->u.dir.nentries--;
    free(e);
    /* compact when the holes outnumber the entries: amortised O(1), and
     * cookies survive because they are stored in the slots */
    if (dir->u.dir.dead > 16 && dir->u.dir.dead > dir->u.dir.nentries) {
        size_t j = 0;
        for (i = 0; i < dir->u.dir.norder; i++)
            if (dir->u.dir.order[i].e != NULL)
                dir->u.dir.order[j++] = dir->u.dir.order[i];
        dir->u.dir.norder = j;
        dir->u.dir.dead = 0;
    }
}

static void touch_dir(struct sv_node *dir)
{
    sv__now(&dir->mtime);
    dir->ctime = dir->mtime;
}

struct sv_node *sv__fs_tree_parent(struct sv_fs *fs, struct sv_node *dir)
{
    struct sv_node *p = sv__map_get(&fs->nodes, dir->parent);

    return p ? p : fs->root;
}

struct sv_node *sv__fs_parent(struct sv_fs *fs, struct sv_node *dir)
{
    return dir->export_root ? dir : sv__fs_tree_parent(fs, dir);
}

int sv__fs_lookup(struct sv_fs *fs, struct sv_node *dir, const char *name,
                  struct sv_node **out)
{
    struct sv_dirent *e;

    *out = NULL;
    if (dir->type != SV_DIR)
        return NFS3ERR_NOTDIR;
    if (name == NULL || name[0] == '\0')
        return NFS3ERR_NOENT;
    if (strlen(name) > SV_NAME_MAX)
        return NFS3ERR_NAMETOOLONG;
    if (strcmp(name, ".") == 0) {
        *out = dir;
        return 0;
    }
    if (strcmp(name, "..") == 0) {
        *out = sv__fs_parent(fs, dir);
        return 0;
    }
    e = dir_find(dir, name);
    if (e == NULL)
        return NFS3ERR_NOENT;
    *out = e->node;
    return 0;
}

int sv__fs_dir_after(struct sv_fs *fs, struct sv_node *dir, uint64_t cookie,
                     struct sv_dirpos *pos)
{
    size_t i;

    if (cookie == 0 || cookie == 1) {
        pos->name = cookie == 0 ? "." : "..";
        pos->node = cookie == 0 ? dir : sv__fs_parent(fs, dir);
        pos->cookie = cookie + 1;
        return 1;
    }
    if (cookie >= dir->u.dir.next_cookie)
        return -1;
    for (i = order_after(dir, cookie); i < dir->u.dir.norder; i++) {
        const struct sv_dirslot *o = dir->u.dir.order;
        const struct sv_dirent *e = o[i].e;
        if (e == NULL)
            continue;
        pos->name = e->name;
        pos->node = e->node;
        pos->cookie = e->cookie;
        /* a READDIR asks for the next entries next: start loading them.
         * Entries and nodes are allocations of their own, and perf of the
         * v4.1 mix found the walk's time in waiting for them (the entry
         * here, the node in the attributes' encoding) */
        if (i + 2 < dir->u.dir.norder)
            __builtin_prefetch(o[i + 2].e);
        if (i + 1 < dir->u.dir.norder && o[i + 1].e != NULL)
            __builtin_prefetch(o[i + 1].e->node);
        return 1;
    }
    return 0;
}

/* ---- attributes ---------------------------------------------------------- */

static int set_size(struct sv_fs *fs, struct sv_node *n, uint64_t size)
{
    if (n->type == SV_DIR)
        return NFS3ERR_ISDIR;
    if (n->type != SV_REG)
        return NFS3ERR_INVAL;
    if (size > SV_FILE_MAX)
        return NFS3ERR_FBIG;
    if (size < n->size) {
        struct chunk *ch;
        uint32_t keep = (uint32_t)(size % SV_CHUNK);
        data_free_from(fs, n, (size + SV_CHUNK - 1) / SV_CHUNK);
        /* zero the tail of the partial chunk so a later extension reads
         * zeros, as POSIX truncate requires */
        ch = keep ? sv__map_get(&n->u.reg.chunks, size / SV_CHUNK) : NULL;
        if (ch != NULL && ch->cap > keep)
            memset(ch->data + keep, 0, ch->cap - keep);
    }
    n->size = size;
    sv__now(&n->mtime);
    return 0;
}

int sv__fs_setattr(struct sv_fs *fs, struct sv_node *n, const struct sv_sattr *sa)
{
    struct sv_time now;
    int st;

    if (sa->set_size && sa->size != n->size) {
        st = set_size(fs, n, sa->size);
        if (st != 0)
            return st;
    } else if (sa->set_size && n->type == SV_DIR) {
        return NFS3ERR_ISDIR;
    }
    sv__now(&now);
    if (sa->set_mode)
        n->mode = sa->mode & 07777;
    if (sa->set_uid)
        n->uid = sa->uid;
    if (sa->set_gid)
        n->gid = sa->gid;
    if (sa->set_atime)
        n->atime = sa->set_atime == 1 ? now : sa->atime;
    if (sa->set_mtime)
        n->mtime = sa->set_mtime == 1 ? now : sa->mtime;
    n->ctime = now;
    return 0;
}

/* ---- create, remove, rename, link ---------------------------------------- */

int sv__fs_create(struct sv_fs *fs, struct sv_node *dir, const char *name,
                  enum sv_type type, const struct sv_sattr *sa, uint32_t uid,
                  uint32_t gid, const char *target, struct sv_node **out)
{
    struct sv_dirent *e;
    struct sv_node *n;
    int st;

    *out = NULL;
    if (dir->type != SV_DIR)
        return NFS3ERR_NOTDIR;
    st = sv__fs_check_name(name);
    if (st != 0)
        return st;
    e = dir_find(dir, name);
    if (e != NULL) {
        *out = e->node;
        return NFS3ERR_EXIST;
    }
    if (type == SV_LNK && (target == NULL || strlen(target) > SV_PATH_MAX))
        return target ? NFS3ERR_NAMETOOLONG : NFS3ERR_INVAL;
    n = node_new(fs, type, uid, gid);
    if (n == NULL)
        return NFS3ERR_NOSPC;
    if (type == SV_LNK) {
        n->u.lnk.target = cm_strdup(target);
        if (n->u.lnk.target == NULL) {
            node_free(fs, n);
            return NFS3ERR_NOSPC;
        }
        n->size = strlen(target);
    }
    if (type == SV_DIR)
        n->parent = dir->fileid;
    st = dir_add(dir, name, n);
    if (st != 0) {
        node_free(fs, n);
        return st;
    }
    if (type == SV_DIR)
        dir->nlink++;
    touch_dir(dir);
    if (sa != NULL) {
        struct sv_sattr s = *sa;
        if (type != SV_REG)
            s.set_size = 0;
        sv__fs_setattr(fs, n, &s);
    }
    *out = n;
    return 0;
}

/* Drops one link of n (a name removed); frees it with the last one,
 * unless a hold keeps it (then the last release frees it). */
static void unlink_node(struct sv_fs *fs, struct sv_node *dir, struct sv_node *n)
{
    if (n->type == SV_DIR) {
        dir->nlink--;
        node_free(fs, n);
        return;
    }
    if (--n->nlink == 0 && n->holds == 0) {
        node_free(fs, n);
        return;
    }
    sv__now(&n->ctime);
}

void sv__fs_hold(struct sv_fs *fs, uint64_t fileid)
{
    struct sv_node *n = sv__map_get(&fs->nodes, fileid);

    if (n != NULL)
        n->holds++;
}

void sv__fs_release(struct sv_fs *fs, uint64_t fileid)
{
    struct sv_node *n = sv__map_get(&fs->nodes, fileid);

    if (n == NULL || n->holds == 0)
        return;
    if (--n->holds == 0 && n->nlink == 0 && n->type != SV_DIR)
        node_free(fs, n);
}

int sv__fs_remove(struct sv_fs *fs, struct sv_node *dir, const char *name, int want_dir)
{
    struct sv_dirent *e;
    struct sv_node *n;

    if (dir->type != SV_DIR)
        return NFS3ERR_NOTDIR;
    if (name != NULL && strcmp(name, ".") == 0)
        return NFS3ERR_INVAL;
    if (name != NULL && strcmp(name, "..") == 0)
        return want_dir ? NFS3ERR_NOTEMPTY : NFS3ERR_INVAL;
    if (name == NULL || name[0] == '\0')
        return NFS3ERR_NOENT;
    if (strlen(name) > SV_NAME_MAX)
        return NFS3ERR_NAMETOOLONG;
    e = dir_find(dir, name);
    if (e == NULL)
        return NFS3ERR_NOENT;
    n = e->node;
    if (want_dir && n->type != SV_DIR)
        return NFS3ERR_NOTDIR;
    if (!want_dir && n->type == SV_DIR)
        return NFS3ERR_ISDIR;
    if (want_dir && n->u.dir.nentries != 0)
        return NFS3ERR_NOTEMPTY;
    dir_del(dir, e);
    unlink_node(fs, dir, n);
    touch_dir(dir);
    return 0;
}

/* Whether a is b or one of b's ancestors (rename of a directory into its
 * own subtree is refused). */
static int is_ancestor(struct sv_fs *fs, struct sv_node *a, struct sv_node *b)
{
    for (;;) {
        if (a == b)
            return 1;
        if (b == fs->root)
            return 0;
        b = sv__fs_tree_parent(fs, b);
    }
}

int sv__fs_rename(struct sv_fs *fs, struct sv_node *fdir, const char *fname,
                  struct sv_node *tdir, const char *tname)
{
    struct sv_dirent *fe, *te;
    struct sv_node *n;
    int st;

    if (fdir->type != SV_DIR || tdir->type != SV_DIR)
        return NFS3ERR_NOTDIR;
    if (fname == NULL || strcmp(fname, ".") == 0 || strcmp(fname, "..") == 0)
        return NFS3ERR_INVAL;
    st = sv__fs_check_name(tname);
    if (st != 0)
        return st == NFS3ERR_EXIST ? NFS3ERR_INVAL : st;
    if (strlen(fname) > SV_NAME_MAX)
        return NFS3ERR_NAMETOOLONG;
    fe = dir_find(fdir, fname);
    if (fe == NULL)
        return NFS3ERR_NOENT;
    n = fe->node;
    te = dir_find(tdir, tname);
    if (te != NULL && te->node == n)
        return 0; /* same object: POSIX says do nothing */
    if (n->type == SV_DIR && is_ancestor(fs, n, tdir))
        return NFS3ERR_INVAL;
    if (te != NULL) {
        struct sv_node *old = te->node;
        if (n->type == SV_DIR && old->type != SV_DIR)
            return NFS3ERR_NOTDIR;
        if (n->type != SV_DIR && old->type == SV_DIR)
            return NFS3ERR_ISDIR;
        if (old->type == SV_DIR && old->u.dir.nentries != 0)
            return NFS3ERR_NOTEMPTY;
        dir_del(tdir, te);
        unlink_node(fs, tdir, old);
    }
    /* add the new name before dropping the old one, so a failure leaves
     * the tree as it was */
    st = dir_add(tdir, tname, n);
    if (st != 0)
        return st;
    dir_del(fdir, dir_find(fdir, fname));
    if (n->type == SV_DIR && fdir != tdir) {
        fdir->nlink--;
        tdir->nlink++;
        n->parent = tdir->fileid;
    }
    sv__now(&n->ctime);
    touch_dir(fdir);
    touch_dir(tdir);
    return 0;
}

int sv__fs_link(struct sv_fs *fs, struct sv_node *n, struct sv_node *dir,
                const char *name)
{
    int st;

    (void)fs;
    if (n->type == SV_DIR)
        return NFS3ERR_ISDIR;
    if (dir->type != SV_DIR)
        return NFS3ERR_NOTDIR;
    if (n->nlink == 0)
        return NFS3ERR_NOENT; /* kept only by an open: no new name, as POSIX link */
    st = sv__fs_check_name(name);
    if (st != 0)
        return st;
    if (dir_find(dir, name) != NULL)
        return NFS3ERR_EXIST;
    st = dir_add(dir, name, n);
    if (st != 0)
        return st;
    n->nlink++;
    sv__now(&n->ctime);
    touch_dir(dir);
    return 0;
}

/* ---- data ---------------------------------------------------------------- */

int sv__fs_read(struct sv_fs *fs, struct sv_node *n, uint64_t off, uint32_t count,
                void *buf, uint32_t *got, int *eof)
{
    uint8_t *out = buf;
    uint32_t done = 0;

    (void)fs;
    *got = 0;
    *eof = 0;
    if (n->type == SV_DIR)
        return NFS3ERR_ISDIR;
    if (n->type != SV_REG)
        return NFS3ERR_INVAL;
    if (off >= n->size) {
        *eof = 1;
        return 0;
    }
    if (count > n->size - off)
        count = (uint32_t)(n->size - off);
    while (done < count) {
        uint64_t pos = off + done;
        uint32_t in = (uint32_t)(pos % SV_CHUNK);
        uint32_t len = SV_CHUNK - in;
        const struct chunk *ch = sv__map_get(&n->u.reg.chunks, pos / SV_CHUNK);
        uint32_t held = ch == NULL || ch->cap <= in ? 0 : ch->cap - in;
        if (len > count - done)
            len = count - done;
        if (held > len)
            held = len;
        if (held > 0)
            memcpy(out + done, ch->data + in, held);
        memset(out + done + held, 0, len - held);
        done += len;
    }
    *got = count;
    *eof = off + count >= n->size;
    sv__now(&n->atime);
    return 0;
}

int sv__fs_write(struct sv_fs *fs, struct sv_node *n, uint64_t off, const void *data,
                 uint32_t count)
{
    const uint8_t *in = data;
    uint64_t need = 0, first, last, i;
    uint32_t done = 0;

    if (n->type == SV_DIR)
        return NFS3ERR_ISDIR;
    if (n->type != SV_REG)
        return NFS3ERR_INVAL;
    if (off > SV_FILE_MAX || count > SV_FILE_MAX - off)
        return NFS3ERR_FBIG;
    if (count == 0)
        return 0;
    /* count the chunks to allocate first: a write that does not fit fails
     * whole, with nothing changed */
    first = off / SV_CHUNK;
    last = (off + count - 1) / SV_CHUNK;
    for (i = first; i <= last; i++) {
        const struct chunk *ch = sv__map_get(&n->u.reg.chunks, i);
        uint32_t cap = ch ? ch->cap : 0;
        uint64_t end = off + count - i * SV_CHUNK;
        need += chunk_cap_for(cap, end > SV_CHUNK ? SV_CHUNK : (uint32_t)end) - cap;
    }
    if (fs->max_bytes && fs->used_bytes + need > fs->max_bytes)
        return NFS3ERR_NOSPC;
    while (done < count) {
        uint64_t pos = off + done;
        uint32_t at = (uint32_t)(pos % SV_CHUNK);
        uint32_t len = SV_CHUNK - at;
        struct chunk *ch = sv__map_get(&n->u.reg.chunks, pos / SV_CHUNK);
        uint32_t cap = ch ? ch->cap : 0, ncap;
        if (len > count - done)
            len = count - done;
        ncap = chunk_cap_for(cap, at + len);
        if (ncap != cap) {
            struct chunk *nch = cm_realloc(ch, sizeof(*ch) + ncap);
            if (nch == NULL)
                return NFS3ERR_NOSPC;
            if (ch == NULL && sv__map_put(&n->u.reg.chunks, pos / SV_CHUNK, nch) != 0) {
                free(nch);
                return NFS3ERR_NOSPC;
            }
            /* a moved chunk replaces the value of a key JudyL already
             * holds, which allocates nothing and cannot fail */
            if (ch != NULL && nch != ch)
                sv__map_put(&n->u.reg.chunks, pos / SV_CHUNK, nch);
            memset(nch->data + cap, 0, ncap - cap);
            nch->cap = ncap;
            n->used += ncap - cap;
            fs->used_bytes += ncap - cap;
            ch = nch;
        }
        memcpy(ch->data + at, in + done, len);
        done += len;
    }
    if (off + count > n->size)
        n->size = off + count;
    sv__now(&n->mtime);
    n->ctime = n->mtime;
    return 0;
}

/* ---- paths (MOUNT) ------------------------------------------------------- */

const char *sv__path_next(const char *p, char comp[SV_NAME_MAX + 1], int *st)
{
    size_t len;

    *st = 0;
    p += strspn(p, "/");
    if (*p == '\0')
        return NULL;
    len = strcspn(p, "/");
    if (len > SV_NAME_MAX) {
        *st = NFS3ERR_NAMETOOLONG;
        return NULL;
    }
    memcpy(comp, p, len);
    comp[len] = '\0';
    return p + len;
}

/* Follows path from the root one component at a time; mk creates the
 * missing ones. */
static int walk(struct sv_fs *fs, const char *path, int mk, struct sv_node **out)
{
    char comp[SV_NAME_MAX + 1];
    struct sv_node *n = fs->root, *next;
    const char *p = path;
    int st;

    *out = NULL;
    if (path == NULL || path[0] != '/')
        return NFS3ERR_NOENT;
    while ((p = sv__path_next(p, comp, &st)) != NULL) {
        /* "." and ".." would let "/export/.." name a directory outside
         * every export while passing the MNT prefix check */
        if (strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
            return NFS3ERR_INVAL;
        st = sv__fs_lookup(fs, n, comp, &next);
        if (st == NFS3ERR_NOENT && mk)
            st = sv__fs_create(fs, n, comp, SV_DIR, NULL, 0, 0, NULL, &next);
        if (st != 0)
            return st;
        n = next;
    }
    if (st != 0)
        return st;
    if (n->type != SV_DIR)
        return NFS3ERR_NOTDIR;
    *out = n;
    return 0;
}

int sv__fs_walk(struct sv_fs *fs, const char *path, struct sv_node **out)
{
    return walk(fs, path, 0, out);
}

int sv__fs_mkpath(struct sv_fs *fs, const char *path, struct sv_node **out)
{
    int st = walk(fs, path, 1, out);

    if (st == 0) {
        (*out)->mode = 0777; /* exports are open to every caller */
        (*out)->export_root = 1;
    }
    return st;
}
