/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * th_nfs4.h - unit-test helper: NFSv4 compounds to the server core through
 * sv_core_handle, no sockets.  Calls are encoded and replies decoded with
 * the rpcgen codecs of nfs4_prot.x; the core runs on a clock the test
 * steps (now_ns).  Header-only (static functions), for test_server_nfs4*.
 *
 *     struct sv_core *c = th4_core(LEASE_S);
 *     nfs_argop4 o[2];
 *     th4_op(&o[0], OP_PUTROOTFH); th4_op_lookup(&o[1], "export");
 *     assert_int_equal(th4_run(c, 0, o, 2), NFS4_OK);   // minor version 0
 *     th4_res.resarray ...                               // the decoded reply
 */
#ifndef TH_NFS4_H
#define TH_NFS4_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/nfs4_int.h"
#include "common/clock.h"
#include "common/cm.h"

static uint8_t th4_msg[64 * 1024];
static uint8_t th4_out[SV_REPLY_MAX];
static COMPOUND4res th4_res;
static size_t th4_reply_len;
static uint64_t th4_now_ns = 1000000000ull;

static inline uint64_t th4_test_now(void *data)
{
    (void)data;
    return th4_now_ns;
}
static const struct cm_clock th4_clock = {th4_test_now, NULL};

static inline struct sv_core *th4_core(unsigned lease_s)
{
    struct sv_config cfg;
    char err[256];
    struct sv_core *c;

    sv_config_defaults(&cfg);
    cfg.instance = 7;
    cfg.clock = &th4_clock;
    cfg.lease_s = lease_s;
    c = sv_core_create(&cfg, err, sizeof(err));
    assert_non_null(c);
    return c;
}

/* The uid of the AUTH_SYS credential of every call (the principal). */
static uint32_t th4_uid;

/* An RPC call to NFS v4 procedure proc with an AUTH_SYS credential of
 * uid th4_uid; returns its length. */
static inline size_t th4_enc_call(uint32_t xid, uint32_t vers, uint32_t proc,
                                  xdrproc_t xa, void *args)
{
    u_int head[] = {xid, 0, 2, NFS4_PROGRAM, vers, proc, AUTH_SYS, 24};
    u_int body[] = {0, 1, 't' << 24, th4_uid, 0, 0}; /* stamp, "t", uid, gid, no gids */
    u_int verf[] = {AUTH_NONE, 0};
    size_t len;
    XDR x;

    xdrmem_create(&x, (char *)th4_msg, sizeof(th4_msg), XDR_ENCODE);
    for (size_t i = 0; i < CM_ARRAY_LEN(head); i++)
        assert_true(xdr_u_int(&x, &head[i]));
    for (size_t i = 0; i < CM_ARRAY_LEN(body); i++)
        assert_true(xdr_u_int(&x, &body[i]));
    for (size_t i = 0; i < CM_ARRAY_LEN(verf); i++)
        assert_true(xdr_u_int(&x, &verf[i]));
    if (xa != NULL)
        assert_true(xa(&x, args));
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    return len;
}

/* Sends th4_msg[0..len) and decodes the accepted reply into th4_res; returns the
 * accept status. */
static inline int th4_send(struct sv_core *c, size_t len, uint32_t xid)
{
    struct sv_reply r =
        sv_core_handle(c, th4_msg, len, th4_out, sizeof(th4_out), "unit", 0);
    u_int v[6];
    XDR x;
    int st;

    assert_true(r.len > 0);
    th4_reply_len = r.len;
    xdr_free((xdrproc_t)xdr_COMPOUND4res, (char *)&th4_res);
    memset(&th4_res, 0, sizeof(th4_res));
    xdrmem_create(&x, (char *)th4_out, (u_int)r.len, XDR_DECODE);
    for (int i = 0; i < 6; i++)
        assert_true(xdr_u_int(&x, &v[i]));
    assert_int_equal(v[0], xid);
    assert_int_equal(v[2], MSG_ACCEPTED);
    st = (int)v[5];
    if (st == SUCCESS && !(len > 40 && r.len == 24)) /* NULL has no th4_result */
        assert_true(xdr_COMPOUND4res(&x, &th4_res));
    xdr_destroy(&x);
    return st;
}

static uint32_t th4_next_xid = 100;

