/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * yaml.h - reading small YAML files (configurations, sfs_generate's static
 * information) into a tree of mappings, sequences and scalars, through
 * libyaml's parser in yaml.c (docs/DECISIONS.md D1; the writer is in cm.h).
 * Files may come from other hosts, so the reader is strict and bounded
 * (docs/TESTING.md, "Library pitfalls"): aliases and anchors are refused (no alias
 * expansion at all), as are duplicate keys, non-scalar keys and a second
 * document; nesting depth and node count are limited.  Every error is
 * "FILE:LINE: message" through cm_report.
 */
#ifndef CM_YAML_H
#define CM_YAML_H

#include <stddef.h>
#include <stdio.h>

#include "common/cm.h"

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
