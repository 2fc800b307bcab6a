/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * extended.c - the "extended" section (vd_int.h): what SFS 3.0 never
 * checked (docs/SFS30.md §19, "not exercised").  NFSv3: FSSTAT (free <=
 * total, available <= free), FSINFO (preferred sizes within the maxima,
 * maxfilesize, the LINK and SYMLINK properties against what worked),
 * COMMIT (commit.c), PATHCONF (linkmax and name_max against what worked,
 * FSF3_HOMOGENEOUS, a name of name_max bytes accepted and one byte more
 * refused with NAMETOOLONG under no_trunc), ACCESS (only bits asked for;
 * what the calls did must be granted), MKNOD (a FIFO and a character device
 * with their type and numbers, NOTSUPP allowed; a regular file refused with
 * BADTYPE), and the restart check last.  NFSv2: STATFS.  Each deviation is
 * a W naming the RFC section.
 */
#include <stdio.h>
#include <string.h>

#include "validate/vd_int.h"

#define NAME_TEST_MAX 1000 /* longer names are not tried (NFS3_MAXNAMLEN 1024) */
#define ALL_ACCESS                                                                       \
    (ACCESS3_READ | ACCESS3_LOOKUP | ACCESS3_MODIFY | ACCESS3_EXTEND | ACCESS3_DELETE |  \
     ACCESS3_EXECUTE)
#define CHR_MAJOR 1 /* the numbers of /dev/null on Linux */
#define CHR_MINOR 3

static int statfs_v2(struct vd_ctx *v)
{
    const char *rfc = vd_rfc(v, NF_OP_FSSTAT);
    nfs_fh a;
    statfsres res;
    int rc;

    (void)nf_fh_to_v2(&v->workdir, &a);
    rc = vd2_statfs(v, &a, &res);
    if (rc < 0)
        return vd_fail_call(v, NF_OP_FSSTAT, "STATFS", rc);
    if (res.status != NFS_OK)
        rc =
            vd_deviation(v, "STATFS: %s (%s)", nf_status_name((uint32_t)res.status), rfc);
    else {
        const statfsokres *s = &res.statfsres_u.reply;

        vd_detail(v, "STATFS: tsize %u, bsize %u, blocks %u, bfree %u, bavail %u",
                  s->tsize, s->bsize, s->blocks, s->bfree, s->bavail);
        if (s->bsize == 0 || s->bfree > s->blocks || s->bavail > s->bfree)
            rc = vd_deviation(
                v,
                "STATFS: bsize %u, blocks %u, bfree %u, bavail %u: bsize must be "
                "positive and bavail <= bfree <= blocks (%s)",
                s->bsize, s->blocks, s->bfree, s->bavail, rfc);
    }
    vd2_statfs_free(&res);
    return rc;
}

/* The fileid of post-op attributes of validatedir, if given, must be its. */
static int workdir_attr(struct vd_ctx *v, const post_op_attr *p, const char *via, int op)
{
    struct vd_res r;

    memset(&r, 0, sizeof(r));
    vd3_post_op(p, &r);
    if (!r.have_attr || r.attr.fileid == v->workdir_attr.fileid)
        return 0;
    return vd_deviation(
        v, "%s: the attributes returned are of fileid %llu, not of %s (%llu) (%s)", via,
        (unsigned long long)r.attr.fileid, VD_WORKDIR,
        (unsigned long long)v->workdir_attr.fileid, vd_rfc(v, op));
}

