/* SPDX-License-Identifier: BSD-2-Clause */
/* test_nfs_v4client.c - the NFSv4 client of the nfs layer (nf4.h).
 * Compounds built by the nf4_op_* helpers encode as rpcgen decodes them
 * back, and each SFS op's compound has the shape of its row; replies
 * encoded by rpcgen decode into struct nf4_res (handles,
 * attributes, READ data, directory names, delegations, the session's
 * results), and every cut reply fails to decode instead of reading past
 * its end.  Then the client's state machine against a scripted NFSv4.1
 * responder on a socketpair (a server thread: a stand-in for a server's
 * answers, the real servers are the integration tests'), on a stepped
 * clock: establishing the client (EXCHANGE_ID, CREATE_SESSION,
 * RECLAIM_COMPLETE, the lease), sequence ids per slot, DELAY held and sent
 * again, BADSESSION answered with a new session, STALE_CLIENTID with a new
 * client and a new epoch, a call that got no reply repaired on its slot
 * after SEQ_MISORDERED, more calls than slots waiting, the lease renewed
 * when idle, a delegation handed back, a recovery given up, EXPIRED
 * after a good SEQUENCE left to the caller (no new client), the opens
 * reclaimed before RECLAIM_COMPLETE after a restart (a new server
 * instance) and not after a lost lease - by the load's reclaimer, the
 * previous client's opens only, NO_GRACE stopping the rest - and the
 * session and client destroyed at close - a recovery under way at close
 * ended first, so that what it made is destroyed too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/clock.h"
#include "common/error.h"
#include "helpers/th_serve.h"
#include "nfs/nf4_client.h"
#include "nfs/nf4_int.h"
#include "nfs/nf4_load.h"

/* ---- encoding and decoding ------------------------------------------------- */

/* Encodes c's arguments and decodes them back with rpcgen into *out
 * (xdr_free it). */
static void encode_back(struct nf4_compound *c, COMPOUND4args *out)
{
    static char buf[8192];
    XDR x;
    u_int len;

    c->args.argarray.argarray_val = c->op;
    xdrmem_create(&x, buf, sizeof(buf), XDR_ENCODE);
    assert_true(xdr_COMPOUND4args(&x, &c->args));
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    memset(out, 0, sizeof(*out));
    xdrmem_create(&x, buf, len, XDR_DECODE);
    assert_true(xdr_COMPOUND4args(&x, out));
    assert_int_equal(xdr_getpos(&x), len);
    xdr_destroy(&x);
}

static void compounds_encode_as_built(void **state)
{
    static struct nf4_compound c;
    struct nf4_fh fh = {4, {1, 2, 3, 4}};
    struct nf4_sattr sa = {.set_mode = 1, .mode = 0640, .set_size = 1, .size = 42};
    stateid4 sid = {7, {'o', 'p', 'e', 'n'}};
    COMPOUND4args a;
    const nfs_argop4 *o;
    const char *d;

    (void)state;
    nf4_compound_init(&c, 1, 0);
    assert_non_null(nf4_op_putfh(&c, &fh));
    assert_non_null(nf4_op_open(&c, "f1", 1, &sa));
    assert_non_null(nf4_op_getfh(&c));
    assert_non_null(nf4_op_getattr(&c, NF4_MASK_GETATTR));
    assert_non_null(nf4_op_write(&c, &sid, 8192, UNSTABLE4, "data", 4));
    assert_int_equal(c.nseq, 1);
    assert_int_equal(c.nopen, 1);
    assert_int_equal(c.cachethis, 1);
    encode_back(&c, &a);
    assert_int_equal(a.minorversion, 1);
    assert_int_equal(a.argarray.argarray_len, 6);
    assert_int_equal(a.argarray.argarray_val[0].argop, OP_SEQUENCE);
    o = &a.argarray.argarray_val[1];
    assert_int_equal(o->argop, OP_PUTFH);
    assert_memory_equal(o->nfs_argop4_u.opputfh.object.nfs_fh4_val, fh.data, 4);
    o = &a.argarray.argarray_val[2];
    assert_int_equal(o->argop, OP_OPEN);
    /* read and write, no delegation wanted, created UNCHECKED with the
     * size (word 0) and the mode (word 1), in number order */
    assert_int_equal(o->nfs_argop4_u.opopen.share_access,
                     OPEN4_SHARE_ACCESS_BOTH | OPEN4_SHARE_ACCESS_WANT_NO_DELEG);
    assert_int_equal(o->nfs_argop4_u.opopen.openhow.opentype, OPEN4_CREATE);
    assert_int_equal(o->nfs_argop4_u.opopen.openhow.openflag4_u.how.mode, UNCHECKED4);
    {
        const fattr4 *f =
            &o->nfs_argop4_u.opopen.openhow.openflag4_u.how.createhow4_u.createattrs;

        assert_int_equal(f->attrmask.bitmap4_len, 2);
        assert_int_equal(f->attrmask.bitmap4_val[0], 1u << FATTR4_SIZE);
        assert_int_equal(f->attrmask.bitmap4_val[1], 1u << (FATTR4_MODE - 32));
        assert_int_equal(f->attr_vals.attrlist4_len, 12);
        d = f->attr_vals.attrlist4_val;
        assert_int_equal(cm_be64_get((const uint8_t *)d), 42);
        assert_int_equal(cm_be32_get((const uint8_t *)d + 8), 0640);
    }
    assert_int_equal(o->nfs_argop4_u.opopen.claim.claim, CLAIM_NULL);
    assert_int_equal(o->nfs_argop4_u.opopen.claim.open_claim4_u.file.utf8string_len, 2);
    o = &a.argarray.argarray_val[4];
    assert_int_equal(o->argop, OP_GETATTR);
    assert_int_equal(o->nfs_argop4_u.opgetattr.attr_request.bitmap4_len, 2);
    assert_true(o->nfs_argop4_u.opgetattr.attr_request.bitmap4_val[0] &
                (1u << FATTR4_FILEID));
    o = &a.argarray.argarray_val[5];
    assert_int_equal(o->nfs_argop4_u.opwrite.offset, 8192);
    assert_int_equal(o->nfs_argop4_u.opwrite.data.data_len, 4);
    assert_int_equal(o->nfs_argop4_u.opwrite.stateid.seqid, 7);
    xdr_free((xdrproc_t)xdr_COMPOUND4args, &a);

    /* 4.0: no SEQUENCE, no delegation wish; a full compound takes no more */
    nf4_compound_init(&c, 0, 0);
    assert_int_equal(c.nseq, 0);
    assert_non_null(nf4_op_open(&c, NULL, 0, NULL));
    while (nf4_op_getfh(&c))
        ;
    assert_int_equal(c.args.argarray.argarray_len, NF4_MAX_OPS);
    assert_null(nf4_op_putrootfh(&c));
    encode_back(&c, &a);
    assert_int_equal(a.argarray.argarray_val[0].nfs_argop4_u.opopen.share_access,
                     OPEN4_SHARE_ACCESS_BOTH);
    assert_int_equal(a.argarray.argarray_val[0].nfs_argop4_u.opopen.claim.claim,
                     CLAIM_FH);
    xdr_free((xdrproc_t)xdr_COMPOUND4args, &a);
}

/* c encoded by the client's codec (its kept bytes when it has them) and by
 * rpcgen from its arguments: the same bytes. */
static void encodes_as_rpcgen(struct nf4_compound *c)
{
    static char kept[1024], full[1024];
    u_int klen, flen;
    XDR x;

    c->args.argarray.argarray_val = c->op;
    xdrmem_create(&x, kept, sizeof(kept), XDR_ENCODE);
    assert_true(nf4__xdr_compound(&x, c));
    klen = xdr_getpos(&x);
    xdr_destroy(&x);
    xdrmem_create(&x, full, sizeof(full), XDR_ENCODE);
    assert_true(xdr_COMPOUND4args(&x, &c->args));
    flen = xdr_getpos(&x);
    xdr_destroy(&x);
    assert_int_equal(klen, flen);
    assert_memory_equal(kept, full, flen);
}

static void a_kept_compound_sends_rpcgens_bytes(void **state)
{
    static struct nf4_compound c;
    static char big[NF4_KEPT_MAX];
    struct nf4_fh fh = {8, {1, 2, 3, 4, 5, 6, 7, 8}};
    stateid4 sid = {3, {'s', 't'}};
    SEQUENCE4args *s;
    unsigned i;

    (void)state;
    nf4_compound_init(&c, 1, 0);
    nf4_op_putfh(&c, &fh);
    nf4_op_read(&c, &sid, 8192, 8192);
    nf4_compound_keep(&c);
    c.args.argarray.argarray_val = c.op;
    nf4__compound_kept(&c);
    assert_int_equal(c.kept_len, 12 + 36 + 4 + 4 + 8 + 4 + 16 + 8 + 4);
    /* SEQUENCE as the client fills it at each send: every field changes */
    s = &c.op[0].nfs_argop4_u.opsequence;
    for (i = 0; i < 4; i++) {
        memset(s->sa_sessionid, 'a' + (int)i, NFS4_SESSIONID_SIZE);
        s->sa_sequenceid = 0xfffffffeu + i;
        s->sa_slotid = 63 - i;
        s->sa_highest_slotid = 60 + i;
        s->sa_cachethis = i & 1;
        encodes_as_rpcgen(&c);
    }
    /* appending drops what was kept */
    nf4_op_getattr(&c, NF4_MASK_GETATTR);
    assert_int_equal(c.kept_len, 0);
    encodes_as_rpcgen(&c);
    nf4__compound_kept(&c);
    assert_int_not_equal(c.kept_len, 0);
    encodes_as_rpcgen(&c);
    /* a new compound keeps nothing until asked; 4.0 has no SEQUENCE */
    nf4_compound_init(&c, 0, 0);
    assert_int_equal(c.keep, 0);
    nf4_op_putfh(&c, &fh);
    nf4_op_getattr(&c, NF4_MASK_TYPE);
    nf4_compound_keep(&c);
    c.args.argarray.argarray_val = c.op;
    nf4__compound_kept(&c);
    assert_int_not_equal(c.kept_len, 0);
    encodes_as_rpcgen(&c);
    /* an OPEN (the client's owner) or more bytes than kept: never kept */
    nf4_compound_init(&c, 1, 0);
    nf4_op_putfh(&c, &fh);
    nf4_op_open(&c, "f", 0, NULL);
    nf4_compound_keep(&c);
    c.args.argarray.argarray_val = c.op;
    nf4__compound_kept(&c);
    assert_int_equal(c.kept_len, 0);
    assert_int_equal(c.keep, 0);
    nf4_compound_init(&c, 1, 0);
    nf4_op_putfh(&c, &fh);
    nf4_op_write(&c, &sid, 0, UNSTABLE4, big, sizeof(big));
    nf4_compound_keep(&c);
    c.args.argarray.argarray_val = c.op;
    nf4__compound_kept(&c);
    assert_int_equal(c.kept_len, 0);
    assert_int_equal(c.keep, 0);
}

