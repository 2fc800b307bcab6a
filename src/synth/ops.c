/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ops.c - issuing one request (sy_int.h: sy_op_request, sy_op_issue) and
 * the biod callbacks around each of its calls: sy_op_prepare builds the
 * arguments (args.c) and picks the codecs and the call-class timeout from
 * the procedure table; sy_op_done reads the reply (reply.c) and accounts
 * the call: a call answered within its class timeout is a good call
 * whatever its NFS status (docs/SFS30.md §4); a call not answered within its class
 * timeout is a bad call without a time, as in SFS, even when a re-sent
 * copy is answered later (the engine goes on re-sending only so that the
 * file table learns the outcome: docs/DECISIONS.md, D2); an RPC failure is
 * a bad call.  The calls are the child's protocol's (nfs/nf_proto.h): the
 * arguments and the result are version-neutral.  NFS errors the workload did not expect
 * are counted apart (the report's Error Count), and STALE replies in a row are counted
 * for the child's stop rule.  A call the server answered busy (v3 NFS3ERR_JUKEBOX, RFC
 * 1813: try later) is sent again after
 * --jukebox-delay, as a real client does (biod.c); it is one call whose
 * time runs from its first send to its final reply, judged late by its
 * last send alone, and its sends again are counted.
 */
#include <errno.h>
#include <string.h>

#include "load/debug.h"
#include "synth/sy_int.h"

#define LD_INIT_WRITE_DEPTH 8

int sy_op_prepare(struct sy_slot *s, uint32_t i, void *data)
{
    struct sy_child *c = data;
    const struct sy_req *r = &c->req;

    s->op = r->op;
    s->file = r->file;
    s->file2 = r->file2;
    s->offset = 0;
    s->len = 0;
    if (!c->cx.ses.proto->has_op(r->op))
        return -EOPNOTSUPP;
    sy_args_build(c, s, i);
    return 0;
}

static void log_error(struct sy_child *c, const struct sy_slot *s, uint32_t st)
{
    char name[SY_NAME_MAX] = "-";

    if (!ld_debug_on(c->cx.debug, LD_DBG_CHILD_ERROR))
        return;
    if (s->file != SY_NO_FILE)
        sy_files_name(&c->files, s->file, name, sizeof(name));
    if (s->call->status != 0)
        ld_child_log(&c->cx, "%s %s: RPC failed: %s", nf_op_name(s->op), name,
                     rp_status_text(s->call->status));
    else
        ld_child_log(&c->cx, "%s %s: NFS error %s", nf_op_name(s->op), name,
                     nf_status_name(st));
}

/* The accounting of one finished call of the measured run. */
static void account(struct sy_child *c, const struct sy_slot *s, uint32_t st, uint64_t ns,
                    int late, int expected)
{
    struct ld_stats *t = &c->cx.stats;
    uint32_t k;

    if (s->call->retransmits > 0)
        LD_STATS_COUNT(t, s->op, retrans);
    for (k = 0; k < s->call->again; k++)
        LD_STATS_COUNT(t, s->op, jukebox);
    if (s->call->status == 0 && !late) {
        ld_stats_good(t, s->op, ns, st != 0);
        if (st != 0 && !expected)
            ld_stats_unexpected(t, s->op, st);
    } else {
        ld_stats_bad(t, s->op);
        if (late)
            LD_STATS_COUNT(t, s->op, late);
    }
    if (st == NF_ST_STALE || st == NF_ST_BADHANDLE)
        t->stale++;
    if (c->dump)
        sy_dump_call(c->dump, c, s, s->call->status == 0 && !late ? ns : 0);
}

