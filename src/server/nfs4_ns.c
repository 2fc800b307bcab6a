/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_ns.c - NFSv4 operations on the name space and on what a client
 * reads of it (server layer, RFC 8881 section 18): PUTFH, PUTROOTFH,
 * PUTPUBFH, GETFH, SAVEFH, RESTOREFH, LOOKUP, LOOKUPP, GETATTR, VERIFY,
 * NVERIFY, ACCESS, READDIR, READLINK, SECINFO, SECINFO_NO_NAME, OPENATTR.
 *
 * The pseudo file system is the internal tree above the exports: its root
 * (PUTROOTFH, and PUTPUBFH) leads by LOOKUP to each export, it holds
 * nothing else and nothing can be made in it (it answers ROFS, and ACCESS
 * grants no change there).  Inside an export, LOOKUP takes a name and
 * never "." or ".." (BADNAME), so the only way up is LOOKUPP, which climbs
 * from an export root into the pseudo file system - where there is
 * nothing but the paths to the exports - and answers NOENT at its root.
 */
#include "server/nfs4_int.h"

#include <string.h>

/* NOTDIR for a non-directory current handle (SYMLINK for a link, as RFC
 * 8881 asks of LOOKUP and LOOKUPP). */
static nfsstat4 need_dir(const struct sv_node *n)
{
    if (n->type == SV_DIR)
        return NFS4_OK;
    return n->type == SV_LNK ? NFS4ERR_SYMLINK : NFS4ERR_NOTDIR;
}

nfsstat4 sv4_op_putfh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const nfs_fh4 *fh = &a->nfs_argop4_u.opputfh.object;
    struct sv_node *n;
    int st = sv__fs_from_handle(x->c->fs, fh->nfs_fh4_val, fh->nfs_fh4_len, &n);

    if (st == 0) {
        memcpy(x->cur.fh, fh->nfs_fh4_val, SV_FH_LEN);
        x->cur.set = 1;
        x->cur_sid_set = 0;
    }
    return r->nfs_resop4_u.opputfh.status = sv4_status(st);
}

nfsstat4 sv4_op_putrootfh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    (void)a;
    sv4_set_cur(x, sv__fs_root(x->c->fs));
    return r->nfs_resop4_u.opputrootfh.status = NFS4_OK;
}

/* The public handle is the root of the pseudo file system (RFC 8881
 * 18.20.3 allows it). */
nfsstat4 sv4_op_putpubfh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    (void)a;
    sv4_set_cur(x, sv__fs_root(x->c->fs));
    return r->nfs_resop4_u.opputpubfh.status = NFS4_OK;
}

nfsstat4 sv4_op_getfh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    GETFH4res *res = &r->nfs_resop4_u.opgetfh;
    struct sv_node *n;

    (void)a;
    if ((res->status = sv4_cur(x, &n)) != NFS4_OK)
        return res->status;
    sv__handle(x->c, n, x->fhout); /* --change-handles applies */
    res->GETFH4res_u.resok4.object.nfs_fh4_len = SV_FH_LEN;
    res->GETFH4res_u.resok4.object.nfs_fh4_val = (char *)x->fhout;
    return NFS4_OK;
}

nfsstat4 sv4_op_savefh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    struct sv_node *n;
    nfsstat4 st = sv4_cur(x, &n);

    (void)a;
    if (st == NFS4_OK) {
        x->saved = x->cur;
        x->saved_sid = x->cur_sid;
        x->saved_sid_set = x->cur_sid_set;
    }
    return r->nfs_resop4_u.opsavefh.status = st;
}

nfsstat4 sv4_op_restorefh(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    struct sv_node *n;
    nfsstat4 st = sv4_saved(x, &n);

    (void)a;
    if (st == NFS4_OK) {
        x->cur = x->saved;
        x->cur_sid = x->saved_sid; /* RFC 8881 16.2.3.1.2 */
        x->cur_sid_set = x->saved_sid_set;
    }
    return r->nfs_resop4_u.oprestorefh.status = st;
}