/* The names of c's operations, space-separated. */
static const char *shape_of(const struct nf4_compound *c)
{
    static char out[256];

    return nf4_compound_shape(c, out, sizeof(out));
}

static void sfs_ops_are_a_linux_clients_compounds(void **state)
{
    static struct nf4_compound c;
    static COMPOUND4args a;
    struct nf4_fh dir = {4, "dir1"}, file = {4, "fil1"};
    stateid4 sid = {1, {0}};
    struct nf4_sfs_args args;
    char shape[256];
    int op, built = 0;

    (void)state;
    memset(&args, 0, sizeof(args));
    args.fh = &file;
    args.fh2 = &dir;
    args.name = "a";
    args.name2 = "b";
    args.target = "a";
    args.sid = &sid;
    args.count = 16;
    args.data = "sixteen bytes...";
    for (op = 0; op < NF_NOPS; op++) {
        int rc = nf4_sfs_compound(&c, 1, op, &args);

        if (op == NF_OP_NULL_OP || op == NF_OP_ROOT || op == NF_OP_WRCACHE) {
            assert_int_equal(rc, -EOPNOTSUPP);
            assert_null(nf4_sfs_shape(op));
            continue;
        }
        assert_int_equal(rc, 0);
        snprintf(shape, sizeof(shape), "SEQUENCE %s", nf4_sfs_shape(op));
        assert_string_equal(shape_of(&c), shape);
        encode_back(&c, &a); /* and it encodes */
        xdr_free((xdrproc_t)xdr_COMPOUND4args, &a);
        built++;
    }
    assert_int_equal(built, 21);
    /* the masks ls and ls -l ask differ; statfs, fsinfo, pathconf too */
    nf4_sfs_compound(&c, 1, NF_OP_READDIR, &args);
    assert_false(c.op[2].nfs_argop4_u.opreaddir.attr_request.bitmap4_val[0] &
                 (1u << FATTR4_SIZE));
    nf4_sfs_compound(&c, 1, NF_OP_READDIRPLUS, &args);
    assert_true(c.op[2].nfs_argop4_u.opreaddir.attr_request.bitmap4_val[0] &
                (1u << FATTR4_SIZE));
    nf4_sfs_compound(&c, 1, NF_OP_FSSTAT, &args);
    assert_true(c.op[2].nfs_argop4_u.opgetattr.attr_request.bitmap4_val[1] &
                (1u << (FATTR4_SPACE_FREE - 32)));
    /* write: FILE_SYNC where SFS asks a stable write, else UNSTABLE */
    nf4_sfs_compound(&c, 1, NF_OP_WRITE, &args);
    assert_int_equal(c.op[2].nfs_argop4_u.opwrite.stable, UNSTABLE4);
    args.stable = 1;
    nf4_sfs_compound(&c, 1, NF_OP_WRITE, &args);
    assert_int_equal(c.op[2].nfs_argop4_u.opwrite.stable, FILE_SYNC4);
    /* mkdir and mknod are CREATEs of a directory and a FIFO */
    nf4_sfs_compound(&c, 1, NF_OP_MKDIR, &args);
    assert_int_equal(c.op[2].nfs_argop4_u.opcreate.objtype.type, NF4DIR);
    nf4_sfs_compound(&c, 1, NF_OP_MKNOD, &args);
    assert_int_equal(c.op[2].nfs_argop4_u.opcreate.objtype.type, NF4FIFO);
    /* the OPEN and CLOSE around a file's I/O */
    assert_int_equal(nf4_sfs_open(&c, &args), 0);
    assert_string_equal(shape_of(&c), "SEQUENCE PUTFH OPEN ACCESS GETATTR");
    assert_int_equal(c.op[2].nfs_argop4_u.opopen.claim.claim, CLAIM_FH);
    assert_int_equal(nf4_sfs_close(&c, &args), 0);
    assert_string_equal(shape_of(&c), "SEQUENCE PUTFH CLOSE GETATTR");
    /* a missing argument, and 4.0's create */
    args.name = NULL;
    assert_int_equal(nf4_sfs_compound(&c, 1, NF_OP_LOOKUP, &args), -EINVAL);
    args.name = "a";
    assert_int_equal(nf4_sfs_compound(&c, 0, NF_OP_CREATE, &args), -EOPNOTSUPP);
    assert_int_equal(nf4_sfs_compound(&c, 0, NF_OP_GETATTR, &args), 0);
    assert_string_equal(shape_of(&c), "PUTFH GETATTR");
}

/* A fattr4 value list for the reply: TYPE, SIZE, LEASE_TIME, FILEID, MODE,
 * OWNER ("root"), TIME_MODIFY - those asked, in number order. */
static u_int attr_values(const uint32_t *ask, u_int n, uint32_t *mask, char *buf)
{
    uint8_t *p = (uint8_t *)buf;
    uint32_t w0 = n > 0 ? ask[0] : 0, w1 = n > 1 ? ask[1] : 0;

    mask[0] = w0 & ((1u << FATTR4_TYPE) | (1u << FATTR4_SIZE) |
                    (1u << FATTR4_LEASE_TIME) | (1u << FATTR4_FILEID));
    mask[1] = w1 & ((1u << (FATTR4_MODE - 32)) | (1u << (FATTR4_OWNER - 32)) |
                    (1u << (FATTR4_TIME_MODIFY - 32)));
    if (mask[0] & (1u << FATTR4_TYPE))
        cm_be32_put(p, NF4DIR), p += 4;
    if (mask[0] & (1u << FATTR4_SIZE))
        cm_be64_put(p, 4096), p += 8;
    if (mask[0] & (1u << FATTR4_LEASE_TIME))
        cm_be32_put(p, 60), p += 4;
    if (mask[0] & (1u << FATTR4_FILEID))
        cm_be64_put(p, 7), p += 8;
    if (mask[1] & (1u << (FATTR4_MODE - 32)))
        cm_be32_put(p, 0755), p += 4;
    if (mask[1] & (1u << (FATTR4_OWNER - 32))) {
        cm_be32_put(p, 4), p += 4;
        memcpy(p, "root", 4), p += 4;
    }
    if (mask[1] & (1u << (FATTR4_TIME_MODIFY - 32))) {
        cm_be64_put(p, 1700000000), p += 8;
        cm_be32_put(p, 5), p += 4;
    }
    return (u_int)(p - (uint8_t *)buf);
}

static u_int encode_res(COMPOUND4res *r, char *buf, u_int cap)
{
    XDR x;
    u_int len;

    xdrmem_create(&x, buf, cap, XDR_ENCODE);
    assert_true(xdr_COMPOUND4res(&x, r));
    len = xdr_getpos(&x);
    xdr_destroy(&x);
    return len;
}

static int decode_res(const char *buf, u_int len, struct nf4_res *r)
{
    XDR x;
    int ok;

    xdrmem_create(&x, (char *)(uintptr_t)buf, len, XDR_DECODE);
    ok = nf4_xdr_res(&x, r) && xdr_getpos(&x) == len;
    xdr_destroy(&x);
    return ok;
}

/* A fattr4's values are read for the set bits of its mask, lowest first,
 * across the mask's words; the first attribute FreeSFS does not know (ACL,
 * or any in the third word) ends the decode with what came before it kept;
 * values shorter than the mask says do not decode. */
static void attribute_values_decode_in_number_order(void **state)
{
    const uint32_t t0 = (1u << FATTR4_TYPE) | (1u << FATTR4_SIZE);
    const uint32_t t1 = (1u << (FATTR4_MODE - 32)) | (1u << (FATTR4_TIME_MODIFY - 32));
    uint32_t mask[3] = {t0, t1, 0};
    struct nf4_attrs a;
    char buf[64];
    uint8_t *p = (uint8_t *)buf;

    (void)state;
    cm_be32_put(p, NF4REG), p += 4;
    cm_be64_put(p, 8192), p += 8;
    cm_be32_put(p, 0640), p += 4;
    cm_be64_put(p, 1700000000), p += 8;
    cm_be32_put(p, 9), p += 4;
    memset(&a, 0, sizeof(a));
    assert_int_equal(nf4_attrs_decode(&a, mask, 2, buf, (u_int)(p - (uint8_t *)buf)), 0);
    assert_int_equal(a.type, NF4REG);
    assert_int_equal(a.size, 8192);
    assert_int_equal(a.mode, 0640);
    assert_int_equal(a.time_modify.sec, 1700000000);
    assert_int_equal(a.time_modify.nsec, 9);
    assert_int_equal(a.have[0], t0);
    assert_int_equal(a.have[1], t1);
    assert_int_equal(a.have[2], 0);
    /* ACL (12) is unknown: TYPE and SIZE before it stay, MODE after it is
     * not read */
    mask[0] = t0 | (1u << FATTR4_ACL);
    memset(&a, 0, sizeof(a));
    assert_int_equal(nf4_attrs_decode(&a, mask, 2, buf, (u_int)(p - (uint8_t *)buf)), 0);
    assert_int_equal(a.have[0], t0);
    assert_int_equal(a.have[1], 0);
    assert_int_equal(a.size, 8192);
    assert_int_equal(a.mode, 0);
    /* a bit of the third word: everything of the first two is read */
    mask[0] = t0;
    mask[2] = 1u << 11;
    memset(&a, 0, sizeof(a));
    assert_int_equal(nf4_attrs_decode(&a, mask, 3, buf, (u_int)(p - (uint8_t *)buf)), 0);
    assert_int_equal(a.have[1], t1);
    assert_int_equal(a.have[2], 0);
    /* a value cut short */
    memset(&a, 0, sizeof(a));
    assert_int_equal(nf4_attrs_decode(&a, mask, 2, buf, 4 + 8 + 4 + 8), -EPROTO);
}

