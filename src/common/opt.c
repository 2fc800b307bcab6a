/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opt.c - the table-driven option engine behind opt.h (docs/STYLE.md 2.7).  One
 * row per option feeds getopt_long, the range checks with their one-line
 * messages, --help and the value echo.  Number parsing is cm_parse_*; this
 * file only adds the table walking and the message that names the option,
 * plus the small line reader that option-like input files (rc, mix and
 * block-size files) share.
 */
#define _GNU_SOURCE /* program_invocation_short_name, for --version */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/num.h"
#include "common/yaml.h"
#include "common/opt.h"

const char *cm_opt_label(const struct cm_opt *row, char *buf, size_t len)
{
    if (row->short_flag && row->long_name)
        snprintf(buf, len, "-%c (--%s)", row->short_flag, row->long_name);
    else if (row->short_flag)
        snprintf(buf, len, "-%c", row->short_flag);
    else if (row->long_name)
        snprintf(buf, len, "--%s", row->long_name);
    else
        snprintf(buf, len, "%s", row->rc_name ? row->rc_name : "?");
    return buf;
}

/* The range as text, e.g. "1..1000 processes". */
static void range_text(const struct cm_opt *row, char *buf, size_t len)
{
    const char *u = row->unit ? row->unit : "";
    const char *sp = row->unit ? " " : "";

    if (row->type == CM_OPT_DOUBLE)
        snprintf(buf, len, "%g..%g%s%s", row->min, row->max, sp, u);
    else
        snprintf(buf, len, "%.0f..%.0f%s%s", row->min, row->max, sp, u);
}

static int set_integer(const struct cm_opt *row, void *field, const char *label,
                       const char *text, char *err, size_t errlen)
{
    char range[96];
    int64_t v;
    int rc;

    rc = cm_parse_i64(label, text, INT64_MIN, INT64_MAX, &v, err, errlen);
    range_text(row, range, sizeof(range));
    if (rc == -EINVAL) {
        /* the one line names the allowed range as well */
        cm_errf(err, errlen, "%s: '%s' is not an integer (allowed %s)", label, text,
                range);
        return rc;
    }
    if (rc < 0 || (double)v < row->min || (double)v > row->max) {
        cm_errf(err, errlen, "%s: %s is out of range %s", label, text, range);
        return -ERANGE;
    }
    if (row->type == CM_OPT_INT)
        *(int *)field = (int)v;
    else
        *(int64_t *)field = v;
    return 0;
}

static int set_double(const struct cm_opt *row, void *field, const char *label,
                      const char *text, char *err, size_t errlen)
{
    char range[96];
    double v;
    int rc;

    rc = cm_parse_double(label, text, -HUGE_VAL, HUGE_VAL, &v, err, errlen);
    range_text(row, range, sizeof(range));
    if (rc == -EINVAL) {
        cm_errf(err, errlen, "%s: '%s' is not a number (allowed %s)", label, text, range);
        return rc;
    }
    if (rc < 0 || v < row->min || v > row->max ||
        ((row->flags & CM_OPT_MIN_EXCL0) && v <= row->min)) {
        cm_errf(err, errlen, "%s: %s is out of range %s", label, text, range);
        return -ERANGE;
    }
    *(double *)field = v;
    return 0;
}

static int set_size(const struct cm_opt *row, void *field, const char *label,
                    const char *text, char *err, size_t errlen)
{
    char range[96];
    uint64_t v;

    if (cm_parse_size(label, text, &v, err, errlen) < 0)
        return -EINVAL;
    if ((double)v < row->min || (double)v > row->max) {
        range_text(row, range, sizeof(range));
        cm_errf(err, errlen, "%s: %s is out of range %s", label, text, range);
        return -ERANGE;
    }
    *(uint64_t *)field = v;
    return 0;
}

static int add_to_list(const struct cm_opt *row, void *field, const char *label,
                       const char *text, char *err, size_t errlen)
{
    struct cm_opt_list *l = field;
    int max =
        row->max >= 1 && row->max < CM_OPT_LIST_MAX ? (int)row->max : CM_OPT_LIST_MAX;

    if (text == NULL || text[0] == '\0')
        return cm_errf(err, errlen, "%s: empty value", label);
    if (l->n >= max) {
        cm_errf(err, errlen, "%s: given more than %d times", label, max);
        return -ERANGE;
    }
    l->v[l->n++] = text;
    return 0;
}

