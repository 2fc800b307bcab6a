/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * files.h - one child's file table (docs/SFS30.md §2.4, §5.2-5.3, §7;
 * docs/DECISIONS.md D6).  Every object the child may touch under its testdir has
 * an entry: holding directories, io files, non-io name slots, symlinks and
 * spare directories for mkdir/rmdir.  An entry keeps its category, state,
 * unique number (which gives its name), parent, file handle, cached size,
 * the size population gave it and whether it is in the working set.
 *
 * The table also makes the file choices: the best fit of D6 over the
 * working-set groups the workset module computes (passed in as spans of
 * the working-set array, so this file needs no workset header), the
 * append/truncate limits that keep the accessed set within
 * [Base, Base x (1 + delta)], and the picks by (state, category) for the
 * namespace ops.  No sockets, no allocation after sy_files_init: the child
 * calls it on the hot path.
 *
 * Layout (open item 8 of docs/SFS30.md §22, chosen here): entries are
 * ordered holding dirs, io files, non-io slots, symlinks, spare dirs.  io
 * file j lives in holding dir j / files_per_dir (wrapping); non-io slots and
 * symlinks go four to a holding dir (so a rename finds a free name next to
 * its source), round-robin over the dirs; spare dirs live in
 * the testdir itself.  The working set is every k-th io file (k = io / W), so
 * it is spread over the whole tree, not packed into the first directories.
 */
#ifndef SY_FILES_H
#define SY_FILES_H

#include <stddef.h>
#include <stdint.h>

#include "common/rng.h"
#include "nfs/nf.h"

/* Categories (docs/SFS30.md §2.4; the codes are SFS's). */
enum sy_cat { SY_CAT_IO = 0, SY_CAT_NONIO = 1, SY_CAT_SYMLINK = 2, SY_CAT_DIR = 3 };
/* Entry states (docs/SFS30.md §2.4). */
enum sy_state { SY_EXISTS = 1, SY_NONEXISTENT = 2, SY_EMPTY_DIR = 3 };

#define SY_NO_PARENT UINT32_MAX /* parent is the testdir itself */
#define SY_NAME_MAX  24         /* "file_en.0000000000" + NUL fits */
#define SY_NO_FILE   UINT32_MAX /* a pick found nothing */

struct sy_file {
    struct nf_fh fh;    /* valid when has_fh */
    uint64_t size;      /* bytes, from the latest attributes or our writes */
    uint64_t init_size; /* bytes population gives it (io and non-io files) */
    uint32_t unique;    /* drives the name: file_en.%05u etc. */
    uint32_t parent;    /* entry index of the parent dir, or SY_NO_PARENT */
    uint8_t cat;        /* enum sy_cat */
    uint8_t state;      /* enum sy_state */
    uint8_t working;    /* in the io working set */
    uint8_t has_fh;
    uint8_t spare;    /* a spare directory (mkdir/rmdir target) */
    uint8_t unstable; /* holds UNSTABLE (v3) data not yet committed, and is
                         on the child's commit list (sy_int.h) */
};

/* How many entries of each kind one child has (from the sizing module). */
struct sy_files_layout {
    uint32_t n_io;          /* io files */
    uint32_t n_working;     /* working io files (<= n_io, >= 1) */
    uint32_t n_nonio;       /* non-io name slots (half pre-created) */
    uint32_t n_symlink;     /* symlinks (all pre-created) */
    uint32_t n_dir;         /* holding directories */
    uint32_t n_spare_dir;   /* mkdir/rmdir slots (half pre-created) */
    uint32_t files_per_dir; /* io files per holding dir (-D) */
    uint32_t append_pcnt;   /* -A: share of writes that append */
    uint32_t delta_pcnt;    /* -f: fileset growth allowed above Base */
};

/* One working-set group: ws[first .. first + count) (workset module). */
struct sy_group_span {
    uint32_t first;
    uint32_t count;
};

/* The result of an io pick. */
struct sy_io_pick {
    uint32_t file;   /* entry index */
    uint64_t offset; /* where the transfer starts */
    uint32_t len;    /* bytes; may be clipped on no-fit */
    int append;      /* write appends at the current size */
    int nofit;       /* no file in the generation was big enough */
};

