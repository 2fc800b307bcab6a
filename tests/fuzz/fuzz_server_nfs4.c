/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_server_nfs4.c - libFuzzer driver for sfs_nfsd's NFSv4 COMPOUND
 * decoder and the operations behind it: each input is the arguments of
 * one COMPOUND (tag, minor version, operations), sent under a fixed RPC
 * header (NFS version 4, AUTH_SYS root) over a stream transport to
 * sv_core_handle.  The core is fixed to instance 1 and starts with an
 * NFSv4.1 session and an NFSv4.0 client record made the same way every
 * time, so the seed corpus (tests/fuzz/corpus/fuzz_server_nfs4/) can carry
 * a valid session id (00000001 00000001 00000001 9e3779b0) and client id
 * (0x0000000100000002); it is rebuilt every 20000 inputs so that what the
 * fuzzer creates stays bounded.
 */
#include "server/sv.h"
#include "nfs4_prot.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint8_t msg[SV_MSG_MAX];
static uint8_t out[SV_REPLY_MAX];

/* The RPC call header before the arguments; returns its length. */
static size_t header(uint32_t xid)
{
    u_int words[] = {
        xid, 0, 2, NFS4_PROGRAM, NFS_V4, NFSPROC4_COMPOUND, AUTH_SYS, 20, 0, 0,
        0,   0, 0, AUTH_NONE,    0};
    XDR x;
    size_t len;

    xdrmem_create(&x, (char *)msg, sizeof(msg), XDR_ENCODE);
    for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
        if (!xdr_u_int(&x, &words[i]))
            abort();
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    return len;
}

/* A compound of n operations of the set-up; aborts when it is not answered NFS4_OK.
 * res (when not NULL) gets the decoded reply. */
static void setup_call(struct sv_core *c, uint32_t minor, nfs_argop4 *op, u_int n,
                       COMPOUND4res *res)
{
    COMPOUND4args a;
    size_t len = header(1);
    struct sv_reply r;
    XDR x;

    memset(&a, 0, sizeof(a));
    a.minorversion = minor;
    a.argarray.argarray_len = n;
    a.argarray.argarray_val = op;
    xdrmem_create(&x, (char *)msg + len, (u_int)(sizeof(msg) - len), XDR_ENCODE);
    if (!xdr_COMPOUND4args(&x, &a))
        abort();
    len += xdr_getpos(&x);
    xdr_destroy(&x);
    r = sv_core_handle(c, msg, len, out, sizeof(out), "fuzz", 0);
    /* reply header of 6 words, then the compound's status */
    if (r.len < 28 || out[27] != 0 || out[26] != 0)
        abort();
    if (res != NULL) {
        memset(res, 0, sizeof(*res));
        xdrmem_create(&x, (char *)out + 24, (u_int)r.len - 24, XDR_DECODE);
        if (!xdr_COMPOUND4res(&x, res))
            abort();
        xdr_destroy(&x);
    }
}

static struct sv_core *new_core(void)
{
    struct sv_config cfg;
    char err[256];
    struct sv_core *c;
    nfs_argop4 op;
    char owner[] = "fuzz-client";
    clientid4 cid = (uint64_t)1 << 32 | 1;
    static const char session_id[NFS4_SESSIONID_SIZE] = {
        0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, (char)0x9e, 0x37, 0x79, (char)0xb0};
    COMPOUND4res res;
    SETCLIENTID4resok *ok;
    nfs_argop4 ops[2];

    sv_config_defaults(&cfg);
    cfg.instance = 1;
    cfg.max_bytes = 8 * 1024 * 1024;
    c = sv_core_create(&cfg, err, sizeof(err));
    if (c == NULL)
        abort();
    memset(&op, 0, sizeof(op));
    op.argop = OP_EXCHANGE_ID;
    op.nfs_argop4_u.opexchange_id.eia_clientowner.co_ownerid.co_ownerid_len =
        sizeof(owner) - 1;
    op.nfs_argop4_u.opexchange_id.eia_clientowner.co_ownerid.co_ownerid_val = owner;
    setup_call(c, 1, &op, 1, NULL);
    memset(&op, 0, sizeof(op));
    op.argop = OP_CREATE_SESSION;
    op.nfs_argop4_u.opcreate_session.csa_clientid = cid;
    op.nfs_argop4_u.opcreate_session.csa_sequence = 1;
    op.nfs_argop4_u.opcreate_session.csa_fore_chan_attrs.ca_maxrequestsize = SV_MSG_MAX;
    op.nfs_argop4_u.opcreate_session.csa_fore_chan_attrs.ca_maxresponsesize =
        SV_REPLY_MAX;
    op.nfs_argop4_u.opcreate_session.csa_fore_chan_attrs.ca_maxresponsesize_cached = 4096;
    op.nfs_argop4_u.opcreate_session.csa_fore_chan_attrs.ca_maxoperations = 64;
    op.nfs_argop4_u.opcreate_session.csa_fore_chan_attrs.ca_maxrequests = 8;
    op.nfs_argop4_u.opcreate_session.csa_back_chan_attrs =
        op.nfs_argop4_u.opcreate_session.csa_fore_chan_attrs;
    setup_call(c, 1, &op, 1, NULL);
    /* nothing to reclaim (slot 7: the seeds use the others) */
    memset(ops, 0, sizeof(ops));
    ops[0].argop = OP_SEQUENCE;
    memcpy(ops[0].nfs_argop4_u.opsequence.sa_sessionid, session_id, NFS4_SESSIONID_SIZE);
    ops[0].nfs_argop4_u.opsequence.sa_sequenceid = 1;
    ops[0].nfs_argop4_u.opsequence.sa_slotid = 7;
    ops[1].argop = OP_RECLAIM_COMPLETE;
    setup_call(c, 1, ops, 2, NULL);
    memset(&op, 0, sizeof(op));
    op.argop = OP_SETCLIENTID;
    op.nfs_argop4_u.opsetclientid.client.id.id_len = sizeof(owner) - 1;
    op.nfs_argop4_u.opsetclientid.client.id.id_val = owner;
    op.nfs_argop4_u.opsetclientid.callback.cb_location.na_r_netid = "tcp";
    op.nfs_argop4_u.opsetclientid.callback.cb_location.na_r_addr = "127.0.0.1.0.0";
    setup_call(c, 0, &op, 1, &res);
    ok =
        &res.resarray.resarray_val[0].nfs_resop4_u.opsetclientid.SETCLIENTID4res_u.resok4;
    memset(&op, 0, sizeof(op));
    op.argop = OP_SETCLIENTID_CONFIRM;
    op.nfs_argop4_u.opsetclientid_confirm.clientid = ok->clientid;
    memcpy(op.nfs_argop4_u.opsetclientid_confirm.setclientid_confirm,
           ok->setclientid_confirm, NFS4_VERIFIER_SIZE);
    xdr_free((xdrproc_t)xdr_COMPOUND4res, (char *)&res);
    setup_call(c, 0, &op, 1, NULL);
    return c;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct sv_core *core;
    static unsigned runs;
    static uint32_t xid = 2;
    size_t len;

    if (core == NULL || ++runs % 20000 == 0) {
        sv_core_destroy(core);
        core = new_core();
    }
    len = header(xid++);
    if (size > sizeof(msg) - len)
        size = sizeof(msg) - len;
    memcpy(msg + len, data, size);
    sv_core_handle(core, msg, len + size, out, sizeof(out), "fuzz", 0);
    return 0;
}
