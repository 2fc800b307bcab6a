/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf4_owners.c - integration helper: NFSv4.1 open state for a capture the
 * NFS trace replay's tests replay (docs/nfs_replay.md, "NFSv4"): three
 * open owners of one file, each OPEN with its own share modes, the
 * traced CLOSEs in the middle, and what the server's answers depend on:
 *
 *   mkdir D; OPEN(CREATE) D/f   owner A, read+write, deny write; WRITE
 *   OPEN D/f                    owner B, read, deny none; READ
 *   OPEN D/f                    owner C, write: SHARE_DENIED (A denies writes)
 *   CLOSE A
 *   OPEN D/f                    owner C, write: OK now; WRITE; READ with B's
 *   CLOSE B, CLOSE C
 *   OPEN (CLAIM_FH)             owner A again; READ; CLOSE
 *   OPEN(CREATE) D/g            owner B; WRITE; CLOSE; REMOVE g
 *   OPEN(CREATE GUARDED4) D/f   owner A: EXIST
 *   OPEN(CREATE GUARDED4) D/h   owner A; CLOSE
 *   OPEN(CREATE EXCLUSIVE4_1) D/x  owner B; CLOSE
 *   OPEN(CREATE EXCLUSIVE4_1) D/h  owner B, another verifier: EXIST
 *   OPEN D/f owners A and B; LOCK 0-99 (write) by lock owner a: granted;
 *   LOCK 50-59 by b: DENIED; LOCKT 50-59 by b: DENIED; LOCKU a's; LOCK
 *   50-59 by b: granted; LOCKU b's; CLOSE both
 *
 * so that a replay that CLOSEd at the end, or under one owner, would be
 * answered otherwise.  One line per compound as nf4_procs prints them
 * ("ok WHAT SHAPE", "nfs WHAT STATUS", "rpc WHAT ERROR"); exit 0 when every
 * compound was answered as above (the one SHARE_DENIED included).  With -d,
 * then an OPEN_DOWNGRADE that decides an answer:
 *
 *   OPEN D/f owner A, read; OPEN D/f owner A, read+write, deny write (an
 *   upgrade: a downgrade goes back to modes the owner asked, RFC 8881
 *   18.18.3); OPEN D/f owner C, write: SHARE_DENIED; OPEN_DOWNGRADE A to
 *   read, deny none; the same OPEN of C: OK; CLOSE C, CLOSE A
 *
 *   nf4_owners [-d] MOUNT
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/error.h"
#include "nfs/nf4_client.h"
#include "tool_nf4.h"

/* The last OPEN of the compound goes with owner name, access and deny. */
static void open_as(struct tool_nf4 *x, const char *owner, uint32_t access, uint32_t deny)
{
    uint32_t i;

    for (i = x->call.args.args.argarray.argarray_len; i-- > 0;) {
        OPEN4args *o = &x->call.args.op[i].nfs_argop4_u.opopen;

        if (x->call.args.op[i].argop != OP_OPEN)
            continue;
        o->owner.owner.owner_len = (u_int)strlen(owner);
        o->owner.owner.owner_val = (char *)(uintptr_t)owner;
        o->share_access = access | OPEN4_SHARE_ACCESS_WANT_NO_DELEG;
        o->share_deny = deny;
        return;
    }
}

/* The stateid and handle of the last compound's OPEN and GETFH. */
static int opened(const struct tool_nf4 *x, stateid4 *sid, struct nf4_fh *fh)
{
    const struct nf4_resop *o = nf4_res_find(&x->call.res, OP_OPEN, 0);
    const struct nf4_resop *g = nf4_res_find(&x->call.res, OP_GETFH, 0);

    if (!o || o->status != NFS4_OK)
        return -1;
    *sid = o->u.open.stateid;
    if (fh && g)
        *fh = g->u.getfh;
    return fh && !g ? -1 : 0;
}

/* OPEN of name in dir (create: OPEN4_CREATE with mode 0644, UNCHECKED4
 * for 1, GUARDED4 for 2, EXCLUSIVE4_1 for 3 with a verifier of the
 * process and the name). */