/* owner and owner_group: a decimal number is kept as the id, anything
 * else (a name, nothing, more than 32 bits) is UINT32_MAX */
static void owners_that_are_numbers_are_ids(void **state)
{
    static const char *const owners[][2] = {
        {"1000", "1000"}, {"0", "0"},         {"root@localdomain", ""},
        {"", ""},         {"4294967295", ""}, {"99999999999", ""},
        {"12a", ""}};
    uint32_t mask[2] = {0,
                        (1u << (FATTR4_OWNER - 32)) | (1u << (FATTR4_OWNER_GROUP - 32))};
    struct nf4_attrs a;
    char buf[128];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(owners) / sizeof(owners[0]); i++) {
        uint8_t *p = (uint8_t *)buf;
        uint32_t n = (uint32_t)strlen(owners[i][0]);
        uint32_t want =
            owners[i][1][0] ? (uint32_t)strtoul(owners[i][1], NULL, 10) : UINT32_MAX;

        memset(buf, 0, sizeof(buf));
        cm_be32_put(p, n);
        memcpy(p + 4, owners[i][0], n);
        p += 4 + ((n + 3) & ~3u);
        cm_be32_put(p, 2);
        memcpy(p + 4, "42", 2);
        p += 8;
        assert_int_equal(nf4_attrs_decode(&a, mask, 2, buf, (u_int)(p - (uint8_t *)buf)),
                         0);
        assert_int_equal(a.owner_len, n);
        assert_int_equal(a.owner_id, want);
        assert_int_equal(a.owner_group_len, 2);
        assert_int_equal(a.owner_group_id, 42);
    }
}

/* SETATTR of both times as the client's: SET_TO_CLIENT_TIME4 and the
 * seconds, after the mode */
static void times_set_to_the_clients_time(void **state)
{
    static struct nf4_compound c;
    struct nf4_sattr sa = {0};
    static const stateid4 anon;
    const fattr4 *f;
    const uint8_t *p;

    (void)state;
    sa.set_mode = 1;
    sa.mode = 0644;
    sa.set_times = 1;
    sa.time_s = 1700000000;
    nf4_compound_init(&c, 1, 0);
    assert_non_null(nf4_op_setattr(&c, &anon, &sa));
    f = &c.op[1].nfs_argop4_u.opsetattr.obj_attributes;
    assert_int_equal(f->attrmask.bitmap4_val[1],
                     (1u << (FATTR4_MODE - 32)) | (1u << (FATTR4_TIME_ACCESS_SET - 32)) |
                         (1u << (FATTR4_TIME_MODIFY_SET - 32)));
    assert_int_equal(f->attr_vals.attrlist4_len, 4 + 16 + 16);
    p = (const uint8_t *)f->attr_vals.attrlist4_val;
    assert_int_equal(cm_be32_get(p), 0644);
    assert_int_equal(cm_be32_get(p + 4), SET_TO_CLIENT_TIME4);
    assert_int_equal(cm_be64_get(p + 8), 1700000000);
    assert_int_equal(cm_be32_get(p + 16), 0);
    assert_int_equal(cm_be32_get(p + 20), SET_TO_CLIENT_TIME4);
    assert_int_equal(cm_be64_get(p + 24), 1700000000);
}

static void replies_decode_into_the_callers_storage(void **state)
{
    static struct nf4_res r;
    static char buf[16384], data[64], names[64];
    uint32_t ask[2] = {~0u, ~0u}, mask[2], entry_mask[1] = {0};
    char vals[128], fhv[8] = "fh000001", d1[] = "hello";
    entry4 e2 = {9, {2, (char *)"bb"}, {{0, NULL}, {0, NULL}}, NULL};
    entry4 e1 = {5, {1, (char *)"a"}, {{1, entry_mask}, {0, NULL}}, &e2};
    nfs_resop4 ops[7];
    COMPOUND4res res;
    u_int len, cut;

    (void)state;
    memset(ops, 0, sizeof(ops));
    ops[0].resop = OP_SEQUENCE;
    ops[0].nfs_resop4_u.opsequence.SEQUENCE4res_u.sr_resok4.sr_sequenceid = 12;
    ops[0].nfs_resop4_u.opsequence.SEQUENCE4res_u.sr_resok4.sr_slotid = 3;
    ops[0].nfs_resop4_u.opsequence.SEQUENCE4res_u.sr_resok4.sr_target_highest_slotid = 63;
    ops[1].resop = OP_PUTFH;
    ops[2].resop = OP_GETATTR;
    ops[2]
        .nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes.attrmask.bitmap4_len =
        2;
    ops[2]
        .nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes.attrmask.bitmap4_val =
        mask;
    ops[2]
        .nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes.attr_vals
        .attrlist4_len = attr_values(ask, 2, mask, vals);
    ops[2]
        .nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes.attr_vals
        .attrlist4_val = vals;
    ops[3].resop = OP_GETFH;
    ops[3].nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_len = 8;
    ops[3].nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_val = fhv;
    ops[4].resop = OP_READ;
    ops[4].nfs_resop4_u.opread.READ4res_u.resok4.eof = TRUE;
    ops[4].nfs_resop4_u.opread.READ4res_u.resok4.data.data_len = 5;
    ops[4].nfs_resop4_u.opread.READ4res_u.resok4.data.data_val = d1;
    ops[5].resop = OP_READDIR;
    ops[5].nfs_resop4_u.opreaddir.READDIR4res_u.resok4.reply.entries = &e1;
    ops[5].nfs_resop4_u.opreaddir.READDIR4res_u.resok4.reply.eof = TRUE;
    ops[6].resop = OP_OPEN;
    {
        OPEN4resok *o = &ops[6].nfs_resop4_u.opopen.OPEN4res_u.resok4;

        o->stateid.seqid = 1;
        o->rflags = OPEN4_RESULT_LOCKTYPE_POSIX;
        o->delegation.delegation_type = OPEN_DELEGATE_WRITE;
        o->delegation.open_delegation4_u.write.stateid.seqid = 9;
        o->delegation.open_delegation4_u.write.space_limit.limitby = NFS_LIMIT_SIZE;
        o->delegation.open_delegation4_u.write.permissions.who.utf8string_len = 4;
        o->delegation.open_delegation4_u.write.permissions.who.utf8string_val =
            (char *)"EVERYONE@";
    }
    memset(&res, 0, sizeof(res));
    res.status = NFS4_OK;
    res.resarray.resarray_len = 7;
    res.resarray.resarray_val = ops;
    len = encode_res(&res, buf, sizeof(buf));

    r.data = data;
    r.data_max = sizeof(data);
    assert_true(decode_res(buf, len, &r));
    assert_int_equal(r.nops, 7);
    assert_int_equal(r.op[0].u.sequence.sr_sequenceid, 12);
    assert_int_equal(r.op[0].u.sequence.sr_slotid, 3);
    assert_int_equal(r.op[2].u.getattr.type, NF4DIR);
    assert_int_equal(r.op[2].u.getattr.size, 4096);
    assert_int_equal(r.op[2].u.getattr.lease_time, 60);
    assert_int_equal(r.op[2].u.getattr.fileid, 7);
    assert_int_equal(r.op[2].u.getattr.mode, 0755);
    assert_int_equal(r.op[2].u.getattr.owner_len, 4);
    assert_int_equal(r.op[2].u.getattr.owner_id, UINT32_MAX); /* "root": a name */
    assert_int_equal(r.op[2].u.getattr.time_modify.sec, 1700000000);
    assert_int_equal(r.op[2].u.getattr.time_modify.nsec, 5);
    assert_true(nf4_attr_isset(r.op[2].u.getattr.have, FATTR4_TIME_MODIFY));
    assert_false(nf4_attr_isset(r.op[2].u.getattr.have, FATTR4_CHANGE));
    assert_int_equal(r.op[3].u.getfh.len, 8);
    assert_memory_equal(r.op[3].u.getfh.data, "fh000001", 8);
    assert_int_equal(r.op[4].u.read.len, 5);
    assert_true(r.op[4].u.read.eof);
    assert_int_equal(r.op[5].u.readdir.entries, 2);
    assert_int_equal(r.op[5].u.readdir.last_cookie, 9);
    assert_true(r.op[5].u.readdir.eof);
    assert_int_equal(r.op[6].u.open.deleg_type, OPEN_DELEGATE_WRITE);
    assert_int_equal(r.op[6].u.open.deleg.seqid, 9);
    assert_int_equal(r.op[6].u.open.rflags, OPEN4_RESULT_LOCKTYPE_POSIX);
    /* READ's data and READDIR's names share the caller's buffer: the names
     * land after it was read, so decode again with a buffer for names */
    assert_ptr_equal(nf4_res_find(&r, OP_GETFH, 0), &r.op[3]);
    assert_null(nf4_res_find(&r, OP_GETFH, 4));
    ops[4].resop = OP_PUTFH; /* no READ now: the buffer is the names' */
    ops[4].nfs_resop4_u.opputfh.status = NFS4_OK;
    len = encode_res(&res, buf, sizeof(buf));
    r.data = names;
    r.data_max = sizeof(names);
    assert_true(decode_res(buf, len, &r));
    assert_int_equal(r.op[5].u.readdir.names_len, 5);
    assert_memory_equal(names, "a\0bb\0", 5);
    /* with dir_fileids each name is followed by its fileid: 47 from "a"'s
     * attributes, none in "bb"'s */
    {
        uint32_t fid_mask[1] = {1u << FATTR4_FILEID};
        char fid[8], big[64];
        uint64_t id;

        cm_be64_put((uint8_t *)fid, 47);
        e1.attrs.attrmask.bitmap4_val = fid_mask;
        e1.attrs.attr_vals.attrlist4_len = 8;
        e1.attrs.attr_vals.attrlist4_val = fid;
        len = encode_res(&res, buf, sizeof(buf));
        r.data = big;
        r.data_max = sizeof(big);
        r.dir_fileids = 1;
        assert_true(decode_res(buf, len, &r));
        assert_int_equal(r.op[5].u.readdir.names_len, 2 + 8 + 3 + 8);
        assert_string_equal(big, "a");
        memcpy(&id, big + 2, 8);
        assert_int_equal(id, 47);
        assert_string_equal(big + 10, "bb");
        memcpy(&id, big + 13, 8);
        assert_true(id == UINT64_MAX);
        /* no room for the second fileid: the second name is taken back */
        r.data_max = 2 + 8 + 3 + 7;
        assert_true(decode_res(buf, len, &r));
        assert_int_equal(r.op[5].u.readdir.names_len, 10);
        r.dir_fileids = 0;
        e1.attrs.attrmask.bitmap4_val = entry_mask;
        e1.attrs.attr_vals.attrlist4_len = 0;
        e1.attrs.attr_vals.attrlist4_val = NULL;
        len = encode_res(&res, buf, sizeof(buf));
        r.data = names;
        r.data_max = sizeof(names);
    }

    /* every cut reply fails, whatever it cut */
    for (cut = 0; cut < len; cut += 4)
        assert_false(decode_res(buf, cut, &r));
    /* a reply whose READ data is longer than the buffer fails */
    ops[4].resop = OP_READ;
    len = encode_res(&res, buf, sizeof(buf));
    r.data = data;
    r.data_max = 4;
    assert_false(decode_res(buf, len, &r));
}

