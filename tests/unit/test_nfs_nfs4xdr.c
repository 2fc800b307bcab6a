/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nfs_nfs4xdr.c - the rpcgen codecs of src/nfs/proto/nfs4_prot.x:
 * NFSv4.0 and 4.1 compounds and callback compounds encoded and decoded
 * back to the same values, the bytes of a small compound as RFC 7530
 * and RFC 8881 lay them out, the AUTH_SYS callback credential that the
 * .x takes from libtirpc, and the bounds the .x adds (a bitmap, a
 * compound or a name longer than they allow, or a cut buffer, fails to
 * decode instead of allocating what it claims). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "nfs4_prot.h"

/* Encodes in with codec, decodes the bytes into out and checks that the
 * decoder used them all; returns the encoded size.  Every shorter buffer
 * (cut at a word) must fail to decode. */
static u_int round_trip(xdrproc_t codec, void *in, void *out, size_t out_size, char *buf,
                        u_int cap)
{
    XDR x;
    u_int len, cut;

    xdrmem_create(&x, buf, cap, XDR_ENCODE);
    assert_true(codec(&x, in));
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    for (cut = 0; cut < len; cut += 4) {
        char scratch[1024];

        assert_true(out_size <= sizeof(scratch));
        memset(scratch, 0, sizeof(scratch));
        xdrmem_create(&x, buf, cut, XDR_DECODE);
        assert_false(codec(&x, scratch));
        xdr_free(codec, scratch);
        xdr_destroy(&x);
    }
    memset(out, 0, out_size);
    xdrmem_create(&x, buf, len, XDR_DECODE);
    assert_true(codec(&x, out));
    assert_int_equal(xdr_getpos(&x), len);
    xdr_destroy(&x);
    return len;
}

static void put_str(utf8string *s, const char *text)
{
    s->utf8string_len = (u_int)strlen(text);
    s->utf8string_val = (char *)text;
}

/* PUTROOTFH GETFH with tag "t", minor version 0: length-prefixed tag
 * padded to a word, the minor version, the operation count, then each
 * operation's number (neither has arguments). */
static void a_small_compound_has_the_rfc_bytes(void **state)
{
    static const unsigned char want[] = {0, 0, 0, 1, 't', 0, 0, 0,  0, 0, 0, 0,
                                         0, 0, 0, 2, 0,   0, 0, 24, 0, 0, 0, 10};
    nfs_argop4 ops[2];
    COMPOUND4args in;
    char buf[64];
    XDR x;

    (void)state;
    memset(ops, 0, sizeof(ops));
    memset(&in, 0, sizeof(in));
    put_str(&in.tag, "t");
    in.minorversion = 0;
    ops[0].argop = OP_PUTROOTFH;
    ops[1].argop = OP_GETFH;
    in.argarray.argarray_len = 2;
    in.argarray.argarray_val = ops;
    xdrmem_create(&x, buf, sizeof(buf), XDR_ENCODE);
    assert_true(xdr_COMPOUND4args(&x, &in));
    assert_int_equal(xdr_getpos(&x), sizeof(want));
    assert_memory_equal(buf, want, sizeof(want));
    xdr_destroy(&x);
}

