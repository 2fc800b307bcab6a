/* SPDX-License-Identifier: BSD-2-Clause */
/* test_synth_child.c - unit tests for an SFS mix child without a server:
 * the request decks hold the mix exactly, the op generators pick entries in
 * the right (state, category), replies update the file table (create,
 * remove, rename, write, truncate), and every child draws its own seed.
 * The parent's process management is test_client_parent.c's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "nfs/proto23.h"
#include "synth/sy_int.h"
#include "load/options.h"

static struct ld_config cfg;
static struct ld_setup su;
static struct sy_plan plan;

static int setup_child(void **state)
{
    static struct sy_child c;

    ld_config_defaults(&cfg, 3);
    cfg.load = 100;
    cfg.procs = 2;
    memset(&su, 0, sizeof(su));
    su.cfg = &cfg;
    su.prog = "sfs3";
    ld_mix_default(&su.mix, 3);
    ld_iodist_default(&su.iodist, 8);
    su.plan = &plan;
    assert_int_equal(ld_opsel_init(&plan.opsel, &su.mix, &su.iodist, 3, 0), 0);
    assert_int_equal(ld_sizing_compute(&cfg, &su.sizing), 0);
    assert_int_equal(sy_child_init(&c, &su, 0, -1), 0);
    *state = &c;
    return 0;
}

static int teardown_child(void **state)
{
    sy_child_free(*state);
    return 0;
}

/* Every entry exists with a handle and its initial size, as after
 * population; non-io slots alternate. */
static void fake_population(struct sy_child *c)
{
    struct sy_files *t = &c->files;
    uint32_t i;

    for (i = 0; i < t->n; i++) {
        struct sy_file *f = &t->f[i];
        f->has_fh = 1;
        f->fh.len = 8;
        memcpy(f->fh.data, &i, sizeof(i));
        f->state = SY_EXISTS;
        if (f->cat == SY_CAT_IO)
            f->size = f->init_size = 1024u << (i % 8);
        if (f->cat == SY_CAT_NONIO && (i - t->first[SY_CAT_NONIO]) % 2)
            f->state = SY_NONEXISTENT;
        if (f->spare)
            f->state = (i % 2) ? SY_EMPTY_DIR : SY_NONEXISTENT;
    }
    sy_files_reset_accounting(t);
}

static void decks_hold_the_call_shares(void **state)
{
    struct sy_child *c = *state;
    uint64_t calls[NF_NOPS] = {0}, total = 0;
    uint32_t i;
    int op;

    fake_population(c);
    /* every dealt request picked, as a child does: each op's share of the
     * calls (reads and writes make several) within a point of the mix */
    for (i = 0; i < 100 * SY_OP_DECK; i++) {
        op = sy_op_next(c);
        if (sy_op_pick(c, op) < 0)
            continue;
        calls[op] += c->req.ncalls;
        total += c->req.ncalls;
    }
    for (op = 0; op < NF_NOPS; op++) {
        double pct = 100.0 * (double)calls[op] / (double)total;

        if (fabs(pct - su.mix.pct[op]) > 1.0)
            fail_msg("%s: %.2f %% of the calls (target %d)", nf_op_name(op), pct,
                     su.mix.pct[op]);
    }
    assert_int_equal(calls[NF_OP_NULL_OP], 0);
    assert_true(calls[NF_OP_LOOKUP] > 0);
}