nfsstat4 sv4_op_lookup(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    char name[SV_NAME_MAX + 1];
    struct sv_node *dir, *n;
    nfsstat4 st;

    if ((st = sv4_cur(x, &dir)) == NFS4_OK && (st = need_dir(dir)) == NFS4_OK &&
        (st = sv4_name(&a->nfs_argop4_u.oplookup.objname, name)) == NFS4_OK)
        st = sv4_status(sv__lookup(x->c, dir, name, &n));
    if (st == NFS4_OK)
        sv4_set_cur(x, n);
    return r->nfs_resop4_u.oplookup.status = st;
}

nfsstat4 sv4_op_lookupp(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    struct sv_node *dir;
    nfsstat4 st;

    (void)a;
    if ((st = sv4_cur(x, &dir)) == NFS4_OK && (st = need_dir(dir)) == NFS4_OK) {
        if (dir == sv__fs_root(x->c->fs))
            st = NFS4ERR_NOENT;
        else
            sv4_set_cur(x, sv__fs_tree_parent(x->c->fs, dir));
    }
    return r->nfs_resop4_u.oplookupp.status = st;
}

nfsstat4 sv4_op_getattr(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    GETATTR4res *res = &r->nfs_resop4_u.opgetattr;
    struct sv_node *n;

    if ((res->status = sv4_cur(x, &n)) == NFS4_OK)
        res->status =
            sv4_attr_encode(x, n, &a->nfs_argop4_u.opgetattr.attr_request, NFS4_OK,
                            x->words, &res->GETATTR4res_u.resok4.obj_attributes);
    return res->status;
}

nfsstat4 sv4_op_verify(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    struct sv_node *n;
    nfsstat4 st = sv4_cur(x, &n);

    if (st == NFS4_OK)
        st = sv4_attr_verify(x, n, &a->nfs_argop4_u.opverify.obj_attributes, 1);
    return r->nfs_resop4_u.opverify.status = st;
}

nfsstat4 sv4_op_nverify(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    struct sv_node *n;
    nfsstat4 st = sv4_cur(x, &n);

    if (st == NFS4_OK)
        st = sv4_attr_verify(x, n, &a->nfs_argop4_u.opnverify.obj_attributes, 0);
    return r->nfs_resop4_u.opnverify.status = st;
}

#define ACCESS4_ALL                                                                      \
    (ACCESS4_READ | ACCESS4_LOOKUP | ACCESS4_MODIFY | ACCESS4_EXTEND | ACCESS4_DELETE |  \
     ACCESS4_EXECUTE)

nfsstat4 sv4_op_access(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    ACCESS4res *res = &r->nfs_resop4_u.opaccess;
    uint32_t asked = a->nfs_argop4_u.opaccess.access;
    struct sv_node *n;

    if ((res->status = sv4_cur(x, &n)) != NFS4_OK)
        return res->status;
    if (asked & ~ACCESS4_ALL)
        return res->status = NFS4ERR_INVAL;
    /* the ACCESS4 bits are ACCESS3's; LOOKUP and DELETE mean something
     * for a directory only, EXECUTE for anything else only */
    res->ACCESS4res_u.resok4.supported =
        asked & (n->type == SV_DIR ? ACCESS4_ALL & ~ACCESS4_EXECUTE
                                   : ACCESS4_ALL & ~(ACCESS4_LOOKUP | ACCESS4_DELETE));
    asked = res->ACCESS4res_u.resok4.supported;
    res->ACCESS4res_u.resok4.access = sv__access3(x->c, n, asked);
    if (sv4_is_pseudo(x, n))
        res->ACCESS4res_u.resok4.access &=
            ~(ACCESS4_MODIFY | ACCESS4_EXTEND | ACCESS4_DELETE);
    return NFS4_OK;
}

nfsstat4 sv4_op_readlink(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    READLINK4res *res = &r->nfs_resop4_u.opreadlink;
    struct sv_node *n;

    (void)a;
    if ((res->status = sv4_cur(x, &n)) != NFS4_OK)
        return res->status;
    if (n->type != SV_LNK)
        return res->status = NFS4ERR_INVAL;
    res->READLINK4res_u.resok4.link.linktext4_len = (u_int)strlen(n->u.lnk.target);
    res->READLINK4res_u.resok4.link.linktext4_val = n->u.lnk.target;
    return NFS4_OK;
}

/* ---- READDIR ----------------------------------------------------------------- */

