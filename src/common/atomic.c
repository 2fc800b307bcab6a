/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * atomic.c - atomic file replacement (common layer).  Result files are
 * written beside their final name and renamed into place, so that a run
 * that dies half way never leaves a truncated result (docs/DECISIONS.md D10).
 */
#include "common/error.h"
#include "common/atomic.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int cm_atomic_open(struct cm_atomic_file *af, const char *path, char *err, size_t errlen)
{
    int rc;

    if (strlen(path) >= sizeof(af->path)) {
        cm_errf(err, errlen, "%s: path too long", path);
        return -ENAMETOOLONG;
    }
    strcpy(af->path, path);
    snprintf(af->tmp, sizeof(af->tmp), "%s.tmp.%ld", path, (long)getpid());
    af->fp = fopen(af->tmp, "w");
    if (af->fp == NULL) {
        rc = -errno;
        /* the user's name for the file: the temporary one is ours */
        cm_errf(err, errlen, "%s: cannot be written: %s", path, strerror(errno));
        return rc;
    }
    return 0;
}

int cm_atomic_commit(struct cm_atomic_file *af, char *err, size_t errlen)
{
    int rc = 0;

    if (af->fp == NULL)
        return -EBADF;
    if (fflush(af->fp) != 0 || ferror(af->fp) || fsync(fileno(af->fp)) != 0) {
        rc = -(errno ? errno : EIO);
        cm_errf(err, errlen, "%s: write failed: %s", af->tmp, strerror(-rc));
    }
    if (fclose(af->fp) != 0 && rc == 0) {
        rc = -errno;
        cm_errf(err, errlen, "%s: close failed: %s", af->tmp, strerror(errno));
    }
    af->fp = NULL;
    if (rc == 0 && rename(af->tmp, af->path) != 0) {
        rc = -errno;
        cm_errf(err, errlen, "%s: rename failed: %s", af->path, strerror(errno));
    }
    if (rc != 0)
        unlink(af->tmp);
    return rc;
}

void cm_atomic_abort(struct cm_atomic_file *af)
{
    if (af->fp != NULL) {
        fclose(af->fp);
        af->fp = NULL;
    }
    unlink(af->tmp);
}