static int open_name(struct tool_nf4 *x, const struct nf4_fh *dir, const char *name,
                     int create, const char *owner, uint32_t access, uint32_t deny,
                     nfsstat4 want, stateid4 *sid, struct nf4_fh *fh)
{
    struct nf4_sattr sa = {.set_mode = 1, .mode = 0644};
    nfs_argop4 *a;

    nf4_compound_init(&x->call.args, 1, 0);
    nf4_op_putfh(&x->call.args, dir);
    a = nf4_op_open(&x->call.args, name, create != 0, create ? &sa : NULL);
    if (a && create == 2)
        a->nfs_argop4_u.opopen.openhow.openflag4_u.how.mode = GUARDED4;
    if (a && create == 3) {
        createhow4 *h = &a->nfs_argop4_u.opopen.openhow.openflag4_u.how;
        fattr4 attrs = h->createhow4_u.createattrs;
        long verf = (long)getpid() * 131 + name[0];

        h->mode = EXCLUSIVE4_1;
        memset(h->createhow4_u.ch_createboth.cva_verf, 0, sizeof(verifier4));
        memcpy(h->createhow4_u.ch_createboth.cva_verf, &verf, sizeof(verf));
        h->createhow4_u.ch_createboth.cva_attrs = attrs;
    }
    nf4_op_getfh(&x->call.args);
    nf4_op_getattr(&x->call.args, NF4_MASK_GETATTR);
    open_as(x, owner, access, deny);
    if (tool_nf4_send(x, create ? "open-create" : "open", want) < 0 || want != NFS4_OK)
        return -1;
    return opened(x, sid, fh);
}

static void io(struct tool_nf4 *x, const struct nf4_fh *fh, const stateid4 *sid,
               int write)
{
    static const char data[4096];

    nf4_compound_init(&x->call.args, 1, 0);
    nf4_op_putfh(&x->call.args, fh);
    if (write)
        nf4_op_write(&x->call.args, sid, 0, FILE_SYNC4, data, sizeof(data));
    else
        nf4_op_read(&x->call.args, sid, 0, sizeof(data));
    tool_nf4_send(x, write ? "write" : "read", NFS4_OK);
}

static void close_it(struct tool_nf4 *x, const struct nf4_fh *fh, const stateid4 *sid)
{
    nf4_compound_init(&x->call.args, 1, 0);
    nf4_op_putfh(&x->call.args, fh);
    nf4_op_close(&x->call.args, sid);
    tool_nf4_send(x, "close", NFS4_OK);
}

static void remove_it(struct tool_nf4 *x, const struct nf4_fh *dir, const char *name)
{
    nf4_compound_init(&x->call.args, 1, 0);
    nf4_op_putfh(&x->call.args, dir);
    nf4_op_remove(&x->call.args, name);
    tool_nf4_send(x, "remove", NFS4_OK);
}

/* LOCK (lockt 0) or LOCKT of [off, off + len) for writing: a new lock
 * owner `owner` with open stateid sid, or (owner NULL) the lock's
 * stateid sid; the lock's stateid into *out when granted. */
static void lock(struct tool_nf4 *x, const struct nf4_fh *fh, int lockt,
                 const char *owner, const stateid4 *sid, uint64_t off, uint64_t len,
                 nfsstat4 want, stateid4 *out)
{
    nfs_argop4 *a;
    const struct nf4_resop *r;

    nf4_compound_init(&x->call.args, 1, 0);
    nf4_op_putfh(&x->call.args, fh);
    a = nf4_op(&x->call.args, lockt ? OP_LOCKT : OP_LOCK);
    if (a == NULL)
        return;
    if (lockt) {
        a->nfs_argop4_u.oplockt.locktype = WRITE_LT;
        a->nfs_argop4_u.oplockt.offset = off;
        a->nfs_argop4_u.oplockt.length = len;
        a->nfs_argop4_u.oplockt.owner.owner.owner_len = (u_int)strlen(owner);
        a->nfs_argop4_u.oplockt.owner.owner.owner_val = (char *)(uintptr_t)owner;
        x->call.args.nopen++; /* the client id: the client's */
    } else {
        LOCK4args *k = &a->nfs_argop4_u.oplock;

        k->locktype = WRITE_LT;
        k->offset = off;
        k->length = len;
        k->locker.new_lock_owner = owner != NULL;
        if (owner) {
            k->locker.locker4_u.open_owner.open_stateid = *sid;
            k->locker.locker4_u.open_owner.lock_owner.owner.owner_len =
                (u_int)strlen(owner);
            k->locker.locker4_u.open_owner.lock_owner.owner.owner_val =
                (char *)(uintptr_t)owner;
            x->call.args.nopen++;
        } else {
            k->locker.locker4_u.lock_owner.lock_stateid = *sid;
        }
        x->call.args.cachethis = 1;
    }
    if (tool_nf4_send(x, lockt ? "lockt" : "lock", want) == 0 && out &&
        (r = nf4_res_find(&x->call.res, OP_LOCK, 0)) != NULL)
        *out = r->u.close;
}