static int fsstat3(struct vd_ctx *v)
{
    const char *rfc = vd_rfc(v, NF_OP_FSSTAT);
    FSSTAT3args a;
    FSSTAT3res res;
    int rc;

    nf_fh_to_v3(&v->workdir, &a.fsroot);
    rc = vd3_fsstat(v, &a, &res);
    if (rc < 0)
        return vd_fail_call(v, NF_OP_FSSTAT, "FSSTAT", rc);
    if (res.status != NFS3_OK) {
        rc =
            vd_deviation(v, "FSSTAT: %s (%s)", nf_status_name((uint32_t)res.status), rfc);
    } else {
        const FSSTAT3resok *s = &res.FSSTAT3res_u.resok;

        vd_detail(v,
                  "FSSTAT: bytes %llu total, %llu free, %llu available; files %llu, "
                  "%llu, %llu",
                  (unsigned long long)s->tbytes, (unsigned long long)s->fbytes,
                  (unsigned long long)s->abytes, (unsigned long long)s->tfiles,
                  (unsigned long long)s->ffiles, (unsigned long long)s->afiles);
        if (s->fbytes > s->tbytes || s->abytes > s->fbytes || s->ffiles > s->tfiles ||
            s->afiles > s->ffiles)
            rc = vd_deviation(
                v,
                "FSSTAT: abytes %llu <= fbytes %llu <= tbytes %llu and afiles "
                "%llu <= ffiles %llu <= tfiles %llu must hold (%s)",
                (unsigned long long)s->abytes, (unsigned long long)s->fbytes,
                (unsigned long long)s->tbytes, (unsigned long long)s->afiles,
                (unsigned long long)s->ffiles, (unsigned long long)s->tfiles, rfc);
        if (rc == 0)
            rc = workdir_attr(v, &s->obj_attributes, "FSSTAT", NF_OP_FSSTAT);
    }
    vd3_fsstat_free(&res);
    return rc;
}

static int fsinfo_checks(struct vd_ctx *v, const FSINFO3resok *s)
{
    const char *rfc = vd_rfc(v, NF_OP_FSINFO);
    uint64_t written = vd_file_length(0);
    int rc = 0;

    vd_detail(v,
              "FSINFO: read %u/%u/%u, write %u/%u/%u (max/pref/mult), dtpref %u, "
              "maxfilesize %llu, properties %#x",
              s->rtmax, s->rtpref, s->rtmult, s->wtmax, s->wtpref, s->wtmult, s->dtpref,
              (unsigned long long)s->maxfilesize, s->properties);
    if (s->rtmax == 0 || s->wtmax == 0 || s->dtpref == 0 || s->rtpref > s->rtmax ||
        s->wtpref > s->wtmax)
        rc = vd_deviation(
            v,
            "FSINFO: rtmax %u, rtpref %u, wtmax %u, wtpref %u, dtpref %u: the "
            "maxima and dtpref must be positive and the preferred sizes within "
            "the maxima (%s)",
            s->rtmax, s->rtpref, s->wtmax, s->wtpref, s->dtpref, rfc);
    if (rc == 0 && s->maxfilesize < written)
        rc = vd_deviation(
            v, "FSINFO: maxfilesize %llu, yet a file of %llu bytes was written (%s)",
            (unsigned long long)s->maxfilesize, (unsigned long long)written, rfc);
    if (rc == 0 && !(s->properties & FSF3_LINK))
        rc = vd_deviation(v, "FSINFO: FSF3_LINK is clear, yet LINK made hard links (%s)",
                          rfc);
    if (rc == 0 && !(s->properties & FSF3_SYMLINK))
        rc = vd_deviation(v, "FSINFO: FSF3_SYMLINK is clear, yet SYMLINK made links (%s)",
                          rfc);
    return rc;
}

static int fsinfo3(struct vd_ctx *v)
{
    FSINFO3args a;
    FSINFO3res res;
    int rc;

    nf_fh_to_v3(&v->workdir, &a.fsroot);
    rc = vd3_fsinfo(v, &a, &res);
    if (rc < 0)
        return vd_fail_call(v, NF_OP_FSINFO, "FSINFO", rc);
    if (res.status != NFS3_OK) {
        rc = vd_deviation(v, "FSINFO: %s (%s)", nf_status_name((uint32_t)res.status),
                          vd_rfc(v, NF_OP_FSINFO));
    } else {
        v->fsinfo_properties = res.FSINFO3res_u.resok.properties;
        rc = fsinfo_checks(v, &res.FSINFO3res_u.resok);
        if (rc == 0)
            rc = workdir_attr(v, &res.FSINFO3res_u.resok.obj_attributes, "FSINFO",
                              NF_OP_FSINFO);
    }
    vd3_fsinfo_free(&res);
    return rc;
}

