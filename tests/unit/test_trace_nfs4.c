/* SPDX-License-Identifier: BSD-2-Clause */
/* test_trace_nfs4.c - NFSv4 COMPOUNDs in captures (tr_nfs4_args.c,
 * tr_nfs4_res.c, tr_nfs4_attr.c, tr_nfs4_flow.c, tr_nfs4_lower.c): a v4.1
 * COMPOUND with its session, the current-filehandle flow through PUTFH,
 * LOOKUP, GETFH, SAVEFH and RENAME, OPEN's create and stateid, WRITE's
 * data skipped, READDIR's entries with their handles, the operations as
 * NFSv3-shaped events; the hostile ones (a COMPOUND claiming 2^31
 * operations, an unknown operation, a bitmap of 1000 words, more
 * operations than are kept) read with counts and the next COMPOUND whole;
 * callbacks counted apart; without the option nothing changes.  Messages
 * are encoded with the rpcgen codecs of nfs4_prot.x. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers/th_pcap.h"
#include "trace/tr_nfs_int.h"

/* ---- a TCP connection of records ---------------------------------------- */

static struct th_pc pcap;
static uint32_t seq_c, seq_s;

static void begin(void)
{
    th_pc_begin(&pcap);
    seq_c = 1000;
    seq_s = 5000;
    th_tcp_frame(&pcap, 1, seq_c++, TH_SYN, NULL, 0, 1);
    th_tcp_frame(&pcap, 0, seq_s++, TH_SYN | TH_ACK, NULL, 0, 0);
}

static void send_rec(int from_client, const uint8_t *b, size_t n)
{
    uint32_t *seq = from_client ? &seq_c : &seq_s;

    th_tcp_frame(&pcap, from_client, *seq, TH_ACK, b, n, 1);
    *seq += (uint32_t)n;
}

static uint8_t rec[65536];

static void compound_call(uint32_t xid, uint32_t minor, nfs_argop4 *ops, u_int n)
{
    COMPOUND4args a;

    memset(&a, 0, sizeof(a));
    a.minorversion = minor;
    a.argarray.argarray_len = n;
    a.argarray.argarray_val = ops;
    send_rec(1, rec,
             th_rpc_call(rec, sizeof(rec), xid, 100003, 4, 1,
                         (xdrproc_t)xdr_COMPOUND4args, &a));
}

static void compound_reply(uint32_t xid, nfs_resop4 *res, u_int n)
{
    COMPOUND4res r;

    memset(&r, 0, sizeof(r));
    r.status = n ? res[n - 1].nfs_resop4_u.opputfh.status : NFS4_OK;
    r.resarray.resarray_len = n;
    r.resarray.resarray_val = res;
    send_rec(0, rec,
             th_rpc_reply(rec, sizeof(rec), xid, (xdrproc_t)xdr_COMPOUND4res, &r));
}

/* ---- reading ------------------------------------------------------------- */

struct got {
    struct tr_nfs_event ev[8];
    struct tr_nfs4_op ops[8][TR_NFS4_OPS_MAX];
    struct tr_nfs4_compound c[8];
    int n;
    struct tr_nfs_reader *r;
    FILE *fp;
};

static struct got got;

/* Reads the capture; each event's COMPOUND is copied (it lives only until
 * the next event), its strings are not. */
static void read_all(int nfsv4)
{
    struct tr_nfs_options o = {.format = "pcap", .nfsv4 = nfsv4};
    struct tr_nfs_event ev;
    char err[CM_ERR_LEN];
    int rc;

    got.n = 0;
    got.fp = fmemopen(pcap.buf, pcap.len, "rb");
    assert_non_null(got.fp);
    assert_int_equal(tr_nfs_open_fp(&got.r, got.fp, "mem", &o, err, sizeof(err)), 0);
    while ((rc = tr_nfs_next(got.r, &ev)) > 0) {
        assert_true(got.n < 8);
        got.ev[got.n] = ev;
        if (ev.v4) {
            got.c[got.n] = *ev.v4;
            memcpy(got.ops[got.n], ev.v4->ops, ev.v4->nops * sizeof(*ev.v4->ops));
            got.c[got.n].ops = got.ops[got.n];
            got.ev[got.n].v4 = &got.c[got.n];
        }
        got.n++;
    }
    assert_int_equal(rc, 0);
}

