/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * rc.h - the rc file as data (docs/DECISIONS.md D9; docs/SFS30.md §14).  An SFS
 * rc file is a Bourne-shell fragment; FreeSFS parses it and never executes
 * it: `NAME=value` lines, '...' and "..." quoting (either may span lines),
 * backslash escapes, `#` comments, blank lines, and $NAME / ${NAME} taken
 * from earlier assignments, then from the environment.  Anything a shell
 * would run - command substitution, `;`, `&`, pipes, redirections, control
 * flow, a second word after the value - is an error "FILE:LINE: message",
 * so are a NUL byte and a value longer than 1 MiB after expansion.
 * An unset reference expands to nothing with a warning; a name the caller
 * does not know is a warning (an error when it is a typo of a known one).  Every message
 * goes through cm_report, so the positions look like every other input file's.
 *
 * The parser knows nothing of SFS: callers say which names they know and
 * interpret the values (cm_rc_error reports a bad value at its line).
 */
#ifndef CM_RC_H
#define CM_RC_H

#include <stddef.h>
#include <stdio.h>

#include "common/cm.h"

struct cm_rc_var {
    char *name;
    char *value; /* after quote removal and expansion */
    long line;   /* where the (last) assignment starts */
    /* its bytes in the parsed text: [off, end) holds NAME=value without
     * the blanks and comment after it (cm_rc_edit replaces exactly these) */
    size_t off, end;
    /* its assignment was malformed (reported at its line); the value is
     * "" and cm_rc_error says nothing more of it: no follow-on errors */
    int bad;
};

struct cm_rc {
    char *file; /* the file as the user named it */
    struct cm_rc_var *vars;
    size_t n, cap;
    int errors, warnings;
    FILE *diag; /* every message (may be NULL) */
    char *err;  /* the first error (may be NULL) */
    size_t errlen;
};

/* The longest value, after expansion (a longer one is an error at its
 * line), and the most all of a file's values may add up to: "$A$A..."
 * expansions stop there instead of growing until memory runs out. */
#define CM_RC_VALUE_MAX (1u << 20)
#define CM_RC_TOTAL_MAX (16u << 20)

/* Whether a variable name is known to the caller: 1 known; 0 unknown, a
 * warning - unless the caller sets *near to a known name the unknown one
 * resembles (cm_rc_name_resemblance), which makes it an error "unknown
 * variable RUN_TIME: did you mean RUNTIME?", since the setting it meant
 * would otherwise be silently ignored. */
typedef int (*cm_rc_known_fn)(const char *name, void *data, const char **near);

/* How far name is from the known name when it looks like a typo of it: the
 * number of edits (a letter changed, added, dropped, or two swapped; case
 * ignored), at most 2 for known names of 6 or more characters, 1 for 4 or
 * 5, 0 (case only) for shorter ones; else -1.  Also -1 for the same name. */
#define CM_RC_NAME_MAX 64
int cm_rc_name_distance(const char *name, const char *known);

/* How much name resembles the known name: cm_rc_name_distance's edits (0
 * to 2) when it looks like a typo of it, else 3 when one of the two is the
 * other cut at a '_' and the shorter has 4 characters or more (WARMUP for
 * WARMUP_TIME, RUNTIME_SEC for RUNTIME; case ignored), else -1. */
int cm_rc_name_resemblance(const char *name, const char *known);

/*
 * Parses text (len bytes) named name into rc.  known may be NULL (every name
 * known).  Diagnostics go to diag (may be NULL); the first error's text also
 * goes to err.  Returns 0, -EINVAL when the file had errors (all of them
 * were reported), or -ENOMEM.  rc is usable (and must be freed) either way.
 */
int cm_rc_parse(struct cm_rc *rc, const char *name, const char *text, size_t len,
                cm_rc_known_fn known, void *data, FILE *diag, char *err, size_t errlen);

/* Reads path and parses it; a file that cannot be read gives "FILE: reason". */
int cm_rc_load(struct cm_rc *rc, const char *path, cm_rc_known_fn known, void *data,
               FILE *diag, char *err, size_t errlen);

void cm_rc_free(struct cm_rc *rc);

/* The variable, or NULL when the file does not assign it. */
const struct cm_rc_var *cm_rc_get(const struct cm_rc *rc, const char *name);

/* Its value, or dflt when it is unassigned or empty (sh's ${NAME:-dflt}). */
const char *cm_rc_value(const struct cm_rc *rc, const char *name, const char *dflt);

/*
 * Reports a value the caller rejects: "FILE:LINE: error: NAME: message"
 * (v's line; v NULL gives "FILE: error: message"), counted in rc->errors.
 * Silent for a variable whose assignment was already reported (v->bad).
 * Returns -EINVAL.
 */
int cm_rc_error(struct cm_rc *rc, const struct cm_rc_var *v, const char *fmt, ...)
    CM_PRINTF(3, 4);
/* The same as a warning. */
void cm_rc_warning(struct cm_rc *rc, const struct cm_rc_var *v, const char *fmt, ...)
    CM_PRINTF(3, 4);

/*
 * Splits a list value on blanks (spaces, tabs, newlines) into at most max
 * words: copies of the words go into one malloc'ed block that *words points
 * into (free(*words) frees all).  Returns the count, or -E2BIG / -ENOMEM.
 */
int cm_rc_split(const char *value, char ***words, size_t max);

/* ---- writing (rcwrite.c: runsfs saves rc files through sfs_rc) ------------- */

struct cm_rc_assign {
    const char *name;  /* NAME: a letter or '_', then letters, digits, '_' */
    const char *value; /* stored literally: no $NAME in it is expanded */
};

/*
 * Writes value as rc text that the parser reads back as exactly value: bare
 * when it is non-empty and only letters, digits and _ - . / : , + @ %,
 * otherwise in double quotes with $ ` " and \ escaped.  Returns the length,
 * or -E2BIG when it does not fit in len bytes (with its NUL).
 */
int cm_rc_quote(const char *value, char *buf, size_t len);

/*
 * Applies n assignments to an rc text (len bytes, named name in messages):
 * the last assignment of each name is replaced in place by NAME=value, so
 * that every other byte - comments (also one after the value), blank
 * lines, the order of the lines - stays as it was; a name the text does
 * not assign is appended on a line of its own.  When sets name a variable
 * twice, the later one wins.  A text with errors is refused: -EINVAL with
 * every error reported to diag (FILE:LINE) and the first in err; so is a
 * bad name.  *out gets the new text (malloc'ed, NUL-terminated) and
 * *outlen its length.  Returns 0, -EINVAL, -EIO (the result would not read
 * back as asked: a bug) or -ENOMEM.  Every failure is also written to diag
 * (when not NULL), so a caller with a diag stream prints nothing itself.
 */
int cm_rc_edit(const char *name, const char *text, size_t len,
               const struct cm_rc_assign *sets, size_t n, char **out, size_t *outlen,
               FILE *diag, char *err, size_t errlen);

/*
 * cm_rc_edit on the file from (NULL: path itself), written to path through
 * a temporary file and rename (cm_atomic): path is replaced whole or not at
 * all, and it is left alone when from has errors.  Failures to read or
 * write go to diag too.
 */
int cm_rc_write(const char *path, const char *from, const struct cm_rc_assign *sets,
                size_t n, FILE *diag, char *err, size_t errlen);

#endif /* CM_RC_H */