/* PATHCONF of one object: 1 with *out, 0 after a W, or the run's stop. */
static int pathconf_call(struct vd_ctx *v, const struct nf_fh *fh, const char *what,
                         PATHCONF3resok *out)
{
    PATHCONF3args a;
    PATHCONF3res res;
    int rc;

    nf_fh_to_v3(fh, &a.object);
    rc = vd3_pathconf(v, &a, &res);
    if (rc < 0)
        return vd_fail_call(v, NF_OP_PATHCONF, "PATHCONF", rc);
    if (res.status == NFS3_OK) {
        *out = res.PATHCONF3res_u.resok;
        rc = 1;
    } else {
        rc =
            vd_deviation(v, "PATHCONF of %s: %s (%s)", what,
                         nf_status_name((uint32_t)res.status), vd_rfc(v, NF_OP_PATHCONF));
    }
    vd3_pathconf_free(&res);
    return rc;
}

static int same_pathconf(const PATHCONF3resok *a, const PATHCONF3resok *b)
{
    return a->linkmax == b->linkmax && a->name_max == b->name_max &&
           !a->no_trunc == !b->no_trunc && !a->chown_restricted == !b->chown_restricted &&
           !a->case_insensitive == !b->case_insensitive &&
           !a->case_preserving == !b->case_preserving;
}

/* A name of name_max bytes must be accepted; under no_trunc one byte more
 * must be refused with NAMETOOLONG. */
static int name_lengths(struct vd_ctx *v, const PATHCONF3resok *pc)
{
    const char *rfc = vd_rfc(v, NF_OP_PATHCONF);
    char name[NAME_TEST_MAX + 2];
    struct vd_res r;
    int st, rc = 0;

    if (pc->name_max == 0 || pc->name_max > NAME_TEST_MAX) {
        vd_info(v, "name_max %u: name lengths not tried", pc->name_max);
        return 0;
    }
    memset(name, 'x', pc->name_max);
    name[pc->name_max] = '\0';
    st = v->p->create(v, &v->workdir, name, 0666, &r);
    if (st < 0)
        return vd_fail_call(v, NF_OP_CREATE, "CREATE of a name_max name", st);
    if (st != NF_ST_OK)
        rc = vd_deviation(
            v, "PATHCONF: name_max %u, yet CREATE of a name that long: %s (%s)",
            pc->name_max, nf_status_name((uint32_t)st), rfc);
    else
        (void)v->p->remove(v, &v->workdir, name);
    if (rc < 0 || !pc->no_trunc)
        return rc;
    name[pc->name_max] = 'x';
    name[pc->name_max + 1] = '\0';
    st = v->p->create(v, &v->workdir, name, 0666, &r);
    if (st < 0)
        return vd_fail_call(v, NF_OP_CREATE, "CREATE of a name beyond name_max", st);
    if (st == NF_ST_NAMETOOLONG)
        return 0;
    if (st == NF_ST_OK)
        (void)v->p->remove(v, &v->workdir, name);
    return vd_deviation(
        v,
        "PATHCONF: no_trunc and name_max %u, yet CREATE of a name of %u bytes "
        "answered %s, not NAMETOOLONG (%s)",
        pc->name_max, pc->name_max + 1, nf_status_name((uint32_t)st), rfc);
}

static int pathconf3(struct vd_ctx *v)
{
    const char *rfc = vd_rfc(v, NF_OP_PATHCONF);
    PATHCONF3resok dir, file;
    size_t longest = 0;
    int i, rc;

    for (i = 0; i < v->nobj; i++)
        if (strlen(v->obj[i].name) > longest)
            longest = strlen(v->obj[i].name);
    rc = pathconf_call(v, &v->workdir, VD_WORKDIR, &dir);
    if (rc <= 0)
        return rc;
    vd_detail(v,
              "PATHCONF: linkmax %u, name_max %u, no_trunc %d, chown_restricted %d, "
              "case_insensitive %d, case_preserving %d",
              dir.linkmax, dir.name_max, dir.no_trunc, dir.chown_restricted,
              dir.case_insensitive, dir.case_preserving);
    if (dir.linkmax < 2)
        rc = vd_deviation(v, "PATHCONF: linkmax %u, yet files had 2 links (%s)",
                          dir.linkmax, rfc);
    if (rc == 0 && dir.name_max < longest)
        rc = vd_deviation(v,
                          "PATHCONF: name_max %u, yet names of %zu bytes were made (%s)",
                          dir.name_max, longest, rfc);
    if (rc == 0 && (v->fsinfo_properties & FSF3_HOMOGENEOUS) && v->ext_file >= 0) {
        rc = pathconf_call(v, &v->obj[v->ext_file].fh, v->obj[v->ext_file].name, &file);
        if (rc > 0)
            rc = same_pathconf(&dir, &file)
                     ? 0
                     : vd_deviation(
                           v,
                           "PATHCONF differs between %s and a file, yet FSINFO says "
                           "FSF3_HOMOGENEOUS (%s)",
                           VD_WORKDIR, vd_rfc(v, NF_OP_FSINFO));
    }
    if (rc == 0)
        rc = name_lengths(v, &dir);
    return rc < 0 ? rc : 0;
}