static void done(void)
{
    tr_nfs_close(got.r);
    fclose(got.fp);
}

/* ---- building blocks ------------------------------------------------------ */

static char fh_a[20] = "handle-of-directory", fh_b[24] = "handle-of-the-new-file!",
            fh_c[16] = "target-directory";

static void op_putfh(nfs_argop4 *op, char *fh, u_int len)
{
    op->argop = OP_PUTFH;
    op->nfs_argop4_u.opputfh.object.nfs_fh4_len = len;
    op->nfs_argop4_u.opputfh.object.nfs_fh4_val = fh;
}

static void op_name(nfs_argop4 *op, nfs_opnum4 n, char *name)
{
    op->argop = n;
    /* LOOKUP, REMOVE, LINK: one component4 first in their arguments */
    op->nfs_argop4_u.oplookup.objname.utf8string_len = (u_int)strlen(name);
    op->nfs_argop4_u.oplookup.objname.utf8string_val = name;
}

static uint32_t attr_mask[2] = {(1u << FATTR4_TYPE) | (1u << FATTR4_SIZE) |
                                    (1u << FATTR4_FILEID),
                                (1u << (FATTR4_MODE - 32)) | (1u << (FATTR4_OWNER - 32))};

static void op_getattr(nfs_argop4 *op)
{
    op->argop = OP_GETATTR;
    op->nfs_argop4_u.opgetattr.attr_request.bitmap4_len = 2;
    op->nfs_argop4_u.opgetattr.attr_request.bitmap4_val = attr_mask;
}

/* type, size, fileid, mode, owner (the order of their bits) into vals. */
static u_int attr_values(char *vals, u_int cap, uint32_t type, uint64_t size,
                         uint64_t fileid, uint32_t mode, const char *owner)
{
    XDR x;
    char *o = (char *)owner;
    u_int n;

    xdrmem_create(&x, vals, cap, XDR_ENCODE);
    assert_true(xdr_u_int(&x, &type) && xdr_uint64_t(&x, &size) &&
                xdr_uint64_t(&x, &fileid) && xdr_u_int(&x, &mode) &&
                xdr_string(&x, &o, 64));
    n = xdr_getpos(&x);
    xdr_destroy(&x);
    return n;
}

static char vals[256];

static void res_getattr(nfs_resop4 *r, uint64_t size)
{
    r->resop = OP_GETATTR;
    r->nfs_resop4_u.opgetattr.status = NFS4_OK;
    r->nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes.attrmask.bitmap4_len =
        2;
    r->nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes.attrmask.bitmap4_val =
        attr_mask;
    r->nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes.attr_vals
        .attrlist4_len = attr_values(vals, sizeof(vals), NF4REG, size, 77, 0644, "1000");
    r->nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes.attr_vals
        .attrlist4_val = vals;
}

static void res_ok(nfs_resop4 *r, nfs_opnum4 n)
{
    r->resop = n;
    r->nfs_resop4_u.opputfh.status = NFS4_OK; /* status is first in every result */
}

static void res_getfh(nfs_resop4 *r, char *fh, u_int len)
{
    r->resop = OP_GETFH;
    r->nfs_resop4_u.opgetfh.status = NFS4_OK;
    r->nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_len = len;
    r->nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_val = fh;
}

static int fh_is(const struct nf_fh *fh, const char *bytes, u_int len)
{
    return fh->len == len && memcmp(fh->data, bytes, len) == 0;
}

/* ---- tests ---------------------------------------------------------------- */

