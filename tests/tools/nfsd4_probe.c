/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfsd4_probe.c - NFSv4 behaviours of a server over real TCP connections,
 * as TAP lines (tests/integration/0712): libtirpc's client with the
 * project's rpcgen codecs of nfs4_prot.x.
 *
 *   nfsd4_probe slot PORT      a retried SEQUENCE slot gets its cached reply
 *   nfsd4_probe lease PORT S   a client silent past the lease (S seconds)
 *                              loses its opens and locks to another
 *   nfsd4_probe conflict PORT  two clients' share reservations and locks
 *
 * Every wait is bounded; the server is on 127.0.0.1.
 */
#include <rpc/rpc.h>
#include <time.h>
#include <unistd.h>

#include "tool_tap.h"
#include "nfs4_prot.h"

static struct sockaddr_in server;

static CLIENT *connect4(void)
{
    int sock = RPC_ANYSOCK;
    CLIENT *c = clnttcp_create(&server, NFS4_PROGRAM, NFS_V4, &sock, 0, 0);

    if (c == NULL) {
        clnt_pcreateerror("nfsd4_probe");
        exit(2);
    }
    c->cl_auth = authunix_create_default();
    return c;
}

static COMPOUND4res res;

/* Sends a compound; returns its status (SERVERFAULT when the RPC failed). */
static nfsstat4 compound(CLIENT *c, uint32_t minor, nfs_argop4 *ops, u_int n)
{
    struct timeval tv = {10, 0};
    COMPOUND4args a;

    memset(&a, 0, sizeof(a));
    a.minorversion = minor;
    a.argarray.argarray_len = n;
    a.argarray.argarray_val = ops;
    xdr_free((xdrproc_t)xdr_COMPOUND4res, (char *)&res);
    memset(&res, 0, sizeof(res));
    if (clnt_call(c, NFSPROC4_COMPOUND, (xdrproc_t)xdr_COMPOUND4args, (char *)&a,
                  (xdrproc_t)xdr_COMPOUND4res, (char *)&res, tv) != RPC_SUCCESS)
        return NFS4ERR_SERVERFAULT;
    return res.status;
}

static void op(nfs_argop4 *o, nfs_opnum4 n)
{
    memset(o, 0, sizeof(*o));
    o->argop = n;
}

static void lookup(nfs_argop4 *o, char *name)
{
    op(o, OP_LOOKUP);
    o->nfs_argop4_u.oplookup.objname.utf8string_len = (u_int)strlen(name);
    o->nfs_argop4_u.oplookup.objname.utf8string_val = name;
}

struct sess {
    CLIENT *c;
    clientid4 cid;
    sessionid4 id;
    uint32_t seq;
};

static void sequence(nfs_argop4 *o, struct sess *s, int retry, int cache);

static void session(struct sess *s, char *owner)
{
    nfs_argop4 o, ro[2];
    CREATE_SESSION4args *cs;

    memset(s, 0, sizeof(*s));
    s->c = connect4();
    op(&o, OP_EXCHANGE_ID);
    memcpy(o.nfs_argop4_u.opexchange_id.eia_clientowner.co_verifier, "probe-v4", 8);
    o.nfs_argop4_u.opexchange_id.eia_clientowner.co_ownerid.co_ownerid_len =
        (u_int)strlen(owner);
    o.nfs_argop4_u.opexchange_id.eia_clientowner.co_ownerid.co_ownerid_val = owner;
    if (compound(s->c, 1, &o, 1) != NFS4_OK)
        exit(2);
    s->cid = res.resarray.resarray_val[0]
                 .nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4.eir_clientid;
    op(&o, OP_CREATE_SESSION);
    cs = &o.nfs_argop4_u.opcreate_session;
    cs->csa_clientid = s->cid;
    cs->csa_sequence = 1;
    cs->csa_fore_chan_attrs.ca_maxrequestsize = 65536;
    cs->csa_fore_chan_attrs.ca_maxresponsesize = 65536;
    cs->csa_fore_chan_attrs.ca_maxresponsesize_cached = 4096;
    cs->csa_fore_chan_attrs.ca_maxoperations = 16;
    cs->csa_fore_chan_attrs.ca_maxrequests = 4;
    cs->csa_back_chan_attrs = cs->csa_fore_chan_attrs;
    if (compound(s->c, 1, &o, 1) != NFS4_OK)
        exit(2);
    memcpy(
        s->id,
        res.resarray.resarray_val[0]
            .nfs_resop4_u.opcreate_session.CREATE_SESSION4res_u.csr_resok4.csr_sessionid,
        NFS4_SESSIONID_SIZE);
    /* nothing to reclaim: new state may be asked for from now on */
    sequence(&ro[0], s, 0, 0);
    op(&ro[1], OP_RECLAIM_COMPLETE);
    if (compound(s->c, 1, ro, 2) != NFS4_OK)
        exit(2);
}

