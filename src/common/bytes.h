/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bytes.h - big-endian (network order) integers read from and written to
 * byte buffers: XDR words, RPC record marks, MaStA entries, control-plane
 * frames.  One copy for the whole tree; memcpy-free shifts so that
 * unaligned buffers are fine and the compiler can emit one load.
 */
#ifndef CM_BYTES_H
#define CM_BYTES_H

#include <stdint.h>

static inline uint16_t cm_be16_get(const uint8_t *p)
{
    return (uint16_t)((unsigned)p[0] << 8 | (unsigned)p[1]);
}

static inline uint32_t cm_be32_get(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 |
           (uint32_t)p[3];
}

static inline uint64_t cm_be64_get(const uint8_t *p)
{
    return (uint64_t)cm_be32_get(p) << 32 | cm_be32_get(p + 4);
}

static inline void cm_be16_put(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static inline void cm_be32_put(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

static inline void cm_be64_put(uint8_t *p, uint64_t v)
{
    cm_be32_put(p, (uint32_t)(v >> 32));
    cm_be32_put(p + 4, (uint32_t)v);
}

#endif /* CM_BYTES_H */
