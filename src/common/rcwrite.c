/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rcwrite.c - writing rc files back (rc.h: cm_rc_quote, cm_rc_edit,
 * cm_rc_write).  The text is parsed with the one rc parser (rc.c), which
 * records where each assignment's bytes are; an edit replaces exactly
 * those bytes, so a hand-written file keeps its comments, blank lines and
 * order.  Every edit is checked by parsing the result again: each assigned
 * name must read back as the value asked for.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/rc.h"
#include "common/text.h"
#include "common/alloc.h"
#include "common/error.h"
#include "common/atomic.h"

static int bare_char(int c)
{
    return isalnum(c) || (c && strchr("_-./:,+@%", c));
}

int cm_rc_quote(const char *value, char *buf, size_t len)
{
    size_t n = 0, i;
    int bare = value[0] != '\0';

    for (i = 0; value[i] && bare; i++)
        bare = bare_char((unsigned char)value[i]);
    if (!bare && n < len)
        buf[n] = '"';
    n += !bare;
    for (i = 0; value[i]; i++) {
        if (!bare && strchr("$`\"\\", value[i])) {
            if (n < len)
                buf[n] = '\\';
            n++;
        }
        if (n < len)
            buf[n] = value[i];
        n++;
    }
    if (!bare && n < len)
        buf[n] = '"';
    n += !bare;
    if (n >= len) {
        if (len)
            buf[0] = '\0';
        return -E2BIG;
    }
    buf[n] = '\0';
    return (int)n;
}

static int valid_name(const char *s)
{
    if (!isalpha((unsigned char)*s) && *s != '_')
        return 0;
    for (s++; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '_')
            return 0;
    return 1;
}

/* One replacement: text[off, end) becomes NAME=quoted. */
struct edit {
    size_t off, end;
    const struct cm_rc_assign *set;
};

static int by_off(const void *a, const void *b)
{
    const struct edit *x = a, *y = b;

    return x->off < y->off ? -1 : x->off > y->off;
}

/* Appends NAME=quoted(value) to *buf (grown as needed). */
static int put_assign(char **buf, size_t *len, size_t *cap,
                      const struct cm_rc_assign *set)
{
    size_t need = strlen(set->name) + 2 * strlen(set->value) + 8;
    char *q;
    int n;

    if (*len + need > *cap) {
        size_t c = (*len + need) * 2;
        char *nb = cm_realloc(*buf, c);
        if (nb == NULL)
            return -ENOMEM;
        *buf = nb;
        *cap = c;
    }
    q = *buf + *len;
    n = snprintf(q, *cap - *len, "%s=", set->name);
    n = cm_rc_quote(set->value, q + n, *cap - *len - (size_t)n) + n;
    *len += (size_t)n;
    return 0;
}

static int put_bytes(char **buf, size_t *len, size_t *cap, const char *p, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = (*len + n + 1) * 2;
        char *nb = cm_realloc(*buf, c);
        if (nb == NULL)
            return -ENOMEM;
        *buf = nb;
        *cap = c;
    }
    memcpy(*buf + *len, p, n);
    *len += n;
    (*buf)[*len] = '\0';
    return 0;
}

/* The later of two sets of one name wins: is sets[i] overridden? */
static int overridden(const struct cm_rc_assign *sets, size_t n, size_t i)
{
    size_t j;

    for (j = i + 1; j < n; j++)
        if (strcmp(sets[j].name, sets[i].name) == 0)
            return 1;
    return 0;
}

/* The edited text must read back with every assigned value. */
static int verify(const char *name, const char *text, size_t len,
                  const struct cm_rc_assign *sets, size_t n, char *err, size_t errlen)
{
    struct cm_rc rc;
    size_t i;
    int r = cm_rc_parse(&rc, name, text, len, NULL, NULL, NULL, err, errlen);

    for (i = 0; r == 0 && i < n; i++) {
        const struct cm_rc_var *v = cm_rc_get(&rc, sets[i].name);
        if (!overridden(sets, n, i) &&
            (v == NULL || strcmp(v->value, sets[i].value) != 0))
            r = cm_errf(err, errlen, "%s: %s does not read back as written", name,
                        sets[i].name);
    }
    cm_rc_free(&rc);
    return r == -ENOMEM ? r : r < 0 ? -EIO : 0;
}

