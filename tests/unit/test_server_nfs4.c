/* SPDX-License-Identifier: BSD-2-Clause */
/* test_server_nfs4.c - sfs_nfsd's NFSv4.0 and 4.1 COMPOUND through
 * sv_core_handle, no sockets: calls encoded and replies decoded with the
 * rpcgen codecs of nfs4_prot.x.  The compound's own rules (minor versions,
 * OP_ILLEGAL, BADXDR, RESOURCE, the tag, SEQUENCE first and alone), the
 * pseudo file system (PUTROOTFH, LOOKUP, LOOKUPP, the export's handle the
 * same as over v3, SECINFO), attributes (GETATTR, VERIFY), READDIR,
 * NFSv4.0 client records and their lease on a stepped clock, and NFSv4.1
 * sessions: EXCHANGE_ID, CREATE_SESSION and its replay, SEQUENCE's slot
 * table with the reply cache (a retry gets the same bytes, nothing done
 * twice), SEQ_MISORDERED, SEQ_FALSE_RETRY, RETRY_UNCACHED_REP. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "helpers/th_nfs4.h"

/* ---- the compound ------------------------------------------------------------- */

static void null_and_minor_versions(void **state)
{
    struct sv_core *c = th4_core(0);
    nfs_argop4 o[1];

    (void)state;
    assert_int_equal(th4_send(c, th4_enc_call(1, 4, 0, NULL, NULL), 1), SUCCESS);
    assert_int_equal(th4_reply_len, 24);
    th4_op(o, OP_PUTROOTFH);
    assert_int_equal(th4_run(c, 2, o, 1), NFS4ERR_MINOR_VERS_MISMATCH);
    assert_int_equal(th4_res.resarray.resarray_len, 0);
    assert_int_equal(th4_run(c, 0, o, 1), NFS4_OK);
    assert_int_equal(sv_core_count(c, NFS4_PROGRAM, NFS_V4, OP_PUTROOTFH), 1);
    assert_int_equal(sv_core_count(c, NFS4_PROGRAM, NFS_V4, NFSPROC4_NULL), 1);
    sv_core_destroy(c);
}

static void illegal_badxdr_and_resource(void **state)
{
    struct sv_core *c = th4_core(0);
    nfs_argop4 o[SV4_MAX_OPS + 1];
    u_int words[] = {3, 't' << 24 | 'a' << 16 | 'g' << 8, 0, 2, OP_PUTROOTFH, 999};
    size_t len;
    XDR x;

    (void)state;
    /* an operation number no version has: OP_ILLEGAL, as its own th4_result */
    len = th4_enc_call(7, 4, 1, NULL, NULL);
    xdrmem_create(&x, (char *)th4_msg + len, sizeof(th4_msg) - (u_int)len, XDR_ENCODE);
    for (size_t i = 0; i < CM_ARRAY_LEN(words); i++)
        assert_true(xdr_u_int(&x, &words[i]));
    len += xdr_getpos(&x);
    xdr_destroy(&x);
    assert_int_equal(th4_send(c, len, 7), SUCCESS);
    assert_int_equal(th4_res.status, NFS4ERR_OP_ILLEGAL);
    assert_int_equal(th4_result(1, 2), NFS4ERR_OP_ILLEGAL);
    assert_int_equal(th4_res.resarray.resarray_val[1].resop, OP_ILLEGAL);
    /* a 4.1 operation in 4.0 is illegal too; a 4.0-only one in 4.1 is
     * NOTSUPP (RFC 8881: MUST NOT be implemented), wherever it is */
    th4_op(&o[0], OP_RECLAIM_COMPLETE);
    assert_int_equal(th4_run(c, 0, o, 1), NFS4ERR_OP_ILLEGAL);
    assert_int_equal(th4_res.resarray.resarray_val[0].resop, OP_ILLEGAL);
    th4_op(&o[0], OP_RENEW);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_NOTSUPP);
    assert_int_equal(th4_res.resarray.resarray_val[0].resop, OP_RENEW);
    /* arguments cut short: BADXDR at that operation */
    words[3] = 1;
    words[4] = OP_PUTFH;
    words[5] = 32; /* a 32-byte handle, and no bytes */
    len = th4_enc_call(8, 4, 1, NULL, NULL);
    xdrmem_create(&x, (char *)th4_msg + len, sizeof(th4_msg) - (u_int)len, XDR_ENCODE);
    for (size_t i = 0; i < CM_ARRAY_LEN(words); i++)
        assert_true(xdr_u_int(&x, &words[i]));
    len += xdr_getpos(&x);
    xdr_destroy(&x);
    assert_int_equal(th4_send(c, len, 8), SUCCESS);
    assert_int_equal(th4_res.status, NFS4ERR_BADXDR);
    assert_int_equal(th4_result(0, 1), NFS4ERR_BADXDR);
    /* more operations than a 4.0 compound may have */
    for (int i = 0; i <= SV4_MAX_OPS; i++)
        th4_op(&o[i], OP_PUTROOTFH);
    assert_int_equal(th4_run(c, 0, o, SV4_MAX_OPS + 1), NFS4ERR_RESOURCE);
    assert_int_equal(th4_run(c, 0, o, SV4_MAX_OPS), NFS4_OK);
    sv_core_destroy(c);
}

