/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * prep4.c - the image of an NFSv4 replay made, and its handles learnt,
 * over NFSv4.1 (nr_int.h): the same objects prep.c makes over v3, each by
 * the compound a 4.1 client sends for it (a file by OPEN(CREATE), its
 * start size written with that open's stateid, UNSTABLE, one COMMIT, then
 * CLOSE; a directory, symlink or special file by CREATE; a hard link by
 * LINK), and every handle noted from the GETFH that follows.  The largest
 * READ and WRITE are the server's (maxread, maxwrite) within what the
 * session's compounds may carry.  Calls here are synchronous (INIT, not
 * timed) and bounded by the client's timeouts.
 */
#include <errno.h>
#include <string.h>

#include "image/im.h"
#include "nfs/nf4_load.h"
#include "nreplay/nr_int.h"

#define COMPOUND_OVERHEAD 1024u /* a READ's or WRITE's compound beside its data */

static struct nf4_client *client(const struct nr_replay *rp)
{
    const struct nf4_mount *m = nf4_session_mount(&rp->cx.ses);

    return m ? m->cl : NULL;
}

void nr_prep4_maxima(struct nr_replay *rp)
{
    const struct nf4_mount *m = nf4_session_mount(&rp->cx.ses);
    struct nf4_client_stats st;
    uint64_t r, w;

    rp->rtmax = rp->wtmax = 32768;
    if (m == NULL)
        return;
    nf4_client_stats(m->cl, &st);
    r = m->root_attrs.maxread ? m->root_attrs.maxread : 32768;
    w = m->root_attrs.maxwrite ? m->root_attrs.maxwrite : 32768;
    if (st.max_response > COMPOUND_OVERHEAD && r > st.max_response - COMPOUND_OVERHEAD)
        r = st.max_response - COMPOUND_OVERHEAD;
    if (st.max_request > COMPOUND_OVERHEAD && w > st.max_request - COMPOUND_OVERHEAD)
        w = st.max_request - COMPOUND_OVERHEAD;
    rp->rtmax = (uint32_t)(r < RB_MAX_XFER ? r : RB_MAX_XFER);
    rp->wtmax = (uint32_t)(w < RB_MAX_XFER ? w : RB_MAX_XFER);
}

/* Runs the built compound rp->v4sync: its reply read out into r.  0 (the
 * NFS status in r->status), or -errno when no reply decoded. */
static int run(struct nr_replay *rp, struct nf4_sfs_result *r)
{
    struct nf4_client *cl = client(rp);
    int rc;

    if (cl == NULL)
        return -ENOTCONN;
    rp->v4sync.res.data = NULL;
    rp->v4sync.res.data_max = 0;
    rc = nf4_call_sync(cl, &rp->v4sync);
    if (rc < 0)
        return rc;
    nf4_sfs_result(&rp->v4sync.res, r);
    return 0;
}

/* Builds op's compound from a and runs it: 0, -errno, or the NFS status as
 * an errno (nf_status_errno). */
static int op_run(struct nr_replay *rp, int op, const struct nf4_sfs_args *a,
                  struct nf4_sfs_result *r)
{
    int rc = nf4_sfs_compound(&rp->v4sync.args, nf4_client_minor(client(rp)), op, a);

    if (rc == 0)
        rc = run(rp, r);
    if (rc == 0 && r->status != 0)
        rc = nf_status_errno(r->status);
    return rc;
}

int nr_prep4_lookup(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
                    struct nf_fh *out)
{
    struct nf4_sfs_args a;
    struct nf4_sfs_result r;
    struct nf4_fh h;
    int rc;

    if (client(rp) == NULL)
        return -ENOTCONN;
    memset(&a, 0, sizeof(a));
    nf4_fh_from_nf(dir, &h);
    a.fh = &h;
    a.name = name;
    rc = op_run(rp, NF_OP_LOOKUP, &a, &r);
    if (rc == 0 && !r.has_fh)
        rc = -EPROTO;
    if (rc == 0)
        rc = nf4_fh_to_nf(&r.fh, out);
    if (rc < 0)
        snprintf(rp->cx.last_error, sizeof(rp->cx.last_error), "LOOKUP %s: %s", name,
                 strerror(-rc));
    return rc;
}

/* Writes size bytes of the pattern into file fh (the open's stateid sid),
 * UNSTABLE, then one COMMIT. */
