/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * frame.c - the control plane's frames (ct.h): tokens, the header codec, a blocking
 * send for the client and an incremental reader for poll() loops.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/bytes.h"
#include "common/num.h"
#include "ctl/ct.h"
#include "common/alloc.h"

#define CTL_MAGIC   0x46534350u /* "FSCP" */
#define CTL_VERSION 1u

int ct_token_new(uint8_t tok[CT_TOKEN_LEN])
{
    size_t got = 0;

    while (got < CT_TOKEN_LEN) {
        ssize_t n = getrandom(tok + got, CT_TOKEN_LEN - got, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return -errno;
        }
        got += (size_t)n;
    }
    return 0;
}

void ct_token_hex(const uint8_t tok[CT_TOKEN_LEN], char hex[2 * CT_TOKEN_LEN + 1])
{
    static const char digits[] = "0123456789abcdef";
    int i;

    for (i = 0; i < CT_TOKEN_LEN; i++) {
        hex[2 * i] = digits[tok[i] >> 4];
        hex[2 * i + 1] = digits[tok[i] & 15];
    }
    hex[2 * CT_TOKEN_LEN] = '\0';
}

int ct_token_parse(const char *text, uint8_t tok[CT_TOKEN_LEN])
{
    while (*text == ' ' || *text == '\t')
        text++;
    if (cm_hex_decode(text, CT_TOKEN_LEN, tok) < 0)
        return -EINVAL;
    text += 2 * CT_TOKEN_LEN;
    while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n')
        text++;
    return *text ? -EINVAL : 0;
}

int ct_token_ok(const struct ct_hdr *h, const uint8_t tok[CT_TOKEN_LEN])
{
    unsigned diff = 0;
    int i;

    for (i = 0; i < CT_TOKEN_LEN; i++)
        diff |= (unsigned)(h->token[i] ^ tok[i]);
    return diff == 0;
}

const char *ct_name(uint32_t type)
{
    switch (type) {
    case CT_HELLO:
        return "hello";
    case CT_HEARTBEAT:
        return "heartbeat";
    case CT_ABORT:
        return "abort";
    default:
        return ct_msg_name(type);
    }
}

/* Layout: magic 4, version 2, type 2, token 16, client 4, arg 4, len 4. */
void ct_encode(const struct ct_hdr *h, unsigned char buf[CT_HDR_LEN])
{
    cm_be32_put(buf, CTL_MAGIC);
    cm_be32_put(buf + 4, CTL_VERSION << 16 | (h->type & 0xffffu));
    memcpy(buf + 8, h->token, CT_TOKEN_LEN);
    cm_be32_put(buf + 24, h->client);
    cm_be32_put(buf + 28, h->arg);
    cm_be32_put(buf + 32, h->len);
}

int ct_decode(const unsigned char buf[CT_HDR_LEN], struct ct_hdr *h)
{
    uint32_t vt = cm_be32_get(buf + 4);

    if (cm_be32_get(buf) != CTL_MAGIC || vt >> 16 != CTL_VERSION)
        return -EPROTO;
    h->type = vt & 0xffffu;
    memcpy(h->token, buf + 8, CT_TOKEN_LEN);
    h->client = cm_be32_get(buf + 24);
    h->arg = cm_be32_get(buf + 28);
    h->len = cm_be32_get(buf + 32);
    return h->len > CT_MAX_PAYLOAD ? -EMSGSIZE : 0;
}

int ct_send(int fd, const uint8_t tok[CT_TOKEN_LEN], uint32_t type, uint32_t client,
            uint32_t arg, const void *payload, uint32_t len)
{
    struct ct_hdr h;
    unsigned char buf[CT_HDR_LEN];
    int rc;

    memset(&h, 0, sizeof(h));
    h.type = type;
    memcpy(h.token, tok, CT_TOKEN_LEN);
    h.client = client;
    h.arg = arg;
    h.len = len;
    ct_encode(&h, buf);
    rc = ct_msg_send_all(fd, buf, sizeof(buf));
    if (rc == 0 && len > 0)
        rc = ct_msg_send_all(fd, payload, len);
    return rc;
}

int ct_read(struct ct_reader *r, int fd)
{
    for (;;) {
        size_t want;
        unsigned char *dst;
        ssize_t n;

        if (r->have < CT_HDR_LEN) {
            want = CT_HDR_LEN - r->have;
            dst = r->hbuf + r->have;
        } else {
            size_t got = r->have - CT_HDR_LEN;
            if (got == r->h.len) {
                r->payload[r->h.len] = '\0';
                r->have = 0;
                return 1;
            }
            want = r->h.len - got;
            dst = r->payload + got;
        }
        n = recv(fd, dst, want, MSG_DONTWAIT);
        if (n == 0)
            return -EPIPE;
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return 0;
            return -errno;
        }
        r->have += (size_t)n;
        if (r->have == CT_HDR_LEN) {
            int rc = ct_decode(r->hbuf, &r->h);
            if (rc < 0)
                return rc;
            if (r->token && !ct_token_ok(&r->h, r->token))
                return -EACCES; /* before reading (or allocating) any payload */
            if (r->max_payload && r->h.len > r->max_payload)
                return -EMSGSIZE;
            if (r->cap < r->h.len + 1) {
                unsigned char *np = cm_realloc(r->payload, r->h.len + 1);
                if (np == NULL)
                    return -ENOMEM;
                r->payload = np;
                r->cap = r->h.len + 1;
            }
        }
    }
}

void ct_reader_free(struct ct_reader *r)
{
    free(r->payload);
    r->payload = NULL;
    r->cap = 0;
    r->have = 0;
}

int ct_split_hostport(const char *s, char *host, size_t hostlen, uint16_t *port)
{
    const char *colon, *hs = s, *he;
    char *end;
    unsigned long p;

    if (*s == '[') {
        he = strchr(s, ']');
        if (he == NULL || he[1] != ':')
            return -EINVAL;
        hs = s + 1;
        colon = he + 1;
    } else {
        colon = strrchr(s, ':');
        if (colon == NULL)
            return -EINVAL;
        he = colon;
    }
    if (he == hs || (size_t)(he - hs) >= hostlen)
        return -EINVAL;
    p = strtoul(colon + 1, &end, 10);
    if (*end || end == colon + 1 || p == 0 || p > 65535)
        return -EINVAL;
    memcpy(host, hs, (size_t)(he - hs));
    host[he - hs] = '\0';
    *port = (uint16_t)p;
    return 0;
}