/* ---- the name space ------------------------------------------------------------ */

static void pseudo_root_leads_to_the_export_with_its_v3_handle(void **state)
{
    struct sv_core *c = th4_core(0);
    struct sv_node *exp;
    uint8_t fh[SV_FH_LEN];
    nfs_argop4 o[5];

    (void)state;
    assert_int_equal(sv__fs_walk(c->fs, "/export", &exp), 0);
    sv__fs_handle(c->fs, exp, fh);
    th4_op(&o[0], OP_PUTROOTFH);
    th4_op_lookup(&o[1], "export");
    th4_op(&o[2], OP_GETFH);
    th4_op_getattr(&o[3], TH4_BIT(FATTR4_TYPE) | TH4_BIT(FATTR4_FILEID),
                   TH4_BIT(FATTR4_MODE));
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    {
        nfs_fh4 *h = &th4_res.resarray.resarray_val[2]
                          .nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object;
        fattr4 *a = &th4_res.resarray.resarray_val[3]
                         .nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes;
        /* type, fileid, mode in attribute order */
        uint8_t want[16] = {0, 0, 0, NF4DIR};

        assert_int_equal(h->nfs_fh4_len, SV_FH_LEN);
        assert_memory_equal(h->nfs_fh4_val, fh, SV_FH_LEN);
        assert_int_equal(a->attrmask.bitmap4_len, 2);
        assert_int_equal(a->attr_vals.attrlist4_len, 16);
        for (int i = 0; i < 8; i++)
            want[4 + i] = (uint8_t)(exp->fileid >> (56 - 8 * i));
        want[14] = 0x01; /* 0777 */
        want[15] = 0xff;
        assert_memory_equal(a->attr_vals.attrlist4_val, want, 16);
    }
    /* up again: the pseudo root, and nothing above it */
    th4_op(&o[2], OP_LOOKUPP);
    th4_op(&o[3], OP_LOOKUPP);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_NOENT);
    assert_int_equal(th4_result(2, 4), NFS4_OK);
    /* no "." or "..", and a file is not a directory */
    th4_op_lookup(&o[1], "..");
    assert_int_equal(th4_run(c, 0, o, 2), NFS4ERR_BADNAME);
    th4_op_lookup(&o[1], "");
    assert_int_equal(th4_run(c, 0, o, 2), NFS4ERR_INVAL);
    th4_op_lookup(&o[1], "none");
    assert_int_equal(th4_run(c, 0, o, 2), NFS4ERR_NOENT);
    /* without a current handle */
    th4_op(&o[0], OP_GETFH);
    assert_int_equal(th4_run(c, 0, o, 1), NFS4ERR_NOFILEHANDLE);
    th4_op(&o[0], OP_RESTOREFH);
    assert_int_equal(th4_run(c, 0, o, 1), NFS4ERR_RESTOREFH);
    sv_core_destroy(c);
}

static void a_file_made_over_v3_is_read_over_v4(void **state)
{
    struct sv_core *c = th4_core(0);
    struct sv_node *exp, *f, *l;
    struct sv_sattr sa;
    nfs_argop4 o[6];
    uint32_t mask[2] = {TH4_BIT(FATTR4_SIZE), 0};

    (void)state;
    memset(&sa, 0, sizeof(sa));
    assert_int_equal(sv__fs_walk(c->fs, "/export", &exp), 0);
    assert_int_equal(sv__fs_create(c->fs, exp, "f", SV_REG, &sa, 1000, 100, NULL, &f), 0);
    assert_int_equal(sv__fs_write(c->fs, f, 0, "hello", 5), 0);
    assert_int_equal(sv__fs_create(c->fs, exp, "l", SV_LNK, &sa, 0, 0, "f", &l), 0);
    th4_op(&o[0], OP_PUTROOTFH);
    th4_op_lookup(&o[1], "export");
    th4_op_lookup(&o[2], "f");
    th4_op_getattr(&o[3], TH4_BIT(FATTR4_SIZE) | TH4_BIT(FATTR4_FILEID),
                   TH4_BIT(FATTR4_OWNER) | TH4_BIT(FATTR4_NUMLINKS));
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    {
        fattr4 *a = &th4_res.resarray.resarray_val[3]
                         .nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes;
        const uint8_t *v = (const uint8_t *)a->attr_vals.attrlist4_val;
        /* size 5, fileid, numlinks 1, owner "1000" */
        assert_int_equal(a->attr_vals.attrlist4_len, 8 + 8 + 4 + 4 + 4);
        assert_int_equal(v[7], 5);
        assert_int_equal(v[19], 1);
        assert_int_equal(v[23], 4);
        assert_memory_equal(v + 24, "1000", 4);
    }
    /* VERIFY of the size it has, NVERIFY of it */
    th4_op(&o[3], OP_VERIFY);
    o[3].nfs_argop4_u.opverify.obj_attributes.attrmask.bitmap4_len = 1;
    o[3].nfs_argop4_u.opverify.obj_attributes.attrmask.bitmap4_val = mask;
    o[3].nfs_argop4_u.opverify.obj_attributes.attr_vals.attrlist4_len = 8;
    o[3].nfs_argop4_u.opverify.obj_attributes.attr_vals.attrlist4_val =
        "\0\0\0\0\0\0\0\5";
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    o[3].argop = OP_NVERIFY;
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_SAME);
    /* READLINK of the link, of a file */
    th4_op_lookup(&o[2], "l");
    th4_op(&o[3], OP_READLINK);
    assert_int_equal(th4_run(c, 0, o, 4), NFS4_OK);
    assert_int_equal(
        th4_res.resarray.resarray_val[3]
            .nfs_resop4_u.opreadlink.READLINK4res_u.resok4.link.linktext4_len,
        1);
    th4_op_lookup(&o[2], "f");
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_INVAL);
    /* a write-only attribute cannot be read */
    th4_op_getattr(&o[3], 0, TH4_BIT(FATTR4_TIME_MODIFY_SET));
    assert_int_equal(th4_run(c, 0, o, 4), NFS4ERR_INVAL);
    sv_core_destroy(c);
}

