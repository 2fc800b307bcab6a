/* SPDX-License-Identifier: BSD-2-Clause */
/* test_trace_nfs_pair.c - the pairing of NFS calls and replies
 * (src/trace/tr_nfs_pair.c) through its internal interface: release in call
 * order with times that never step back (the response time kept), the
 * window for unanswered calls, retransmissions before and after
 * the reply, duplicate replies, replies without calls, the key (port,
 * transport, connection), the bound on calls held, host numbering, and the
 * strings and entries a slot keeps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "trace/tr_nfs_int.h"

#define MS 1000000ll

static struct tr_nfs_reader *open_reader(uint32_t max_pending, FILE **fp)
{
    static char text[] = "#freesfs nfsdump 1\n";
    struct tr_nfs_options o = {.pair_window_ns = 1000 * MS, .max_pending = max_pending};
    struct tr_nfs_reader *r;
    char err[CM_ERR_LEN];

    *fp = fmemopen(text, strlen(text), "rb");
    assert_non_null(*fp);
    assert_int_equal(tr_nfs_open_fp(&r, *fp, "mem", &o, err, sizeof(err)), 0);
    return r;
}

static struct tr__msg msg(int from_client, uint8_t host, uint16_t port, uint32_t xid,
                          int64_t t_ms)
{
    struct tr__msg m;
    struct tr__ep cli = {TR__FAM_V4, 4, port, {127, 0, 0, host}};
    struct tr__ep srv = {TR__FAM_V4, 4, 2049, {127, 0, 0, 1}};

    memset(&m, 0, sizeof(m));
    m.src = from_client ? cli : srv;
    m.dst = from_client ? srv : cli;
    m.transport = TR_NFS_UDP;
    m.xid = xid;
    m.t_ns = t_ms * MS;
    m.where = (uint64_t)t_ms;
    return m;
}

static struct tr__slot *call(struct tr_nfs_reader *r, struct tr__msg m)
{
    int rc;
    struct tr__slot *s = tr__pair_call(r, &m, TR_NFS_PROG_NFS, 3, NFSPROC3_GETATTR, &rc);

    assert_int_equal(rc, 0);
    return s;
}

static struct tr__slot *reply(struct tr_nfs_reader *r, struct tr__msg m, uint32_t *kind)
{
    return tr__pair_reply(r, &m, kind);
}

static void released_in_call_order(void **state)
{
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    uint32_t kind;
    FILE *fp;

    (void)state;
    r = open_reader(0, &fp);
    assert_non_null(call(r, msg(1, 2, 900, 1, 10)));
    assert_non_null(call(r, msg(1, 2, 900, 2, 11)));
    assert_non_null(reply(r, msg(0, 2, 900, 2, 12), &kind));
    assert_int_equal(tr__pair_next(r, 0, &ev), 0); /* xid 1 still out */
    assert_non_null(reply(r, msg(0, 2, 900, 1, 13), &kind));
    assert_int_equal(tr__pair_next(r, 0, &ev), 1);
    assert_int_equal(ev.xid, 1);
    assert_int_equal(ev.t_ns, 10 * MS);
    assert_int_equal(ev.reply_t_ns, 13 * MS);
    assert_int_equal(ev.where, 10);
    assert_int_equal(ev.reply_where, 13);
    assert_true(ev.flags & TR_NFS_F_REPLY);
    assert_int_equal(ev.op, NF_OP_GETATTR);
    assert_int_equal(tr__pair_next(r, 0, &ev), 1);
    assert_int_equal(ev.xid, 2);
    assert_int_equal(tr__pair_next(r, 0, &ev), 0);
    assert_int_equal(tr_nfs_counter(r, "calls"), 2);
    assert_int_equal(tr_nfs_counter(r, "replies"), 2);
    tr_nfs_close(r);
    fclose(fp);
}