static int set_enum(const struct cm_opt *row, void *field, const char *label,
                    const char *text, char *err, size_t errlen)
{
    const struct cm_opt_enum *e;
    char names[256];
    size_t used = 0;

    for (e = row->enums; e && e->name; e++) {
        if (strcmp(e->name, text) == 0) {
            *(int *)field = e->value;
            return 0;
        }
    }
    names[0] = '\0';
    for (e = row->enums; e && e->name && used < sizeof(names); e++) {
        int n = snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "",
                         e->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
    cm_errf(err, errlen, "%s: '%s' is not one of %s", label, text, names);
    return -EINVAL;
}

int cm_opt_set(const struct cm_opt *row, void *base, const char *text, char *err,
               size_t errlen)
{
    void *field = (char *)base + row->offset;
    char label[96];
    size_t n;

    cm_opt_label(row, label, sizeof(label));
    switch (row->type) {
    case CM_OPT_INT:
    case CM_OPT_I64:
        return set_integer(row, field, label, text ? text : "", err, errlen);
    case CM_OPT_DOUBLE:
        return set_double(row, field, label, text ? text : "", err, errlen);
    case CM_OPT_FLAG:
        *(int *)field = !(text && strcmp(text, "0") == 0);
        return 0;
    case CM_OPT_STRING:
        n = text ? strlen(text) : 0;
        if (n >= row->size) {
            cm_errf(err, errlen, "%s: value longer than %zu characters", label,
                    row->size - 1);
            return -ERANGE;
        }
        memcpy(field, text ? text : "", n + 1);
        return 0;
    case CM_OPT_ENUM:
        return set_enum(row, field, label, text ? text : "", err, errlen);
    case CM_OPT_SIZE:
        return set_size(row, field, label, text ? text : "", err, errlen);
    case CM_OPT_LIST:
        return add_to_list(row, field, label, text, err, errlen);
    }
    return cm_errf(err, errlen, "%s: bad option type", label);
}

int cm_opt_defaults(const struct cm_opt *t, size_t n, void *base, unsigned char *src,
                    char *err, size_t errlen)
{
    size_t i;
    int rc;

    for (i = 0; i < n; i++) {
        const char *def = t[i].def;

        if (t[i].type == CM_OPT_FLAG && !def)
            def = "0";
        /* a list starts empty (def only names it in --help); a number row
         * without a default keeps what the caller put in the field (a
         * default computed at run time, such as one from the memory) */
        if (t[i].type == CM_OPT_LIST ||
            (!def && (t[i].type == CM_OPT_SIZE || t[i].type == CM_OPT_INT ||
                      t[i].type == CM_OPT_I64 || t[i].type == CM_OPT_DOUBLE))) {
            if (t[i].type == CM_OPT_LIST)
                ((struct cm_opt_list *)((char *)base + t[i].offset))->n = 0;
            if (src)
                src[i] = CM_SRC_DEFAULT;
            continue;
        }
        rc = cm_opt_set(&t[i], base, def ? def : "", err, errlen);
        if (rc < 0)
            return -EINVAL;
        if (src)
            src[i] = CM_SRC_DEFAULT;
    }
    return 0;
}

const struct cm_opt *cm_opt_by_short(const struct cm_opt *t, size_t n, int c)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (c && t[i].short_flag == c)
            return &t[i];
    return NULL;
}

const struct cm_opt *cm_opt_by_long(const struct cm_opt *t, size_t n, const char *name)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (t[i].long_name && strcmp(t[i].long_name, name) == 0)
            return &t[i];
    return NULL;
}

const struct cm_opt *cm_opt_by_rc(const struct cm_opt *t, size_t n, const char *name)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (t[i].rc_name && strcmp(t[i].rc_name, name) == 0)
            return &t[i];
    return NULL;
}

/* ---- command line --------------------------------------------------------- */