int cm_rc_edit(const char *name, const char *text, size_t len,
               const struct cm_rc_assign *sets, size_t n, char **out, size_t *outlen,
               FILE *diag, char *err, size_t errlen)
{
    struct cm_rc rc;
    struct edit *ed;
    size_t ned = 0, i, pos = 0, olen = 0, ocap = 0;
    char *o = NULL;
    int r;

    *out = NULL;
    *outlen = 0;
    for (i = 0; i < n; i++)
        if (!valid_name(sets[i].name)) {
            struct cm_pos where = {name, 0, -1};
            if (diag)
                cm_report(diag, &where, CM_ERROR, "'%s' is not a variable name",
                          sets[i].name);
            cm_report_buf(err, errlen, &where, CM_ERROR, "'%s' is not a variable name",
                          sets[i].name);
            return -EINVAL;
        }
    r = cm_rc_parse(&rc, name, text, len, NULL, NULL, diag, err, errlen);
    if (r < 0) {
        cm_rc_free(&rc);
        return r;
    }
    ed = cm_calloc(n + 1, sizeof(*ed));
    if (ed == NULL) {
        cm_rc_free(&rc);
        return cm_report_nomem(diag, name, err, errlen);
    }
    for (i = 0; i < n; i++) {
        const struct cm_rc_var *v = cm_rc_get(&rc, sets[i].name);
        if (v && !overridden(sets, n, i)) {
            ed[ned].off = v->off;
            ed[ned].end = v->end;
            ed[ned++].set = &sets[i];
        }
    }
    qsort(ed, ned, sizeof(*ed), by_off);
    r = put_bytes(&o, &olen, &ocap, "", 0);
    for (i = 0; r == 0 && i < ned; i++) {
        r = put_bytes(&o, &olen, &ocap, text + pos, ed[i].off - pos);
        if (r == 0)
            r = put_assign(&o, &olen, &ocap, ed[i].set);
        pos = ed[i].end;
    }
    if (r == 0)
        r = put_bytes(&o, &olen, &ocap, text + pos, len - pos);
    for (i = 0; r == 0 && i < n; i++) {
        if (cm_rc_get(&rc, sets[i].name) || overridden(sets, n, i))
            continue;
        if (olen > 0 && o[olen - 1] != '\n')
            r = put_bytes(&o, &olen, &ocap, "\n", 1);
        if (r == 0)
            r = put_assign(&o, &olen, &ocap, &sets[i]);
        if (r == 0)
            r = put_bytes(&o, &olen, &ocap, "\n", 1);
    }
    free(ed);
    cm_rc_free(&rc);
    if (r == 0)
        r = verify(name, o, olen, sets, n, err, errlen);
    if (r == -ENOMEM) /* running out of memory is no reason to call it a bug */
        cm_report_nomem(diag, name, err, errlen);
    else if (r < 0 && diag)
        fprintf(diag, "%s\n", err);
    if (r < 0) {
        free(o);
        return r;
    }
    *out = o;
    *outlen = olen;
    return 0;
}

int cm_rc_write(const char *path, const char *from, const struct cm_rc_assign *sets,
                size_t n, FILE *diag, char *err, size_t errlen)
{
    struct cm_atomic_file af;
    char *text = NULL, *out = NULL;
    size_t len = 0, outlen = 0;
    int r;

    if (from == NULL)
        from = path;
    r = cm_text_read(from, &text, &len, diag, err, errlen);
    if (r < 0)
        return r;
    r = cm_rc_edit(from, text, len, sets, n, &out, &outlen, diag, err, errlen);
    free(text);
    if (r < 0)
        return r;
    r = cm_atomic_open(&af, path, err, errlen);
    if (r == 0) {
        if (fwrite(out, 1, outlen, af.fp) != outlen) {
            r = -EIO;
            cm_errf(err, errlen, "%s: write failed", af.tmp);
            cm_atomic_abort(&af);
        } else
            r = cm_atomic_commit(&af, err, errlen);
    }
    if (r < 0 && diag)
        fprintf(diag, "%s\n", err);
    free(out);
    return r;
}