/* SEQUENCE on slot 0 with the session's next sequence id (or the last
 * one again: retry). */
static void sequence(nfs_argop4 *o, struct sess *s, int retry, int cache)
{
    op(o, OP_SEQUENCE);
    memcpy(o->nfs_argop4_u.opsequence.sa_sessionid, s->id, NFS4_SESSIONID_SIZE);
    if (!retry)
        s->seq++;
    o->nfs_argop4_u.opsequence.sa_sequenceid = s->seq;
    o->nfs_argop4_u.opsequence.sa_cachethis = cache;
}

static uint32_t mode_mask[2] = {0, 1u << (FATTR4_MODE - 32)};
static char mode_644[4] = {0, 0, 1, (char)0xa4};

static void open_op(nfs_argop4 *o, char *name, uint32_t access, uint32_t deny, int create,
                    char *owner, clientid4 cid, seqid4 seqid)
{
    OPEN4args *a;

    op(o, OP_OPEN);
    a = &o->nfs_argop4_u.opopen;
    a->seqid = seqid;
    a->share_access = access;
    a->share_deny = deny;
    a->owner.clientid = cid;
    a->owner.owner.owner_len = (u_int)strlen(owner);
    a->owner.owner.owner_val = owner;
    if (create) {
        a->openhow.opentype = OPEN4_CREATE;
        a->openhow.openflag4_u.how.mode = GUARDED4;
        a->openhow.openflag4_u.how.createhow4_u.createattrs.attrmask.bitmap4_len = 2;
        a->openhow.openflag4_u.how.createhow4_u.createattrs.attrmask.bitmap4_val =
            mode_mask;
        a->openhow.openflag4_u.how.createhow4_u.createattrs.attr_vals.attrlist4_len = 4;
        a->openhow.openflag4_u.how.createhow4_u.createattrs.attr_vals.attrlist4_val =
            mode_644;
    }
    a->claim.claim = CLAIM_NULL;
    a->claim.open_claim4_u.file.utf8string_len = (u_int)strlen(name);
    a->claim.open_claim4_u.file.utf8string_val = name;
}

static stateid4 open_sid(u_int i)
{
    return res.resarray.resarray_val[i].nfs_resop4_u.opopen.OPEN4res_u.resok4.stateid;
}

static void lock_op(nfs_argop4 *o, uint64_t off, uint64_t len, const stateid4 *open,
                    char *owner, clientid4 cid)
{
    open_to_lock_owner4 *n;

    op(o, OP_LOCK);
    o->nfs_argop4_u.oplock.locktype = WRITE_LT;
    o->nfs_argop4_u.oplock.offset = off;
    o->nfs_argop4_u.oplock.length = len;
    o->nfs_argop4_u.oplock.locker.new_lock_owner = TRUE;
    n = &o->nfs_argop4_u.oplock.locker.locker4_u.open_owner;
    n->open_stateid = *open;
    n->lock_owner.clientid = cid;
    n->lock_owner.owner.owner_len = (u_int)strlen(owner);
    n->lock_owner.owner.owner_val = owner;
}

