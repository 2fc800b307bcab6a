/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.c - sfs_nfsd's per-procedure call counters as YAML (server layer),
 * written atomically through the common YAML writer on SIGUSR1 and at exit
 * (--stats-file), so that reliability tests can read how many calls of each
 * kind the server saw and how many faults it injected.
 */
#include "server/sv_int.h"
#include "server/nfs4_int.h"

#include <errno.h>

#include "common/fields.h"
#include "common/cm.h"
#include "common/yaml.h"

/* The counters, each once: group (the YAML mapping it prints in), key. */
#define CORE(m, group, key)                                                              \
    CM_FIELD_OF(struct sv_core, m, CM_FIELD_U64, CM_MERGE_SUM, group, key)
static const struct cm_field core_fields[] = {
    CORE(calls_answered, "", "calls_answered"),
    CORE(garbage_args, "rpc_errors", "garbage_args"),
    CORE(prog_unavail, "rpc_errors", "prog_unavail"),
    CORE(prog_mismatch, "rpc_errors", "prog_mismatch"),
    CORE(proc_unavail, "rpc_errors", "proc_unavail"),
    CORE(bad_calls, "rpc_errors", "bad_calls"),
    CORE(bad_creds, "rpc_errors", "bad_credentials"),
    CORE(replies_dropped, "faults", "replies_dropped"),
    CORE(errors_injected, "faults", "errors_injected"),
    CORE(reads_corrupted, "faults", "reads_corrupted"),
    CORE(attrs_falsified, "faults", "attrs_falsified"),
    CORE(dirents_dropped, "faults", "dirents_dropped"),
    CORE(handles_changed, "faults", "handles_changed"),
    CORE(other_lies, "faults", "other_lies"),
};

#define CONN(m) CM_FIELD_OF(struct sv_conn_stats, m, CM_FIELD_U64, CM_MERGE_SUM, "", #m)
static const struct cm_field conn_fields[] = {
    CONN(accepted),          CONN(open),         CONN(closed_idle),
    CONN(evicted),           CONN(throttled),    CONN(buffer_bytes),
    CONN(buffer_bytes_peak), CONN(delayed_lost), CONN(closed_no_memory),
    CONN(buffer_limit),      CONN(shed),         CONN(shed_bytes),
};
/* every connection counter is a row: a counter added without one fails here */
_Static_assert(sizeof(struct sv_conn_stats) ==
                   CM_ARRAY_LEN(conn_fields) * sizeof(uint64_t),
               "a counter of struct sv_conn_stats is missing from conn_fields");

/* One group of core_fields as a mapping of its own (key) or, for "",
 * entries of the mapping being written. */
static void group(struct cm_yaml *y, const struct sv_core *c, const char *name)
{
    if (name[0]) {
        cm_yaml_key(y, name);
        cm_yaml_map_begin(y);
    }
    cm_fields_yaml(y, core_fields, CM_ARRAY_LEN(core_fields), c, name);
    if (name[0])
        cm_yaml_map_end(y);
}

static void version_counts(struct cm_yaml *y, const struct sv_core *c, int vi,
                           const struct sv_version *v)
{
    const struct nf_proc_table *t = nf_proc_table(v->id);

    cm_yaml_key(y, v->stats_key);
    cm_yaml_map_begin(y);
    for (size_t p = 0; p < t->nrows && p < SV_MAX_PROCS; p++)
        cm_yaml_kv_uint(y, t->rows[p].name, c->counts[vi][p]);
    cm_yaml_map_end(y);
}

int sv_core_write_stats(const struct sv_core *c, const char *path,
                        const struct sv_conn_stats *conns, char *err, size_t errlen)
{
    static const struct sv_version *const vs[4] = {
        &sv__nfs2_version, &sv__nfs3_version, &sv__mount1_version, &sv__mount3_version};
    struct cm_yaml *y = cm_yaml_open(path, err, errlen);

    if (y == NULL)
        return -EIO;
    cm_yaml_map_begin(y);
    group(y, c, "");
    for (int i = 0; i < 4; i++)
        version_counts(y, c, i, vs[i]);
    sv4_write_stats(c->v4, y);
    group(y, c, "rpc_errors");
    group(y, c, "faults");
    if (conns != NULL) {
        cm_yaml_key(y, "connections");
        cm_yaml_map_begin(y);
        cm_fields_yaml(y, conn_fields, CM_ARRAY_LEN(conn_fields), conns, "");
        cm_yaml_map_end(y);
    }
    if (c->echo != NULL) {
        cm_yaml_key(y, "options");
        cm_yaml_map_begin(y);
        c->echo(y, c->echo_data);
        cm_yaml_map_end(y);
    }
    cm_yaml_map_end(y);
    return cm_yaml_close(y, err, errlen);
}
