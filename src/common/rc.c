/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rc.c - the rc-file parser of rc.h: a small scanner over the whole buffer
 * (quotes may span lines, so it does not go line by line), one assignment
 * at a time.  Values are built in a growing buffer; an error skips to the
 * end of its line and parsing goes on, so one run reports every defect.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/text.h"
#include "common/rc.h"
#include "common/alloc.h"
#include "common/cm.h"
#include "common/error.h"

/* ---- reporting ------------------------------------------------------------- */

static void vreport(struct cm_rc *rc, long line, enum cm_severity sev, const char *fmt,
                    va_list ap)
{
    struct cm_pos pos = {rc->file, line, -1};
    char msg[1024];

    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (rc->diag)
        cm_report(rc->diag, &pos, sev, "%s", msg);
    if (sev == CM_WARNING) {
        rc->warnings++;
        return;
    }
    if (rc->errors++ == 0 && rc->err)
        cm_report_buf(rc->err, rc->errlen, &pos, sev, "%s", msg);
}

static void CM_PRINTF(3, 4) report_at(struct cm_rc *rc, long line, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(rc, line, CM_ERROR, fmt, ap);
    va_end(ap);
}

static void CM_PRINTF(3, 4) warn_at(struct cm_rc *rc, long line, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport(rc, line, CM_WARNING, fmt, ap);
    va_end(ap);
}

/* A caller's message about variable v (or the whole file when v is NULL). */
static void vreport_var(struct cm_rc *rc, const struct cm_rc_var *v, enum cm_severity sev,
                        const char *fmt, va_list ap)
{
    char msg[900];

    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (sev == CM_ERROR)
        report_at(rc, v ? v->line : 0, "%s%s%s", v ? v->name : "", v ? ": " : "", msg);
    else
        warn_at(rc, v ? v->line : 0, "%s%s%s", v ? v->name : "", v ? ": " : "", msg);
}

int cm_rc_error(struct cm_rc *rc, const struct cm_rc_var *v, const char *fmt, ...)
{
    va_list ap;

    if (v && v->bad)
        return -EINVAL; /* its line's error said it: no follow-on error */
    va_start(ap, fmt);
    vreport_var(rc, v, CM_ERROR, fmt, ap);
    va_end(ap);
    return -EINVAL;
}

void cm_rc_warning(struct cm_rc *rc, const struct cm_rc_var *v, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vreport_var(rc, v, CM_WARNING, fmt, ap);
    va_end(ap);
}

/* ---- variables ------------------------------------------------------------- */

const struct cm_rc_var *cm_rc_get(const struct cm_rc *rc, const char *name)
{
    size_t i;

    for (i = 0; i < rc->n; i++)
        if (strcmp(rc->vars[i].name, name) == 0)
            return &rc->vars[i];
    return NULL;
}

const char *cm_rc_value(const struct cm_rc *rc, const char *name, const char *dflt)
{
    const struct cm_rc_var *v = cm_rc_get(rc, name);

    return v && v->value[0] ? v->value : dflt;
}

/* Sets name (a later assignment replaces an earlier one, as in sh). */
static int set_var(struct cm_rc *rc, const char *name, size_t nlen, char *value,
                   long line, size_t off, size_t end, int bad)
{
    struct cm_rc_var *v;
    size_t i;

    for (i = 0; i < rc->n; i++) {
        v = &rc->vars[i];
        if (strlen(v->name) == nlen && memcmp(v->name, name, nlen) == 0) {
            free(v->value);
            v->value = value;
            v->line = line;
            v->off = off;
            v->end = end;
            v->bad = bad;
            return 0;
        }
    }
    if (rc->n == rc->cap) {
        size_t cap = rc->cap ? rc->cap * 2 : 32;
        struct cm_rc_var *nv = cm_realloc(rc->vars, cap * sizeof(*nv));
        if (nv == NULL)
            return -ENOMEM;
        rc->vars = nv;
        rc->cap = cap;
    }
    v = &rc->vars[rc->n];
    v->name = cm_strndup(name, nlen);
    if (v->name == NULL)
        return -ENOMEM;
    v->value = value;
    v->line = line;
    v->off = off;
    v->end = end;
    v->bad = bad;
    rc->n++;
    return 0;
}