static void picks_by_state_and_category(void **state)
{
    struct sy_child *c = *state;
    struct sy_files *t = &c->files;
    int i;

    fake_population(c);
    for (i = 0; i < 200; i++) {
        assert_int_equal(sy_op_pick(c, NF_OP_CREATE), 0);
        assert_int_equal(t->f[c->req.file].cat, SY_CAT_NONIO);
        assert_int_equal(t->f[c->req.file].state, SY_NONEXISTENT);
        assert_int_equal(sy_op_pick(c, NF_OP_REMOVE), 0);
        assert_int_equal(t->f[c->req.file].state, SY_EXISTS);
        assert_int_equal(sy_op_pick(c, NF_OP_READLINK), 0);
        assert_int_equal(t->f[c->req.file].cat, SY_CAT_SYMLINK);
        assert_int_equal(sy_op_pick(c, NF_OP_RMDIR), 0);
        assert_true(t->f[c->req.file].spare);
        assert_int_equal(sy_op_pick(c, NF_OP_GETATTR), 0);
        assert_true(t->f[c->req.file].working);
        assert_int_equal(sy_op_pick(c, NF_OP_READDIR), 0);
        assert_int_equal(t->f[c->req.file].cat, SY_CAT_DIR);
        assert_false(t->f[c->req.file].spare);
        assert_int_equal(sy_op_pick(c, NF_OP_RENAME), 0);
        assert_int_equal(t->f[c->req.file].parent, t->f[c->req.file2].parent);
        assert_int_equal(sy_op_pick(c, NF_OP_READ), 0);
        assert_true(t->f[c->req.file].working);
        assert_true(c->req.offset + c->req.len <= t->f[c->req.file].size);
        assert_int_equal(c->req.ncalls, (c->req.len + 8191) / 8192);
    }
}

/* The biod's first slot, cleared for a new call (its protocol call kept). */
static struct sy_slot *fresh_slot(struct sy_child *c)
{
    struct sy_slot *s = &c->biod.slot[0];
    struct nf_call *k = s->call;

    memset(s, 0, sizeof(*s));
    s->call = k;
    s->owner = &c->biod;
    return s;
}

/* The NFSv3 storage of the slot's call, built by the protocol (without a
 * server its start fails once the call is built). */
static struct nf23_call *v3_call(struct sy_child *c, struct sy_slot *s)
{
    assert_int_equal(nf_call_start(&c->cx.ses, s->call, &s->args), -ENOTCONN);
    return s->call->pc;
}

static struct sy_child *answered_child;

static void answered(struct nf_call *k, void *data)
{
    (void)k;
    sy_op_done(data, answered_child);
}

/* Runs the protocol's read-out of the made-up v3 reply in the slot's call
 * and the reply bookkeeping of sy_op_done on it, as a reply from a server
 * would. */
static void reply(struct sy_child *c, struct sy_slot *s)
{
    struct nf23_call *x = s->call->pc;

    x->rpc.status = 0;
    x->rpc.t_send_ns = 1000;
    x->rpc.t_reply_ns = 2000;
    s->call->done = answered;
    s->call->data = s;
    answered_child = c;
    x->rpc.done(&x->rpc, x->rpc.data);
}