/* Every supported attribute, asked all at once of a directory, a file, a
 * symbolic link and a device over 4.0 and 4.1, decodes with rpcgen's codec
 * of its type (the values are written by hand, nfs4_attr.c), in attribute
 * order, to exactly the length sent, with the node's values. */
#define ATTR_ROW(name, num)                                                              \
    {                                                                                    \
        num, (xdrproc_t)xdr_fattr4_##name, sizeof(fattr4_##name)                         \
    }
static const struct {
    u_int num;
    xdrproc_t codec;
    size_t size;
} attr_rows[] = {
    ATTR_ROW(supported_attrs, FATTR4_SUPPORTED_ATTRS),
    ATTR_ROW(type, FATTR4_TYPE),
    ATTR_ROW(fh_expire_type, FATTR4_FH_EXPIRE_TYPE),
    ATTR_ROW(change, FATTR4_CHANGE),
    ATTR_ROW(size, FATTR4_SIZE),
    ATTR_ROW(link_support, FATTR4_LINK_SUPPORT),
    ATTR_ROW(symlink_support, FATTR4_SYMLINK_SUPPORT),
    ATTR_ROW(named_attr, FATTR4_NAMED_ATTR),
    ATTR_ROW(fsid, FATTR4_FSID),
    ATTR_ROW(unique_handles, FATTR4_UNIQUE_HANDLES),
    ATTR_ROW(lease_time, FATTR4_LEASE_TIME),
    ATTR_ROW(rdattr_error, FATTR4_RDATTR_ERROR),
    ATTR_ROW(aclsupport, FATTR4_ACLSUPPORT),
    ATTR_ROW(cansettime, FATTR4_CANSETTIME),
    ATTR_ROW(case_insensitive, FATTR4_CASE_INSENSITIVE),
    ATTR_ROW(case_preserving, FATTR4_CASE_PRESERVING),
    ATTR_ROW(chown_restricted, FATTR4_CHOWN_RESTRICTED),
    ATTR_ROW(filehandle, FATTR4_FILEHANDLE),
    ATTR_ROW(fileid, FATTR4_FILEID),
    ATTR_ROW(files_avail, FATTR4_FILES_AVAIL),
    ATTR_ROW(files_free, FATTR4_FILES_FREE),
    ATTR_ROW(files_total, FATTR4_FILES_TOTAL),
    ATTR_ROW(homogeneous, FATTR4_HOMOGENEOUS),
    ATTR_ROW(maxfilesize, FATTR4_MAXFILESIZE),
    ATTR_ROW(maxlink, FATTR4_MAXLINK),
    ATTR_ROW(maxname, FATTR4_MAXNAME),
    ATTR_ROW(maxread, FATTR4_MAXREAD),
    ATTR_ROW(maxwrite, FATTR4_MAXWRITE),
    ATTR_ROW(mode, FATTR4_MODE),
    ATTR_ROW(no_trunc, FATTR4_NO_TRUNC),
    ATTR_ROW(numlinks, FATTR4_NUMLINKS),
    ATTR_ROW(owner, FATTR4_OWNER),
    ATTR_ROW(owner_group, FATTR4_OWNER_GROUP),
    ATTR_ROW(rawdev, FATTR4_RAWDEV),
    ATTR_ROW(space_avail, FATTR4_SPACE_AVAIL),
    ATTR_ROW(space_free, FATTR4_SPACE_FREE),
    ATTR_ROW(space_total, FATTR4_SPACE_TOTAL),
    ATTR_ROW(space_used, FATTR4_SPACE_USED),
    ATTR_ROW(time_access, FATTR4_TIME_ACCESS),
    ATTR_ROW(time_create, FATTR4_TIME_CREATE),
    ATTR_ROW(time_delta, FATTR4_TIME_DELTA),
    ATTR_ROW(time_metadata, FATTR4_TIME_METADATA),
    ATTR_ROW(time_modify, FATTR4_TIME_MODIFY),
    ATTR_ROW(mounted_on_fileid, FATTR4_MOUNTED_ON_FILEID),
    ATTR_ROW(suppattr_exclcreat, FATTR4_SUPPATTR_EXCLCREAT),
};