/* A malformed assignment, already reported: the variable is kept, empty and
 * marked bad, so that a caller's "NAME must be set" does not follow the
 * real error; its bytes run to the end of the line (what an edit replaces). */
static int set_bad_var(struct cm_rc *rc, const char *base, const char *name, size_t nlen,
                       long line, const char *line_end)
{
    char *v = cm_strdup("");
    int rc_;

    if (v == NULL)
        return -ENOMEM;
    rc_ = set_var(rc, name, nlen, v, line, (size_t)(name - base),
                  (size_t)(line_end - base), 1);
    if (rc_ < 0)
        free(v);
    return rc_;
}

/* ---- the scanner ------------------------------------------------------------- */

struct scan {
    struct cm_rc *rc;
    const char *base, *p, *end;
    long line;
    char *buf; /* the value being built */
    size_t len, cap;
    size_t total; /* bytes of every value built so far */
    int nomem;
    int toolong; /* the value passed CM_RC_VALUE_MAX: nothing more is kept */
};

/* Appends to the value; past CM_RC_VALUE_MAX it only notes that the value
 * is too long, so that "$A$A$A..." expansions stop growing at once. */
static void put(struct scan *s, const char *c, size_t n)
{
    if (s->toolong)
        return;
    if (s->len + n > CM_RC_VALUE_MAX) {
        s->toolong = 1;
        return;
    }
    if (s->len + n + 1 > s->cap) {
        size_t cap = (s->len + n + 1) * 2;
        char *nb = cm_realloc(s->buf, cap);
        if (nb == NULL) {
            s->nomem = 1;
            return;
        }
        s->buf = nb;
        s->cap = cap;
    }
    memcpy(s->buf + s->len, c, n);
    s->len += n;
    s->buf[s->len] = '\0';
}

static int is_name_start(int c)
{
    return isalpha(c) || c == '_';
}

static int is_name_char(int c)
{
    return isalnum(c) || c == '_';
}

static int at_end(const struct scan *s)
{
    return s->p >= s->end;
}

/* Expands $NAME or ${NAME} at s->p (which points at the '$').  Returns 0 or
 * -EINVAL after reporting. */
static int expand(struct scan *s)
{
    const char *name, *q = s->p + 1;
    const char *val = NULL;
    const struct cm_rc_var *v;
    size_t nlen;
    char tmp[256];

    if (q < s->end && *q == '(') {
        report_at(s->rc, s->line, "command substitution $(...) is not allowed");
        return -EINVAL;
    }
    if (q < s->end && *q == '{') {
        name = ++q;
        while (q < s->end && is_name_char((unsigned char)*q))
            q++;
        if (q == name || q >= s->end || *q != '}' ||
            !is_name_start((unsigned char)*name)) {
            report_at(s->rc, s->line,
                      "only ${NAME} is allowed inside ${...} (no defaults, no "
                      "operators: the rc file is data)");
            return -EINVAL;
        }
        nlen = (size_t)(q - name);
        s->p = q + 1;
    } else if (q < s->end && is_name_start((unsigned char)*q)) {
        name = q;
        while (q < s->end && is_name_char((unsigned char)*q))
            q++;
        nlen = (size_t)(q - name);
        s->p = q;
    } else if (q < s->end && strchr("0123456789$?!#*@-", *q)) {
        report_at(s->rc, s->line, "'$%c' is not allowed (only $NAME and ${NAME})", *q);
        return -EINVAL;
    } else {
        put(s, "$", 1); /* a lone '$' is itself, as in sh */
        s->p = q;
        return 0;
    }
    snprintf(tmp, sizeof(tmp), "%.*s", (int)(nlen < 255 ? nlen : 255), name);
    v = cm_rc_get(s->rc, tmp);
    if (v)
        val = v->value;
    else
        val = getenv(tmp);
    if (val == NULL) {
        warn_at(s->rc, s->line, "%s is not set; it expands to nothing", tmp);
        val = "";
    }
    put(s, val, strlen(val));
    return 0;
}

/* A single-quoted part: everything up to the next quote, literally. */
static int single_quoted(struct scan *s)
{
    long opened = s->line;

    s->p++;
    while (!at_end(s) && *s->p != '\'') {
        if (*s->p == '\n')
            s->line++;
        put(s, s->p++, 1);
    }
    if (at_end(s)) {
        report_at(s->rc, opened,
                  "unterminated single quote (opened here, still open at end of file)");
        return -EINVAL;
    }
    s->p++;
    return 0;
}

