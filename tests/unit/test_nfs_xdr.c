/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nfs_xdr.c - XDR round trips through the codecs of the procedure
 * tables (rpcgen output from nfs_prot.x, mount.x and our nfs3_prot.x):
 * what is encoded decodes to the same values, including opaque data,
 * strings, optional attributes and directory entry lists, and a cut
 * buffer fails to decode instead of reading past its end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "nfs/nf.h"

/* Encodes with the row's args or result codec, decodes into out; returns
 * the encoded size. */
static u_int round_trip(xdrproc_t codec, void *in, void *out, char *buf, u_int cap)
{
    XDR x;
    u_int len;

    xdrmem_create(&x, buf, cap, XDR_ENCODE);
    assert_true(codec(&x, in));
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    xdrmem_create(&x, buf, len, XDR_DECODE);
    assert_true(codec(&x, out));
    assert_int_equal(xdr_getpos(&x), len);
    xdr_destroy(&x);
    /* one byte short must fail, not overrun */
    if (len > 4) {
        char dummy[4096];

        memset(dummy, 0, sizeof(dummy));
        xdrmem_create(&x, buf, len - 4, XDR_DECODE);
        assert_false(codec(&x, dummy));
        xdr_free(codec, dummy);
        xdr_destroy(&x);
    }
    return len;
}

static void v3_write_args_round_trip(void **state)
{
    const struct nf_proc *row = nf_proc_row(NF_NFS3, NFSPROC3_WRITE);
    struct nf_fh fh = {8, {1, 2, 3, 4, 5, 6, 7, 8}};
    char data[100], buf[1024];
    WRITE3args in, out;
    int i;

    (void)state;
    for (i = 0; i < 100; i++)
        data[i] = (char)(i * 7);
    memset(&in, 0, sizeof(in));
    memset(&out, 0, sizeof(out));
    nf_fh_to_v3(&fh, &in.file);
    in.offset = 0x123456789aull;
    in.count = 100;
    in.stable = FILE_SYNC;
    in.data.data_len = 100;
    in.data.data_val = data;
    round_trip(row->args_codec, &in, &out, buf, sizeof(buf));
    assert_int_equal(out.file.data.data_len, 8);
    assert_memory_equal(out.file.data.data_val, fh.data, 8);
    assert_true(out.offset == 0x123456789aull);
    assert_int_equal(out.stable, FILE_SYNC);
    assert_int_equal(out.data.data_len, 100);
    assert_memory_equal(out.data.data_val, data, 100);
    xdr_free(row->args_codec, &out);
}

static void v3_readdir_result_round_trip(void **state)
{
    const struct nf_proc *row = nf_proc_row(NF_NFS3, NFSPROC3_READDIR);
    entry3 e2 = {43, "b", 2, NULL}, e1 = {42, "a", 1, &e2};
    READDIR3res in, out;
    char buf[1024];

    (void)state;
    memset(&in, 0, sizeof(in));
    memset(&out, 0, sizeof(out));
    in.status = NFS3_OK;
    in.READDIR3res_u.resok.dir_attributes.attributes_follow = TRUE;
    in.READDIR3res_u.resok.dir_attributes.post_op_attr_u.attributes.type = NF3DIR;
    in.READDIR3res_u.resok.dir_attributes.post_op_attr_u.attributes.size = 4096;
    in.READDIR3res_u.resok.reply.entries = &e1;
    in.READDIR3res_u.resok.reply.eof = TRUE;
    round_trip(row->res_codec, &in, &out, buf, sizeof(buf));
    assert_int_equal(out.status, NFS3_OK);
    assert_int_equal(
        out.READDIR3res_u.resok.dir_attributes.post_op_attr_u.attributes.type, NF3DIR);
    assert_non_null(out.READDIR3res_u.resok.reply.entries);
    assert_string_equal(out.READDIR3res_u.resok.reply.entries->name, "a");
    assert_int_equal(out.READDIR3res_u.resok.reply.entries->cookie, 1);
    assert_string_equal(out.READDIR3res_u.resok.reply.entries->nextentry->name, "b");
    assert_null(out.READDIR3res_u.resok.reply.entries->nextentry->nextentry);
    assert_true(out.READDIR3res_u.resok.reply.eof);
    xdr_free(row->res_codec, &out);
}

static void v3_error_result_carries_only_the_failure_arm(void **state)
{
    const struct nf_proc *row = nf_proc_row(NF_NFS3, NFSPROC3_LOOKUP);
    LOOKUP3res in, out;
    char buf[256];
    u_int len;

    (void)state;
    memset(&in, 0, sizeof(in));
    memset(&out, 0, sizeof(out));
    in.status = NFS3ERR_NOENT;
    len = round_trip(row->res_codec, &in, &out, buf, sizeof(buf));
    assert_int_equal(len, 8); /* status + attributes_follow = FALSE */
    assert_int_equal(out.status, NFS3ERR_NOENT);
    xdr_free(row->res_codec, &out);
}

static void v2_read_result_round_trip(void **state)
{
    const struct nf_proc *row = nf_proc_row(NF_NFS2, NFSPROC_READ);
    readres in, out;
    char data[8192], buf[9000];

    (void)state;
    memset(data, 'x', sizeof(data));
    memset(&in, 0, sizeof(in));
    memset(&out, 0, sizeof(out));
    in.status = NFS_OK;
    in.readres_u.reply.attributes.type = NFREG;
    in.readres_u.reply.attributes.size = 8192;
    in.readres_u.reply.data.data_len = 8192;
    in.readres_u.reply.data.data_val = data;
    round_trip(row->res_codec, &in, &out, buf, sizeof(buf));
    assert_int_equal(out.readres_u.reply.attributes.size, 8192);
    assert_int_equal(out.readres_u.reply.data.data_len, 8192);
    assert_memory_equal(out.readres_u.reply.data.data_val, data, 8192);
    xdr_free(row->res_codec, &out);
}

static void mount3_result_round_trip(void **state)
{
    const struct nf_proc *row = nf_proc_row(NF_MOUNT3, MOUNTPROC3_MNT);
    char fh[24] = "0123456789abcdefghijklm";
    int flavors[2] = {1, 0};
    mountres3 in, out;
    char buf[256];

    (void)state;
    memset(&in, 0, sizeof(in));
    memset(&out, 0, sizeof(out));
    in.fhs_status = MNT3_OK;
    in.mountres3_u.mountinfo.fhandle.mnt3_fhandle_len = 24;
    in.mountres3_u.mountinfo.fhandle.mnt3_fhandle_val = fh;
    in.mountres3_u.mountinfo.auth_flavors.auth_flavors_len = 2;
    in.mountres3_u.mountinfo.auth_flavors.auth_flavors_val = flavors;
    round_trip(row->res_codec, &in, &out, buf, sizeof(buf));
    assert_int_equal(out.mountres3_u.mountinfo.fhandle.mnt3_fhandle_len, 24);
    assert_memory_equal(out.mountres3_u.mountinfo.fhandle.mnt3_fhandle_val, fh, 24);
    assert_int_equal(out.mountres3_u.mountinfo.auth_flavors.auth_flavors_val[0], 1);
    xdr_free(row->res_codec, &out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(v3_write_args_round_trip),
        cmocka_unit_test(v3_readdir_result_round_trip),
        cmocka_unit_test(v3_error_result_carries_only_the_failure_arm),
        cmocka_unit_test(v2_read_result_round_trip),
        cmocka_unit_test(mount3_result_round_trip),
    };

    return cmocka_run_group_tests_name("nfs_xdr", tests, NULL, NULL);
}