/* Checks the values of th4_res's result k (a GETATTR) against n. */
static void check_all_attrs(struct sv_core *c, uint32_t minor, u_int k,
                            const struct sv_node *n)
{
    const fattr4 *a = &th4_res.resarray.resarray_val[k]
                           .nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes;
    const bitmap4 *m = &a->attrmask;
    union {
        uint64_t u64;
        uint32_t u32;
        fsid4 fsid;
        specdata4 dev;
        nfstime4 t;
        utf8string s;
        nfs_fh4 fh;
        bitmap4 b;
        char bytes[64];
    } v;
    size_t decoded = 0;
    XDR in;

    assert_int_equal(m->bitmap4_len, minor == 0 ? 2 : 3);
    xdrmem_create(&in, a->attr_vals.attrlist4_val, a->attr_vals.attrlist4_len,
                  XDR_DECODE);
    for (size_t i = 0; i < CM_ARRAY_LEN(attr_rows); i++) {
        u_int num = attr_rows[i].num;
        if (num / 32 >= m->bitmap4_len || !(m->bitmap4_val[num / 32] & TH4_BIT(num)))
            continue;
        assert_true(attr_rows[i].size <= sizeof(v));
        memset(&v, 0, sizeof(v));
        assert_true(attr_rows[i].codec(&in, &v));
        decoded++;
        switch (num) {
        case FATTR4_TYPE:
            assert_int_equal(v.u32, n->type);
            break;
        case FATTR4_SIZE:
            assert_int_equal(v.u64, n->size);
            break;
        case FATTR4_CHANGE:
            assert_int_equal(v.u64, sv4_change(n));
            break;
        case FATTR4_FILEID:
        case FATTR4_MOUNTED_ON_FILEID:
            assert_int_equal(v.u64, n->fileid);
            break;
        case FATTR4_FSID:
            assert_int_equal(v.fsid.major, SV_FSID);
            assert_int_equal(v.fsid.minor, 0);
            break;
        case FATTR4_MODE:
            assert_int_equal(v.u32, n->mode & 07777);
            break;
        case FATTR4_NUMLINKS:
            assert_int_equal(v.u32, n->nlink);
            break;
        case FATTR4_RAWDEV:
            assert_int_equal(v.dev.specdata1, n->rdev_major);
            assert_int_equal(v.dev.specdata2, n->rdev_minor);
            break;
        case FATTR4_OWNER:
        case FATTR4_OWNER_GROUP: {
            char want[16];
            snprintf(want, sizeof(want), "%u", num == FATTR4_OWNER ? n->uid : n->gid);
            assert_int_equal(v.s.utf8string_len, strlen(want));
            assert_memory_equal(v.s.utf8string_val, want, strlen(want));
            break;
        }
        case FATTR4_FILEHANDLE: {
            uint8_t fh[SV_FH_LEN];
            sv__handle(c, n, fh);
            assert_int_equal(v.fh.nfs_fh4_len, SV_FH_LEN);
            assert_memory_equal(v.fh.nfs_fh4_val, fh, SV_FH_LEN);
            break;
        }
        case FATTR4_TIME_MODIFY:
            assert_int_equal(v.t.seconds, n->mtime.sec);
            assert_int_equal(v.t.nseconds, n->mtime.nsec);
            break;
        case FATTR4_TIME_DELTA:
            assert_int_equal(v.t.seconds, 0);
            assert_int_equal(v.t.nseconds, 1);
            break;
        case FATTR4_SUPPORTED_ATTRS:
            assert_int_equal(v.b.bitmap4_len, minor == 0 ? 2 : 3);
            for (u_int w = 0; w < v.b.bitmap4_len; w++)
                assert_int_equal(v.b.bitmap4_val[w], sv4_attr_supported(minor, (int)w));
            break;
        case FATTR4_LEASE_TIME:
            assert_int_equal(v.u32, c->v4->lease_s);
            break;
        default:
            break;
        }
        xdr_free(attr_rows[i].codec, (char *)&v);
    }
    /* every attribute returned is one of the table's, and nothing is left */
    assert_int_equal(xdr_getpos(&in), a->attr_vals.attrlist4_len);
    assert_int_equal(decoded, minor == 0 ? 44 : 45);
    xdr_destroy(&in);
}

