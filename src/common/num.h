/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * num.h - checked number parsing for options and input files (common
 * layer, num.c): whole strings, overflow and range checked, the error text
 * naming the option or field; sizes with K/M/G/T suffixes; hex digits.
 */
#ifndef CM_NUM_H
#define CM_NUM_H

#include <stddef.h>
#include <stdint.h>

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

#endif /* CM_NUM_H */
