/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_ops.c - the NFSv4 operation table of sfs_nfsd (server layer): each
 * operation number's name (the stats file's keys), handler and the minor
 * versions that have it; and the v4 server's life (its state, its
 * counters in the stats file).  Operations without a handler answer
 * NOTSUPP: delegations, pNFS layouts and devices, directory delegations,
 * named attributes and SSV are not served (RFC 8881 lets a server leave
 * them out; the attributes and EXCHANGE_ID's flags say so).
 */
#include "server/nfs4_int.h"
#include "common/alloc.h"
#include "common/clock.h"
#include "common/cm.h"
#include "common/yaml.h"

#include <stdlib.h>
#include <string.h>

#define ROW(num, name, fn, minors) [num] = {name, fn, minors}

static const struct sv4_op ops[OP_RECLAIM_COMPLETE + 1] = {
    ROW(OP_ACCESS, "access", sv4_op_access, SV4_MALL),
    ROW(OP_CLOSE, "close", sv4_op_close, SV4_MALL),
    ROW(OP_COMMIT, "commit", sv4_op_commit, SV4_MALL),
    ROW(OP_CREATE, "create", sv4_op_create, SV4_MALL),
    ROW(OP_DELEGPURGE, "delegpurge", NULL, SV4_MALL),
    ROW(OP_DELEGRETURN, "delegreturn", sv4_op_delegreturn, SV4_MALL),
    ROW(OP_GETATTR, "getattr", sv4_op_getattr, SV4_MALL),
    ROW(OP_GETFH, "getfh", sv4_op_getfh, SV4_MALL),
    ROW(OP_LINK, "link", sv4_op_link, SV4_MALL),
    ROW(OP_LOCK, "lock", sv4_op_lock, SV4_MALL),
    ROW(OP_LOCKT, "lockt", sv4_op_lockt, SV4_MALL),
    ROW(OP_LOCKU, "locku", sv4_op_locku, SV4_MALL),
    ROW(OP_LOOKUP, "lookup", sv4_op_lookup, SV4_MALL),
    ROW(OP_LOOKUPP, "lookupp", sv4_op_lookupp, SV4_MALL),
    ROW(OP_NVERIFY, "nverify", sv4_op_nverify, SV4_MALL),
    ROW(OP_OPEN, "open", sv4_op_open, SV4_MALL),
    ROW(OP_OPENATTR, "openattr", sv4_op_openattr, SV4_MALL),
    ROW(OP_OPEN_CONFIRM, "open_confirm", sv4_op_open_confirm, SV4_M0),
    ROW(OP_OPEN_DOWNGRADE, "open_downgrade", sv4_op_open_downgrade, SV4_MALL),
    ROW(OP_PUTFH, "putfh", sv4_op_putfh, SV4_MALL),
    ROW(OP_PUTPUBFH, "putpubfh", sv4_op_putpubfh, SV4_MALL),
    ROW(OP_PUTROOTFH, "putrootfh", sv4_op_putrootfh, SV4_MALL),
    ROW(OP_READ, "read", sv4_op_read, SV4_MALL),
    ROW(OP_READDIR, "readdir", sv4_op_readdir, SV4_MALL),
    ROW(OP_READLINK, "readlink", sv4_op_readlink, SV4_MALL),
    ROW(OP_REMOVE, "remove", sv4_op_remove, SV4_MALL),
    ROW(OP_RENAME, "rename", sv4_op_rename, SV4_MALL),
    ROW(OP_RENEW, "renew", sv4_op_renew, SV4_M0),
    ROW(OP_RESTOREFH, "restorefh", sv4_op_restorefh, SV4_MALL),
    ROW(OP_SAVEFH, "savefh", sv4_op_savefh, SV4_MALL),
    ROW(OP_SECINFO, "secinfo", sv4_op_secinfo, SV4_MALL),
    ROW(OP_SETATTR, "setattr", sv4_op_setattr, SV4_MALL),
    ROW(OP_SETCLIENTID, "setclientid", sv4_op_setclientid, SV4_M0),
    ROW(OP_SETCLIENTID_CONFIRM, "setclientid_confirm", sv4_op_setclientid_confirm,
        SV4_M0),
    ROW(OP_VERIFY, "verify", sv4_op_verify, SV4_MALL),
    ROW(OP_WRITE, "write", sv4_op_write, SV4_MALL),
    ROW(OP_RELEASE_LOCKOWNER, "release_lockowner", sv4_op_release_lockowner, SV4_M0),
    ROW(OP_BACKCHANNEL_CTL, "backchannel_ctl", sv4_op_backchannel_ctl, SV4_M1),
    ROW(OP_BIND_CONN_TO_SESSION, "bind_conn_to_session", sv4_op_bind_conn_to_session,
        SV4_M1),
    ROW(OP_EXCHANGE_ID, "exchange_id", sv4_op_exchange_id, SV4_M1),
    ROW(OP_CREATE_SESSION, "create_session", sv4_op_create_session, SV4_M1),
    ROW(OP_DESTROY_SESSION, "destroy_session", sv4_op_destroy_session, SV4_M1),
    ROW(OP_FREE_STATEID, "free_stateid", sv4_op_free_stateid, SV4_M1),
    ROW(OP_GET_DIR_DELEGATION, "get_dir_delegation", NULL, SV4_M1),
    ROW(OP_GETDEVICEINFO, "getdeviceinfo", NULL, SV4_M1),
    ROW(OP_GETDEVICELIST, "getdevicelist", NULL, SV4_M1),
    ROW(OP_LAYOUTCOMMIT, "layoutcommit", NULL, SV4_M1),
    ROW(OP_LAYOUTGET, "layoutget", NULL, SV4_M1),
    ROW(OP_LAYOUTRETURN, "layoutreturn", NULL, SV4_M1),
    ROW(OP_SECINFO_NO_NAME, "secinfo_no_name", sv4_op_secinfo_no_name, SV4_M1),
    ROW(OP_SEQUENCE, "sequence", sv4_op_sequence, SV4_M1),
    ROW(OP_SET_SSV, "set_ssv", NULL, SV4_M1),
    ROW(OP_TEST_STATEID, "test_stateid", sv4_op_test_stateid, SV4_M1),
    ROW(OP_WANT_DELEGATION, "want_delegation", NULL, SV4_M1),
    ROW(OP_DESTROY_CLIENTID, "destroy_clientid", sv4_op_destroy_clientid, SV4_M1),
    ROW(OP_RECLAIM_COMPLETE, "reclaim_complete", sv4_op_reclaim_complete, SV4_M1),
};

const struct sv4_op *sv4_op_row(uint32_t opnum)
{
    if (opnum >= CM_ARRAY_LEN(ops) || ops[opnum].name == NULL)
        return NULL;
    return &ops[opnum];
}

const char *sv4_op_name(uint32_t opnum)
{
    const struct sv4_op *row = sv4_op_row(opnum);

    return row ? row->name : "illegal";
}

/* ---- life --------------------------------------------------------------------- */

struct sv4 *sv4_create(struct sv_core *c, const struct sv_config *cfg)
{
    static const char hex[] = "0123456789abcdef";
    struct sv4 *v = cm_calloc(1, sizeof(*v));

    if (v == NULL)
        return NULL;
    v->c = c;
    v->clock = cfg->clock ? cfg->clock : &cm_monotonic_clock;
    v->lease_s = cfg->lease_s ? cfg->lease_s : SV4_DEFAULT_LEASE;
    v->grace_s = cfg->grace_s;
    v->start_ns = sv4_now(v);
    v->instance32 = (uint32_t)(c->instance ^ c->instance >> 32);
    if (v->instance32 == 0)
        v->instance32 = 1;
    /* EXCHANGE_ID's server owner and scope: new at each start */
    memcpy(v->scope, "sfs_nfsd-", 9);
    v->scope_len = 9;
    for (int i = 28; i >= 0; i -= 4)
        v->scope[v->scope_len++] = hex[(v->instance32 >> i) & 15];
    return v;
}

void sv4_destroy(struct sv4 *v)
{
    if (v == NULL)
        return;
    sv4_clients_free(v);
    sv4_xid_free(v);
    free(v);
}

/* The stats file's nfs_v4 map: procedures, then every operation, then
 * the state held and what happened to it. */
void sv4_write_stats(const struct sv4 *v, struct cm_yaml *y)
{
    uint64_t sessions = 0;

    cm_yaml_key(y, "nfs_v4");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "null", v->null_calls);
    cm_yaml_kv_uint(y, "compound", v->compounds[0] + v->compounds[1] + v->compounds[2]);
    cm_yaml_kv_uint(y, "compound_minor0", v->compounds[0]);
    cm_yaml_kv_uint(y, "compound_minor1", v->compounds[1]);
    cm_yaml_kv_uint(y, "compound_minor_other", v->compounds[2]);
    for (uint32_t op = 0; op < CM_ARRAY_LEN(ops); op++)
        if (ops[op].name != NULL)
            cm_yaml_kv_uint(y, ops[op].name, v->ops[op]);
    cm_yaml_kv_uint(y, "illegal", v->ops[SV4_ILLEGAL_SLOT]);
    cm_yaml_map_end(y);
    for (const struct sv4_client *cl = v->clients; cl != NULL; cl = cl->next)
        sessions += cl->nsessions;
    cm_yaml_key(y, "nfs_v4_state");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "clients", v->nclients);
    cm_yaml_kv_uint(y, "sessions", sessions);
    cm_yaml_kv_uint(y, "leases_expired", v->leases_expired);
    cm_yaml_kv_uint(y, "leases_cut", v->leases_cut);
    cm_yaml_kv_uint(y, "slot_replays", v->slot_replays);
    cm_yaml_kv_uint(y, "xid_replays", v->xid_replays);
    cm_yaml_map_end(y);
}

uint64_t sv4_count(const struct sv4 *v, uint32_t opnum)
{
    return sv4_op_row(opnum) ? v->ops[opnum] : v->ops[SV4_ILLEGAL_SLOT];
}
