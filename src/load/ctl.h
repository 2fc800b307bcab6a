/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctl.h - the control plane between the prime and its clients (decisions.md
 * D8; sfs-reference §12): framed messages on one TCP connection per client,
 * on a port the prime picks (no rpcbind).  Both ends use this file: the
 * client side in the load layer (remote.c) and the prime above it, which
 * includes it.
 *
 * Every frame carries the run's token: 16 random bytes the prime makes per
 * run and hands each client over its remote shell's standard input, never
 * on a command line.  A frame whose token is wrong is refused (the prime
 * logs and drops the connection), so a stray or hostile connection to the
 * port can neither join a run nor steer one.
 *
 * Frame: a 36-byte big-endian header - magic "FSCP", version, type, token,
 * client number, argument, payload length - then the payload.  The phase
 * types are the load layer's own (msg.h: mount, init, warm-up, run,
 * results, stop, error); the prime sends a phase type as a command and the
 * client answers with the same type when the phase is done (SFS's DO-x /
 * DONE-x pairs).  Beyond them: HELLO (client -> prime, first frame),
 * HEARTBEAT (both ways, every LD_CTL_HEARTBEAT_S, so a silent peer is
 * noticed) and ABORT (prime -> client: stop everything and exit).
 */
#ifndef LD_CTL_H
#define LD_CTL_H

#include <stddef.h>
#include <stdint.h>

#include "load/msg.h"

#define LD_CTL_TOKEN_LEN    16
#define LD_CTL_HDR_LEN      36
#define LD_CTL_MAX_PAYLOAD  (1u << 20)
#define LD_CTL_HEARTBEAT_S  2  /* each side sends one at least this often */
#define LD_CTL_PEER_SILENCE 60 /* a client gives up on a prime silent this long (s) */
/* The measured run's safety margin (SFS's MULTICLIENT_OFFSET): a client
 * that never gets STOP ends its run by itself this much later. */
#define LD_CTL_RUN_OFFSET_S 500

enum ld_ctl_type {
    /* LD_MSG_MOUNT .. LD_MSG_STOP and LD_MSG_ERROR (msg.h) travel as they are */
    LD_CTL_HELLO = 200,     /* client -> prime: payload "key=value" lines */
    LD_CTL_HEARTBEAT = 201, /* both ways, no payload */
    LD_CTL_ABORT = 202      /* prime -> client: payload = the reason */
};

struct ld_ctl_hdr {
    uint32_t type;
    uint8_t token[LD_CTL_TOKEN_LEN];
    uint32_t client; /* the client's number (-N); 0 from the prime */
    uint32_t arg;
    uint32_t len; /* payload bytes that follow */
};

/* A fresh random token (getrandom).  Returns 0 or -errno. */
int ld_ctl_token_new(uint8_t tok[LD_CTL_TOKEN_LEN]);
/* The token as 32 lower-case hex digits (+ NUL) and back; parse accepts
 * surrounding blanks and returns 0 or -EINVAL. */
void ld_ctl_token_hex(const uint8_t tok[LD_CTL_TOKEN_LEN],
                      char hex[2 * LD_CTL_TOKEN_LEN + 1]);
int ld_ctl_token_parse(const char *text, uint8_t tok[LD_CTL_TOKEN_LEN]);
/* Whether the header carries tok (constant time). */
int ld_ctl_token_ok(const struct ld_ctl_hdr *h, const uint8_t tok[LD_CTL_TOKEN_LEN]);

/* "hello", "heartbeat", "abort", or ld_msg_name() of a phase type. */
const char *ld_ctl_name(uint32_t type);

/* The wire header and back; decode returns 0, -EPROTO (not a FreeSFS frame:
 * bad magic or version) or -EMSGSIZE (payload above the limit). */
void ld_ctl_encode(const struct ld_ctl_hdr *h, unsigned char buf[LD_CTL_HDR_LEN]);
int ld_ctl_decode(const unsigned char buf[LD_CTL_HDR_LEN], struct ld_ctl_hdr *h);

/* Sends one frame whole (blocking, EINTR-safe, no SIGPIPE).  0 or -errno. */
int ld_ctl_send(int fd, const uint8_t tok[LD_CTL_TOKEN_LEN], uint32_t type,
                uint32_t client, uint32_t arg, const void *payload, uint32_t len);

/* An incremental frame reader for non-blocking sockets in a poll() loop.
 * For a peer not yet trusted, set token (the header is refused before any
 * payload is read when it does not carry it) and max_payload (0 = the
 * protocol's limit). */
struct ld_ctl_reader {
    const uint8_t *token;
    uint32_t max_payload;
    unsigned char hbuf[LD_CTL_HDR_LEN];
    size_t have; /* bytes of the current frame read so far */
    struct ld_ctl_hdr h;
    unsigned char *payload; /* grows to the largest payload seen (+1 for a NUL) */
    size_t cap;
};

/*
 * Reads what is there.  Returns 1 when a whole frame is in r->h and
 * r->payload (NUL-terminated after len bytes; valid until the next call),
 * 0 when more bytes are needed (EAGAIN), -EPIPE at EOF, -EPROTO/-EMSGSIZE for
 * a bad header, -EACCES for a header without r->token (when set), -ENOMEM
 * or -errno.  Call again after 1: a second frame may
 * already be buffered in the socket.
 */
int ld_ctl_read(struct ld_ctl_reader *r, int fd);
void ld_ctl_reader_free(struct ld_ctl_reader *r);

/* Splits "HOST:PORT" (HOST may be [v6]) into its parts; 0 or -EINVAL. */
int ld_ctl_split_hostport(const char *s, char *host, size_t hostlen, uint16_t *port);

#endif /* LD_CTL_H */
