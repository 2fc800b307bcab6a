/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * error.c - the rpc layer's error text (rp_int.h): every file of the layer
 * explains a failure into its client's last_error buffer through
 * rp__set_error, which rp_client_last_error shows.  It sits below the other
 * files of the layer and calls none of them.
 */
#include "rpc/rp_int.h"

#include <stdarg.h>
#include <stdio.h>

int rp__set_error(struct rp_client *c, int err, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(c->last_error, sizeof(c->last_error), fmt, ap);
    va_end(ap);
    return err;
}
