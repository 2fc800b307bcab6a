/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * yaml.c - the one home of libyaml (common layer; docs/DECISIONS.md D1: no
 * home-made YAML writer or reader).  Writing: a small streaming facade over
 * the emitter (yaml.h) - callers emit maps, sequences and scalars in order;
 * libyaml owns every event passed to yaml_emitter_emit, even on failure, so
 * those events are never deleted here.  Reading: the parser's events built
 * into a tree (yaml.h), strict and bounded - no anchors or aliases, no
 * duplicate keys, limited depth and size (libyaml has no
 * limit on alias expansion: docs/TESTING.md, "Library pitfalls").
 */
#include "common/cm.h"
#include "common/error.h"
#include "common/atomic.h"
#include "common/text.h"
#include "common/yaml.h"
#include "common/alloc.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

struct cm_yaml {
    yaml_emitter_t emitter;
    struct cm_atomic_file file; /* used when opened on a path */
    FILE *fp;
    int own_file;
    int failed;
    char error[CM_ERR_LEN];
};

static int write_handler(void *data, unsigned char *buffer, size_t size)
{
    struct cm_yaml *y = data;

    return fwrite(buffer, 1, size, y->fp) == size;
}

static void emit(struct cm_yaml *y, yaml_event_t *ev, int ok)
{
    if (y->failed)
        return; /* ev was not initialised (or is owned by a failed emitter) */
    if (!ok) {
        y->failed = 1;
        snprintf(y->error, sizeof(y->error), "yaml: cannot create event");
        return;
    }
    if (!yaml_emitter_emit(&y->emitter, ev)) {
        y->failed = 1;
        snprintf(y->error, sizeof(y->error), "yaml: %s",
                 y->emitter.problem ? y->emitter.problem : "emitter error");
    }
}

/* Starts the emitter; 0, or -ENOMEM (libyaml's own allocation failed). */
static int start(struct cm_yaml *y)
{
    yaml_event_t ev;

    if (!yaml_emitter_initialize(&y->emitter))
        return -ENOMEM;
    yaml_emitter_set_output(&y->emitter, write_handler, y);
    yaml_emitter_set_unicode(&y->emitter, 1);
    yaml_emitter_set_width(&y->emitter, 120);
    emit(y, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
    emit(y, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0));
    return 0;
}

struct cm_yaml *cm_yaml_open(const char *path, char *err, size_t errlen)
{
    struct cm_yaml *y = cm_calloc(1, sizeof(*y));

    if (y == NULL) {
        cm_errf(err, errlen, "out of memory");
        return NULL;
    }
    if (cm_atomic_open(&y->file, path, err, errlen) < 0) {
        free(y);
        return NULL;
    }
    y->fp = y->file.fp;
    y->own_file = 1;
    if (start(y) < 0) { /* leave neither the temporary file nor y */
        cm_errf(err, errlen, "yaml: cannot initialise emitter");
        cm_atomic_abort(&y->file);
        free(y);
        return NULL;
    }
    return y;
}

struct cm_yaml *cm_yaml_open_stream(FILE *fp, char *err, size_t errlen)
{
    struct cm_yaml *y = cm_calloc(1, sizeof(*y));

    if (y == NULL) {
        cm_errf(err, errlen, "out of memory");
        return NULL;
    }
    y->fp = fp;
    if (start(y) < 0) {
        cm_errf(err, errlen, "yaml: cannot initialise emitter");
        free(y);
        return NULL;
    }
    return y;
}

void cm_yaml_map_begin(struct cm_yaml *y)
{
    yaml_event_t ev;

    emit(y, &ev,
         !y->failed && yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
                                                           YAML_BLOCK_MAPPING_STYLE));
}

void cm_yaml_map_end(struct cm_yaml *y)
{
    yaml_event_t ev;

    emit(y, &ev, !y->failed && yaml_mapping_end_event_initialize(&ev));
}

static void seq_begin(struct cm_yaml *y, yaml_sequence_style_t style)
{
    yaml_event_t ev;

    emit(y, &ev,
         !y->failed && yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, style));
}

void cm_yaml_seq_begin(struct cm_yaml *y)
{
    seq_begin(y, YAML_BLOCK_SEQUENCE_STYLE);
}

void cm_yaml_flow_seq_begin(struct cm_yaml *y)
{
    seq_begin(y, YAML_FLOW_SEQUENCE_STYLE);
}

void cm_yaml_seq_end(struct cm_yaml *y)
{
    yaml_event_t ev;

    emit(y, &ev, !y->failed && yaml_sequence_end_event_initialize(&ev));
}

