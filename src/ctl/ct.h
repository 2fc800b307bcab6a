/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ct.h - the control plane's wire formats (docs/DECISIONS.md D8), the whole
 * interface of the ctl layer: the phase messages a generator parent and
 * its children say to each other over a socketpair (msg.c), and the
 * frames the prime and its clients exchange over TCP (frame.c), which
 * carry the same phase types.  The ctl layer knows nothing of what a load
 * is: the prime uses it without the load generator's engine, and the
 * client's processes use it without the prime.
 *
 * Phase messages (msg.c).  A message is a fixed header (type, argument,
 * payload length) followed by the payload; the same types go both ways:
 * parent -> child a command, child -> parent the answer of the same type
 * (with the serialised results for CT_MSG_RESULTS), or CT_MSG_ERROR with a
 * one-line text before the child gives up.  The phase commands are SFS's
 * (docs/SFS30.md §12.2): mount, init, warm-up, run, results, plus stop.
 * The header travels in host byte order: both ends of a socketpair are the
 * same process image.
 *
 * Frames (frame.c): framed messages on one TCP connection per client, on
 * a port the prime picks (no rpcbind).  Every frame carries the run's
 * token: 16 random bytes the prime makes per run and hands each client
 * over its remote shell's standard input, never on a command line.  A
 * frame whose token is wrong is refused (the prime logs and drops the
 * connection), so a stray or hostile connection to the port can neither
 * join a run nor steer one.
 *
 * Frame: a 36-byte big-endian header - magic "FSCP", version, type, token,
 * client number, argument, payload length - then the payload.  The phase
 * types are the messages' (mount, init, warm-up, run, results, stop,
 * error); the prime sends a phase type as a command and the client answers
 * with the same type when the phase is done (SFS's DO-x / DONE-x pairs).
 * Beyond them: HELLO (client -> prime, first frame), HEARTBEAT (both ways,
 * every CT_HEARTBEAT_S, so a silent peer is noticed; a client's, every
 * second of a load phase, carries its progress counters) and ABORT (prime ->
 * client: stop everything and exit).
 *
 * The end: a client's last frame (RESULTS, or ERROR) is followed by its end
 * of stream, and it reads until the prime hangs up; the prime sends nothing
 * to a client that has sent its results.  A socket closed with a frame
 * unread resets the connection, and the reset can discard the last frame
 * on the other side before it is read.
 */
#ifndef CT_H
#define CT_H

#include <stddef.h>
#include <stdint.h>

/* ---- phase messages (msg.c) ----------------------------------------------- */

enum ct_msg_type {
    CT_MSG_MOUNT = 1,   /* mount the test directory (child -> parent: done) */
    CT_MSG_INIT = 2,    /* populate (done) */
    CT_MSG_WARMUP = 3,  /* arg = seconds of warm-up (done) */
    CT_MSG_RUN = 4,     /* arg = seconds of measured run, 0 = until STOP */
    CT_MSG_RESULTS = 5, /* send the results (payload: serialised stats) */
    CT_MSG_STOP = 6,    /* end the current warm-up or run now */
    CT_MSG_ERROR = 100, /* child -> parent: payload = error text */
};

#define CT_MSG_MAX_PAYLOAD (1u << 20)

struct ct_msg_hdr {
    uint32_t type;
    uint32_t arg;
    uint32_t len; /* payload bytes that follow */
};

/* "mount", "init", "warm-up", "run", "results", "stop", "error"; "?" for
 * anything else (for messages naming the phase that failed). */
const char *ct_msg_name(uint32_t type);

/* Writes all len bytes to a socket (blocking, EINTR-safe; MSG_NOSIGNAL: a
 * peer that is gone is -EPIPE, not SIGPIPE).  Returns 0 or -errno.  The
 * phase messages and the control plane's frames (frame.c) both go out so. */
int ct_msg_send_all(int fd, const void *buf, size_t len);

/* Sends one message (blocking, EINTR-safe).  Returns 0 or -errno. */
int ct_msg_send(int fd, uint32_t type, uint32_t arg, const void *payload, uint32_t len);

/* Reads one whole message: the header, then up to cap bytes of payload into
 * buf (a longer payload is an error).  Blocking.  Returns 0, -EPIPE on EOF
 * (peer gone), -EMSGSIZE, or -errno. */
int ct_msg_recv(int fd, struct ct_msg_hdr *h, void *buf, size_t cap);

/* ---- frames (frame.c) ----------------------------------------------------- */

#define CT_TOKEN_LEN    16
#define CT_HDR_LEN      36
#define CT_MAX_PAYLOAD  (1u << 20)
#define CT_HEARTBEAT_S  2  /* each side sends one at least this often */
#define CT_PEER_SILENCE 60 /* a client gives up on a prime silent this long (s) */
/* The measured run's safety margin (SFS's MULTICLIENT_OFFSET): a client
 * that never gets STOP ends its run by itself this much later. */
#define CT_RUN_OFFSET_S 500

enum ct_type {
    /* CT_MSG_MOUNT .. CT_MSG_STOP and CT_MSG_ERROR (above) travel as they are */
    CT_HELLO = 200,     /* client -> prime: payload "key=value" lines */
    CT_HEARTBEAT = 201, /* both ways; a client's carries its live counters in a
                         * payload of their own magic and version (load/live.h),
                         * which a prime that cannot read them ignores */
    CT_ABORT = 202      /* prime -> client: payload = the reason */
};

struct ct_hdr {
    uint32_t type;
    uint8_t token[CT_TOKEN_LEN];
    uint32_t client; /* the client's number (-N); 0 from the prime */
    uint32_t arg;
    uint32_t len; /* payload bytes that follow */
};

/* A fresh random token (getrandom).  Returns 0 or -errno. */
int ct_token_new(uint8_t tok[CT_TOKEN_LEN]);
/* The token as 32 lower-case hex digits (+ NUL) and back; parse accepts
 * surrounding blanks and returns 0 or -EINVAL. */
void ct_token_hex(const uint8_t tok[CT_TOKEN_LEN], char hex[2 * CT_TOKEN_LEN + 1]);
int ct_token_parse(const char *text, uint8_t tok[CT_TOKEN_LEN]);
/* Whether the header carries tok (constant time). */
int ct_token_ok(const struct ct_hdr *h, const uint8_t tok[CT_TOKEN_LEN]);

/* "hello", "heartbeat", "abort", or ct_msg_name() of a phase type. */
const char *ct_name(uint32_t type);

/* The wire header and back; decode returns 0, -EPROTO (not a FreeSFS frame:
 * bad magic or version) or -EMSGSIZE (payload above the limit). */
void ct_encode(const struct ct_hdr *h, unsigned char buf[CT_HDR_LEN]);
int ct_decode(const unsigned char buf[CT_HDR_LEN], struct ct_hdr *h);

/* Sends one frame whole (blocking, EINTR-safe, no SIGPIPE).  0 or -errno. */
int ct_send(int fd, const uint8_t tok[CT_TOKEN_LEN], uint32_t type, uint32_t client,
            uint32_t arg, const void *payload, uint32_t len);

/* An incremental frame reader for non-blocking sockets in a poll() loop.
 * For a peer not yet trusted, set token (the header is refused before any
 * payload is read when it does not carry it) and max_payload (0 = the
 * protocol's limit). */
struct ct_reader {
    const uint8_t *token;
    uint32_t max_payload;
    unsigned char hbuf[CT_HDR_LEN];
    size_t have; /* bytes of the current frame read so far */
    struct ct_hdr h;
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
int ct_read(struct ct_reader *r, int fd);
void ct_reader_free(struct ct_reader *r);

/* Splits "HOST:PORT" (HOST may be [v6]) into its parts; 0 or -EINVAL. */
int ct_split_hostport(const char *s, char *host, size_t hostlen, uint16_t *port);

#endif /* CT_H */