/* XDR bytes of an entry without its attribute values: value_follows,
 * cookie, name, bitmap, attribute length. */
#define ENTRY_FIXED(namelen, words)                                                      \
    (4 + 8 + 4 + (((namelen) + 3) & ~3u) + 4 + 4 * (words) + 4)

static void cookie_verf(const struct sv4_call *x, char verf[NFS4_VERIFIER_SIZE])
{
    /* one verifier for the server's life: cookies stay valid across
     * removals (fs.c), and a restarted server has new ones */
    for (int i = 0; i < NFS4_VERIFIER_SIZE; i++)
        verf[i] = (char)(x->c->instance >> (8 * i));
}

nfsstat4 sv4_op_readdir(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    const READDIR4args *args = &a->nfs_argop4_u.opreaddir;
    READDIR4res *res = &r->nfs_resop4_u.opreaddir;
    READDIR4resok *ok = &res->READDIR4res_u.resok4;
    uint8_t *buf = x->c->dirbuf.bytes, *top = buf + sizeof(x->c->dirbuf.bytes);
    entry4 *first = NULL, *last = NULL;
    char verf[NFS4_VERIFIER_SIZE];
    uint64_t cookie = args->cookie;
    uint32_t used = NFS4_VERIFIER_SIZE + 4 + 4; /* maxcount: verifier, end, eof */
    uint32_t limit = args->maxcount < x->reply_room ? args->maxcount : x->reply_room;
    struct sv_dirpos pos;
    struct sv_node *dir;
    int more, drop, count = 0;

    if ((res->status = sv4_cur(x, &dir)) != NFS4_OK)
        return res->status;
    if (dir->type != SV_DIR)
        return res->status = NFS4ERR_NOTDIR;
    if ((res->status = sv4_status(sv__readdir_check(x->c, dir))) != NFS4_OK)
        return res->status;
    cookie_verf(x, verf);
    if (cookie == 1 || cookie == 2)
        return res->status = NFS4ERR_BAD_COOKIE;
    if (limit < used)
        return res->status = NFS4ERR_TOOSMALL; /* not even an empty list fits */
    if (cookie != 0 && memcmp(verf, args->cookieverf, NFS4_VERIFIER_SIZE) != 0)
        return res->status = NFS4ERR_NOT_SAME;
    if (args->attr_request.bitmap4_len > 1 &&
        (args->attr_request.bitmap4_val[1] &
         ((1u << (FATTR4_TIME_ACCESS_SET - 32)) | (1u << (FATTR4_TIME_MODIFY_SET - 32)))))
        return res->status = NFS4ERR_INVAL; /* write-only, even for no entry */
    if (cookie == 0)
        cookie = 2; /* NFSv4 lists no "." and ".." (cookies 1 and 2 in fs.c) */
    drop = sv__fault_drop_dirent(x->c);
    while ((more = sv__fs_dir_after(x->c->fs, dir, cookie, &pos)) == 1) {
        size_t nl = strlen(pos.name);
        entry4 *e;
        uint8_t *ab;
        uint32_t words[SV4_ATTR_WORDS], *wp;
        nfsstat4 st;

        if (sv__fault_skip_dirent(x->c, &drop, pos.name)) {
            cookie = pos.cookie;
            continue;
        }
        /* the entry and its bitmap from the bottom of dirbuf, its values
         * below the top */
        e = (entry4 *)(void *)buf;
        wp = (uint32_t *)(void *)(e + 1);
        if ((uint8_t *)(wp + SV4_ATTR_WORDS) + 64 > top)
            break;
        st = sv4_attr_encode_into(
            x, pos.node, &args->attr_request, NFS4_OK, (uint8_t *)(wp + SV4_ATTR_WORDS),
            (u_int)(top - (uint8_t *)(wp + SV4_ATTR_WORDS)), words, &e->attrs);
        if (st != NFS4_OK && st != NFS4ERR_RESOURCE)
            return res->status = st;
        if (st == NFS4ERR_RESOURCE ||
            used + ENTRY_FIXED(nl, e->attrs.attrmask.bitmap4_len) +
                    ((e->attrs.attr_vals.attrlist4_len + 3) & ~3u) >
                limit)
            break;
        used += ENTRY_FIXED(nl, e->attrs.attrmask.bitmap4_len) +
                ((e->attrs.attr_vals.attrlist4_len + 3) & ~3u);
        /* move the values up against the top, and keep the bitmap */
        ab = top - ((e->attrs.attr_vals.attrlist4_len + 7) & ~7u);
        memmove(ab, e->attrs.attr_vals.attrlist4_val, e->attrs.attr_vals.attrlist4_len);
        e->attrs.attr_vals.attrlist4_val = (char *)ab;
        top = ab;
        memcpy(wp, words, sizeof(words));
        e->attrs.attrmask.bitmap4_val = wp;
        e->cookie = pos.cookie;
        e->name.utf8string_len = (u_int)nl;
        e->name.utf8string_val = (char *)pos.name;
        e->nextentry = NULL;
        if (last != NULL)
            last->nextentry = e;
        else
            first = e;
        last = e;
        buf = (uint8_t *)(wp + SV4_ATTR_WORDS);
        buf += (8 - (uintptr_t)buf % 8) % 8;
        cookie = pos.cookie;
        count++;
    }
    if (more < 0)
        return res->status = NFS4ERR_BAD_COOKIE;
    if (count == 0 && more == 1)
        return res->status = NFS4ERR_TOOSMALL;
    memcpy(ok->cookieverf, verf, NFS4_VERIFIER_SIZE);
    ok->reply.entries = first;
    ok->reply.eof = more == 0;
    return res->status = NFS4_OK;
}

