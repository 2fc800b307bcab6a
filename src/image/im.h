/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * im.h - src/image is the file-system image an NFS trace implies (a tree of
 * objects and names, not a picture; prefix im_), built from the trace
 * layer's NFS events (src/trace/tr_nfs.h): every object the trace
 * touches, by handle, with its type, the names that reach it (directory +
 * name), its size and mode at the start of the trace, the objects and names
 * created, renamed and removed during the trace, hard links, symlink
 * targets, the export roots (from MNT, or inferred) and the orphans
 * (objects that existed at the start but whose path the trace never
 * shows).  `sfs_trace image` reports it; the NFS trace replay prepares the
 * tree at the start of the trace from it and maps traced handles onto the
 * prepared objects.
 *
 * Built from the events of tr_nfs.h in call-time order (im_event), then
 * closed with im_finish, which chooses the roots, places every object
 * present at the start under a root or an orphan top, and orders the
 * directories' entries for the walk.  Memory grows with the objects and names
 * the trace shows, never with its events: two hash tables (handle -> object,
 * directory + name -> link) over arrays of objects and links and arenas of
 * handle and name bytes.
 *
 * What a trace cannot tell (docs/sfs_trace.md, "image"): contents; sizes
 * of files never seen with attributes (then lower bounds from READ
 * replies); the type of a name only listed by READDIR or only removed
 * (TR_NFS_NONE, flagged IM_O_TYPE_GUESSED); names of objects used
 * before any LOOKUP (orphans); what happened in calls the capture lost
 * (a namespace call without its reply is assumed to have succeeded, and
 * counted).
 */
#ifndef IM_H
#define IM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/tr_nfs.h"

/* No object, no link. */
#define IM_NONE_ID UINT32_MAX

/* ---- handles to dense numbers (map.c) ----------------------------------- */

/* A map from handle bytes to dense ids 0, 1, 2, ... in order of first
 * sight; the handles are kept once, in an arena.  The image uses one, and
 * the analyser numbers the files of a miss-ratio curve with another. */
struct im_fhmap;

/* NULL when out of memory. */
struct im_fhmap *im_fhmap_new(void);
void im_fhmap_free(struct im_fhmap *m);
/* The id of fh; when fh is new and add is set it gets the next id (*added
 * = 1 when not NULL).  Returns the id, -ENOENT (new, add not set), -EINVAL
 * (an empty handle) or -ENOMEM. */
int64_t im_fhmap_id(struct im_fhmap *m, const struct nf_fh *fh, int add, int *added);
/* Handles known: ids are 0..count-1. */
uint32_t im_fhmap_count(const struct im_fhmap *m);
/* The handle of id into *fh (len 0 when id is out of range). */
void im_fhmap_get(const struct im_fhmap *m, uint32_t id, struct nf_fh *fh);
/* Bytes the map holds. */
size_t im_fhmap_mem(const struct im_fhmap *m);
/* The handle as lower-case hex into buf ("" when it does not fit). */
const char *im_fh_hex(const struct nf_fh *fh, char *buf, size_t len);

/* ---- objects and links -------------------------------------------------- */

/* Object flags. */
#define IM_O_AT_START     0x0001u /* existed when the trace began */
#define IM_O_CREATED      0x0002u /* created during the trace, at created_ns */
#define IM_O_REMOVED      0x0004u /* its last name was removed, at removed_ns */
#define IM_O_RENAMED      0x0008u /* one of its names was renamed */
#define IM_O_ROOT         0x0010u /* an export root (MNT or inferred) */
#define IM_O_ORPHAN       0x0020u /* at start, in no root's tree: path unknown */
#define IM_O_NO_HANDLE    0x0040u /* known by a name only (READDIR, REMOVE...) */
#define IM_O_TYPE_GUESSED 0x0080u /* type from the calls made on it, or none */
#define IM_O_SIZE_EXACT   0x0100u /* size from attributes */
#define IM_O_SIZE_CHANGED                                                                \
    0x0200u                       /* a call (WRITE past the end, SETATTR size,           \
                                     truncating CREATE) changed its size */
#define IM_O_MODE         0x0400u /* mode known */
#define IM_O_MODE_CHANGED 0x0800u /* a SETATTR changed its mode */
#define IM_O_DEAD                                                                        \
    0x1000u                 /* a name-only object merged into the object                 \
                               its handle named: skip it */