/* The compound a Linux client sends most: SEQUENCE PUTFH GETATTR. */
static void sequence_putfh_getattr_round_trips(void **state)
{
    uint32_t mask[2] = {(1u << FATTR4_TYPE) | (1u << FATTR4_CHANGE) | (1u << FATTR4_SIZE),
                        1u << (FATTR4_MODE - 32)};
    char fh[32];
    nfs_argop4 ops[3];
    COMPOUND4args in, out;
    SEQUENCE4args *sq;
    char buf[512];
    int i;

    (void)state;
    for (i = 0; i < 32; i++)
        fh[i] = (char)(0xa0 + i);
    memset(ops, 0, sizeof(ops));
    memset(&in, 0, sizeof(in));
    put_str(&in.tag, "stat");
    in.minorversion = 1;
    ops[0].argop = OP_SEQUENCE;
    sq = &ops[0].nfs_argop4_u.opsequence;
    memset(sq->sa_sessionid, 0x5a, NFS4_SESSIONID_SIZE);
    sq->sa_sequenceid = 77;
    sq->sa_slotid = 3;
    sq->sa_highest_slotid = 15;
    sq->sa_cachethis = FALSE;
    ops[1].argop = OP_PUTFH;
    ops[1].nfs_argop4_u.opputfh.object.nfs_fh4_len = 32;
    ops[1].nfs_argop4_u.opputfh.object.nfs_fh4_val = fh;
    ops[2].argop = OP_GETATTR;
    ops[2].nfs_argop4_u.opgetattr.attr_request.bitmap4_len = 2;
    ops[2].nfs_argop4_u.opgetattr.attr_request.bitmap4_val = mask;
    in.argarray.argarray_len = 3;
    in.argarray.argarray_val = ops;

    /* 4+4 tag, minor, count; SEQUENCE 4+16+4*4; PUTFH 4+4+32; GETATTR 4+4+8 */
    assert_int_equal(round_trip((xdrproc_t)xdr_COMPOUND4args, &in, &out, sizeof(out), buf,
                                sizeof(buf)),
                     16 + 36 + 40 + 16);
    assert_int_equal(out.tag.utf8string_len, 4);
    assert_memory_equal(out.tag.utf8string_val, "stat", 4);
    assert_int_equal(out.minorversion, 1);
    assert_int_equal(out.argarray.argarray_len, 3);
    assert_int_equal(out.argarray.argarray_val[0].argop, OP_SEQUENCE);
    sq = &out.argarray.argarray_val[0].nfs_argop4_u.opsequence;
    assert_memory_equal(sq->sa_sessionid, ops[0].nfs_argop4_u.opsequence.sa_sessionid,
                        NFS4_SESSIONID_SIZE);
    assert_int_equal(sq->sa_sequenceid, 77);
    assert_int_equal(sq->sa_slotid, 3);
    assert_int_equal(sq->sa_highest_slotid, 15);
    assert_int_equal(out.argarray.argarray_val[1].argop, OP_PUTFH);
    assert_int_equal(out.argarray.argarray_val[1].nfs_argop4_u.opputfh.object.nfs_fh4_len,
                     32);
    assert_memory_equal(
        out.argarray.argarray_val[1].nfs_argop4_u.opputfh.object.nfs_fh4_val, fh, 32);
    assert_int_equal(out.argarray.argarray_val[2].argop, OP_GETATTR);
    assert_int_equal(
        out.argarray.argarray_val[2].nfs_argop4_u.opgetattr.attr_request.bitmap4_len, 2);
    assert_memory_equal(
        out.argarray.argarray_val[2].nfs_argop4_u.opgetattr.attr_request.bitmap4_val,
        mask, sizeof(mask));
    xdr_free((xdrproc_t)xdr_COMPOUND4args, (char *)&out);
}

/* The reply of an NFSv4.0 OPEN that creates (EXCLUSIVE4) and a LOCK that
 * meets a conflict: the DENIED arm carries the holder. */