static void a_v41_lookup_shows_its_handle_through_getfh(void **state)
{
    nfs_argop4 a[5];
    nfs_resop4 r[5];
    const struct tr_nfs4_compound *c;
    struct tr_nfs_event low;
    (void)state;

    memset(a, 0, sizeof(a));
    memset(r, 0, sizeof(r));
    a[0].argop = OP_SEQUENCE;
    memcpy(a[0].nfs_argop4_u.opsequence.sa_sessionid, "0123456789abcdef", 16);
    a[0].nfs_argop4_u.opsequence.sa_sequenceid = 7;
    a[0].nfs_argop4_u.opsequence.sa_slotid = 2;
    a[0].nfs_argop4_u.opsequence.sa_highest_slotid = 3;
    op_putfh(&a[1], fh_a, sizeof(fh_a));
    op_name(&a[2], OP_LOOKUP, "f1");
    a[3].argop = OP_GETFH;
    op_getattr(&a[4]);
    res_ok(&r[0], OP_SEQUENCE);
    memcpy(r[0].nfs_resop4_u.opsequence.SEQUENCE4res_u.sr_resok4.sr_sessionid,
           "0123456789abcdef", 16);
    res_ok(&r[1], OP_PUTFH);
    res_ok(&r[2], OP_LOOKUP);
    res_getfh(&r[3], fh_b, sizeof(fh_b));
    res_getattr(&r[4], 4096);
    begin();
    compound_call(0x100, 1, a, 5);
    compound_reply(0x100, r, 5);
    read_all(1);
    assert_int_equal(got.n, 1);
    assert_int_equal(got.ev[0].vers, 4);
    assert_int_equal(got.ev[0].op, TR_NFS_OP_NFSV4);
    assert_true(got.ev[0].flags & TR_NFS_F_REPLY);
    c = got.ev[0].v4;
    assert_non_null(c);
    assert_int_equal(c->minor, 1);
    assert_int_equal(c->nops, 5);
    assert_int_equal(c->nres, 5);
    assert_true(c->flags & TR_NFS4_C_SEQUENCE);
    assert_memory_equal(c->sessionid, "0123456789abcdef", 16);
    assert_int_equal(c->sequenceid, 7);
    assert_int_equal(c->slotid, 2);
    assert_int_equal(c->highest_slotid, 3);
    /* LOOKUP acts on the PUTFH's directory and makes the handle GETFH shows */
    assert_int_equal(c->ops[2].op, OP_LOOKUP);
    assert_true(fh_is(&c->ops[2].fh, fh_a, sizeof(fh_a)));
    assert_true(c->ops[2].flags & TR_NFS4_O_RES_FH);
    assert_true(fh_is(&c->ops[2].res_fh, fh_b, sizeof(fh_b)));
    assert_int_equal(c->ops[2].res_fh_id, 3);
    /* GETATTR is of the new object */
    assert_int_equal(c->ops[4].fh_id, 3);
    assert_true(fh_is(&c->ops[4].fh, fh_b, sizeof(fh_b)));
    assert_int_equal(c->ops[4].attr.type, TR_NFS_REG);
    assert_int_equal(c->ops[4].attr.size, 4096);
    assert_int_equal(c->ops[4].attr.fileid, 77);
    assert_int_equal(c->ops[4].attr.mode, 0644);
    assert_true(c->ops[4].attr.have & TR_NFS_A_UID);
    assert_int_equal(c->ops[4].attr.uid, 1000);
    /* as NFSv3 sees it */
    assert_int_equal(tr_nfs4_op_event(&got.ev[0], 0, &low), 0); /* SEQUENCE: none */
    assert_int_equal(tr_nfs4_op_event(&got.ev[0], 2, &low), 1);
    assert_int_equal(low.op, NF_OP_LOOKUP);
    assert_true(fh_is(&low.fh, fh_a, sizeof(fh_a)));
    assert_true(fh_is(&low.res_fh, fh_b, sizeof(fh_b)));
    assert_int_equal(low.attr.size, 4096);
    assert_int_equal(low.status, 0);
    assert_int_equal(tr_nfs_counter(got.r, "nfsv4_calls"), 1);
    done();
}

static char owner[] = "open-owner";

