/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs41_mix.c - integration and bench helper: a known NFSv4.1 (or 4.2)
 * workload against a real server over TCP on loopback, so that the tests
 * and benches have v4.1 traffic to capture while no other v4.1 client is
 * at hand (libnfs speaks 4.0 only; the kernel client is not in a test's
 * reach).  Each COMPOUND is the shape a Linux client sends for the same
 * system call (docs/NFS_TRACES.md, section 9), with one session and one
 * slot, through libtirpc's clnt_call on an explicit port and the rpcgen
 * codecs of nfs4_prot.x:
 *
 *   EXCHANGE_ID; CREATE_SESSION; SEQUENCE RECLAIM_COMPLETE;
 *   SEQUENCE PUTROOTFH GETFH GETATTR; SEQUENCE PUTROOTFH LOOKUP GETFH GETATTR;
 *   then ROUNDS times, in a directory made for the round:
 *     FILES x (OPEN create GETFH GETATTR; WRITE GETATTR x3; COMMIT; CLOSE);
 *     OPEN GETFH GETATTR; READ; (4.2: READ_PLUS; SEEK); CLOSE (a file
 *     read back);
 *     PUTFH GETATTR (stat); LOOKUP of a missing name (NFS4ERR_NOENT);
 *     READDIR; SAVEFH PUTFH RENAME; SAVEFH PUTFH LINK RESTOREFH GETATTR;
 *     CREATE symlink GETFH GETATTR; READLINK; SETATTR size; REMOVE x3;
 *   DESTROY_SESSION; DESTROY_CLIENTID.
 *
 *   nfs41_mix [-m MINOR] [-r ROUNDS] [-f FILES] [-p PREFIX] PORT EXPORT
 *
 * EXPORT is the export's pseudo path (one component, e.g. "export"); the
 * rounds' directories are PREFIX0, PREFIX1... (default "r").
 * Prints "compounds N" and exits 0, or one line naming the COMPOUND and
 * status that failed and exits 1.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nfs4_prot.h"

#define OPS_MAX 8
#define FH_MAX  NFS4_FHSIZE

struct fh {
    u_int len;
    char data[FH_MAX];
};

static CLIENT *clnt;
static uint32_t minor = 1;
static sessionid4 session;
static clientid4 clientid;
static uint32_t slot_seq = 1; /* slot 0's next sequence id */
static unsigned long compounds;
static char pathbuf[256];
static const char *prefix = "r";

/* The attributes a Linux client asks of a file: type, size, fileid, mode,
 * numlinks, owner, owner_group, space_used, time_access, time_metadata,
 * time_modify. */
static uint32_t getattr_mask[2] = {
    (1u << FATTR4_TYPE) | (1u << FATTR4_SIZE) | (1u << FATTR4_FILEID),
    (1u << (FATTR4_MODE - 32)) | (1u << (FATTR4_NUMLINKS - 32)) |
        (1u << (FATTR4_OWNER - 32)) | (1u << (FATTR4_OWNER_GROUP - 32)) |
        (1u << (FATTR4_SPACE_USED - 32)) | (1u << (FATTR4_TIME_ACCESS - 32)) |
        (1u << (FATTR4_TIME_METADATA - 32)) | (1u << (FATTR4_TIME_MODIFY - 32))};

/* ---- building a COMPOUND ----------------------------------------------------- */

struct comp {
    nfs_argop4 op[OPS_MAX];
    u_int n;
    const char *what;
};

static nfs_argop4 *add(struct comp *c, nfs_opnum4 num)
{
    nfs_argop4 *a = &c->op[c->n++];

    memset(a, 0, sizeof(*a));
    a->argop = num;
    return a;
}

static void sequence(struct comp *c, const char *what)
{
    nfs_argop4 *a;

    c->n = 0;
    c->what = what;
    a = add(c, OP_SEQUENCE);
    memcpy(a->nfs_argop4_u.opsequence.sa_sessionid, session, sizeof(session));
    a->nfs_argop4_u.opsequence.sa_sequenceid = slot_seq;
}

