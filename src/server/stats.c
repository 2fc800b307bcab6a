/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * stats.c - sfs_nfsd's per-procedure call counters as YAML (server layer),
 * written atomically through the common YAML writer on SIGUSR1 and at exit
 * (--stats-file), so that reliability tests can read how many calls of each
 * kind the server saw and how many faults it injected.
 */
#include "server/sv_int.h"

#include <errno.h>

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
    cm_yaml_kv_uint(y, "calls_answered", c->calls_answered);
    for (int i = 0; i < 4; i++)
        version_counts(y, c, i, vs[i]);
    cm_yaml_key(y, "rpc_errors");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "garbage_args", c->garbage_args);
    cm_yaml_kv_uint(y, "prog_unavail", c->prog_unavail);
    cm_yaml_kv_uint(y, "prog_mismatch", c->prog_mismatch);
    cm_yaml_kv_uint(y, "proc_unavail", c->proc_unavail);
    cm_yaml_kv_uint(y, "bad_calls", c->bad_calls);
    cm_yaml_kv_uint(y, "bad_credentials", c->bad_creds);
    cm_yaml_map_end(y);
    cm_yaml_key(y, "faults");
    cm_yaml_map_begin(y);
    cm_yaml_kv_uint(y, "replies_dropped", c->replies_dropped);
    cm_yaml_kv_uint(y, "errors_injected", c->errors_injected);
    cm_yaml_kv_uint(y, "reads_corrupted", c->reads_corrupted);
    cm_yaml_kv_uint(y, "attrs_falsified", c->attrs_falsified);
    cm_yaml_kv_uint(y, "dirents_dropped", c->dirents_dropped);
    cm_yaml_kv_uint(y, "handles_changed", c->handles_changed);
    cm_yaml_kv_uint(y, "other_lies", c->other_lies);
    cm_yaml_map_end(y);
    if (conns != NULL) {
        cm_yaml_key(y, "connections");
        cm_yaml_map_begin(y);
        cm_yaml_kv_uint(y, "accepted", conns->accepted);
        cm_yaml_kv_uint(y, "open", conns->open);
        cm_yaml_kv_uint(y, "closed_idle", conns->closed_idle);
        cm_yaml_kv_uint(y, "evicted", conns->evicted);
        cm_yaml_kv_uint(y, "throttled", conns->throttled);
        cm_yaml_kv_uint(y, "buffer_bytes", conns->buffer_bytes);
        cm_yaml_kv_uint(y, "buffer_bytes_peak", conns->buffer_bytes_peak);
        cm_yaml_kv_uint(y, "delayed_lost", conns->delayed_lost);
        cm_yaml_kv_uint(y, "closed_no_memory", conns->closed_no_memory);
        cm_yaml_kv_uint(y, "buffer_limit", conns->buffer_limit);
        cm_yaml_kv_uint(y, "shed", conns->shed);
        cm_yaml_kv_uint(y, "shed_bytes", conns->shed_bytes);
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