static void open_and_denied_lock_results_round_trip(void **state)
{
    uint32_t set[1] = {1u << FATTR4_SIZE};
    char owner[] = "lock-owner-7";
    nfs_resop4 res[3];
    COMPOUND4res in, out;
    OPEN4resok *ok;
    LOCK4denied *dn;
    char buf[512];

    (void)state;
    memset(res, 0, sizeof(res));
    memset(&in, 0, sizeof(in));
    in.status = NFS4ERR_DENIED;
    put_str(&in.tag, "");
    res[0].resop = OP_PUTFH;
    res[0].nfs_resop4_u.opputfh.status = NFS4_OK;
    res[1].resop = OP_OPEN;
    res[1].nfs_resop4_u.opopen.status = NFS4_OK;
    ok = &res[1].nfs_resop4_u.opopen.OPEN4res_u.resok4;
    ok->stateid.seqid = 1;
    memset(ok->stateid.other, 0x11, NFS4_OTHER_SIZE);
    ok->cinfo.atomic = TRUE;
    ok->cinfo.before = 10;
    ok->cinfo.after = 11;
    ok->rflags = OPEN4_RESULT_CONFIRM | OPEN4_RESULT_LOCKTYPE_POSIX;
    ok->attrset.bitmap4_len = 1;
    ok->attrset.bitmap4_val = set;
    ok->delegation.delegation_type = OPEN_DELEGATE_NONE;
    res[2].resop = OP_LOCK;
    res[2].nfs_resop4_u.oplock.status = NFS4ERR_DENIED;
    dn = &res[2].nfs_resop4_u.oplock.LOCK4res_u.denied;
    dn->offset = 4096;
    dn->length = NFS4_UINT64_MAX;
    dn->locktype = WRITE_LT;
    dn->owner.clientid = 0x1122334455667788ull;
    dn->owner.owner.owner_len = (u_int)strlen(owner);
    dn->owner.owner.owner_val = owner;
    in.resarray.resarray_len = 3;
    in.resarray.resarray_val = res;

    round_trip((xdrproc_t)xdr_COMPOUND4res, &in, &out, sizeof(out), buf, sizeof(buf));
    assert_int_equal(out.status, NFS4ERR_DENIED);
    assert_int_equal(out.resarray.resarray_len, 3);
    ok = &out.resarray.resarray_val[1].nfs_resop4_u.opopen.OPEN4res_u.resok4;
    assert_int_equal(ok->stateid.seqid, 1);
    assert_memory_equal(ok->stateid.other,
                        res[1].nfs_resop4_u.opopen.OPEN4res_u.resok4.stateid.other,
                        NFS4_OTHER_SIZE);
    assert_true(ok->cinfo.before == 10 && ok->cinfo.after == 11);
    assert_int_equal(ok->rflags, OPEN4_RESULT_CONFIRM | OPEN4_RESULT_LOCKTYPE_POSIX);
    assert_int_equal(ok->attrset.bitmap4_len, 1);
    assert_int_equal(ok->attrset.bitmap4_val[0], set[0]);
    assert_int_equal(ok->delegation.delegation_type, OPEN_DELEGATE_NONE);
    dn = &out.resarray.resarray_val[2].nfs_resop4_u.oplock.LOCK4res_u.denied;
    assert_true(dn->offset == 4096 && dn->length == NFS4_UINT64_MAX);
    assert_int_equal(dn->locktype, WRITE_LT);
    assert_true(dn->owner.clientid == 0x1122334455667788ull);
    assert_int_equal(dn->owner.owner.owner_len, strlen(owner));
    assert_memory_equal(dn->owner.owner.owner_val, owner, strlen(owner));
    xdr_free((xdrproc_t)xdr_COMPOUND4res, (char *)&out);
}

/* NFSv4.1's OPEN: EXCLUSIVE4_1 (verifier and attributes) by CLAIM_NULL. */
static void exclusive4_1_open_args_round_trip(void **state)
{
    uint32_t mask[2] = {0, 1u << (FATTR4_MODE - 32)};
    char vals[4] = {0, 0, 1, 0xa4}; /* mode 0644 */
    char who[] = "open-owner";
    OPEN4args in, out;
    creatverfattr *cva;
    char buf[512];

    (void)state;
    memset(&in, 0, sizeof(in));
    in.seqid = 0;
    in.share_access = OPEN4_SHARE_ACCESS_BOTH | OPEN4_SHARE_ACCESS_WANT_NO_DELEG;
    in.share_deny = OPEN4_SHARE_DENY_WRITE;
    in.owner.clientid = 9;
    in.owner.owner.owner_len = (u_int)strlen(who);
    in.owner.owner.owner_val = who;
    in.openhow.opentype = OPEN4_CREATE;
    in.openhow.openflag4_u.how.mode = EXCLUSIVE4_1;
    cva = &in.openhow.openflag4_u.how.createhow4_u.ch_createboth;
    memcpy(cva->cva_verf, "verifier", NFS4_VERIFIER_SIZE);
    cva->cva_attrs.attrmask.bitmap4_len = 2;
    cva->cva_attrs.attrmask.bitmap4_val = mask;
    cva->cva_attrs.attr_vals.attrlist4_len = 4;
    cva->cva_attrs.attr_vals.attrlist4_val = vals;
    in.claim.claim = CLAIM_NULL;
    put_str(&in.claim.open_claim4_u.file, "new-file");

    round_trip((xdrproc_t)xdr_OPEN4args, &in, &out, sizeof(out), buf, sizeof(buf));
    assert_int_equal(out.share_access, in.share_access);
    assert_int_equal(out.share_deny, OPEN4_SHARE_DENY_WRITE);
    assert_int_equal(out.openhow.opentype, OPEN4_CREATE);
    assert_int_equal(out.openhow.openflag4_u.how.mode, EXCLUSIVE4_1);
    cva = &out.openhow.openflag4_u.how.createhow4_u.ch_createboth;
    assert_memory_equal(cva->cva_verf, "verifier", NFS4_VERIFIER_SIZE);
    assert_int_equal(cva->cva_attrs.attrmask.bitmap4_len, 2);
    assert_int_equal(cva->cva_attrs.attr_vals.attrlist4_len, 4);
    assert_memory_equal(cva->cva_attrs.attr_vals.attrlist4_val, vals, 4);
    assert_int_equal(out.claim.claim, CLAIM_NULL);
    assert_int_equal(out.claim.open_claim4_u.file.utf8string_len, 8);
    assert_memory_equal(out.claim.open_claim4_u.file.utf8string_val, "new-file", 8);
    xdr_free((xdrproc_t)xdr_OPEN4args, (char *)&out);
}

