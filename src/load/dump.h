/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * dump.h - the raw dump of -z (sfs-reference §16.6): one text file per
 * child, "c<client>-p<child>" (three digits each) in $TMPDIR or /tmp, with
 * one row per call of the measured run: op name, response and start time in
 * ms, the file's unique number, and length/offset/count for reads and
 * writes or a TRUNCATE / CREATE_EXISTING tag.  Buffered stdio: -z is a
 * diagnostic mode, not the benchmark's hot path.
 */
#ifndef LD_DUMP_H
#define LD_DUMP_H

#include <stddef.h>
#include <stdint.h>

struct ld_child;
struct ld_slot;
struct ld_dump;

/* Creates (truncates) the child's dump file and writes the header.
 * Returns NULL with the reason in err. */
struct ld_dump *ld_dump_open(unsigned client, unsigned child, char *err, size_t errlen);

/* One row for a finished call (ns = response time; 0 for a failed call). */
void ld_dump_call(struct ld_dump *d, const struct ld_child *c, const struct ld_slot *s,
                  uint64_t ns);

/* The file's path (for messages). */
const char *ld_dump_path(const struct ld_dump *d);

/* Flushes and closes; returns 0 or -errno (a write error). */
int ld_dump_close(struct ld_dump *d);

#endif /* LD_DUMP_H */