static void putfh(struct comp *c, struct fh *f)
{
    nfs_argop4 *a = add(c, OP_PUTFH);

    a->nfs_argop4_u.opputfh.object.nfs_fh4_len = f->len;
    a->nfs_argop4_u.opputfh.object.nfs_fh4_val = f->data;
}

static void getattr(struct comp *c)
{
    nfs_argop4 *a = add(c, OP_GETATTR);

    a->nfs_argop4_u.opgetattr.attr_request.bitmap4_len = 2;
    a->nfs_argop4_u.opgetattr.attr_request.bitmap4_val = getattr_mask;
}

static void name(utf8string *u, const char *s)
{
    u->utf8string_len = (u_int)strlen(s);
    u->utf8string_val = (char *)s;
}

/* Sends c; res gets the reply (free with done()).  Statuses other than
 * NFS4_OK and allow are a failure (exit 1). */
static void call(struct comp *c, COMPOUND4res *res, nfsstat4 allow)
{
    struct timeval tv = {30, 0};
    COMPOUND4args args;
    enum clnt_stat cs;

    memset(&args, 0, sizeof(args));
    args.minorversion = minor;
    args.argarray.argarray_len = c->n;
    args.argarray.argarray_val = c->op;
    memset(res, 0, sizeof(*res));
    cs = clnt_call(clnt, NFSPROC4_COMPOUND, (xdrproc_t)xdr_COMPOUND4args, (char *)&args,
                   (xdrproc_t)xdr_COMPOUND4res, (char *)res, tv);
    compounds++;
    if (c->n && c->op[0].argop == OP_SEQUENCE)
        slot_seq++;
    if (cs != RPC_SUCCESS) {
        fprintf(stderr, "nfs41_mix: %s: %s\n", c->what, clnt_sperrno(cs));
        exit(1);
    }
    if (res->status != NFS4_OK && res->status != allow) {
        fprintf(stderr, "nfs41_mix: %s: status %d\n", c->what, res->status);
        exit(1);
    }
}

static void done(COMPOUND4res *res)
{
    clnt_freeres(clnt, (xdrproc_t)xdr_COMPOUND4res, (char *)res);
}

/* The result of operation i (its union). */
static nfs_resop4 *result(COMPOUND4res *res, u_int i)
{
    if (i >= res->resarray.resarray_len) {
        fprintf(stderr, "nfs41_mix: result %u missing\n", i);
        exit(1);
    }
    return &res->resarray.resarray_val[i];
}

static void keep_fh(struct fh *f, COMPOUND4res *res, u_int i)
{
    nfs_fh4 *h = &result(res, i)->nfs_resop4_u.opgetfh.GETFH4res_u.resok4.object;

    f->len = h->nfs_fh4_len;
    memcpy(f->data, h->nfs_fh4_val, h->nfs_fh4_len);
}

/* ---- the workload ------------------------------------------------------------- */

