/* SPDX-License-Identifier: BSD-2-Clause */
/* test_synth_biod.c - unit tests for biod's accounting contract without a
 * server (no sockets): every call of a request reaches the done callback
 * exactly once, in order, with its index, also when it cannot be sent (a
 * prepare failure counts as a failed call with that status), and nothing is
 * left in flight.  The in-flight behaviour against real servers is covered
 * by the integration tests (0310-0313 with -R/-W 2, 0350 with DEBUG 14). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "synth/biod.h"

/* A session of NFSv3, never mounted: nothing is sent. */
static struct nf_session ses = {.proto = &nf_proto_v3};

struct seen {
    uint32_t n;
    uint32_t index[64];
    int status[64];
};

static int prepare_fails(struct sy_slot *s, uint32_t i, void *data)
{
    (void)data;
    s->op = NF_OP_READ;
    s->offset = (uint64_t)i * 8192;
    return i % 2 ? -EOPNOTSUPP : -EIO;
}

static void record(struct sy_slot *s, void *data)
{
    struct seen *v = data;

    assert_true(v->n < 64);
    v->index[v->n] = s->index;
    v->status[v->n] = s->call->status;
    v->n++;
}

static void unsent_calls_are_accounted_once_each(void **state)
{
    static struct sy_biod b;
    struct seen v;
    uint32_t k;

    (void)state;
    memset(&v, 0, sizeof(v));
    assert_int_equal(sy_biod_init(&b, &ses, prepare_fails, record, &v), 0);
    assert_int_equal(sy_biod_run(&b, 17, 4), 0); /* none was sent */
    assert_int_equal(v.n, 17);
    for (k = 0; k < 17; k++) {
        assert_int_equal(v.index[k], k);
        assert_int_equal(v.status[k], k % 2 ? -EOPNOTSUPP : -EIO);
    }
    assert_int_equal(b.in_flight, 0);
    assert_int_equal(b.calls, 0);
    assert_int_equal(b.requests, 1);
    sy_biod_free(&b);
}

static void depth_zero_is_synchronous(void **state)
{
    static struct sy_biod b;
    struct seen v;

    (void)state;
    memset(&v, 0, sizeof(v));
    assert_int_equal(sy_biod_init(&b, &ses, prepare_fails, record, &v), 0);
    assert_int_equal(sy_biod_run(&b, 3, 0), 0);
    assert_int_equal(sy_biod_run(&b, 2, 99), 0); /* clamped to the slots */
    assert_int_equal(v.n, 5);
    assert_int_equal(b.max_in_flight, 0);
    assert_int_equal(b.requests, 2);
    sy_biod_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unsent_calls_are_accounted_once_each),
        cmocka_unit_test(depth_zero_is_synchronous),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