/* ACCESS of one object: nothing beyond what was asked, and need granted. */
static int access_one(struct vd_ctx *v, const struct nf_fh *fh, const char *what,
                      uint32_t need, const char *because)
{
    const char *rfc = vd_rfc(v, NF_OP_ACCESS);
    ACCESS3args a;
    ACCESS3res res;
    int rc;

    nf_fh_to_v3(fh, &a.object);
    a.access = ALL_ACCESS;
    rc = vd3_access(v, &a, &res);
    if (rc < 0)
        return vd_fail_call(v, NF_OP_ACCESS, "ACCESS", rc);
    if (res.status != NFS3_OK) {
        rc = vd_deviation(v, "ACCESS of %s: %s (%s)", what,
                          nf_status_name((uint32_t)res.status), rfc);
    } else {
        uint32_t got = res.ACCESS3res_u.resok.access;

        vd_detail(v, "ACCESS of %s: asked %#x, granted %#x", what, a.access, got);
        /* both checks: a server that grants bits never asked for may also
         * withhold the ones that work */
        if (got & ~a.access)
            rc = vd_deviation(v,
                              "ACCESS of %s: granted %#x, beyond the %#x asked for (%s)",
                              what, got, a.access, rfc);
        if (rc == 0 && (got & need) != need)
            rc = vd_deviation(v, "ACCESS of %s: granted %#x, yet %s (%#x) worked (%s)",
                              what, got, because, need, rfc);
    }
    vd3_access_free(&res);
    return rc;
}

static int access3(struct vd_ctx *v)
{
    int rc = 0;

    if (v->ext_file >= 0)
        rc = access_one(v, &v->obj[v->ext_file].fh, v->obj[v->ext_file].name,
                        ACCESS3_READ | ACCESS3_MODIFY | ACCESS3_EXTEND,
                        "READ, WRITE and a growing WRITE");
    if (rc == 0)
        rc = access_one(v, &v->workdir, VD_WORKDIR,
                        ACCESS3_READ | ACCESS3_LOOKUP | ACCESS3_MODIFY | ACCESS3_EXTEND |
                            ACCESS3_DELETE,
                        "READDIR, LOOKUP, CREATE and REMOVE in it");
    return rc;
}

/* One MKNOD of validatedir/name: the status, the handle and attributes in r. */
static int mknod_call(struct vd_ctx *v, const char *name, ftype3 type, struct vd_res *r)
{
    MKNOD3args a;
    MKNOD3res res;
    sattr3 *s = NULL;
    int rc;

    memset(&a, 0, sizeof(a));
    memset(r, 0, sizeof(*r));
    nf_fh_to_v3(&v->workdir, &a.where.dir);
    a.where.name = (char *)(uintptr_t)name;
    a.what.type = type;
    if (type == NF3CHR || type == NF3BLK) {
        s = &a.what.mknoddata3_u.device.dev_attributes;
        a.what.mknoddata3_u.device.spec.specdata1 = CHR_MAJOR;
        a.what.mknoddata3_u.device.spec.specdata2 = CHR_MINOR;
    } else if (type == NF3FIFO || type == NF3SOCK) {
        s = &a.what.mknoddata3_u.pipe_attributes;
    }
    if (s) {
        s->mode.set_it = TRUE;
        s->mode.set_mode3_u.mode = 0644;
    }
    rc = vd3_mknod(v, &a, &res);
    if (rc == 0 && res.status == NFS3_OK) {
        const MKNOD3resok *ok = &res.MKNOD3res_u.resok;

        vd3_new_obj(&ok->obj, &ok->obj_attributes, r);
    }
    return vd3_mknod_done(rc, &res);
}

/* A special file: made (or NOTSUPP/PERM/ACCES, allowed), then its type and
 * device numbers in the reply and by GETATTR, then removed. */