static void session_open(void)
{
    static char owner[64];
    callback_sec_parms4 sec;
    COMPOUND4res res;
    struct comp c;
    nfs_argop4 *a;
    uint32_t seq;

    c.n = 0;
    c.what = "EXCHANGE_ID";
    a = add(&c, OP_EXCHANGE_ID);
    snprintf(owner, sizeof(owner), "freesfs-nfs41-mix-%ld", (long)getpid());
    name((utf8string *)&a->nfs_argop4_u.opexchange_id.eia_clientowner.co_ownerid, owner);
    a->nfs_argop4_u.opexchange_id.eia_flags = EXCHGID4_FLAG_USE_NON_PNFS;
    a->nfs_argop4_u.opexchange_id.eia_state_protect.spa_how = SP4_NONE;
    call(&c, &res, NFS4_OK);
    clientid = result(&res, 0)
                   ->nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4.eir_clientid;
    seq = result(&res, 0)
              ->nfs_resop4_u.opexchange_id.EXCHANGE_ID4res_u.eir_resok4.eir_sequenceid;
    done(&res);

    c.n = 0;
    c.what = "CREATE_SESSION";
    a = add(&c, OP_CREATE_SESSION);
    a->nfs_argop4_u.opcreate_session.csa_clientid = clientid;
    a->nfs_argop4_u.opcreate_session.csa_sequence = seq;
    a->nfs_argop4_u.opcreate_session.csa_fore_chan_attrs =
        (channel_attrs4){0, 1 << 20, 1 << 20, 4096, OPS_MAX, 1, {0, NULL}};
    a->nfs_argop4_u.opcreate_session.csa_back_chan_attrs =
        (channel_attrs4){0, 4096, 4096, 0, 2, 1, {0, NULL}};
    a->nfs_argop4_u.opcreate_session.csa_cb_program = 0x40000000;
    memset(&sec, 0, sizeof(sec));
    sec.cb_secflavor = AUTH_NONE;
    a->nfs_argop4_u.opcreate_session.csa_sec_parms.csa_sec_parms_len = 1;
    a->nfs_argop4_u.opcreate_session.csa_sec_parms.csa_sec_parms_val = &sec;
    call(&c, &res, NFS4_OK);
    memcpy(
        session,
        result(&res, 0)
            ->nfs_resop4_u.opcreate_session.CREATE_SESSION4res_u.csr_resok4.csr_sessionid,
        sizeof(session));
    done(&res);

    sequence(&c, "RECLAIM_COMPLETE");
    add(&c, OP_RECLAIM_COMPLETE);
    call(&c, &res, NFS4_OK);
    done(&res);
}

static void session_close(void)
{
    COMPOUND4res res;
    struct comp c;
    nfs_argop4 *a;

    c.n = 0;
    c.what = "DESTROY_SESSION";
    a = add(&c, OP_DESTROY_SESSION);
    memcpy(a->nfs_argop4_u.opdestroy_session.dsa_sessionid, session, sizeof(session));
    call(&c, &res, NFS4_OK);
    done(&res);
    c.n = 0;
    c.what = "DESTROY_CLIENTID";
    add(&c, OP_DESTROY_CLIENTID)->nfs_argop4_u.opdestroy_clientid.dca_clientid = clientid;
    call(&c, &res, NFS4_OK);
    done(&res);
}

static void lookup_root(const char *export, struct fh *root)
{
    COMPOUND4res res;
    struct comp c;

    sequence(&c, "PUTROOTFH");
    add(&c, OP_PUTROOTFH);
    add(&c, OP_GETFH);
    getattr(&c);
    call(&c, &res, NFS4_OK);
    done(&res);
    sequence(&c, "LOOKUP export");
    add(&c, OP_PUTROOTFH);
    name(&add(&c, OP_LOOKUP)->nfs_argop4_u.oplookup.objname, export);
    add(&c, OP_GETFH);
    getattr(&c);
    call(&c, &res, NFS4_OK);
    keep_fh(root, &res, 3);
    done(&res);
}

static void mkdir_(struct fh *dir, const char *nm, struct fh *out)
{
    COMPOUND4res res;
    struct comp c;
    nfs_argop4 *a;
    static uint32_t mask[2] = {0, 1u << (FATTR4_MODE - 32)};
    static char mode[4] = {0, 0, 0x01, 0xed}; /* 0755 */

    sequence(&c, "CREATE directory");
    putfh(&c, dir);
    a = add(&c, OP_CREATE);
    a->nfs_argop4_u.opcreate.objtype.type = NF4DIR;
    name(&a->nfs_argop4_u.opcreate.objname, nm);
    a->nfs_argop4_u.opcreate.createattrs.attrmask.bitmap4_len = 2;
    a->nfs_argop4_u.opcreate.createattrs.attrmask.bitmap4_val = mask;
    a->nfs_argop4_u.opcreate.createattrs.attr_vals.attrlist4_len = 4;
    a->nfs_argop4_u.opcreate.createattrs.attr_vals.attrlist4_val = mode;
    add(&c, OP_GETFH);
    getattr(&c);
    call(&c, &res, NFS4_OK);
    keep_fh(out, &res, 3);
    done(&res);
}