static void scalar(struct cm_yaml *y, const char *text, int plain_ok)
{
    yaml_event_t ev;

    emit(y, &ev,
         !y->failed && yaml_scalar_event_initialize(
                           &ev, NULL, NULL, (yaml_char_t *)text, (int)strlen(text), 1, 1,
                           plain_ok ? YAML_PLAIN_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE));
}

/* Whether a plain key would read back as something other than a string
 * (YAML 1.1's null and booleans: a workload named "null" keys its
 * section so); such a key is written quoted. */
static int key_needs_quotes(const char *key)
{
    static const char *const words[] = {"null", "~",   "true", "false", "yes", "no",
                                        "on",   "off", "y",    "n",     ""};
    size_t i;

    for (i = 0; i < CM_ARRAY_LEN(words); i++)
        if (strcasecmp(key, words[i]) == 0)
            return 1;
    return 0;
}

void cm_yaml_key(struct cm_yaml *y, const char *key)
{
    if (key_needs_quotes(key))
        cm_yaml_str(y, key);
    else
        scalar(y, key, 0);
}

void cm_yaml_str(struct cm_yaml *y, const char *value)
{
    /* Strings let libyaml choose quoting, so "3.0" or "yes" stay strings. */
    yaml_event_t ev;
    const char *v = value ? value : "";

    emit(y, &ev,
         !y->failed &&
             yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)v,
                                          (int)strlen(v), 0, 1, YAML_ANY_SCALAR_STYLE));
}

void cm_yaml_int(struct cm_yaml *y, int64_t value)
{
    char buf[32];

    snprintf(buf, sizeof(buf), "%" PRId64, value);
    scalar(y, buf, 1);
}

void cm_yaml_uint(struct cm_yaml *y, uint64_t value)
{
    char buf[32];

    snprintf(buf, sizeof(buf), "%" PRIu64, value);
    scalar(y, buf, 1);
}

void cm_yaml_double(struct cm_yaml *y, double value, int decimals)
{
    char buf[64];

    if (value != value)
        snprintf(buf, sizeof(buf), ".nan");
    else if (decimals >= 0)
        snprintf(buf, sizeof(buf), "%.*f", decimals, value);
    else
        snprintf(buf, sizeof(buf), "%.17g", value);
    scalar(y, buf, 1);
}

void cm_yaml_bool(struct cm_yaml *y, int value)
{
    scalar(y, value ? "true" : "false", 1);
}

void cm_yaml_null(struct cm_yaml *y)
{
    scalar(y, "null", 1);
}

void cm_yaml_kv_str(struct cm_yaml *y, const char *key, const char *value)
{
    cm_yaml_key(y, key);
    cm_yaml_str(y, value);
}

void cm_yaml_kv_int(struct cm_yaml *y, const char *key, int64_t value)
{
    cm_yaml_key(y, key);
    cm_yaml_int(y, value);
}

void cm_yaml_kv_uint(struct cm_yaml *y, const char *key, uint64_t value)
{
    cm_yaml_key(y, key);
    cm_yaml_uint(y, value);
}

void cm_yaml_kv_double(struct cm_yaml *y, const char *key, double v, int decimals)
{
    cm_yaml_key(y, key);
    cm_yaml_double(y, v, decimals);
}

void cm_yaml_kv_bool(struct cm_yaml *y, const char *key, int value)
{
    cm_yaml_key(y, key);
    cm_yaml_bool(y, value);
}

int cm_yaml_close(struct cm_yaml *y, char *err, size_t errlen)
{
    yaml_event_t ev;
    int rc = 0;

    if (y == NULL)
        return -EINVAL;
    emit(y, &ev, !y->failed && yaml_document_end_event_initialize(&ev, 1));
    emit(y, &ev, !y->failed && yaml_stream_end_event_initialize(&ev));
    if (!y->failed && !yaml_emitter_flush(&y->emitter)) {
        y->failed = 1;
        snprintf(y->error, sizeof(y->error), "yaml: flush failed");
    }
    yaml_emitter_delete(&y->emitter);
    if (y->failed) {
        cm_errf(err, errlen, "%s", y->error);
        rc = -EIO;
    }
    if (y->own_file) {
        if (rc == 0)
            rc = cm_atomic_commit(&y->file, err, errlen);
        else
            cm_atomic_abort(&y->file);
    } else if (fflush(y->fp) != 0 && rc == 0) {
        rc = -EIO;
        cm_errf(err, errlen, "yaml: write failed");
    }
    free(y);
    return rc;
}

/* ---- reading (yaml.h) ------------------------------------------------------ */

struct yread {
    yaml_parser_t parser;
    const char *name;
    FILE *diag;
    char *err;
    size_t errlen;
    size_t nodes;
    int failed;
};