/* CREATE_SESSION with an AUTH_SYS callback credential: the .x's
 * authsys_parms is libtirpc's struct authunix_parms. */
static void create_session_with_auth_sys_callback_round_trips(void **state)
{
    gid_t gids[2] = {100, 200};
    callback_sec_parms4 sec;
    CREATE_SESSION4args in, out;
    char host[] = "client-host";
    char buf[512];

    (void)state;
    memset(&sec, 0, sizeof(sec));
    sec.cb_secflavor = AUTH_SYS;
    sec.callback_sec_parms4_u.cbsp_sys_cred.aup_time = 12345;
    sec.callback_sec_parms4_u.cbsp_sys_cred.aup_machname = host;
    sec.callback_sec_parms4_u.cbsp_sys_cred.aup_uid = 1000;
    sec.callback_sec_parms4_u.cbsp_sys_cred.aup_gid = 100;
    sec.callback_sec_parms4_u.cbsp_sys_cred.aup_len = 2;
    sec.callback_sec_parms4_u.cbsp_sys_cred.aup_gids = gids;
    memset(&in, 0, sizeof(in));
    in.csa_clientid = 0xfeedull;
    in.csa_sequence = 1;
    in.csa_flags = CREATE_SESSION4_FLAG_CONN_BACK_CHAN;
    in.csa_fore_chan_attrs.ca_maxrequestsize = 1049620;
    in.csa_fore_chan_attrs.ca_maxresponsesize = 1049480;
    in.csa_fore_chan_attrs.ca_maxoperations = 8;
    in.csa_fore_chan_attrs.ca_maxrequests = 64;
    in.csa_back_chan_attrs.ca_maxrequests = 1;
    in.csa_cb_program = 0x40000000;
    in.csa_sec_parms.csa_sec_parms_len = 1;
    in.csa_sec_parms.csa_sec_parms_val = &sec;

    round_trip((xdrproc_t)xdr_CREATE_SESSION4args, &in, &out, sizeof(out), buf,
               sizeof(buf));
    assert_true(out.csa_clientid == 0xfeedull);
    assert_int_equal(out.csa_fore_chan_attrs.ca_maxrequests, 64);
    assert_int_equal(out.csa_fore_chan_attrs.ca_maxoperations, 8);
    assert_int_equal(out.csa_fore_chan_attrs.ca_rdma_ird.ca_rdma_ird_len, 0);
    assert_int_equal(out.csa_cb_program, 0x40000000);
    assert_int_equal(out.csa_sec_parms.csa_sec_parms_len, 1);
    {
        const struct authunix_parms *p =
            &out.csa_sec_parms.csa_sec_parms_val[0].callback_sec_parms4_u.cbsp_sys_cred;

        assert_int_equal(out.csa_sec_parms.csa_sec_parms_val[0].cb_secflavor, AUTH_SYS);
        assert_string_equal(p->aup_machname, host);
        assert_int_equal(p->aup_uid, 1000);
        assert_int_equal(p->aup_len, 2);
        assert_int_equal(p->aup_gids[1], 200);
    }
    xdr_free((xdrproc_t)xdr_CREATE_SESSION4args, (char *)&out);
}