struct sy_files {
    struct sy_file *f;
    uint32_t n;
    uint32_t first[4]; /* first entry of each category (SY_CAT_*) */
    uint32_t count[4];
    uint32_t n_holding; /* holding dirs: first[SY_CAT_DIR] .. + n_holding */
    uint32_t *ws;       /* working set: entry indices, n_working of them */
    uint32_t n_working;
    uint32_t files_per_dir;
    uint32_t append_pcnt;
    uint32_t delta_pcnt;

    /* Accessed-set accounting in bytes (docs/SFS30.md §5.2): base is the
     * working files' initial sizes; grown is what appends added minus what
     * truncates removed. */
    uint64_t base_bytes;
    uint64_t limit_bytes;
    uint64_t cur_bytes;
    uint64_t least_bytes;
    uint64_t most_bytes;

    uint64_t nofit;  /* io picks clipped (DEBUG 13, YAML) */
    uint64_t nopick; /* namespace picks that found no entry in the
                        wanted state and fell back to another */
};

/* Allocates and lays out the table.  Sizes are all 0 and every entry is
 * SY_NONEXISTENT without a handle: init.c fills init_size and the states.
 * Returns 0, -EINVAL for an impossible layout, -ENOMEM. */
int sy_files_init(struct sy_files *t, const struct sy_files_layout *lay, char *err,
                  size_t errlen);
void sy_files_free(struct sy_files *t);

/* Writes the entry's name ("file_en.00042", "dir_ent.00003",
 * "symlink.00007") into buf (SY_NAME_MAX bytes). */
void sy_files_name(const struct sy_files *t, uint32_t i, char *buf, size_t len);

/* Recomputes base/cur/least/most from the working files' sizes; called
 * once after population and before each measured phase. */
void sy_files_reset_accounting(struct sy_files *t);

/* Records a new size for an entry (after a write, truncate or attributes),
 * keeping the accessed-set accounting in step. */
void sy_files_set_size(struct sy_files *t, uint32_t i, uint64_t size);

/*
 * The io file choice of D6 for a transfer of len bytes.  groups/ngroups are
 * the working-set groups (12 x cycles of them), g the drawn group.  For a
 * read or an overwrite: best fit (the smallest file of size >= len, first of
 * equals, searching from a random start in the group, wrapping), then the
 * other groups of the same generation (g mod 12), then no-fit: the largest
 * file seen, len clipped to its size (nofit counted).  For a write, appends
 * happen for append_pcnt % of writes while the accessed set is below its
 * limit, on the file at the random start.  Overwrite offsets are 8 KB
 * aligned and keep the transfer inside the file (docs/SFS30.md §3).
 */
void sy_files_pick_io(struct sy_files *t, const struct sy_group_span *groups,
                      uint32_t ngroups, uint32_t g, int is_write, uint32_t len,
                      struct cm_rng *rng, struct sy_io_pick *out);

/* A working io file from group g (random position), for getattr, setattr,
 * access, lookup, commit, readdir and fsstat. */
uint32_t sy_files_pick_working(const struct sy_files *t,
                               const struct sy_group_span *groups, uint32_t g,
                               struct cm_rng *rng);

/* For setattr (D6): when the accessed set is above Base, a grown working
 * file in group g (or the other groups of its generation) to truncate back
 * to its initial size; SY_NO_FILE when none or the set is not above Base. */
uint32_t sy_files_pick_truncate(const struct sy_files *t,
                                const struct sy_group_span *groups, uint32_t ngroups,
                                uint32_t g, struct cm_rng *rng);

/*
 * An entry of category cat (SY_CAT_NONIO, SY_CAT_SYMLINK, or SY_CAT_DIR for
 * the spare dirs) in the wanted state, from a random start, wrapping.  When
 * parent != SY_NO_FILE, only entries in that directory qualify (rename
 * targets).  When none is in the wanted state, returns one in any state and
 * counts a nopick, so that the op is still sent and the mix holds (the
 * server's answer then updates the table).  SY_NO_FILE only when the
 * category is empty.
 */
uint32_t sy_files_pick(struct sy_files *t, enum sy_cat cat, enum sy_state want,
                       uint32_t parent, struct cm_rng *rng);

#endif /* SY_FILES_H */