/* ---- security flavours ------------------------------------------------------ */

/* AUTH_SYS, then AUTH_NONE: what every export accepts. */
static void flavours(struct sv4_call *x, SECINFO4res *res)
{
    memset(x->sec, 0, sizeof(x->sec));
    x->sec[0].flavor = AUTH_SYS;
    x->sec[1].flavor = AUTH_NONE;
    res->SECINFO4res_u.resok4.SECINFO4resok_len = 2;
    res->SECINFO4res_u.resok4.SECINFO4resok_val = x->sec;
}

nfsstat4 sv4_op_secinfo(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    SECINFO4res *res = &r->nfs_resop4_u.opsecinfo;
    char name[SV_NAME_MAX + 1];
    struct sv_node *dir, *n;

    if ((res->status = sv4_cur(x, &dir)) != NFS4_OK)
        return res->status;
    if ((res->status = need_dir(dir)) == NFS4ERR_SYMLINK)
        res->status = NFS4ERR_NOTDIR;
    if (res->status == NFS4_OK)
        res->status = sv4_name(&a->nfs_argop4_u.opsecinfo.name, name);
    if (res->status == NFS4_OK)
        res->status = sv4_status(sv__lookup(x->c, dir, name, &n));
    if (res->status != NFS4_OK)
        return res->status;
    flavours(x, res);
    if (x->minor > 0)
        x->cur.set = 0; /* RFC 8881 18.29.3: SECINFO consumes the handle */
    return NFS4_OK;
}

nfsstat4 sv4_op_secinfo_no_name(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    SECINFO4res *res = &r->nfs_resop4_u.opsecinfo_no_name;
    struct sv_node *n;

    if ((res->status = sv4_cur(x, &n)) != NFS4_OK)
        return res->status;
    switch (a->nfs_argop4_u.opsecinfo_no_name) {
    case SECINFO_STYLE4_CURRENT_FH:
        break;
    case SECINFO_STYLE4_PARENT:
        if (n->type != SV_DIR)
            return res->status = NFS4ERR_NOTDIR;
        if (n == sv__fs_root(x->c->fs))
            return res->status = NFS4ERR_NOENT;
        break;
    default:
        return res->status = NFS4ERR_INVAL;
    }
    flavours(x, res);
    x->cur.set = 0; /* RFC 8881 18.45.3: consumed */
    return NFS4_OK;
}

/* No named attributes (the named_attr attribute says so). */
nfsstat4 sv4_op_openattr(struct sv4_call *x, nfs_argop4 *a, nfs_resop4 *r)
{
    struct sv_node *n;
    nfsstat4 st = sv4_cur(x, &n);

    (void)a;
    return r->nfs_resop4_u.opopenattr.status = st == NFS4_OK ? NFS4ERR_NOTSUPP : st;
}
