/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * v4_counts.c - the NFSv4.1 load's own counters (nf4_load.h): each v4
 * operation sent, the opens and closes of the working set, and what the
 * client did on its own (DELAY and GRACE resends, new sessions and
 * clients, delegations returned), as one field table - merged, sent and
 * printed as a workload's results are - with their report rows.
 */
#include <inttypes.h>
#include <string.h>

#include "nfs/nf4.h"
#include "nfs/nf4_load.h"
#include "common/cm.h"
#include "common/yaml.h"

#define G "nfsv4"
#define S(m, key)                                                                        \
    CM_FIELD_OF(struct nf4_load_stats, m, CM_FIELD_U64, CM_MERGE_SUM, G, key)
#define O(m, merge, key)                                                                 \
    CM_FIELD_OF(struct nf4_load_stats, open.m, CM_FIELD_U64, merge, G, key)

const struct cm_field nf4_load_field_table[NF4_LOAD_NFIELDS] = {
    CM_FIELD_ARRAY(struct nf4_load_stats, ops, CM_FIELD_U64, CM_MERGE_SUM,
                   NF4_COUNTED_OPS), /* the "operations" mapping, by name */
    S(ops_other, "ops_other"),
    S(compounds, "compounds"),
    O(opens, CM_MERGE_SUM, "opens"),
    O(reopens, CM_MERGE_SUM, "reopens"),
    O(open_errors, CM_MERGE_SUM, "open_errors"),
    O(closes, CM_MERGE_SUM, "closes"),
    O(closes_gone, CM_MERGE_SUM, "closes_gone"),
    O(closes_skipped, CM_MERGE_SUM, "closes_skipped"),
    O(create_waits, CM_MERGE_SUM, "creates_held_for_closes"),
    CM_FIELD_OF(struct nf4_load_stats, open.create_wait_s, CM_FIELD_DOUBLE, CM_MERGE_SUM,
                G, "creates_held_for_closes_s"),
    O(anonymous_io, CM_MERGE_SUM, "anonymous_io"),
    O(stale_resends, CM_MERGE_SUM, "stale_stateid_resends"),
    O(close_errors, CM_MERGE_SUM, "close_errors"),
    O(slow_ops, CM_MERGE_SUM, "slow_ops"),
    O(slow_ws_opens, CM_MERGE_SUM, "slow_working_set_opens"),
    O(slow_ws_closes, CM_MERGE_SUM, "slow_working_set_closes"),
    O(slow_created_closes, CM_MERGE_SUM, "slow_created_closes"),
    CM_FIELD_OF(struct nf4_load_stats, open.ws_wait_s, CM_FIELD_DOUBLE, CM_MERGE_SUM, G,
                "open_close_wait_s"),
    O(in_use_max, CM_MERGE_SUM, "files_open_max"), /* per process: all processes' */
    O(in_use, CM_MERGE_SUM, "files_open_at_end"),
    O(reclaims, CM_MERGE_SUM, "reclaims"),
    O(reclaim_no_grace, CM_MERGE_SUM, "reclaim_no_grace"),
    O(reclaim_bad, CM_MERGE_SUM, "reclaim_bad"),
    O(reclaim_errors, CM_MERGE_SUM, "reclaim_errors"),
    O(reclaim_untried, CM_MERGE_SUM, "reclaim_untried"),
    S(delays, "delay_resends"),
    S(graces, "grace_resends"),
    S(new_sessions, "new_sessions"),
    S(new_clients, "new_clients"),
    S(slot_repairs, "slot_repairs"),
    S(renewals, "lease_renewals"),
    S(delegations, "delegations"),
    S(delegreturns, "delegations_returned"),
    S(slot_waits, "slot_waits"),
    S(recovery_failed, "recoveries_failed"),
    S(restarts, "server_restarts"),
};

#define fields nf4_load_field_table

/* now - before, never below 0. */
static uint64_t grew(uint64_t now, uint64_t before)
{
    return now > before ? now - before : 0;
}