static void open_create_then_write(void **state)
{
    nfs_argop4 a[3];
    nfs_resop4 r[3];
    static char data[100];
    OPEN4args *o;
    OPEN4resok *ok;
    stateid4 st;
    static uint32_t mode_mask[2] = {0, 1u << (FATTR4_MODE - 32)};
    static char mode_val[4] = {0, 0, 1, 0x80}; /* 0600 */
    struct tr_nfs_event low;
    const struct tr_nfs4_compound *c;
    (void)state;

    memset(a, 0, sizeof(a));
    memset(r, 0, sizeof(r));
    op_putfh(&a[0], fh_a, sizeof(fh_a));
    a[1].argop = OP_OPEN;
    o = &a[1].nfs_argop4_u.opopen;
    o->seqid = 1;
    o->share_access = OPEN4_SHARE_ACCESS_WRITE;
    o->owner.clientid = 0x1122;
    o->owner.owner.owner_len = sizeof(owner) - 1;
    o->owner.owner.owner_val = owner;
    o->openhow.opentype = OPEN4_CREATE;
    o->openhow.openflag4_u.how.mode = UNCHECKED4;
    o->openhow.openflag4_u.how.createhow4_u.createattrs.attrmask.bitmap4_len = 2;
    o->openhow.openflag4_u.how.createhow4_u.createattrs.attrmask.bitmap4_val = mode_mask;
    o->openhow.openflag4_u.how.createhow4_u.createattrs.attr_vals.attrlist4_len = 4;
    o->openhow.openflag4_u.how.createhow4_u.createattrs.attr_vals.attrlist4_val =
        mode_val;
    o->claim.claim = CLAIM_NULL;
    o->claim.open_claim4_u.file.utf8string_len = 3;
    o->claim.open_claim4_u.file.utf8string_val = "new";
    a[2].argop = OP_GETFH;
    res_ok(&r[0], OP_PUTFH);
    res_ok(&r[1], OP_OPEN);
    ok = &r[1].nfs_resop4_u.opopen.OPEN4res_u.resok4;
    ok->stateid.seqid = 1;
    memcpy(ok->stateid.other, "state-bytes!", 12);
    ok->rflags = 2;
    res_getfh(&r[2], fh_b, sizeof(fh_b));
    begin();
    compound_call(0x200, 0, a, 3);
    compound_reply(0x200, r, 3);
    /* WRITE with the OPEN's stateid; its data is skipped, not copied */
    st = ok->stateid;
    memset(a, 0, sizeof(a));
    memset(r, 0, sizeof(r));
    op_putfh(&a[0], fh_b, sizeof(fh_b));
    a[1].argop = OP_WRITE;
    a[1].nfs_argop4_u.opwrite.stateid = st;
    a[1].nfs_argop4_u.opwrite.offset = 8192;
    a[1].nfs_argop4_u.opwrite.stable = UNSTABLE4;
    a[1].nfs_argop4_u.opwrite.data.data_len = sizeof(data);
    a[1].nfs_argop4_u.opwrite.data.data_val = data;
    compound_call(0x201, 0, a, 2);
    res_ok(&r[0], OP_PUTFH);
    res_ok(&r[1], OP_WRITE);
    r[1].nfs_resop4_u.opwrite.WRITE4res_u.resok4.count = sizeof(data);
    compound_reply(0x201, r, 2);
    read_all(1);
    assert_int_equal(got.n, 2);
    c = got.ev[0].v4;
    assert_int_equal(c->minor, 0);
    assert_false(c->flags & TR_NFS4_C_SEQUENCE);
    assert_true(c->flags & TR_NFS4_C_CLIENTID);
    assert_int_equal(c->clientid, 0x1122);
    assert_int_equal(c->ops[1].how, UNCHECKED4);
    assert_int_equal(c->ops[1].claim, CLAIM_NULL);
    assert_int_equal(c->ops[1].seqid, 1);
    assert_true(c->ops[1].flags & TR_NFS4_O_OWNER);
    assert_true(c->ops[1].flags & TR_NFS4_O_RES_STATEID);
    assert_memory_equal(c->ops[1].res_stateid.other, "state-bytes!", 12);
    assert_true(c->ops[1].sattr.have & TR_NFS_A_MODE);
    assert_int_equal(c->ops[1].sattr.mode, 0600);
    assert_int_equal(tr_nfs4_op_event(&got.ev[0], 1, &low), 1);
    assert_int_equal(low.op, NF_OP_CREATE);
    assert_true(fh_is(&low.fh, fh_a, sizeof(fh_a)));
    assert_true(fh_is(&low.res_fh, fh_b, sizeof(fh_b)));
    assert_int_equal(low.sattr.mode, 0600);
    c = got.ev[1].v4;
    assert_int_equal(c->ops[1].op, OP_WRITE);
    assert_int_equal(c->ops[1].count, sizeof(data));
    assert_int_equal(c->ops[1].res_count, sizeof(data));
    assert_int_equal(c->ops[1].offset, 8192);
    assert_memory_equal(c->ops[1].stateid.other, "state-bytes!", 12);
    assert_int_equal(tr_nfs4_op_event(&got.ev[1], 1, &low), 1);
    assert_int_equal(low.op, NF_OP_WRITE);
    assert_true(fh_is(&low.fh, fh_b, sizeof(fh_b)));
    assert_int_equal(low.offset, 8192);
    assert_int_equal(low.count, sizeof(data));
    done();
}