/* A double-quoted part: $ expansions, \ escapes of $ ` " \ and newline. */
static int double_quoted(struct scan *s)
{
    long opened = s->line;

    s->p++;
    while (!at_end(s) && *s->p != '"') {
        char c = *s->p;
        if (c == '\\' && s->p + 1 < s->end && strchr("$`\"\\\n", s->p[1])) {
            if (s->p[1] == '\n')
                s->line++;
            else
                put(s, s->p + 1, 1);
            s->p += 2;
        } else if (c == '$') {
            if (expand(s) < 0)
                return -EINVAL;
        } else if (c == '`') {
            report_at(s->rc, s->line, "command substitution `...` is not allowed");
            return -EINVAL;
        } else {
            if (c == '\n')
                s->line++;
            put(s, s->p++, 1);
        }
    }
    if (at_end(s)) {
        report_at(s->rc, opened,
                  "unterminated double quote (opened here, still open at end of file)");
        return -EINVAL;
    }
    s->p++;
    return 0;
}

/* Characters that make a shell do something other than assign. */
static int shell_char(struct scan *s, char c)
{
    switch (c) {
    case ';':
        report_at(s->rc, s->line,
                  "';' is not allowed (one assignment per line; the rc file is data)");
        return 1;
    case '`':
        report_at(s->rc, s->line, "command substitution `...` is not allowed");
        return 1;
    case '&':
    case '|':
    case '<':
    case '>':
    case '(':
    case ')':
        report_at(s->rc, s->line,
                  "'%c' is not allowed (the rc file is data, not a script)", c);
        return 1;
    default:
        return 0;
    }
}

/* The value after '=': quoted and unquoted parts up to a blank or the end
 * of the line.  Returns 0 or -EINVAL after reporting. */
