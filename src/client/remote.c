/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * remote.c - the client side of a multi-client run (sfs -M HOST:PORT -N K;
 * docs/SFS30.md §12, docs/DECISIONS.md D8): the generator parent driven by a
 * prime over the control plane (ctl/ct.h) instead of by run.c's standalone
 * loop.  It reads the run's token from standard input, connects to the
 * prime, says HELLO, forks its children and then serves one poll() loop
 * over the prime's connection, its children's sockets and its standard
 * input: each phase command from the prime goes to every child and is
 * answered when all of them are done; STOP ends the measured run; RESULTS
 * merges the children's results, prints this client's SFS report on
 * stdout (the sfsc log) and sends the merged results to the prime.
 *
 * Anything that goes wrong ends the client and every child: a child that
 * dies or fails (the prime is told why, with this host's name), ABORT from
 * the prime, the prime's connection closing or falling silent for
 * CT_PEER_SILENCE s, SIGINT/SIGTERM, and the end of standard input when
 * it is a pipe or socket (the remote shell that started this client is
 * gone: the prime died or aborted).
 */
#include <errno.h>
#include <stdarg.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "client/cl_int.h"
#include "client/parent.h"
#include "ctl/ct.h"
#include "load/debug.h"
#include "load/report.h"
#include "common/alloc.h"

#define TOKEN_WAIT_MS    60000 /* the token must arrive on stdin this soon */
#define CONNECT_TRIES    20
#define CONNECT_PAUSE_MS 500
#define LINGER_MS        2000 /* the last frame's wait for the prime to hang up */

struct remote {
    const struct ld_config *cfg;
    const struct ld_setup *su;
    FILE *log;
    uint8_t token[CT_TOKEN_LEN];
    int fd;       /* the prime */
    int watch_in; /* watch stdin for EOF (a pipe or socket) */
    uint32_t client;
    struct cl_parent p;
    struct cl_meter meter; /* the progress lines (in the client's log) */
    uint32_t pending;      /* the phase the children are running, 0 none */
    uint64_t last_sent, last_heard;
    char host[256];
};

static int fail(char *err, size_t errlen, int rc, const char *fmt, ...) CM_PRINTF(4, 5);

/* Formats err and returns rc. */
static int fail(char *err, size_t errlen, int rc, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return rc;
}

/* One line from stdin within TOKEN_WAIT_MS, byte by byte (nothing beyond
 * the line is consumed). */
static int read_token(struct remote *r, char *err, size_t errlen)
{
    char line[128];
    size_t n = 0;
    uint64_t deadline = cm_now_ms() + TOKEN_WAIT_MS;

    while (n + 1 < sizeof(line)) {
        struct pollfd pf = {STDIN_FILENO, POLLIN, 0};
        uint64_t now = cm_now_ms();
        ssize_t got;

        if (now >= deadline)
            return fail(err, errlen, -ETIMEDOUT,
                        "no run token on standard input within %d s",
                        TOKEN_WAIT_MS / 1000);
        if (poll(&pf, 1, (int)(deadline - now)) <= 0)
            continue;
        got = read(STDIN_FILENO, line + n, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return fail(err, errlen, -EPIPE, "standard input ended before the run token");
        if (line[n] == '\n')
            break;
        n++;
    }
    line[n] = '\0';
    if (ct_token_parse(line, r->token) < 0)
        return fail(err, errlen, -EINVAL, "standard input did not hold a run token");
    return 0;
}

/* The prime's address: SSH_CONNECTION's first field with --prime-ssh (the
 * address this client's ssh session came from), else -M's host. */
static void prime_address(const struct ld_config *cfg, char *host, size_t hostlen,
                          uint16_t *port)
{
    const char *sc = getenv("SSH_CONNECTION");

    (void)ct_split_hostport(cfg->prime_host, host, hostlen, port);
    if (cfg->prime_ssh && sc && *sc) {
        size_t n = strcspn(sc, " ");
        if (n > 0 && n < hostlen) {
            memcpy(host, sc, n);
            host[n] = '\0';
        }
    }
}

static int connect_once(const char *host, uint16_t port, char *err, size_t errlen)
{
    struct addrinfo hints, *res = NULL, *ai;
    char ports[8];
    int rc, fd = -1;

    memset(&hints, 0, sizeof(hints));
    hints.ai_socktype = SOCK_STREAM;
    snprintf(ports, sizeof(ports), "%u", port);
    rc = getaddrinfo(host, ports, &hints, &res);
    if (rc != 0)
        return fail(err, errlen, -EHOSTUNREACH, "prime %s: %s", host, gai_strerror(rc));
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (fd < 0)
            continue;
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        cm_errf(err, errlen, "prime %s:%u: %s", host, port, strerror(errno));
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    return fd < 0 ? -ECONNREFUSED : fd;
}

static int connect_prime(struct remote *r, char *err, size_t errlen)
{
    char host[LD_HOST_MAX];
    uint16_t port = 0;
    int i, fd = -1;

    prime_address(r->cfg, host, sizeof(host), &port);
    for (i = 0; i < CONNECT_TRIES && fd < 0; i++) {
        if (i > 0)
            poll(NULL, 0, CONNECT_PAUSE_MS);
        fd = connect_once(host, port, err, errlen);
    }
    if (fd < 0)
        return fd;
    r->fd = fd;
    fprintf(r->log, "Prime Client hostname = %s (control port %u)\n", host, port);
    return 0;
}

static int send_prime(struct remote *r, uint32_t type, uint32_t arg, const void *buf,
                      uint32_t len)
{
    r->last_sent = cm_now_ms();
    return ct_send(r->fd, r->token, type, r->client, arg, buf, len);
}

/* A heartbeat: the children's live counters ride on it (the prime's
 * progress lines), so no message is sent for them alone. */
static int heartbeat(struct remote *r)
{
    unsigned char buf[4096];
    int n = cl_meter_heartbeat(r->su, buf, sizeof(buf));

    return send_prime(r, CT_HEARTBEAT, 0, n > 0 ? buf : NULL, (uint32_t)n);
}

/* How often a heartbeat goes out: every second in a load phase (the
 * prime's progress lines), else every CT_HEARTBEAT_S. */
static uint64_t beat_ms(const struct remote *r)
{
    return r->pending == CT_MSG_WARMUP || r->pending == CT_MSG_RUN
               ? 1000u
               : CT_HEARTBEAT_S * 1000u;
}

static int hello(struct remote *r)
{
    char text[512];
    int n;

    n = snprintf(text, sizeof(text),
                 "host=%s\npid=%ld\nnfs_version=%d\nprocs=%d\nload=%d\nworkload=%s\n",
                 r->host, (long)getpid(), r->cfg->nfs_version, r->cfg->procs,
                 r->cfg->load, r->su->wl->name);
    return send_prime(r, CT_HELLO, 0, text, (uint32_t)n);
}

/* The merged results and this client's validity for the prime: the stats'
 * wire form, then "code\n" and one line per reason: its code, SFS's
 * INVALID line and its plain words, separated by tabs. */
static int send_results(struct remote *r, char *err, size_t errlen)
{
    const struct ld_wstats *w = &r->su->results.all;
    struct ld_stats *all = cm_malloc(sizeof(*all));
    struct ld_report_in in;
    struct ld_validity val;
    unsigned char *buf = NULL;
    void *wall = NULL;
    size_t len;
    int rc, i;

    if (all == NULL)
        return fail(err, errlen, -ENOMEM, "out of memory for the results");
    rc = cl_collect(&r->p, r->su, all, &wall, err, errlen);
    if (rc == 0) {
        cl_report_in(r->su, all, wall, r->host, sizeof(r->host), &in);
        ld_validity_check(&in, &val);
        ld_report_client(r->su->out, &in, &val);
        fflush(r->su->out);
        buf = cm_malloc(ld_stats_wire_max(w) + sizeof(val.line) + sizeof(val.words) +
                        (size_t)LD_VALIDITY_MAX_LINES * 16 + 32);
        rc = buf ? 0 : fail(err, errlen, -ENOMEM, "out of memory for the results");
    }
    if (rc == 0) {
        len = ld_stats_encode(all, w, wall, buf);
        len += (size_t)snprintf((char *)buf + len, 32, "%d\n", val.code);
        for (i = 0; i < val.nlines; i++)
            len += (size_t)snprintf(
                (char *)buf + len, sizeof(val.line[0]) + sizeof(val.words[0]) + 16,
                "%d\t%s\t%s\n", val.lcode[i], val.line[i], val.words[i]);
        rc = send_prime(r, CT_MSG_RESULTS, 0, buf, (uint32_t)len);
        if (rc < 0)
            cm_errf(err, errlen, "sending the results to the prime: %s", strerror(-rc));
    }
    free(buf);
    free(wall);
    free(all);
    return rc;
}

/* A command from the prime.  Returns 0, 1 when the client is done, or
 * -errno with err set. */
static int on_prime(struct remote *r, const struct ct_hdr *h, const char *payload,
                    char *err, size_t errlen)
{
    int rc;

    switch (h->type) {
    case CT_HEARTBEAT:
        return 0;
    case CT_ABORT:
        return fail(err, errlen, -ECANCELED, "aborted by the prime: %s", payload);
    case CT_MSG_STOP:
        if (r->pending == CT_MSG_RUN)
            cl_parent_stop_phase(&r->p);
        return 0;
    case CT_MSG_MOUNT:
        cl_progress(r->log, "Mounting %d remote test directories.", r->cfg->procs);
        break;
    case CT_MSG_INIT:
        cl_progress(r->log, "Initializing test directories.");
        break;
    case CT_MSG_WARMUP:
        cl_progress(r->log, "Performing %u seconds pretest warmup.", h->arg);
        cl_meter_begin(&r->meter, "warm-up", h->arg);
        break;
    case CT_MSG_RUN:
        cl_progress(r->log, "Starting %d seconds test run.", r->cfg->runtime_s);
        cl_meter_begin(&r->meter, "run", (unsigned)r->cfg->runtime_s);
        break;
    case CT_MSG_RESULTS:
        cl_progress(r->log, "Sending results to Prime Client.");
        break;
    default:
        return fail(err, errlen, -EPROTO, "unexpected %s command from the prime",
                    ct_name(h->type));
    }
    if (r->pending != 0)
        return fail(err, errlen, -EPROTO, "%s command while the %s phase runs",
                    ct_name(h->type), ct_msg_name(r->pending));
    rc = cl_parent_command(&r->p, h->type, h->arg);
    if (rc < 0)
        return fail(err, errlen, rc, "%s", r->p.last_error);
    r->pending = h->type;
    return 0;
}

/* Every child finished r->pending.  Returns 0, 1 when done, or -errno. */
static int phase_done(struct remote *r, char *err, size_t errlen)
{
    uint32_t done = r->pending;
    int rc;

    r->pending = 0;
    cl_meter_end(&r->meter);
    if (done == CT_MSG_RESULTS) {
        rc = send_results(r, err, errlen);
        if (rc == 0 && cl_parent_reap(&r->p) < 0)
            return fail(err, errlen, -ECHILD, "%s", r->p.last_error);
        return rc < 0 ? rc : 1;
    }
    cl_progress(r->log, "Completed %s; telling the prime.", ct_msg_name(done));
    /* the counters as the phase ended first, so that the prime's next
     * phase starts from a reading of this client */
    rc = heartbeat(r);
    if (rc == 0)
        rc = send_prime(r, done, 0, NULL, 0);
    if (rc < 0)
        return fail(err, errlen, rc, "the prime's connection: %s", strerror(-rc));
    return 0;
}

/* The loop: returns 0 when the results went out, else -errno with err. */
static int serve(struct remote *r, char *err, size_t errlen)
{
    struct ct_reader rd;
    struct pollfd *pf;
    unsigned n = r->p.nprocs;
    int rc = 0;

    memset(&rd, 0, sizeof(rd));
    pf = cm_calloc(n + 2, sizeof(*pf));
    if (pf == NULL)
        return fail(err, errlen, -ENOMEM, "out of memory");
    r->last_heard = cm_now_ms();
    while (rc == 0) {
        uint64_t now = cm_now_ms();
        int k;

        if (cl_parent_interrupted()) {
            rc = fail(err, errlen, -EINTR, "interrupted by a signal");
            break;
        }
        if (now - r->last_heard > CT_PEER_SILENCE * 1000u) {
            rc = fail(err, errlen, -ETIMEDOUT, "no word from the prime for %d s",
                      CT_PEER_SILENCE);
            break;
        }
        if (now - r->last_sent >= beat_ms(r) && heartbeat(r) < 0) {
            rc = fail(err, errlen, -EPIPE, "the prime's connection broke");
            break;
        }
        cl_meter_tick(&r->meter);
        cl_parent_pollfds(&r->p, pf);
        if (r->pending == 0)
            for (k = 0; k < (int)n; k++)
                pf[k].fd = -1;
        pf[n].fd = r->fd;
        pf[n].events = POLLIN;
        pf[n].revents = 0;
        pf[n + 1].fd = r->watch_in ? STDIN_FILENO : -1;
        pf[n + 1].events = POLLIN;
        pf[n + 1].revents = 0;
        k = poll(pf, n + 2, 200);
        if (k < 0 && errno != EINTR) {
            rc = fail(err, errlen, -errno, "poll: %s", strerror(errno));
            break;
        }
        if (k <= 0)
            continue;
        if (pf[n + 1].revents) {
            char c;
            ssize_t got = read(STDIN_FILENO, &c, 1);
            if (got <= 0) {
                rc = fail(err, errlen, -EPIPE,
                          "standard input closed: the remote shell to the prime is gone");
                break;
            }
        }
        if (pf[n].revents) {
            int f;
            while ((f = ct_read(&rd, r->fd)) == 1 && rc == 0) {
                r->last_heard = cm_now_ms();
                if (!ct_token_ok(&rd.h, r->token)) {
                    rc = fail(err, errlen, -EACCES,
                              "a control frame without the run token");
                    break;
                }
                rc = on_prime(r, &rd.h, (const char *)rd.payload, err, errlen);
            }
            if (rc == 0 && f == -ENOMEM) /* ours, not the prime's */
                rc = fail(err, errlen, -ENOMEM,
                          "out of memory for a control frame of %u bytes", rd.h.len);
            else if (rc == 0 && f < 0) {
                rc = fail(err, errlen, -EPIPE,
                          "the prime closed the control connection (%s)",
                          f == -EPIPE ? "end of stream" : strerror(-f));
            }
            if (rc < 0)
                break;
        }
        if (r->pending != 0) {
            int left = cl_parent_service(&r->p, pf, r->pending);
            if (left < 0) {
                rc = fail(err, errlen, left, "%s", r->p.last_error);
                break;
            }
            if (left == 0) {
                rc = phase_done(r, err, errlen);
                if (rc == 1) {
                    rc = 0;
                    break;
                }
            }
        }
    }
    ct_reader_free(&rd);
    free(pf);
    return rc;
}

static void log_header(struct remote *r)
{
    time_t now = time(NULL);
    char stamp[32];

    ctime_r(&now, stamp);
    stamp[24] = '\0';
    fprintf(r->log, "SFS NFS Version %d Benchmark Client Logfile, %s\n",
            r->cfg->nfs_version, stamp);
    fprintf(r->log, "Client hostname = %s (client %u)\n", r->host, r->client);
    fflush(r->log);
}

/* The client's last word (its RESULTS, or an ERROR) must reach the prime.
 * Closing a socket with unread input - a heartbeat or a command the prime
 * sent meanwhile - resets the connection, and on Linux the reset can
 * discard that last frame on the prime's side before the prime reads it
 * (0830 lost one client's RESULTS in eight runs beside two CPU hogs).  So
 * the client sends its end of stream and reads until the prime hangs up,
 * which it does once it has the last frame and the end, for at most
 * LINGER_MS. */
static void hang_up(struct remote *r)
{
    uint64_t deadline = cm_now_ms() + LINGER_MS;
    char buf[4096];

    (void)shutdown(r->fd, SHUT_WR);
    for (;;) {
        struct pollfd pf = {r->fd, POLLIN, 0};
        uint64_t now = cm_now_ms();

        if (now >= deadline || poll(&pf, 1, (int)(deadline - now)) <= 0 ||
            recv(r->fd, buf, sizeof(buf), 0) <= 0)
            return;
    }
}

int cl_remote_run(const struct ld_setup *su, char *err, size_t errlen)
{
    const struct ld_config *cfg = su->cfg;
    FILE *log = su->log;
    struct remote r;
    struct stat st;
    int rc, code;

    memset(&r, 0, sizeof(r));
    r.cfg = cfg;
    r.su = su;
    r.log = log;
    r.fd = -1;
    r.client = (uint32_t)cfg->client_num;
    cl_meter_init(&r.meter, su, log);
    snprintf(r.host, sizeof(r.host), "localhost");
    gethostname(r.host, sizeof(r.host) - 1);
    log_header(&r);
    /* Lead a process group of our own: the prime (or sfs_mgr -k) stops the
     * client and its children together. */
    (void)setsid();
    rc = read_token(&r, err, errlen);
    if (rc < 0)
        return CM_EXIT_FAILED;
    r.watch_in =
        fstat(STDIN_FILENO, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
    if (cfg->pid_file[0] && cl_pidfile_write(cfg->pid_file, err, errlen) < 0)
        return CM_EXIT_FAILED;
    rc = connect_prime(&r, err, errlen);
    if (rc == 0)
        rc = hello(&r);
    if (rc == 0) {
        r.p.log = log;
        r.p.debug_signals = ld_debug_on(cfg->debug_mask, LD_DBG_PARENT_SIGNAL);
        rc = cl_parent_spawn(&r.p, (unsigned)cfg->procs, ld_child_main, (void *)su);
        if (rc < 0)
            cm_errf(err, errlen, "%s", r.p.last_error);
    }
    if (rc == 0)
        rc = serve(&r, err, errlen);
    code = CM_EXIT_OK;
    if (rc < 0) {
        code = rc == -EINTR    ? CM_EXIT_INTR
               : rc == -ECHILD ? CM_EXIT_SFS_CHILD
                               : CM_EXIT_FAILED;
        if (r.fd >= 0) {
            char text[CM_ERR_LEN + 300];
            int n = snprintf(text, sizeof(text), "%s: %s", r.host, err);
            (void)send_prime(&r, CT_MSG_ERROR, 0, text, (uint32_t)n);
        }
        cl_parent_kill_all(&r.p);
    }
    cl_parent_free(&r.p);
    if (r.fd >= 0) {
        hang_up(&r);
        close(r.fd);
    }
    if (cfg->pid_file[0])
        unlink(cfg->pid_file);
    return code;
}