static int CM_PRINTF(3, 4) rerr(struct yread *r, long line, const char *fmt, ...)
{
    struct cm_pos pos = {r->name, line, -1};
    char msg[400];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    if (!r->failed) {
        if (r->diag)
            cm_report(r->diag, &pos, CM_ERROR, "%s", msg);
        if (r->err)
            cm_report_buf(r->err, r->errlen, &pos, CM_ERROR, "%s", msg);
    }
    r->failed = 1;
    return -EINVAL;
}

void cm_ynode_free(struct cm_ynode *n)
{
    size_t i;

    if (n == NULL)
        return;
    for (i = 0; i < n->n; i++) {
        cm_ynode_free(n->items[i]);
        if (n->keys)
            free(n->keys[i]);
    }
    free(n->items);
    free(n->keys);
    free(n->key_lines);
    free(n->value);
    free(n);
}

/* The next event; libyaml's own errors are reported at their line. */
static int next_event(struct yread *r, yaml_event_t *ev)
{
    if (yaml_parser_parse(&r->parser, ev))
        return 0;
    return rerr(r, (long)r->parser.problem_mark.line + 1, "YAML: %s%s%s",
                r->parser.problem ? r->parser.problem : "syntax error",
                r->parser.context ? " " : "", r->parser.context ? r->parser.context : "");
}

/* Anchors would let a later alias repeat the node: refused (8.2). */
static int no_anchor(struct yread *r, const yaml_event_t *ev)
{
    const yaml_char_t *anchor = NULL;

    if (ev->type == YAML_SCALAR_EVENT)
        anchor = ev->data.scalar.anchor;
    else if (ev->type == YAML_SEQUENCE_START_EVENT)
        anchor = ev->data.sequence_start.anchor;
    else if (ev->type == YAML_MAPPING_START_EVENT)
        anchor = ev->data.mapping_start.anchor;
    if (anchor)
        return rerr(r, (long)ev->start_mark.line + 1,
                    "anchors (&%s) and aliases are not accepted", (const char *)anchor);
    return 0;
}

static int add_child(struct cm_ynode *n, struct cm_ynode *kid, char *key, long key_line)
{
    struct cm_ynode **items = cm_realloc(n->items, (n->n + 1) * sizeof(*items));

    if (items == NULL)
        return -ENOMEM;
    n->items = items;
    if (n->kind == CM_YMAP) {
        char **keys = cm_realloc(n->keys, (n->n + 1) * sizeof(*keys));
        long *lines;
        if (keys == NULL)
            return -ENOMEM;
        n->keys = keys;
        lines = cm_realloc(n->key_lines, (n->n + 1) * sizeof(*lines));
        if (lines == NULL)
            return -ENOMEM;
        n->key_lines = lines;
        n->keys[n->n] = key;
        n->key_lines[n->n] = key_line;
    }
    n->items[n->n++] = kid;
    return 0;
}

/* Builds the node that ev starts (ev is deleted here).  Returns 0 or an
 * error; *out is NULL after an error. */
