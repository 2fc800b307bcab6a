/* SPDX-License-Identifier: BSD-2-Clause */
/* tool_tap.h - what the nfsd_* probes share: TAP lines with a running
 * count, the loopback address of the server under test, and a v3 file
 * handle kept across calls (results are freed after each one).
 * Header-only because each tool is one program. */
#ifndef TOOL_TAP_H
#define TOOL_TAP_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nfs3_prot.h"

static int tool_checks, tool_failed;

/* "ok N - what" or "not ok N - what". */
__attribute__((format(printf, 2, 3))) static inline void tool_check(int ok,
                                                                    const char *fmt, ...)
{
    va_list ap;

    tool_checks++;
    tool_failed += !ok;
    printf("%s %d - ", ok ? "ok" : "not ok", tool_checks);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

/* Prints the plan; the exit status of the probe (1 when a check failed). */
static inline int tool_done(void)
{
    printf("1..%d\n", tool_checks);
    return tool_failed ? 1 : 0;
}

/* 127.0.0.1 at the decimal port text. */
static inline void tool_loopback(struct sockaddr_in *sa, const char *port)
{
    memset(sa, 0, sizeof(*sa));
    sa->sin_family = AF_INET;
    sa->sin_port = htons((unsigned short)strtol(port, NULL, 10));
    sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
}

struct tool_fh3 {
    nfs_fh3 fh;
    char buf[NFS3_FHSIZE];
};

static inline void tool_keep_fh3(struct tool_fh3 *k, const char *data, u_int len)
{
    k->fh.data.data_len = len;
    memcpy(k->buf, data, len);
    k->fh.data.data_val = k->buf;
}

#endif /* TOOL_TAP_H */
