/* SPDX-License-Identifier: BSD-2-Clause */
/* test_server_sfs4_closes.c - unit tests of the NFSv4.1 load's CLOSEs of
 * the working set (src/nfs/proto4.c, file_enter and file_leave) against
 * sfs_nfsd's server on loopback, run in a thread: a file leaving the
 * working set has its CLOSE sent without waiting for the reply, and a file
 * entering again waits for that CLOSE before its OPEN goes, so the server
 * never sees the OPEN first - here with the first 32 CLOSEs answered
 * DELAY, so the CLOSE is held and sent again until the client gives it up
 * (the created file's CLOSE, sent at its CREATE, is held alongside); and
 * once the process is to end, no CREATE starts.
 * Network safety: loopback only. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "common/error.h"
#include "helpers/th_nfsd.h"
#include "nfs/nf4_load.h"
#include "nfs/nf_proto.h"
#include "server/sv.h"

/* The client's sends of operation op so far. */
static uint64_t sent(const struct nf_session *s, uint32_t op)
{
    struct nf4_client_stats cs;

    nf4_client_stats(nf4_session_mount(s)->cl, &cs);
    return cs.ops[op];
}

/* Starts sfs_nfsd in v (with the --error rule, or none) and mounts s on
 * it over NFSv4.1 (the caller's s->stop and s->stats kept, counting from
 * here when set), then CREATEs "f" in the export on c: its reply in
 * c->res. */
static void mount_and_create(struct th_nfsd *v, struct nf_session *s, struct nf_call **c,
                             const char *rule)
{
    const volatile sig_atomic_t *stop = s->stop;
    void *stats = s->stats;
    struct sv_config cfg;
    struct nf_mount_opts o;
    struct nf_op_args a;
    char err[CM_ERR_LEN];

    th_nfsd_config(&cfg, "127.0.0.1");
    if (rule)
        assert_int_equal(sv_fault_parse_error(&cfg.fault, rule, err, sizeof(err)), 0);
    assert_int_equal(th_nfsd_start(v, &cfg), 0);
    memset(s, 0, sizeof(*s));
    s->stop = stop;
    s->stats = stats;
    nf_mount_opts_init(&o, 4);
    o.transport = o.mount_transport = RP_TCP;
    o.timeout_ms = 5000;
    assert_int_equal(nf_session_mount(s, &nf_proto_v4, 4, v->url, &o, err, sizeof(err)),
                     0);
    *c = nf_calls_alloc(&nf_proto_v4, 1);
    assert_non_null(*c);
    if (stats)
        nf_proto_v4.counters.start(s);
    memset(&a, 0, sizeof(a));
    a.op = NF_OP_CREATE;
    a.fh = &s->mnt.root;
    a.name = "f";
    a.mode = 0644;
    assert_int_equal(nf_call_run(s, *c, &a), 0);
    assert_int_equal((*c)->res.status, 0);
}

static void a_file_entering_again_waits_for_its_close(void **state)
{
    static struct nf4_load_stats counts;
    struct th_nfsd v;
    struct nf_session s = {0};
    struct nf4_kept_open
        f; /* the file state sfs4 asks for (file_bytes), its open first */
    struct nf_fh fh;
    struct nf_call *c;
    uint64_t closes, opens;

    (void)state;
    s.stats = &counts;
    mount_and_create(&v, &s, &c, "close=DELAY:100:32");
    assert_true(c->res.has_fh);
    fh = c->res.fh;
    assert_int_equal(sent(&s, OP_CLOSE), 1); /* the created file's, held */

    memset(&f, 0, sizeof(f));
    assert_int_equal(nf_proto_v4.file_enter(&s, &fh, &f), 0);
    assert_int_equal(f.open.state, NF4_OPEN);
    closes = sent(&s, OP_CLOSE);
    opens = sent(&s, OP_OPEN);
    assert_true(closes < 16); /* the created file's still held */
    /* leaving: the CLOSE is sent, the caller does not wait for it */
    assert_int_equal(nf_proto_v4.file_leave(&s, &fh, &f), 0);
    assert_int_equal(f.open.state, NF4_CLOSING);
    assert_int_equal(sent(&s, OP_CLOSE), closes + 1);
    /* entering again: the CLOSE, answered DELAY at every send, is held and
     * sent again up to the client's 16 sends (the created file's too,
     * sent before it); only then the OPEN goes */
    assert_int_equal(nf_proto_v4.file_enter(&s, &fh, &f), 0);
    assert_int_equal(sent(&s, OP_CLOSE), 32);
    assert_int_equal(sent(&s, OP_OPEN), opens + 1);
    assert_int_equal(f.open.state, NF4_OPEN);
    nf_proto_v4.counters.stop(&s);
    assert_int_equal(counts.open.closes, 2);
    assert_int_equal(counts.open.close_errors, 2); /* DELAY to the last */
    assert_int_equal(counts.open.slow_ws_closes, 1);
    assert_int_equal(counts.open.slow_created_closes, 1);
    assert_int_equal(counts.open.opens, 2);
    assert_true(counts.open.ws_wait_s > 1.4); /* 15 holds of 100 ms */
    assert_int_equal(counts.open.in_use, 1);

    /* the file is still open (it never left again): the end sends the two
     * failed CLOSEs again, answered OLD_STATEID (the file was opened again
     * since), and says DESTROY_CLIENTID was refused (CLIENTID_BUSY) for
     * that one file on stderr */
    s.stats = NULL;
    nf_session_close(&s);
    nf_calls_free(c);
    assert_int_equal(th_nfsd_stop(&v), 0);
}

/* Once the process is to end (the session's stop flag, set by its
 * SIGINT or SIGTERM), a CREATE does not start: its file would be one more
 * to CLOSE in the end's bounded time.  Other ops still go. */
static void no_create_starts_once_the_process_is_to_end(void **state)
{
    static volatile sig_atomic_t stop;
    struct th_nfsd v;
    struct nf_session s = {0};
    struct nf_op_args a;
    struct nf_call *c;
    uint64_t opens;

    (void)state;
    s.stop = &stop;
    mount_and_create(&v, &s, &c, NULL);
    opens = sent(&s, OP_OPEN);
    memset(&a, 0, sizeof(a));
    a.op = NF_OP_CREATE;
    a.fh = &s.mnt.root;
    a.mode = 0644;
    stop = 1;
    a.name = "g";
    assert_int_equal(nf_call_run(&s, c, &a), -EINTR);
    assert_int_equal(sent(&s, OP_OPEN), opens); /* nothing went */
    a.op = NF_OP_GETATTR;
    assert_int_equal(nf_call_run(&s, c, &a), 0);
    assert_int_equal(c->res.status, 0);
    nf_session_close(&s); /* f's CLOSE was answered: nothing said */
    nf_calls_free(c);
    assert_int_equal(th_nfsd_stop(&v), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_file_entering_again_waits_for_its_close),
        cmocka_unit_test(no_create_starts_once_the_process_is_to_end),
    };

    th_nfsd_signals();
    return cmocka_run_group_tests_name("server_sfs4_closes", tests, NULL, NULL);
}
