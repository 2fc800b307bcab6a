/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nfs_res.c - the nfs layer's pieces the mix and both replays share:
 * results decoded into a struct nf_res (READ data into its buffer, a
 * handle into its own, directory entries read over, the status alone),
 * the handle a reply names, and the attributes a call sets in either
 * version. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "nfs/nf.h"

/* Encodes in with rpcgen's codec, decodes it into r with nf_res_codec's. */
static void decode(int version, int op, unsigned how, xdrproc_t enc, void *in,
                   struct nf_res *r)
{
    static char wire[65536];
    xdrproc_t dec = nf_res_codec(version, op, how, enc);
    XDR x;
    u_int len;

    xdrmem_create(&x, wire, sizeof(wire), XDR_ENCODE);
    assert_true(enc(&x, in));
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    memset(r, 0, NF_RES_BYTES);
    xdrmem_create(&x, wire, len, XDR_DECODE);
    assert_true(dec(&x, &r->r3));
    assert_int_equal(
        xdr_getpos(&x),
        version == 3 && (how & NF_RES_STATUS_ONLY) && op != NF_OP_LOOKUP ? 4 : len);
    xdr_destroy(&x);
    xdr_free(dec, (char *)&r->r3); /* frees nothing (ASan would see a bad free) */
}

static void read_data_lands_in_the_buffer_and_a_longer_reply_fails(void **state)
{
    struct nf_res r;
    char data[100], buf[100];
    READ3res in;
    readres in2;
    xdrproc_t dec = nf_res_codec(3, NF_OP_READ, 0, (xdrproc_t)xdr_READ3res);
    static char wire[1024];
    XDR x;

    (void)state;
    memset(data, 0x5a, sizeof(data));
    memset(&in, 0, sizeof(in));
    in.READ3res_u.resok.count = sizeof(data);
    in.READ3res_u.resok.data.data_len = sizeof(data);
    in.READ3res_u.resok.data.data_val = data;
    r.data = buf;
    r.data_max = sizeof(buf);
    decode(3, NF_OP_READ, 0, (xdrproc_t)xdr_READ3res, &in, &r);
    assert_ptr_equal(r.r3.read.READ3res_u.resok.data.data_val, buf);
    assert_memory_equal(buf, data, sizeof(data));
    assert_ptr_equal(r.data, buf); /* the results' bytes only were zeroed */

    memset(&in2, 0, sizeof(in2));
    in2.readres_u.reply.data.data_len = 40;
    in2.readres_u.reply.data.data_val = data;
    decode(2, NF_OP_READ, 0, (xdrproc_t)xdr_readres, &in2, &r);
    assert_ptr_equal(r.r2.read.readres_u.reply.data.data_val, buf);

    r.data_max = 99; /* one byte short */
    xdrmem_create(&x, wire, sizeof(wire), XDR_ENCODE);
    assert_true(xdr_READ3res(&x, &in));
    xdr_destroy(&x);
    xdrmem_create(&x, wire, sizeof(wire), XDR_DECODE);
    assert_false(dec(&x, &r.r3));
    xdr_destroy(&x);
}

static void handles_land_in_the_result_and_are_taken_out(void **state)
{
    struct nf_res r;
    struct nf_fh fh;
    char h[20];
    LOOKUP3res lk;
    CREATE3res cr;
    diropres d2;
    int op;

    (void)state;
    memset(h, 7, sizeof(h));
    memset(&lk, 0, sizeof(lk));
    lk.LOOKUP3res_u.resok.object.data.data_len = sizeof(h);
    lk.LOOKUP3res_u.resok.object.data.data_val = h;
    decode(3, NF_OP_LOOKUP, NF_RES_STATUS_ONLY, (xdrproc_t)xdr_LOOKUP3res, &lk, &r);
    assert_ptr_equal(r.r3.lookup.LOOKUP3res_u.resok.object.data.data_val, r.fh);
    assert_int_equal(nf_res_handle(&r, 3, NF_OP_LOOKUP, &fh), 1);
    assert_int_equal(fh.len, sizeof(h));
    assert_memory_equal(fh.data, h, sizeof(h));

    for (op = NF_OP_CREATE; op <= NF_OP_MKNOD; op++) {
        if (op != NF_OP_CREATE && op != NF_OP_MKDIR && op != NF_OP_SYMLINK &&
            op != NF_OP_MKNOD)
            continue;
        memset(&cr, 0, sizeof(cr));
        cr.CREATE3res_u.resok.obj.handle_follows = TRUE;
        cr.CREATE3res_u.resok.obj.post_op_fh3_u.handle.data.data_len = 8;
        cr.CREATE3res_u.resok.obj.post_op_fh3_u.handle.data.data_val = h;
        decode(3, op, 0, (xdrproc_t)xdr_CREATE3res, &cr, &r);
        memset(&fh, 0, sizeof(fh));
        assert_int_equal(nf_res_handle(&r, 3, op, &fh), 1);
        assert_int_equal(fh.len, 8);
    }
    cr.CREATE3res_u.resok.obj.handle_follows = FALSE; /* the server kept it */
    decode(3, NF_OP_CREATE, 0, (xdrproc_t)xdr_CREATE3res, &cr, &r);
    assert_int_equal(nf_res_handle(&r, 3, NF_OP_CREATE, &fh), 0);
    cr.status = NFS3ERR_EXIST;
    decode(3, NF_OP_CREATE, 0, (xdrproc_t)xdr_CREATE3res, &cr, &r);
    assert_int_equal(nf_res_handle(&r, 3, NF_OP_CREATE, &fh), 0);
    assert_int_equal(nf_res_handle(&r, 3, NF_OP_GETATTR, &fh), 0);

    memset(&d2, 0, sizeof(d2));
    memset(d2.diropres_u.diropres.file.data, 3, NFS_FHSIZE);
    decode(2, NF_OP_MKDIR, 0, (xdrproc_t)xdr_diropres, &d2, &r);
    assert_int_equal(nf_res_handle(&r, 2, NF_OP_MKDIR, &fh), 1);
    assert_int_equal(fh.len, NFS_FHSIZE);
    assert_int_equal(nf_res_handle(&r, 2, NF_OP_SYMLINK, &fh), 0);
}

