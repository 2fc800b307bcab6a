/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * runs.c - a key set as disjoint runs in a JudyL (runs.h).  A run that
 * overlaps or touches the new range [a, b] is merged into it, so that the
 * runs stay disjoint and never adjacent and count is exact.
 */
#include <errno.h>

#include <Judy.h>

#include "common/runs.h"

/* Keys in [a, b], saturating at UINT64_MAX (2^64 keys do not fit). */
static uint64_t span(uint64_t a, uint64_t b)
{
    return b - a == UINT64_MAX ? UINT64_MAX : b - a + 1;
}

static void sub(struct cm_runs *r, uint64_t a, uint64_t b)
{
    r->count = r->count == UINT64_MAX ? UINT64_MAX : r->count - span(a, b);
}

int cm_runs_add(struct cm_runs *r, uint64_t a, uint64_t b)
{
    Pvoid_t *runs = (Pvoid_t *)&r->judy;
    Word_t k = (Word_t)a;
    PWord_t pv = (PWord_t)JudyLLast(*runs, &k, PJE0); /* the run starting <= a */
    int merged = pv && (*pv >= a || *pv + 1 == a);
    uint64_t last = merged ? *pv : 0, add;

    if (merged && last >= b)
        return 0; /* already inside */
    if (merged)
        a = k; /* that run's slot becomes the merged run's */
    else if (JudyLIns(runs, (Word_t)a, PJE0) == PJERR)
        return -ENOMEM; /* before any change: the set is as it was */
    if (merged)
        sub(r, a, last);
    /* the runs that start inside (a, b + 1] are swallowed */
    k = (Word_t)a;
    while ((pv = (PWord_t)JudyLNext(*runs, &k, PJE0)) && (k <= b || k - 1 == b)) {
        Word_t start = k;

        if (*pv > b)
            b = *pv;
        sub(r, start, *pv);
        JudyLDel(runs, start, PJE0);
    }
    pv = (PWord_t)JudyLGet(*runs, (Word_t)a, PJE0); /* the slot may have moved */
    *pv = b;
    add = span(a, b);
    r->count = add > UINT64_MAX - r->count ? UINT64_MAX : r->count + add;
    return 0;
}

void cm_runs_free(struct cm_runs *r)
{
    Pvoid_t p = r->judy;

    JudyLFreeArray(&p, PJE0);
    r->judy = NULL;
}
