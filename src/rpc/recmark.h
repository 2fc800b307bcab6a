/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * recmark.h - ONC RPC record marking over a byte stream (RFC 5531 section
 * 11), as a pure framer with no I/O: feed it whatever read() returned and it
 * yields complete records of bounded size, however the bytes were split
 * across reads (a header split in two, a record in many fragments, several
 * records in one read).  Used by the TCP client transport and by the server
 * (sfs_nfsd).  It allocates only when a record spans reads or fragments,
 * and then reuses its buffer; a record that arrives whole in one read is
 * handed out in place, without copying, when it starts on a word (else it
 * is copied: every record handed out is word-aligned, see
 * rp_recmark_feed).
 */
#ifndef RP_RECMARK_H
#define RP_RECMARK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define RP_RECMARK_LAST 0x80000000u /* last-fragment bit of the marker */

struct rp_recmark {
    size_t max_record;  /* largest record accepted, in bytes */
    uint8_t *buf;       /* reassembly buffer (grown up to max_record) */
    size_t cap;         /* its size */
    size_t len;         /* bytes of the current record assembled so far */
    uint8_t hdr[4];     /* a fragment marker being read */
    unsigned hdr_have;  /* bytes of hdr read so far */
    uint32_t frag_left; /* bytes of the current fragment still to come */
    int in_frag;        /* 1 while reading a fragment body */
    int last_frag;      /* the current fragment ends the record */
    uint32_t frags;     /* fragments of the current record begun so far */
    size_t marks;       /* marker bytes of its fragments after the first:
                           they count against max_record, so a stream of
                           empty fragments is bounded like any other */
};

/* Sets up a framer for records of at most max_record bytes.  Allocates
 * nothing yet.  Always succeeds. */
void rp_recmark_init(struct rp_recmark *rm, size_t max_record);

/* Frees the buffer; rm may be set up again with rp_recmark_init. */
void rp_recmark_free(struct rp_recmark *rm);

/* Forgets a partial record (after a reconnection). */
void rp_recmark_reset(struct rp_recmark *rm);

/*
 * Consumes bytes from data[0..n) up to the end of the next complete record.
 * A record's size is its data plus 4 bytes per fragment after the first
 * (a one-fragment record may be max_record bytes of data).
 * Returns the number of bytes consumed (0 < ret <= n when n > 0), and sets
 * *rec and *rec_len to the record when one completed (else *rec = NULL).
 * The record stays valid until the next call on rm; it points into data or
 * into rm's buffer, and always at a 4-byte-aligned address: decoders run
 * libtirpc memory XDR streams over it, whose xdr_inline gives NULL on an
 * unaligned buffer.  Call again with the rest while bytes remain.  Errors:
 * -EMSGSIZE when a record would exceed max_record, -ENOMEM; after an error
 * the stream is unusable (close the connection).
 */
ssize_t rp_recmark_feed(struct rp_recmark *rm, const uint8_t *data, size_t n,
                        const uint8_t **rec, size_t *rec_len);

/* Writes the 4-byte marker for a fragment of len bytes (len < 2^31);
 * last = 1 marks the end of the record. */
void rp_recmark_put(uint8_t out[4], size_t len, int last);

#endif /* RP_RECMARK_H */