#define IM_O_FILEID 0x2000u /* fileid known */
#define IM_O_ORPHAN_TOP                                                                  \
    0x4000u /* an orphan whose parent is unknown: the                                    \
               top of an orphan subtree */

struct im_obj {
    enum tr_nfs_ftype type; /* TR_NFS_NONE when never seen */
    uint32_t flags;         /* IM_O_* */
    uint32_t mode;          /* at the start (IM_O_MODE), permission bits */
    uint32_t nlink;         /* from attributes, 0 when not seen */
    uint64_t size;          /* at the start (a lower bound unless SIZE_EXACT); 0
                               for objects the trace creates */
    uint64_t size_max;      /* the largest size seen at any time */
    uint64_t fileid;        /* IM_O_FILEID */
    int64_t created_ns;     /* IM_O_CREATED: the creating call's time */
    int64_t removed_ns;     /* IM_O_REMOVED: the removing call's time */
    uint32_t fh_id;         /* its handle in the image's map, or IM_NONE_ID */
    /* after im_finish: where the object sits at the start */
    uint32_t parent_link; /* the link that places it in its tree (IM_NONE_ID
                             for roots, orphan tops and created objects) */
    uint32_t top;         /* its root or orphan top (itself for those) */
    uint32_t depth;       /* links below its top (0 for roots and tops) */
    uint32_t first_link;  /* every link to it: first_link, then link.next_of_obj */
    uint32_t nlinks;      /* links to it, at any time */
    /* private */
    uint64_t target_off; /* symlink target in the name arena */
    uint32_t target_len; /* 0: unknown */
};

/* Link flags. */
#define IM_L_AT_START 0x01u /* the name existed when the trace began */
#define IM_L_CREATED                                                                     \
    0x02u /* made during the trace (CREATE, MKDIR, SYMLINK,                              \
             MKNOD, LINK, RENAME's new name), created_ns */
#define IM_L_REMOVED                                                                     \
    0x04u                    /* gone during the trace (REMOVE, RMDIR, RENAME's           \
                                old name or its replaced target), removed_ns */
#define IM_L_RENAME    0x08u /* made or removed by a RENAME */
#define IM_L_UNTRACED  0x10u /* replaced by a name change no traced call made */
#define IM_L_HARD_LINK 0x20u /* at start, a second name of a non-directory */

/* A name: directory dir holds name for object obj. */
struct im_link {
    uint32_t dir, obj;
    uint32_t flags; /* IM_L_* */
    uint32_t next_of_obj;
    int64_t created_ns, removed_ns;
    /* private: the name in the arena */
    uint64_t name_off;
    uint32_t name_len;
};

/* What building the image counted: repairs of a lossy trace, and oddities. */
struct im_counts {
    uint64_t events;
    uint64_t assumed_ok;       /* namespace calls without a reply, assumed done */
    uint64_t name_only;        /* objects first known by a name alone */
    uint64_t merged;           /* name-only objects whose handle was already known */
    uint64_t untraced_names;   /* a name that came to name another object with no
                                  traced call doing it */
    uint64_t dot_names;        /* "." and ".." results, not made names */
    uint64_t dir_links;        /* extra names of a directory at start (ignored) */
    uint64_t cycles;           /* parent chains at start that loop (broken) */
    uint64_t handle_conflicts; /* a handle with attributes of two types */
};

struct im_image;

/* NULL when out of memory. */
struct im_image *im_new(void);
void im_free(struct im_image *img);
/* Adds one event (events in call-time order).  0, or -ENOMEM. */
int im_event(struct im_image *img, const struct tr_nfs_event *ev);
/* After the last event: roots, orphans, depths, the entries of each
 * directory for the walk.  0 or -ENOMEM.  Events after it are refused. */
int im_finish(struct im_image *img);

/* Objects (ids 0..count-1, including IM_O_DEAD ones to skip) and
 * links. */
uint32_t im_nobjs(const struct im_image *img);
/* The objects of the image: im_nobjs less the name-only objects merged
 * into the object their handle named (IM_O_DEAD; im_counts' merged) - the
 * one figure sfs_trace image and the replay's plan both print. */
