/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * atomic.h - atomic file replacement (common layer, atomic.c;
 * docs/DECISIONS.md D10): a file is written beside its final name and
 * renamed into place, so that a reader never sees half a file and a crash
 * loses nothing that was finished before.
 */
#ifndef CM_ATOMIC_H
#define CM_ATOMIC_H

#include <stdio.h>

/* Atomic replacement: write to "<path>.tmp.<pid>", then rename over path,
 * so that a reader never sees half a file and a crash loses nothing that was
 * finished before. */
struct cm_atomic_file {
    FILE *fp;
    char path[4096];
    char tmp[4200];
};
int cm_atomic_open(struct cm_atomic_file *af, const char *path, char *err, size_t errlen);
/* Flushes, fsyncs and renames; on any failure removes the temporary file. */
int cm_atomic_commit(struct cm_atomic_file *af, char *err, size_t errlen);
/* Drops the temporary file (on an error path). */
void cm_atomic_abort(struct cm_atomic_file *af);

#endif /* CM_ATOMIC_H */
