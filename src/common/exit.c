/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * exit.c - names and meanings of the exit codes (exit.h).  The switch is
 * generated from the table: a code listed twice does not compile.
 */
#include <stddef.h>

#include "common/exit.h"

const char *cm_exit_name(int code)
{
    switch (code) {
#define CM_EXIT_NAME(c, name, meaning)                                                   \
    case c:                                                                              \
        return #name;
        CM_EXIT_MAP(CM_EXIT_NAME)
#undef CM_EXIT_NAME
    default:
        return NULL;
    }
}

const char *cm_exit_meaning(int code)
{
    switch (code) {
#define CM_EXIT_MEANING(c, name, meaning)                                                \
    case c:                                                                              \
        return meaning;
        CM_EXIT_MAP(CM_EXIT_MEANING)
#undef CM_EXIT_MEANING
    default:
        return NULL;
    }
}