/* A READDIR reply's entry list (each entry with its own attributes). */
static void readdir_result_round_trips(void **state)
{
    uint32_t mask[1] = {1u << FATTR4_TYPE};
    char type_dir[4] = {0, 0, 0, NF4DIR}, type_reg[4] = {0, 0, 0, NF4REG};
    entry4 e2, e1;
    READDIR4res in, out;
    char buf[512];

    (void)state;
    memset(&e1, 0, sizeof(e1));
    memset(&e2, 0, sizeof(e2));
    e1.cookie = 3;
    put_str(&e1.name, "sub");
    e1.attrs.attrmask.bitmap4_len = 1;
    e1.attrs.attrmask.bitmap4_val = mask;
    e1.attrs.attr_vals.attrlist4_len = 4;
    e1.attrs.attr_vals.attrlist4_val = type_dir;
    e1.nextentry = &e2;
    e2.cookie = 4;
    put_str(&e2.name, "file");
    e2.attrs = e1.attrs;
    e2.attrs.attr_vals.attrlist4_val = type_reg;
    memset(&in, 0, sizeof(in));
    in.status = NFS4_OK;
    memcpy(in.READDIR4res_u.resok4.cookieverf, "cookieve", NFS4_VERIFIER_SIZE);
    in.READDIR4res_u.resok4.reply.entries = &e1;
    in.READDIR4res_u.resok4.reply.eof = TRUE;

    round_trip((xdrproc_t)xdr_READDIR4res, &in, &out, sizeof(out), buf, sizeof(buf));
    {
        const entry4 *a = out.READDIR4res_u.resok4.reply.entries;

        assert_non_null(a);
        assert_true(a->cookie == 3);
        assert_memory_equal(a->name.utf8string_val, "sub", 3);
        assert_int_equal(a->attrs.attr_vals.attrlist4_val[3], NF4DIR);
        assert_non_null(a->nextentry);
        assert_true(a->nextentry->cookie == 4);
        assert_memory_equal(a->nextentry->name.utf8string_val, "file", 4);
        assert_int_equal(a->nextentry->attrs.attr_vals.attrlist4_val[3], NF4REG);
        assert_null(a->nextentry->nextentry);
        assert_true(out.READDIR4res_u.resok4.reply.eof);
    }
    xdr_free((xdrproc_t)xdr_READDIR4res, (char *)&out);
}

/* CB_COMPOUND: CB_SEQUENCE then CB_RECALL, and its reply. */
static void callback_compound_round_trips(void **state)
{
    char fh[16];
    nfs_cb_argop4 ops[2];
    nfs_cb_resop4 res[2];
    CB_COMPOUND4args in, out;
    CB_COMPOUND4res rin, rout;
    char buf[512];

    (void)state;
    memset(fh, 0x42, sizeof(fh));
    memset(ops, 0, sizeof(ops));
    memset(&in, 0, sizeof(in));
    in.minorversion = 1;
    in.callback_ident = 5;
    ops[0].argop = OP_CB_SEQUENCE;
    ops[0].nfs_cb_argop4_u.opcbsequence.csa_sequenceid = 2;
    ops[1].argop = OP_CB_RECALL;
    ops[1].nfs_cb_argop4_u.opcbrecall.truncate = TRUE;
    ops[1].nfs_cb_argop4_u.opcbrecall.fh.nfs_fh4_len = sizeof(fh);
    ops[1].nfs_cb_argop4_u.opcbrecall.fh.nfs_fh4_val = fh;
    in.argarray.argarray_len = 2;
    in.argarray.argarray_val = ops;
    round_trip((xdrproc_t)xdr_CB_COMPOUND4args, &in, &out, sizeof(out), buf, sizeof(buf));
    assert_int_equal(out.callback_ident, 5);
    assert_int_equal(out.argarray.argarray_len, 2);
    assert_int_equal(out.argarray.argarray_val[0].argop, OP_CB_SEQUENCE);
    assert_int_equal(
        out.argarray.argarray_val[0].nfs_cb_argop4_u.opcbsequence.csa_sequenceid, 2);
    assert_int_equal(out.argarray.argarray_val[1].argop, OP_CB_RECALL);
    assert_true(out.argarray.argarray_val[1].nfs_cb_argop4_u.opcbrecall.truncate);
    assert_memory_equal(
        out.argarray.argarray_val[1].nfs_cb_argop4_u.opcbrecall.fh.nfs_fh4_val, fh,
        sizeof(fh));
    xdr_free((xdrproc_t)xdr_CB_COMPOUND4args, (char *)&out);

    memset(res, 0, sizeof(res));
    memset(&rin, 0, sizeof(rin));
    rin.status = NFS4ERR_BADHANDLE;
    res[0].resop = OP_CB_SEQUENCE;
    res[0].nfs_cb_resop4_u.opcbsequence.csr_status = NFS4_OK;
    res[0]
        .nfs_cb_resop4_u.opcbsequence.CB_SEQUENCE4res_u.csr_resok4
        .csr_target_highest_slotid = 0;
    res[1].resop = OP_CB_RECALL;
    res[1].nfs_cb_resop4_u.opcbrecall.status = NFS4ERR_BADHANDLE;
    rin.resarray.resarray_len = 2;
    rin.resarray.resarray_val = res;
    round_trip((xdrproc_t)xdr_CB_COMPOUND4res, &rin, &rout, sizeof(rout), buf,
               sizeof(buf));
    assert_int_equal(rout.status, NFS4ERR_BADHANDLE);
    assert_int_equal(rout.resarray.resarray_val[1].nfs_cb_resop4_u.opcbrecall.status,
                     NFS4ERR_BADHANDLE);
    xdr_free((xdrproc_t)xdr_CB_COMPOUND4res, (char *)&rout);
}

