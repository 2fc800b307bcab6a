/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * parse.c - exact number parsing for the text readers: decimal integers
 * with overflow checks (never wrapped) and "S.F" timestamps straight into
 * integer nanoseconds, so that equal timestamps stay equal (docs/TRACE_FORMATS.md
 * section 1).  No locale, no strtod, no allocation: these run per field.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "trace/tr_int.h"

int tr__dec_u64(const char *s, size_t len, uint64_t *out)
{
    uint64_t v = 0;
    size_t i;

    if (len == 0)
        return -EINVAL;
    for (i = 0; i < len; i++) {
        unsigned d = (unsigned char)s[i] - '0';
        if (d > 9)
            return -EINVAL;
        if (v > (UINT64_MAX - d) / 10)
            return -ERANGE;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int tr__sec_frac_ns(const char *s, size_t len, int64_t *ns)
{
    size_t i = 0, dot;
    uint64_t sec, frac = 0;
    unsigned digits = 0;

    while (i < len && s[i] != '.')
        i++;
    if (i == 0 || i >= len - 1)
        return -EINVAL; /* no integer part, no dot, or no fraction */
    dot = i;
    if (tr__dec_u64(s, dot, &sec) < 0) {
        uint64_t dummy;
        return tr__dec_u64(s, dot, &dummy) == -ERANGE ? -ERANGE : -EINVAL;
    }
    for (i = dot + 1; i < len; i++) {
        unsigned d = (unsigned char)s[i] - '0';
        if (d > 9)
            return -EINVAL;
        if (digits < 9) {
            frac = frac * 10 + d;
            digits++;
        }
    }
    for (; digits < 9; digits++)
        frac *= 10;
    if (sec > (uint64_t)(INT64_MAX / 1000000000) - 1)
        return -ERANGE;
    *ns = (int64_t)(sec * 1000000000u + frac);
    return 0;
}

const char *tr__excerpt(const void *s, size_t len, char *out, size_t outlen)
{
    const unsigned char *p = s;
    size_t i, used = 0;

    if (outlen == 0)
        return out;
    out[0] = '\0';
    for (i = 0; i < len && i < 24 && used + 5 < outlen; i++) {
        if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\')
            out[used++] = (char)p[i];
        else
            used += (size_t)snprintf(out + used, outlen - used, "\\x%02x", p[i]);
    }
    if (i < len && used + 4 < outlen) {
        memcpy(out + used, "...", 3);
        used += 3;
    }
    out[used] = '\0';
    return out;
}
