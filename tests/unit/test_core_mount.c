/* SPDX-License-Identifier: BSD-2-Clause */
/* test_core_mount.c - unit tests of the mount session (src/nfs/mount.c)
 * against the server core on socketpairs (tests/unit/helpers/th_core.h),
 * reached through nf_mount_opts.connect - no network, no rpcbind: NFSv3
 * over TCP and NFSv2 over UDP give the export's root and a working NFS
 * client, UMNT is sent, an export the server does not have is refused by
 * name, EXPORT lists every directory, one more client opens through the
 * same connector; and the one-line failures: no descriptor, a peer that
 * never answers, a version or program the peer does not serve, garbage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/bytes.h"
#include "helpers/th_core.h"
#include "mount_prot.h"
#include "nfs/nf.h"
#include "rpc/recmark.h"

/* Mount options for version v over transport t through core t. */
static void core_opts(struct nf_mount_opts *o, struct th_core *t, int v,
                      enum rp_transport_kind tr)
{
    nf_mount_opts_init(o, v);
    o->transport = o->mount_transport = tr;
    o->connect = th_core_connect;
    o->connect_data = t;
}

static void v3_mount_over_tcp_gives_the_root_and_umount_sends_umnt(void **state)
{
    struct th_core t;
    struct nf_mount_opts o;
    struct nf_mount m;
    char err[CM_ERR_LEN] = "";

    (void)state;
    assert_int_equal(th_core_start_pairs(&t, NULL, 3, 0), 0);
    core_opts(&o, &t, 3, RP_TCP);
    assert_int_equal(nf_mount(&m, "core:/export", &o, err, sizeof(err)), 0);
    assert_true(m.root.len > 0);
    /* the session's NFS client works: the root is a directory */
    assert_int_equal(th_root_type(&m), NF3DIR);
    nf_umount(&m);
    assert_null(m.nfs);
    /* NULL (the version check), MNT and UMNT reached the core */
    assert_int_equal(sv_core_count(t.core, NFS3_PROGRAM, NFS_V3, NFSPROC3_NULL), 1);
    assert_int_equal(sv_core_count(t.core, MOUNT3_PROGRAM, MOUNT_V3, MOUNTPROC3_MNT), 1);
    assert_int_equal(sv_core_count(t.core, MOUNT3_PROGRAM, MOUNT_V3, MOUNTPROC3_UMNT), 1);
    th_core_stop(&t);
}

static void v2_mount_over_udp_gives_the_root(void **state)
{
    struct th_core t;
    struct nf_mount_opts o;
    struct nf_mount m;
    char err[CM_ERR_LEN] = "";

    (void)state;
    assert_int_equal(th_core_start_pairs(&t, NULL, 0, 3), 0);
    core_opts(&o, &t, 2, RP_UDP);
    assert_int_equal(nf_mount(&m, "core:/export", &o, err, sizeof(err)), 0);
    assert_int_equal(m.root.len, NFS_FHSIZE);
    assert_int_equal(rp_client_transport(m.nfs), RP_UDP);
    assert_int_equal(th_root_type(&m), NFDIR);
    nf_umount(&m);
    assert_int_equal(sv_core_count(t.core, MOUNTPROG, MOUNTVERS, MOUNTPROC_MNT), 1);
    assert_int_equal(sv_core_count(t.core, MOUNTPROG, MOUNTVERS, MOUNTPROC_UMNT), 1);
    th_core_stop(&t);
}

static void an_export_the_server_lacks_is_refused_by_name(void **state)
{
    struct th_core t;
    struct nf_mount_opts o;
    struct nf_mount m;
    char err[CM_ERR_LEN] = "";
    int v;

    (void)state;
    for (v = 2; v <= 3; v++) {
        assert_int_equal(th_core_start_pairs(&t, NULL, 2, 0), 0);
        core_opts(&o, &t, v, RP_TCP);
        assert_int_equal(nf_mount(&m, "core:/nowhere", &o, err, sizeof(err)), -EACCES);
        /* the refusal names what the server does export */
        assert_string_equal(err, "core:/nowhere: export refused (ACCES); the server "
                                 "exports /export");
        assert_null(m.nfs); /* nothing stays open */
        th_core_stop(&t);
    }
}

static void note_dir(const char *dir, void *data)
{
    char *list = data;

    strcat(list, dir);
    strcat(list, ";");
}

