/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_build.c - NFSv4 compounds built in the caller's storage (nf4_client.h): one
 * helper per operation FreeSFS sends, each filling the next rpcgen
 * nfs_argop4 of a struct nf4_compound.  rpcgen's encoder then writes them
 * (it only reads the arguments: encoding allocates nothing), so a compound
 * costs no allocation whether it is built once and sent a million times
 * (sfs_ping) or built per call.  Handles, names and data are pointed at,
 * not copied; the attributes a call sets are encoded into the compound.
 */
#include <stdio.h>
#include <string.h>

#include "nfs/nf4_int.h"

static char no_tag[] = "";

void nf4_compound_init(struct nf4_compound *c, uint32_t minor, int noseq)
{
    c->args.tag.utf8string_len = 0;
    c->args.tag.utf8string_val = no_tag;
    c->args.minorversion = minor;
    c->args.argarray.argarray_len = 0;
    c->args.argarray.argarray_val = c->op;
    c->minor = minor;
    c->nseq = 0;
    c->cachethis = 0;
    c->nopen = 0;
    c->sattr_used = 0;
    c->nsattr = 0;
    c->keep = 0;
    c->kept_len = 0;
    if (minor >= 1 && !noseq && nf4_op(c, OP_SEQUENCE))
        c->nseq = 1;
}

nfs_argop4 *nf4_op(struct nf4_compound *c, nfs_opnum4 op)
{
    nfs_argop4 *a;

    if (c->args.argarray.argarray_len >= NF4_MAX_OPS)
        return NULL;
    a = &c->op[c->args.argarray.argarray_len++];
    memset(a, 0, sizeof(*a));
    c->kept_len = 0; /* what was kept is not this compound any more */
    a->argop = op;
    return a;
}

/* A component4 (or any utf8string) naming the caller's text. */
static void set_name(component4 *s, const char *name)
{
    s->utf8string_len = (u_int)strlen(name);
    s->utf8string_val = (char *)(uintptr_t)name;
}

/* The attributes of sa encoded into c, as a fattr4 in f. */
static int set_attrs(struct nf4_compound *c, fattr4 *f, const struct nf4_sattr *sa)
{
    uint32_t *w;
    int n;

    if (c->nsattr >= NF4_SATTR_SETS)
        return -ENOSPC;
    w = c->sattr_words[c->nsattr];
    n = nf4__sattr_encode(sa, w, c->sattr_buf + c->sattr_used,
                          sizeof(c->sattr_buf) - c->sattr_used);
    if (n < 0)
        return n;
    c->nsattr++;
    f->attrmask.bitmap4_len = w[1] ? 2 : w[0] ? 1 : 0;
    f->attrmask.bitmap4_val = w;
    f->attr_vals.attrlist4_len = (u_int)n;
    f->attr_vals.attrlist4_val = c->sattr_buf + c->sattr_used;
    c->sattr_used += (uint32_t)n;
    return 0;
}

/* Takes back the last operation (its arguments did not fit). */
static nfs_argop4 *drop_last(struct nf4_compound *c)
{
    c->args.argarray.argarray_len--;
    return NULL;
}

nfs_argop4 *nf4_op_putfh(struct nf4_compound *c, const struct nf4_fh *fh)
{
    nfs_argop4 *a = nf4_op(c, OP_PUTFH);

    if (a) {
        a->nfs_argop4_u.opputfh.object.nfs_fh4_len = fh->len;
        a->nfs_argop4_u.opputfh.object.nfs_fh4_val = (char *)(uintptr_t)fh->data;
    }
    return a;
}

nfs_argop4 *nf4_op_putrootfh(struct nf4_compound *c)
{
    return nf4_op(c, OP_PUTROOTFH);
}

nfs_argop4 *nf4_op_getfh(struct nf4_compound *c)
{
    return nf4_op(c, OP_GETFH);
}

nfs_argop4 *nf4_op_savefh(struct nf4_compound *c)
{
    return nf4_op(c, OP_SAVEFH);
}

