/* SPDX-License-Identifier: BSD-2-Clause */
/* test_server_fs.c - unit tests for sfs_nfsd's in-memory file system
 * (src/server/fs.c, map.c): handles and STALE, name rules, sparse data and
 * capacity, truncation, READDIR cookies that survive removals, rename and
 * link semantics, large directories, and the hash map against a reference. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "server/sv_int.h"
#include "nfs3_prot.h"

static struct sv_fs *fs;

static int setup(void **state)
{
    (void)state;
    fs = sv__fs_new(1024 * 1024, 42);
    return fs ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    sv__fs_free(fs);
    return 0;
}

static struct sv_node *mk(struct sv_node *dir, const char *name, enum sv_type t)
{
    struct sv_node *n;
    assert_int_equal(
        sv__fs_create(fs, dir, name, t, NULL, 0, 0, t == SV_LNK ? "tgt" : NULL, &n), 0);
    return n;
}

static void handles_and_stale(void **state)
{
    struct sv_node *root = sv__fs_root(fs), *f, *back;
    uint8_t fh[SV_FH_LEN], other[SV_FH_LEN];

    (void)state;
    f = mk(root, "f", SV_REG);
    sv__fs_handle(fs, f, fh);
    assert_int_equal(sv__fs_from_handle(fs, fh, sizeof(fh), &back), 0);
    assert_ptr_equal(back, f);
    assert_int_equal(sv__fs_from_handle(fs, fh, 31, &back), NFS3ERR_BADHANDLE);
    memset(other, 0, sizeof(other));
    assert_int_equal(sv__fs_from_handle(fs, other, sizeof(other), &back),
                     NFS3ERR_BADHANDLE);
    memcpy(other, fh, sizeof(fh));
    other[11] ^= 1; /* another server instance */
    assert_int_equal(sv__fs_from_handle(fs, other, sizeof(other), &back), NFS3ERR_STALE);
    assert_int_equal(sv__fs_remove(fs, root, "f", 0), 0);
    assert_int_equal(sv__fs_from_handle(fs, fh, sizeof(fh), &back), NFS3ERR_STALE);
    /* a new object never reuses the file id, so the old handle stays STALE */
    mk(root, "f", SV_REG);
    assert_int_equal(sv__fs_from_handle(fs, fh, sizeof(fh), &back), NFS3ERR_STALE);
}