static int mknod_special(struct vd_ctx *v, const char *name, ftype3 type)
{
    const char *rfc = vd_rfc(v, NF_OP_MKNOD);
    int dev = type == NF3CHR;
    struct vd_res r;
    int st, rc = 0;

    st = mknod_call(v, name, type, &r);
    if (st < 0)
        return vd_fail_call(v, NF_OP_MKNOD, name, st);
    if (st == NF_ST_NOTSUPP || st == NF_ST_PERM || st == NF_ST_ACCES) {
        vd_info(v, "MKNOD %s: %s: the server does not make this kind of file for us",
                name, nf_status_name((uint32_t)st));
        return 0;
    }
    if (st != NF_ST_OK)
        return vd_deviation(v, "MKNOD %s: %s (%s)", name, nf_status_name((uint32_t)st),
                            rfc);
    if (!r.have_fh)
        st = v->p->lookup(v, &v->workdir, name, &r);
    if (st == NF_ST_OK) {
        struct nf_fh fh = r.fh; /* getattr clears r first */

        st = v->p->getattr(v, &fh, &r);
    }
    if (st != NF_ST_OK)
        rc =
            vd_deviation(v, "MKNOD %s: made, then LOOKUP or GETATTR: %s (%s)", name,
                         st < 0 ? rp_status_text(st) : nf_status_name((uint32_t)st), rfc);
    else if (r.attr.type != (uint32_t)type ||
             (dev && (r.attr.rdev1 != CHR_MAJOR || r.attr.rdev2 != CHR_MINOR)))
        rc = vd_deviation(
            v, "MKNOD %s: asked type %d%s, GETATTR says type %u, rdev %u,%u (%s)", name,
            (int)type, dev ? " with rdev 1,3" : "", r.attr.type, r.attr.rdev1,
            r.attr.rdev2, rfc);
    else
        vd_detail(v, "MKNOD %s: type %u%s", name, r.attr.type, dev ? ", rdev 1,3" : "");
    (void)v->p->remove(v, &v->workdir, name);
    return rc;
}

static int mknod3(struct vd_ctx *v)
{
    const char *rfc = vd_rfc(v, NF_OP_MKNOD);
    struct vd_res r;
    int st, rc;

    rc = mknod_special(v, "ext_fifo", NF3FIFO);
    if (rc == 0)
        rc = mknod_special(v, "ext_chr", NF3CHR);
    if (rc < 0)
        return rc;
    /* MKNOD makes special files only: a regular file is a bad type */
    st = mknod_call(v, "ext_reg", NF3REG, &r);
    if (st < 0)
        return vd_fail_call(v, NF_OP_MKNOD, "ext_reg", st);
    if (st == NF_ST_BADTYPE)
        return 0;
    if (st == NF_ST_OK)
        (void)v->p->remove(v, &v->workdir, "ext_reg");
    return vd_deviation(v, "MKNOD of type NF3REG answered %s, not BADTYPE (%s)",
                        nf_status_name((uint32_t)st), rfc);
}

int vd_step_extended(struct vd_ctx *v)
{
    int rc;

    vd_begin(v, "extended", "%s (beyond SFS 3.0)",
             v->p->version == 2   ? "STATFS"
             : v->p->version == 4 ? "none over NFSv4.1"
                                  : "FSSTAT, FSINFO, COMMIT, PATHCONF, ACCESS, MKNOD");
    if (v->p->version == 4) {
        vd_info(v, "not run over NFSv4.1 yet: FSSTAT, FSINFO and PATHCONF (GETATTR of "
                   "their attributes), COMMIT, ACCESS and MKNOD (CREATE) are checked "
                   "over NFSv3 (sfs3 -V)");
        return 0;
    }
    if (v->p->version == 2) {
        rc = statfs_v2(v);
        if (rc == 0)
            vd_info(v, "FSINFO, PATHCONF, ACCESS, COMMIT and MKNOD are NFSv3 procedures");
        return rc;
    }
    rc = fsstat3(v);
    if (rc == 0)
        rc = fsinfo3(v);
    if (rc == 0)
        rc = vd_extended_commit(v);
    if (rc == 0)
        rc = pathconf3(v);
    if (rc == 0)
        rc = access3(v);
    if (rc == 0)
        rc = mknod3(v);
    if (rc == 0)
        rc = vd_extended_restart(v);
    return rc;
}