static void odd_replies_do_not_decode(void **state)
{
    static struct nf4_res r;
    static char buf[4096];
    nfs_resop4 ops[NF4_MAX_OPS + 1];
    COMPOUND4res res;
    u_int len, i;

    (void)state;
    memset(ops, 0, sizeof(ops));
    memset(&res, 0, sizeof(res));
    for (i = 0; i <= NF4_MAX_OPS; i++)
        ops[i].resop = OP_PUTROOTFH;
    res.resarray.resarray_val = ops;
    res.resarray.resarray_len = NF4_MAX_OPS;
    len = encode_res(&res, buf, sizeof(buf));
    assert_true(decode_res(buf, len, &r));
    assert_int_equal(r.nops, NF4_MAX_OPS);
    res.resarray.resarray_len = NF4_MAX_OPS + 1; /* more than a compound holds */
    len = encode_res(&res, buf, sizeof(buf));
    assert_false(decode_res(buf, len, &r));
    /* a SECINFO result: FreeSFS never sends SECINFO */
    ops[0].resop = OP_SECINFO;
    ops[0].nfs_resop4_u.opsecinfo.status = NFS4_OK;
    res.resarray.resarray_len = 1;
    len = encode_res(&res, buf, sizeof(buf));
    assert_false(decode_res(buf, len, &r));
    /* a LOCK (the NFS trace replay's) granted: its stateid; denied: the
     * conflict read over, the LOCKT after it decoded */
    ops[0].resop = OP_LOCK;
    ops[0].nfs_resop4_u.oplock.status = NFS4_OK;
    ops[0].nfs_resop4_u.oplock.LOCK4res_u.resok4.lock_stateid.seqid = 7;
    len = encode_res(&res, buf, sizeof(buf));
    assert_true(decode_res(buf, len, &r));
    assert_int_equal(r.op[0].u.close.seqid, 7);
    ops[0].nfs_resop4_u.oplock.status = NFS4ERR_DENIED;
    ops[0].nfs_resop4_u.oplock.LOCK4res_u.denied.offset = 50;
    ops[0].nfs_resop4_u.oplock.LOCK4res_u.denied.owner.owner.owner_len = 3;
    ops[0].nfs_resop4_u.oplock.LOCK4res_u.denied.owner.owner.owner_val = "abc";
    ops[1].resop = OP_LOCKT;
    ops[1].nfs_resop4_u.oplockt.status = NFS4ERR_DENIED;
    ops[1].nfs_resop4_u.oplockt.LOCKT4res_u.denied.owner.owner.owner_len = 3;
    ops[1].nfs_resop4_u.oplockt.LOCKT4res_u.denied.owner.owner.owner_val = "abc";
    res.resarray.resarray_len = 2;
    res.status = NFS4ERR_DENIED;
    len = encode_res(&res, buf, sizeof(buf));
    assert_true(decode_res(buf, len, &r));
    assert_int_equal(r.nops, 2);
    assert_int_equal(r.op[1].status, NFS4ERR_DENIED);
    memset(ops, 0, 2 * sizeof(ops[0]));
    res.resarray.resarray_len = 1;
    res.status = NFS4_OK;
    /* a failed operation's result is its status alone */
    ops[0].resop = OP_GETATTR;
    ops[0].nfs_resop4_u.opgetattr.status = NFS4ERR_STALE;
    res.status = NFS4ERR_STALE;
    len = encode_res(&res, buf, sizeof(buf));
    assert_true(decode_res(buf, len, &r));
    assert_int_equal(r.status, NFS4ERR_STALE);
    assert_int_equal(r.op[0].status, NFS4ERR_STALE);
}

/* NFSv4 is TCP only: a v4 mount over UDP is refused in one clear line
 * before anything is sent (no server needed). */
static void nfsv4_over_udp_is_refused(void **state)
{
    static struct nf4_mount m;
    struct nf_mount_opts mo;
    char err[CM_ERR_LEN];

    (void)state;
    nf_mount_opts_init(&mo, 4);
    mo.transport = RP_UDP;
    assert_int_equal(nf4_mount(&m, "127.0.0.1:2049:/export", &mo, NULL, err, sizeof(err)),
                     -EPROTONOSUPPORT);
    assert_string_equal(err, "NFSv4 runs over TCP only (RFC 7530 3.1), not over UDP");
}

static void status_and_operation_names(void **state)
{
    (void)state;
    assert_string_equal(nf4_status_name(NFS4_OK), "OK");
    assert_string_equal(nf4_status_name(NFS4ERR_PERM), "PERM");
    assert_string_equal(nf4_status_name(NFS4ERR_DELAY), "DELAY");
    assert_string_equal(nf4_status_name(NFS4ERR_BADSESSION), "BADSESSION");
    assert_string_equal(nf4_status_name(NFS4ERR_DELEG_REVOKED), "DELEG_REVOKED");
    assert_string_equal(nf4_status_name(12345), "UNKNOWN");
    assert_string_equal(nf4_op_name(OP_ACCESS), "ACCESS");
    assert_string_equal(nf4_op_name(OP_SEQUENCE), "SEQUENCE");
    assert_string_equal(nf4_op_name(OP_RECLAIM_COMPLETE), "RECLAIM_COMPLETE");
    assert_string_equal(nf4_op_name(OP_ILLEGAL), "ILLEGAL");
    assert_null(nf4_op_name(2));
    assert_null(nf4_op_name(OP_CLONE + 1));
    {
        /* every nfsstat4 of RFC 5662 and RFC 7863 (111 of them) and every
         * operation (3..71) has its name */
        unsigned n, statuses = 0, ops = 0;

        for (n = 0; n < 10100; n++)
            statuses += strcmp(nf4_status_name(n), "UNKNOWN") != 0;
        for (n = 0; n < 100; n++)
            ops += nf4_op_name(n) != NULL;
        assert_int_equal(statuses, 111);
        assert_int_equal(ops, OP_CLONE - OP_ACCESS + 1);
    }
}

/* ---- a scripted NFSv4.1 responder --------------------------------------------- */

#define SRV_SLOTS 64
#define SRV_LOG   512

struct srv {
    pthread_mutex_t mu;
    /* what the test asks of the next compounds */
    int delay_next;          /* answer DELAY after SEQUENCE */
    int forget_session;      /* the session is gone: BADSESSION */
    int forget_client;       /* the client and session are gone */
    int swallow_next;        /* neither run nor answer one compound */
    int grant_deleg;         /* OPEN grants a write delegation */
    int fail_create_session; /* CREATE_SESSION answers SERVERFAULT */
    int expire_next;         /* answer EXPIRED after SEQUENCE (a stateid's) */
    int hold_create_session; /* CREATE_SESSION's reply waits while set */
    int holds_open;          /* the client holds an open: CLIENTID_BUSY */
    uint32_t open_status;    /* what OPEN answers (0: OK) */
    unsigned max_slots;
    /* the server's state */
    int client_known, session_valid;
    uint64_t clientid;
    uint32_t cs_seq, session_no;
    unsigned nslots;
    uint32_t slot_seq[SRV_SLOTS];
    /* what it saw */
    char log[SRV_LOG][96];
    uint32_t log_slot[SRV_LOG], log_seq[SRV_LOG];
    unsigned nlog;
    int swallowed, delegreturns;
};

static struct srv srv;
static uint64_t fake_now = 1000000000ull;
static uint64_t fake_clock_now(void *data)
{
    (void)data;
    return fake_now;
}
static const struct cm_clock fake_clock = {fake_clock_now, NULL};

static int read_all(int fd, void *buf, size_t n, int stop_fd)
{
    size_t got = 0;

    while (got < n) {
        struct pollfd p[2] = {{fd, POLLIN, 0}, {stop_fd, POLLIN, 0}};
        ssize_t k;

        if (poll(p, 2, -1) < 0 || p[1].revents)
            return -1;
        k = read(fd, (char *)buf + got, n - got);
        if (k <= 0)
            return -1;
        got += (size_t)k;
    }
    return 0;
}

static void srv_log(const COMPOUND4args *a)
{
    char *line = srv.log[srv.nlog % SRV_LOG];
    u_int i;

    line[0] = '\0';
    for (i = 0; i < a->argarray.argarray_len; i++) {
        const char *n = nf4_op_name(a->argarray.argarray_val[i].argop);

        if (strlen(line) + strlen(n) + 2 < sizeof(srv.log[0]))
            strcat(strcat(line, i ? " " : ""), n);
    }
    if (a->argarray.argarray_len && a->argarray.argarray_val[0].argop == OP_SEQUENCE) {
        srv.log_slot[srv.nlog % SRV_LOG] =
            a->argarray.argarray_val[0].nfs_argop4_u.opsequence.sa_slotid;
        srv.log_seq[srv.nlog % SRV_LOG] =
            a->argarray.argarray_val[0].nfs_argop4_u.opsequence.sa_sequenceid;
    }
    srv.nlog++;
}