static void exports_lists_every_exported_directory(void **state)
{
    struct th_core t;
    struct sv_config cfg;
    struct nf_mount_opts o;
    char err[CM_ERR_LEN] = "", list[256];
    int v;

    (void)state;
    for (v = 2; v <= 3; v++) {
        sv_config_defaults(&cfg);
        cfg.instance = 1;
        cfg.exports[0] = "/export";
        cfg.exports[1] = "/other";
        cfg.nexports = 2;
        assert_int_equal(th_core_start_pairs(&t, &cfg, 1, 0), 0);
        core_opts(&o, &t, v, RP_TCP);
        list[0] = 0;
        assert_int_equal(nf_exports("core:/", &o, note_dir, list, err, sizeof(err)), 0);
        assert_string_equal(list, "/export;/other;");
        th_core_stop(&t);
    }
}

static void one_more_client_opens_through_the_connector(void **state)
{
    struct th_core t;
    struct nf_mount_opts o;
    struct nf_mount m;
    struct rp_client *extra;
    char err[CM_ERR_LEN] = "";
    nf_void none = {0};

    (void)state;
    assert_int_equal(th_core_start_pairs(&t, NULL, 3, 0), 0);
    core_opts(&o, &t, 3, RP_TCP);
    o.ping = 0;
    assert_int_equal(nf_mount(&m, "core:/export", &o, err, sizeof(err)), 0);
    assert_int_equal(sv_core_count(t.core, NFS3_PROGRAM, NFS_V3, NFSPROC3_NULL), 0);
    assert_int_equal(nf_mount_open_client(&m, RP_TCP, &extra, err, sizeof(err)), 0);
    assert_int_equal(nf3_null(extra, &none, &none), 0);
    rp_client_close(extra);
    /* three pairs: NFS, MNT, the extra client; none is left for another */
    assert_int_equal(nf_mount_open_client(&m, RP_TCP, &extra, err, sizeof(err)), -EMFILE);
    assert_string_equal(err, "core: cannot connect to NFS: Too many open files");
    nf_mount_close(&m); /* no UMNT: it would need a fourth pair */
    th_core_stop(&t);
}

/* ---- peers that are not the core ----------------------------------------- */

/* A connector that has no descriptor to give. */
static int refuse(void *data, uint32_t prog, enum rp_transport_kind t)
{
    (void)data;
    (void)prog;
    (void)t;
    return -ECONNREFUSED;
}

static void a_connector_failure_is_one_line(void **state)
{
    struct nf_mount_opts o;
    struct nf_mount m;
    char err[CM_ERR_LEN] = "";

    (void)state;
    nf_mount_opts_init(&o, 3);
    o.connect = refuse;
    assert_int_equal(nf_mount(&m, "far:/export", &o, err, sizeof(err)), -ECONNREFUSED);
    assert_string_equal(err, "far: cannot connect to NFS: Connection refused");
}

/* A scripted peer on stream pairs: every call gets the reply `accept`
 * (an accept_stat; PROG_MISMATCH offers versions 3..3), or `garbage`
 * bytes, or nothing at all when silent. */
struct script {
    int accept;
    int garbage;
    int silent;
};

static void scripted(void *ctx, const int *fds, const int *stream, int n, int stop_fd)
{
    const struct script *s = ctx;
    struct pollfd p[TH_SERVE_MAX + 1];
    uint8_t in[4096], out[64];

    (void)stream;
    for (int i = 0; i < n; i++)
        p[i] = (struct pollfd){fds[i], POLLIN, 0};
    p[n] = (struct pollfd){stop_fd, POLLIN, 0};
    while (poll(p, (nfds_t)n + 1, 5000) > 0 && !p[n].revents) {
        for (int i = 0; i < n; i++) {
            ssize_t got;
            size_t len = 28;

            if (!(p[i].revents & (POLLIN | POLLHUP)))
                continue;
            got = read(fds[i], in, sizeof(in));
            if (got <= 0) {
                p[i].fd = -1;
                continue;
            }
            if (s->silent || got < 8)
                continue;
            memcpy(out + 4, in + 4, 4); /* the XID, after the record mark */
            cm_be32_put(out + 8, 1);    /* REPLY */
            cm_be32_put(out + 12, 0);   /* MSG_ACCEPTED */
            cm_be32_put(out + 16, 0);   /* verifier AUTH_NONE, */
            cm_be32_put(out + 20, 0);   /* empty */
            cm_be32_put(out + 24, s->garbage ? 77u : (uint32_t)s->accept);
            if (s->accept == PROG_MISMATCH) {
                cm_be32_put(out + 28, 3);
                cm_be32_put(out + 32, 3);
                len = 36;
            }
            rp_recmark_put(out, len - 4, 1);
            if (write(fds[i], out, len) != (ssize_t)len)
                p[i].fd = -1;
        }
    }
}