static void replies_update_the_table(void **state)
{
    struct sy_child *c = *state;
    struct sy_files *t = &c->files;
    struct sy_slot *s;
    union nf3_res *r3;
    char fh[4] = {1, 2, 3, 4};
    uint32_t f, g, before;

    fake_population(c);
    c->cx.measuring = 1;
    ld_stats_reset(&c->cx.stats);

    /* create -> Exists with the new handle */
    assert_int_equal(sy_op_pick(c, NF_OP_CREATE), 0);
    f = c->req.file;
    s = fresh_slot(c);
    assert_int_equal(sy_op_prepare(s, 0, c), 0);
    r3 = &v3_call(c, s)->res.r3;
    r3->create.status = NFS3_OK;
    r3->create.CREATE3res_u.resok.obj.handle_follows = TRUE;
    r3->create.CREATE3res_u.resok.obj.post_op_fh3_u.handle.data.data_len = 4;
    r3->create.CREATE3res_u.resok.obj.post_op_fh3_u.handle.data.data_val = fh;
    reply(c, s);
    assert_int_equal(t->f[f].state, SY_EXISTS);
    assert_int_equal(t->f[f].fh.len, 4);
    assert_int_equal(c->cx.stats.op[NF_OP_CREATE].good, 1);

    /* remove answered NOENT -> Nonexistent, a good call with an NFS error */
    assert_int_equal(sy_op_pick(c, NF_OP_REMOVE), 0);
    f = c->req.file;
    s = fresh_slot(c);
    assert_int_equal(sy_op_prepare(s, 0, c), 0);
    r3 = &v3_call(c, s)->res.r3;
    r3->remove.status = NFS3ERR_NOENT;
    reply(c, s);
    assert_int_equal(t->f[f].state, SY_NONEXISTENT);
    assert_int_equal(c->cx.stats.op[NF_OP_REMOVE].nfs_errors, 1);

    /* rename: the target takes the source's handle */
    assert_int_equal(sy_op_pick(c, NF_OP_RENAME), 0);
    f = c->req.file;
    g = c->req.file2;
    s = fresh_slot(c);
    assert_int_equal(sy_op_prepare(s, 0, c), 0);
    r3 = &v3_call(c, s)->res.r3;
    r3->rename.status = NFS3_OK;
    reply(c, s);
    assert_int_equal(t->f[f].state, SY_NONEXISTENT);
    assert_int_equal(t->f[g].state, SY_EXISTS);
    assert_memory_equal(t->f[g].fh.data, &f, sizeof(f));

    /* an appending write grows the file and the accessed set */
    before = (uint32_t)t->cur_bytes;
    c->req.op = NF_OP_WRITE;
    c->req.file = t->ws[0];
    c->req.offset = t->f[t->ws[0]].size;
    c->req.len = 5000;
    c->req.block = 8192;
    c->req.ncalls = 1;
    s = fresh_slot(c);
    assert_int_equal(sy_op_prepare(s, 0, c), 0);
    r3 = &v3_call(c, s)->res.r3;
    assert_int_equal(s->args.count, 5000);
    assert_int_equal(v3_call(c, s)->args.a3.write.count, 5000);
    r3->write.status = NFS3_OK;
    reply(c, s);
    assert_int_equal(t->cur_bytes, before + 5000);

    /* an RPC failure is a bad call and changes nothing */
    s = fresh_slot(c);
    assert_int_equal(sy_op_prepare(s, 0, c), 0);
    r3 = &v3_call(c, s)->res.r3;
    s->call->status = RP_ERR_TIMEDOUT;
    sy_op_done(s, c);
    assert_int_equal(c->cx.stats.op[NF_OP_WRITE].bad, 1);
    assert_int_equal(t->cur_bytes, before + 5000);
    c->cx.measuring = 0;
}

/* Picks a request of op and answers its call with a bare v3 status (every
 * v3 result starts with its nfsstat3). */
static void answer_v3(struct sy_child *c, int op, nfsstat3 st)
{
    struct sy_slot *s;

    assert_int_equal(sy_op_pick(c, op), 0);
    s = fresh_slot(c);
    assert_int_equal(sy_op_prepare(s, 0, c), 0);
    v3_call(c, s)->res.r3.getattr.status = st;
    reply(c, s);
}

/* Error answers that still tell the name's state keep the table in step
 * (a retransmitted call the server had already done, or a state lost to an
 * RPC timeout): EXIST for mknod/symlink/link -> the name exists; NOENT for
 * a rename source -> it does not. */
static void error_replies_tell_the_state(void **state)
{
    struct sy_child *c = *state;
    struct sy_files *t = &c->files;

    fake_population(c);

    answer_v3(c, NF_OP_MKNOD, NFS3ERR_EXIST);
    assert_int_equal(t->f[c->req.file].state, SY_EXISTS);

    answer_v3(c, NF_OP_LINK, NFS3ERR_EXIST);
    assert_int_equal(t->f[c->req.file2].state, SY_EXISTS);

    answer_v3(c, NF_OP_RENAME, NFS3ERR_NOENT);
    assert_int_equal(t->f[c->req.file].state, SY_NONEXISTENT);
    assert_int_equal(t->f[c->req.file2].state, SY_NONEXISTENT);
}