nfs_argop4 *nf4_op_restorefh(struct nf4_compound *c)
{
    return nf4_op(c, OP_RESTOREFH);
}

nfs_argop4 *nf4_op_getattr(struct nf4_compound *c, enum nf4_mask m)
{
    nfs_argop4 *a = nf4_op(c, OP_GETATTR);

    if (a)
        a->nfs_argop4_u.opgetattr.attr_request = *nf4_mask_bitmap(m);
    return a;
}

nfs_argop4 *nf4_op_lookup(struct nf4_compound *c, const char *name)
{
    nfs_argop4 *a = nf4_op(c, OP_LOOKUP);

    if (a)
        set_name(&a->nfs_argop4_u.oplookup.objname, name);
    return a;
}

nfs_argop4 *nf4_op_access(struct nf4_compound *c, uint32_t bits)
{
    nfs_argop4 *a = nf4_op(c, OP_ACCESS);

    if (a)
        a->nfs_argop4_u.opaccess.access = bits;
    return a;
}

nfs_argop4 *nf4_op_readlink(struct nf4_compound *c)
{
    return nf4_op(c, OP_READLINK);
}

nfs_argop4 *nf4_op_read(struct nf4_compound *c, const stateid4 *sid, uint64_t off,
                        uint32_t count)
{
    nfs_argop4 *a = nf4_op(c, OP_READ);

    if (a) {
        a->nfs_argop4_u.opread.stateid = *sid;
        a->nfs_argop4_u.opread.offset = off;
        a->nfs_argop4_u.opread.count = count;
    }
    return a;
}

nfs_argop4 *nf4_op_write(struct nf4_compound *c, const stateid4 *sid, uint64_t off,
                         stable_how4 stable, const void *data, uint32_t len)
{
    nfs_argop4 *a = nf4_op(c, OP_WRITE);

    if (a) {
        a->nfs_argop4_u.opwrite.stateid = *sid;
        a->nfs_argop4_u.opwrite.offset = off;
        a->nfs_argop4_u.opwrite.stable = stable;
        a->nfs_argop4_u.opwrite.data.data_len = len;
        a->nfs_argop4_u.opwrite.data.data_val = (char *)(uintptr_t)data;
    }
    return a;
}

nfs_argop4 *nf4_op_commit(struct nf4_compound *c, uint64_t off, uint32_t count)
{
    nfs_argop4 *a = nf4_op(c, OP_COMMIT);

    if (a) {
        a->nfs_argop4_u.opcommit.offset = off;
        a->nfs_argop4_u.opcommit.count = count;
    }
    return a;
}

nfs_argop4 *nf4_op_open(struct nf4_compound *c, const char *name, int create,
                        const struct nf4_sattr *sa)
{
    nfs_argop4 *a = nf4_op(c, OP_OPEN);
    OPEN4args *o;

    if (!a)
        return NULL;
    o = &a->nfs_argop4_u.opopen;
    /* no delegation asked (4.1): the load is the server's, not a cache's */
    o->share_access =
        OPEN4_SHARE_ACCESS_BOTH | (c->minor >= 1 ? OPEN4_SHARE_ACCESS_WANT_NO_DELEG : 0);
    o->share_deny = OPEN4_SHARE_DENY_NONE;
    o->openhow.opentype = create ? OPEN4_CREATE : OPEN4_NOCREATE;
    if (create) {
        o->openhow.openflag4_u.how.mode = UNCHECKED4;
        if (set_attrs(c, &o->openhow.openflag4_u.how.createhow4_u.createattrs, sa) < 0)
            return drop_last(c);
    }
    if (name) {
        o->claim.claim = CLAIM_NULL;
        set_name(&o->claim.open_claim4_u.file, name);
    } else {
        o->claim.claim = CLAIM_FH;
    }
    c->nopen++; /* seqid and owner: the client's, at every send */
    c->cachethis = 1;
    return a;
}

