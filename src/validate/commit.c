/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * commit.c - the COMMIT checks of the extended section (vd_int.h; beyond
 * SFS 3.0, RFC 1813 sections 3.3.7 and 3.3.21).  UNSTABLE WRITEs to a new
 * file must all carry the verifier of the FILE_SYNC writes before them; two
 * COMMITs must return that same verifier; the committed data are read back
 * through libnfs.  With a restart command, the server is restarted and the
 * verifier must then differ, so that a client knows to write uncommitted
 * data again: a server whose handles survive (files on disk) is asked
 * COMMIT on the same file, whose committed data must have survived too; a
 * server that keeps nothing across restarts (STALE handles, as sfs_nfsd) is
 * asked for a new file's WRITE and COMMIT verifiers.
 */
#include <stdio.h>
#include <string.h>

#include "nfs/nf_lnfs.h"
#include "validate/vd_int.h"
#include "common/error.h"

#define COMMIT_BLOCKS       3
#define UNSTABLE_WRITE      0  /* stable_how UNSTABLE */
#define RESTART_MOUNT_TRIES 60 /* while the server comes back: <= 60 x 2.2 s */

static int commit_call(struct vd_ctx *v, const struct nf_fh *fh, uint8_t verf[8],
                       struct vd_res *r)
{
    COMMIT3args a;
    COMMIT3res res;
    int rc;

    memset(r, 0, sizeof(*r));
    nf_fh_to_v3(fh, &a.file);
    a.offset = 0;
    a.count = 0; /* to the end of the file */
    if ((rc = vd3_commit(v, &a, &res)) == 0 && res.status == NFS3_OK) {
        memcpy(verf, res.COMMIT3res_u.resok.verf, 8);
        vd3_post_op(&res.COMMIT3res_u.resok.file_wcc.after, r);
    }
    return vd3_commit_done(rc, &res);
}

static unsigned long long verf64(const uint8_t v[8])
{
    unsigned long long x = 0;
    int i;

    for (i = 0; i < 8; i++)
        x = x << 8 | v[i];
    return x;
}

/* Makes (or makes again) the extended section's file. */
static int make_file(struct vd_ctx *v, struct vd_obj *o)
{
    struct vd_res r;
    int st;

    vd_attr_expect(v, &v->attrs[o->ino], VD_FILE);
    st = v->p->create(v, &v->workdir, o->name, 0666, &r);
    if (st == NF_ST_OK && !r.have_fh)
        st = v->p->lookup(v, &v->workdir, o->name, &r);
    if (st != NF_ST_OK)
        return vd_fail_call(v, NF_OP_CREATE, o->name, st);
    o->fh = r.fh;
    o->exists = 1;
    return 0;
}

/* blocks UNSTABLE WRITEs of 8 KB from data; *verf is their verifier (a W
 * when they differ).  0 or the run's stop. */
static int write_unstable(struct vd_ctx *v, struct vd_obj *o, const uint8_t *data,
                          unsigned blocks, uint8_t verf[8])
{
    struct vd_res r;
    unsigned b, changed = 0;
    int rc;

    /* every block is written, whatever the verifiers: the size and the data
     * checked afterwards are those of all of them */
    for (b = 0; b < blocks; b++) {
        rc = vd_write_all(v, o, (uint64_t)b * VD_BLOCK_BYTES,
                          data + (size_t)b * VD_BLOCK_BYTES, VD_BLOCK_BYTES,
                          UNSTABLE_WRITE, &r);
        if (rc < 0)
            return rc;
        if (b == 0)
            memcpy(verf, r.verf, 8);
        else if (memcmp(verf, r.verf, 8) != 0)
            changed++;
    }
    v->attrs[o->ino].size = (uint64_t)blocks * VD_BLOCK_BYTES;
    o->length = v->attrs[o->ino].size;
    if (changed)
        return vd_warn(v,
                       "%s: the write verifier changed between UNSTABLE WRITEs (%u of "
                       "%u) (%s)",
                       o->name, changed, blocks - 1, vd_rfc(v, NF_OP_WRITE));
    return 0;
}

static void fill_data(uint8_t *data, unsigned blocks)
{
    unsigned b;

    for (b = 0; b < blocks; b++) /* full blocks of the first file's pattern */
        vd_block_fill(0, b, data + (size_t)b * VD_BLOCK_BYTES);
}

