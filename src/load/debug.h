/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * debug.h - the SFS DEBUG flags (docs/SFS30.md §18.3) and the -d list
 * parser ("3,4,8-10": flag n sets bit n - 1, values 1..31, 0 ignored).
 * Flags marked child-0 in docs/SFS30.md §18.3 (7-14) are acted on by child 0 only; the
 * callers test ld_debug_child_on().  FreeSFS starts with an empty mask
 * (SFS's 0xFFFF default was noise; docs/SFS30.md §13.1).
 */
#ifndef LD_DEBUG_H
#define LD_DEBUG_H

#include <stddef.h>
#include <stdint.h>

enum ld_debug_flag {
    LD_DBG_NEW_CODE = 1,
    LD_DBG_PARENT_GENERAL = 2,
    LD_DBG_PARENT_SIGNAL = 3,
    LD_DBG_CHILD_ERROR = 4, /* failed NFS ops, RPC errors */
    LD_DBG_CHILD_SIGNAL = 5,
    LD_DBG_CHILD_XPOINT = 6, /* rate checkpoints */
    LD_DBG_CHILD_GENERAL = 7,
    LD_DBG_CHILD_OPS = 8,
    LD_DBG_CHILD_FILES = 9,
    LD_DBG_CHILD_RPC = 10,
    LD_DBG_CHILD_TIMING = 11, /* pacing sleeps */
    LD_DBG_CHILD_SETUP = 12,  /* files, dirs, mix */
    LD_DBG_CHILD_FIT = 13,    /* best fit, no-fit */
    LD_DBG_CHILD_BIOD = 14,
    LD_DBG_MAX_NAMED = 14,
    LD_DBG_MAX = 31
};

#define LD_DBG_BIT(n) (1u << ((n)-1))

/* Parses a -d list into *mask.  "" gives 0.  Returns 0 or -EINVAL with
 * "-d: 'x' ..." in err (bad number, value > 31, reversed range). */
int ld_debug_parse(const char *list, uint32_t *mask, char *err, size_t errlen);

/* "CHILD_FIT" for 13; "UNUSED" for 15..31; NULL outside 1..31. */
const char *ld_debug_name(int flag);

/* Whether the flag is only acted on by child 0 (7-14). */
int ld_debug_child0_only(int flag);

static inline int ld_debug_on(uint32_t mask, int flag)
{
    return (mask & LD_DBG_BIT(flag)) != 0;
}

/* Whether child number `child` acts on the flag (child-0-only flags are
 * off for the others). */
static inline int ld_debug_child_on(uint32_t mask, int flag, int child)
{
    return ld_debug_on(mask, flag) && (child == 0 || !ld_debug_child0_only(flag));
}

#endif /* LD_DEBUG_H */
