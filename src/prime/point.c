/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * point.c - one load point (docs/SFS30.md §12.2; docs/DECISIONS.md D8): the
 * prime's control port, the clients started (sfs_mgr) or awaited
 * (sfs_prime), and ONE poll() loop over the port, every client's control
 * connection, the connections not yet identified, and the self-pipe the
 * signal handlers write to.  No thread or process per client on the prime:
 * a client costs one descriptor and a small struct.
 *
 * The phases: every client says HELLO (with the run's token) -> MOUNT ->
 * INIT -> WARMUP (the clients answer when the warm-up time is up: READY,
 * and keep their load on) -> the monitor's START -> PRIME_SLEEP -> RUN ->
 * RUNTIME s later, or as soon as every client ended its run by itself (a
 * replay at its trace's end), STOP -> the clients answer (DONE-TEST) -> the monitor's
 * DONE -> PRIME_SLEEP -> RESULTS -> every client sends its merged results
 * and exits.  Each wait is bounded (PRIME_TIMEOUT, + 3600 s for the
 * population, + the warm-up), and a client that sends nothing at all, not
 * even a heartbeat, for PRIME_TIMEOUT s is silent: the point fails naming
 * every client that did not answer, as SFS's prime did.  A client's ERROR,
 * its connection closing, its process (or remote shell) exiting, or
 * SIGINT/SIGTERM fail the point too; then ABORT goes to every client, the
 * clients' standard input is closed (their lifeline) and every process the
 * point started is stopped by its group, within a few seconds.
 *
 * A frame without the run's token is refused and logged, and the
 * connection that sent it is closed; it never counts as a client.
 */
#define _GNU_SOURCE /* pipe2, accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ctl/ct.h"
#include "load/options.h"
#include "prime/pr_int.h"
#include "common/alloc.h"

#define HELLO_WAIT_MS 10000 /* an unidentified connection gets this long */
#define HELLO_MAX     4096  /* ... and may send this much before it is known */
#define END_WAIT_MS   10000 /* clients exit by themselves after their results */
#define ABORT_WAIT_MS 4000  /* ... and after ABORT, before they are killed */
#define MON_WAIT_MS   60000 /* the monitor script must return this soon */
#define EXIT_GRACE_MS 2000  /* results may trail the exit of their sender */
#define SPARE_PENDING 256   /* unidentified connections allowed beyond the clients */

struct pc { /* the prime's view of one client */
    const struct pr_client *cl;
    int fd;
    struct ct_reader rd;
    struct pr_proc proc;
    int log_fd;
    uint64_t last_heard;
    uint32_t done; /* the last phase it reported done (HELLO when connected) */
    int has_results;
    uint64_t exited_at; /* when its process was seen to exit */
    int reported_exit;
    char workload[32]; /* the workload it said it runs (HELLO) */
};

struct pend {
    int fd;
    struct ct_reader rd;
    uint64_t since;
    char addr[64];
};

struct point {
    struct pr_ctx *ctx;
    const struct pr_run *run;
    struct pr_point *pt;
    unsigned n;
    struct pc *c;
    int lfd;
    unsigned port;
    struct pend *pend; /* n + SPARE_PENDING slots */
    unsigned npend, maxpend;
    struct pollfd *pf;
    struct pr_proc **procs; /* n: what finish stops, made before anything starts */
    uint64_t last_beat;
    uint64_t beat_ms; /* heartbeat_ms() */
    int failed;
    int mon_started; /* START was called: DONE follows, even on abort */
    int asking;      /* only the clients' workload is wanted (pr_workload_ask) */
};

static void CM_PRINTF(2, 3) logf_(struct point *P, const char *fmt, ...)
{
    char stamp[32];
    time_t now = time(NULL);
    va_list ap;

    ctime_r(&now, stamp);
    stamp[24] = '\0';
    fprintf(P->ctx->log, "%s ", stamp);
    va_start(ap, fmt);
    vfprintf(P->ctx->log, fmt, ap);
    va_end(ap);
    fputc('\n', P->ctx->log);
    fflush(P->ctx->log);
}

/* Fails the point (the first cause wins). */
static int CM_PRINTF(2, 3) fail(struct point *P, const char *fmt, ...)
{
    va_list ap;

    if (!P->failed) {
        va_start(ap, fmt);
        vsnprintf(P->pt->error, sizeof(P->pt->error), fmt, ap);
        va_end(ap);
        P->failed = 1;
        logf_(P, "FAILED: %s", P->pt->error);
    }
    return -1;
}

static const char *who(const struct pc *c, char *buf, size_t len)
{
    snprintf(buf, len, "client %u (%s)", c->cl->num, c->cl->host);
    return buf;
}

/* ---- the setup the report labels with ------------------------------------------ */

void pr_results_block(const struct pr_run *run, struct pr_setup *su)
{
    ld_results_block_init(&su->results, run->wl ? &run->wl->results : NULL,
                          nf_proto_by_version(run->nfs_version));
}

int pr_setup_point(const struct pr_run *run, unsigned idx, struct pr_setup *su, char *err,
                   size_t errlen)
{
    su->cfg = run->cfg;
    su->cfg.nmounts = 0;
    su->cfg.mounts = NULL;
    su->cfg.load = (int)(run->points[idx] / run->nclients);
    su->wl = run->wl;
    pr_results_block(run, su);
    if (pr_point_values(run, idx) && run->wl->point_set)
        run->wl->point_set(&su->cfg, pr_point_values(run, idx));
    if (run->wl &&
        run->wl->client_args) { /* the point's words, as the clients take them */
        char words[8][64];
        int n = run->wl->client_args(&run->cfg, pr_point_values(run, idx), run->nclients,
                                     words, (int)CM_ARRAY_LEN(words)),
            k;

        for (k = 0; k < n; k++)
            if (ld_config_set_word(&su->cfg, words[k], err, errlen) < 0)
                return -EINVAL;
    }
    if (su->cfg.mix_file[0]) {
        if (ld_mix_load(&su->mix, run->nfs_version, su->cfg.mix_file, NULL, err, errlen) <
            0)
            return -EINVAL;
    } else {
        ld_mix_default(&su->mix, run->nfs_version);
    }
    if (su->cfg.iodist_file[0]) {
        if (ld_iodist_load(&su->iodist, (uint32_t)su->cfg.kb_per_block,
                           su->cfg.iodist_file, NULL, err, errlen) < 0)
            return -EINVAL;
    } else {
        ld_iodist_default(&su->iodist, (uint32_t)su->cfg.kb_per_block);
    }
    if (ld_sizing_compute(&su->cfg, &su->sizing) < 0)
        return cm_errf(err, errlen, "the file set would be empty"), -EINVAL;
    return 0;
}

/* ---- the control port ------------------------------------------------------------ */

static int listen_port(struct point *P)
{
    const struct pr_run *run = P->run;
    struct sockaddr_in sa;
    socklen_t len = sizeof(sa);
    int one = 1;

    P->lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    if (P->lfd < 0)
        return fail(P, "control port: socket: %s", strerror(errno));
    setsockopt(P->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    memset(&sa, 0, sizeof(sa));
    sa.sin_family = AF_INET;
    /* loopback when every client runs here; else every address (the token
     * keeps strangers out) */
    sa.sin_addr.s_addr =
        htonl(run->any_remote || !P->ctx->opts->launch ? INADDR_ANY : INADDR_LOOPBACK);
    sa.sin_port = htons((uint16_t)run->prime_port);
    if (bind(P->lfd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
        listen(P->lfd, 1024) < 0 || getsockname(P->lfd, (struct sockaddr *)&sa, &len) < 0)
        return fail(P, "control port %d: %s", run->prime_port, strerror(errno));
    P->port = ntohs(sa.sin_port);
    return 0;
}

static void accept_all(struct point *P)
{
    for (;;) {
        struct sockaddr_in sa;
        socklen_t len = sizeof(sa);
        int fd =
            accept4(P->lfd, (struct sockaddr *)&sa, &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
        struct pend *q;

        if (fd < 0)
            return;
        if (P->npend == P->maxpend) {
            logf_(P, "refused a connection: %u unidentified connections already",
                  P->npend);
            close(fd);
            continue;
        }
        q = &P->pend[P->npend++];
        memset(q, 0, sizeof(*q));
        q->rd.token = P->ctx->token; /* a stranger's frame ends at its header */
        q->rd.max_payload = HELLO_MAX;
        q->fd = fd;
        q->since = cm_now_ms();
        inet_ntop(AF_INET, &sa.sin_addr, q->addr, sizeof(q->addr));
    }
}

static void drop_pend(struct point *P, unsigned i)
{
    close(P->pend[i].fd);
    ct_reader_free(&P->pend[i].rd);
    P->pend[i] = P->pend[--P->npend];
}

/* The workload a client's HELLO names ("workload=NAME" among its lines,
 * which on_pend has joined with blanks). */
static void hello_workload(struct pc *c)
{
    const char *p =
        c->rd.payload ? strstr((const char *)c->rd.payload, "workload=") : NULL;
    size_t n;

    c->workload[0] = '\0';
    if (p == NULL)
        return;
    p += strlen("workload=");
    n = strcspn(p, " \n");
    if (n >= sizeof(c->workload))
        n = sizeof(c->workload) - 1;
    memcpy(c->workload, p, n);
    c->workload[n] = '\0';
}

/* A frame on a connection not yet identified: only a HELLO with the token
 * makes it a client's. */
static void on_pend(struct point *P, unsigned i)
{
    struct pend *q = &P->pend[i];
    int r = ct_read(&q->rd, q->fd);
    struct pc *c;
    char w[300];

    if (r == 0)
        return;
    if (r == -ENOMEM) { /* the prime's shortage: the client would wait in vain */
        fail(P, "out of memory for a control frame of %u bytes from %s", q->rd.h.len,
             q->addr);
        drop_pend(P, i);
        return;
    }
    if (r < 0 && r != -EACCES) {
        logf_(P, "a connection from %s ended before saying who it is (%s)", q->addr,
              r == -EPROTO ? "not a FreeSFS control frame" : strerror(-r));
        drop_pend(P, i);
        return;
    }
    if (r == -EACCES || !ct_token_ok(&q->rd.h, P->ctx->token)) {
        logf_(P, "refused a %s frame from %s: wrong token", ct_name(q->rd.h.type),
              q->addr);
        drop_pend(P, i);
        return;
    }
    if (q->rd.h.type != CT_HELLO || q->rd.h.client < 1 || q->rd.h.client > P->n ||
        P->c[q->rd.h.client - 1].fd >= 0) {
        logf_(P, "refused a %s frame from %s: client number %u unknown or already here",
              ct_name(q->rd.h.type), q->addr, q->rd.h.client);
        drop_pend(P, i);
        return;
    }
    c = &P->c[q->rd.h.client - 1];
    c->fd = q->fd;
    c->rd = q->rd;
    c->rd.max_payload = 0; /* a client's results are larger than a HELLO */
    c->done = CT_HELLO;
    c->last_heard = cm_now_ms();
    {
        struct timeval tv = {1, 0}; /* a stalled client cannot block the prime */
        setsockopt(c->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
    }
    {
        char *t = (char *)c->rd.payload;
        for (; t && *t; t++)
            if (*t == '\n')
                *t = ' ';
    }
    logf_(P, "%s connected from %s: %s", who(c, w, sizeof(w)), q->addr,
          (const char *)c->rd.payload);
    P->pend[i] = P->pend[--P->npend];
    hello_workload(c);
    if (!P->asking && P->run->wl && strcmp(c->workload, P->run->wl->name) != 0)
        fail(P,
             "%s runs the %s workload, this run the %s one (set WORKLOAD in the rc file)",
             who(c, w, sizeof(w)), c->workload[0] ? c->workload : "(unknown)",
             P->run->wl->name);
}

/* ---- clients ------------------------------------------------------------------ */

/* How often the prime sends its clients a heartbeat: every CT_HEARTBEAT_S.
 * FREESFS_TEST_HEARTBEAT_MS (tests only) makes it milliseconds, so that a
 * heartbeat crossing a client's last frame - a race seen once in eight
 * runs of 0830 beside two CPU hogs - happens in nearly every run. */
static uint64_t heartbeat_ms(void)
{
    const char *e = getenv("FREESFS_TEST_HEARTBEAT_MS");
    long ms = e ? strtol(e, NULL, 10) : 0;

    return ms > 0 && ms <= CT_HEARTBEAT_S * 1000 ? (uint64_t)ms : CT_HEARTBEAT_S * 1000u;
}

static void close_client(struct pc *c)
{
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
}

static int send_client(struct point *P, struct pc *c, uint32_t type, uint32_t arg,
                       const char *text)
{
    char w[300];
    int rc;

    /* A client that sent its results is done: it reads nothing more, and a
     * frame it would find unread as it closes resets the connection. */
    if (c->fd < 0 || c->has_results)
        return 0;
    rc = ct_send(c->fd, P->ctx->token, type, 0, arg, text,
                 text ? (uint32_t)strlen(text) : 0);
    if (rc < 0 && type != CT_ABORT)
        return fail(P, "%s: sending %s: %s", who(c, w, sizeof(w)), ct_name(type),
                    strerror(-rc));
    return 0;
}

static int send_all(struct point *P, uint32_t type, uint32_t arg)
{
    unsigned k;

    logf_(P, "Sending %s to %u client(s).", ct_name(type), P->n);
    for (k = 0; k < P->n; k++)
        if (send_client(P, &P->c[k], type, arg, NULL) < 0)
            return -1;
    return 0;
}

/* One reason of a client ("code\tSFS's line\tplain words", len bytes)
 * into v. */
static void parse_reason(struct ld_validity *v, const char *s, size_t len)
{
    const char *tab1 = memchr(s, '\t', len), *tab2;
    int i = v->nlines;

    if (tab1 == NULL ||
        (tab2 = memchr(tab1 + 1, '\t', len - (size_t)(tab1 + 1 - s))) == NULL)
        return; /* not a reason */
    if (i >= LD_VALIDITY_MAX_LINES) {
        v->full = 1;
        return;
    }
    v->lcode[i] = atoi(s);
    snprintf(v->line[i], sizeof(v->line[0]), "%.*s", (int)(tab2 - tab1 - 1), tab1 + 1);
    snprintf(v->words[i], sizeof(v->words[0]), "%.*s",
             (int)(len - (size_t)(tab2 + 1 - s)), tab2 + 1);
    v->nlines++;
}

/* A client's reasons (the lines after its code's line): joined into its
 * summary, and into the point's list under a heading, their words naming
 * the client when the point has several and the reason is one the client
 * measured (its settings are every client's).  Returns 0 or -ENOMEM. */
static int take_reasons(struct point *P, const struct pc *c, struct pr_client_sum *cs,
                        const char *lines)
{
    struct ld_validity *v = &P->pt->val, *own = cm_calloc(1, sizeof(*own));
    int i;

    if (own == NULL)
        return -ENOMEM;
    while (lines && lines[1]) {
        const char *end = strchr(lines + 1, '\n');

        parse_reason(own, lines + 1, end ? (size_t)(end - lines - 1) : strlen(lines + 1));
        lines = end;
    }
    ld_validity_words(own, cs->reasons, sizeof(cs->reasons));
    if (v->code == LD_VALID)
        v->code = cs->code;
    for (i = -1; i < own->nlines; i++) {
        int k = v->nlines;

        if (k >= LD_VALIDITY_MAX_LINES) {
            v->full = 1;
            break;
        }
        if (i < 0) {
            v->lcode[k] = 0;
            v->words[k][0] = '\0';
            snprintf(v->line[k], sizeof(v->line[0]),
                     "INVALID RUN reported for Client %u (%s).", c->cl->num, c->cl->host);
        } else {
            v->lcode[k] = own->lcode[i];
            memcpy(v->line[k], own->line[i], sizeof(v->line[0]));
            if (P->n > 1 && ld_invalid_measured(own->lcode[i])) {
                int n = snprintf(v->words[k], sizeof(v->words[0]), "client %u: %s",
                                 c->cl->num, own->words[i]);
                if (n >= (int)sizeof(v->words[0])) /* cut: say so */
                    memcpy(v->words[k] + sizeof(v->words[0]) - 4, "...", 4);
            } else
                memcpy(v->words[k], own->words[i], sizeof(v->words[0]));
        }
        v->nlines++;
    }
    free(own);
    return 0;
}

/* The results of one client: the stats and the workload's block, then
 * "code\n" and its reasons. */
static void take_results(struct point *P, struct pc *c)
{
    const struct ld_wstats *w = &P->pt->su.results.all;
    struct ld_stats *st = cm_malloc(sizeof(*st));
    void *wst = w->size ? cm_malloc(w->size) : NULL;
    struct ld_report_in in;
    struct pr_client_sum *cs = &P->pt->clients[c->cl->num - 1];
    const char *text;
    char w_[300];
    size_t used = 0;

    if (st == NULL ||
        (w->size && wst == NULL)) { /* the prime's failure, not the client's */
        free(st);
        free(wst);
        fail(P, "out of memory for the results of %s", who(c, w_, sizeof(w_)));
        return;
    }
    if (ld_stats_decode(st, w, wst, c->rd.payload, c->rd.h.len, &used) < 0) {
        free(st);
        free(wst);
        fail(P, "%s sent undecodable results", who(c, w_, sizeof(w_)));
        return;
    }
    memset(&in, 0, sizeof(in));
    in.prog = P->run->prog;
    in.host = c->cl->host;
    in.when = time(NULL);
    in.cfg = &P->pt->su.cfg;
    in.mix = &P->pt->su.mix;
    in.iodist = &P->pt->su.iodist;
    in.sizing = &P->pt->su.sizing;
    in.stats = st;
    in.wstats = wst;
    in.proto = P->pt->su.results.proto;
    in.pstats = ld_results_proto(&P->pt->su.results, wst);
    in.work = P->pt->su.wl->report;
    in.wl = P->pt->su.wl;
    cs->num = c->cl->num;
    snprintf(cs->host, sizeof(cs->host), "%s", c->cl->host);
    text = (const char *)c->rd.payload + used;
    cs->code = atoi(text);
    pr_agg_add(&P->pt->agg, &in, cs);
    free(wst);
    if (cs->code != LD_VALID && take_reasons(P, c, cs, strchr(text, '\n')) < 0) {
        free(st);
        fail(P, "out of memory for the results of %s", who(c, w_, sizeof(w_)));
        return;
    }
    free(st);
    c->has_results = 1;
    c->done = CT_MSG_RESULTS;
    logf_(P, "%s: results received (%.2f ops/s, %.2f ms, %u bytes%s).",
          who(c, w_, sizeof(w_)), (double)cs->ops_x100 / 100.0,
          (double)cs->resp_x100 / 100.0, c->rd.h.len, cs->code ? ", INVALID" : "");
}

static void on_client(struct point *P, struct pc *c)
{
    char w[300];
    int r;

    while ((r = ct_read(&c->rd, c->fd)) == 1) {
        const struct ct_hdr *h = &c->rd.h;
        if (!ct_token_ok(h, P->ctx->token)) {
            logf_(P, "refused a %s frame from %s: wrong token", ct_name(h->type),
                  who(c, w, sizeof(w)));
            close_client(c);
            fail(P, "%s: a control frame without the run's token", who(c, w, sizeof(w)));
            return;
        }
        c->last_heard = cm_now_ms();
        switch (h->type) {
        case CT_HEARTBEAT: /* it may carry the client's live counters */
            pr_meter_heartbeat(P->ctx->meter, c->cl->num, c->rd.payload, h->len);
            break;
        case CT_MSG_ERROR:
            fail(P, "%s: %s", who(c, w, sizeof(w)), (const char *)c->rd.payload);
            return;
        case CT_MSG_RESULTS:
            take_results(P, c);
            break;
        default:
            logf_(P, "%s: %s done.", who(c, w, sizeof(w)), ct_name(h->type));
            c->done = h->type;
        }
    }
    if (r == -EACCES) {
        logf_(P, "refused a %s frame from %s: wrong token", ct_name(c->rd.h.type),
              who(c, w, sizeof(w)));
        close_client(c);
        fail(P, "%s: a control frame without the run's token", who(c, w, sizeof(w)));
    } else if (r == -ENOMEM) { /* the prime's shortage, not the client's */
        close_client(c);
        fail(P, "out of memory for a control frame of %u bytes from %s", c->rd.h.len,
             who(c, w, sizeof(w)));
    } else if (r < 0 && !c->has_results) {
        close_client(c);
        fail(P, "%s closed its control connection (%s)", who(c, w, sizeof(w)),
             r == -EPIPE ? "end of stream" : strerror(-r));
    } else if (r < 0) {
        close_client(c);
    }
}

/* The last line a client wrote to its log (why an ssh failed, say). */
static void last_words(struct pc *c, char *buf, size_t len)
{
    char tail[512];
    off_t end;
    ssize_t n;
    char *p;

    buf[0] = '\0';
    if (c->log_fd < 0)
        return;
    end = lseek(c->log_fd, 0, SEEK_END);
    if (end <= 0)
        return;
    n = pread(c->log_fd, tail, sizeof(tail) - 1,
              end > (off_t)sizeof(tail) - 1 ? end - (off_t)sizeof(tail) + 1 : 0);
    if (n <= 0)
        return;
    tail[n] = '\0';
    while (n > 0 && (tail[n - 1] == '\n' || tail[n - 1] == '\r'))
        tail[--n] = '\0';
    p = strrchr(tail, '\n');
    p = p ? p + 1 : tail;
    if (strlen(p) >= len)
        p[len - 1] = '\0';
    memcpy(buf, p, strlen(p) + 1);
}

/* A client whose process (or remote shell) exited without its results
 * fails the point - after EXIT_GRACE_MS while its connection is still open,
 * since the results it sent just before exiting may still be on the way. */
static void reap(struct point *P)
{
    unsigned k;
    char w[300], st[64], words[300];

    for (k = 0; k < P->n; k++) {
        struct pc *c = &P->c[k];
        if (c->proc.pid <= 0 || c->has_results || c->reported_exit)
            continue;
        if (!c->proc.exited) {
            if (!pr_proc_poll(&c->proc))
                continue;
            c->exited_at = cm_now_ms();
        }
        if (c->fd >= 0) {
            on_client(P, c); /* what it sent before it went */
            if (c->has_results || P->failed)
                continue;
            if (c->fd >= 0 && cm_now_ms() - c->exited_at < EXIT_GRACE_MS)
                continue;
        }
        c->reported_exit = 1;
        pr_status_text(c->proc.status, st, sizeof(st));
        last_words(c, words, sizeof(words));
        fail(P, "%s: %s exited (%s) before the end of the point%s%s",
             who(c, w, sizeof(w)), c->cl->local ? "the client" : "its remote shell", st,
             words[0] ? ": " : "", words);
    }
}

/* ---- the loop ------------------------------------------------------------------ */

/* Serves everything for at most ms.  Returns 0, or -1 once the point failed. */
static int step(struct point *P, int ms)
{
    unsigned k, n = 0, i;
    uint64_t now;
    int r;

    if (*P->ctx->interrupted)
        return fail(P, "interrupted by a signal (SIGINT/SIGTERM)");
    P->pf[n++] = (struct pollfd){P->ctx->sig_fd, POLLIN, 0};
    P->pf[n++] = (struct pollfd){P->lfd, POLLIN, 0};
    for (i = 0; i < P->npend; i++)
        P->pf[n++] = (struct pollfd){P->pend[i].fd, POLLIN, 0};
    for (k = 0; k < P->n; k++)
        P->pf[n++] = (struct pollfd){P->c[k].fd, POLLIN, 0};
    r = poll(P->pf, n, ms);
    if (r < 0 && errno != EINTR)
        return fail(P, "poll: %s", strerror(errno));
    if (r > 0 && P->pf[0].revents) {
        char buf[64];
        while (read(P->ctx->sig_fd, buf, sizeof(buf)) > 0)
            ;
    }
    if (*P->ctx->interrupted)
        return fail(P, "interrupted by a signal (SIGINT/SIGTERM)");
    if (r > 0) {
        /* clients first: the pending list below may shrink */
        for (k = 0; k < P->n && !P->failed; k++)
            if (P->c[k].fd >= 0 && P->pf[2 + P->npend + k].revents)
                on_client(P, &P->c[k]);
        for (i = P->npend; i-- > 0 && !P->failed;)
            if (P->pf[2 + i].revents)
                on_pend(P, i);
        if (P->pf[1].revents)
            accept_all(P);
    }
    reap(P);
    now = cm_now_ms();
    for (i = P->npend; i-- > 0;)
        if (now - P->pend[i].since > HELLO_WAIT_MS) {
            logf_(P, "dropped a connection from %s: no HELLO in %d s", P->pend[i].addr,
                  HELLO_WAIT_MS / 1000);
            drop_pend(P, i);
        }
    if (!P->failed && now - P->last_beat >= P->beat_ms) {
        P->last_beat = now;
        for (k = 0; k < P->n; k++)
            send_client(P, &P->c[k], CT_HEARTBEAT, 0, NULL);
    }
    if (!P->failed)
        pr_meter_tick(P->ctx->meter);
    return P->failed ? -1 : 0;
}

/* Names the clients that have not done phase (or, silent, not been heard
 * of for the timeout) into buf; returns how many. */
static unsigned missing(struct point *P, uint32_t phase, int silent_only, char *buf,
                        size_t len)
{
    uint64_t now = cm_now_ms(), limit = (uint64_t)P->run->prime_timeout * 1000u;
    unsigned k, m = 0;
    size_t used = 0;

    buf[0] = '\0';
    for (k = 0; k < P->n; k++) {
        struct pc *c = &P->c[k];
        int miss =
            silent_only ? c->fd >= 0 && now - c->last_heard > limit : c->done != phase;
        if (!miss)
            continue;
        if (++m <= 16 && used + 80 < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%u (%s)",
                                     m > 1 ? ", " : "", c->cl->num, c->cl->host);
    }
    if (m > 16 && used + 40 < len)
        snprintf(buf + used, len - used, " and %u more", m - 16);
    return m;
}

/* Waits until every client reported phase done, or until deadline_ms when
 * phase is 0 (a timed wait) - which ends sooner when every client reported
 * early done (0: none).  Fails on timeout or silence. */
static int wait_until(struct point *P, uint32_t phase, uint32_t early,
                      uint64_t deadline_ms)
{
    char names[2048];
    unsigned m;

    for (;;) {
        uint64_t now = cm_now_ms();
        if (phase != 0 && missing(P, phase, 0, names, sizeof(names)) == 0)
            return 0;
        if (early != 0 && missing(P, early, 0, names, sizeof(names)) == 0)
            return 0;
        if (now >= deadline_ms) {
            if (phase == 0)
                return 0;
            m = missing(P, phase, 0, names, sizeof(names));
            return fail(
                P, "Prime Client timeout - did not get signal (%s) from %u client(s): %s",
                ct_name(phase), m, names);
        }
        m = missing(P, phase, 1, names, sizeof(names));
        if (m > 0)
            return fail(P,
                        "Prime Client timeout - no word from %u client(s) for %d s "
                        "(PRIME_TIMEOUT): %s",
                        m, P->run->prime_timeout, names);
        if (step(P, (int)(deadline_ms - now < 200 ? deadline_ms - now : 200)) < 0)
            return -1;
    }
}

static int wait_phase(struct point *P, uint32_t phase, uint64_t deadline_ms)
{
    return wait_until(P, phase, 0, deadline_ms);
}

static uint64_t after_s(uint64_t s)
{
    return cm_now_ms() + s * 1000u;
}

/* ---- starting the clients and the monitor
 * ---------------------------------------------- */

static int start_clients(struct point *P)
{
    static char *argv[PR_ARGV_MAX], *rargv[PR_ARGV_MAX + 80];
    static char buf[PR_ARGBUF], rbuf[PR_ARGBUF + 4096];
    const struct pr_run *run = P->run;
    char err[CM_ERR_LEN], path[LD_PATH_MAX + 64], host[300], w[300], stamp[32];
    time_t now = time(NULL);
    unsigned k;

    gethostname(host, sizeof(host) - 1);
    ctime_r(&now, stamp);
    stamp[24] = '\0';
    for (k = 0; k < P->n; k++) {
        struct pc *c = &P->c[k];
        const char *prime = c->cl->local         ? "127.0.0.1"
                            : run->prime_host[0] ? run->prime_host
                                                 : host;
        char name[32];
        char **use = argv;
        int argc;

        argc = pr_client_argv(run, c->cl, P->pt->index, P->pt->load, prime, P->port, argv,
                              PR_ARGV_MAX, buf, sizeof(buf));
        if (argc > 0 && !c->cl->local) {
            argc = pr_remote_argv(run, c->cl, argv, rargv, PR_ARGV_MAX + 80, rbuf,
                                  sizeof(rbuf));
            use = rargv;
        }
        if (argc < 0)
            return fail(P, "%s: its command line is too long", who(c, w, sizeof(w)));
        snprintf(name, sizeof(name), "sfsc%03u", c->cl->num);
        pr_result_path(run, name, path, sizeof(path));
        c->log_fd = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        if (c->log_fd < 0)
            return fail(P, "%s: %s", path, strerror(errno));
        if (P->asking) {
            dprintf(c->log_fd,
                    "\n==== the clients asked which workload they run, %s ====\n", stamp);
        } else {
            char what[LD_PATH_MAX + 64];

            run->wl->point_text(&P->pt->su.cfg, pr_point_values(run, P->pt->index),
                                P->pt->load, what, sizeof(what));
            dprintf(c->log_fd, "\n==== run %u of %u: %s, %s ====\n", P->pt->index + 1,
                    run->npoints, what, stamp);
        }
        if (pr_spawn(&c->proc, use, c->log_fd, NULL, err, sizeof(err)) < 0)
            return fail(P, "%s: %s", who(c, w, sizeof(w)), err);
        {
            char tok[2 * CT_TOKEN_LEN + 2];
            ssize_t put;

            ct_token_hex(P->ctx->token, tok);
            strcat(tok, "\n");
            put = write(c->proc.in_fd, tok, strlen(tok));
            if (put < 0 && errno == EPIPE) {
                /* it is gone already (a refused ssh can end before this
                 * write on a busy machine): reap() reports its exit with
                 * its last words, which say why - not this write */
                logf_(P, "%s: its standard input closed before the token was written",
                      who(c, w, sizeof(w)));
            } else if (put != (ssize_t)strlen(tok)) {
                return fail(P, "%s: could not hand over the token: %s",
                            who(c, w, sizeof(w)),
                            put < 0 ? strerror(errno) : "a short write");
            }
        }
        logf_(P, "started %s: %s%s", who(c, w, sizeof(w)), use[0],
              c->cl->local ? " (on this host)" : " (remote shell)");
    }
    return 0;
}

/* sfs_prime: the clients are started by hand; tell how. */
static int await_clients(struct point *P)
{
    const struct pr_run *run = P->run;
    char tok[2 * CT_TOKEN_LEN + 2], *argv[PR_ARGV_MAX];
    static char buf[PR_ARGBUF];
    const char *tf = P->ctx->opts->token_file;
    char host[256];
    unsigned k;
    FILE *f;
    int fd;

    ct_token_hex(P->ctx->token, tok);
    fd = open(tf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL || fprintf(f, "%s\n", tok) < 0 || fclose(f) != 0)
        return fail(P, "%s: %s", tf, strerror(errno));
    gethostname(host, sizeof(host) - 1);
    fprintf(P->ctx->opts->out, "sfs_prime: control port %u; start the clients with:\n",
            P->port);
    for (k = 0; k < P->n; k++) {
        const char *prime = P->c[k].cl->local    ? "127.0.0.1"
                            : run->prime_host[0] ? run->prime_host
                                                 : host;
        int i, argc = pr_client_argv(run, P->c[k].cl, P->pt->index, P->pt->load, prime,
                                     P->port, argv, PR_ARGV_MAX, buf, sizeof(buf));
        fprintf(P->ctx->opts->out, "  on %s:", P->c[k].cl->host);
        for (i = 0; i < argc; i++)
            fprintf(P->ctx->opts->out, " %s", argv[i]);
        fprintf(P->ctx->opts->out, " < %s\n", tf);
    }
    fflush(P->ctx->opts->out);
    return 0;
}

/* The monitor script, called START or DONE (docs/SFS30.md §12.2 step 4):
 * run without a shell, bounded; a failure disables it with a warning. */
static int monitor(struct point *P, const char *what)
{
    const struct pr_run *run = P->run;
    char *argv[260], err[CM_ERR_LEN], e1[LD_PATH_MAX + 20], e2[100], e3[40], e4[40],
        e5[40], st[64];
    char *env[] = {e1, e2, e3, e4, e5, NULL};
    struct pr_proc mp;
    uint64_t deadline;
    int i, n = 0;

    if (run->mon_script == NULL || P->ctx->mon_disabled)
        return 0;
    argv[n++] = (char *)run->mon_script;
    argv[n++] = (char *)what;
    for (i = 0; i < run->nmon_args && n < 258; i++)
        argv[n++] = run->mon_args[i];
    argv[n] = NULL;
    snprintf(e1, sizeof(e1), "SFS_WORK_DIR=%s", run->work_dir);
    snprintf(e2, sizeof(e2), "SFS_SUFFIX=%s", run->suffix);
    snprintf(e3, sizeof(e3), "SFS_RUN=%u", P->pt->index + 1);
    snprintf(e4, sizeof(e4), "SFS_LOAD=%u", P->pt->load);
    snprintf(e5, sizeof(e5), "SFS_MGR_PID=%ld", (long)getpid());
    logf_(P, "Running %s %s.", run->mon_script, what);
    P->mon_started = strcmp(what, "START") == 0;
    if (pr_spawn(&mp, argv, fileno(P->ctx->log), env, err, sizeof(err)) < 0) {
        logf_(P, "WARNING: monitor script: %s; not called again", err);
        P->ctx->mon_disabled = 1;
        return 0;
    }
    close(mp.in_fd);
    mp.in_fd = -1;
    deadline = after_s(MON_WAIT_MS / 1000);
    while (!pr_proc_poll(&mp)) {
        int was_failed = P->failed;
        /* an aborting point only waits (its DONE stops what START began) */
        if (cm_now_ms() >= deadline ||
            (was_failed ? poll(NULL, 0, 50) : step(P, 50)) < 0) {
            struct pr_proc *one = &mp;
            pr_procs_stop(&one, 1, 0);
            if (!P->failed)
                logf_(P, "WARNING: monitor script %s %s ran longer than %d s: stopped",
                      what, run->mon_script, MON_WAIT_MS / 1000);
            P->ctx->mon_disabled = 1;
            return P->failed ? -1 : 0;
        }
    }
    if (!WIFEXITED(mp.status) || WEXITSTATUS(mp.status) != 0) {
        pr_status_text(mp.status, st, sizeof(st));
        logf_(P, "WARNING: monitor script %s %s failed (%s); not called again",
              run->mon_script, what, st);
        P->ctx->mon_disabled = 1;
    }
    return 0;
}

/* ---- the phases ----------------------------------------------------------------------
 */

static int phases(struct point *P)
{
    const struct pr_run *run = P->run;
    const struct ld_config *cfg = &P->pt->su.cfg;
    uint64_t t = (uint64_t)run->prime_timeout;
    unsigned asked = ld_report_requested_ops(run->wl->report, P->pt->load);
    char what[LD_PATH_MAX + 64];
    uint64_t run_ns;
    int rc;

    run->wl->point_text(cfg, pr_point_values(run, P->pt->index), P->pt->load, what,
                        sizeof(what));
    logf_(P, "Executing SFS Benchmark on %u Client(s): %s.", P->n, what);
    if (wait_phase(P, CT_HELLO, after_s(t)) < 0 || send_all(P, CT_MSG_MOUNT, 0) < 0 ||
        wait_phase(P, CT_MSG_MOUNT, after_s(t)) < 0 || send_all(P, CT_MSG_INIT, 0) < 0 ||
        wait_phase(P, CT_MSG_INIT, after_s(t + 3600)) < 0)
        return -1;
    if (!run->populate_only) {
        if (cfg->warmup_s > 0) {
            pr_meter_phase(P->ctx->meter, "warm-up", (unsigned)cfg->warmup_s,
                           (unsigned)cfg->runtime_s, asked);
            rc = send_all(P, CT_MSG_WARMUP, (uint32_t)cfg->warmup_s) < 0 ||
                 wait_phase(P, CT_MSG_WARMUP, after_s(t + (uint64_t)cfg->warmup_s)) < 0;
            pr_meter_phase_end(P->ctx->meter);
            if (rc)
                return -1;
        }
        logf_(P, "All clients READY.");
        if (monitor(P, "START") < 0 ||
            wait_phase(P, 0, after_s((uint64_t)run->prime_sleep)) < 0)
            return -1;
        logf_(P, "Starting %d seconds test run.", cfg->runtime_s);
        pr_meter_phase(P->ctx->meter, "run", (unsigned)cfg->runtime_s, 0, asked);
        /* RUNTIME s, or less when every client ended its run by itself
         * (a replay that reached its trace's end): a point ends with its
         * load, not with an idle tail */
        /* The run as the prime sees it, from before its RUN to after the
         * last client said its run was over, holds every client's window
         * whatever their clocks: the aggregate's throughput is counted
         * over it (aggregate.c). */
        run_ns = cm_now_ns();
        rc = send_all(P, CT_MSG_RUN, (uint32_t)(cfg->runtime_s + CT_RUN_OFFSET_S)) < 0 ||
             wait_until(P, 0, CT_MSG_RUN, after_s((uint64_t)cfg->runtime_s)) < 0;
        pr_meter_phase_end(P->ctx->meter);
        if (rc || send_all(P, CT_MSG_STOP, 0) < 0 ||
            wait_phase(P, CT_MSG_RUN, after_s(t)) < 0)
            return -1;
        P->pt->run_span_ns = cm_now_ns() - run_ns;
        logf_(P, "All clients DONE-TEST.");
        if (monitor(P, "DONE") < 0 ||
            wait_phase(P, 0, after_s((uint64_t)run->prime_sleep)) < 0)
            return -1;
    }
    if (send_all(P, CT_MSG_RESULTS, 0) < 0 ||
        wait_phase(P, CT_MSG_RESULTS, after_s(t)) < 0)
        return -1;
    return 0;
}

/* Every process of the point gone: after the results they exit by
 * themselves; after a failure they get ABORT, their lifeline closes, and
 * what is left is stopped by group. */
static void finish(struct point *P)
{
    unsigned k, np = 0;

    if (P->mon_started)
        (void)monitor(P, "DONE");

    for (k = 0; k < P->n; k++) {
        struct pc *c = &P->c[k];
        if ((P->failed || P->asking) && c->fd >= 0)
            send_client(P, c, CT_ABORT, 0,
                        P->failed ? P->pt->error
                                  : "the prime only asked which workload to run");
        if (P->failed || P->asking)
            close_client(c);
        if (c->proc.pid > 0)
            P->procs[np++] = &c->proc;
    }
    pr_procs_stop(P->procs, np, P->failed ? ABORT_WAIT_MS : END_WAIT_MS);
    for (k = 0; k < P->n; k++) {
        close_client(&P->c[k]);
        ct_reader_free(&P->c[k].rd);
        if (P->c[k].log_fd >= 0)
            close(P->c[k].log_fd);
    }
    while (P->npend > 0)
        drop_pend(P, P->npend - 1);
    if (P->lfd >= 0)
        close(P->lfd);
}

/* Point idx, or (asking) only its clients' HELLOs, whose workloads go to
 * pt->clients[k].workload. */
static int point_run(struct pr_ctx *ctx, unsigned idx, struct pr_point *pt, int asking)
{
    const struct pr_run *run = ctx->run;
    struct point P;
    char err[CM_ERR_LEN];
    unsigned k;
    int rc = -1;

    memset(pt, 0, sizeof(*pt));
    memset(&P, 0, sizeof(P));
    pt->index = idx;
    pt->load = run->points[idx];
    pt->started = time(NULL);
    P.ctx = ctx;
    P.run = run;
    P.pt = pt;
    P.n = run->nclients;
    P.lfd = -1;
    P.asking = asking;
    P.last_beat = cm_now_ms();
    P.beat_ms = heartbeat_ms();
    P.c = cm_calloc(P.n, sizeof(*P.c));
    P.maxpend = P.n + SPARE_PENDING;
    P.pend = cm_calloc(P.maxpend, sizeof(*P.pend));
    P.pf = cm_calloc(P.n + P.maxpend + 2, sizeof(*P.pf));
    pt->clients = cm_calloc(P.n, sizeof(*pt->clients));
    /* made here, not in finish: a point must never fail to stop what it
     * started for want of memory */
    P.procs = cm_calloc(P.n, sizeof(*P.procs));
    pr_results_block(run, &pt->su); /* the aggregate's block, before the point's setup */
    if (P.c == NULL || P.pf == NULL || P.pend == NULL || pt->clients == NULL ||
        P.procs == NULL || pr_agg_init(&pt->agg, &pt->su.results.all) < 0) {
        snprintf(pt->error, sizeof(pt->error), "out of memory");
        goto out;
    }
    for (k = 0; k < P.n; k++) {
        P.c[k].cl = &run->clients[k];
        P.c[k].fd = -1;
        P.c[k].log_fd = -1;
        P.c[k].proc.in_fd = -1;
    }
    if (pr_setup_point(run, idx, &pt->su, err, sizeof(err)) < 0) {
        fail(&P, "%s", err);
        goto out;
    }
    if (listen_port(&P) == 0 &&
        (ctx->opts->launch ? start_clients(&P) : await_clients(&P)) == 0 &&
        (asking ? wait_phase(&P, CT_HELLO, after_s((uint64_t)run->prime_timeout))
                : phases(&P)) == 0) {
        if (asking)
            for (k = 0; k < P.n; k++)
                snprintf(pt->clients[k].workload, sizeof(pt->clients[k].workload), "%s",
                         P.c[k].workload);
        else
            pr_agg_finish(&pt->agg, (uint64_t)pt->su.cfg.load * P.n, pt->run_span_ns);
        pt->finished = 1;
        rc = 0;
    }
    finish(&P);
out:
    free(P.c);
    free(P.procs);
    free(P.pf);
    free(P.pend);
    pt->ended = time(NULL);
    return rc;
}

int pr_point_run(struct pr_ctx *ctx, unsigned idx, struct pr_point *pt)
{
    return point_run(ctx, idx, pt, 0);
}

int pr_workload_ask(struct pr_ctx *ctx, char *name, size_t len, char *err, size_t errlen)
{
    struct pr_point *pt = cm_calloc(1, sizeof(*pt));
    unsigned k;
    int rc;

    if (pt == NULL)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    rc = point_run(ctx, 0, pt, 1);
    if (rc < 0)
        cm_errf(err, errlen, "%s", pt->error);
    for (k = 0; rc == 0 && k < ctx->run->nclients; k++) {
        const char *w = pt->clients[k].workload;

        if (w[0] == '\0')
            rc = cm_errf(err, errlen, "client %u (%s) did not say its workload", k + 1,
                         ctx->run->clients[k].host);
        else if (k > 0 && strcmp(w, name) != 0)
            rc = cm_errf(err, errlen,
                         "client 1 runs the %s workload, client %u (%s) the %s one: set "
                         "WORKLOAD in the rc file",
                         name, k + 1, ctx->run->clients[k].host, w);
        else
            snprintf(name, len, "%s", w);
    }
    pr_point_free(pt);
    free(pt);
    return rc;
}

void pr_point_free(struct pr_point *pt)
{
    free(pt->clients);
    pt->clients = NULL;
    pr_agg_free(&pt->agg);
}
