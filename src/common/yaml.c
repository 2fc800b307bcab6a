/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * yaml.c - machine-readable output through libyaml's emitter (common
 * layer; decisions.md D1: no home-made YAML writer).  A small streaming
 * facade: callers emit maps, sequences and scalars in order.  libyaml owns
 * every event passed to yaml_emitter_emit, even on failure, so events are
 * never deleted here (test-environment.md 8.2).
 */
#include "common/cm.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
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

static struct cm_yaml *start(struct cm_yaml *y)
{
    yaml_event_t ev;

    if (!yaml_emitter_initialize(&y->emitter)) {
        free(y);
        return NULL;
    }
    yaml_emitter_set_output(&y->emitter, write_handler, y);
    yaml_emitter_set_unicode(&y->emitter, 1);
    yaml_emitter_set_width(&y->emitter, 120);
    emit(y, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
    emit(y, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0));
    return y;
}

struct cm_yaml *cm_yaml_open(const char *path, char *err, size_t errlen)
{
    struct cm_yaml *y = calloc(1, sizeof(*y));

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
    if (start(y) == NULL) {
        cm_errf(err, errlen, "yaml: cannot initialise emitter");
        return NULL;
    }
    return y;
}

struct cm_yaml *cm_yaml_open_stream(FILE *fp, char *err, size_t errlen)
{
    struct cm_yaml *y = calloc(1, sizeof(*y));

    if (y == NULL) {
        cm_errf(err, errlen, "out of memory");
        return NULL;
    }
    y->fp = fp;
    if (start(y) == NULL) {
        cm_errf(err, errlen, "yaml: cannot initialise emitter");
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

void cm_yaml_key(struct cm_yaml *y, const char *key)
{
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
