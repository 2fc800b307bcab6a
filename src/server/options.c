/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * options.c - sfs_nfsd's command line as one cm_opt table (server layer):
 * the table gives parsing, the range errors that name the option, --help
 * and the value echo; sv_options_parse then turns the parsed text into a
 * struct sv_config (ports, --error rules, --delay-us) and checks what
 * involves more than one option.  docs/sfs_nfsd.md documents every row.
 */
#include "server/sv_int.h"
#include "common/exit.h"
#include "common/opt.h"

#include <errno.h>
#include <stddef.h>
#include <string.h>
#include "common/cm.h"
#include "common/error.h"
#include "common/yaml.h"

#define F(field)                                                                         \
    offsetof(struct sv_options, field), sizeof(((struct sv_options *)0)->field)

/* Rows: short, long, rc name, type, field, default, min, max, unit,
 * argument name, help, enums, bare value, flags, exit code. */
static const struct cm_opt sv_opts[] = {
    {'b', "bind", NULL, CM_OPT_STRING, F(bind), "127.0.0.1", 0, 0, NULL, "ADDR",
     "Address to bind (IPv4 or IPv6 literal).", NULL, NULL, 0, CM_EXIT_USAGE},
    {'p', "port", NULL, CM_OPT_INT, F(nfs_port), "12049", 0, 65535, NULL, "PORT",
     "NFS port; 0 picks a free one.", NULL, NULL, 0, CM_EXIT_USAGE},
    {'m', "mount-port", NULL, CM_OPT_INT, F(mount_port), "12050", 0, 65535, NULL, "PORT",
     "MOUNT port (may equal -p); 0 picks a free one.", NULL, NULL, 0, CM_EXIT_USAGE},
    {'e', "export", NULL, CM_OPT_LIST, F(exports), "/export", 0, SV_MAX_EXPORTS, NULL,
     "PATH", "Exported directory, created empty; repeatable.", NULL, NULL, 0,
     CM_EXIT_USAGE},
    {0, "max-bytes", NULL, CM_OPT_SIZE, F(cfg.max_bytes), NULL, 0, 1152921504606846976.0,
     "bytes", "SIZE",
     "File data capacity (K, M, G, T suffixes), 0 = no limit; default half the memory.",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "root-squash", NULL, CM_OPT_FLAG, F(cfg.root_squash), NULL, 0, 1, NULL, NULL,
     "Serve AUTH_SYS uid 0 and gid 0 as nobody (65534).", NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "max-connections", NULL, CM_OPT_INT, F(cfg.max_connections), "1024", 1,
     SV_MAX_CONNECTIONS, NULL, "N",
     "TCP connections at once; beyond, the one idle the longest is closed.", NULL, NULL,
     0, CM_EXIT_USAGE},
    {0, "max-buffer-mb", NULL, CM_OPT_INT, F(max_buffer_mb), NULL, 1, 1048576, "MiB", "N",
     "Buffers all TCP connections may pin; beyond, those pinning the most while not "
     "reading are closed. Default 1/32 of the memory, at least 64.",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "idle-timeout", NULL, CM_OPT_INT, F(idle_timeout_s), "300", 0, 86400, "s", "SEC",
     "Close TCP connections idle this long; 0 = never.", NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "register", NULL, CM_OPT_FLAG, F(cfg.register_rpcbind), NULL, 0, 1, NULL, NULL,
     "Also register with rpcbind.", NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "pidfile", NULL, CM_OPT_STRING, F(pidfile), "", 0, 0, NULL, "FILE",
     "Write the server's process id (removed at exit).", NULL, NULL, 0, CM_EXIT_USAGE},
    {'f', "foreground", NULL, CM_OPT_FLAG, F(foreground), NULL, 0, 1, NULL, NULL,
     "Stay in the foreground.", NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "stats-file", NULL, CM_OPT_STRING, F(stats_file), "", 0, 0, NULL, "FILE",
     "Counters as YAML, written on SIGUSR1 and at exit.", NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "lease", NULL, CM_OPT_INT, F(lease_s), "90", 1, 3600, "s", "SEC",
     "NFSv4 lease: a client silent this long loses its state.", NULL, NULL, 0,
     CM_EXIT_USAGE},
    {0, "grace", NULL, CM_OPT_INT, F(grace_s), "0", 0, 3600, "s", "SEC",
     "NFSv4 grace period after start: OPEN and LOCK answer GRACE.", NULL, NULL, 0,
     CM_EXIT_USAGE},
    {0, "seed", NULL, CM_OPT_I64, F(cfg.fault.seed), "2231", 1, 2147483646.0, NULL, "N",
     "Seed of the fault decisions.", NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "drop-replies", NULL, CM_OPT_DOUBLE, F(cfg.fault.drop_pct), "0", 0, 100, "%",
     "PCT", "Execute the call but send no reply.", NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "delay-us", NULL, CM_OPT_STRING, F(delay), "0", 0, 0, NULL, "N[:J]",
     "Hold every reply N us plus a uniform 0..J us.", NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "delay-only", NULL, CM_OPT_STRING, F(delay_op), "", 0, 0, NULL, "OP",
     "Hold only the replies of NFS procedure OP (getattr, read...) by --delay-us.", NULL,
     NULL, 0, CM_EXIT_USAGE},
    {0, "service-us", NULL, CM_OPT_I64, F(cfg.fault.service_us), "0", 0, 1000000, "us",
     "N",
     "Serve NFS calls one at a time, N us each, in arrival order (a fixed capacity of "
     "1e6/N calls/s with a queue before it; 0 = off).",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "exit-after", NULL, CM_OPT_I64, F(exit_after), "0", 0, 9.2e18, "calls", "N",
     "Answer N calls, then exit with status 3 (0 = never).", NULL, NULL, 0,
     CM_EXIT_USAGE},
    {0, "error", NULL, CM_OPT_LIST, F(errors), NULL, 0, SV_MAX_ERROR_RULES, NULL,
     "OP=STATUS:PCT[:N]",
     "Answer NFS procedure OP (or all) with STATUS in PCT % of its calls (at most N "
     "calls); repeatable.",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "corrupt-reads", NULL, CM_OPT_DOUBLE, F(cfg.fault.corrupt_pct), "0", 0, 100, "%",
     "PCT", "Flip one byte of the data of PCT % of READ replies.", NULL, NULL, 0,
     CM_EXIT_USAGE},
    {0, "wrong-attrs", NULL, CM_OPT_DOUBLE, F(cfg.fault.wrong_attrs_pct), "0", 0, 100,
     "%", "PCT", "In PCT % of replies, every attribute reports size + 1 and mode ^ 0777.",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "drop-dirents", NULL, CM_OPT_DOUBLE, F(cfg.fault.drop_dirent_pct), "0", 0, 100,
     "%", "PCT", "Leave one entry out of PCT % of READDIR(PLUS) replies.", NULL, NULL, 0,
     2},
    {0, "change-handles", NULL, CM_OPT_DOUBLE, F(cfg.fault.change_fh_pct), "0", 0, 100,
     "%", "PCT",
     "In PCT % of replies, handles differ from the object's usual one (still valid).",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "change-verf", NULL, CM_OPT_DOUBLE, F(cfg.fault.change_verf_pct), "0", 0, 100,
     "%", "PCT", "PCT % of v3 WRITE and COMMIT replies carry another write verifier.",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "write-verf", NULL, CM_OPT_I64, F(cfg.fault.write_verf), "0", 0, 9.2e18, NULL,
     "N", "A fixed write verifier, the same after a restart (0 = new at every start).",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "weak-writes", NULL, CM_OPT_DOUBLE, F(cfg.fault.weak_write_pct), "0", 0, 100, "%",
     "PCT", "PCT % of v3 WRITE replies say UNSTABLE, whatever was asked.", NULL, NULL, 0,
     2},
    {0, "wrong-eof", NULL, CM_OPT_DOUBLE, F(cfg.fault.wrong_eof_pct), "0", 0, 100, "%",
     "PCT", "PCT % of v3 READ replies carry eof inverted.", NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "bad-fs", NULL, CM_OPT_DOUBLE, F(cfg.fault.bad_fs_pct), "0", 0, 100, "%", "PCT",
     "PCT % of FSSTAT, FSINFO and (directory) PATHCONF replies contradict themselves.",
     NULL, NULL, 0, CM_EXIT_USAGE},
    {0, "bad-access", NULL, CM_OPT_DOUBLE, F(cfg.fault.bad_access_pct), "0", 0, 100, "%",
     "PCT", "PCT % of ACCESS replies grant what the mode denies, and bit 0x40.", NULL,
     NULL, 0, CM_EXIT_USAGE},
    {0, "expire-leases", NULL, CM_OPT_DOUBLE, F(cfg.fault.expire_lease_pct), "0", 0, 100,
     "%", "PCT",
     "PCT % of NFSv4 SEQUENCE and RENEW calls find their client's lease run out.", NULL,
     NULL, 0, CM_EXIT_USAGE},
    {0, "bad-mknod", NULL, CM_OPT_DOUBLE, F(cfg.fault.bad_mknod_pct), "0", 0, 100, "%",
     "PCT", "PCT % of MKNOD calls make a regular file, whatever the type asked.", NULL,
     NULL, 0, CM_EXIT_USAGE},
};

