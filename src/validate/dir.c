/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dir.c - the directory steps (vd_int.h; docs/SFS30.md §19 steps 6 and 7).
 * READDIR (v3: cookie 0, count 8192, on to eof; v2: about 9 entries a
 * call) must name every object exactly once with its fileid ("not found",
 * "returned more than once", "fileid mismatch", names "not created within
 * the validation").  READDIRPLUS (v3, dircount = maxcount = 8192) the same,
 * and every entry must carry attributes (compared) and the object's handle;
 * SFS 3.0's completeness check: a reply that is not the last and holds less
 * than 80 % of maxcount in entries is short, and more than one short reply
 * is an error ("did not return a reasonable amount of data").
 */
#include <string.h>

#include "validate/vd_int.h"

#define MAX_DIR_CALLS  256 /* bound on one listing */
#define RDPLUS_COUNT   8192
#define REASONABLE_PCT 80
#define FATTR3_XDR     84 /* bytes of an encoded fattr3 */

struct listing {
    unsigned char seen[VD_MAX_OBJS];
    unsigned entries; /* every entry but "." and ".." */
    int op;           /* NF_OP_READDIR or NF_OP_READDIRPLUS */
    int rc;           /* the first stop */
};

static uint32_t pad4(size_t n)
{
    return (uint32_t)((n + 3) & ~(size_t)3);
}

/* Checks one entry's name and fileid.  *out is the object when the entry
 * is one of the set seen for the first time, else NULL ("." and "..", or a
 * problem that was reported).  0 or the run's stop. */
static int check_entry(struct vd_ctx *v, struct listing *ls, const char *name,
                       uint64_t fileid, struct vd_obj **out)
{
    const char *rfc = vd_rfc(v, ls->op);
    struct vd_obj *o;
    uint64_t want;

    *out = NULL;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return 0;
    ls->entries++;
    if (v->p->version == 2 && fileid == 0)
        return vd_warn(v, "%s: entry marked invalid (fileid 0) (%s)", name, rfc);
    o = vd_object_named(v, name);
    if (!o || !o->exists)
        return vd_warn(v, "%s: not created within the validation (%s)", name, rfc);
    if (ls->seen[o - v->obj]++)
        return vd_warn(v, "%s: returned more than once (%s)", name, rfc);
    want = v->attrs[o->ino].fileid;
    if (want != VD_UNKNOWN64 && want != fileid)
        return vd_warn(v, "%s: fileid mismatch: %llu, expected %llu (%s)", name,
                       (unsigned long long)fileid, (unsigned long long)want, rfc);
    *out = o;
    return 0;
}

/* After a listing: every object must have been seen; in v2, as SFS 3.0
 * counted, no more entries than objects. */
static int missing(struct vd_ctx *v, const struct listing *ls)
{
    int i, rc = 0, n = 0;

    for (i = 0; i < v->nobj; i++)
        n += v->obj[i].exists;
    if (v->p->version == 2 && ls->entries > (unsigned)n)
        rc = vd_warn(v, "valid entries exceeded maximum: %u entries for %d objects (%s)",
                     ls->entries, n, vd_rfc(v, ls->op));
    for (i = 0; i < v->nobj && rc == 0; i++)
        if (v->obj[i].exists && !ls->seen[i])
            rc = vd_warn(v, "%s: not found (%s)", v->obj[i].name, vd_rfc(v, ls->op));
    return rc;
}

static int on_entry(struct vd_ctx *v, const char *name, uint64_t fileid, void *data)
{
    struct listing *ls = data;
    struct vd_obj *o;
    int rc = check_entry(v, ls, name, fileid, &o);

    if (rc < 0 && ls->rc == 0)
        ls->rc = rc;
    return rc;
}

/* A whole listing of validatedir with the adapter's call for op (READDIR,
 * or v4's READDIR with the attributes `ls -l` asks for readdirplus). */
static int list_all(struct vd_ctx *v, int op)
{
    struct listing ls;
    struct vd_cursor cur;
    struct vd_res r;
    unsigned calls;
    int st;

    memset(&ls, 0, sizeof(ls));
    memset(&cur, 0, sizeof(cur));
    ls.op = op;
    for (calls = 0; calls < MAX_DIR_CALLS; calls++) {
        st = op == NF_OP_READDIR
                 ? v->p->readdir(v, &v->workdir, &cur, on_entry, &ls, &r)
                 : v->p->readdir_plus(v, &v->workdir, &cur, on_entry, &ls, &r);
        if (st != NF_ST_OK)
            return vd_fail_call(v, op, "READDIR", st);
        if (ls.rc < 0)
            return ls.rc;
        vd_detail(v, "READDIR: %u entries%s", r.count, r.eof == 1 ? ", eof" : "");
        if (r.eof == 1)
            return missing(v, &ls);
        if (r.count == 0)
            return vd_error(v, "READDIR returned no entry and no eof at cookie %llu (%s)",
                            (unsigned long long)cur.cookie, vd_rfc(v, op));
    }
    return vd_error(v, "READDIR did not reach eof in %d calls", MAX_DIR_CALLS);
}

int vd_step_readdir(struct vd_ctx *v)
{
    vd_begin(v, "readdir", "cookie 0, %u bytes a call, to eof", v->p->readdir_count);
    return list_all(v, NF_OP_READDIR);
}

/* One READDIRPLUS entry: name, fileid, attributes and handle. */
static int plus_entry(struct vd_ctx *v, struct listing *ls, const entryplus3 *e)
{
    const char *rfc = vd_rfc(v, NF_OP_READDIRPLUS);
    struct vd_obj *o;
    struct vd_res r;
    int rc = check_entry(v, ls, e->name ? e->name : "", e->fileid, &o);

    if (rc < 0 || !o)
        return rc;
    memset(&r, 0, sizeof(r));
    vd3_post_op(&e->name_attributes, &r);
    if (!r.have_attr)
        rc = vd_warn(v, "%s: did not receive post op attributes (%s)", o->name, rfc);
    else
        rc = vd_attr_check(v, o, &r.attr, 0, "READDIRPLUS", NF_OP_READDIRPLUS);
    if (rc < 0)
        return rc;
    if (!e->name_handle.handle_follows)
        return vd_warn(v, "%s: did not receive file handle (%s)", o->name, rfc);
    if (nf_fh_from_v3(&r.fh, &e->name_handle.post_op_fh3_u.handle) < 0 ||
        !nf_fh_equal(&r.fh, &o->fh))
        return vd_warn(v, "%s: filehandles do not match (%s)", o->name, rfc);
    return 0;
}

/* The entries' share of a reply as SFS 3.0 counts it: fileid, name,
 * cookie, attributes, the handle flag and the handle. */
static uint32_t entry_bytes(const entryplus3 *e)
{
    uint32_t n = 8 + 4 + pad4(e->name ? strlen(e->name) : 0) + 8 + 4 + 4;

    if (e->name_attributes.attributes_follow)
        n += FATTR3_XDR;
    if (e->name_handle.handle_follows)
        n += 4 + pad4(e->name_handle.post_op_fh3_u.handle.data.data_len);
    return n;
}

/* One READDIRPLUS call: its entries checked, *bytes counted. */
static int plus_call(struct vd_ctx *v, struct listing *ls, READDIRPLUS3args *a, int *eof,
                     uint32_t *bytes, unsigned *n)
{
    READDIRPLUS3res res;
    const entryplus3 *e;
    int rc = 0;

    rc = vd3_readdirplus(v, a, &res);
    if (rc < 0)
        return vd_fail_call(v, NF_OP_READDIRPLUS, "READDIRPLUS", rc);
    if (res.status != NFS3_OK) {
        rc = vd_fail_call(v, NF_OP_READDIRPLUS, "READDIRPLUS", (int)res.status);
    } else {
        const READDIRPLUS3resok *ok = &res.READDIRPLUS3res_u.resok;

        memcpy(a->cookieverf, ok->cookieverf, sizeof(a->cookieverf));
        for (e = ok->reply.entries; e; e = e->nextentry) {
            if (rc == 0)
                rc = plus_entry(v, ls, e);
            *bytes += entry_bytes(e);
            a->cookie = e->cookie;
            (*n)++;
        }
        *eof = ok->reply.eof ? 1 : 0;
    }
    vd3_readdirplus_free(&res);
    return rc;
}

int vd_step_readdirplus(struct vd_ctx *v)
{
    READDIRPLUS3args a;
    struct listing ls;
    unsigned calls, shorts = 0;
    int rc;

    if (v->p->readdir_plus) {
        vd_begin(v, "readdirplus",
                 "READDIR with the attributes ls -l asks, %u bytes a call, to eof",
                 v->p->readdir_count);
        return list_all(v, NF_OP_READDIRPLUS);
    }
    if (v->p->version != 3)
        return 0;
    vd_begin(v, "readdirplus", "dircount = maxcount = %d, to eof", RDPLUS_COUNT);
    memset(&ls, 0, sizeof(ls));
    memset(&a, 0, sizeof(a));
    ls.op = NF_OP_READDIRPLUS;
    nf_fh_to_v3(&v->workdir, &a.dir);
    a.dircount = RDPLUS_COUNT;
    a.maxcount = RDPLUS_COUNT;
    for (calls = 0; calls < MAX_DIR_CALLS; calls++) {
        uint32_t bytes = 0;
        unsigned n = 0;
        int eof = 0;

        rc = plus_call(v, &ls, &a, &eof, &bytes, &n);
        if (rc < 0)
            return rc;
        vd_detail(v, "READDIRPLUS: %u entries, %u bytes of entries%s", n, bytes,
                  eof ? ", eof" : "");
        if (eof)
            return missing(v, &ls);
        if (n == 0)
            return vd_error(v, "READDIRPLUS returned no entry and no eof (%s)",
                            vd_rfc(v, NF_OP_READDIRPLUS));
        if ((uint64_t)bytes * 100 < (uint64_t)RDPLUS_COUNT * REASONABLE_PCT &&
            ++shorts > 1)
            return vd_error(v,
                            "did not return a reasonable amount of data: %u bytes of "
                            "entries in a reply of at most %d that was not the last "
                            "(the %u-th such reply; %d %% expected)",
                            bytes, RDPLUS_COUNT, shorts, REASONABLE_PCT);
    }
    return vd_error(v, "READDIRPLUS did not reach eof in %d calls", MAX_DIR_CALLS);
}
