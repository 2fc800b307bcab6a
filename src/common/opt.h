/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * opt.h - table-driven options (docs/STYLE.md 2.7): one struct cm_opt row per
 * option carries its short flag, long name, rc-file name, type, offsetof
 * into the program's config struct, default as text, range, unit and help.
 * The same rows drive command-line parsing (getopt_long), range errors that
 * name the option and its limits, --help, and the echo of effective values
 * with their source.  The rc-file issue (D9) reuses these rows for sfs_mgr;
 * this file knows nothing of SFS.  Nothing here prints except cm_opt_help,
 * which writes to the stream its caller hands it.
 */
#ifndef CM_OPT_H
#define CM_OPT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/yaml.h"

enum cm_opt_type {
    CM_OPT_INT,    /* int field; min/max apply */
    CM_OPT_I64,    /* int64_t field; min/max apply */
    CM_OPT_DOUBLE, /* double field; min/max apply */
    CM_OPT_FLAG,   /* int field set to 1 by the bare flag (no argument) */
    CM_OPT_STRING, /* char[size] field; text longer than size-1 fails */
    CM_OPT_ENUM,   /* int field; the text must be one of enums[].name */
    CM_OPT_SIZE,   /* uint64_t field: bytes with an optional K, M, G or T
                      suffix (cm_parse_size); min/max apply */
    CM_OPT_LIST    /* struct cm_opt_list field: each use appends one text
                      (a repeatable option); at most max items */
};

/* The field of a CM_OPT_LIST row: the texts given, in order.  They point
 * into what was parsed (argv), which must outlive the list. */
#define CM_OPT_LIST_MAX 32
struct cm_opt_list {
    int n;
    const char *v[CM_OPT_LIST_MAX];
};

/* Where an effective value came from (echoed in the YAML results). */
enum cm_opt_src { CM_SRC_DEFAULT = 0, CM_SRC_RC = 1, CM_SRC_CLI = 2 };

struct cm_opt_enum {
    const char *name;
    int value;
};

/* Row flags. */
#define CM_OPT_CLI_ONLY  0x01u /* no rc name in use (e.g. -i, -P) */
#define CM_OPT_RC_ONLY   0x02u /* no command-line flag */
#define CM_OPT_OPT_ARG   0x04u /* long option whose argument is optional */
#define CM_OPT_NONSTD    0x08u /* a non-default value makes an SFS run invalid */
#define CM_OPT_MIN_EXCL0 0x10u /* for DOUBLE: value must be > min, not >= */
#define CM_OPT_HIDDEN    0x20u /* parsed, but left out of --help */
#define CM_OPT_POINT                                                                     \
    0x40u /* varies per sfs_mgr load point (LOAD, TRACE_SPEED):                          \
             the prime sets it per point, never as the rc says */

struct cm_opt {
    int short_flag;        /* 'l', or 0 for a long-only option */
    const char *long_name; /* "load", or NULL */
    const char *rc_name;   /* "LOAD", or NULL */
    enum cm_opt_type type;
    size_t offset;                   /* offsetof(struct config, field) */
    size_t size;                     /* sizeof the field (strings need it) */
    const char *def;                 /* default as text, parsed by cm_opt_defaults */
    double min, max;                 /* inclusive range for numbers */
    const char *unit;                /* "ops/s", "s", "%"... or NULL */
    const char *arg_name;            /* for --help: "LOAD", "FILE" */
    const char *help;                /* one sentence */
    const struct cm_opt_enum *enums; /* ENUM values, {NULL, 0} terminated */
    const char *opt_arg_value;       /* CM_OPT_OPT_ARG: text used when bare */
    unsigned flags;
    int exit_code; /* exit code main() uses when this option is bad */
};

/* Fills every field of base from the rows' defaults and sets src[i] (when
 * src is not NULL) to CM_SRC_DEFAULT.  Returns 0 or -EINVAL when a default
 * does not parse (a table bug), with the text in err. */
int cm_opt_defaults(const struct cm_opt *t, size_t n, void *base, unsigned char *src,
                    char *err, size_t errlen);

/* Parses text for one row into base (flags take "1"/"0"/NULL).  Range and
 * syntax errors give -EINVAL or -ERANGE and one line naming the option and
 * its allowed range, e.g. "-p (--procs): 0 is out of range 1..1000 processes". */