static int value(struct scan *s)
{
    while (!at_end(s) && !s->toolong && *s->p != '\n' && *s->p != ' ' && *s->p != '\t' &&
           *s->p != '\r') {
        char c = *s->p;
        int rc = 0;

        if (c == '\'')
            rc = single_quoted(s);
        else if (c == '"')
            rc = double_quoted(s);
        else if (c == '$')
            rc = expand(s);
        else if (c == '\\' && s->p + 1 < s->end) {
            if (s->p[1] == '\n')
                s->line++;
            else
                put(s, s->p + 1, 1);
            s->p += 2;
        } else if (shell_char(s, c))
            rc = -EINVAL;
        else
            put(s, s->p++, 1);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static void skip_line(struct scan *s)
{
    while (!at_end(s) && *s->p != '\n')
        s->p++;
}

static void skip_blanks(struct scan *s)
{
    while (!at_end(s) && (*s->p == ' ' || *s->p == '\t' || *s->p == '\r'))
        s->p++;
}

static const char *const keywords[] = {"if",    "then", "else",     "elif",   "fi",
                                       "for",   "do",   "done",     "while",  "until",
                                       "case",  "esac", "function", "export", "set",
                                       "unset", "eval", "exec",     ".",      "source"};

static void not_assignment(struct scan *s)
{
    const char *w = s->p;
    size_t n = 0, i;

    while (w + n < s->end && !isspace((unsigned char)w[n]) && w[n] != '=' && n < 64)
        n++;
    for (i = 0; i < CM_ARRAY_LEN(keywords); i++)
        if (strlen(keywords[i]) == n && memcmp(keywords[i], w, n) == 0) {
            report_at(s->rc, s->line,
                      "'%s' is not allowed: the rc file is parsed as NAME=value lines, "
                      "never executed",
                      keywords[i]);
            return;
        }
    report_at(s->rc, s->line, "expected NAME=value, found '%.*s'", (int)n, w);
}

/* Where the line holding p ends (its newline, or the end of the text). */
static const char *line_end(const struct scan *s, const char *p)
{
    const char *nl = memchr(p, '\n', (size_t)(s->end - p));

    return nl ? nl : s->end;
}

/* One line (or more, when a quote spans lines).  Returns -ENOMEM or 0. */
static int statement(struct scan *s, cm_rc_known_fn known, void *data)
{
    const char *name, *vend;
    size_t nlen;
    long line;
    int rc;

    skip_blanks(s);
    if (at_end(s))
        return 0;
    if (*s->p == '\n') {
        s->p++;
        s->line++;
        return 0;
    }
    if (*s->p == '#') {
        skip_line(s);
        return 0;
    }
    line = s->line;
    name = s->p;
    if (!is_name_start((unsigned char)*s->p)) {
        not_assignment(s);
        skip_line(s);
        return 0;
    }
    while (!at_end(s) && is_name_char((unsigned char)*s->p))
        s->p++;
    nlen = (size_t)(s->p - name);
    if (at_end(s) || *s->p != '=') {
        s->p = name;
        not_assignment(s);
        skip_line(s);
        return 0;
    }
    s->p++;
    s->len = 0;
    s->toolong = 0;
    put(s, "", 0);
    rc = value(s);
    if (rc == 0 && s->toolong) {
        report_at(s->rc, line,
                  "%.*s: the value is longer than %u bytes (1 MiB) after expansion",
                  (int)nlen, name, CM_RC_VALUE_MAX);
        rc = -EINVAL;
    }
    if (rc == 0 && s->total + s->len > CM_RC_TOTAL_MAX) {
        /* an rc file never needs this much: stop before memory grows */
        report_at(s->rc, line,
                  "%.*s: the rc file's values add up to more than %u bytes (16 MiB) "
                  "after expansion; nothing after this line is read",
                  (int)nlen, name, CM_RC_TOTAL_MAX);
        s->p = s->end;
        return set_bad_var(s->rc, s->base, name, nlen, line, line_end(s, name));
    }
    if (rc < 0) {
        if (s->nomem)
            return -ENOMEM;
        skip_line(s);
        return set_bad_var(s->rc, s->base, name, nlen, line, line_end(s, s->p));
    }
    s->total += s->len;
    vend = s->p;
    skip_blanks(s);
    if (!at_end(s) && *s->p != '\n' && *s->p != '#') {
        if (!shell_char(s, *s->p))
            report_at(s->rc, s->line,
                      "%.*s: a blank ends the value; quote a list (%.*s=\"a b\")",
                      (int)nlen, name, (int)nlen, name);
        rc = set_bad_var(s->rc, s->base, name, nlen, line, line_end(s, s->p));
        skip_line(s);
        return rc;
    }
    skip_line(s);
    if (s->nomem)
        return -ENOMEM;
    {
        char *v = cm_strdup(s->buf ? s->buf : "");
        char tmp[128];

        if (v == NULL)
            return -ENOMEM;
        rc = set_var(s->rc, name, nlen, v, line, (size_t)(name - s->base),
                     (size_t)(vend - s->base), 0);
        if (rc < 0) {
            free(v);
            return rc;
        }
        snprintf(tmp, sizeof(tmp), "%.*s", (int)(nlen < 127 ? nlen : 127), name);
        if (known) {
            const char *near = NULL;

            if (known(tmp, data, &near))
                return 0;
            if (near) /* a typo of a known name would silently be ignored */
                report_at(s->rc, line, "unknown variable %s: did you mean %s?", tmp,
                          near);
            else
                warn_at(s->rc, line, "unknown variable %s", tmp);
        }
    }
    return 0;
}

/* A NUL byte would cut the value it is in ("LOAD=1\\00" read as 1): every
 * line holding one is an error. */
static void report_nuls(struct cm_rc *rc, const char *text, size_t len)
{
    const char *p, *end = text + len, *start = text;
    long line = 1;

    for (p = text; p < end; p++) {
        if (*p == '\n') {
            line++;
            start = p + 1;
        } else if (*p == '\0') {
            report_at(rc, line, "a NUL byte at column %ld (an rc file is text)",
                      (long)(p - start) + 1);
            p = memchr(p, '\n', (size_t)(end - p));
            if (p == NULL)
                return;
            line++;
            start = p + 1;
        }
    }
}

int cm_rc_parse(struct cm_rc *rc, const char *name, const char *text, size_t len,
                cm_rc_known_fn known, void *data, FILE *diag, char *err, size_t errlen)
{
    struct scan s;
    int r = 0;

    memset(rc, 0, sizeof(*rc));
    rc->file = cm_strdup(name);
    rc->diag = diag;
    rc->err = err;
    rc->errlen = errlen;
    if (err && errlen)
        err[0] = '\0';
    if (rc->file == NULL) {
        rc->errors++;
        return cm_report_nomem(diag, name, err, errlen);
    }
    memset(&s, 0, sizeof(s));
    s.rc = rc;
    s.base = text;
    s.p = text;
    s.end = text + len;
    s.line = 1;
    report_nuls(rc, text, len);
    while (!at_end(&s) && r == 0)
        r = statement(&s, known, data);
    free(s.buf);
    if (r == -ENOMEM) {
        rc->errors++;
        return cm_report_nomem(diag, name, err, errlen);
    }
    if (r < 0)
        return r;
    return rc->errors ? -EINVAL : 0;
}

int cm_rc_load(struct cm_rc *rc, const char *path, cm_rc_known_fn known, void *data,
               FILE *diag, char *err, size_t errlen)
{
    char *text = NULL;
    size_t len = 0;
    int r;

    r = cm_text_read(path, &text, &len, diag, err, errlen);
    if (r < 0) {
        memset(rc, 0, sizeof(*rc));
        rc->errors = 1;
        return r;
    }
    r = cm_rc_parse(rc, path, text, len, known, data, diag, err, errlen);
    free(text);
    return r;
}

void cm_rc_free(struct cm_rc *rc)
{
    size_t i;

    for (i = 0; i < rc->n; i++) {
        free(rc->vars[i].name);
        free(rc->vars[i].value);
    }
    free(rc->vars);
    free(rc->file);
    memset(rc, 0, sizeof(*rc));
}

int cm_rc_split(const char *value, char ***words, size_t max)
{
    size_t n = 0, len = strlen(value), i;
    const char *p = value;
    char **w, *copy;

    *words = NULL;
    while (*p) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        n++;
        while (*p && !isspace((unsigned char)*p))
            p++;
    }
    if (n > max)
        return -E2BIG;
    w = cm_malloc((n + 1) * sizeof(*w) + len + 1);
    if (w == NULL)
        return -ENOMEM;
    copy = (char *)(w + n + 1);
    memcpy(copy, value, len + 1);
    for (i = 0, p = copy; i < n; i++) {
        char *q = (char *)p;
        while (isspace((unsigned char)*q))
            q++;
        w[i] = q;
        while (*q && !isspace((unsigned char)*q))
            q++;
        p = *q ? q + 1 : q;
        *q = '\0';
    }
    w[n] = NULL;
    *words = w;
    return (int)n;
}

/* ---- near names ------------------------------------------------------------ */

int cm_rc_name_distance(const char *name, const char *known)
{
    size_t n = strlen(name), m = strlen(known), i, j;
    int row[3][CM_RC_NAME_MAX + 1], limit, best;

    if (n > CM_RC_NAME_MAX || m > CM_RC_NAME_MAX || strcmp(name, known) == 0)
        return -1;
    /* short names allow fewer edits: TMP is no typo of TCP, DUMMY none of
     * DUMP */
    limit = m < 4 ? 0 : m < 6 ? 1 : 2;
    if ((n > m ? n - m : m - n) > (size_t)limit)
        return -1;
    /* Damerau-Levenshtein (optimal string alignment), case-insensitive,
     * keeping three rows */
    for (j = 0; j <= m; j++)
        row[0][j] = (int)j;
    for (i = 1; i <= n; i++) {
        int *cur = row[i % 3], *prev = row[(i - 1) % 3], *pp = row[(i + 1) % 3];

        cur[0] = (int)i;
        for (j = 1; j <= m; j++) {
            int a = toupper((unsigned char)name[i - 1]);
            int b = toupper((unsigned char)known[j - 1]);
            int d = prev[j - 1] + (a != b);

            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && a == toupper((unsigned char)known[j - 2]) &&
                toupper((unsigned char)name[i - 2]) == b && pp[j - 2] + 1 < d)
                d = pp[j - 2] + 1;
            cur[j] = d;
        }
    }
    best = row[n % 3][m];
    return best <= limit ? best : -1;
}

int cm_rc_name_resemblance(const char *name, const char *known)
{
    size_t n = strlen(name), m = strlen(known);
    const char *shorter = n < m ? name : known, *longer = n < m ? known : name;
    size_t k = n < m ? n : m;
    int d = cm_rc_name_distance(name, known);

    if (d >= 0 || n == m || k < 4 || longer[k] != '_')
        return d;
    return strncasecmp(shorter, longer, k) == 0 ? 3 : -1;
}