/* ---- slot: a retry gets the cached reply --------------------------------------- */

static void slot(void)
{
    struct sess s;
    nfs_argop4 o[5];
    stateid4 first, again;
    char fh[NFS4_FHSIZE];
    u_int fhlen;

    session(&s, "probe-slot");
    sequence(&o[0], &s, 0, 1);
    op(&o[1], OP_PUTROOTFH);
    lookup(&o[2], "export");
    open_op(&o[3], "retried", OPEN4_SHARE_ACCESS_BOTH, 0, 1, "o", s.cid, 0);
    op(&o[4], OP_GETFH);
    tool_check(compound(s.c, 1, o, 5) == NFS4_OK, "a GUARDED OPEN that creates, cached");
    first = open_sid(3);
    fhlen = res.resarray.resarray_val[4]
                .nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_len;
    memcpy(fh,
           res.resarray.resarray_val[4]
               .nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_val,
           fhlen);
    /* the same request again on a new connection, as after a reconnect */
    clnt_destroy(s.c);
    s.c = connect4();
    sequence(&o[0], &s, 1, 1);
    tool_check(compound(s.c, 1, o, 5) == NFS4_OK,
               "the retry succeeds: the cached reply, not EXIST from a second create");
    again = open_sid(3);
    tool_check(memcmp(&again, &first, sizeof(first)) == 0 &&
                   res.resarray.resarray_val[4]
                           .nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_len ==
                       fhlen &&
                   memcmp(res.resarray.resarray_val[4]
                              .nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object.nfs_fh4_val,
                          fh, fhlen) == 0,
               "with the same stateid and handle");
    sequence(&o[0], &s, 0, 1);
    tool_check(compound(s.c, 1, o, 5) == NFS4ERR_EXIST,
               "a new request of the same create is EXIST: it was made once");
    sequence(&o[0], &s, 0, 0);
    o[0].nfs_argop4_u.opsequence.sa_sequenceid++;
    tool_check(compound(s.c, 1, o, 1) == NFS4ERR_SEQ_MISORDERED,
               "a sequence id skipped is SEQ_MISORDERED");
    clnt_destroy(s.c);
}

/* ---- lease: a silent client loses its state --------------------------------------- */

static void lease(int lease_s)
{
    struct sess a, b;
    nfs_argop4 o[5];
    stateid4 sa, sb;
    nfsstat4 st = NFS4ERR_SHARE_DENIED;
    time_t start;
    int tries = 0, denied_before = 0;

    session(&a, "probe-silent");
    session(&b, "probe-busy");
    sequence(&o[0], &a, 0, 0);
    op(&o[1], OP_PUTROOTFH);
    lookup(&o[2], "export");
    open_op(&o[3], "held", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_BOTH, 1, "a", a.cid,
            0);
    tool_check(compound(a.c, 1, o, 4) == NFS4_OK, "client A opens with DENY_BOTH");
    sa = open_sid(3);
    sequence(&o[0], &a, 0, 0);
    lookup(&o[3], "held");
    lock_op(&o[4], 0, NFS4_UINT64_MAX, &sa, "la", a.cid);
    tool_check(compound(a.c, 1, o, 5) == NFS4_OK, "and write-locks the whole file");
    start = time(NULL);
    /* B renews and tries every 0.25 s; A says nothing */
    while (st != NFS4_OK && tries++ < 4 * (lease_s + 10)) {
        sequence(&o[0], &b, 0, 0);
        open_op(&o[3], "held", OPEN4_SHARE_ACCESS_BOTH, 0, 0, "b", b.cid, 0);
        st = compound(b.c, 1, o, 4);
        if (st == NFS4ERR_SHARE_DENIED && time(NULL) - start < lease_s - 1)
            denied_before = 1;
        if (st != NFS4_OK)
            usleep(250000);
    }
    tool_check(denied_before, "client B is denied while A's lease runs");
    tool_check(st == NFS4_OK && time(NULL) - start >= lease_s - 1,
               "B opens the file once A's lease ran out (%ld s)",
               (long)(time(NULL) - start));
    sb = open_sid(3);
    sequence(&o[0], &b, 0, 0);
    lookup(&o[3], "held");
    lock_op(&o[4], 0, 10, &sb, "lb", b.cid);
    tool_check(compound(b.c, 1, o, 5) == NFS4_OK, "and locks it: A's lock went too");
    sequence(&o[0], &a, 0, 0);
    tool_check(compound(a.c, 1, o, 1) == NFS4ERR_BADSESSION, "A's session is gone");
    clnt_destroy(a.c);
    clnt_destroy(b.c);
}