/* The result of one operation; returns its status. */
static uint32_t srv_op(const nfs_argop4 *a, nfs_resop4 *r, char *scratch, int *first)
{
    static char fh[] = "fh01", owner[] = "srv";
    uint32_t *mask = (uint32_t *)(void *)scratch;
    nfs_resop4 z;

    memset(&z, 0, sizeof(z));
    *r = z;
    r->resop = a->argop;
    switch (a->argop) {
    case OP_SEQUENCE: {
        const SEQUENCE4args *s = &a->nfs_argop4_u.opsequence;
        SEQUENCE4resok *ok = &r->nfs_resop4_u.opsequence.SEQUENCE4res_u.sr_resok4;

        if (!srv.session_valid || s->sa_sessionid[0] != (char)srv.session_no)
            return r->nfs_resop4_u.opsequence.sr_status = NFS4ERR_BADSESSION;
        if (s->sa_slotid >= srv.nslots)
            return r->nfs_resop4_u.opsequence.sr_status = NFS4ERR_BADSLOT;
        if (s->sa_sequenceid != srv.slot_seq[s->sa_slotid] + 1)
            return r->nfs_resop4_u.opsequence.sr_status = NFS4ERR_SEQ_MISORDERED;
        srv.slot_seq[s->sa_slotid]++;
        memcpy(ok->sr_sessionid, s->sa_sessionid, NFS4_SESSIONID_SIZE);
        ok->sr_sequenceid = s->sa_sequenceid;
        ok->sr_slotid = s->sa_slotid;
        ok->sr_highest_slotid = srv.nslots - 1;
        ok->sr_target_highest_slotid = srv.nslots - 1;
        *first = 0;
        return NFS4_OK;
    }
    case OP_EXCHANGE_ID: {
        EXCHANGE_ID4resok *ok =
            &r->nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4;

        if (!srv.client_known) {
            srv.client_known = 1;
            srv.clientid++;
            srv.cs_seq = 1;
        }
        ok->eir_clientid = srv.clientid;
        ok->eir_sequenceid = srv.cs_seq;
        ok->eir_state_protect.spr_how = SP4_NONE;
        ok->eir_server_owner.so_major_id.so_major_id_len = 3;
        ok->eir_server_owner.so_major_id.so_major_id_val = owner;
        ok->eir_server_scope.eir_server_scope_len = 3;
        ok->eir_server_scope.eir_server_scope_val = owner;
        return NFS4_OK;
    }
    case OP_CREATE_SESSION: {
        const CREATE_SESSION4args *s = &a->nfs_argop4_u.opcreate_session;
        CREATE_SESSION4resok *ok =
            &r->nfs_resop4_u.opcreate_session.CREATE_SESSION4res_u.csr_resok4;

        if (srv.fail_create_session)
            return r->nfs_resop4_u.opcreate_session.csr_status = NFS4ERR_SERVERFAULT;
        if (!srv.client_known || s->csa_clientid != srv.clientid)
            return r->nfs_resop4_u.opcreate_session.csr_status = NFS4ERR_STALE_CLIENTID;
        if (s->csa_sequence != srv.cs_seq)
            return r->nfs_resop4_u.opcreate_session.csr_status = NFS4ERR_SEQ_MISORDERED;
        srv.cs_seq++;
        srv.session_no++;
        srv.session_valid = 1;
        srv.nslots = s->csa_fore_chan_attrs.ca_maxrequests;
        if (srv.nslots > srv.max_slots)
            srv.nslots = srv.max_slots;
        memset(srv.slot_seq, 0, sizeof(srv.slot_seq));
        memset(ok->csr_sessionid, 0, NFS4_SESSIONID_SIZE);
        ok->csr_sessionid[0] = (char)srv.session_no;
        ok->csr_sequence = s->csa_sequence;
        ok->csr_fore_chan_attrs = s->csa_fore_chan_attrs;
        ok->csr_fore_chan_attrs.ca_maxrequests = srv.nslots;
        ok->csr_back_chan_attrs = s->csa_back_chan_attrs;
        return NFS4_OK;
    }
    case OP_GETATTR: {
        fattr4 *f = &r->nfs_resop4_u.opgetattr.GETATTR4res_u.resok4.obj_attributes;
        const bitmap4 *ask = &a->nfs_argop4_u.opgetattr.attr_request;

        f->attrmask.bitmap4_len = 2;
        f->attrmask.bitmap4_val = mask;
        f->attr_vals.attrlist4_val = scratch + 16;
        f->attr_vals.attrlist4_len =
            attr_values(ask->bitmap4_val, ask->bitmap4_len, mask, scratch + 16);
        return NFS4_OK;
    }
    case OP_GETFH:
        r->nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_len = 4;
        r->nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_val = fh;
        return NFS4_OK;
    case OP_OPEN: {
        OPEN4resok *o = &r->nfs_resop4_u.opopen.OPEN4res_u.resok4;

        if (srv.open_status)
            return r->nfs_resop4_u.opopen.status = srv.open_status;
        o->stateid.seqid = 1;
        if (srv.grant_deleg) {
            o->delegation.delegation_type = OPEN_DELEGATE_WRITE;
            o->delegation.open_delegation4_u.write.stateid.seqid = 77;
            o->delegation.open_delegation4_u.write.space_limit.limitby = NFS_LIMIT_SIZE;
            o->delegation.open_delegation4_u.write.permissions.who.utf8string_len = 3;
            o->delegation.open_delegation4_u.write.permissions.who.utf8string_val = owner;
        }
        return NFS4_OK;
    }
    case OP_DELEGRETURN:
        srv.delegreturns++;
        return NFS4_OK;
    case OP_DESTROY_SESSION:
        if (!srv.session_valid ||
            a->nfs_argop4_u.opdestroy_session.dsa_sessionid[0] != (char)srv.session_no)
            return r->nfs_resop4_u.opdestroy_session.dsr_status = NFS4ERR_BADSESSION;
        srv.session_valid = 0;
        return NFS4_OK;
    case OP_DESTROY_CLIENTID:
        if (srv.session_valid || srv.holds_open) /* a session or open is left */
            return r->nfs_resop4_u.opdestroy_clientid.dcr_status = NFS4ERR_CLIENTID_BUSY;
        srv.client_known = 0;
        return NFS4_OK;
    case OP_PUTFH:
    case OP_PUTROOTFH:
    case OP_LOOKUP:
    case OP_RECLAIM_COMPLETE:
        return NFS4_OK;
    default:
        r->nfs_resop4_u.opputfh.status = NFS4ERR_NOTSUPP;
        return NFS4ERR_NOTSUPP;
    }
}

/* Runs one compound into res; returns 0, or -1 to answer nothing. */
static int srv_compound(const COMPOUND4args *a, COMPOUND4res *res, nfs_resop4 *ops,
                        char (*scratch)[256])
{
    u_int i;
    int first = 1;

    memset(res, 0, sizeof(*res));
    res->resarray.resarray_val = ops;
    pthread_mutex_lock(&srv.mu);
    srv_log(a);
    if (srv.swallow_next) {
        srv.swallow_next = 0;
        srv.swallowed++;
        pthread_mutex_unlock(&srv.mu);
        return -1;
    }
    if (srv.forget_session || srv.forget_client) {
        srv.session_valid = 0;
        srv.forget_session = 0;
    }
    if (srv.forget_client) {
        srv.client_known = 0;
        srv.forget_client = 0;
    }
    for (i = 0; i < a->argarray.argarray_len && i < NF4_MAX_OPS; i++) {
        uint32_t st;

        if (i == 1 && (srv.delay_next > 0 || srv.expire_next > 0) && !first) {
            uint32_t err = srv.delay_next > 0 ? NFS4ERR_DELAY : NFS4ERR_EXPIRED;

            if (srv.delay_next > 0)
                srv.delay_next--;
            else
                srv.expire_next--;
            ops[i].resop = a->argarray.argarray_val[i].argop;
            ops[i].nfs_resop4_u.opputfh.status = err;
            res->status = err;
            res->resarray.resarray_len = i + 1;
            break;
        }
        st = srv_op(&a->argarray.argarray_val[i], &ops[i], scratch[i], &first);
        res->resarray.resarray_len = i + 1;
        res->status = st;
        if (st != NFS4_OK)
            break;
    }
    /* the reply to a held CREATE_SESSION waits (bounded: 10 s) */
    for (i = 0; i < 10000 && srv.hold_create_session && a->argarray.argarray_len &&
                a->argarray.argarray_val[0].argop == OP_CREATE_SESSION;
         i++) {
        pthread_mutex_unlock(&srv.mu);
        usleep(1000);
        pthread_mutex_lock(&srv.mu);
    }
    pthread_mutex_unlock(&srv.mu);
    return 0;
}

/* An opaque_auth (credential or verifier) read over. */
static int skip_auth(XDR *x)
{
    uint32_t flavor = 0, blen = 0;

    return xdr_u_int(x, &flavor) && xdr_u_int(x, &blen) && blen <= 400 &&
           xdr_setpos(x, xdr_getpos(x) + ((blen + 3) & ~3u));
}

/* Answers the calls on the stream: the RPC call header (xid, CALL, version
 * 2, program, version, procedure, credential, verifier), the arguments,
 * the reply.  In the server thread: no cmocka assertion here (they jump),
 * a call that does not decode ends the thread and the test's calls fail. */