/* Long-option val codes above any char so that long-only rows are found by
 * index: val = LONG_BASE + row index. */
#define LONG_BASE   0x1000
#define HELP_VAL    0x0fff
#define VERSION_VAL 0x0ffe

void cm_opt_version(FILE *out)
{
    fprintf(out, "%s (FreeSFS) %s\n", program_invocation_short_name, CM_VERSION);
}

static int needs_arg(const struct cm_opt *row)
{
    return row->type != CM_OPT_FLAG;
}

/* The set and row of a getopt value (LONG_BASE + a running row number
 * over the sets), or of a short flag. */
static const struct cm_opt *row_of_val(const struct cm_opt_set *sets, size_t nsets,
                                       int val, size_t *set)
{
    size_t s, k = 0;

    for (s = 0; s < nsets; s++) {
        const struct cm_opt *row;

        if (val >= LONG_BASE && (size_t)(val - LONG_BASE) < k + sets[s].n) {
            *set = s;
            return &sets[s].t[(size_t)(val - LONG_BASE) - k];
        }
        k += sets[s].n;
        row = val > 0 && val < 256 ? cm_opt_by_short(sets[s].t, sets[s].n, val) : NULL;
        if (row) {
            *set = s;
            return row;
        }
    }
    return NULL;
}

int cm_opt_parse_sets(const struct cm_opt_set *sets, size_t nsets, int argc, char **argv,
                      int *first_arg, const struct cm_opt **bad, char *err, size_t errlen)
{
    struct option lo[CM_OPT_MAX_ROWS + 3];
    char so[CM_OPT_MAX_ROWS * 2 + 4];
    size_t i, s, k = 0, nlo = 0, nso = 0;
    int c;

    *bad = NULL;
    for (s = 0; s < nsets; s++)
        k += sets[s].n;
    if (k > CM_OPT_MAX_ROWS)
        return cm_errf(err, errlen, "option tables too long (%zu rows)", k);
    so[nso++] = ':'; /* report a missing argument as ':' */
    for (s = 0, k = 0; s < nsets; k += sets[s].n, s++)
        for (i = 0; i < sets[s].n; i++) {
            const struct cm_opt *t = sets[s].t;

            if (t[i].flags & CM_OPT_RC_ONLY)
                continue;
            if (t[i].short_flag) {
                so[nso++] = (char)t[i].short_flag;
                if (needs_arg(&t[i]))
                    so[nso++] = ':';
            }
            if (t[i].long_name) {
                lo[nlo].name = t[i].long_name;
                lo[nlo].has_arg = !needs_arg(&t[i])               ? no_argument
                                  : (t[i].flags & CM_OPT_OPT_ARG) ? optional_argument
                                                                  : required_argument;
                lo[nlo].flag = NULL;
                lo[nlo].val = LONG_BASE + (int)(k + i);
                nlo++;
            }
        }
    so[nso] = '\0';
    lo[nlo].name = "help";
    lo[nlo].has_arg = no_argument;
    lo[nlo].flag = NULL;
    lo[nlo].val = HELP_VAL;
    nlo++;
    lo[nlo].name = "version";
    lo[nlo].has_arg = no_argument;
    lo[nlo].flag = NULL;
    lo[nlo].val = VERSION_VAL;
    nlo++;
    memset(&lo[nlo], 0, sizeof(lo[nlo]));

    optind = 0; /* GNU: full re-initialisation between calls */
    opterr = 0;
    while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
        const struct cm_opt *row = NULL;
        const char *text;
        int rc;

        if (c == HELP_VAL)
            return 1;
        if (c == VERSION_VAL) {
            /* Every program answers --version here, the one place: like
             * --help the answer is the whole run, so this is the one exit
             * outside a main(). */
            cm_opt_version(stdout);
            exit(fflush(stdout) == 0 ? 0 : 1);
        }
        if (c == '?' || c == ':') {
            char label[96];

            row = row_of_val(sets, nsets, optopt, &s);
            *bad = row;
            if (c == ':' && row)
                return cm_errf(err, errlen, "%s: missing value",
                               cm_opt_label(row, label, sizeof(label)));
            if (optopt && optopt < 256)
                return cm_errf(err, errlen, "-%c: unknown option", optopt);
            return cm_errf(err, errlen, "%s: unknown option",
                           argv[optind - 1] ? argv[optind - 1] : "?");
        }
        row = row_of_val(sets, nsets, c, &s);
        if (!row)
            return cm_errf(err, errlen, "-%c: unknown option", c);
        text = optarg;
        if (!text && (row->flags & CM_OPT_OPT_ARG))
            text = row->opt_arg_value;
        rc = cm_opt_set(row, sets[s].base, text, err, errlen);
        if (rc < 0) {
            *bad = row;
            return rc;
        }
        if (sets[s].src)
            sets[s].src[row - sets[s].t] = CM_SRC_CLI;
    }
    *first_arg = optind;
    return 0;
}