void sy_op_done(struct sy_slot *s, void *data)
{
    struct sy_child *c = data;
    struct sy_req *r = &c->req;
    uint32_t st = 0;
    uint64_t ns = 0;
    int late = 0, expected = 1;

    r->rpc_status = s->call->status;
    r->nfs_status = 0;
    r->fh_forgotten = 0;
    if (s->call->status == 0) {
        ns = nf_call_elapsed_ns(s->call);
        late = nf_call_late(s->call);
        st = sy_reply_apply(c, s);
        r->nfs_status = st;
        r->fh_forgotten = s->call->res.fh_forgotten;
        expected = st == 0 || sy_reply_expected(c, s, st);
        if (st == NF_ST_STALE || st == NF_ST_BADHANDLE)
            c->stale_run++;
        else
            c->stale_run = 0;
    }
    if (c->cx.measuring)
        account(c, s, st, ns, late, expected);
    if (c->cx.phase >= LD_CPHASE_WARMUP) /* the progress lines' counters */
        ld_live_call(&c->cx.live, ns, s->call->status == 0 && !late);
    if ((s->call->status != 0 || !expected) && !r->init)
        log_error(c, s, st);
    if (s->call->retransmits > 0 &&
        ld_debug_child_on(c->cx.debug, LD_DBG_CHILD_RPC, (int)c->cx.index))
        ld_child_log(&c->cx, "%s xid %08x: %u retransmission(s), %s", nf_op_name(s->op),
                     s->call->xid, s->call->retransmits, rp_status_text(s->call->status));
}

/* ---- requests --------------------------------------------------------------- */

int sy_op_issue(struct sy_child *c)
{
    struct sy_req *r = &c->req;
    uint32_t depth = 1;
    int rc;

    if (!c->cx.ses.proto->has_op(r->op)) {
        /* SFS wired ops the version lacks to a stub: one bad call. */
        if (c->cx.measuring) {
            ld_stats_bad(&c->cx.stats, r->op);
            LD_STATS_COUNT(&c->cx.stats, r->op, requests);
        }
        return 1;
    }
    if (r->op == NF_OP_READ)
        depth = (uint32_t)c->cx.cfg->biod_reads;
    else if (r->op == NF_OP_WRITE)
        depth = (uint32_t)c->cx.cfg->biod_writes;
    if (r->init && r->ncalls > 1)
        depth = LD_INIT_WRITE_DEPTH; /* population is not measured */
    r->attr_type = -1;
    rc = sy_biod_run(&c->biod, r->ncalls, depth);
    if (rc < 0)
        return rc;
    return (int)r->ncalls;
}

int sy_op_request(struct sy_child *c, int op)
{
    int rc, calls;

    if (sy_op_pick(c, op) < 0) {
        if (c->cx.measuring)
            c->cx.stats.op[op].no_calls++;
        return 0;
    }
    if (ld_debug_child_on(c->cx.debug, LD_DBG_CHILD_FILES, (int)c->cx.index) &&
        c->req.file != SY_NO_FILE) {
        char name[SY_NAME_MAX];
        sy_files_name(&c->files, c->req.file, name, sizeof(name));
        ld_child_log(&c->cx, "%s %s: offset %llu, %u bytes in %u call(s)%s",
                     nf_op_name(op), name, (unsigned long long)c->req.offset, c->req.len,
                     c->req.ncalls,
                     c->req.append     ? ", append"
                     : c->req.truncate ? ", truncate"
                                       : "");
    }
    if (c->cx.measuring && c->cx.ses.proto->has_op(op))
        LD_STATS_COUNT(&c->cx.stats, op, requests);
    calls = sy_op_issue(c);
    if (calls < 0)
        return calls;
    /* An object made whose reply names no handle (v2 SYMLINK): look it up
     * at once (docs/SFS30.md §2.4). */
    if (c->req.fh_forgotten && c->req.nfs_status == 0 && c->req.rpc_status == 0) {
        uint32_t file = c->req.file;
        memset(&c->req, 0, sizeof(c->req));
        c->req.op = NF_OP_LOOKUP;
        c->req.file = file;
        c->req.file2 = SY_NO_FILE;
        c->req.ncalls = 1;
        rc = sy_op_issue(c);
        if (rc < 0)
            return rc;
        calls += rc;
    }
    return calls;
}