static void srv_serve(void *ctx, const int *fds, const int *stream, int n, int stop_fd)
{
    static char in[1 << 16], out[1 << 16];
    static nfs_resop4 ops[NF4_MAX_OPS];
    static char scratch[NF4_MAX_OPS][256];

    (void)ctx;
    (void)stream;
    (void)n;
    for (;;) {
        uint8_t mark[4];
        uint32_t len, xid, proc, k;
        COMPOUND4args a;
        COMPOUND4res res;
        XDR x;
        u_int olen;
        int ok = 1;

        if (read_all(fds[0], mark, 4, stop_fd) < 0)
            return;
        len = cm_be32_get(mark) & 0x7fffffffu;
        if (len < 24 || len > sizeof(in) || read_all(fds[0], in, len, stop_fd) < 0)
            return;
        xid = cm_be32_get((uint8_t *)in);
        proc = cm_be32_get((uint8_t *)in + 20);
        xdrmem_create(&x, in + 24, len - 24, XDR_DECODE);
        memset(&a, 0, sizeof(a));
        if (!skip_auth(&x) || !skip_auth(&x) ||
            (proc == NFSPROC4_COMPOUND && !xdr_COMPOUND4args(&x, &a)))
            return;
        xdr_destroy(&x);
        if (proc == NFSPROC4_COMPOUND && srv_compound(&a, &res, ops, scratch) < 0) {
            xdr_free((xdrproc_t)xdr_COMPOUND4args, &a);
            continue;
        }
        xdrmem_create(&x, out + 4, sizeof(out) - 4, XDR_ENCODE);
        {
            uint32_t hdr[6] = {xid, 1, 0, 0, 0, 0}; /* REPLY ACCEPTED AUTH_NONE SUCCESS */

            for (k = 0; k < 6; k++)
                ok = ok && xdr_u_int(&x, &hdr[k]);
        }
        if (proc == NFSPROC4_COMPOUND)
            ok = ok && xdr_COMPOUND4res(&x, &res);
        olen = xdr_getpos(&x);
        xdr_destroy(&x);
        xdr_free((xdrproc_t)xdr_COMPOUND4args, &a);
        cm_be32_put((uint8_t *)out, olen | 0x80000000u);
        if (!ok || write(fds[0], out, olen + 4) != (ssize_t)(olen + 4))
            return;
    }
}

/* ---- the client against it ----------------------------------------------------- */

struct fixture {
    struct th_serve t;
    struct nf4_client *cl;
    struct rp_client *rpc;
};

static int done_count;
static int swallows_seen; /* the swallowed compounds drive() timed out */
static void count_done(struct nf4_call *call, void *data)
{
    (void)call;
    (void)data;
    done_count++;
}

/* The reclaim hook open_client installs (NULL: none), and its data. */
static void (*test_reclaim)(struct nf4_client *cl, void *data);
static void *test_reclaim_data;

static int open_client(struct fixture *f, unsigned slots, unsigned max_slots)
{
    struct rp_client_opts ro;
    struct nf4_client_opts co;
    char err[CM_ERR_LEN];
    int fd, rc;

    memset(&srv, 0, sizeof(srv));
    pthread_mutex_init(&srv.mu, NULL);
    swallows_seen = 0;
    srv.max_slots = max_slots;
    th_serve_init(&f->t);
    fd = th_serve_pair(&f->t, SOCK_STREAM);
    assert_true(fd >= 0);
    assert_int_equal(th_serve_start(&f->t, srv_serve, NULL), 0);
    rp_client_opts_init(&ro);
    ro.transport = RP_TCP;
    ro.clock = &fake_clock;
    ro.max_in_flight = slots + 8;
    assert_int_equal(rp_client_open_fd(&f->rpc, fd, RP_TCP, NFS4_PROGRAM, NFS_V4, &ro,
                                       err, sizeof(err)),
                     0);
    nf4_client_opts_init(&co);
    co.slots = slots;
    co.delay_ms = 5;
    co.clock = &fake_clock;
    co.recovery_max_ms = 3000;
    co.reclaim = test_reclaim;
    co.reclaim_data = test_reclaim_data;
    rc = nf4_client_open(&f->cl, f->rpc, &co, err, sizeof(err));
    if (rc < 0)
        print_message("open: %s\n", err);
    return rc;
}

static void close_client(struct fixture *f)
{
    nf4_client_close(f->cl);
    th_serve_stop(&f->t);
    pthread_mutex_destroy(&srv.mu);
}

/* Services the client until `want` calls are done: replies on the real
 * socket; with nothing on the wire, the stepped clock jumps to the
 * client's next deadline (a held call, a retry, the lease); a compound the
 * responder swallowed makes it jump past the call's timeout. */
static void drive(struct fixture *f, int want)
{
    int i;

    for (i = 0; i < 20000 && done_count < want; i++) {
        int swallowed;

        pthread_mutex_lock(&srv.mu);
        swallowed = srv.swallowed;
        pthread_mutex_unlock(&srv.mu);
        if (swallowed > swallows_seen && rp_client_in_flight(f->rpc) > 0) {
            swallows_seen = swallowed;
            fake_now += 61000ull * 1000000ull; /* past the TCP class timeout */
            nf4_client_service(f->cl, 0);
        } else if (rp_client_in_flight(f->rpc) > 0) {
            nf4_poll(f->cl, 50);
        } else {
            int t = nf4_client_timeout_ms(f->cl);

            fake_now += (uint64_t)(t > 0 ? t : 1) * 1000000ull;
            nf4_client_service(f->cl, 0);
        }
    }
    assert_int_equal(done_count, want);
}

static void getattr_call(struct nf4_call *call, const struct nf4_fh *fh)
{
    nf4_compound_init(&call->args, 1, 0);
    nf4_op_putfh(&call->args, fh);
    nf4_op_getattr(&call->args, NF4_MASK_GETATTR);
    call->done = count_done;
    call->res.data = NULL;
}

/* Starts one GETATTR of fh and services the client until it is done. */
static void run_getattr(struct fixture *f, struct nf4_call *call)
{
    static const struct nf4_fh fh = {4, "fh01"};

    done_count = 0;
    getattr_call(call, &fh);
    assert_int_equal(nf4_call_start(f->cl, call), 0);
    drive(f, 1);
}

static const char *logged(unsigned i)
{
    return srv.log[i % SRV_LOG];
}

static void the_client_is_established_and_destroyed(void **state)
{
    struct fixture f;
    struct nf4_client_stats st;

    (void)state;
    assert_int_equal(open_client(&f, 8, 64), 0);
    assert_string_equal(logged(0), "EXCHANGE_ID");
    assert_string_equal(logged(1), "CREATE_SESSION");
    assert_string_equal(logged(2), "SEQUENCE RECLAIM_COMPLETE");
    assert_string_equal(logged(3), "SEQUENCE PUTROOTFH GETATTR");
    assert_int_equal(srv.log_seq[2], 1); /* a fresh slot starts at 1 */
    assert_int_equal(srv.log_seq[3], 2);
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.slots_asked, 8);
    assert_int_equal(st.slots_granted, 8);
    assert_int_equal(st.lease_s, 60); /* the responder's lease_time */
    assert_int_equal(nf4_client_epoch(f.cl), 1);
    assert_int_equal(nf4_client_close(f.cl), 0);
    assert_string_equal(logged(4), "DESTROY_SESSION");
    assert_string_equal(logged(5), "DESTROY_CLIENTID");
    assert_false(srv.client_known);
    th_serve_stop(&f.t);
    pthread_mutex_destroy(&srv.mu);
}

static void sequence_ids_go_up_per_slot_and_calls_wait_for_slots(void **state)
{
    static struct nf4_call calls[12];
    struct fixture f;
    struct nf4_fh fh = {4, "fh01"};
    struct nf4_client_stats st;
    uint32_t last[4] = {0};
    unsigned i, j, n0;

    (void)state;
    assert_int_equal(open_client(&f, 8, 4), 0); /* 8 asked, 4 granted */
    n0 = srv.nlog;
    done_count = 0;
    for (i = 0; i < 12; i++) {
        getattr_call(&calls[i], &fh);
        assert_int_equal(nf4_call_start(f.cl, &calls[i]), 0);
    }
    assert_int_equal(nf4_client_pending(f.cl), 12);
    drive(&f, 12);
    for (i = 0; i < 12; i++) {
        assert_int_equal(calls[i].status, 0);
        assert_int_equal(calls[i].res.status, NFS4_OK);
        assert_int_equal(calls[i].res.nops, 3);
    }
    /* on every slot the sequence ids follow each other (the responder
     * answered SEQ_MISORDERED otherwise) and no slot past the grant */
    memcpy(last, (uint32_t[4]){0, 0, 0, 0}, sizeof(last));
    for (i = n0; i < srv.nlog; i++) {
        assert_true(srv.log_slot[i] < 4);
        if (last[srv.log_slot[i]])
            assert_int_equal(srv.log_seq[i], last[srv.log_slot[i]] + 1);
        last[srv.log_slot[i]] = srv.log_seq[i];
    }
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.slots_granted, 4);
    assert_int_equal(st.slot_waits, 8);
    assert_int_equal(nf4_client_pending(f.cl), 0);

    /* kept compounds (nf4_compound_keep), each started three times: the
     * same bytes but SEQUENCE's, which still follow per slot */
    for (i = 0; i < 6; i++) {
        getattr_call(&calls[i], &fh);
        nf4_compound_keep(&calls[i].args);
    }
    n0 = srv.nlog;
    for (j = 0; j < 3; j++) {
        done_count = 0;
        for (i = 0; i < 6; i++)
            assert_int_equal(nf4_call_start(f.cl, &calls[i]), 0);
        drive(&f, 6);
        for (i = 0; i < 6; i++) {
            assert_int_equal(calls[i].status, 0);
            assert_int_equal(calls[i].res.status, NFS4_OK);
            assert_int_not_equal(calls[i].args.kept_len, 0);
        }
    }
    assert_int_equal(srv.nlog - n0, 18);
    for (i = n0; i < srv.nlog; i++) {
        assert_string_equal(logged(i), "SEQUENCE PUTFH GETATTR");
        assert_true(srv.log_slot[i] < 4);
        assert_int_equal(srv.log_seq[i], last[srv.log_slot[i]] + 1);
        last[srv.log_slot[i]] = srv.log_seq[i];
    }
    close_client(&f);
}

static void delay_is_held_and_sent_again(void **state)
{
    static struct nf4_call call;
    struct fixture f;
    struct nf4_fh fh = {4, "fh01"};
    struct nf4_client_stats st;
    uint64_t t0;

    (void)state;
    assert_int_equal(open_client(&f, 4, 64), 0);
    srv.delay_next = 2;
    done_count = 0;
    getattr_call(&call, &fh);
    t0 = fake_now;
    assert_int_equal(nf4_call_start(f.cl, &call), 0);
    drive(&f, 1);
    assert_int_equal(call.status, 0);
    assert_int_equal(call.res.status, NFS4_OK);
    assert_int_equal(call.delays, 2);
    assert_true(fake_now - t0 >= 10ull * 1000000ull); /* two holds of 5 ms */
    assert_true(call.t_reply_ns - call.t_start_ns >= 10ull * 1000000ull);
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.delays, 2);
    /* past delay_tries, DELAY is the answer */
    srv.delay_next = 100;
    done_count = 0;
    assert_int_equal(nf4_call_start(f.cl, &call), 0);
    drive(&f, 1);
    assert_int_equal(call.status, 0);
    assert_int_equal(call.res.status, NFS4ERR_DELAY);
    assert_int_equal(call.delays, 15);
    srv.delay_next = 0;
    close_client(&f);
}

