/* SPDX-License-Identifier: BSD-2-Clause */
/* test_ctl_frame.c - the control plane's frames (ctl/ct.h, docs/DECISIONS.md
 * D8): tokens, the header codec, the incremental reader over a socketpair
 * (frames split anywhere, a wrong token refused before any payload is
 * read, an oversized payload refused), HOST:PORT parsing. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl/ct.h"

static void tokens_round_trip(void **state)
{
    uint8_t a[CT_TOKEN_LEN], b[CT_TOKEN_LEN];
    char hex[2 * CT_TOKEN_LEN + 1], line[80];

    (void)state;
    assert_int_equal(ct_token_new(a), 0);
    assert_int_equal(ct_token_new(b), 0);
    assert_memory_not_equal(a, b, sizeof(a));
    ct_token_hex(a, hex);
    assert_int_equal(strlen(hex), 32);
    snprintf(line, sizeof(line), " %s\n", hex);
    assert_int_equal(ct_token_parse(line, b), 0);
    assert_memory_equal(a, b, sizeof(a));
    assert_int_equal(ct_token_parse("00112233", b), -EINVAL);
    assert_int_equal(ct_token_parse("zz112233445566778899aabbccddeeff", b), -EINVAL);
    assert_int_equal(ct_token_parse("00112233445566778899aabbccddeeff00", b), -EINVAL);
}

static void reader_takes_frames_split_anywhere(void **state)
{
    uint8_t tok[CT_TOKEN_LEN];
    struct ct_reader r;
    unsigned char buf[CT_HDR_LEN + 5];
    struct ct_hdr h;
    int sv[2];
    size_t i;

    (void)state;
    memset(&r, 0, sizeof(r));
    memset(tok, 7, sizeof(tok));
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    memset(&h, 0, sizeof(h));
    h.type = CT_MSG_RESULTS;
    memcpy(h.token, tok, sizeof(tok));
    h.client = 3;
    h.arg = 9;
    h.len = 5;
    ct_encode(&h, buf);
    memcpy(buf + CT_HDR_LEN, "hello", 5);
    r.token = tok;
    for (i = 0; i < sizeof(buf); i++) { /* one byte at a time */
        assert_int_equal(ct_read(&r, sv[1]), 0);
        assert_int_equal(write(sv[0], buf + i, 1), 1);
    }
    assert_int_equal(ct_read(&r, sv[1]), 1);
    assert_int_equal(r.h.type, CT_MSG_RESULTS);
    assert_int_equal(r.h.client, 3);
    assert_int_equal(r.h.arg, 9);
    assert_string_equal((char *)r.payload, "hello");
    /* a whole frame by ct_send */
    assert_int_equal(ct_send(sv[0], tok, CT_HEARTBEAT, 1, 0, NULL, 0), 0);
    assert_int_equal(ct_read(&r, sv[1]), 1);
    assert_int_equal(r.h.type, CT_HEARTBEAT);
    assert_int_equal(ct_read(&r, sv[1]), 0);
    close(sv[0]);
    assert_int_equal(ct_read(&r, sv[1]), -EPIPE);
    ct_reader_free(&r);
    close(sv[1]);
}

static void strangers_are_refused_at_the_header(void **state)
{
    uint8_t tok[CT_TOKEN_LEN], wrong[CT_TOKEN_LEN];
    struct ct_reader r;
    int sv[2];

    (void)state;
    memset(tok, 1, sizeof(tok));
    memset(wrong, 2, sizeof(wrong));
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    memset(&r, 0, sizeof(r));
    r.token = tok;
    r.max_payload = 64;
    /* the wrong token: refused after 36 bytes, nothing allocated */
    assert_int_equal(ct_send(sv[0], wrong, CT_HELLO, 1, 0, "x", 1), 0);
    assert_int_equal(ct_read(&r, sv[1]), -EACCES);
    assert_null(r.payload);
    ct_reader_free(&r);
    close(sv[0]);
    close(sv[1]);
    /* the right token but a huge payload announced */
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    memset(&r, 0, sizeof(r));
    r.token = tok;
    r.max_payload = 64;
    {
        struct ct_hdr h;
        unsigned char hb[CT_HDR_LEN];
        memset(&h, 0, sizeof(h));
        h.type = CT_HELLO;
        memcpy(h.token, tok, sizeof(tok));
        h.len = 100000;
        ct_encode(&h, hb);
        assert_int_equal(write(sv[0], hb, sizeof(hb)), (ssize_t)sizeof(hb));
    }
    assert_int_equal(ct_read(&r, sv[1]), -EMSGSIZE);
    ct_reader_free(&r);
    close(sv[0]);
    close(sv[1]);
    /* not a FreeSFS frame at all */
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    memset(&r, 0, sizeof(r));
    assert_int_equal(write(sv[0], "GET / HTTP/1.0\r\n\r\nxxxxxxxxxxxxxxxxxx", 36), 36);
    assert_int_equal(ct_read(&r, sv[1]), -EPROTO);
    ct_reader_free(&r);
    close(sv[0]);
    close(sv[1]);
}

static void host_port(void **state)
{
    char host[64];
    uint16_t port;

    (void)state;
    assert_int_equal(ct_split_hostport("prime:4321", host, sizeof(host), &port), 0);
    assert_string_equal(host, "prime");
    assert_int_equal(port, 4321);
    assert_int_equal(ct_split_hostport("[::1]:80", host, sizeof(host), &port), 0);
    assert_string_equal(host, "::1");
    assert_int_equal(ct_split_hostport("prime", host, sizeof(host), &port), -EINVAL);
    assert_int_equal(ct_split_hostport("prime:0", host, sizeof(host), &port), -EINVAL);
    assert_int_equal(ct_split_hostport(":80", host, sizeof(host), &port), -EINVAL);
    assert_int_equal(ct_split_hostport("h:70000", host, sizeof(host), &port), -EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tokens_round_trip),
        cmocka_unit_test(reader_takes_frames_split_anywhere),
        cmocka_unit_test(strangers_are_refused_at_the_header),
        cmocka_unit_test(host_port),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
