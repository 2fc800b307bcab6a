/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * msg.h - the phase messages of the load layer: what a generator parent
 * and its children say to each other, and what the prime's control plane
 * forwards between the prime and a client (decisions.md D8).  A message is
 * a fixed header (type, argument, payload length) followed by the payload;
 * the same types go both ways: parent -> child a command, child -> parent
 * the answer of the same type (with the serialised results for
 * LD_MSG_RESULTS), or LD_MSG_ERROR with a one-line text before the child
 * gives up.  The phase commands are SFS's (sfs-reference §12.2): mount,
 * init, warm-up, run, results, plus stop.
 *
 * The header travels in host byte order: both ends of a socketpair are the
 * same process image.  A control plane that crosses hosts encodes its own
 * frames and carries these types and payloads inside them.
 */
#ifndef LD_MSG_H
#define LD_MSG_H

#include <stddef.h>
#include <stdint.h>

enum ld_msg_type {
    LD_MSG_MOUNT = 1,   /* mount the test directory (child -> parent: done) */
    LD_MSG_INIT = 2,    /* populate (done) */
    LD_MSG_WARMUP = 3,  /* arg = seconds of warm-up (done) */
    LD_MSG_RUN = 4,     /* arg = seconds of measured run, 0 = until STOP */
    LD_MSG_RESULTS = 5, /* send the results (payload: serialised stats) */
    LD_MSG_STOP = 6,    /* end the current warm-up or run now */
    LD_MSG_ERROR = 100, /* child -> parent: payload = error text */
};

#define LD_MSG_MAX_PAYLOAD (1u << 20)

struct ld_msg_hdr {
    uint32_t type;
    uint32_t arg;
    uint32_t len; /* payload bytes that follow */
};

/* "mount", "init", "warm-up", "run", "results", "stop", "error"; "?" for
 * anything else (for messages naming the phase that failed). */
const char *ld_msg_name(uint32_t type);

/* Writes all len bytes to a socket (blocking, EINTR-safe; MSG_NOSIGNAL: a
 * peer that is gone is -EPIPE, not SIGPIPE).  Returns 0 or -errno.  The
 * phase messages and the control plane's frames (ctl.c) both go out so. */
int ld_msg_send_all(int fd, const void *buf, size_t len);

/* Sends one message (blocking, EINTR-safe).  Returns 0 or -errno. */
int ld_msg_send(int fd, uint32_t type, uint32_t arg, const void *payload, uint32_t len);

/* Reads one whole message: the header, then up to cap bytes of payload into
 * buf (a longer payload is an error).  Blocking.  Returns 0, -EPIPE on EOF
 * (peer gone), -EMSGSIZE, or -errno. */
int ld_msg_recv(int fd, struct ld_msg_hdr *h, void *buf, size_t cap);

#endif /* LD_MSG_H */
