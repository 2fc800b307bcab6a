/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * sfs_nfsd.c - main() of the bundled NFSv2/v3 server (issue 3): parses the
 * command line, creates the server (src/server), prints the "ready" line,
 * optionally registers with rpcbind and detaches, and serves until SIGTERM
 * or SIGINT.  SIGUSR1 writes the --stats-file.  Exit codes: 0 stopped by a
 * signal, 1 start-up failure, 2 usage error, 3 --exit-after reached.
 */
#include "server/sv.h"
#include "common/cm.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

static volatile sig_atomic_t stop_flag, dump_flag;

static void on_stop(int sig)
{
    (void)sig;
    stop_flag = 1;
}

static void on_dump(int sig)
{
    (void)sig;
    dump_flag = 1;
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: sfs_nfsd [options]\n"
            "A user-space NFSv2/v3 + MOUNT v1/v3 server with an in-memory file system.\n"
            "Every port serves NFS and MOUNT, over UDP and TCP.\n\n"
            "  -b, --bind ADDR         address to bind (default 127.0.0.1)\n"
            "  -p, --port PORT         NFS port (default %d; 0 = any free port)\n"
            "  -m, --mount-port PORT   MOUNT port (default %d; may equal -p)\n"
            "  -e, --export PATH       exported directory, repeatable (default /export)\n"
            "      --max-bytes SIZE    file data capacity, K/M/G/T suffixes, 0 = none\n"
            "                          (default half the memory); full: NOSPC\n"
            "      --register          also register with rpcbind\n"
            "      --pidfile FILE      write the server's process id\n"
            "  -f, --foreground        do not detach\n"
            "      --stats-file FILE   per-procedure counters as YAML, written on\n"
            "                          SIGUSR1 and at exit\n"
            "fault injection (deterministic for a given --seed and call sequence):\n"
            "      --seed N            random seed (default %d)\n"
            "      --drop-replies PCT  execute the call but send no reply\n"
            "      --delay-us N[:J]    delay every reply N us plus 0..J us\n"
            "      --exit-after N      answer N calls, then exit with status 3\n"
            "      --error OP=STATUS:PCT  answer NFS procedure OP (getattr, write...,\n"
            "                          or all) with STATUS (NOSPC, IO, JUKEBOX... or a\n"
            "                          number) in PCT %% of calls; repeatable\n"
            "      --corrupt-reads PCT flip one byte of READ data\n"
            "  -h, --help              this text\n",
            SV_DEFAULT_NFS_PORT, SV_DEFAULT_MNT_PORT, CM_RNG_DEFAULT_SEED);
}

enum {
    OPT_MAX_BYTES = 256,
    OPT_REGISTER,
    OPT_PIDFILE,
    OPT_STATS,
    OPT_SEED,
    OPT_DROP,
    OPT_DELAY,
    OPT_EXIT_AFTER,
    OPT_ERROR,
    OPT_CORRUPT,
};

static const struct option longopts[] = {
    {"bind", required_argument, NULL, 'b'},
    {"port", required_argument, NULL, 'p'},
    {"mount-port", required_argument, NULL, 'm'},
    {"export", required_argument, NULL, 'e'},
    {"foreground", no_argument, NULL, 'f'},
    {"help", no_argument, NULL, 'h'},
    {"max-bytes", required_argument, NULL, OPT_MAX_BYTES},
    {"register", no_argument, NULL, OPT_REGISTER},
    {"pidfile", required_argument, NULL, OPT_PIDFILE},
    {"stats-file", required_argument, NULL, OPT_STATS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"drop-replies", required_argument, NULL, OPT_DROP},
    {"delay-us", required_argument, NULL, OPT_DELAY},
    {"exit-after", required_argument, NULL, OPT_EXIT_AFTER},
    {"error", required_argument, NULL, OPT_ERROR},
    {"corrupt-reads", required_argument, NULL, OPT_CORRUPT},
    {NULL, 0, NULL, 0},
};

/* Applies one option; returns 0 or -1 with the reason in err. */
static int apply(struct sv_config *cfg, int opt, const char *arg, const char **pidfile,
                 int *foreground, char *err, size_t errlen)
{
    uint64_t u;
    int64_t i;

    switch (opt) {
    case 'b':
        cfg->bind_addr = arg;
        return 0;
    case 'p':
    case 'm':
        if (cm_parse_u64(opt == 'p' ? "-p" : "-m", arg, 0, 65535, &u, err, errlen))
            return -1;
        *(opt == 'p' ? &cfg->nfs_port : &cfg->mount_port) = (uint16_t)u;
        return 0;
    case 'e':
        if (cfg->nexports == SV_MAX_EXPORTS)
            return cm_errf(err, errlen, "--export: at most %d", SV_MAX_EXPORTS);
        cfg->exports[cfg->nexports++] = arg;
        return 0;
    case 'f':
        *foreground = 1;
        return 0;
    case OPT_MAX_BYTES:
        return cm_parse_size("--max-bytes", arg, &cfg->max_bytes, err, errlen) ? -1 : 0;
    case OPT_REGISTER:
        cfg->register_rpcbind = 1;
        return 0;
    case OPT_PIDFILE:
        *pidfile = arg;
        return 0;
    case OPT_STATS:
        cfg->stats_file = arg;
        return 0;
    case OPT_SEED:
        if (cm_parse_i64("--seed", arg, 1, CM_RNG_MODULUS - 2, &i, err, errlen))
            return -1;
        cfg->fault.seed = i;
        return 0;
    case OPT_DROP:
        return cm_parse_double("--drop-replies", arg, 0, 100, &cfg->fault.drop_pct, err,
                               errlen)
                   ? -1
                   : 0;
    case OPT_CORRUPT:
        return cm_parse_double("--corrupt-reads", arg, 0, 100, &cfg->fault.corrupt_pct,
                               err, errlen)
                   ? -1
                   : 0;
    case OPT_DELAY:
        return sv_fault_parse_delay(&cfg->fault, arg, err, errlen) ? -1 : 0;
    case OPT_EXIT_AFTER:
        return cm_parse_u64("--exit-after", arg, 1, UINT64_MAX, &cfg->fault.exit_after,
                            err, errlen)
                   ? -1
                   : 0;
    case OPT_ERROR:
        return sv_fault_parse_error(&cfg->fault, arg, err, errlen) ? -1 : 0;
    default:
        return cm_errf(err, errlen, "unknown option (see --help)");
    }
}