static void every_attribute_decodes_as_its_type(void **state)
{
    struct sv_core *c = th4_core(0);
    struct sv_node *exp, *n[4];
    struct sv_sattr sa;
    struct th4_session s;
    uint8_t fh[SV_FH_LEN];
    nfs_argop4 o[3];

    (void)state;
    memset(&sa, 0, sizeof(sa));
    assert_int_equal(sv__fs_walk(c->fs, "/export", &exp), 0);
    n[0] = exp;
    assert_int_equal(sv__fs_create(c->fs, exp, "f", SV_REG, &sa, 1000, 100, NULL, &n[1]),
                     0);
    assert_int_equal(sv__fs_write(c->fs, n[1], 0, "hello", 5), 0);
    assert_int_equal(
        sv__fs_create(c->fs, exp, "l", SV_LNK, &sa, 4294967295u, 7, "f", &n[2]), 0);
    assert_int_equal(sv__fs_create(c->fs, exp, "d", SV_CHR, &sa, 0, 0, NULL, &n[3]), 0);
    n[3]->rdev_major = 3;
    n[3]->rdev_minor = 7;
    th4_new_session(c, &s, "attrs");
    for (uint32_t minor = 0; minor <= 1; minor++) {
        for (uint32_t i = 0; i < 4; i++) {
            u_int k = 0;
            if (minor == 1)
                th4_op_sequence(&o[k++], &s, 0, i + 1, 0);
            sv__handle(c, n[i], fh);
            th4_op(&o[k], OP_PUTFH);
            o[k].nfs_argop4_u.opputfh.object.nfs_fh4_len = SV_FH_LEN;
            o[k++].nfs_argop4_u.opputfh.object.nfs_fh4_val = (char *)fh;
            th4_op_getattr(
                &o[k], ~0u,
                ~(TH4_BIT(FATTR4_TIME_ACCESS_SET) | TH4_BIT(FATTR4_TIME_MODIFY_SET)));
            th4_mask[2] = ~0u;
            o[k++].nfs_argop4_u.opgetattr.attr_request.bitmap4_len = 3;
            assert_int_equal(th4_run(c, minor, o, k), NFS4_OK);
            check_all_attrs(c, minor, k - 1, n[i]);
        }
    }
    sv_core_destroy(c);
}

static void readdir_lists_entries_with_attributes_and_resumes(void **state)
{
    struct sv_core *c = th4_core(0);
    struct sv_node *exp, *n;
    struct sv_sattr sa;
    nfs_argop4 o[3];
    char name[16];
    int seen = 0;
    uint64_t cookie = 0;
    char verf[NFS4_VERIFIER_SIZE] = {0};

    (void)state;
    memset(&sa, 0, sizeof(sa));
    assert_int_equal(sv__fs_walk(c->fs, "/export", &exp), 0);
    for (int i = 0; i < 50; i++) {
        snprintf(name, sizeof(name), "n%02d", i);
        assert_int_equal(sv__fs_create(c->fs, exp, name, SV_REG, &sa, 0, 0, NULL, &n), 0);
    }
    th4_op(&o[0], OP_PUTROOTFH);
    th4_op_lookup(&o[1], "export");
    for (int round = 0; round < 50; round++) {
        READDIR4resok *ok;
        th4_op(&o[2], OP_READDIR);
        o[2].nfs_argop4_u.opreaddir.cookie = cookie;
        memcpy(o[2].nfs_argop4_u.opreaddir.cookieverf, verf, NFS4_VERIFIER_SIZE);
        o[2].nfs_argop4_u.opreaddir.dircount = 100;
        o[2].nfs_argop4_u.opreaddir.maxcount = 400;
        th4_mask[0] = TH4_BIT(FATTR4_TYPE) | TH4_BIT(FATTR4_FILEID);
        o[2].nfs_argop4_u.opreaddir.attr_request.bitmap4_len = 1;
        o[2].nfs_argop4_u.opreaddir.attr_request.bitmap4_val = th4_mask;
        assert_int_equal(th4_run(c, 0, o, 3), NFS4_OK);
        ok =
            &th4_res.resarray.resarray_val[2].nfs_resop4_u.opreaddir.READDIR4res_u.resok4;
        assert_true(th4_reply_len < 400 + 200);
        for (entry4 *e = ok->reply.entries; e != NULL; e = e->nextentry) {
            snprintf(name, sizeof(name), "n%02d", seen);
            assert_int_equal(e->name.utf8string_len, 3);
            assert_memory_equal(e->name.utf8string_val, name, 3);
            assert_int_equal(e->attrs.attr_vals.attrlist4_len, 12);
            assert_int_equal(e->attrs.attr_vals.attrlist4_val[3], NF4REG);
            cookie = e->cookie;
            seen++;
        }
        memcpy(verf, ok->cookieverf, NFS4_VERIFIER_SIZE);
        if (ok->reply.eof)
            break;
    }
    assert_int_equal(seen, 50);
    /* too small for one entry; a cookie never given; a wrong verifier */
    o[2].nfs_argop4_u.opreaddir.cookie = 0;
    o[2].nfs_argop4_u.opreaddir.maxcount = 20;
    assert_int_equal(th4_run(c, 0, o, 3), NFS4ERR_TOOSMALL);
    o[2].nfs_argop4_u.opreaddir.maxcount = 4000;
    o[2].nfs_argop4_u.opreaddir.cookie = 1;
    assert_int_equal(th4_run(c, 0, o, 3), NFS4ERR_BAD_COOKIE);
    o[2].nfs_argop4_u.opreaddir.cookie = cookie;
    verf[0] ^= 1;
    memcpy(o[2].nfs_argop4_u.opreaddir.cookieverf, verf, NFS4_VERIFIER_SIZE);
    assert_int_equal(th4_run(c, 0, o, 3), NFS4ERR_NOT_SAME);
    sv_core_destroy(c);
}

