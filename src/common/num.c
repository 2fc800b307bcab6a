/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * num.c - checked number parsing for options and input files (common
 * layer).  Whole-string, overflow-checked, range-checked; the error text
 * names the option or field so callers can print it as it is.  Also hex
 * digits and hex-encoded bytes (tokens, file handles).
 */
#include "common/error.h"
#include "common/num.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int cm_parse_i64(const char *what, const char *s, int64_t min, int64_t max, int64_t *out,
                 char *err, size_t errlen)
{
    char *end;
    long long v;

    if (s == NULL || *s == '\0') {
        cm_errf(err, errlen, "%s: empty value", what);
        return -EINVAL;
    }
    errno = 0;
    v = strtoll(s, &end, 10);
    if (*end != '\0' || end == s) {
        cm_errf(err, errlen, "%s: '%s' is not an integer", what, s);
        return -EINVAL;
    }
    if (errno == ERANGE || v < min || v > max) {
        cm_errf(err, errlen, "%s: %s is out of range %lld..%lld", what, s, (long long)min,
                (long long)max);
        return -ERANGE;
    }
    *out = v;
    return 0;
}

int cm_parse_u64(const char *what, const char *s, uint64_t min, uint64_t max,
                 uint64_t *out, char *err, size_t errlen)
{
    char *end;
    unsigned long long v;
    const char *p = s;

    if (s == NULL || *s == '\0') {
        cm_errf(err, errlen, "%s: empty value", what);
        return -EINVAL;
    }
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p == '-' || *p == '+') {
        cm_errf(err, errlen, "%s: '%s' is not a non-negative integer", what, s);
        return -EINVAL;
    }
    errno = 0;
    v = strtoull(s, &end, 10);
    if (*end != '\0' || end == s) {
        cm_errf(err, errlen, "%s: '%s' is not a non-negative integer", what, s);
        return -EINVAL;
    }
    if (errno == ERANGE || v < min || v > max) {
        cm_errf(err, errlen, "%s: %s is out of range %llu..%llu", what, s,
                (unsigned long long)min, (unsigned long long)max);
        return -ERANGE;
    }
    *out = v;
    return 0;
}

int cm_parse_double(const char *what, const char *s, double min, double max, double *out,
                    char *err, size_t errlen)
{
    char *end;
    double v;

    if (s == NULL || *s == '\0') {
        cm_errf(err, errlen, "%s: empty value", what);
        return -EINVAL;
    }
    errno = 0;
    v = strtod(s, &end);
    if (*end != '\0' || end == s || isnan(v)) {
        cm_errf(err, errlen, "%s: '%s' is not a number", what, s);
        return -EINVAL;
    }
    if (errno == ERANGE || v < min || v > max) {
        cm_errf(err, errlen, "%s: %s is out of range %g..%g", what, s, min, max);
        return -ERANGE;
    }
    *out = v;
    return 0;
}

int cm_parse_size(const char *what, const char *s, uint64_t *out, char *err,
                  size_t errlen)
{
    char digits[64];
    size_t n;
    unsigned shift = 0;
    uint64_t v;
    int rc;

    if (s == NULL || (n = strlen(s)) == 0 || n >= sizeof(digits)) {
        cm_errf(err, errlen, "%s: '%s' is not a size", what, s ? s : "");
        return -EINVAL;
    }
    memcpy(digits, s, n + 1);
    switch (digits[n - 1]) {
    case 'k':
    case 'K':
        shift = 10;
        break;
    case 'm':
    case 'M':
        shift = 20;
        break;
    case 'g':
    case 'G':
        shift = 30;
        break;
    case 't':
    case 'T':
        shift = 40;
        break;
    default:
        break;
    }
    if (shift)
        digits[n - 1] = '\0';
    rc = cm_parse_u64(what, digits, 0, UINT64_MAX >> shift, &v, err, errlen);
    if (rc < 0)
        return rc;
    *out = v << shift;
    return 0;
}

int cm_hex_digit(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int cm_hex_decode(const char *s, size_t n, uint8_t *out)
{
    size_t i;

    for (i = 0; i < n; i++) {
        int hi = cm_hex_digit((unsigned char)s[2 * i]), lo;
        if (hi < 0 || (lo = cm_hex_digit((unsigned char)s[2 * i + 1])) < 0)
            return -EINVAL;
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    return 0;
}