uint32_t im_nlive(const struct im_image *img);
const struct im_obj *im_obj(const struct im_image *img, uint32_t id);
uint32_t im_nlinks(const struct im_image *img);
const struct im_link *im_link(const struct im_image *img, uint32_t id);
/* A link's name (not NUL-terminated) and its length. */
const char *im_link_name(const struct im_image *img, uint32_t id, size_t *len);
/* An object's symlink target (NULL when unknown) and its length. */
const char *im_target(const struct im_image *img, uint32_t id, size_t *len);
/* The object behind a traced handle, or IM_NONE_ID. */
uint32_t im_find(const struct im_image *img, const struct nf_fh *fh);
/* An object's handle into *fh (len 0 for name-only objects). */
void im_fh(const struct im_image *img, uint32_t id, struct nf_fh *fh);
const struct im_counts *im_counts(const struct im_image *img);
/* The image's bytes (arrays, arenas, maps). */
size_t im_mem(const struct im_image *img);

/* The roots, in order (MNT roots first, then an inferred one): ids into
 * *ids, their number returned.  A root's MNT path through
 * im_root_path ("" when inferred). */
uint32_t im_roots(const struct im_image *img, const uint32_t **ids);
const char *im_root_path(const struct im_image *img, uint32_t obj);
/* 1 when the trace had no MNT and the root was inferred (the parentless
 * directory with the largest tree at the start). */
int im_root_inferred(const struct im_image *img);
/* The orphan tops, in order: ids into *ids, their number returned. */
uint32_t im_orphan_tops(const struct im_image *img, const uint32_t **ids);

/* The object's path at the start of the trace (after finish), relative
 * to its top: "a/b/c" below a root (the root itself is ""), or below an
 * orphan top "h<handle hex>/b/c" (the replay's directory of orphans holds
 * the tops by handle).  For an object the trace creates, the path it was
 * created at, as the walk would give it.  Returns buf, or NULL (errno
 * set: ENOENT for a dead or a removed name-only object without a place,
 * ENAMETOOLONG). */
const char *im_path(const struct im_image *img, uint32_t obj, char *buf, size_t len);

/* ---- a finished image in a file (save.c) --------------------------------- */

/* Writes a finished image at f's position (what it answers from: not the
 * maps only learning uses).  0, -EINVAL (not finished) or -EIO. */
int im_save(const struct im_image *img, FILE *f);
/* Reads an image im_save wrote at f's position into *out (finished: it
 * takes no events).  0, or -errno with one line in err (a damaged image is
 * refused: every index is checked). */
int im_load(struct im_image **out, FILE *f, char *err, size_t errlen);

/* ---- walking the tree at the start (tree.c) ----------------------------- */

enum im_walk_kind {
    IM_W_ROOT,     /* an export root (name: its MNT path, or "") */
    IM_W_ORPHAN,   /* an orphan top (name: "h" + its handle in hex) */
    IM_W_ENTRY,    /* an object at its place (name: its name in dir) */
    IM_W_HARD_LINK /* a further name of an object already walked */
};

struct im_walk_item {
    enum im_walk_kind kind;
    uint32_t obj;
    uint32_t dir;  /* ENTRY, HARD_LINK: the directory; else IM_NONE_ID */
    uint32_t top;  /* the root or orphan top of this tree */
    uint32_t link; /* ENTRY, HARD_LINK: the link; else IM_NONE_ID */
    const char *name;
    size_t name_len;
    const char *path; /* relative to the top, as im_path */
    uint32_t depth;
};

/* Calls fn for every object present at the start of the trace, so that
 * creating them in this order builds the tree: each root, then its tree
 * depth first (a directory before its entries), then each orphan top and
 * its tree, then the hard links (further names of objects already
 * walked).  fn returns 0 to go on, anything else stops the walk and is
 * returned.  Paths longer than TR_NFS_PATH_MAX - 1 are skipped with their
 * subtrees and counted in *too_long (may be NULL).  Returns 0, fn's value,
 * or -ENOMEM. */
typedef int (*im_walk_fn)(void *data, const struct im_walk_item *w);
int im_walk(const struct im_image *img, im_walk_fn fn, void *data, uint64_t *too_long);

#endif /* IM_H */