/* Runs a compound of n operations with tag "tag"; returns its status. */
static inline nfsstat4 th4_run(struct sv_core *c, uint32_t minor, nfs_argop4 *ops,
                               u_int n)
{
    COMPOUND4args a;
    uint32_t xid = th4_next_xid++;

    memset(&a, 0, sizeof(a));
    a.tag.utf8string_len = 3;
    a.tag.utf8string_val = "tag";
    a.minorversion = minor;
    a.argarray.argarray_len = n;
    a.argarray.argarray_val = ops;
    assert_int_equal(
        th4_send(c, th4_enc_call(xid, 4, 1, (xdrproc_t)xdr_COMPOUND4args, &a), xid),
        SUCCESS);
    assert_int_equal(th4_res.tag.utf8string_len, 3);
    assert_memory_equal(th4_res.tag.utf8string_val, "tag", 3);
    return th4_res.status;
}

/* The status of th4_result i (and that there are n). */
static inline nfsstat4 th4_result(u_int i, u_int n)
{
    assert_int_equal(th4_res.resarray.resarray_len, n);
    /* every th4_result starts with its status, after the operation number */
    return *(nfsstat4 *)(void *)&th4_res.resarray.resarray_val[i].nfs_resop4_u;
}

static inline void th4_op(nfs_argop4 *o, nfs_opnum4 num)
{
    memset(o, 0, sizeof(*o));
    o->argop = num;
}

static inline void th4_op_lookup(nfs_argop4 *o, const char *name)
{
    th4_op(o, OP_LOOKUP);
    o->nfs_argop4_u.oplookup.objname.utf8string_len = (u_int)strlen(name);
    o->nfs_argop4_u.oplookup.objname.utf8string_val = (char *)name;
}

static uint32_t th4_mask[3];

static inline void th4_op_getattr(nfs_argop4 *o, uint32_t w0, uint32_t w1)
{
    th4_op(o, OP_GETATTR);
    th4_mask[0] = w0;
    th4_mask[1] = w1;
    o->nfs_argop4_u.opgetattr.attr_request.bitmap4_len = 2;
    o->nfs_argop4_u.opgetattr.attr_request.bitmap4_val = th4_mask;
}

#define TH4_BIT(a) (1u << ((a) % 32))

static inline clientid4 th4_setclientid(struct sv_core *c, const char *id,
                                        const char *verf)
{
    nfs_argop4 o[1];
    clientid4 cid;
    verifier4 confirm;

    th4_op(&o[0], OP_SETCLIENTID);
    memcpy(o[0].nfs_argop4_u.opsetclientid.client.verifier, verf, NFS4_VERIFIER_SIZE);
    o[0].nfs_argop4_u.opsetclientid.client.id.id_len = (u_int)strlen(id);
    o[0].nfs_argop4_u.opsetclientid.client.id.id_val = (char *)id;
    o[0].nfs_argop4_u.opsetclientid.callback.cb_location.na_r_netid = "tcp";
    o[0].nfs_argop4_u.opsetclientid.callback.cb_location.na_r_addr = "127.0.0.1.0.0";
    assert_int_equal(th4_run(c, 0, o, 1), NFS4_OK);
    cid = th4_res.resarray.resarray_val[0]
              .nfs_resop4_u.opsetclientid.SETCLIENTID4res_u.resok4.clientid;
    memcpy(confirm,
           th4_res.resarray.resarray_val[0]
               .nfs_resop4_u.opsetclientid.SETCLIENTID4res_u.resok4.setclientid_confirm,
           NFS4_VERIFIER_SIZE);
    th4_op(&o[0], OP_SETCLIENTID_CONFIRM);
    o[0].nfs_argop4_u.opsetclientid_confirm.clientid = cid;
    memcpy(o[0].nfs_argop4_u.opsetclientid_confirm.setclientid_confirm, confirm,
           NFS4_VERIFIER_SIZE);
    assert_int_equal(th4_run(c, 0, o, 1), NFS4_OK);
    assert_int_equal(th4_run(c, 0, o, 1), NFS4_OK); /* a retransmission */
    return cid;
}

struct th4_session {
    clientid4 cid;
    sessionid4 id;
    uint32_t seq[4];
};

