/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sattr.c - the attributes a call sets, once for both versions (nf.h,
 * struct nf_sattr): SETATTR, CREATE, MKDIR, SYMLINK and MKNOD carry them
 * as a v3 sattr3 (a flag per field) or a v2 sattr (-1 in a field leaves it
 * as it is, RFC 1094 2.3.11).  The mix, the validation suite and both
 * trace replays fill a struct nf_sattr and convert it here.
 */
#include <string.h>

#include "common/clock.h"
#include "nfs/nf.h"

void nf_sattr_mode(struct nf_sattr *s, uint32_t mode)
{
    memset(s, 0, sizeof(*s));
    s->set = NF_SA_MODE;
    s->mode = mode;
}

void nf_sattr_times_now(struct nf_sattr *s)
{
    uint32_t sec, nsec;

    cm_wall_time(&sec, &nsec);
    s->set |= NF_SA_ATIME | NF_SA_MTIME;
    s->atime_s = s->mtime_s = sec;
    s->atime_ns = s->mtime_ns = nsec;
}

static enum time_how time3(unsigned set, unsigned client, unsigned server)
{
    return (set & client)   ? SET_TO_CLIENT_TIME
           : (set & server) ? SET_TO_SERVER_TIME
                            : DONT_CHANGE;
}

void nf_sattr_to_v3(const struct nf_sattr *s, sattr3 *a)
{
    memset(a, 0, sizeof(*a));
    if (s->set & NF_SA_MODE) {
        a->mode.set_it = TRUE;
        a->mode.set_mode3_u.mode = s->mode;
    }
    if (s->set & NF_SA_UID) {
        a->uid.set_it = TRUE;
        a->uid.set_uid3_u.uid = s->uid;
    }
    if (s->set & NF_SA_GID) {
        a->gid.set_it = TRUE;
        a->gid.set_gid3_u.gid = s->gid;
    }
    if (s->set & NF_SA_SIZE) {
        a->size.set_it = TRUE;
        a->size.set_size3_u.size = s->size;
    }
    a->atime.set_it = time3(s->set, NF_SA_ATIME, NF_SA_ATIME_SERVER);
    a->mtime.set_it = time3(s->set, NF_SA_MTIME, NF_SA_MTIME_SERVER);
    if (a->atime.set_it == SET_TO_CLIENT_TIME) {
        a->atime.set_atime_u.atime.seconds = s->atime_s;
        a->atime.set_atime_u.atime.nseconds = s->atime_ns;
    }
    if (a->mtime.set_it == SET_TO_CLIENT_TIME) {
        a->mtime.set_mtime_u.mtime.seconds = s->mtime_s;
        a->mtime.set_mtime_u.mtime.nseconds = s->mtime_ns;
    }
}

void nf_sattr_to_v2(const struct nf_sattr *s, sattr *a)
{
    memset(a, 0xff, sizeof(*a)); /* -1: leave as it is (RFC 1094 2.3.11) */
    if (s->set & NF_SA_MODE)
        a->mode = s->mode;
    if (s->set & NF_SA_UID)
        a->uid = s->uid;
    if (s->set & NF_SA_GID)
        a->gid = s->gid;
    if (s->set & NF_SA_SIZE)
        a->size = (u_int)s->size;
    if (s->set & NF_SA_ATIME) {
        a->atime.seconds = s->atime_s;
        a->atime.useconds = s->atime_ns / 1000;
    }
    if (s->set & NF_SA_MTIME) {
        a->mtime.seconds = s->mtime_s;
        a->mtime.useconds = s->mtime_ns / 1000;
    }
}