static void a_lost_session_is_made_again_and_the_call_sent_again(void **state)
{
    static struct nf4_call call;
    struct fixture f;
    struct nf4_client_stats st;
    unsigned n0;

    (void)state;
    assert_int_equal(open_client(&f, 4, 64), 0);
    srv.forget_session = 1;
    n0 = srv.nlog;
    run_getattr(&f, &call);
    assert_int_equal(call.status, 0);
    assert_int_equal(call.res.status, NFS4_OK);
    assert_int_equal(call.resends, 1);
    assert_string_equal(logged(n0), "SEQUENCE PUTFH GETATTR"); /* BADSESSION */
    assert_string_equal(logged(n0 + 1), "CREATE_SESSION");
    assert_string_equal(logged(n0 + 2), "SEQUENCE PUTFH GETATTR");
    assert_int_equal(srv.log_seq[n0 + 2], 1); /* the new session's first */
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.new_sessions, 1);

    /* a kept compound, encoded in the second session, goes in the third
     * with the third's session id (the responder checks it) */
    nf4_compound_keep(&call.args);
    done_count = 0;
    assert_int_equal(nf4_call_start(f.cl, &call), 0);
    drive(&f, 1);
    assert_int_equal(call.res.status, NFS4_OK);
    assert_int_not_equal(call.args.kept_len, 0);
    srv.forget_session = 1;
    n0 = srv.nlog;
    done_count = 0;
    assert_int_equal(nf4_call_start(f.cl, &call), 0);
    drive(&f, 1);
    assert_int_equal(call.status, 0);
    assert_int_equal(call.res.status, NFS4_OK);
    assert_int_equal(call.resends, 1);
    assert_string_equal(logged(n0 + 1), "CREATE_SESSION");
    assert_int_equal(srv.log_seq[n0 + 2], 1);
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.new_sessions, 2);
    assert_int_equal(st.new_clients, 0);
    assert_int_equal(nf4_client_epoch(f.cl), 1);
    close_client(&f);
}

/* The log from n0 on begins with the recovery of a lost client: the call's
 * SEQUENCE answered BADSESSION, CREATE_SESSION on the old client id
 * answered STALE_CLIENTID, then a new client and its session. */
static void assert_new_client_logged(unsigned n0)
{
    assert_string_equal(logged(n0 + 1), "CREATE_SESSION"); /* STALE_CLIENTID */
    assert_string_equal(logged(n0 + 2), "EXCHANGE_ID");
    assert_string_equal(logged(n0 + 3), "CREATE_SESSION");
}

static void a_lost_client_is_established_again_in_a_new_epoch(void **state)
{
    static struct nf4_call call;
    struct fixture f;
    struct nf4_client_stats st;
    unsigned n0;

    (void)state;
    assert_int_equal(open_client(&f, 4, 64), 0);
    srv.forget_client = 1;
    n0 = srv.nlog;
    run_getattr(&f, &call);
    assert_int_equal(call.status, 0);
    assert_int_equal(call.res.status, NFS4_OK);
    assert_new_client_logged(n0);
    assert_string_equal(logged(n0 + 4), "SEQUENCE RECLAIM_COMPLETE");
    assert_string_equal(logged(n0 + 5), "SEQUENCE PUTFH GETATTR");
    assert_int_equal(nf4_client_epoch(f.cl), 2);
    assert_int_equal(call.epoch, 2);
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.new_clients, 1);
    close_client(&f);
}

static void an_expired_stateid_is_the_calls_answer_in_41(void **state)
{
    static struct nf4_call call;
    struct fixture f;
    struct nf4_client_stats st;
    unsigned n0;

    (void)state;
    assert_int_equal(open_client(&f, 4, 64), 0);
    /* SEQUENCE succeeded: this client is alive, EXPIRED names an earlier
     * one's stateid - no EXCHANGE_ID (which would get this client back
     * and add a session to it), the answer goes to the caller */
    srv.expire_next = 1;
    n0 = srv.nlog;
    run_getattr(&f, &call);
    assert_int_equal(call.status, 0);
    assert_int_equal(call.res.status, NFS4ERR_EXPIRED);
    assert_int_equal(call.resends, 0);
    assert_int_equal(srv.nlog - n0, 1);
    assert_int_equal(nf4_client_epoch(f.cl), 1);
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.new_clients, 0);
    assert_int_equal(st.new_sessions, 0);
    close_client(&f);
}

/* ---- the reclaim after a restart ---- */

static struct nf4_call reclaim_call;
static int reclaims_started, reclaim_start_rc;
static uint32_t reclaim_epoch;

static void reclaimed(struct nf4_call *call, void *data)
{
    (void)data;
    reclaim_epoch = call->epoch;
    nf4_reclaim_end(call->cl);
}

/* Reclaims one open: the file "fh01". */
static void reclaim_one(struct nf4_client *cl, void *data)
{
    static const struct nf4_fh fh = {4, "fh01"};
    struct nf4_sfs_args a;

    (void)data;
    memset(&a, 0, sizeof(a));
    a.fh = &fh;
    reclaims_started++;
    assert_int_equal(nf4_sfs_reclaim(&reclaim_call.args, &a), 0);
    reclaim_call.done = reclaimed;
    reclaim_call.res.data = NULL;
    reclaim_start_rc = nf4_reclaim_start(cl, &reclaim_call);
    if (reclaim_start_rc < 0)
        nf4_reclaim_end(cl);
}

static void a_restarted_servers_opens_are_reclaimed_before_reclaim_complete(void **state)
{
    static struct nf4_call call;
    struct fixture f;
    struct nf4_client_stats st;
    COMPOUND4args back;
    const OPEN4args *o;
    unsigned n0;

    (void)state;
    reclaims_started = 0;
    test_reclaim = reclaim_one;
    assert_int_equal(open_client(&f, 4, 64), 0);
    assert_int_equal(reclaims_started, 0); /* the first client reclaims nothing */
    /* a lost lease: the same server instance (the client id's upper word
     * kept) - no reclaim, RECLAIM_COMPLETE at once */
    srv.forget_client = 1;
    n0 = srv.nlog;
    run_getattr(&f, &call);
    assert_string_equal(logged(n0 + 3), "CREATE_SESSION");
    assert_string_equal(logged(n0 + 4), "SEQUENCE RECLAIM_COMPLETE");
    assert_int_equal(reclaims_started, 0);
    /* a restart: a new instance (another upper word), STALE_CLIENTID */
    srv.forget_client = 1;
    srv.clientid += 1ull << 32;
    n0 = srv.nlog;
    done_count = 0;
    run_getattr(&f, &call);
    assert_int_equal(call.status, 0);
    assert_int_equal(call.res.status, NFS4_OK);
    assert_new_client_logged(n0);
    assert_string_equal(logged(n0 + 4), "SEQUENCE PUTFH OPEN ACCESS GETATTR");
    assert_string_equal(logged(n0 + 5), "SEQUENCE RECLAIM_COMPLETE");
    assert_string_equal(logged(n0 + 6), "SEQUENCE PUTFH GETATTR");
    assert_int_equal(reclaims_started, 1);
    assert_int_equal(reclaim_start_rc, 0);
    assert_int_equal(nf4_client_epoch(f.cl), 3);
    assert_int_equal(reclaim_epoch, 3); /* reclaimed into the new client's epoch */
    assert_false(nf4_client_reclaiming(f.cl));
    assert_int_equal(nf4_reclaim_start(f.cl, &reclaim_call), -EAGAIN);
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.new_clients, 2);
    assert_int_equal(st.restarts, 1);
    /* the reclaim's OPEN: CLAIM_PREVIOUS of the current handle, no
     * delegation held, the share access of the other opens */
    encode_back(&reclaim_call.args, &back);
    o = &back.argarray.argarray_val[2].nfs_argop4_u.opopen;
    assert_int_equal(back.argarray.argarray_val[2].argop, OP_OPEN);
    assert_int_equal(o->claim.claim, CLAIM_PREVIOUS);
    assert_int_equal(o->claim.open_claim4_u.delegate_type, OPEN_DELEGATE_NONE);
    assert_int_equal(o->share_access & OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_ACCESS_BOTH);
    xdr_free((xdrproc_t)xdr_COMPOUND4args, (char *)&back);
    test_reclaim = NULL;
    close_client(&f);
}

/* A restart of the server (a new instance), as the responder shows it. */
static void restart_server(struct fixture *f)
{
    static struct nf4_call call;

    srv.forget_client = 1;
    srv.clientid += 1ull << 32;
    run_getattr(f, &call);
    assert_int_equal(call.res.status, NFS4_OK);
}

