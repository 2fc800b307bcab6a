/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * recmark.c - the record-marking framer of recmark.h (rpc layer).  A small
 * state machine over "marker, fragment body" pairs; it never reads or writes
 * a socket, so the TCP client and the server share it and unit tests drive
 * it with any split of the input.
 */
#include "rpc/recmark.h"
#include "common/alloc.h"
#include "common/bytes.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

void rp_recmark_init(struct rp_recmark *rm, size_t max_record)
{
    memset(rm, 0, sizeof(*rm));
    rm->max_record = max_record;
}

void rp_recmark_free(struct rp_recmark *rm)
{
    free(rm->buf);
    rm->buf = NULL;
    rm->cap = 0;
    rp_recmark_reset(rm);
}

void rp_recmark_reset(struct rp_recmark *rm)
{
    rm->len = 0;
    rm->hdr_have = 0;
    rm->frag_left = 0;
    rm->in_frag = 0;
    rm->last_frag = 0;
    rm->frags = 0;
    rm->marks = 0;
}

void rp_recmark_put(uint8_t out[4], size_t len, int last)
{
    uint32_t m = (uint32_t)len & ~RP_RECMARK_LAST;

    if (last)
        m |= RP_RECMARK_LAST;
    cm_be32_put(out, m);
}

/* Makes room for `need` bytes of record; grows geometrically so that a
 * stream of large records reallocates only a few times in its life. */
static int reserve(struct rp_recmark *rm, size_t need)
{
    size_t cap;
    uint8_t *nb;

    if (need <= rm->cap)
        return 0;
    cap = rm->cap ? rm->cap * 2 : 4096;
    if (cap < need)
        cap = need;
    if (cap > rm->max_record)
        cap = rm->max_record;
    nb = cm_realloc(rm->buf, cap ? cap : 1);
    if (!nb)
        return -ENOMEM;
    rm->buf = nb;
    rm->cap = cap;
    return 0;
}

/* A completed record of length 0 still needs a non-NULL pointer, and a
 * word-aligned one like every record handed out (recmark.h). */
static const uint32_t empty_word[1];
#define empty_record ((const uint8_t *)empty_word)

/* 1 when p is word-aligned.  libtirpc's memory XDR streams pick their
 * operations by the buffer's address: on one that is not a multiple of 4,
 * xdr_inline gives NULL whatever is left, so a decoder that reads fixed
 * parts in place (the NFSv4 client's, v4_decode.c) would find the reply
 * "short". */
static int word_aligned(const uint8_t *p)
{
    return ((uintptr_t)p & 3u) == 0;
}

ssize_t rp_recmark_feed(struct rp_recmark *rm, const uint8_t *data, size_t n,
                        const uint8_t **rec, size_t *rec_len)
{
    size_t used = 0;

    *rec = NULL;
    *rec_len = 0;
    while (used < n) {
        size_t take;
        int rc;

        if (!rm->in_frag) {
            uint32_t m;

            while (rm->hdr_have < 4 && used < n)
                rm->hdr[rm->hdr_have++] = data[used++];
            if (rm->hdr_have < 4)
                break;
            m = cm_be32_get(rm->hdr);
            rm->hdr_have = 0;
            rm->last_frag = (m & RP_RECMARK_LAST) != 0;
            rm->frag_left = m & ~RP_RECMARK_LAST;
            rm->in_frag = 1;
            if (rm->frags++ > 0)
                rm->marks += 4;
            if (rm->marks > rm->max_record - rm->len ||
                rm->frag_left > rm->max_record - rm->len - rm->marks)
                return -EMSGSIZE;
            /* Fast path: a one-fragment record wholly in this read is
             * handed out in place - when it starts on a word.  Where the
             * read before ended inside a word (a sender's segment cut at
             * any byte, as TCP does when the receive window fills), every
             * record of this read starts off a word: it is copied into
             * buf below, which malloc aligns. */
            if (rm->len == 0 && rm->last_frag && n - used >= rm->frag_left &&
                word_aligned(data + used)) {
                *rec = rm->frag_left ? data + used : empty_record;
                *rec_len = rm->frag_left;
                used += rm->frag_left;
                rm->frag_left = 0;
                rm->in_frag = 0;
                rm->frags = 0;
                rm->marks = 0;
                return (ssize_t)used;
            }
        }
        take = n - used < rm->frag_left ? n - used : rm->frag_left;
        rc = reserve(rm, rm->len + rm->frag_left);
        if (rc < 0)
            return rc;
        if (take)
            memcpy(rm->buf + rm->len, data + used, take);
        rm->len += take;
        used += take;
        rm->frag_left -= (uint32_t)take;
        if (rm->frag_left == 0) {
            rm->in_frag = 0;
            if (rm->last_frag) {
                *rec = rm->len ? rm->buf : empty_record;
                *rec_len = rm->len;
                rm->len = 0;
                rm->frags = 0;
                rm->marks = 0;
                return (ssize_t)used;
            }
        }
    }
    return (ssize_t)used;
}