static int fill(struct nr_replay *rp, const struct nf4_fh *fh, const stateid4 *sid,
                uint64_t size)
{
    struct nf4_sfs_args a;
    struct nf4_sfs_result r;
    uint64_t off;
    int rc = 0;

    memset(&a, 0, sizeof(a));
    a.fh = fh;
    a.sid = sid;
    a.data = rp->win.wdata;
    for (off = 0; off < size && rc == 0; off += rp->wtmax) {
        a.offset = off;
        a.count = size - off < rp->wtmax ? (uint32_t)(size - off) : rp->wtmax;
        rc = op_run(rp, NF_OP_WRITE, &a, &r);
    }
    if (rc == 0 && size > 0) {
        a.offset = 0;
        a.count = 0;
        rc = op_run(rp, NF_OP_COMMIT, &a, &r);
    }
    return rc;
}

/* A new file: OPEN(CREATE), its data, CLOSE. */
static int make_file(struct nr_replay *rp, struct nf4_sfs_args *a, const struct im_obj *o,
                     struct nf_fh *out)
{
    struct nf4_sfs_result r;
    const struct nf4_resop *open;
    struct nf4_sfs_args c;
    struct nf4_fh fh;
    stateid4 sid;
    int rc, rc2;

    rc = op_run(rp, NF_OP_CREATE, a, &r);
    if (rc < 0)
        return rc;
    open = nf4_res_find(&rp->v4sync.res, OP_OPEN, 0);
    if (!r.has_fh || open == NULL || open->status != NFS4_OK)
        return -EPROTO;
    fh = r.fh;
    sid = open->u.open.stateid;
    rc = nf4_fh_to_nf(&fh, out);
    if (rc == 0 && o->size > 0)
        rc = fill(rp, &fh, &sid, o->size);
    memset(&c, 0, sizeof(c));
    c.fh = &fh;
    c.sid = &sid;
    rc2 = nf4_sfs_close(&rp->v4sync.args, &c) == 0 ? run(rp, &r) : -EINVAL;
    return rc < 0 ? rc : rc2 == -ENOTCONN ? rc2 : 0;
}

int nr_prep4_make(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
                  uint32_t obj, const char *target)
{
    const struct im_obj *o = im_obj(rp->plan->img, obj);
    uint32_t mode = (o->flags & IM_O_MODE) ? o->mode & 07777u : 0;
    struct nf4_sfs_args a;
    struct nf4_sfs_result r;
    struct nf4_fh d;
    int op, rc;

    if (client(rp) == NULL)
        return -ENOTCONN;
    memset(&a, 0, sizeof(a));
    nf4_fh_from_nf(dir, &d);
    a.fh = &d;
    a.name = name;
    a.target = target;
    a.sa.set_mode = 1;
    switch (o->type) {
    case TR_NFS_DIR:
        op = NF_OP_MKDIR;
        a.sa.mode = mode ? mode : 0755;
        break;
    case TR_NFS_LNK:
        op = NF_OP_SYMLINK;
        a.sa.mode = mode ? mode : 0777;
        break;
    case TR_NFS_FIFO:
    case TR_NFS_SOCK:
    case TR_NFS_CHR:
    case TR_NFS_BLK:
        op = NF_OP_MKNOD;
        a.type = (nfs_ftype4)o->type; /* v3's and v4's numbers are the same */
        a.sa.mode = mode ? mode : 0644;
        break;
    default: /* a regular file, or a name of no known type */
        a.sa.mode = mode ? mode : 0644;
        return make_file(rp, &a, o, &rp->fh[obj]);
    }
    rc = op_run(rp, op, &a, &r);
    if (rc == 0 && !r.has_fh)
        rc = -EPROTO;
    return rc < 0 ? rc : nf4_fh_to_nf(&r.fh, &rp->fh[obj]);
}

int nr_prep4_link(struct nr_replay *rp, const struct nf_fh *dir, const char *name,
                  uint32_t obj)
{
    struct nf4_sfs_args a;
    struct nf4_sfs_result r;
    struct nf4_fh f, d;

    if (rp->fh[obj].len == 0)
        return -ENOENT;
    memset(&a, 0, sizeof(a));
    nf4_fh_from_nf(&rp->fh[obj], &f);
    nf4_fh_from_nf(dir, &d);
    a.fh = &f;
    a.fh2 = &d;
    a.name = name;
    return op_run(rp, NF_OP_LINK, &a, &r);
}