/* ---- conflict: a 4.1 client and a 4.0 client ------------------------------------- */

static clientid4 setclientid(CLIENT *c, char *id)
{
    nfs_argop4 o;
    clientid4 cid;

    op(&o, OP_SETCLIENTID);
    memcpy(o.nfs_argop4_u.opsetclientid.client.verifier, "probe-40", 8);
    o.nfs_argop4_u.opsetclientid.client.id.id_len = (u_int)strlen(id);
    o.nfs_argop4_u.opsetclientid.client.id.id_val = id;
    o.nfs_argop4_u.opsetclientid.callback.cb_location.na_r_netid = "tcp";
    o.nfs_argop4_u.opsetclientid.callback.cb_location.na_r_addr = "127.0.0.1.0.0";
    if (compound(c, 0, &o, 1) != NFS4_OK)
        exit(2);
    cid = res.resarray.resarray_val[0]
              .nfs_resop4_u.opsetclientid.SETCLIENTID4res_u.resok4.clientid;
    op(&o, OP_SETCLIENTID_CONFIRM);
    o.nfs_argop4_u.opsetclientid_confirm.clientid = cid;
    memcpy(o.nfs_argop4_u.opsetclientid_confirm.setclientid_confirm,
           res.resarray.resarray_val[0]
               .nfs_resop4_u.opsetclientid.SETCLIENTID4res_u.resok4.setclientid_confirm,
           NFS4_VERIFIER_SIZE);
    if (compound(c, 0, &o, 1) != NFS4_OK)
        exit(2);
    return cid;
}