static int build(struct yread *r, yaml_event_t *ev, int depth, struct cm_ynode **out)
{
    struct cm_ynode *n;
    yaml_event_type_t end;
    int rc = 0;

    *out = NULL;
    if (ev->type == YAML_ALIAS_EVENT) {
        rc = rerr(r, (long)ev->start_mark.line + 1, "aliases (*%s) are not accepted",
                  (const char *)ev->data.alias.anchor);
        yaml_event_delete(ev);
        return rc;
    }
    if (no_anchor(r, ev) < 0 || depth > CM_YAML_MAX_DEPTH ||
        ++r->nodes > CM_YAML_MAX_NODES) {
        rerr(r, (long)ev->start_mark.line + 1, "%s",
             depth > CM_YAML_MAX_DEPTH ? "nested too deeply"
                                       : "too many nodes in the file");
        yaml_event_delete(ev);
        return -EINVAL;
    }
    n = cm_calloc(1, sizeof(*n));
    if (n == NULL) {
        yaml_event_delete(ev);
        return -ENOMEM;
    }
    n->line = (long)ev->start_mark.line + 1;
    if (ev->type == YAML_SCALAR_EVENT) {
        size_t len = ev->data.scalar.length;

        n->kind = CM_YSCALAR;
        n->value = cm_strndup((const char *)ev->data.scalar.value, len);
        n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
        yaml_event_delete(ev);
        if (n->value == NULL) {
            free(n);
            return -ENOMEM;
        }
        if (strlen(n->value) != len) {
            long line = n->line;
            cm_ynode_free(n);
            return rerr(r, line, "a NUL character in a value");
        }
        *out = n;
        return 0;
    }
    n->kind = ev->type == YAML_MAPPING_START_EVENT ? CM_YMAP : CM_YSEQ;
    end = n->kind == CM_YMAP ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT;
    yaml_event_delete(ev);
    for (;;) {
        yaml_event_t kev, vev;
        struct cm_ynode *key = NULL, *val = NULL;

        if ((rc = next_event(r, &kev)) < 0)
            break;
        if (kev.type == end) {
            yaml_event_delete(&kev);
            break;
        }
        if (n->kind == CM_YSEQ) {
            if ((rc = build(r, &kev, depth + 1, &val)) < 0)
                break;
            if ((rc = add_child(n, val, NULL, 0)) < 0) {
                cm_ynode_free(val);
                break;
            }
            continue;
        }
        if (kev.type != YAML_SCALAR_EVENT && kev.type != YAML_ALIAS_EVENT) {
            rc = rerr(r, (long)kev.start_mark.line + 1,
                      "a mapping key must be a plain value");
            yaml_event_delete(&kev);
            break;
        }
        if ((rc = build(r, &kev, depth + 1, &key)) < 0)
            break;
        if (cm_ynode_get(n, key->value, NULL)) {
            rc = rerr(r, key->line, "duplicate key '%s'", key->value);
            cm_ynode_free(key);
            break;
        }
        if ((rc = next_event(r, &vev)) < 0 ||
            (rc = build(r, &vev, depth + 1, &val)) < 0) {
            cm_ynode_free(key);
            break;
        }
        if ((rc = add_child(n, val, key->value, key->line)) < 0) {
            cm_ynode_free(val);
            cm_ynode_free(key);
            break;
        }
        key->value = NULL; /* now owned by n->keys */
        cm_ynode_free(key);
    }
    if (rc < 0) {
        cm_ynode_free(n);
        return rc;
    }
    *out = n;
    return 0;
}

int cm_yaml_parse(const char *name, const char *text, size_t len, struct cm_ynode **root,
                  FILE *diag, char *err, size_t errlen)
{
    struct yread r;
    yaml_event_t ev;
    int rc = 0, docs = 0;

    *root = NULL;
    if (err && errlen)
        err[0] = '\0';
    memset(&r, 0, sizeof(r));
    r.name = name;
    r.diag = diag;
    r.err = err;
    r.errlen = errlen;
    if (!yaml_parser_initialize(&r.parser))
        return cm_report_nomem(diag, name, err, errlen);
    yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);
    while (rc == 0 && (rc = next_event(&r, &ev)) == 0) {
        yaml_event_type_t type = ev.type;

        if (type == YAML_STREAM_END_EVENT) {
            yaml_event_delete(&ev);
            break;
        }
        if (type == YAML_DOCUMENT_START_EVENT && ++docs > 1) {
            rc = rerr(&r, (long)ev.start_mark.line + 1,
                      "only one YAML document is accepted");
            yaml_event_delete(&ev);
            break;
        }
        if (type == YAML_SCALAR_EVENT || type == YAML_SEQUENCE_START_EVENT ||
            type == YAML_MAPPING_START_EVENT || type == YAML_ALIAS_EVENT)
            rc = build(&r, &ev, 0, root);
        else
            yaml_event_delete(&ev);
    }
    yaml_parser_delete(&r.parser);
    if (rc < 0) {
        cm_ynode_free(*root);
        *root = NULL;
    }
    if (rc == -ENOMEM)
        cm_report_nomem(diag, name, err, errlen);
    return rc;
}

static int parse_into(void *ctx, const char *name, const char *text, size_t len,
                      FILE *diag, char *err, size_t errlen)
{
    return cm_yaml_parse(name, text, len, ctx, diag, err, errlen);
}

int cm_yaml_load(const char *path, struct cm_ynode **root, FILE *diag, char *err,
                 size_t errlen)
{
    *root = NULL;
    return cm_text_parse_file(path, parse_into, root, diag, err, errlen);
}

const struct cm_ynode *cm_ynode_get(const struct cm_ynode *map, const char *key,
                                    size_t *index)
{
    size_t i;

    if (map == NULL || map->kind != CM_YMAP)
        return NULL;
    for (i = 0; i < map->n; i++)
        if (strcmp(map->keys[i], key) == 0) {
            if (index)
                *index = i;
            return map->items[i];
        }
    return NULL;
}

int cm_ynode_is_null(const struct cm_ynode *n)
{
    return n == NULL ||
           (n->kind == CM_YSCALAR && n->plain &&
            (n->value[0] == '\0' || strcmp(n->value, "~") == 0 ||
             strcmp(n->value, "null") == 0 || strcmp(n->value, "Null") == 0 ||
             strcmp(n->value, "NULL") == 0));
}