/* ---- NFSv4.0 clients ------------------------------------------------------------- */

static nfsstat4 renew(struct sv_core *c, clientid4 cid)
{
    nfs_argop4 o[1];

    th4_op(&o[0], OP_RENEW);
    o[0].nfs_argop4_u.oprenew.clientid = cid;
    return th4_run(c, 0, o, 1);
}

static void setclientid_confirm_renew_and_the_lease(void **state)
{
    struct sv_core *c = th4_core(10);
    clientid4 a, a2;

    (void)state;
    a = th4_setclientid(c, "client-a", "verf-one");
    assert_int_equal(renew(c, a), NFS4_OK);
    assert_int_equal(renew(c, a + 1000), NFS4ERR_STALE_CLIENTID);
    /* the same client after a reboot: a new id, the old one gone */
    a2 = th4_setclientid(c, "client-a", "verf-two");
    assert_true(a2 != a);
    assert_int_equal(renew(c, a), NFS4ERR_STALE_CLIENTID);
    /* renewed within its lease it stays; silent past it, it goes */
    th4_now_ns += 8ull * 1000000000ull;
    assert_int_equal(renew(c, a2), NFS4_OK);
    th4_now_ns += 8ull * 1000000000ull;
    assert_int_equal(renew(c, a2), NFS4_OK);
    th4_now_ns += 11ull * 1000000000ull;
    assert_int_equal(renew(c, a2), NFS4ERR_EXPIRED);
    assert_int_equal(c->v4->leases_expired, 1);
    /* a SETCLIENTID again: a new id, and the expired one stays EXPIRED */
    a = th4_setclientid(c, "client-a", "verf-two");
    assert_int_equal(renew(c, a), NFS4_OK);
    assert_int_equal(renew(c, a2), NFS4ERR_EXPIRED);
    sv_core_destroy(c);
}

/* One reap that removes many clients keeps every one's id EXPIRED: the
 * newest went first in the pass (pynfs RENEW3 after a suite's worth of
 * clients; with 256 numbers kept it was STALE_CLIENTID). */
static void a_reap_of_many_clients_keeps_each_expired(void **state)
{
    struct sv_core *c = th4_core(10);
    clientid4 first = 0, last = 0;
    char name[32];

    (void)state;
    for (int i = 0; i < 600; i++) {
        snprintf(name, sizeof(name), "many-%d", i);
        last = th4_setclientid(c, name, "verifier");
        if (i == 0)
            first = last;
    }
    th4_now_ns += 11ull * 1000000000ull;
    assert_int_equal(renew(c, last), NFS4ERR_EXPIRED);
    assert_int_equal(renew(c, first), NFS4ERR_EXPIRED);
    assert_int_equal(c->v4->leases_expired, 600);
    sv_core_destroy(c);
}

/* ---- NFSv4.1 sessions -------------------------------------------------------------- */