static void unlock(struct tool_nf4 *x, const struct nf4_fh *fh, const stateid4 *sid,
                   uint64_t off, uint64_t len)
{
    nfs_argop4 *a;

    nf4_compound_init(&x->call.args, 1, 0);
    nf4_op_putfh(&x->call.args, fh);
    if ((a = nf4_op(&x->call.args, OP_LOCKU)) == NULL)
        return;
    a->nfs_argop4_u.oplocku.locktype = WRITE_LT;
    a->nfs_argop4_u.oplocku.lock_stateid = *sid;
    a->nfs_argop4_u.oplocku.offset = off;
    a->nfs_argop4_u.oplocku.length = len;
    x->call.args.cachethis = 1;
    tool_nf4_send(x, "locku", NFS4_OK);
}

/* Two owners' locks of f, one conflicting with the other. */
static void locks(struct tool_nf4 *x, const struct nf4_fh *dir, const struct nf4_fh *f)
{
    stateid4 a, b, la, lb;

    if (open_name(x, dir, "f", 0, "owner-A", OPEN4_SHARE_ACCESS_BOTH,
                  OPEN4_SHARE_DENY_NONE, NFS4_OK, &a, NULL) < 0 ||
        open_name(x, dir, "f", 0, "owner-B", OPEN4_SHARE_ACCESS_BOTH,
                  OPEN4_SHARE_DENY_NONE, NFS4_OK, &b, NULL) < 0)
        return;
    lock(x, f, 0, "lock-a", &a, 0, 100, NFS4_OK, &la);
    lock(x, f, 0, "lock-b", &b, 50, 10, NFS4ERR_DENIED, NULL);
    lock(x, f, 1, "lock-b", NULL, 50, 10, NFS4ERR_DENIED, NULL);
    unlock(x, f, &la, 0, 100);
    lock(x, f, 0, "lock-b", &b, 50, 10, NFS4_OK, &lb);
    unlock(x, f, &lb, 50, 10);
    close_it(x, f, &a);
    close_it(x, f, &b);
}

/* -d: A's open of f downgraded, after which C's OPEN for writing that A's
 * denied is granted. */
static void downgrade(struct tool_nf4 *x, const struct nf4_fh *dir,
                      const struct nf4_fh *f)
{
    const struct nf4_resop *o;
    stateid4 a, c;
    nfs_argop4 *d;

    if (open_name(x, dir, "f", 0, "owner-A", OPEN4_SHARE_ACCESS_READ,
                  OPEN4_SHARE_DENY_NONE, NFS4_OK, &a, NULL) < 0 ||
        open_name(x, dir, "f", 0, "owner-A", OPEN4_SHARE_ACCESS_BOTH,
                  OPEN4_SHARE_DENY_WRITE, NFS4_OK, &a, NULL) < 0)
        return;
    open_name(x, dir, "f", 0, "owner-C", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE,
              NFS4ERR_SHARE_DENIED, NULL, NULL);
    nf4_compound_init(&x->call.args, 1, 0);
    nf4_op_putfh(&x->call.args, f);
    if ((d = nf4_op(&x->call.args, OP_OPEN_DOWNGRADE)) == NULL)
        return;
    d->nfs_argop4_u.opopen_downgrade.open_stateid = a;
    d->nfs_argop4_u.opopen_downgrade.share_access = OPEN4_SHARE_ACCESS_READ;
    d->nfs_argop4_u.opopen_downgrade.share_deny = OPEN4_SHARE_DENY_NONE;
    x->call.args.cachethis = 1;
    if (tool_nf4_send(x, "open-downgrade", NFS4_OK) < 0 ||
        !(o = nf4_res_find(&x->call.res, OP_OPEN_DOWNGRADE, 0)))
        return;
    a = o->u.close;
    if (open_name(x, dir, "f", 0, "owner-C", OPEN4_SHARE_ACCESS_WRITE,
                  OPEN4_SHARE_DENY_NONE, NFS4_OK, &c, NULL) < 0)
        return;
    close_it(x, f, &c);
    close_it(x, f, &a);
}