static void conflict(void)
{
    struct sess a;
    CLIENT *b = connect4();
    clientid4 bid = setclientid(b, "probe-40");
    nfs_argop4 o[5];
    stateid4 sa, sb, la;

    session(&a, "probe-41");
    sequence(&o[0], &a, 0, 0);
    op(&o[1], OP_PUTROOTFH);
    lookup(&o[2], "export");
    open_op(&o[3], "both", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_WRITE, 1, "a", a.cid,
            0);
    tool_check(compound(a.c, 1, o, 4) == NFS4_OK, "4.1 client A opens with DENY_WRITE");
    sa = open_sid(3);
    op(&o[0], OP_PUTROOTFH);
    lookup(&o[1], "export");
    open_op(&o[2], "both", OPEN4_SHARE_ACCESS_WRITE, 0, 0, "b", bid, 1);
    tool_check(compound(b, 0, o, 3) == NFS4ERR_SHARE_DENIED,
               "4.0 client B opening it for writing: SHARE_DENIED");
    open_op(&o[2], "both", OPEN4_SHARE_ACCESS_READ, 0, 0, "b", bid, 2);
    tool_check(compound(b, 0, o, 3) == NFS4_OK, "for reading: granted");
    sb = open_sid(2);
    if (res.resarray.resarray_val[2].nfs_resop4_u.opopen.OPEN4res_u.resok4.rflags &
        OPEN4_RESULT_CONFIRM) {
        op(&o[3], OP_OPEN_CONFIRM);
        o[3].nfs_argop4_u.opopen_confirm.open_stateid = sb;
        o[3].nfs_argop4_u.opopen_confirm.seqid = 3;
        lookup(&o[2], "both");
        tool_check(compound(b, 0, o, 4) == NFS4_OK, "B confirms its open");
        sb = res.resarray.resarray_val[3]
                 .nfs_resop4_u.opopen_confirm.OPEN_CONFIRM4res_u.resok4.open_stateid;
    }
    sequence(&o[0], &a, 0, 0);
    op(&o[1], OP_PUTROOTFH);
    lookup(&o[2], "export");
    lookup(&o[3], "both");
    lock_op(&o[4], 100, 50, &sa, "la", a.cid);
    tool_check(compound(a.c, 1, o, 5) == NFS4_OK, "A write-locks [100, 150)");
    la = res.resarray.resarray_val[4].nfs_resop4_u.oplock.LOCK4res_u.resok4.lock_stateid;
    op(&o[0], OP_PUTROOTFH);
    lookup(&o[1], "export");
    lookup(&o[2], "both");
    lock_op(&o[3], 120, 10, &sb, "lb", bid);
    o[3].nfs_argop4_u.oplock.locktype = READ_LT;
    o[3].nfs_argop4_u.oplock.locker.locker4_u.open_owner.open_seqid = 4;
    {
        nfsstat4 st = compound(b, 0, o, 4);
        LOCK4denied *d =
            &res.resarray.resarray_val[3].nfs_resop4_u.oplock.LOCK4res_u.denied;
        tool_check(st == NFS4ERR_DENIED && d->offset == 100 && d->length == 50 &&
                       d->locktype == WRITE_LT && d->owner.clientid == a.cid &&
                       d->owner.owner.owner_len == 2 &&
                       memcmp(d->owner.owner.owner_val, "la", 2) == 0,
                   "B's read lock inside it: DENIED with A's range, type and owner");
    }
    sequence(&o[0], &a, 0, 0);
    op(&o[1], OP_PUTROOTFH);
    lookup(&o[2], "export");
    lookup(&o[3], "both");
    op(&o[4], OP_LOCKU);
    o[4].nfs_argop4_u.oplocku.locktype = WRITE_LT;
    o[4].nfs_argop4_u.oplocku.lock_stateid = la;
    o[4].nfs_argop4_u.oplocku.offset = 100;
    o[4].nfs_argop4_u.oplocku.length = 50;
    tool_check(compound(a.c, 1, o, 5) == NFS4_OK, "A unlocks");
    op(&o[0], OP_PUTROOTFH);
    lookup(&o[1], "export");
    lookup(&o[2], "both");
    lock_op(&o[3], 120, 10, &sb, "lb", bid);
    o[3].nfs_argop4_u.oplock.locktype = READ_LT;
    o[3].nfs_argop4_u.oplock.locker.locker4_u.open_owner.open_seqid = 5;
    tool_check(compound(b, 0, o, 4) == NFS4_OK, "B's read lock is then granted");
    clnt_destroy(a.c);
    clnt_destroy(b);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: nfsd4_probe slot|lease|conflict PORT [LEASE_S]\n");
        return 2;
    }
    memset(&server, 0, sizeof(server));
    server.sin_family = AF_INET;
    server.sin_port = htons((uint16_t)atoi(argv[2]));
    server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (strcmp(argv[1], "slot") == 0)
        slot();
    else if (strcmp(argv[1], "lease") == 0 && argc > 3)
        lease(atoi(argv[3]));
    else if (strcmp(argv[1], "conflict") == 0)
        conflict();
    else
        return 2;
    xdr_free((xdrproc_t)xdr_COMPOUND4res, (char *)&res);
    return tool_done();
}
