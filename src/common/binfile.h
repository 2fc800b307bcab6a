/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * binfile.h - big-endian integers written to and read from a FILE, for
 * the files FreeSFS writes for itself (an NFS replay's plan and the image
 * it holds): a reader notes a short read once, so that a caller checks
 * one flag after a run of reads instead of every one.
 */
#ifndef CM_BINFILE_H
#define CM_BINFILE_H

#include <stdint.h>
#include <stdio.h>

void cm_bin_put32(FILE *f, uint32_t v);
void cm_bin_put64(FILE *f, uint64_t v);

struct cm_bin_reader {
    FILE *f;
    int short_read; /* a read found the file's end: the value read is 0 */
};

uint32_t cm_bin_get32(struct cm_bin_reader *r);
uint64_t cm_bin_get64(struct cm_bin_reader *r);

#endif /* CM_BINFILE_H */