void nf4_load_client(struct nf4_load_stats *s, const struct nf4_client_stats *now,
                     const struct nf4_client_stats *before)
{
    uint32_t op;

    s->compounds += grew(now->compounds, before->compounds);
    for (op = 0; op < NF4_COUNTED_OPS; op++)
        s->ops[op] += grew(now->ops[op], before->ops[op]);
    s->ops_other += grew(now->ops_other, before->ops_other);
    s->delays += grew(now->delays, before->delays);
    s->graces += grew(now->graces, before->graces);
    s->new_sessions += grew(now->new_sessions, before->new_sessions);
    s->new_clients += grew(now->new_clients, before->new_clients);
    s->slot_repairs += grew(now->slot_repairs, before->slot_repairs);
    s->renewals += grew(now->renewals, before->renewals);
    s->delegations += grew(now->delegations, before->delegations);
    s->delegreturns += grew(now->delegreturns, before->delegreturns);
    s->slot_waits += grew(now->slot_waits, before->slot_waits);
    s->recovery_failed += grew(now->recovery_failed, before->recovery_failed);
    s->restarts += grew(now->restarts, before->restarts);
}

void nf4_load_opens(struct nf4_load_stats *s, const struct nf4_open_counts *now,
                    const struct nf4_open_counts *before)
{
    struct nf4_open_counts *o = &s->open;

    o->opens += grew(now->opens, before->opens);
    o->reopens += grew(now->reopens, before->reopens);
    o->open_errors += grew(now->open_errors, before->open_errors);
    o->closes += grew(now->closes, before->closes);
    o->closes_gone += grew(now->closes_gone, before->closes_gone);
    o->closes_skipped += grew(now->closes_skipped, before->closes_skipped);
    o->create_waits += grew(now->create_waits, before->create_waits);
    if (now->create_wait_s > before->create_wait_s)
        o->create_wait_s += now->create_wait_s - before->create_wait_s;
    o->anonymous_io += grew(now->anonymous_io, before->anonymous_io);
    o->stale_resends += grew(now->stale_resends, before->stale_resends);
    o->reclaims += grew(now->reclaims, before->reclaims);
    o->reclaim_no_grace += grew(now->reclaim_no_grace, before->reclaim_no_grace);
    o->reclaim_bad += grew(now->reclaim_bad, before->reclaim_bad);
    o->reclaim_errors += grew(now->reclaim_errors, before->reclaim_errors);
    o->reclaim_untried += grew(now->reclaim_untried, before->reclaim_untried);
    o->close_errors += grew(now->close_errors, before->close_errors);
    o->slow_ops += grew(now->slow_ops, before->slow_ops);
    o->slow_ws_opens += grew(now->slow_ws_opens, before->slow_ws_opens);
    o->slow_ws_closes += grew(now->slow_ws_closes, before->slow_ws_closes);
    o->slow_created_closes += grew(now->slow_created_closes, before->slow_created_closes);
    if (now->ws_wait_s > before->ws_wait_s)
        o->ws_wait_s += now->ws_wait_s - before->ws_wait_s;
    o->in_use = now->in_use;
    o->in_use_max = now->in_use_max;
}

/* The reclaims' OPENs that went out (answered or not): the client's own,
 * never the mix's creates. */
static uint64_t reclaims_sent(const struct nf4_open_counts *o)
{
    return o->reclaims + o->reclaim_no_grace + o->reclaim_bad + o->reclaim_errors;
}