int cm_opt_parse_argv(const struct cm_opt *t, size_t n, void *base, unsigned char *src,
                      int argc, char **argv, int *first_arg, const struct cm_opt **bad,
                      char *err, size_t errlen)
{
    const struct cm_opt_set one = {t, n, base, src, NULL};

    return cm_opt_parse_sets(&one, 1, argc, argv, first_arg, bad, err, errlen);
}

/* ---- echo and help ---------------------------------------------------------- */

const char *cm_opt_format(const struct cm_opt *row, const void *base, char *buf,
                          size_t len)
{
    const void *field = (const char *)base + row->offset;
    const struct cm_opt_enum *e;

    switch (row->type) {
    case CM_OPT_INT:
    case CM_OPT_FLAG:
        snprintf(buf, len, "%d", *(const int *)field);
        break;
    case CM_OPT_I64:
        snprintf(buf, len, "%" PRId64, *(const int64_t *)field);
        break;
    case CM_OPT_DOUBLE:
        snprintf(buf, len, "%g", *(const double *)field);
        break;
    case CM_OPT_STRING:
        snprintf(buf, len, "%s", (const char *)field);
        break;
    case CM_OPT_SIZE:
        snprintf(buf, len, "%" PRIu64, *(const uint64_t *)field);
        break;
    case CM_OPT_LIST: {
        const struct cm_opt_list *l = field;
        size_t used = 0;
        /* an empty list stands for the default the row names */
        snprintf(buf, len, "%s", l->n == 0 && row->def ? row->def : "");
        for (int i = 0; i < l->n && used < len; i++) {
            int k = snprintf(buf + used, len - used, "%s%s", i ? "," : "", l->v[i]);
            if (k < 0)
                break;
            used += (size_t)k;
        }
        break;
    }
    case CM_OPT_ENUM:
        snprintf(buf, len, "%d", *(const int *)field);
        for (e = row->enums; e && e->name; e++)
            if (e->value == *(const int *)field) {
                snprintf(buf, len, "%s", e->name);
                break;
            }
        break;
    }
    return buf;
}

/* Prints text after head ("  -l, --load LOAD") in the help's second column
 * (HELP_COL), words wrapped so that no line passes HELP_WIDTH columns (a
 * word longer than a line stands alone), the next lines indented to it. */
#define HELP_COL   31
#define HELP_WIDTH 80
static void help_row(FILE *out, const char *head, const char *text)
{
    int col = fprintf(out, "  %-28s", head);

    while (*text) {
        size_t w;

        while (*text == ' ')
            text++;
        w = strcspn(text, " ");
        if (w == 0)
            break;
        if (col > HELP_COL && col + 1 + (int)w > HELP_WIDTH) {
            fprintf(out, "\n%*s", HELP_COL, "");
            col = HELP_COL;
        } else {
            fputc(' ', out);
            col++;
        }
        col += fprintf(out, "%.*s", (int)w, text);
        text += w;
    }
    fputc('\n', out);
}