static void the_reclaimer_reclaims_the_previous_clients_opens(void **state)
{
    static struct nf4_kept_open files[3];
    struct nf4_open_counts counts;
    struct nf4_reclaimer r;
    struct fixture f;
    unsigned i, n0;

    (void)state;
    memset(files, 0, sizeof(files));
    memset(&counts, 0, sizeof(counts));
    assert_int_equal(nf4_reclaimer_init(&r, 1, &counts, "test"), 0);
    for (i = 0; i < 3; i++) {
        struct nf_fh fh = {4, {'f', 'h', '0', (uint8_t)('1' + i)}};

        nf4_reclaimer_keep(&r, &files[i], &fh);
    }
    test_reclaim = nf4_reclaimer_run;
    test_reclaim_data = &r;
    assert_int_equal(open_client(&f, 4, 64), 0);
    files[0].open.state = files[1].open.state = NF4_OPEN; /* the third never opened */
    files[0].open.epoch = files[1].open.epoch = 1;
    n0 = srv.nlog;
    restart_server(&f);
    /* one call at a time: the two opens held, then RECLAIM_COMPLETE */
    assert_string_equal(logged(n0 + 4), "SEQUENCE PUTFH OPEN ACCESS GETATTR");
    assert_string_equal(logged(n0 + 5), "SEQUENCE PUTFH OPEN ACCESS GETATTR");
    assert_string_equal(logged(n0 + 6), "SEQUENCE RECLAIM_COMPLETE");
    assert_int_equal(counts.reclaims, 2);
    assert_int_equal(files[0].open.epoch, 2); /* the new client's */
    assert_int_equal(files[1].open.epoch, 2);
    assert_int_equal(files[0].open.state, NF4_OPEN);
    assert_int_equal(files[2].open.state, NF4_CLOSED);
    /* a server out of its grace period: NO_GRACE stops the rest, which
     * stay opens of the old client (opened again later) */
    srv.open_status = NFS4ERR_NO_GRACE;
    n0 = srv.nlog;
    restart_server(&f);
    assert_string_equal(logged(n0 + 4), "SEQUENCE PUTFH OPEN ACCESS GETATTR");
    assert_string_equal(logged(n0 + 5), "SEQUENCE RECLAIM_COMPLETE");
    assert_int_equal(counts.reclaim_no_grace, 1);
    assert_int_equal(counts.reclaim_untried, 1);
    assert_int_equal(counts.reclaims, 2);
    assert_int_equal(nf4_client_epoch(f.cl), 3);
    assert_int_equal(files[0].open.epoch, 2);
    assert_int_equal(files[1].open.epoch, 2);
    test_reclaim = NULL;
    test_reclaim_data = NULL;
    close_client(&f);
    nf4_reclaimer_free(&r);
}

/* A server refuses DESTROY_CLIENTID while the client holds state (RFC
 * 8881 18.50.3): the close says so, for the caller to report it. */
static void a_refused_destroy_clientid_is_the_close_answer(void **state)
{
    struct fixture f;

    (void)state;
    assert_int_equal(open_client(&f, 4, 64), 0);
    pthread_mutex_lock(&srv.mu);
    srv.holds_open = 1;
    pthread_mutex_unlock(&srv.mu);
    assert_int_equal(nf4_client_close(f.cl), NFS4ERR_CLIENTID_BUSY);
    assert_string_equal(logged(srv.nlog - 2), "DESTROY_SESSION");
    assert_string_equal(logged(srv.nlog - 1), "DESTROY_CLIENTID");
    assert_true(srv.client_known);
    th_serve_stop(&f.t);
    pthread_mutex_destroy(&srv.mu);
}

static void a_close_during_a_recovery_destroys_what_it_made(void **state)
{
    static struct nf4_call call;
    struct fixture f;
    unsigned n0, i;
    int seen = 0;

    (void)state;
    assert_int_equal(open_client(&f, 4, 64), 0);
    pthread_mutex_lock(&srv.mu);
    srv.forget_session = 1;
    srv.hold_create_session = 1;
    n0 = srv.nlog;
    pthread_mutex_unlock(&srv.mu);
    done_count = 0;
    getattr_call(&call, &(const struct nf4_fh){4, "fh01"});
    assert_int_equal(nf4_call_start(f.cl, &call), 0);
    /* BADSESSION, then CREATE_SESSION on the wire, its reply held */
    for (i = 0; i < 2000 && !seen; i++) {
        nf4_poll(f.cl, 5);
        pthread_mutex_lock(&srv.mu);
        seen = srv.nlog > n0 + 1;
        pthread_mutex_unlock(&srv.mu);
    }
    assert_true(seen);
    assert_string_equal(logged(n0 + 1), "CREATE_SESSION");
    pthread_mutex_lock(&srv.mu);
    srv.hold_create_session = 0;
    pthread_mutex_unlock(&srv.mu);
    /* the close reads the new session and destroys it, then the client:
     * cancelled unread, DESTROY_SESSION would name the old session and
     * DESTROY_CLIENTID be refused (CLIENTID_BUSY) */
    nf4_client_close(f.cl);
    assert_int_equal(done_count, 1);
    assert_false(srv.session_valid);
    assert_false(srv.client_known);
    assert_string_equal(logged(srv.nlog - 1), "DESTROY_CLIENTID");
    th_serve_stop(&f.t);
    pthread_mutex_destroy(&srv.mu);
}

static void a_call_without_reply_leaves_its_slot_repaired(void **state)
{
    static struct nf4_call a, b;
    struct fixture f;
    struct nf4_fh fh = {4, "fh01"};
    struct nf4_client_stats st;
    unsigned n0;

    (void)state;
    assert_int_equal(open_client(&f, 1, 64), 0); /* one slot: both use it */
    srv.swallow_next = 1;
    n0 = srv.nlog;
    done_count = 0;
    getattr_call(&a, &fh);
    assert_int_equal(nf4_call_start(f.cl, &a), 0);
    drive(&f, 1);
    assert_int_equal(a.status, RP_ERR_TIMEDOUT);
    getattr_call(&b, &fh);
    assert_int_equal(nf4_call_start(f.cl, &b), 0);
    drive(&f, 2);
    assert_int_equal(b.status, 0);
    assert_int_equal(b.res.status, NFS4_OK);
    /* a went out as S + 1 and was never run; the next call on the slot -
     * the lease's SEQUENCE, due after the long wait - as S + 2 (a might
     * have run), refused, then as S + 1; b as S + 2 */
    assert_string_equal(logged(n0 + 1), "SEQUENCE");
    assert_int_equal(srv.log_seq[n0 + 1], srv.log_seq[n0] + 1);
    assert_string_equal(logged(n0 + 2), "SEQUENCE");
    assert_int_equal(srv.log_seq[n0 + 2], srv.log_seq[n0]);
    assert_string_equal(logged(n0 + 3), "SEQUENCE PUTFH GETATTR");
    assert_int_equal(srv.log_seq[n0 + 3], srv.log_seq[n0] + 1);
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.slot_repairs, 1);
    close_client(&f);
}

static void an_idle_client_keeps_its_lease(void **state)
{
    struct fixture f;
    struct nf4_client_stats st;
    unsigned n0;

    (void)state;
    assert_int_equal(open_client(&f, 2, 64), 0);
    n0 = srv.nlog;
    /* nothing to do for a third of the 60 s lease: one SEQUENCE alone */
    assert_true(nf4_client_timeout_ms(f.cl) <= 20000);
    assert_true(nf4_client_timeout_ms(f.cl) > 19000);
    fake_now += 20000ull * 1000000ull;
    nf4_client_service(f.cl, 0);
    while (srv.nlog == n0 || rp_client_in_flight(f.rpc))
        nf4_poll(f.cl, 50);
    assert_string_equal(logged(n0), "SEQUENCE");
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.renewals, 1);
    close_client(&f);
}

static void a_granted_delegation_is_handed_back(void **state)
{
    static struct nf4_call call;
    struct fixture f;
    struct nf4_fh fh = {4, "fh01"};
    struct nf4_client_stats st;

    (void)state;
    assert_int_equal(open_client(&f, 2, 64), 0);
    srv.grant_deleg = 1;
    done_count = 0;
    nf4_compound_init(&call.args, 1, 0);
    nf4_op_putfh(&call.args, &fh);
    nf4_op_open(&call.args, "f", 0, NULL);
    nf4_op_getfh(&call.args);
    call.done = count_done;
    assert_int_equal(nf4_call_start(f.cl, &call), 0);
    drive(&f, 1);
    assert_int_equal(call.res.status, NFS4_OK);
    while (srv.delegreturns == 0 || rp_client_in_flight(f.rpc))
        nf4_poll(f.cl, 50);
    assert_string_equal(logged(srv.nlog - 1), "SEQUENCE PUTFH DELEGRETURN");
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.delegations, 1);
    assert_int_equal(st.delegreturns, 1);
    close_client(&f);
}

static void a_recovery_that_keeps_failing_is_given_up(void **state)
{
    static struct nf4_call call;
    struct fixture f;
    struct nf4_client_stats st;

    (void)state;
    assert_int_equal(open_client(&f, 2, 64), 0);
    srv.forget_session = 1;
    srv.fail_create_session = 1;
    run_getattr(&f, &call); /* CREATE_SESSION every second for 3 s, then no more */
    assert_int_equal(call.status, -ENOTCONN);
    assert_string_equal(nf4_client_last_error(f.cl), "CREATE_SESSION: SERVERFAULT");
    assert_int_equal(nf4_call_start(f.cl, &call), -ENOTCONN);
    nf4_client_stats(f.cl, &st);
    assert_int_equal(st.recovery_failed, 1);
    close_client(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(compounds_encode_as_built),
        cmocka_unit_test(a_kept_compound_sends_rpcgens_bytes),
        cmocka_unit_test(sfs_ops_are_a_linux_clients_compounds),
        cmocka_unit_test(attribute_values_decode_in_number_order),
        cmocka_unit_test(owners_that_are_numbers_are_ids),
        cmocka_unit_test(times_set_to_the_clients_time),
        cmocka_unit_test(replies_decode_into_the_callers_storage),
        cmocka_unit_test(odd_replies_do_not_decode),
        cmocka_unit_test(nfsv4_over_udp_is_refused),
        cmocka_unit_test(status_and_operation_names),
        cmocka_unit_test(the_client_is_established_and_destroyed),
        cmocka_unit_test(sequence_ids_go_up_per_slot_and_calls_wait_for_slots),
        cmocka_unit_test(delay_is_held_and_sent_again),
        cmocka_unit_test(a_lost_session_is_made_again_and_the_call_sent_again),
        cmocka_unit_test(a_lost_client_is_established_again_in_a_new_epoch),
        cmocka_unit_test(an_expired_stateid_is_the_calls_answer_in_41),
        cmocka_unit_test(a_restarted_servers_opens_are_reclaimed_before_reclaim_complete),
        cmocka_unit_test(the_reclaimer_reclaims_the_previous_clients_opens),
        cmocka_unit_test(a_refused_destroy_clientid_is_the_close_answer),
        cmocka_unit_test(a_close_during_a_recovery_destroys_what_it_made),
        cmocka_unit_test(a_call_without_reply_leaves_its_slot_repaired),
        cmocka_unit_test(an_idle_client_keeps_its_lease),
        cmocka_unit_test(a_granted_delegation_is_handed_back),
        cmocka_unit_test(a_recovery_that_keeps_failing_is_given_up),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
