/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * yaml.h - YAML through libyaml (common layer, yaml.c; docs/DECISIONS.md
 * D1): the streaming writer of every results file, and the reader of small
 * YAML files (configurations, sfs_generate's static information) into a
 * tree of mappings, sequences and scalars.  Files may come from other
 * hosts, so the reader is strict and bounded (docs/TESTING.md, "Library
 * pitfalls"): aliases and anchors are refused (no alias expansion at all),
 * as are duplicate keys, non-scalar keys and a second document; nesting
 * depth and node count are limited.  Every error is "FILE:LINE: message"
 * through cm_report.
 */
#ifndef CM_YAML_H
#define CM_YAML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- writing ------------------------------------------------------------ */

/* A thin streaming writer over libyaml's emitter: block style, keys in the
 * order written.  The first error sticks and later calls do nothing; check
 * cm_yaml_close's return.  Writes atomically when opened on a path. */
struct cm_yaml;
struct cm_yaml *cm_yaml_open(const char *path, char *err, size_t errlen);
struct cm_yaml *cm_yaml_open_stream(FILE *fp, char *err, size_t errlen);
void cm_yaml_map_begin(struct cm_yaml *y);
void cm_yaml_map_end(struct cm_yaml *y);
void cm_yaml_seq_begin(struct cm_yaml *y);
/* A flow-style sequence ([1, 2, 3]) for short numeric lists. */
void cm_yaml_flow_seq_begin(struct cm_yaml *y);
void cm_yaml_seq_end(struct cm_yaml *y);
void cm_yaml_key(struct cm_yaml *y, const char *key);
void cm_yaml_str(struct cm_yaml *y, const char *value);
void cm_yaml_int(struct cm_yaml *y, int64_t value);
void cm_yaml_uint(struct cm_yaml *y, uint64_t value);
/* Doubles with the given number of decimals (%.*f), or %.17g when < 0. */
void cm_yaml_double(struct cm_yaml *y, double value, int decimals);
void cm_yaml_bool(struct cm_yaml *y, int value);
void cm_yaml_null(struct cm_yaml *y);
/* key: value shorthands */
void cm_yaml_kv_str(struct cm_yaml *y, const char *key, const char *value);
void cm_yaml_kv_int(struct cm_yaml *y, const char *key, int64_t value);
void cm_yaml_kv_uint(struct cm_yaml *y, const char *key, uint64_t value);
void cm_yaml_kv_double(struct cm_yaml *y, const char *key, double v, int decimals);
void cm_yaml_kv_bool(struct cm_yaml *y, const char *key, int value);
/* Ends the document, flushes, commits the file.  Returns 0 or -errno with
 * the reason in err.  Frees y in every case. */
int cm_yaml_close(struct cm_yaml *y, char *err, size_t errlen);

/* ---- reading ------------------------------------------------------------ */

#define CM_YAML_MAX_DEPTH 32
#define CM_YAML_MAX_NODES 100000

enum cm_ynode_kind { CM_YSCALAR, CM_YSEQ, CM_YMAP };

struct cm_ynode {
    enum cm_ynode_kind kind;
    long line;   /* 1-based line where the node starts */
    char *value; /* CM_YSCALAR: its text ("" for an empty value) */
    int plain;   /* CM_YSCALAR: written unquoted ("~" and "null" mean no value) */
    size_t n;    /* CM_YSEQ: items; CM_YMAP: key/value pairs */
    struct cm_ynode **items; /* CM_YSEQ: the items; CM_YMAP: the values */
    char **keys;             /* CM_YMAP: the keys, in file order */
    long *key_lines;         /* CM_YMAP: where each key is */
};

/*
 * Parses text (len bytes, named name in messages) into *root (NULL for an
 * empty document).  Returns 0, -EINVAL (the error reported to diag and its
 * text in err) or -ENOMEM.  *root must be freed with cm_ynode_free.
 */
int cm_yaml_parse(const char *name, const char *text, size_t len, struct cm_ynode **root,
                  FILE *diag, char *err, size_t errlen);
/* Reads path (cm_text_read: at most 16 MB) and parses it. */
int cm_yaml_load(const char *path, struct cm_ynode **root, FILE *diag, char *err,
                 size_t errlen);
void cm_ynode_free(struct cm_ynode *n);

/* The value of key in a mapping (NULL when map is not a mapping or has no
 * such key); its index goes to *index when index is not NULL. */
const struct cm_ynode *cm_ynode_get(const struct cm_ynode *map, const char *key,
                                    size_t *index);
/* Whether a node stands for "no value": absent, an empty plain scalar, ~ or null. */
int cm_ynode_is_null(const struct cm_ynode *n);

#endif /* CM_YAML_H */