static void rename_takes_the_saved_handle(void **state)
{
    nfs_argop4 a[4];
    nfs_resop4 r[4];
    struct tr_nfs_event low;
    int i;
    (void)state;

    memset(a, 0, sizeof(a));
    memset(r, 0, sizeof(r));
    op_putfh(&a[0], fh_a, sizeof(fh_a));
    a[1].argop = OP_SAVEFH;
    op_putfh(&a[2], fh_c, sizeof(fh_c));
    a[3].argop = OP_RENAME;
    a[3].nfs_argop4_u.oprename.oldname.utf8string_len = 1;
    a[3].nfs_argop4_u.oprename.oldname.utf8string_val = "x";
    a[3].nfs_argop4_u.oprename.newname.utf8string_len = 1;
    a[3].nfs_argop4_u.oprename.newname.utf8string_val = "y";
    for (i = 0; i < 4; i++)
        res_ok(&r[i], a[i].argop);
    begin();
    compound_call(0x300, 1, a, 4);
    compound_reply(0x300, r, 4);
    read_all(1);
    assert_int_equal(got.n, 1);
    assert_int_equal(tr_nfs4_op_event(&got.ev[0], 3, &low), 1);
    assert_int_equal(low.op, NF_OP_RENAME);
    assert_true(fh_is(&low.fh, fh_a, sizeof(fh_a)));
    assert_true(fh_is(&low.fh2, fh_c, sizeof(fh_c)));
    assert_string_equal(low.name, "x");
    assert_string_equal(low.name2, "y");
    done();
}

/* A failed LOOKUP ends the COMPOUND: the GETATTR after it did not run. */
static void operations_after_a_failure_did_not_run(void **state)
{
    nfs_argop4 a[3];
    nfs_resop4 r[2];
    struct tr_nfs_event low;
    (void)state;

    memset(a, 0, sizeof(a));
    memset(r, 0, sizeof(r));
    op_putfh(&a[0], fh_a, sizeof(fh_a));
    op_name(&a[1], OP_LOOKUP, "none");
    op_getattr(&a[2]);
    res_ok(&r[0], OP_PUTFH);
    r[1].resop = OP_LOOKUP;
    r[1].nfs_resop4_u.oplookup.status = NFS4ERR_NOENT;
    begin();
    compound_call(0x400, 1, a, 3);
    compound_reply(0x400, r, 2);
    read_all(1);
    assert_int_equal(got.c[0].status, NFS4ERR_NOENT);
    assert_int_equal(got.c[0].nres, 2);
    assert_int_equal(got.ops[0][1].status, NFS4ERR_NOENT);
    assert_false(got.ops[0][2].flags & TR_NFS4_O_RES);
    assert_int_equal(tr_nfs4_op_event(&got.ev[0], 1, &low), 1);
    assert_int_equal(low.status, NFS4ERR_NOENT);
    assert_int_equal(tr_nfs4_op_event(&got.ev[0], 2, &low), 0);
    done();
}