static void sessions_and_the_slot_reply_cache(void **state)
{
    struct sv_core *c = th4_core(0);
    struct th4_session s;
    nfs_argop4 o[4];
    uint8_t first[512];
    size_t first_len;

    (void)state;
    th4_new_session(c, &s, "client-41");
    /* SEQUENCE PUTROOTFH GETFH, cached; the retry gets the same bytes */
    th4_op_sequence(&o[0], &s, 1, 1, 1);
    th4_op(&o[1], OP_PUTROOTFH);
    th4_op(&o[2], OP_GETFH);
    assert_int_equal(th4_run(c, 1, o, 3), NFS4_OK);
    first_len = th4_reply_len - 24;
    memcpy(first, th4_out + 24, first_len);
    assert_int_equal(th4_run(c, 1, o, 3), NFS4_OK);
    assert_int_equal(th4_reply_len - 24, first_len);
    assert_memory_equal(th4_out + 24, first, first_len);
    assert_int_equal(sv_core_count(c, NFS4_PROGRAM, NFS_V4, OP_GETFH), 1); /* not again */
    assert_int_equal(c->v4->slot_replays, 1);
    /* the same slot and sequence id with another request: a false retry */
    th4_op(&o[2], OP_LOOKUPP);
    assert_int_equal(th4_run(c, 1, o, 3), NFS4ERR_SEQ_FALSE_RETRY);
    /* a sequence id skipped: misordered; the next one is new */
    th4_op_sequence(&o[0], &s, 1, 3, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_SEQ_MISORDERED);
    th4_op_sequence(&o[0], &s, 1, 2, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4_OK);
    /* not cached, then retried */
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_RETRY_UNCACHED_REP);
    /* slots are separate; one past the table is BADSLOT */
    th4_op_sequence(&o[0], &s, 0, 1, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4_OK);
    th4_op_sequence(&o[0], &s, 4, 1, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_BADSLOT);
    /* more operations than the session took */
    th4_op_sequence(&o[0], &s, 2, 1, 0);
    {
        nfs_argop4 many[17];
        many[0] = o[0];
        for (int i = 1; i < 17; i++)
            th4_op(&many[i], OP_PUTROOTFH);
        assert_int_equal(th4_run(c, 1, many, 17), NFS4ERR_TOO_MANY_OPS);
    }
    /* the rules of position */
    th4_op(&o[0], OP_PUTROOTFH);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_OP_NOT_IN_SESSION);
    th4_op_sequence(&o[0], &s, 2, 1, 0);
    th4_op_sequence(&o[1], &s, 3, 1, 0);
    assert_int_equal(th4_run(c, 1, o, 2), NFS4ERR_SEQUENCE_POS);
    th4_op(&o[0], OP_EXCHANGE_ID);
    th4_op(&o[1], OP_PUTROOTFH);
    assert_int_equal(th4_run(c, 1, o, 2), NFS4ERR_NOT_ONLY_OP);
    /* a session unknown, then destroyed */
    s.id[0] ^= 1;
    th4_op_sequence(&o[0], &s, 2, 2, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_BADSESSION);
    s.id[0] ^= 1;
    th4_op(&o[0], OP_DESTROY_SESSION);
    memcpy(o[0].nfs_argop4_u.opdestroy_session.dsa_sessionid, s.id, NFS4_SESSIONID_SIZE);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4_OK);
    th4_op_sequence(&o[0], &s, 2, 2, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_BADSESSION);
    th4_op(&o[0], OP_DESTROY_CLIENTID);
    o[0].nfs_argop4_u.opdestroy_clientid.dca_clientid = s.cid;
    assert_int_equal(th4_run(c, 1, o, 1), NFS4_OK);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_STALE_CLIENTID);
    sv_core_destroy(c);
}

static void reclaim_complete_and_secinfo_no_name(void **state)
{
    struct sv_core *c = th4_core(0);
    struct th4_session s;
    nfs_argop4 o[3];

    (void)state;
    th4_new_session_only(c, &s, "client-rc");
    th4_op_sequence(&o[0], &s, 0, 1, 0);
    th4_op(&o[1], OP_RECLAIM_COMPLETE);
    assert_int_equal(th4_run(c, 1, o, 2), NFS4_OK);
    th4_op_sequence(&o[0], &s, 0, 2, 0);
    assert_int_equal(th4_run(c, 1, o, 2), NFS4ERR_COMPLETE_ALREADY);
    th4_op_sequence(&o[0], &s, 0, 3, 0);
    th4_op(&o[1], OP_PUTROOTFH);
    th4_op(&o[2], OP_SECINFO_NO_NAME);
    o[2].nfs_argop4_u.opsecinfo_no_name = SECINFO_STYLE4_CURRENT_FH;
    assert_int_equal(th4_run(c, 1, o, 3), NFS4_OK);
    assert_int_equal(
        th4_res.resarray.resarray_val[2]
            .nfs_resop4_u.opsecinfo_no_name.SECINFO4res_u.resok4.SECINFO4resok_len,
        2);
    sv_core_destroy(c);
}

/* --error on NFSv4 operations, BADSESSION and DEADSESSION made real, and
 * --expire-leases. */