static void a_call_stamped_early_keeps_its_response_time(void **state)
{
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    uint32_t kind;
    FILE *fp;

    (void)state;
    r = open_reader(0, &fp);
    /* two CPUs stamped the frames: the second call 3 ms before the first */
    assert_non_null(call(r, msg(1, 2, 900, 1, 10)));
    assert_non_null(call(r, msg(1, 3, 900, 2, 7)));
    assert_non_null(reply(r, msg(0, 2, 900, 1, 12), &kind));
    assert_non_null(reply(r, msg(0, 3, 900, 2, 11), &kind));
    assert_int_equal(tr__pair_next(r, 0, &ev), 1);
    assert_int_equal(ev.t_ns, 10 * MS);
    assert_int_equal(ev.reply_t_ns, 12 * MS);
    assert_int_equal(tr__pair_next(r, 0, &ev), 1);
    assert_int_equal(ev.xid, 2);
    /* moved to the previous event's time; its reply 4 ms after it, as the
     * stamps say */
    assert_int_equal(ev.t_ns, 10 * MS);
    assert_int_equal(ev.reply_t_ns, 14 * MS);
    tr_nfs_close(r);
    fclose(fp);
}

static void unanswered_after_the_window(void **state)
{
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    FILE *fp;

    (void)state;
    r = open_reader(0, &fp);
    assert_non_null(call(r, msg(1, 2, 900, 7, 0)));
    tr__pair_time(r, 999 * MS);
    assert_int_equal(tr__pair_next(r, 0, &ev), 0);
    tr__pair_time(r, 1001 * MS);
    assert_int_equal(tr__pair_next(r, 0, &ev), 1);
    assert_false(ev.flags & TR_NFS_F_REPLY);
    assert_int_equal(tr_nfs_counter(r, "unanswered_calls"), 1);
    tr_nfs_close(r);
    fclose(fp);
}

static void retransmissions_and_duplicates(void **state)
{
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    uint32_t kind;
    FILE *fp;

    (void)state;
    r = open_reader(0, &fp);
    assert_non_null(call(r, msg(1, 2, 900, 5, 0)));
    assert_null(call(r, msg(1, 2, 900, 5, 700))); /* sent again: the same event */
    assert_non_null(reply(r, msg(0, 2, 900, 5, 701), &kind));
    assert_null(reply(r, msg(0, 2, 900, 5, 702), &kind)); /* before its release */
    assert_int_equal(kind, TR__RECENT_DONE);
    assert_null(call(r, msg(1, 2, 900, 5, 703))); /* after the reply, still held */
    assert_int_equal(tr_nfs_counter(r, "retransmissions_after_reply"), 1);
    assert_int_equal(tr__pair_next(r, 0, &ev), 1);
    assert_true(ev.flags & TR_NFS_F_RETRANS);
    assert_int_equal(ev.t_ns, 0); /* the first send's time */
    /* after the release: the key is remembered for the window */
    assert_null(call(r, msg(1, 2, 900, 5, 900)));
    assert_null(reply(r, msg(0, 2, 900, 5, 901), &kind));
    assert_int_equal(kind, TR__RECENT_DONE);
    assert_int_equal(tr_nfs_counter(r, "retransmissions"), 3);
    assert_int_equal(tr_nfs_counter(r, "retransmissions_after_reply"), 2);
    /* past the window the same XID is a new call */
    tr__pair_time(r, 2000 * MS);
    assert_non_null(call(r, msg(1, 2, 900, 5, 2000)));
    assert_null(reply(r, msg(0, 2, 900, 6, 2001), &kind)); /* no such call */
    assert_int_equal(kind, 0);
    tr_nfs_close(r);
    fclose(fp);
}

static void the_key_has_port_transport_and_connection(void **state)
{
    struct tr_nfs_reader *r;
    struct tr__msg m;
    uint32_t kind;
    FILE *fp;

    (void)state;
    r = open_reader(0, &fp);
    assert_non_null(call(r, msg(1, 2, 900, 9, 0)));
    assert_non_null(call(r, msg(1, 2, 901, 9, 0))); /* another port */
    assert_non_null(call(r, msg(1, 3, 900, 9, 0))); /* another host */
    m = msg(1, 2, 900, 9, 0);
    m.transport = TR_NFS_TCP;
    m.conn = 1;
    assert_non_null(call(r, m)); /* TCP, connection 1 */
    m.conn = 2;
    assert_non_null(call(r, m)); /* connection 2 */
    m = msg(0, 2, 900, 9, 1);
    m.transport = TR_NFS_TCP;
    m.conn = 2;
    assert_non_null(reply(r, m, &kind));
    m.conn = 3;
    assert_null(reply(r, m, &kind));
    assert_int_equal(tr_nfs_counter(r, "retransmissions"), 0);
    tr_nfs_close(r);
    fclose(fp);
}