/* OPEN (creating, or reading) by name in dir: the stateid and handle. */
static void open_(struct fh *dir, const char *nm, int create, stateid4 *st,
                  struct fh *out)
{
    static uint32_t mask[2] = {0, 1u << (FATTR4_MODE - 32)};
    static char mode[4] = {0, 0, 0x01, 0xa4}; /* 0644 */
    static char owner[] = "freesfs open owner";
    COMPOUND4res res;
    struct comp c;
    nfs_argop4 *a;
    OPEN4args *o;

    sequence(&c, create ? "OPEN create" : "OPEN");
    putfh(&c, dir);
    a = add(&c, OP_OPEN);
    o = &a->nfs_argop4_u.opopen;
    o->share_access = (create ? OPEN4_SHARE_ACCESS_WRITE : OPEN4_SHARE_ACCESS_READ) |
                      OPEN4_SHARE_ACCESS_WANT_NO_DELEG;
    o->owner.owner.owner_len = sizeof(owner) - 1;
    o->owner.owner.owner_val = owner;
    if (create) {
        o->openhow.opentype = OPEN4_CREATE;
        o->openhow.openflag4_u.how.mode = UNCHECKED4;
        o->openhow.openflag4_u.how.createhow4_u.createattrs.attrmask.bitmap4_len = 2;
        o->openhow.openflag4_u.how.createhow4_u.createattrs.attrmask.bitmap4_val = mask;
        o->openhow.openflag4_u.how.createhow4_u.createattrs.attr_vals.attrlist4_len = 4;
        o->openhow.openflag4_u.how.createhow4_u.createattrs.attr_vals.attrlist4_val =
            mode;
    }
    o->claim.claim = CLAIM_NULL;
    name(&o->claim.open_claim4_u.file, nm);
    add(&c, OP_GETFH);
    getattr(&c);
    call(&c, &res, NFS4_OK);
    *st = result(&res, 2)->nfs_resop4_u.opopen.OPEN4res_u.resok4.stateid;
    keep_fh(out, &res, 3);
    done(&res);
}

static void io(struct fh *f, stateid4 *st, int write, uint64_t off, u_int len)
{
    static char data[4096];
    COMPOUND4res res;
    struct comp c;
    nfs_argop4 *a;

    sequence(&c, write ? "WRITE" : "READ");
    putfh(&c, f);
    if (write) {
        a = add(&c, OP_WRITE);
        a->nfs_argop4_u.opwrite.stateid = *st;
        a->nfs_argop4_u.opwrite.offset = off;
        a->nfs_argop4_u.opwrite.stable = UNSTABLE4;
        a->nfs_argop4_u.opwrite.data.data_len = len;
        a->nfs_argop4_u.opwrite.data.data_val = data;
        getattr(&c);
    } else {
        a = add(&c, OP_READ);
        a->nfs_argop4_u.opread.stateid = *st;
        a->nfs_argop4_u.opread.offset = off;
        a->nfs_argop4_u.opread.count = len;
    }
    call(&c, &res, NFS4_OK);
    done(&res);
}

/* 4.2: the file read again with READ_PLUS, and where its data starts */
static void read_plus_seek(struct fh *f, stateid4 *st)
{
    COMPOUND4res res;
    struct comp c;
    nfs_argop4 *a;

    sequence(&c, "READ_PLUS");
    putfh(&c, f);
    a = add(&c, OP_READ_PLUS);
    a->nfs_argop4_u.opread_plus.rpa_stateid = *st;
    a->nfs_argop4_u.opread_plus.rpa_count = 65536;
    call(&c, &res, NFS4_OK);
    done(&res);
    sequence(&c, "SEEK");
    putfh(&c, f);
    a = add(&c, OP_SEEK);
    a->nfs_argop4_u.opseek.sa_stateid = *st;
    a->nfs_argop4_u.opseek.sa_what = NFS4_CONTENT_DATA;
    call(&c, &res, NFS4_OK);
    done(&res);
}

