/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * map.c - the server's sparse maps from a 64-bit key to a pointer (server
 * layer): file id -> node and chunk number -> file data chunk.  A thin
 * wrapper over JudyL (docs/DECISIONS.md D1: no home-made sparse map where Judy
 * serves).  JudyL keeps keys ordered, so freeing a file's data beyond a
 * truncation point is one ordered walk, and it never degrades under the
 * create/remove churn of an SFS run.
 */
#include "server/sv_int.h"

#include <Judy.h>
#include <errno.h>

int sv__map_put(struct sv_map *m, uint64_t key, void *val)
{
    PWord_t slot;

    JLI(slot, m->judy, (Word_t)key);
    if (slot == PJERR)
        return -ENOMEM;
    *slot = (Word_t)val;
    return 0;
}

void *sv__map_get(const struct sv_map *m, uint64_t key)
{
    PWord_t slot;

    JLG(slot, m->judy, (Word_t)key);
    return slot != NULL ? (void *)*slot : NULL;
}

void *sv__map_del(struct sv_map *m, uint64_t key)
{
    void *val = sv__map_get(m, key);
    int deleted;

    if (val != NULL)
        JLD(deleted, m->judy, (Word_t)key);
    return val;
}

void *sv__map_next(const struct sv_map *m, uint64_t *key)
{
    PWord_t slot;
    Word_t index = (Word_t)*key;

    JLF(slot, m->judy, index);
    if (slot == NULL)
        return NULL;
    *key = index;
    return (void *)*slot;
}

void sv__map_free(struct sv_map *m)
{
    /* The function, not the JLFA macro: the macro's error check trips
     * -Wsign-compare on clang. */
    JudyLFreeArray(&m->judy, PJE0);
    m->judy = NULL;
}