static void readdir_entries_carry_their_handles(void **state)
{
    nfs_argop4 a[2];
    nfs_resop4 r[2];
    entry4 e[2];
    static uint32_t mask[1] = {(1u << FATTR4_TYPE) | (1u << FATTR4_FILEHANDLE) |
                               (1u << FATTR4_FILEID)};
    static char ev0[64], ev1[64];
    char *names[2] = {"one", "two"};
    char *fhs[2] = {fh_b, fh_c};
    char *evs[2] = {ev0, ev1};
    u_int fhl[2] = {sizeof(fh_b), sizeof(fh_c)};
    int i;
    (void)state;

    memset(a, 0, sizeof(a));
    memset(r, 0, sizeof(r));
    memset(e, 0, sizeof(e));
    op_putfh(&a[0], fh_a, sizeof(fh_a));
    a[1].argop = OP_READDIR;
    a[1].nfs_argop4_u.opreaddir.maxcount = 4096;
    a[1].nfs_argop4_u.opreaddir.attr_request.bitmap4_len = 1;
    a[1].nfs_argop4_u.opreaddir.attr_request.bitmap4_val = mask;
    for (i = 0; i < 2; i++) {
        XDR x;
        uint32_t type = NF4REG;
        uint64_t fileid = 500 + (uint64_t)i;
        nfs_fh4 f = {fhl[i], fhs[i]};
        xdrmem_create(&x, evs[i], 64, XDR_ENCODE);
        assert_true(xdr_u_int(&x, &type) && xdr_nfs_fh4(&x, &f) &&
                    xdr_uint64_t(&x, &fileid));
        e[i].cookie = (uint64_t)i + 1;
        e[i].name.utf8string_len = 3;
        e[i].name.utf8string_val = names[i];
        e[i].attrs.attrmask.bitmap4_len = 1;
        e[i].attrs.attrmask.bitmap4_val = mask;
        e[i].attrs.attr_vals.attrlist4_len = xdr_getpos(&x);
        e[i].attrs.attr_vals.attrlist4_val = evs[i];
        e[i].nextentry = i == 0 ? &e[1] : NULL;
        xdr_destroy(&x);
    }
    res_ok(&r[0], OP_PUTFH);
    res_ok(&r[1], OP_READDIR);
    r[1].nfs_resop4_u.opreaddir.READDIR4res_u.resok4.reply.entries = &e[0];
    r[1].nfs_resop4_u.opreaddir.READDIR4res_u.resok4.reply.eof = 1;
    begin();
    compound_call(0x500, 1, a, 2);
    compound_reply(0x500, r, 2);
    read_all(1);
    assert_int_equal(got.ops[0][1].nentries, 2);
    assert_int_equal(got.ops[0][1].eof, 1);
    assert_string_equal(got.ops[0][1].entries[1].name, "two");
    assert_int_equal(got.ops[0][1].entries[1].fileid, 501);
    assert_true(fh_is(&got.ops[0][1].entries[0].fh, fh_b, sizeof(fh_b)));
    assert_int_equal(got.ops[0][1].entries[0].attr.type, TR_NFS_REG);
    done();
}

/* Where a call's COMPOUND begins in rec: the mark and the RPC header (10
 * words, AUTH_NONE), then the tag (empty: its length word), the minor
 * version, the count, the operations. */
#define AT_COUNT 52
#define AT_OPS   56

static size_t build(uint32_t xid, nfs_argop4 *ops, u_int n)
{
    COMPOUND4args a;

    memset(&a, 0, sizeof(a));
    a.minorversion = 1;
    a.argarray.argarray_len = n;
    a.argarray.argarray_val = ops;
    return th_rpc_call(rec, sizeof(rec), xid, 100003, 4, 1, (xdrproc_t)xdr_COMPOUND4args,
                       &a);
}

static void word(size_t at, uint32_t v)
{
    rec[at] = (uint8_t)(v >> 24);
    rec[at + 1] = (uint8_t)(v >> 16);
    rec[at + 2] = (uint8_t)(v >> 8);
    rec[at + 3] = (uint8_t)v;
}

static void one_good(uint32_t xid)
{
    nfs_argop4 a[2];

    memset(a, 0, sizeof(a));
    a[0].argop = OP_PUTROOTFH;
    a[1].argop = OP_GETFH;
    compound_call(xid, 1, a, 2);
}