/* Decodes the words as codec's type; returns whether that succeeded. */
static bool_t decode_words(xdrproc_t codec, const uint32_t *words, u_int n, void *out)
{
    char buf[64];
    bool_t ok;
    XDR x;
    u_int i;

    assert_true(n * 4 <= sizeof(buf));
    for (i = 0; i < n; i++) {
        uint32_t be = htonl(words[i]);

        memcpy(buf + 4 * i, &be, 4);
    }
    xdrmem_create(&x, buf, n * 4, XDR_DECODE);
    ok = codec(&x, out);
    xdr_destroy(&x);
    xdr_free(codec, out);
    return ok;
}

/* Lengths past the .x's bounds fail at once, whatever the bytes after. */
static void claimed_lengths_past_the_bounds_fail(void **state)
{
    const uint32_t long_bitmap[] = {NFS4_XDR_BITMAP + 1, 0, 0};
    const uint32_t huge_bitmap[] = {0x40000000, 0, 0};
    const uint32_t long_compound[] = {0, 1, NFS4_XDR_OPS + 1, OP_GETFH};
    const uint32_t long_tag[] = {NFS4_XDR_STRING + 1, 0};
    const uint32_t long_write[] = {0,          0,
                                   0,          0,
                                   0,          0, /* stateid, offset */
                                   FILE_SYNC4, NFS4_XDR_DATA + 1};
    const uint32_t unknown_op[] = {0, 0, 1, 999};
    GETATTR4args ga;
    COMPOUND4args ca;
    WRITE4args wa;

    (void)state;
    memset(&ga, 0, sizeof(ga));
    memset(&ca, 0, sizeof(ca));
    memset(&wa, 0, sizeof(wa));
    assert_false(decode_words((xdrproc_t)xdr_GETATTR4args, long_bitmap, 3, &ga));
    assert_false(decode_words((xdrproc_t)xdr_GETATTR4args, huge_bitmap, 3, &ga));
    assert_false(decode_words((xdrproc_t)xdr_COMPOUND4args, long_compound, 4, &ca));
    assert_false(decode_words((xdrproc_t)xdr_COMPOUND4args, long_tag, 2, &ca));
    assert_false(decode_words((xdrproc_t)xdr_WRITE4args, long_write, 8, &wa));
    /* an operation number the union does not know does not decode either:
     * a server answers it OP_ILLEGAL from the number alone */
    assert_false(decode_words((xdrproc_t)xdr_COMPOUND4args, unknown_op, 4, &ca));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_small_compound_has_the_rfc_bytes),
        cmocka_unit_test(sequence_putfh_getattr_round_trips),
        cmocka_unit_test(open_and_denied_lock_results_round_trip),
        cmocka_unit_test(exclusive4_1_open_args_round_trip),
        cmocka_unit_test(create_session_with_auth_sys_callback_round_trips),
        cmocka_unit_test(readdir_result_round_trips),
        cmocka_unit_test(callback_compound_round_trips),
        cmocka_unit_test(claimed_lengths_past_the_bounds_fail),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