static void simple(struct fh *f, nfs_opnum4 num, stateid4 *st, const char *what)
{
    COMPOUND4res res;
    struct comp c;
    nfs_argop4 *a;

    sequence(&c, what);
    putfh(&c, f);
    a = add(&c, num);
    if (num == OP_CLOSE)
        a->nfs_argop4_u.opclose.open_stateid = *st;
    else if (num == OP_COMMIT)
        a->nfs_argop4_u.opcommit.count = 0;
    else if (num == OP_GETATTR)
        c.n--, getattr(&c);
    call(&c, &res, NFS4_OK);
    done(&res);
}

static void namespace_(struct fh *dir, int round)
{
    static uint32_t size_mask[1] = {1u << FATTR4_SIZE};
    static char zero[8];
    COMPOUND4res res;
    struct comp c;
    nfs_argop4 *a;
    struct fh link;
    char nm[32];

    sequence(&c, "LOOKUP missing");
    putfh(&c, dir);
    name(&add(&c, OP_LOOKUP)->nfs_argop4_u.oplookup.objname, "missing");
    add(&c, OP_GETFH);
    getattr(&c);
    call(&c, &res, NFS4ERR_NOENT);
    done(&res);

    sequence(&c, "READDIR");
    putfh(&c, dir);
    a = add(&c, OP_READDIR);
    a->nfs_argop4_u.opreaddir.dircount = 8192;
    a->nfs_argop4_u.opreaddir.maxcount = 32768;
    a->nfs_argop4_u.opreaddir.attr_request.bitmap4_len = 2;
    a->nfs_argop4_u.opreaddir.attr_request.bitmap4_val = getattr_mask;
    call(&c, &res, NFS4_OK);
    done(&res);

    sequence(&c, "RENAME");
    putfh(&c, dir);
    add(&c, OP_SAVEFH);
    putfh(&c, dir);
    a = add(&c, OP_RENAME);
    name(&a->nfs_argop4_u.oprename.oldname, "f0");
    snprintf(nm, sizeof(nm), "g%d", round);
    name(&a->nfs_argop4_u.oprename.newname, nm);
    call(&c, &res, NFS4_OK);
    done(&res);

    /* LINK f1 as h1: the saved handle is the file */
    sequence(&c, "LOOKUP f1");
    putfh(&c, dir);
    name(&add(&c, OP_LOOKUP)->nfs_argop4_u.oplookup.objname, "f1");
    add(&c, OP_GETFH);
    getattr(&c);
    call(&c, &res, NFS4_OK);
    keep_fh(&link, &res, 3);
    done(&res);
    sequence(&c, "LINK");
    putfh(&c, &link);
    add(&c, OP_SAVEFH);
    putfh(&c, dir);
    name(&add(&c, OP_LINK)->nfs_argop4_u.oplink.newname, "h1");
    add(&c, OP_RESTOREFH);
    getattr(&c);
    call(&c, &res, NFS4_OK);
    done(&res);

    sequence(&c, "CREATE symlink");
    putfh(&c, dir);
    a = add(&c, OP_CREATE);
    a->nfs_argop4_u.opcreate.objtype.type = NF4LNK;
    name((utf8string *)&a->nfs_argop4_u.opcreate.objtype.createtype4_u.linkdata, "f1");
    name(&a->nfs_argop4_u.opcreate.objname, "s");
    add(&c, OP_GETFH);
    getattr(&c);
    call(&c, &res, NFS4_OK);
    keep_fh(&link, &res, 3);
    done(&res);
    simple(&link, OP_READLINK, NULL, "READLINK");

    /* truncate f1 (the anonymous stateid: no open needed) */
    sequence(&c, "LOOKUP f1");
    putfh(&c, dir);
    name(&add(&c, OP_LOOKUP)->nfs_argop4_u.oplookup.objname, "f1");
    add(&c, OP_GETFH);
    call(&c, &res, NFS4_OK);
    keep_fh(&link, &res, 3);
    done(&res);
    sequence(&c, "SETATTR size");
    putfh(&c, &link);
    a = add(&c, OP_SETATTR);
    a->nfs_argop4_u.opsetattr.obj_attributes.attrmask.bitmap4_len = 1;
    a->nfs_argop4_u.opsetattr.obj_attributes.attrmask.bitmap4_val = size_mask;
    a->nfs_argop4_u.opsetattr.obj_attributes.attr_vals.attrlist4_len = 8;
    a->nfs_argop4_u.opsetattr.obj_attributes.attr_vals.attrlist4_val = zero;
    getattr(&c);
    call(&c, &res, NFS4_OK);
    done(&res);

    snprintf(nm, sizeof(nm), "g%d", round);
    {
        const char *gone[3] = {nm, "h1", "s"};
        int i;
        for (i = 0; i < 3; i++) {
            sequence(&c, "REMOVE");
            putfh(&c, dir);
            name(&add(&c, OP_REMOVE)->nfs_argop4_u.opremove.target, gone[i]);
            call(&c, &res, NFS4_OK);
            done(&res);
        }
    }
}