/* A connector handing out the near ends in fds[0..2), then -EMFILE. */
static int take_fd(void *data, uint32_t prog, enum rp_transport_kind t)
{
    int *fds = data;

    (void)prog;
    (void)t;
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0) {
            int fd = fds[i];
            fds[i] = -1;
            return fd;
        }
    return -EMFILE;
}

/* Mounts version v over TCP through a scripted peer; returns nf_mount's
 * result with the message in err. */
static int mount_scripted(struct script *s, int v, uint32_t timeout_ms, char *err,
                          size_t errlen)
{
    struct th_serve srv;
    struct nf_mount_opts o;
    struct nf_mount m;
    int fds[2], rc;

    th_serve_init(&srv);
    for (int i = 0; i < 2; i++)
        fds[i] = th_serve_pair(&srv, SOCK_STREAM);
    assert_int_equal(th_serve_start(&srv, scripted, s), 0);
    nf_mount_opts_init(&o, v);
    o.transport = o.mount_transport = RP_TCP;
    o.timeout_ms = timeout_ms;
    o.connect = take_fd;
    o.connect_data = fds;
    rc = nf_mount(&m, "peer:/export", &o, err, errlen);
    for (int i = 0; i < 2; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    th_serve_stop(&srv);
    return rc;
}

static void failures_name_what_the_peer_lacks(void **state)
{
    struct script s;
    char err[CM_ERR_LEN];

    (void)state;
    memset(&s, 0, sizeof(s));
    s.accept = PROG_MISMATCH;
    assert_int_equal(mount_scripted(&s, 2, 2000, err, sizeof(err)), RP_ERR_PROG_MISMATCH);
    assert_string_equal(err, "peer: server offers NFS versions 3..3, not 2");
    s.accept = PROG_UNAVAIL;
    assert_int_equal(mount_scripted(&s, 3, 2000, err, sizeof(err)), RP_ERR_PROG_UNAVAIL);
    assert_string_equal(err, "peer: the server does not serve NFS");
    s.accept = SYSTEM_ERR;
    assert_int_equal(mount_scripted(&s, 3, 2000, err, sizeof(err)), RP_ERR_SYSTEM);
    assert_string_equal(err, "peer: bad reply from NFS: server system error (proc 0)");
    memset(&s, 0, sizeof(s));
    s.garbage = 1;
    assert_int_equal(mount_scripted(&s, 3, 2000, err, sizeof(err)), RP_ERR_GARBAGE);
    assert_string_equal(err, "peer: bad reply from NFS: unknown accept status 77");
}

static void a_silent_peer_times_out_in_the_step_bound(void **state)
{
    struct script s;
    char err[CM_ERR_LEN];
    uint64_t t0 = cm_now_ns(), ms;

    (void)state;
    memset(&s, 0, sizeof(s));
    s.silent = 1;
    assert_int_equal(mount_scripted(&s, 3, 300, err, sizeof(err)), RP_ERR_TIMEDOUT);
    ms = (cm_now_ns() - t0) / 1000000;
    assert_string_equal(err, "peer: no NFS server answers (no reply in 300 ms)");
    assert_true(ms >= 290 && ms < 5000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(v3_mount_over_tcp_gives_the_root_and_umount_sends_umnt),
        cmocka_unit_test(v2_mount_over_udp_gives_the_root),
        cmocka_unit_test(an_export_the_server_lacks_is_refused_by_name),
        cmocka_unit_test(exports_lists_every_exported_directory),
        cmocka_unit_test(one_more_client_opens_through_the_connector),
        cmocka_unit_test(a_connector_failure_is_one_line),
        cmocka_unit_test(failures_name_what_the_peer_lacks),
        cmocka_unit_test(a_silent_peer_times_out_in_the_step_bound),
    };

    return cmocka_run_group_tests_name("core_mount", tests, NULL, NULL);
}