static void hostile_compounds_cost_only_themselves(void **state)
{
    static nfs_argop4 many[200];
    nfs_argop4 a[2];
    nfs_resop4 r[2];
    size_t len;
    int i;
    (void)state;

    memset(a, 0, sizeof(a));
    a[0].argop = OP_PUTROOTFH;
    a[1].argop = OP_GETFH;
    begin();
    /* 2^31 operations claimed, two present */
    len = build(0x600, a, 2);
    word(AT_COUNT, 0x80000000u);
    send_rec(1, rec, len);
    one_good(0x601);
    /* an operation number no minor version has, in GETFH's place */
    len = build(0x602, a, 2);
    assert_int_equal(rec[AT_OPS + 7], OP_GETFH);
    word(AT_OPS + 4, 9999);
    send_rec(1, rec, len);
    /* GETATTR asking with a bitmap of 1000 words */
    len = build(0x603, a, 2);
    word(AT_OPS + 4, OP_GETATTR);
    word(AT_OPS + 8, 1000);
    for (i = 0; i < 1000; i++)
        word(AT_OPS + 12 + 4 * (size_t)i, 0xffffffffu);
    len = AT_OPS + 12 + 4000;
    word(0, 0x80000000u | (uint32_t)(len - 4));
    send_rec(1, rec, len);
    /* more operations than are kept */
    for (i = 0; i < 200; i++)
        many[i].argop = OP_PUTROOTFH;
    compound_call(0x604, 1, many, 200);
    /* and the next one is read whole */
    one_good(0x605);
    memset(r, 0, sizeof(r));
    res_ok(&r[0], OP_PUTROOTFH);
    res_getfh(&r[1], fh_a, sizeof(fh_a));
    compound_reply(0x605, r, 2);
    read_all(1);
    assert_int_equal(got.n, 6);
    assert_int_equal(got.c[0].nops_call, 0x80000000u);
    assert_int_equal(got.c[0].nops, 2);
    assert_true(got.ev[0].flags & TR_NFS_F_CALL_CUT);
    assert_int_equal(got.c[1].nops, 2);
    assert_false(got.ev[1].flags & TR_NFS_F_CALL_CUT);
    assert_true(got.c[2].flags & TR_NFS4_C_UNKNOWN_OP);
    assert_int_equal(got.c[2].unknown_op, 9999);
    assert_int_equal(got.c[2].nops, 1);
    assert_int_equal(got.c[3].nops, 2);
    assert_true(got.ops[3][1].flags & TR_NFS4_O_CUT);
    assert_true(got.ev[3].flags & TR_NFS_F_CALL_CUT);
    assert_int_equal(got.c[4].nops, TR_NFS4_OPS_MAX);
    assert_true(got.c[4].flags & TR_NFS4_C_OPS_CUT);
    assert_true(got.ev[5].flags & TR_NFS_F_REPLY);
    assert_true(fh_is(&got.ops[5][0].res_fh, fh_a, sizeof(fh_a)));
    assert_int_equal(tr_nfs_counter(got.r, "nfsv4_undecodable_ops"), 2);
    assert_int_equal(tr_nfs_counter(got.r, "nfsv4_unknown_ops"), 1);
    assert_int_equal(tr_nfs_counter(got.r, "nfsv4_compounds_over_ops_max"), 1);
    done();
}

static void callbacks_are_counted_apart(void **state)
{
    nfs_argop4 a[1];
    nfs_resop4 r[1];
    CB_COMPOUND4args cb;
    CB_COMPOUND4res cbr;
    (void)state;

    memset(a, 0, sizeof(a));
    memset(r, 0, sizeof(r));
    memset(&cb, 0, sizeof(cb));
    memset(&cbr, 0, sizeof(cbr));
    a[0].argop = OP_CREATE_SESSION;
    a[0].nfs_argop4_u.opcreate_session.csa_cb_program = 0x60000001; /* not transient */
    begin();
    compound_call(0x800, 1, a, 1);
    res_ok(&r[0], OP_CREATE_SESSION);
    compound_reply(0x800, r, 1);
    /* the server calls the client on the same connection */
    send_rec(0, rec,
             th_rpc_call(rec, sizeof(rec), 0x900, 0x60000001, 1, 1,
                         (xdrproc_t)xdr_CB_COMPOUND4args, &cb));
    send_rec(1, rec,
             th_rpc_reply(rec, sizeof(rec), 0x900, (xdrproc_t)xdr_CB_COMPOUND4res, &cbr));
    read_all(1);
    assert_int_equal(got.n, 1);
    assert_int_equal(tr_nfs_counter(got.r, "nfsv4_callbacks"), 1);
    assert_int_equal(tr_nfs_counter(got.r, "nfsv4_callback_replies"), 1);
    assert_int_equal(tr_nfs_counter(got.r, "other_rpc_calls"), 0);
    done();
}

static void without_the_option_nfsv4_is_only_counted(void **state)
{
    (void)state;

    begin();
    one_good(0x700);
    read_all(0);
    assert_int_equal(got.n, 0);
    assert_int_equal(tr_nfs_counter(got.r, "nfsv4_calls"), 1);
    done();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_v41_lookup_shows_its_handle_through_getfh),
        cmocka_unit_test(open_create_then_write),
        cmocka_unit_test(rename_takes_the_saved_handle),
        cmocka_unit_test(operations_after_a_failure_did_not_run),
        cmocka_unit_test(readdir_entries_carry_their_handles),
        cmocka_unit_test(hostile_compounds_cost_only_themselves),
        cmocka_unit_test(callbacks_are_counted_apart),
        cmocka_unit_test(without_the_option_nfsv4_is_only_counted),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