static void injected_errors_sessions_and_leases(void **state)
{
    struct sv_core *c = th4_core(0);
    struct th4_session s, t;
    nfs_argop4 o[3];
    struct sv_error_rule *r = &c->fault.errors[0];

    (void)state;
    th4_new_session(c, &s, "faulty");
    strcpy(r->op, "getattr");
    r->status = NFS4ERR_DELAY;
    r->pct = 100;
    c->fault.nerrors = 1;
    th4_op_sequence(&o[0], &s, 0, 1, 0);
    th4_op(&o[1], OP_PUTROOTFH);
    th4_op_getattr(&o[2], TH4_BIT(FATTR4_TYPE), 0);
    assert_int_equal(th4_run(c, 1, o, 3), NFS4ERR_DELAY);
    assert_int_equal(c->errors_injected, 1);
    /* DEADSESSION once: the session refuses every SEQUENCE after it */
    strcpy(r->op, "sequence");
    r->status = NFS4ERR_DEADSESSION;
    th4_op_sequence(&o[0], &s, 0, 2, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_DEADSESSION);
    c->fault.nerrors = 0;
    th4_op_sequence(&o[0], &s, 0, 2, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_DEADSESSION);
    /* BADSESSION once: the session is gone */
    th4_new_session(c, &t, "faulty-2");
    r->status = NFS4ERR_BADSESSION;
    c->fault.nerrors = 1;
    th4_op_sequence(&o[0], &t, 0, 1, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_BADSESSION);
    c->fault.nerrors = 0;
    th4_op_sequence(&o[0], &t, 0, 1, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_BADSESSION);
    /* a lease cut short: the client goes with its sessions */
    th4_new_session(c, &t, "faulty-3");
    c->fault.expire_lease_pct = 100;
    th4_op_sequence(&o[0], &t, 0, 1, 0);
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_BADSESSION);
    assert_int_equal(c->v4->leases_cut, 1);
    assert_null(sv4_client_find(c->v4, t.cid));
    sv_core_destroy(c);
}

/* EXCHANGE_ID of owner with verifier verf and flags: its status; *cid
 * gets the client id when it succeeds. */
static nfsstat4 exchange_id(struct sv_core *c, const char *owner, const char *verf,
                            uint32_t flags, clientid4 *cid)
{
    nfs_argop4 o[1];
    nfsstat4 st;

    th4_op(&o[0], OP_EXCHANGE_ID);
    memcpy(o[0].nfs_argop4_u.opexchange_id.eia_clientowner.co_verifier, verf, 8);
    o[0].nfs_argop4_u.opexchange_id.eia_clientowner.co_ownerid.co_ownerid_len =
        (u_int)strlen(owner);
    o[0].nfs_argop4_u.opexchange_id.eia_clientowner.co_ownerid.co_ownerid_val =
        (char *)owner;
    o[0].nfs_argop4_u.opexchange_id.eia_flags = flags;
    st = th4_run(c, 1, o, 1);
    if (st == NFS4_OK)
        *cid = th4_res.resarray.resarray_val[0]
                   .nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4.eir_clientid;
    return st;
}

static void another_principal_and_a_41_client_record(void **state)
{
    struct sv_core *c = th4_core(0);
    struct th4_session s;
    nfs_argop4 o[1];
    clientid4 cid, cid2;

    (void)state;
    /* CREATE_SESSION by another principal than EXCHANGE_ID's: CLID_INUSE
     * (pynfs CSESS9) */
    assert_int_equal(exchange_id(c, "p1", "verifier", 0, &cid), NFS4_OK);
    th4_uid = 2;
    th4_op(&o[0], OP_CREATE_SESSION);
    o[0].nfs_argop4_u.opcreate_session.csa_clientid = cid;
    o[0].nfs_argop4_u.opcreate_session.csa_sequence = 1;
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_CLID_INUSE);
    th4_uid = 0;
    /* a confirmed record: another principal may not update it (PERM,
     * EID6g); naming its owner makes a new record and the old one goes
     * (EID5e, EID5g: its id is STALE_CLIENTID) */
    th4_new_session_only(c, &s, "p2");
    th4_uid = 2;
    assert_int_equal(
        exchange_id(c, "p2", "verifier", EXCHGID4_FLAG_UPD_CONFIRMED_REC_A, &cid2),
        NFS4ERR_PERM);
    assert_int_equal(exchange_id(c, "p2", "verifier", 0, &cid2), NFS4_OK);
    assert_true(cid2 != s.cid);
    th4_uid = 0;
    o[0].nfs_argop4_u.opcreate_session.csa_clientid = s.cid;
    o[0].nfs_argop4_u.opcreate_session.csa_sequence = 2;
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_STALE_CLIENTID);
    sv_core_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(null_and_minor_versions),
        cmocka_unit_test(illegal_badxdr_and_resource),
        cmocka_unit_test(pseudo_root_leads_to_the_export_with_its_v3_handle),
        cmocka_unit_test(a_file_made_over_v3_is_read_over_v4),
        cmocka_unit_test(every_attribute_decodes_as_its_type),
        cmocka_unit_test(readdir_lists_entries_with_attributes_and_resumes),
        cmocka_unit_test(setclientid_confirm_renew_and_the_lease),
        cmocka_unit_test(a_reap_of_many_clients_keeps_each_expired),
        cmocka_unit_test(sessions_and_the_slot_reply_cache),
        cmocka_unit_test(reclaim_complete_and_secinfo_no_name),
        cmocka_unit_test(injected_errors_sessions_and_leases),
        cmocka_unit_test(another_principal_and_a_41_client_record),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);

    xdr_free((xdrproc_t)xdr_COMPOUND4res, (char *)&th4_res);
    return rc;
}