static inline void th4_new_session_only(struct sv_core *c, struct th4_session *s,
                                        const char *owner)
{
    nfs_argop4 o[1];
    CREATE_SESSION4args *cs;
    CREATE_SESSION4resok *ok;

    memset(s, 0, sizeof(*s));
    th4_op(&o[0], OP_EXCHANGE_ID);
    memcpy(o[0].nfs_argop4_u.opexchange_id.eia_clientowner.co_verifier, "verifier", 8);
    o[0].nfs_argop4_u.opexchange_id.eia_clientowner.co_ownerid.co_ownerid_len =
        (u_int)strlen(owner);
    o[0].nfs_argop4_u.opexchange_id.eia_clientowner.co_ownerid.co_ownerid_val =
        (char *)owner;
    assert_int_equal(th4_run(c, 1, o, 1), NFS4_OK);
    s->cid = th4_res.resarray.resarray_val[0]
                 .nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4.eir_clientid;
    assert_int_equal(
        th4_res.resarray.resarray_val[0]
            .nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4.eir_sequenceid,
        1);
    th4_op(&o[0], OP_CREATE_SESSION);
    cs = &o[0].nfs_argop4_u.opcreate_session;
    cs->csa_clientid = s->cid;
    cs->csa_sequence = 1;
    cs->csa_flags = CREATE_SESSION4_FLAG_CONN_BACK_CHAN;
    cs->csa_fore_chan_attrs.ca_maxrequestsize = 1 << 20;
    cs->csa_fore_chan_attrs.ca_maxresponsesize = 1 << 20;
    cs->csa_fore_chan_attrs.ca_maxresponsesize_cached = 8192;
    cs->csa_fore_chan_attrs.ca_maxoperations = 16;
    cs->csa_fore_chan_attrs.ca_maxrequests = 4;
    cs->csa_back_chan_attrs = cs->csa_fore_chan_attrs;
    cs->csa_cb_program = 0x40000000;
    assert_int_equal(th4_run(c, 1, o, 1), NFS4_OK);
    ok = &th4_res.resarray.resarray_val[0]
              .nfs_resop4_u.opcreate_session.CREATE_SESSION4res_u.csr_resok4;
    memcpy(s->id, ok->csr_sessionid, NFS4_SESSIONID_SIZE);
    assert_int_equal(ok->csr_fore_chan_attrs.ca_maxrequests, 4);
    assert_int_equal(ok->csr_fore_chan_attrs.ca_maxoperations, 16);
    assert_int_equal(ok->csr_flags & CREATE_SESSION4_FLAG_CONN_BACK_CHAN, 0); /* none */
    /* the same CREATE_SESSION again: its reply, no second session */
    assert_int_equal(th4_run(c, 1, o, 1), NFS4_OK);
    assert_memory_equal(
        th4_res.resarray.resarray_val[0]
            .nfs_resop4_u.opcreate_session.CREATE_SESSION4res_u.csr_resok4.csr_sessionid,
        s->id, NFS4_SESSIONID_SIZE);
    cs->csa_sequence = 3;
    assert_int_equal(th4_run(c, 1, o, 1), NFS4ERR_SEQ_MISORDERED);
}

static inline void th4_op_sequence(nfs_argop4 *o, struct th4_session *s, uint32_t slot,
                                   uint32_t seqid, int cache)
{
    th4_op(o, OP_SEQUENCE);
    memcpy(o->nfs_argop4_u.opsequence.sa_sessionid, s->id, NFS4_SESSIONID_SIZE);
    o->nfs_argop4_u.opsequence.sa_sequenceid = seqid;
    o->nfs_argop4_u.opsequence.sa_slotid = slot;
    o->nfs_argop4_u.opsequence.sa_highest_slotid = 3;
    o->nfs_argop4_u.opsequence.sa_cachethis = cache;
}

/* A new client and session that said RECLAIM_COMPLETE (slot 3, sequence
 * id 1), as a client does before it opens anything. */
static inline void th4_new_session(struct sv_core *c, struct th4_session *s,
                                   const char *owner)
{
    nfs_argop4 o[2];

    th4_new_session_only(c, s, owner);
    th4_op_sequence(&o[0], s, 3, 1, 0);
    th4_op(&o[1], OP_RECLAIM_COMPLETE);
    assert_int_equal(th4_run(c, 1, o, 2), NFS4_OK);
}

#endif /* TH_NFS4_H */