static void the_oldest_goes_early_past_the_bound(void **state)
{
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    uint32_t kind;
    FILE *fp;

    (void)state;
    r = open_reader(2, &fp);
    assert_non_null(call(r, msg(1, 2, 900, 1, 0)));
    assert_non_null(call(r, msg(1, 2, 900, 2, 1)));
    assert_int_equal(tr__pair_next(r, 0, &ev), 0);
    assert_non_null(call(r, msg(1, 2, 900, 3, 2)));
    assert_int_equal(tr__pair_next(r, 0, &ev), 1);
    assert_int_equal(ev.xid, 1);
    assert_false(ev.flags & TR_NFS_F_REPLY);
    assert_int_equal(tr__pair_next(r, 0, &ev), 0);
    assert_int_equal(tr_nfs_counter(r, "calls_released_early"), 1);
    /* its late reply finds no call */
    assert_null(reply(r, msg(0, 2, 900, 1, 3), &kind));
    assert_int_equal(kind, 0);
    tr_nfs_close(r);
    fclose(fp);
}

static void hosts_numbered_as_events_name_them(void **state)
{
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    char name[64];
    FILE *fp;

    (void)state;
    r = open_reader(0, &fp);
    assert_non_null(call(r, msg(1, 9, 900, 1, 0)));
    assert_non_null(call(r, msg(1, 4, 900, 2, 1)));
    assert_non_null(call(r, msg(1, 9, 900, 3, 2)));
    assert_int_equal(tr__pair_next(r, 1, &ev), 1);
    assert_int_equal(ev.client, 0);
    assert_int_equal(ev.server, 1);
    assert_string_equal(tr_nfs_client_name(r, ev.client, name, sizeof(name)),
                        "127.0.0.9");
    assert_int_equal(tr__pair_next(r, 1, &ev), 1);
    assert_int_equal(ev.client, 2);
    assert_int_equal(tr__pair_next(r, 1, &ev), 1);
    assert_int_equal(ev.client, 0);
    assert_int_equal(tr_nfs_nhosts(r), 3);
    assert_string_equal(tr_nfs_client_name(r, 7, name, sizeof(name)), "?");
    tr_nfs_close(r);
    fclose(fp);
}

static void strings_and_entries_stay_until_the_next_event(void **state)
{
    struct tr_nfs_reader *r;
    struct tr_nfs_event ev;
    struct tr__slot *s;
    char big[TR_NFS_NAME_MAX];
    unsigned i;
    int rc;
    FILE *fp;

    (void)state;
    memset(big, 'x', sizeof(big) - 1);
    big[sizeof(big) - 1] = '\0';
    r = open_reader(0, &fp);
    s = call(r, msg(1, 2, 900, 1, 0));
    assert_int_equal(tr__slot_str(s, TR__S_NAME, "a", 1), 0);
    assert_int_equal(tr__slot_str(s, TR__S_NAME2, big, strlen(big)), 0);
    for (i = 0; i < TR_NFS_ENTRIES_MAX; i++)
        assert_non_null(tr__slot_dirent(s, big, 100 + i % 200, &rc));
    assert_null(tr__slot_dirent(s, "over", 4, &rc)); /* past the bound */
    assert_int_equal(rc, 0);
    assert_int_equal(tr__pair_next(r, 1, &ev), 1);
    assert_string_equal(ev.name, "a");
    assert_int_equal(strlen(ev.name2), TR_NFS_NAME_MAX - 1);
    assert_null(ev.text);
    assert_int_equal(ev.nentries, TR_NFS_ENTRIES_MAX);
    assert_int_equal(strlen(ev.entries[7].name), 107);
    assert_int_equal(strlen(ev.entries[TR_NFS_ENTRIES_MAX - 1].name), 100 + 4095 % 200);
    tr_nfs_close(r);
    fclose(fp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(released_in_call_order),
        cmocka_unit_test(a_call_stamped_early_keeps_its_response_time),
        cmocka_unit_test(unanswered_after_the_window),
        cmocka_unit_test(retransmissions_and_duplicates),
        cmocka_unit_test(the_key_has_port_transport_and_connection),
        cmocka_unit_test(the_oldest_goes_early_past_the_bound),
        cmocka_unit_test(hosts_numbered_as_events_name_them),
        cmocka_unit_test(strings_and_entries_stay_until_the_next_event),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
