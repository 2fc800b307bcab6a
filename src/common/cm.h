/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cm.h - the common layer: the bottom of FreeSFS.  Error text and
 * "FILE:LINE: message" reports, the monotonic clock, the Park-Miller random
 * generator of SFS 3.0, checked number parsing, atomic file replacement and
 * the YAML writer (libyaml).  Every other layer may include this header; it
 * includes nothing of the project's.
 *
 * Conventions (docs/STYLE.md 2.4): functions return 0 or a negative errno; detail
 * text goes into a caller-owned buffer, never to stdout; only main() exits.
 */
#ifndef CM_H
#define CM_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CM_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#define CM_ARRAY_LEN(a)      (sizeof(a) / sizeof((a)[0]))

/* Size of the error buffers that contexts carry (one line of text). */
#define CM_ERR_LEN 512

/*
 * The assert policy (docs/STYLE.md 2.4).  assert() states an invariant that
 * costs a comparison or two and stays on in every build, release included:
 * no wrapper defines NDEBUG, because a broken invariant means results that
 * are silently wrong.  CM_ASSERT_DEBUG states one whose check costs a
 * search (a hash lookup, a walk of a list) on a hot path: it is checked
 * only in builds that define CM_DEBUG_CHECKS (M.debug and M.coverage, so
 * every `make test` runs the unit tests with it) and compiles to nothing
 * elsewhere - the expression is then type-checked but never evaluated, so
 * it must have no side effect either way (and a static function it alone
 * calls would be unused there: clang says so).
 */
#ifdef CM_DEBUG_CHECKS
#include <assert.h>
#define CM_ASSERT_DEBUG(expr) assert(expr)
#else
#define CM_ASSERT_DEBUG(expr) ((void)sizeof(!(expr)))
#endif

/* ---- error text --------------------------------------------------------- */

/* Formats into buf (len bytes, always terminated); buf may be NULL.  Returns
 * -EINVAL so that callers can write `return cm_err(e, n, "...")`-style code
 * when they want a generic failure; most pass their own -errno instead. */
int cm_errf(char *buf, size_t len, const char *fmt, ...) CM_PRINTF(3, 4);

/* A position in an input file, for "FILE:LINE: message" reports. */
struct cm_pos {
    const char *file; /* as the user named it */
    long line;        /* 1-based; 0 = no line (whole file) */
    long offset;      /* byte offset for binary files, -1 when unused */
};

enum cm_severity { CM_WARNING, CM_ERROR };

/* Prints "FILE:LINE: error: message" (or "warning:") to the stream, the GNU
 * form editors jump to.  With pos->line == 0 and offset >= 0 it prints
 * "FILE: byte OFFSET: ...".  This is the one reporter for input files: the
 * rc parser, mix and block-size files and the trace readers all use it. */
void cm_report(FILE *out, const struct cm_pos *pos, enum cm_severity sev, const char *fmt,
               ...) CM_PRINTF(4, 5);

/* Formats the same text as cm_report into a buffer, without the newline. */
void cm_report_buf(char *buf, size_t len, const struct cm_pos *pos, enum cm_severity sev,
                   const char *fmt, ...) CM_PRINTF(5, 6);

/* "NAME: error: out of memory" to diag (may be NULL) and into err (may be
 * NULL): a parser's answer when an allocation fails.  Returns -ENOMEM. */
int cm_report_nomem(FILE *diag, const char *name, char *err, size_t errlen);

/* ---- time --------------------------------------------------------------- */

/* CLOCK_MONOTONIC in nanoseconds.  Never goes back; not wall time. */
uint64_t cm_now_ns(void);
/* The same clock in milliseconds: phase deadlines and timeouts. */
uint64_t cm_now_ms(void);
/* CLOCK_REALTIME split into seconds and nanoseconds, for NFS times. */
void cm_wall_time(uint32_t *sec, uint32_t *nsec);

/* A clock that tests can step: production code reads time through one of
 * these so that pacing and timeouts are testable without sleeping. */
struct cm_clock {
    uint64_t (*now_ns)(void *data);
    void *data;
};
extern const struct cm_clock cm_monotonic_clock;
static inline uint64_t cm_clock_now(const struct cm_clock *c)
{
    return c->now_ns(c->data);
}

/* ---- random numbers: SFS 3.0's Park-Miller minimal standard (docs/SFS30.md §8) ---- */

struct cm_rng {
    int32_t state; /* in [1, 2^31 - 2] */
};
#define CM_RNG_MODULUS      2147483647 /* 2^31 - 1 */
#define CM_RNG_DEFAULT_SEED 2231

/* Seeds the generator; a seed of 0 (not allowed by the algorithm) or one
 * outside the range is folded into it. */
void cm_rng_seed(struct cm_rng *r, int64_t seed);
/* Next value in [1, 2^31 - 2] (Schrage's method, no overflow). */
int32_t cm_rng_next(struct cm_rng *r);
/* Uniform integer in [0, n) for 0 < n <= 2^31 - 2, without modulo bias. */
uint32_t cm_rng_below(struct cm_rng *r, uint32_t n);
/* Uniform double in (0, 1). */
double cm_rng_unit(struct cm_rng *r);

/* ---- numbers ------------------------------------------------------------ */

/* Parses a whole string as a decimal integer in [min, max].  Leading or
 * trailing junk, overflow and out-of-range values fail with -EINVAL or
 * -ERANGE; the text in err names what, e.g. "-l: 'abc' is not an integer". */
int cm_parse_i64(const char *what, const char *s, int64_t min, int64_t max, int64_t *out,
                 char *err, size_t errlen);
int cm_parse_u64(const char *what, const char *s, uint64_t min, uint64_t max,
                 uint64_t *out, char *err, size_t errlen);
int cm_parse_double(const char *what, const char *s, double min, double max, double *out,
                    char *err, size_t errlen);
/* The value of a hexadecimal digit of either case, or -1. */
int cm_hex_digit(int c);
/* Decodes the 2 x n hex digits at s into n bytes of out.  0, or -EINVAL
 * when a character is not a hex digit (out then holds what came before). */
int cm_hex_decode(const char *s, size_t n, uint8_t *out);
/* Sizes with an optional K, M, G or T suffix (powers of 1024). */
int cm_parse_size(const char *what, const char *s, uint64_t *out, char *err,
                  size_t errlen);

/* ---- files -------------------------------------------------------------- */

/* Atomic replacement: write to "<path>.tmp.<pid>", then rename over path,
 * so that a reader never sees half a file and a crash loses nothing that was
 * finished before. */
struct cm_atomic_file {
    FILE *fp;
    char path[4096];
    char tmp[4200];
};
int cm_atomic_open(struct cm_atomic_file *af, const char *path, char *err, size_t errlen);
/* Flushes, fsyncs and renames; on any failure removes the temporary file. */
int cm_atomic_commit(struct cm_atomic_file *af, char *err, size_t errlen);
/* Drops the temporary file (on an error path). */
void cm_atomic_abort(struct cm_atomic_file *af);

/* ---- YAML output (libyaml emitter) ------------------------------------- */

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

#endif /* CM_H */