static void round_(struct fh *root, int r, int files)
{
    struct fh dir, f;
    stateid4 st;
    char nm[32];
    int i, b;

    snprintf(nm, sizeof(nm), "%.16s%d", prefix, r);
    mkdir_(root, nm, &dir);
    for (i = 0; i < files; i++) {
        snprintf(nm, sizeof(nm), "f%d", i);
        open_(&dir, nm, 1, &st, &f);
        for (b = 0; b < 3; b++)
            io(&f, &st, 1, (uint64_t)b * 4096, 4096);
        simple(&f, OP_COMMIT, NULL, "COMMIT");
        simple(&f, OP_CLOSE, &st, "CLOSE");
    }
    open_(&dir, files > 1 ? "f1" : "f0", 0, &st, &f);
    io(&f, &st, 0, 0, 65536);
    if (minor >= 2)
        read_plus_seek(&f, &st);
    simple(&f, OP_CLOSE, &st, "CLOSE");
    simple(&f, OP_GETATTR, NULL, "GETATTR");
    if (files >= 2)
        namespace_(&dir, r);
}

int main(int argc, char **argv)
{
    struct sockaddr_in sa;
    int opt, rounds = 1, files = 2, sock = RPC_ANYSOCK, r;
    struct fh root;

    while ((opt = getopt(argc, argv, "m:r:f:p:")) != -1) {
        if (opt == 'p')
            prefix = optarg;
        else if (opt == 'm')
            minor = (uint32_t)atoi(optarg);
        else if (opt == 'r')
            rounds = atoi(optarg);
        else if (opt == 'f')
            files = atoi(optarg);
        else
            return 2;
    }
    if (optind + 2 != argc || minor < 1 || minor > 2 || rounds < 1 || files < 1) {
        fprintf(
            stderr,
            "usage: nfs41_mix [-m 1|2] [-r ROUNDS] [-f FILES] [-p PREFIX] PORT EXPORT\n");
        return 2;
    }
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    sa.sin_port = htons((unsigned short)atoi(argv[optind]));
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    clnt = clnttcp_create(&sa, NFS4_PROGRAM, NFS_V4, &sock, 0, 0);
    if (!clnt) {
        clnt_pcreateerror("nfs41_mix");
        return 1;
    }
    clnt->cl_auth = authunix_create_default();
    snprintf(pathbuf, sizeof(pathbuf), "%s", argv[optind + 1]);
    session_open();
    lookup_root(pathbuf, &root);
    for (r = 0; r < rounds; r++)
        round_(&root, r, files);
    session_close();
    printf("compounds %lu\n", compounds);
    auth_destroy(clnt->cl_auth);
    clnt_destroy(clnt);
    return 0;
}
