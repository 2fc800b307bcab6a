/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * working.c - a stateful protocol's view of the working set (sy_int.h):
 * the state it keeps per file in the child's storage (nfs/nf_proto.h,
 * file_bytes; an NFSv4.1 open's stateid), and the working set's files
 * entering it after population and leaving it at the child's end
 * (file_enter, file_leave: OPEN and CLOSE).  NFSv2 and NFSv3 keep none:
 * nothing is allocated or called for them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "synth/sy_int.h"

int sy_fstate_init(struct sy_child *c)
{
    size_t each = c->cx.ses.proto->file_bytes;

    free(c->fstate);
    c->fstate = NULL;
    if (each == 0)
        return 0;
    c->fstate = cm_calloc(c->files.n, each);
    return c->fstate ? 0 : -ENOMEM;
}

void *sy_fstate(const struct sy_child *c, uint32_t i)
{
    if (c->fstate == NULL || i >= c->files.n)
        return NULL;
    return c->fstate + (size_t)i * c->cx.ses.proto->file_bytes;
}

int sy_working_enter(struct sy_child *c)
{
    const struct nf_proto *p = c->cx.ses.proto;
    uint32_t k;

    if (p->file_enter == NULL || c->ws_entered)
        return 0;
    c->ws_entered = 1;
    for (k = 0; k < c->files.n_working; k++) {
        uint32_t i = c->files.ws[k];
        char name[SY_NAME_MAX];
        int rc = p->file_enter(&c->cx.ses, &c->files.f[i].fh, sy_fstate(c, i));

        if (rc < 0) {
            sy_files_name(&c->files, i, name, sizeof(name));
            return ld_child_fail(&c->cx, rc, "%s: %s into the working set: %s", p->name,
                                 name, strerror(-rc));
        }
    }
    return 0;
}

void sy_working_leave(struct sy_child *c)
{
    const struct nf_proto *p = c->cx.ses.proto;
    uint32_t k;

    if (p == NULL || p->file_leave == NULL || !c->ws_entered || !c->cx.ses.mounted)
        return;
    for (k = 0; k < c->files.n_working; k++) {
        uint32_t i = c->files.ws[k];
        (void)p->file_leave(&c->cx.ses, &c->files.f[i].fh, sy_fstate(c, i));
    }
    c->ws_entered = 0;
}
