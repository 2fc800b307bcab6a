/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * debug.c - the DEBUG flag names and the -d list parser (
 * docs/SFS30.md §18.3).  The flag numbers are SFS's so that old command lines keep their
 * meaning; what each flag logs is up to the module that tests it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "load/debug.h"

static const char *const names[LD_DBG_MAX_NAMED + 1] = {
    NULL,           "NEW_CODE",     "PARENT_GENERAL", "PARENT_SIGNAL", "CHILD_ERROR",
    "CHILD_SIGNAL", "CHILD_XPOINT", "CHILD_GENERAL",  "CHILD_OPS",     "CHILD_FILES",
    "CHILD_RPC",    "CHILD_TIMING", "CHILD_SETUP",    "CHILD_FIT",     "CHILD_BIOD",
};

const char *ld_debug_name(int flag)
{
    if (flag < 1 || flag > LD_DBG_MAX)
        return NULL;
    return flag <= LD_DBG_MAX_NAMED ? names[flag] : "UNUSED";
}

int ld_debug_child0_only(int flag)
{
    return flag >= LD_DBG_CHILD_GENERAL && flag <= LD_DBG_CHILD_BIOD;
}

/* Reads one number of the list; *p advances past it. */
static int number(const char **p, long *v, const char *list, char *err, size_t errlen)
{
    char *end;

    if (**p < '0' || **p > '9')
        return cm_errf(err, errlen, "-d: '%s': expected a number at '%s'", list, *p);
    *v = strtol(*p, &end, 10);
    if (*v > LD_DBG_MAX) {
        cm_errf(err, errlen, "-d: '%s': flag %ld is out of range 1..%d", list, *v,
                LD_DBG_MAX);
        return -ERANGE;
    }
    *p = end;
    return 0;
}

int ld_debug_parse(const char *list, uint32_t *mask, char *err, size_t errlen)
{
    const char *p = list;
    uint32_t m = 0;
    long a, b, i;
    int rc;

    *mask = 0;
    if (!list || !*list)
        return 0;
    for (;;) {
        rc = number(&p, &a, list, err, errlen);
        if (rc < 0)
            return rc;
        b = a;
        if (*p == '-') {
            p++;
            rc = number(&p, &b, list, err, errlen);
            if (rc < 0)
                return rc;
            if (b < a)
                return cm_errf(err, errlen, "-d: '%s': range %ld-%ld is reversed", list,
                               a, b);
        }
        for (i = a; i <= b; i++)
            if (i > 0) /* 0 is ignored, as SFS did */
                m |= LD_DBG_BIT(i);
        if (*p == '\0')
            break;
        if (*p != ',')
            return cm_errf(err, errlen, "-d: '%s': unexpected '%c'", list, *p);
        p++;
    }
    *mask = m;
    return 0;
}