static int write_pidfile(const char *path, pid_t pid)
{
    char err[CM_ERR_LEN];
    struct cm_atomic_file af;

    if (cm_atomic_open(&af, path, err, sizeof(err)) != 0) {
        fprintf(stderr, "sfs_nfsd: %s\n", err);
        return -1;
    }
    fprintf(af.fp, "%ld\n", (long)pid);
    if (cm_atomic_commit(&af, err, sizeof(err)) != 0) {
        fprintf(stderr, "sfs_nfsd: %s\n", err);
        return -1;
    }
    return 0;
}

/* Background mode: forks; the child registers with rpcbind (when asked),
 * leaves the session and its starter's descriptors, then tells the parent,
 * which writes the pidfile and prints the ready line.  The sockets were
 * bound before the fork, so calls already queue in the kernel.  Returns 0
 * in the child, 1 in the parent after success, -1 in the parent on failure. */
static int detach(struct sv_server *s, int do_register, const char *pidfile,
                  const char *line)
{
    char err[CM_ERR_LEN], byte = 0;
    int p[2];
    pid_t pid;

    fflush(NULL);
    if (pipe(p) != 0 || (pid = fork()) < 0) {
        fprintf(stderr, "sfs_nfsd: cannot detach: %s\n", strerror(errno));
        return -1;
    }
    if (pid > 0) {
        close(p[1]);
        if (read(p[0], &byte, 1) != 1) {
            fprintf(stderr, "sfs_nfsd: the server process died while starting\n");
            return -1;
        }
        close(p[0]);
        if (pidfile && write_pidfile(pidfile, pid) != 0)
            return -1;
        printf("%s pid %ld\n", line, (long)pid);
        return 1;
    }
    close(p[0]);
    setsid();
    if (do_register && sv_server_register(s, err, sizeof(err)) != 0)
        fprintf(stderr, "sfs_nfsd: warning: %s\n", err);
    /* a detached server keeps no descriptor of its starter: a shell's
     * $(sfs_nfsd) would otherwise wait for it */
    if (freopen("/dev/null", "r", stdin) == NULL ||
        freopen("/dev/null", "w", stdout) == NULL ||
        freopen("/dev/null", "w", stderr) == NULL)
        _exit(1);
    if (write(p[1], "r", 1) != 1)
        _exit(1);
    close(p[1]);
    return 0;
}

int main(int argc, char **argv)
{
    struct sv_config cfg;
    struct sv_server *s;
    const char *pidfile = NULL;
    char err[CM_ERR_LEN], line[1024];
    int foreground = 0, opt, rc;
    struct sigaction sa;
    sigset_t block;

    sv_config_defaults(&cfg);
    while ((opt = getopt_long(argc, argv, "b:p:m:e:fh", longopts, NULL)) != -1) {
        if (opt == 'h') {
            usage(stdout);
            return 0;
        }
        if (opt == '?') {
            usage(stderr);
            return 2;
        }
        if (apply(&cfg, opt, optarg, &pidfile, &foreground, err, sizeof(err)) != 0) {
            fprintf(stderr, "sfs_nfsd: %s\n", err);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "sfs_nfsd: unexpected argument '%s' (see --help)\n",
                argv[optind]);
        return 2;
    }

    /* signals stay blocked except inside the loop's ppoll (sv.h) */
    sigemptyset(&block);
    sigaddset(&block, SIGTERM);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block, NULL);
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_stop;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sa.sa_handler = on_dump;
    sigaction(SIGUSR1, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    s = sv_server_create(&cfg, err, sizeof(err));
    if (s == NULL) {
        fprintf(stderr, "sfs_nfsd: %s\n", err);
        return 1;
    }
    sv_server_ready_line(s, line, sizeof(line));
    if (!foreground) {
        rc = detach(s, cfg.register_rpcbind, pidfile, line);
        if (rc != 0) {
            sv_server_destroy(s); /* the parent's copy: the child serves */
            return rc > 0 ? 0 : 1;
        }
    } else {
        if (cfg.register_rpcbind && sv_server_register(s, err, sizeof(err)) != 0)
            fprintf(stderr, "sfs_nfsd: warning: %s\n", err);
        if (pidfile && write_pidfile(pidfile, getpid()) != 0) {
            sv_server_destroy(s);
            return 1;
        }
        printf("%s\n", line);
        fflush(stdout);
    }

    rc = sv_server_run(s, &stop_flag, &dump_flag, err, sizeof(err));
    if (rc != 0)
        fprintf(stderr, "sfs_nfsd: %s\n", err);
    if (sv_server_write_stats(s, err, sizeof(err)) != 0) {
        fprintf(stderr, "sfs_nfsd: %s\n", err);
        rc = -1;
    }
    {
        int exited = !stop_flag && rc == 0;
        sv_server_destroy(s);
        if (pidfile)
            unlink(pidfile);
        return rc != 0 ? 1 : exited ? 3 : 0;
    }
}