static void help_rows(FILE *out, const struct cm_opt *t, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const struct cm_opt *r = &t[i];
        char flags[80], range[96], text[1024];
        int k = 0, m;

        if (r->flags & (CM_OPT_RC_ONLY | CM_OPT_HIDDEN))
            continue;
        if (r->short_flag)
            k += snprintf(flags + k, sizeof(flags) - (size_t)k, "-%c", r->short_flag);
        if (r->long_name)
            k += snprintf(flags + k, sizeof(flags) - (size_t)k, "%s--%s",
                          r->short_flag ? ", " : "    ", r->long_name);
        if (needs_arg(r) && k < (int)sizeof(flags))
            snprintf(flags + k, sizeof(flags) - (size_t)k,
                     (r->flags & CM_OPT_OPT_ARG) ? "[=%s]" : " %s",
                     r->arg_name ? r->arg_name : "VALUE");
        m = snprintf(text, sizeof(text), "%s", r->help ? r->help : "");
        if (r->type == CM_OPT_INT || r->type == CM_OPT_I64 || r->type == CM_OPT_DOUBLE ||
            r->type == CM_OPT_SIZE) {
            range_text(r, range, sizeof(range));
            if (r->def)
                m += snprintf(text + m, sizeof(text) - (size_t)m,
                              " (default %s, range %s)", r->def, range);
            else
                m += snprintf(text + m, sizeof(text) - (size_t)m, " (range %s)", range);
        } else if (r->def && r->def[0] && r->type != CM_OPT_FLAG) {
            m += snprintf(text + m, sizeof(text) - (size_t)m, " (default %s)", r->def);
        }
        if (r->rc_name && m < (int)sizeof(text))
            snprintf(text + m, sizeof(text) - (size_t)m, " [%s]", r->rc_name);
        help_row(out, flags, text);
    }
}

void cm_opt_help_sets(FILE *out, const struct cm_opt_set *sets, size_t nsets)
{
    size_t s;

    for (s = 0; s < nsets; s++) {
        if (sets[s].title)
            fprintf(out, "%s:\n", sets[s].title);
        help_rows(out, sets[s].t, sets[s].n);
        if (s == 0) {
            help_row(out, "    --help", "Print this help and exit.");
            help_row(out, "    --version", "Print the version and exit.");
        }
    }
}

void cm_opt_help(FILE *out, const struct cm_opt *t, size_t n)
{
    const struct cm_opt_set one = {t, n, NULL, NULL, NULL};

    cm_opt_help_sets(out, &one, 1);
}

int cm_opt_main(const struct cm_opt *t, size_t n, void *base, int argc, char **argv,
                const char *usage, FILE *out, int *first_arg, const struct cm_opt **bad,
                char *err, size_t errlen)
{
    const struct cm_opt *at = NULL;
    int rc;

    *first_arg = argc;
    rc = cm_opt_defaults(t, n, base, NULL, err, errlen);
    if (rc == 0)
        rc = cm_opt_parse_argv(t, n, base, NULL, argc, argv, first_arg, &at, err, errlen);
    if (bad)
        *bad = at;
    if (rc == 1) {
        fputs(usage, out);
        cm_opt_help(out, t, n);
    }
    return rc;
}

void cm_opt_yaml(struct cm_yaml *y, const struct cm_opt *t, size_t n, const void *base,
                 const unsigned char *src)
{
    static const char *const sources[] = {"default", "rc file", "command line"};
    char buf[4096];

    for (size_t i = 0; i < n; i++) {
        const struct cm_opt *r = &t[i];
        const char *name = r->long_name ? r->long_name : r->rc_name;

        if ((r->flags & CM_OPT_HIDDEN) || name == NULL)
            continue;
        cm_yaml_key(y, name);
        cm_yaml_map_begin(y);
        cm_yaml_key(y, "value");
        cm_opt_format(r, base, buf, sizeof(buf));
        if (r->type == CM_OPT_INT || r->type == CM_OPT_I64 || r->type == CM_OPT_FLAG)
            cm_yaml_int(y, strtoll(buf, NULL, 10));
        else if (r->type == CM_OPT_SIZE)
            cm_yaml_uint(y, strtoull(buf, NULL, 10));
        else if (r->type == CM_OPT_DOUBLE)
            cm_yaml_double(y, strtod(buf, NULL), -1);
        else
            cm_yaml_str(y, buf);
        if (src && src[i] <= CM_SRC_CLI)
            cm_yaml_kv_str(y, "source", sources[src[i]]);
        cm_yaml_map_end(y);
    }
}