static void name_rules(void **state)
{
    struct sv_node *root = sv__fs_root(fs), *n, *f;
    char longname[300];

    (void)state;
    f = mk(root, "file", SV_REG);
    assert_int_equal(sv__fs_create(fs, root, "file", SV_REG, NULL, 0, 0, NULL, &n),
                     NFS3ERR_EXIST);
    assert_ptr_equal(n, f);
    assert_int_equal(sv__fs_create(fs, f, "x", SV_REG, NULL, 0, 0, NULL, &n),
                     NFS3ERR_NOTDIR);
    assert_int_equal(sv__fs_create(fs, root, "a/b", SV_REG, NULL, 0, 0, NULL, &n),
                     NFS3ERR_INVAL);
    assert_int_equal(sv__fs_create(fs, root, "", SV_REG, NULL, 0, 0, NULL, &n),
                     NFS3ERR_INVAL);
    memset(longname, 'x', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    assert_int_equal(sv__fs_create(fs, root, longname, SV_REG, NULL, 0, 0, NULL, &n),
                     NFS3ERR_NAMETOOLONG);
    assert_int_equal(sv__fs_lookup(fs, root, longname, &n), NFS3ERR_NAMETOOLONG);
    assert_int_equal(sv__fs_lookup(fs, root, ".", &n), 0);
    assert_ptr_equal(n, root);
    assert_int_equal(sv__fs_lookup(fs, root, "..", &n), 0);
    assert_ptr_equal(n, root);
    assert_int_equal(sv__fs_lookup(fs, root, "nope", &n), NFS3ERR_NOENT);
    assert_int_equal(sv__fs_lookup(fs, f, "x", &n), NFS3ERR_NOTDIR);
}

static void sparse_data_and_capacity(void **state)
{
    struct sv_node *f = mk(sv__fs_root(fs), "sparse", SV_REG);
    uint8_t buf[100], big[SV_CHUNK];
    uint32_t got;
    int eof;
    struct sv_fs_usage u;

    (void)state;
    assert_int_equal(sv__fs_write(fs, f, 1ULL << 40, "abc", 3), 0);
    assert_int_equal(f->size, (1ULL << 40) + 3);
    assert_int_equal(f->used, 1024); /* the hole costs nothing, 3 bytes 1 KiB */
    assert_int_equal(sv__fs_read(fs, f, 12345, sizeof(buf), buf, &got, &eof), 0);
    assert_int_equal(got, sizeof(buf));
    for (size_t i = 0; i < sizeof(buf); i++)
        assert_int_equal(buf[i], 0);
    assert_int_equal(sv__fs_read(fs, f, 1ULL << 40, 10, buf, &got, &eof), 0);
    assert_int_equal(got, 3);
    assert_true(eof);
    assert_memory_equal(buf, "abc", 3);
    /* capacity 1 MiB: 63 full chunks fit beside the 1 KiB one, the 64th
     * does not */
    memset(big, 7, sizeof(big));
    for (int i = 0; i < 63; i++)
        assert_int_equal(sv__fs_write(fs, f, (uint64_t)i * SV_CHUNK, big, sizeof(big)),
                         0);
    assert_int_equal(sv__fs_write(fs, f, 63ULL * SV_CHUNK, big, sizeof(big)),
                     NFS3ERR_NOSPC);
    sv__fs_usage(fs, &u);
    assert_int_equal(u.used_bytes, 63ULL * SV_CHUNK + 1024);
    /* overwriting held chunks needs no space */
    assert_int_equal(sv__fs_write(fs, f, 10, "zz", 2), 0);
    assert_int_equal(sv__fs_write(fs, f, SV_FILE_MAX, "z", 1), NFS3ERR_FBIG);
    /* removing the file gives the space back */
    assert_int_equal(sv__fs_remove(fs, sv__fs_root(fs), "sparse", 0), 0);
    sv__fs_usage(fs, &u);
    assert_int_equal(u.used_bytes, 0);
}

static void truncate_zeroes_tail(void **state)
{
    struct sv_node *f = mk(sv__fs_root(fs), "t", SV_REG);
    struct sv_sattr sa = {0};
    uint8_t data[3 * SV_CHUNK], back[3 * SV_CHUNK];
    uint32_t got;
    int eof;

    (void)state;
    memset(data, 0x55, sizeof(data));
    assert_int_equal(sv__fs_write(fs, f, 0, data, sizeof(data)), 0);
    sa.set_size = 1;
    sa.size = SV_CHUNK + 10;
    assert_int_equal(sv__fs_setattr(fs, f, &sa), 0);
    assert_int_equal(f->used, 2 * SV_CHUNK);
    sa.size = sizeof(data);
    assert_int_equal(sv__fs_setattr(fs, f, &sa), 0);
    assert_int_equal(sv__fs_read(fs, f, 0, sizeof(back), back, &got, &eof), 0);
    assert_int_equal(got, sizeof(back));
    assert_memory_equal(back, data, SV_CHUNK + 10);
    for (size_t i = SV_CHUNK + 10; i < sizeof(back); i++)
        assert_int_equal(back[i], 0);
    sa.size = 0;
    assert_int_equal(sv__fs_setattr(fs, f, &sa), 0);
    assert_int_equal(f->used, 0);
    sa.size = 5;
    assert_int_equal(sv__fs_setattr(fs, sv__fs_root(fs), &sa), NFS3ERR_ISDIR);
}

/* Random writes and truncations against a reference buffer: chunks that
 * grow, holes, partial tails. */
static void data_matches_reference(void **state)
{
    enum { SPAN = 5 * SV_CHUNK + 777 };
    static uint8_t ref[SPAN], buf[SPAN], back[SPAN];
    struct sv_node *f = mk(sv__fs_root(fs), "ref", SV_REG);
    struct sv_sattr sa = {0};
    struct cm_rng r;
    uint64_t size = 0;
    uint32_t got;
    int eof;

    (void)state;
    memset(ref, 0, sizeof(ref));
    cm_rng_seed(&r, 7);
    for (int i = 0; i < 400; i++) {
        uint32_t off = cm_rng_below(&r, SPAN - 1), len = 1 + cm_rng_below(&r, 3000);
        if (off + len > SPAN)
            len = SPAN - off;
        if (cm_rng_below(&r, 10) == 0) {
            sa.set_size = 1;
            sa.size = off;
            assert_int_equal(sv__fs_setattr(fs, f, &sa), 0);
            memset(ref + off, 0, SPAN - off);
            size = off;
            continue;
        }
        for (uint32_t k = 0; k < len; k++)
            buf[k] = (uint8_t)cm_rng_below(&r, 256);
        assert_int_equal(sv__fs_write(fs, f, off, buf, len), 0);
        memcpy(ref + off, buf, len);
        if (off + len > size)
            size = off + len;
        assert_int_equal(f->size, size);
    }
    assert_int_equal(sv__fs_read(fs, f, 0, SPAN, back, &got, &eof), 0);
    assert_int_equal(got, size);
    assert_memory_equal(back, ref, size);
    assert_true(f->used <= (size / SV_CHUNK + 1) * SV_CHUNK);
}

static void readdir_cookies_survive_removal(void **state)
{
    struct sv_node *d = mk(sv__fs_root(fs), "dir", SV_DIR);
    struct sv_dirpos pos;
    char name[16];
    uint64_t cookie = 0, seen = 0;
    int i, rc;

    (void)state;
    for (i = 0; i < 200; i++) {
        snprintf(name, sizeof(name), "e%03d", i);
        mk(d, name, SV_REG);
    }
    /* read ".", ".." and e000..e009 */
    for (i = 0; i < 12; i++) {
        assert_int_equal(sv__fs_dir_after(fs, d, cookie, &pos), 1);
        cookie = pos.cookie;
    }
    assert_string_equal(pos.name, "e009");
    /* remove most of what follows (forces a compaction) and e009 itself */
    for (i = 9; i < 150; i++) {
        snprintf(name, sizeof(name), "e%03d", i);
        assert_int_equal(sv__fs_remove(fs, d, name, 0), 0);
    }
    assert_int_equal(sv__fs_dir_after(fs, d, cookie, &pos), 1);
    assert_string_equal(pos.name, "e150");
    while ((rc = sv__fs_dir_after(fs, d, cookie, &pos)) == 1) {
        cookie = pos.cookie;
        seen++;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(seen, 50);
    assert_int_equal(sv__fs_dir_after(fs, d, 1000000, &pos), -1);
    assert_int_equal(sv__fs_remove(fs, sv__fs_root(fs), "dir", 1), NFS3ERR_NOTEMPTY);
}

static void rename_and_link(void **state)
{
    struct sv_node *root = sv__fs_root(fs), *a = mk(root, "a", SV_DIR),
                   *b = mk(a, "b", SV_DIR);
    struct sv_node *f = mk(a, "f", SV_REG), *g = mk(root, "g", SV_REG), *n;
    uint8_t gfh[SV_FH_LEN];

    (void)state;
    assert_int_equal(root->nlink, 3);
    assert_int_equal(sv__fs_rename(fs, root, "a", b, "inside"), NFS3ERR_INVAL);
    assert_int_equal(sv__fs_rename(fs, a, "f", a, "b"), NFS3ERR_ISDIR);
    assert_int_equal(sv__fs_rename(fs, a, "b", root, "g"), NFS3ERR_NOTDIR);
    assert_int_equal(sv__fs_rename(fs, root, "a", root, "a"), 0);
    /* move b up: nlinks and ".." follow */
    assert_int_equal(sv__fs_rename(fs, a, "b", root, "b2"), 0);
    assert_int_equal(a->nlink, 2);
    assert_int_equal(root->nlink, 4);
    assert_int_equal(sv__fs_lookup(fs, b, "..", &n), 0);
    assert_ptr_equal(n, root);
    /* a file renamed over another frees the other */
    sv__fs_handle(fs, g, gfh);
    assert_int_equal(sv__fs_rename(fs, a, "f", root, "g"), 0);
    assert_int_equal(sv__fs_from_handle(fs, gfh, sizeof(gfh), &n), NFS3ERR_STALE);
    assert_int_equal(sv__fs_lookup(fs, root, "g", &n), 0);
    assert_ptr_equal(n, f);
    /* links */
    assert_int_equal(sv__fs_link(fs, f, a, "f1"), 0);
    assert_int_equal(f->nlink, 2);
    assert_int_equal(sv__fs_link(fs, f, a, "f1"), NFS3ERR_EXIST);
    assert_int_equal(sv__fs_link(fs, a, root, "adir"), NFS3ERR_ISDIR);
    assert_int_equal(sv__fs_remove(fs, root, "g", 0), 0);
    assert_int_equal(f->nlink, 1);
    assert_int_equal(sv__fs_lookup(fs, a, "f1", &n), 0);
    assert_ptr_equal(n, f);
    assert_int_equal(sv__fs_remove(fs, root, "a", 0), NFS3ERR_ISDIR);
    assert_int_equal(sv__fs_remove(fs, a, "f1", 1), NFS3ERR_NOTDIR);
}

static void large_directory(void **state)
{
    struct sv_node *d = mk(sv__fs_root(fs), "big", SV_DIR), *n;
    char name[32];
    int i;

    (void)state;
    for (i = 0; i < 30000; i++) {
        snprintf(name, sizeof(name), "file.%d", i);
        mk(d, name, SV_REG);
    }
    for (i = 0; i < 30000; i += 7) {
        snprintf(name, sizeof(name), "file.%d", i);
        assert_int_equal(sv__fs_lookup(fs, d, name, &n), 0);
    }
    for (i = 0; i < 30000; i++) {
        snprintf(name, sizeof(name), "file.%d", i);
        assert_int_equal(sv__fs_remove(fs, d, name, 0), 0);
    }
    assert_int_equal(d->u.dir.nentries, 0);
    assert_int_equal(sv__fs_remove(fs, sv__fs_root(fs), "big", 1), 0);
}

static void map_matches_reference(void **state)
{
    enum { N = 5000 };
    struct sv_map m = {0};
    static int present[N];
    struct cm_rng r;

    (void)state;
    cm_rng_seed(&r, 99);
    memset(present, 0, sizeof(present));
    for (int i = 0; i < 100000; i++) {
        uint32_t k = cm_rng_below(&r, N);
        if (cm_rng_below(&r, 3) == 0) {
            void *v = sv__map_del(&m, k);
            assert_int_equal(v != NULL, present[k]);
            present[k] = 0;
        } else {
            assert_int_equal(sv__map_put(&m, k, (void *)(uintptr_t)(k + 1)), 0);
            present[k] = 1;
        }
    }
    for (uint32_t k = 0; k < N; k++) {
        void *v = sv__map_get(&m, k);
        if (present[k])
            assert_int_equal((uintptr_t)v, k + 1);
        else
            assert_null(v);
    }
    /* emptied, the map holds no memory (fs.c relies on it: a file whose
     * chunks are all freed keeps no JudyL node) */
    for (uint32_t k = 0; k < N; k++)
        sv__map_del(&m, k);
    assert_null(m.judy);
    sv__map_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(handles_and_stale, setup, teardown),
        cmocka_unit_test_setup_teardown(name_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(sparse_data_and_capacity, setup, teardown),
        cmocka_unit_test_setup_teardown(truncate_zeroes_tail, setup, teardown),
        cmocka_unit_test_setup_teardown(data_matches_reference, setup, teardown),
        cmocka_unit_test_setup_teardown(readdir_cookies_survive_removal, setup, teardown),
        cmocka_unit_test_setup_teardown(rename_and_link, setup, teardown),
        cmocka_unit_test_setup_teardown(large_directory, setup, teardown),
        cmocka_unit_test(map_matches_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