int vd_extended_commit(struct vd_ctx *v)
{
    uint8_t data[COMMIT_BLOCKS * VD_BLOCK_BYTES];
    uint8_t wverf[8], c1[8], c2[8];
    const char *rfc = vd_rfc(v, NF_OP_COMMIT);
    struct nf_lnfs *l;
    struct vd_obj *o;
    struct vd_res r;
    int st, rc;

    o = vd_object_add(v, "ext_commit", VD_FILE);
    if (!o)
        return vd_error(v, "too many objects");
    v->ext_file = (int)(o - v->obj);
    if ((rc = make_file(v, o)) < 0)
        return rc;
    fill_data(data, COMMIT_BLOCKS);
    if ((rc = write_unstable(v, o, data, COMMIT_BLOCKS, wverf)) < 0)
        return rc;
    if (v->have_write_verf && memcmp(wverf, v->write_verf, 8) != 0 &&
        (rc = vd_warn(v,
                      "%s: UNSTABLE WRITEs returned verifier %016llx, the FILE_SYNC "
                      "WRITEs %016llx, and the server did not restart (%s)",
                      o->name, verf64(wverf), verf64(v->write_verf),
                      vd_rfc(v, NF_OP_WRITE))) < 0)
        return rc;
    st = commit_call(v, &o->fh, c1, &r);
    if (st == NF_ST_OK)
        st = commit_call(v, &o->fh, c2, &r);
    if (st < 0)
        return vd_fail_call(v, NF_OP_COMMIT, o->name, st);
    if (st != NF_ST_OK)
        return vd_warn(v, "%s: COMMIT: %s (%s)", o->name, nf_status_name((uint32_t)st),
                       rfc);
    memcpy(v->commit_verf, c1, 8);
    if (memcmp(c1, c2, 8) != 0 &&
        (rc = vd_warn(v,
                      "%s: two COMMITs returned the verifiers %016llx and %016llx: it "
                      "must not change while the server runs (%s)",
                      o->name, verf64(c1), verf64(c2), rfc)) < 0)
        return rc;
    if (memcmp(c1, wverf, 8) != 0 &&
        (rc = vd_warn(v,
                      "%s: COMMIT returned verifier %016llx, the WRITEs %016llx: a "
                      "client would send its data again forever (%s)",
                      o->name, verf64(c1), verf64(wverf), rfc)) < 0)
        return rc;
    if (r.have_attr && (rc = vd_attr_check(v, o, &r.attr, 0, "COMMIT", NF_OP_COMMIT)) < 0)
        return rc;
    vd_detail(v, "COMMIT verifier %016llx, the same in 2 COMMITs and %d WRITEs",
              verf64(c1), COMMIT_BLOCKS);
    rc = vd_lnfs_open(v, &l);
    if (rc <= 0)
        return rc;
    rc = vd_lnfs_compare(v, l, o->name, data, sizeof(data));
    nf_lnfs_close(l);
    return rc;
}

/* After a restart of a server whose handles went stale: a new file's WRITE
 * and COMMIT verifiers must differ from the old instance's. */
static int restart_new_file(struct vd_ctx *v, struct vd_obj *o, int st)
{
    const char *step = v->step;
    uint8_t data[VD_BLOCK_BYTES], wverf[8], cverf[8];
    struct vd_res r;
    int rc;

    vd_info(v,
            "%s: COMMIT after the restart: %s: the server keeps no files across "
            "restarts; a new file's verifiers are checked",
            o->name, nf_status_name((uint32_t)st));
    rc = vd_workdir_open(v);
    v->step = step;
    if (rc == 0)
        rc = make_file(v, o);
    if (rc < 0)
        return rc;
    vd_block_fill(0, 0, data);
    if ((rc = write_unstable(v, o, data, 1, wverf)) < 0)
        return rc;
    st = commit_call(v, &o->fh, cverf, &r);
    if (st != NF_ST_OK)
        return vd_fail_call(v, NF_OP_COMMIT, o->name, st);
    if (memcmp(wverf, v->commit_verf, 8) == 0 || memcmp(cverf, v->commit_verf, 8) == 0)
        return vd_warn(v,
                       "%s: the write verifier %016llx is the one from before the server "
                       "restarted: a client cannot tell that its unstable data were "
                       "lost (%s)",
                       o->name, verf64(cverf), vd_rfc(v, NF_OP_COMMIT));
    vd_detail(v, "verifier %016llx before the restart, %016llx after",
              verf64(v->commit_verf), verf64(cverf));
    return 0;
}

/* After a restart of a server whose handles survived: COMMIT on the same
 * file must return a new verifier, and the committed data must be there. */
static int restart_same_file(struct vd_ctx *v, struct vd_obj *o, const uint8_t verf[8])
{
    uint8_t data[COMMIT_BLOCKS * VD_BLOCK_BYTES];
    struct nf_lnfs *l;
    int rc;

    if (memcmp(verf, v->commit_verf, 8) == 0 &&
        (rc = vd_warn(v,
                      "%s: COMMIT returned the verifier %016llx from before the server "
                      "restarted: a client cannot tell that its unstable data may be "
                      "lost (%s)",
                      o->name, verf64(verf), vd_rfc(v, NF_OP_COMMIT))) < 0)
        return rc;
    vd_detail(v, "verifier %016llx before the restart, %016llx after",
              verf64(v->commit_verf), verf64(verf));
    fill_data(data, COMMIT_BLOCKS);
    rc = vd_lnfs_open(v, &l);
    if (rc <= 0)
        return rc;
    rc = vd_lnfs_compare(v, l, o->name, data, sizeof(data));
    nf_lnfs_close(l);
    return rc;
}

int vd_extended_restart(struct vd_ctx *v)
{
    char err[CM_ERR_LEN];
    struct vd_obj *o;
    struct vd_res r;
    uint8_t verf[8];
    int st;

    if (v->ext_file < 0)
        return 0;
    if (!v->o->restart_cmd || !v->o->restart_cmd[0]) {
        vd_info(v, "the COMMIT verifier across a server restart was not checked (no "
                   "--restart-cmd)");
        return 0;
    }
    o = &v->obj[v->ext_file];
    vd_detail(v, "restarting the server: %s", v->o->restart_cmd);
    vd_umount(v);
    v->mounted = 0;
    if (vd_run_restart(v->o, err, sizeof(err)) < 0)
        return vd_error(v, "%s", err);
    if (vd_mount(v, RESTART_MOUNT_TRIES, err, sizeof(err)) < 0)
        return vd_error(v, "mount after the restart: %s", err);
    st = commit_call(v, &o->fh, verf, &r);
    if (st == NF_ST_OK)
        return restart_same_file(v, o, verf);
    if (st == NF_ST_STALE || st == NF_ST_BADHANDLE)
        return restart_new_file(v, o, st);
    return vd_fail_call(v, NF_OP_COMMIT, o->name, st);
}