static void run(struct tool_nf4 *x, const struct nf4_fh *root, int down)
{
    struct nf4_fh dir, f, g;
    stateid4 a, b, c;
    char name[64];
    struct nf4_sattr sa = {.set_mode = 1, .mode = 0755};
    const struct nf4_resop *o;

    snprintf(name, sizeof(name), "nf4_owners.%ld", (long)getpid());
    nf4_compound_init(&x->call.args, 1, 0);
    nf4_op_putfh(&x->call.args, root);
    nf4_op_create(&x->call.args, NF4DIR, name, NULL, &sa);
    nf4_op_getfh(&x->call.args);
    if (tool_nf4_send(x, "mkdir", NFS4_OK) < 0 ||
        !(o = nf4_res_find(&x->call.res, OP_GETFH, 0)))
        return;
    dir = o->u.getfh;
    if (open_name(x, &dir, "f", 1, "owner-A", OPEN4_SHARE_ACCESS_BOTH,
                  OPEN4_SHARE_DENY_WRITE, NFS4_OK, &a, &f) < 0)
        return;
    io(x, &f, &a, 1);
    if (open_name(x, &dir, "f", 0, "owner-B", OPEN4_SHARE_ACCESS_READ,
                  OPEN4_SHARE_DENY_NONE, NFS4_OK, &b, NULL) < 0)
        return;
    io(x, &f, &b, 0);
    /* A denies writing: refused while A is open */
    open_name(x, &dir, "f", 0, "owner-C", OPEN4_SHARE_ACCESS_WRITE, OPEN4_SHARE_DENY_NONE,
              NFS4ERR_SHARE_DENIED, NULL, NULL);
    close_it(x, &f, &a);
    if (open_name(x, &dir, "f", 0, "owner-C", OPEN4_SHARE_ACCESS_WRITE,
                  OPEN4_SHARE_DENY_NONE, NFS4_OK, &c, NULL) < 0)
        return;
    io(x, &f, &c, 1);
    io(x, &f, &b, 0);
    close_it(x, &f, &b);
    close_it(x, &f, &c);
    /* A again, by handle */
    nf4_compound_init(&x->call.args, 1, 0);
    nf4_op_putfh(&x->call.args, &f);
    nf4_op_open(&x->call.args, NULL, 0, NULL);
    open_as(x, "owner-A", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE);
    if (tool_nf4_send(x, "open-fh", NFS4_OK) < 0 || opened(x, &a, NULL) < 0)
        return;
    io(x, &f, &a, 0);
    close_it(x, &f, &a);
    if (open_name(x, &dir, "g", 1, "owner-B", OPEN4_SHARE_ACCESS_BOTH,
                  OPEN4_SHARE_DENY_NONE, NFS4_OK, &b, &g) < 0)
        return;
    io(x, &g, &b, 1);
    close_it(x, &g, &b);
    remove_it(x, &dir, "g");
    /* the create modes: GUARDED4 refused for a name there, EXCLUSIVE4_1
     * for a name another create made */
    open_name(x, &dir, "f", 2, "owner-A", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE,
              NFS4ERR_EXIST, NULL, NULL);
    if (open_name(x, &dir, "h", 2, "owner-A", OPEN4_SHARE_ACCESS_BOTH,
                  OPEN4_SHARE_DENY_NONE, NFS4_OK, &a, &g) == 0)
        close_it(x, &g, &a);
    if (open_name(x, &dir, "x", 3, "owner-B", OPEN4_SHARE_ACCESS_BOTH,
                  OPEN4_SHARE_DENY_NONE, NFS4_OK, &b, &g) == 0)
        close_it(x, &g, &b);
    open_name(x, &dir, "h", 3, "owner-B", OPEN4_SHARE_ACCESS_BOTH, OPEN4_SHARE_DENY_NONE,
              NFS4ERR_EXIST, NULL, NULL);
    locks(x, &dir, &f);
    if (down)
        downgrade(x, &dir, &f);
}

int main(int argc, char **argv)
{
    static struct tool_nf4 x;
    static struct nf4_mount m;
    struct nf_mount_opts mo;
    char err[CM_ERR_LEN];
    int down = argc == 3 && strcmp(argv[1], "-d") == 0;

    if (argc != 2 + down) {
        fprintf(stderr, "usage: nf4_owners [-d] MOUNT\n");
        return 2;
    }
    nf_mount_opts_init(&mo, 4);
    mo.transport = RP_TCP;
    if (nf4_mount(&m, argv[1 + down], &mo, NULL, err, sizeof(err)) < 0) {
        fprintf(stderr, "nf4_owners: %s\n", err);
        return 1;
    }
    x.cl = m.cl;
    run(&x, &m.root, down);
    nf4_umount(&m);
    return x.failures ? 1 : 0;
}