static double share(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* An operation's name; numbers nfs_opnum4 lacks (0 to 2) are never sent. */
static const char *op_name(uint32_t op)
{
    const char *name = nf4_op_name(op);

    return name ? name : "UNKNOWN";
}

void nf4_load_report(FILE *out, const struct nf4_load_stats *s, uint64_t sfs_calls)
{
    uint64_t in_mix, own;
    uint32_t op;

    fprintf(out,
            "\nNFSv4.1 operations sent in the run (%" PRIu64
            " compounds, the client's own included):\n",
            s->compounds);
    for (op = 0; op < NF4_COUNTED_OPS; op++)
        if (s->ops[op])
            fprintf(out, "    %-20s %12" PRIu64 "\n", op_name(op), s->ops[op]);
    if (s->ops_other)
        fprintf(out, "    %-20s %12" PRIu64 "\n", "(others)", s->ops_other);
    own = s->open.opens + reclaims_sent(&s->open);
    in_mix = s->ops[OP_OPEN] > own ? s->ops[OP_OPEN] - own : 0;
    fprintf(out,
            "OPEN  operations %10" PRIu64 ": %" PRIu64 " in the mix's creates, %" PRIu64
            " calls of their own (%.2f %% beyond the mix's %" PRIu64 " calls; %" PRIu64
            " after a new client, %" PRIu64 " failed)\n",
            s->ops[OP_OPEN], in_mix, s->open.opens, share(s->open.opens, sfs_calls),
            sfs_calls, s->open.reopens, s->open.open_errors);
    fprintf(out,
            "CLOSE operations %10" PRIu64 ", each a call of its own (%.2f %% beyond the "
            "mix's calls; %" PRIu64 " opens a new client had lost, not closed; %" PRIu64
            " created files left open)\n",
            s->ops[OP_CLOSE], share(s->ops[OP_CLOSE], sfs_calls), s->open.closes_gone,
            s->open.closes_skipped);
    if (s->restarts || reclaims_sent(&s->open) || s->open.reclaim_untried)
        fprintf(out,
                "server restarts %" PRIu64 "; opens reclaimed (CLAIM_PREVIOUS) %" PRIu64
                ", not reclaimed: %" PRIu64 " NO_GRACE, %" PRIu64 " RECLAIM_BAD, %" PRIu64
                " other failures, %" PRIu64 " not tried (each opened again after the "
                "grace period)\n",
                s->restarts, s->open.reclaims, s->open.reclaim_no_grace,
                s->open.reclaim_bad, s->open.reclaim_errors, s->open.reclaim_untried);
    if (s->open.close_errors)
        fprintf(out, "CLOSEs answered with an error, or not at all: %" PRIu64 "\n",
                s->open.close_errors);
    if (s->open.create_waits)
        fprintf(out,
                "CREATEs held until the queue of created files' CLOSEs had room: %" PRIu64
                " (%.3f s)\n",
                s->open.create_waits, s->open.create_wait_s);
    fprintf(out,
            "calls over %u ms: %" PRIu64 " of the mix's ops, %" PRIu64
            " working-set OPENs, %" PRIu64 " working-set CLOSEs, %" PRIu64
            " created files' CLOSEs; waited on working-set OPENs and CLOSEs %.3f s\n",
            NF4_SLOW_NS / 1000000u, s->open.slow_ops, s->open.slow_ws_opens,
            s->open.slow_ws_closes, s->open.slow_created_closes, s->open.ws_wait_s);
    if (s->open.anonymous_io)
        fprintf(out, "READs and WRITEs with no open (anonymous stateid): %" PRIu64 "\n",
                s->open.anonymous_io);
    if (s->open.stale_resends)
        fprintf(out,
                "READs, WRITEs and SETATTRs sent again with the new client's stateid "
                "(the old one STALE, BAD or EXPIRED): %" PRIu64 "\n",
                s->open.stale_resends);
    fprintf(out,
            "delegations %" PRIu64 " granted (none asked), %" PRIu64
            " returned; resends: %" PRIu64 " after DELAY, %" PRIu64
            " after GRACE; new sessions %" PRIu64 ", new clients %" PRIu64
            ", recoveries failed %" PRIu64 "; lease renewals %" PRIu64 "\n",
            s->delegations, s->delegreturns, s->delays, s->graces, s->new_sessions,
            s->new_clients, s->recovery_failed, s->renewals);
}

void nf4_load_yaml(struct cm_yaml *y, const struct nf4_load_stats *s)
{
    uint32_t op;

    cm_yaml_key(y, "operations");
    cm_yaml_map_begin(y);
    for (op = 0; op < NF4_COUNTED_OPS; op++)
        if (s->ops[op])
            cm_yaml_kv_uint(y, op_name(op), s->ops[op]);
    cm_yaml_map_end(y);
    cm_fields_yaml(y, fields, CM_ARRAY_LEN(fields), s, G);
}