int cm_opt_set(const struct cm_opt *row, void *base, const char *text, char *err,
               size_t errlen);

/* Lookups; NULL when absent. */
const struct cm_opt *cm_opt_by_short(const struct cm_opt *t, size_t n, int c);
const struct cm_opt *cm_opt_by_long(const struct cm_opt *t, size_t n, const char *name);
const struct cm_opt *cm_opt_by_rc(const struct cm_opt *t, size_t n, const char *name);

/* "-l (--load)", "--seed", or "LOAD" for an rc-only row, into buf. */
const char *cm_opt_label(const struct cm_opt *row, char *buf, size_t len);

/* Parses argv with getopt_long built from the rows (rows with neither a short
 * flag nor a long name are skipped; --help is always recognised).  Every
 * value goes through cm_opt_set; src[i] becomes CM_SRC_CLI for each row set.
 * Stops at the first error: returns -EINVAL/-ERANGE with the message in err
 * and *bad pointing at the row (NULL for an unknown option).  Returns 1 when
 * --help was given, else 0; *first_arg gets the index of the first
 * positional argument.  --version prints cm_opt_version and exits 0.
 * Uses getopt's globals: not thread-safe, resets optind itself.  At most
 * CM_OPT_MAX_ROWS rows. */
int cm_opt_parse_argv(const struct cm_opt *t, size_t n, void *base, unsigned char *src,
                      int argc, char **argv, int *first_arg, const struct cm_opt **bad,
                      char *err, size_t errlen);

/* One table of a parse over several: a program's own options and those of
 * the parts it may run (a workload's), each table filling its own struct
 * (base) and sources (src, may be NULL).  title heads the table's rows in
 * --help (NULL: none). */
struct cm_opt_set {
    const struct cm_opt *t;
    size_t n;
    void *base;
    unsigned char *src;
    const char *title;
};

/* cm_opt_parse_argv over several tables at once (their names must not
 * collide; CM_OPT_MAX_ROWS rows in all): a value goes to the struct of
 * the table whose row it matches. */
int cm_opt_parse_sets(const struct cm_opt_set *sets, size_t nsets, int argc, char **argv,
                      int *first_arg, const struct cm_opt **bad, char *err,
                      size_t errlen);

/* cm_opt_help over several tables: each after its title line. */
void cm_opt_help_sets(FILE *out, const struct cm_opt_set *sets, size_t nsets);

/* The opening a program's main() shares: the rows' defaults into base, argv
 * parsed (cm_opt_parse_argv), --help answered by printing usage (one or
 * more lines, newline-terminated) and the table to out.  Returns 1 after
 * the help, 0 with *first_arg at the first operand, or -errno with the
 * message in err and, when bad is not NULL, *bad at the row at fault. */
int cm_opt_main(const struct cm_opt *t, size_t n, void *base, int argc, char **argv,
                const char *usage, FILE *out, int *first_arg, const struct cm_opt **bad,
                char *err, size_t errlen);

/* The value of a row in base as text (what the YAML echo writes). */
const char *cm_opt_format(const struct cm_opt *row, const void *base, char *buf,
                          size_t len);

/* Writes the generated option summary to out: one line per row with the
 * flags, the argument, the help sentence, the default and the range. */
void cm_opt_help(FILE *out, const struct cm_opt *t, size_t n);

/* Writes each row but the hidden ones into the open YAML map of y as
 * "NAME: {value: V, source: S}" (NAME the long name, else the rc name): V
 * typed by the row (integer, number, or text), S "default", "rc file" or
 * "command line" (left out when src is NULL).  The echo of what a program
 * ran with. */
struct cm_yaml;
void cm_opt_yaml(struct cm_yaml *y, const struct cm_opt *t, size_t n, const void *base,
                 const unsigned char *src);

/* FreeSFS's version: what every program's --version prints. */
#define CM_VERSION "0.9.0"

/* "PROGRAM (FreeSFS) VERSION" to out.  cm_opt_parse_argv answers --version
 * with it on stdout and exits 0, for every program (the one exit outside a
 * main(): the answer is the whole run). */
void cm_opt_version(FILE *out);

/* Longest option table cm_opt_parse_argv accepts. */
#define CM_OPT_MAX_ROWS 96

#endif /* CM_OPT_H */