/* Encodes res with the rpcgen codec and decodes it with the codec
 * the protocol chose for the slot's call. */
static void decode_with_slot_codec(struct nf23_call *x, xdrproc_t enc, void *res)
{
    static char wire[4096];
    XDR xd;

    xdrmem_create(&xd, wire, sizeof(wire), XDR_ENCODE);
    assert_true(enc(&xd, res));
    xdr_destroy(&xd);
    memset(&x->res, 0, NF_RES_BYTES);
    xdrmem_create(&xd, wire, sizeof(wire), XDR_DECODE);
    assert_true(x->rpc.res_codec(&xd, &x->res));
    xdr_destroy(&xd);
}

/* LOOKUP3's handle and the readdir entry lists are decoded without
 * allocation: the handle lands in the slot, entries are read over. */
static void hot_results_decode_into_the_slot(void **state)
{
    struct sy_child *c = *state;
    struct sy_slot *s;
    struct nf23_call *x;
    char fh[6] = {9, 8, 7, 6, 5, 4}, n1[] = "file_en.00001", n2[] = "file_en.00002";
    entryplus3 e[2];
    READDIRPLUS3res rp;
    LOOKUP3res lk;

    fake_population(c);
    assert_int_equal(sy_op_pick(c, NF_OP_READDIRPLUS), 0);
    s = fresh_slot(c);
    assert_int_equal(sy_op_prepare(s, 0, c), 0);
    x = v3_call(c, s);
    memset(e, 0, sizeof(e));
    e[0].fileid = 1;
    e[0].name = n1;
    e[0].cookie = 1;
    e[0].name_handle.handle_follows = TRUE;
    e[0].name_handle.post_op_fh3_u.handle.data.data_len = sizeof(fh);
    e[0].name_handle.post_op_fh3_u.handle.data.data_val = fh;
    e[0].nextentry = &e[1];
    e[1].fileid = 2;
    e[1].name = n2;
    e[1].cookie = 2;
    e[1].name_attributes.attributes_follow = TRUE;
    memset(&rp, 0, sizeof(rp));
    rp.status = NFS3_OK;
    rp.READDIRPLUS3res_u.resok.reply.entries = e;
    rp.READDIRPLUS3res_u.resok.reply.eof = TRUE;
    decode_with_slot_codec(x, (xdrproc_t)xdr_READDIRPLUS3res, &rp);
    assert_int_equal(x->res.r3.readdirplus.status, NFS3_OK);
    assert_null(x->res.r3.readdirplus.READDIRPLUS3res_u.resok.reply.entries);
    assert_true(x->res.r3.readdirplus.READDIRPLUS3res_u.resok.reply.eof);

    assert_int_equal(sy_op_pick(c, NF_OP_LOOKUP), 0);
    s = fresh_slot(c);
    assert_int_equal(sy_op_prepare(s, 0, c), 0);
    x = v3_call(c, s);
    memset(&lk, 0, sizeof(lk));
    lk.status = NFS3_OK;
    lk.LOOKUP3res_u.resok.object.data.data_len = sizeof(fh);
    lk.LOOKUP3res_u.resok.object.data.data_val = fh;
    decode_with_slot_codec(x, (xdrproc_t)xdr_LOOKUP3res, &lk);
    assert_ptr_equal(x->res.r3.lookup.LOOKUP3res_u.resok.object.data.data_val, x->res.fh);
    assert_memory_equal(x->res.fh, fh, sizeof(fh));
    nf_call_free(&x->rpc); /* frees nothing: ASan would see a bad free */
}

/* A stateful protocol (NFSv4.1's shape, here NFSv3's calls with a
 * counter as each file's state). */
static unsigned entered, left;

static int count_enter(struct nf_session *ses, const struct nf_fh *fh, void *fstate)
{
    (void)ses;
    (void)fh;
    *(uint32_t *)fstate = ++entered;
    return 0;
}