_Static_assert(CM_ARRAY_LEN(sv_opts) <= sizeof(((struct sv_options *)0)->src),
               "struct sv_options: src[] shorter than the option table");

/* The stats file's "options" map: every row's value and source. */
static void echo(struct cm_yaml *y, const void *data)
{
    const struct sv_options *o = data;

    cm_opt_yaml(y, sv_opts, CM_ARRAY_LEN(sv_opts), o, o->src);
}

void sv_options_help(FILE *out)
{
    fprintf(
        out,
        "usage: sfs_nfsd [options]\n"
        "A user-space NFSv2/v3/v4.0/v4.1 + MOUNT v1/v3 server with an in-memory file\n"
        "system. Every port serves NFS and MOUNT, over UDP and TCP (NFSv4 over TCP).\n"
        "Fault decisions are deterministic for a given --seed and call sequence.\n"
        "options:\n");
    cm_opt_help(out, sv_opts, CM_ARRAY_LEN(sv_opts));
}

/* What the rows leave as text or in another type becomes the config. */
static int finish(struct sv_options *o, char *err, size_t errlen)
{
    struct sv_config *cfg = &o->cfg;

    cfg->bind_addr = o->bind;
    cfg->nfs_port = (uint16_t)o->nfs_port;
    cfg->mount_port = (uint16_t)o->mount_port;
    cfg->idle_timeout_s = (unsigned)o->idle_timeout_s;
    cfg->lease_s = (unsigned)o->lease_s;
    cfg->grace_s = (unsigned)o->grace_s;
    cfg->max_buffer_bytes = (uint64_t)o->max_buffer_mb << 20;
    cfg->fault.exit_after = (uint64_t)o->exit_after;
    cfg->stats_file = o->stats_file[0] ? o->stats_file : NULL;
    cfg->echo = echo;
    cfg->echo_data = o;
    cfg->nexports = o->exports.n;
    for (int i = 0; i < o->exports.n; i++)
        cfg->exports[i] = o->exports.v[i];
    for (int i = 0; i < o->errors.n; i++)
        if (sv_fault_parse_error(&cfg->fault, o->errors.v[i], err, errlen) != 0)
            return -EINVAL;
    if (sv_fault_parse_delay_op(&cfg->fault, o->delay_op, err, errlen) != 0)
        return -EINVAL;
    return sv_fault_parse_delay(&cfg->fault, o->delay, err, errlen);
}

int sv_options_parse(struct sv_options *o, int argc, char **argv, char *err,
                     size_t errlen)
{
    const struct cm_opt *bad;
    int first = argc, rc;

    memset(o, 0, sizeof(*o));
    sv_config_defaults(&o->cfg);
    o->max_buffer_mb = (int)(o->cfg.max_buffer_bytes >> 20);
    /* The table's defaults always parse (a unit test checks it); --max-bytes
     * and --max-buffer-mb have none there and keep sv_config_defaults'
     * memory-based ones. */
    rc = cm_opt_defaults(sv_opts, CM_ARRAY_LEN(sv_opts), o, o->src, err, errlen);
    if (rc < 0)
        return rc;
    rc = cm_opt_parse_argv(sv_opts, CM_ARRAY_LEN(sv_opts), o, o->src, argc, argv, &first,
                           &bad, err, errlen);
    if (rc != 0)
        return rc < 0 ? rc : SV_OPTIONS_HELP;
    if (first < argc)
        return cm_errf(err, errlen, "unexpected argument '%s' (see --help)", argv[first]);
    return finish(o, err, errlen);
}