/* Entries are read over, names longer than the buffer included; with
 * NF_RES_STATUS_ONLY only the status is read. */
static void directory_entries_are_read_over_and_status_only_reads_a_word(void **state)
{
    struct nf_res r;
    char name[300], buf[16];
    entry3 e[2];
    READDIR3res in;
    GETATTR3res ga;

    (void)state;
    memset(name, 'n', sizeof(name) - 1);
    name[sizeof(name) - 1] = '\0';
    memset(e, 0, sizeof(e));
    e[0].fileid = 1;
    e[0].name = name;
    e[0].nextentry = &e[1];
    e[1].fileid = 2;
    e[1].name = name + 290;
    memset(&in, 0, sizeof(in));
    in.READDIR3res_u.resok.reply.entries = e;
    in.READDIR3res_u.resok.reply.eof = TRUE;
    r.data = buf; /* smaller than a name: read over in pieces */
    r.data_max = sizeof(buf);
    decode(3, NF_OP_READDIR, 0, (xdrproc_t)xdr_READDIR3res, &in, &r);
    assert_null(r.r3.readdir.READDIR3res_u.resok.reply.entries);
    assert_true(r.r3.readdir.READDIR3res_u.resok.reply.eof);
    r.data = NULL; /* no buffer: the handle's takes the pieces */
    decode(3, NF_OP_READDIR, 0, (xdrproc_t)xdr_READDIR3res, &in, &r);
    assert_true(r.r3.readdir.READDIR3res_u.resok.reply.eof);

    memset(&ga, 0, sizeof(ga));
    ga.status = NFS3ERR_STALE;
    decode(3, NF_OP_GETATTR, NF_RES_STATUS_ONLY, (xdrproc_t)xdr_GETATTR3res, &ga, &r);
    assert_int_equal(r.r3.getattr.status, NFS3ERR_STALE);
    assert_ptr_equal(nf_res_codec(3, NF_OP_GETATTR, 0, (xdrproc_t)xdr_GETATTR3res),
                     (xdrproc_t)xdr_GETATTR3res);
}

static void attributes_convert_to_both_versions(void **state)
{
    struct nf_sattr s;
    sattr3 a3;
    sattr a2;

    (void)state;
    nf_sattr_mode(&s, 0640);
    nf_sattr_to_v3(&s, &a3);
    assert_true(a3.mode.set_it);
    assert_int_equal(a3.mode.set_mode3_u.mode, 0640);
    assert_false(a3.uid.set_it || a3.gid.set_it || a3.size.set_it);
    assert_int_equal(a3.atime.set_it, DONT_CHANGE);
    nf_sattr_to_v2(&s, &a2);
    assert_int_equal(a2.mode, 0640);
    assert_int_equal(a2.uid, 0xffffffffu);
    assert_int_equal(a2.size, 0xffffffffu);
    assert_int_equal(a2.mtime.seconds, 0xffffffffu);

    s.set |= NF_SA_UID | NF_SA_SIZE | NF_SA_ATIME_SERVER;
    s.uid = 7;
    s.size = 4096;
    nf_sattr_to_v3(&s, &a3);
    assert_int_equal(a3.uid.set_uid3_u.uid, 7);
    assert_int_equal(a3.size.set_size3_u.size, 4096);
    assert_int_equal(a3.atime.set_it, SET_TO_SERVER_TIME);
    assert_int_equal(a3.mtime.set_it, DONT_CHANGE);
    nf_sattr_to_v2(&s, &a2);
    assert_int_equal(a2.size, 4096);
    assert_int_equal(a2.atime.seconds, 0xffffffffu); /* v2 has no server time */

    nf_sattr_times_now(&s);
    nf_sattr_to_v3(&s, &a3);
    assert_int_equal(a3.mtime.set_it, SET_TO_CLIENT_TIME);
    assert_int_equal(a3.mtime.set_mtime_u.mtime.seconds, s.mtime_s);
    nf_sattr_to_v2(&s, &a2);
    assert_int_equal(a2.atime.seconds, s.atime_s);
    assert_int_equal(a2.atime.useconds, s.atime_ns / 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(read_data_lands_in_the_buffer_and_a_longer_reply_fails),
        cmocka_unit_test(handles_land_in_the_result_and_are_taken_out),
        cmocka_unit_test(directory_entries_are_read_over_and_status_only_reads_a_word),
        cmocka_unit_test(attributes_convert_to_both_versions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