static int count_leave(struct nf_session *ses, const struct nf_fh *fh, void *fstate)
{
    (void)ses;
    (void)fh;
    assert_int_not_equal(*(const uint32_t *)fstate, 0); /* it had entered */
    left++;
    return 0;
}

/* Its state per file lives in the child's storage and goes with the calls
 * on the file itself (not with those on its directory); the working set's
 * files enter after population and leave at the end, each once. */
static void a_stateful_protocol_sees_the_working_set(void **state)
{
    struct sy_child *c = *state;
    const struct nf_proto *was = c->cx.ses.proto;
    static struct nf_proto stateful;
    struct sy_slot *s;

    stateful = nf_proto_v3;
    stateful.file_bytes = sizeof(uint32_t);
    stateful.file_enter = count_enter;
    stateful.file_leave = count_leave;
    c->cx.ses.proto = &stateful;
    assert_int_equal(sy_fstate_init(c), 0);
    fake_population(c);
    entered = left = 0;
    assert_int_equal(sy_working_enter(c), 0);
    assert_int_equal(sy_working_enter(c), 0); /* once */
    assert_int_equal(entered, c->files.n_working);

    assert_int_equal(sy_op_pick(c, NF_OP_READ), 0);
    s = fresh_slot(c);
    assert_int_equal(sy_op_prepare(s, 0, c), 0);
    assert_ptr_equal(s->args.fstate, sy_fstate(c, c->req.file));
    assert_int_not_equal(*(const uint32_t *)s->args.fstate, 0);
    assert_int_equal(sy_op_pick(c, NF_OP_LOOKUP), 0);
    s = fresh_slot(c);
    assert_int_equal(sy_op_prepare(s, 0, c), 0);
    assert_null(s->args.fstate);

    c->cx.ses.mounted = 1; /* leaving asks a live session */
    sy_working_leave(c);
    sy_working_leave(c); /* once */
    c->cx.ses.mounted = 0;
    assert_int_equal(left, c->files.n_working);
    c->cx.ses.proto = was;
    assert_int_equal(sy_fstate_init(c), 0);
    assert_null(c->fstate); /* NFSv3 keeps none */
}

/* No two children of a run draw the same stream: not two of one client, and
 * not the same child number on two clients (-N); a client's re-run draws
 * the same one again. */
static void every_child_of_every_client_has_its_own_seed(void **state)
{
    struct ld_config a, b;
    unsigned k;

    (void)state;
    ld_config_defaults(&a, 3);
    b = a;
    a.client_num = 1;
    b.client_num = 2;
    assert_int_equal(ld_child_seed(&a, 0), a.seed); /* standalone: seed + k */
    for (k = 0; k < 4; k++) {
        assert_int_equal(ld_child_seed(&a, k), ld_child_seed(&a, k));
        assert_true(ld_child_seed(&a, k) != ld_child_seed(&b, k));
        assert_true(ld_child_seed(&a, k) != ld_child_seed(&a, k + 1));
    }
    assert_true(ld_child_seed(&a, LD_MAX_PROCS - 1) < ld_child_seed(&b, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(decks_hold_the_call_shares, setup_child,
                                        teardown_child),
        cmocka_unit_test_setup_teardown(picks_by_state_and_category, setup_child,
                                        teardown_child),
        cmocka_unit_test_setup_teardown(replies_update_the_table, setup_child,
                                        teardown_child),
        cmocka_unit_test_setup_teardown(error_replies_tell_the_state, setup_child,
                                        teardown_child),
        cmocka_unit_test_setup_teardown(a_stateful_protocol_sees_the_working_set,
                                        setup_child, teardown_child),
        cmocka_unit_test_setup_teardown(hot_results_decode_into_the_slot, setup_child,
                                        teardown_child),
        cmocka_unit_test(every_child_of_every_client_has_its_own_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