nfs_argop4 *nf4_op_close(struct nf4_compound *c, const stateid4 *sid)
{
    nfs_argop4 *a = nf4_op(c, OP_CLOSE);

    if (a) {
        a->nfs_argop4_u.opclose.open_stateid = *sid;
        c->cachethis = 1;
    }
    return a;
}

nfs_argop4 *nf4_op_setattr(struct nf4_compound *c, const stateid4 *sid,
                           const struct nf4_sattr *sa)
{
    nfs_argop4 *a = nf4_op(c, OP_SETATTR);

    if (!a)
        return NULL;
    if (sid)
        a->nfs_argop4_u.opsetattr.stateid = *sid;
    if (set_attrs(c, &a->nfs_argop4_u.opsetattr.obj_attributes, sa) < 0)
        return drop_last(c);
    c->cachethis = 1;
    return a;
}

nfs_argop4 *nf4_op_create(struct nf4_compound *c, nfs_ftype4 type, const char *name,
                          const char *target, const struct nf4_sattr *sa)
{
    nfs_argop4 *a = nf4_op(c, OP_CREATE);
    CREATE4args *cr;

    if (!a)
        return NULL;
    cr = &a->nfs_argop4_u.opcreate;
    cr->objtype.type = type;
    if (type == NF4LNK) {
        cr->objtype.createtype4_u.linkdata.linktext4_len = (u_int)strlen(target);
        cr->objtype.createtype4_u.linkdata.linktext4_val = (char *)(uintptr_t)target;
    }
    set_name(&cr->objname, name);
    if (set_attrs(c, &cr->createattrs, sa) < 0)
        return drop_last(c);
    c->cachethis = 1;
    return a;
}

nfs_argop4 *nf4_op_remove(struct nf4_compound *c, const char *name)
{
    nfs_argop4 *a = nf4_op(c, OP_REMOVE);

    if (a) {
        set_name(&a->nfs_argop4_u.opremove.target, name);
        c->cachethis = 1;
    }
    return a;
}

nfs_argop4 *nf4_op_rename(struct nf4_compound *c, const char *from, const char *to)
{
    nfs_argop4 *a = nf4_op(c, OP_RENAME);

    if (a) {
        set_name(&a->nfs_argop4_u.oprename.oldname, from);
        set_name(&a->nfs_argop4_u.oprename.newname, to);
        c->cachethis = 1;
    }
    return a;
}

nfs_argop4 *nf4_op_link(struct nf4_compound *c, const char *name)
{
    nfs_argop4 *a = nf4_op(c, OP_LINK);

    if (a) {
        set_name(&a->nfs_argop4_u.oplink.newname, name);
        c->cachethis = 1;
    }
    return a;
}

nfs_argop4 *nf4_op_readdir(struct nf4_compound *c, uint64_t cookie, const char *verf,
                           uint32_t dircount, uint32_t maxcount, enum nf4_mask m)
{
    nfs_argop4 *a = nf4_op(c, OP_READDIR);

    if (a) {
        READDIR4args *r = &a->nfs_argop4_u.opreaddir;

        r->cookie = cookie;
        if (verf)
            memcpy(r->cookieverf, verf, NFS4_VERIFIER_SIZE);
        r->dircount = dircount;
        r->maxcount = maxcount;
        r->attr_request = *nf4_mask_bitmap(m);
    }
    return a;
}

nfs_argop4 *nf4_op_delegreturn(struct nf4_compound *c, const stateid4 *sid)
{
    nfs_argop4 *a = nf4_op(c, OP_DELEGRETURN);

    if (a)
        a->nfs_argop4_u.opdelegreturn.deleg_stateid = *sid;
    return a;
}

const char *nf4_compound_shape(const struct nf4_compound *c, char *buf, size_t len)
{
    size_t used = 0;
    u_int i;

    if (len)
        buf[0] = '\0';
    for (i = 0; i < c->args.argarray.argarray_len && used < len; i++) {
        const char *n = nf4_op_name(c->op[i].argop);
        int k = snprintf(buf + used, len - used, "%s%s", i ? " " : "", n ? n : "?");

        used += k > 0 ? (size_t)k : 0;
    }
    return buf;
}
