/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progress.c - sfs_mgr's progress lines (docs/sfs_mgr.md, "Progress"):
 * during each point's warm-up and run, every --progress seconds, the same
 * line a client prints (load/live.h) summed over the clients - from the
 * live counters each client's heartbeats carry, so nothing but the
 * heartbeats travels for it - with the point's number and the time left
 * in the whole run.  On a terminal the point's "Executing run i of N ..."
 * line is rewritten in place with the figures after it, and ends as
 * before with "done"; elsewhere each figure line stands on its own and the
 * "Executing ... done" line follows them whole.  Every line also goes to
 * sfslog.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "prime/pr_int.h"
#include "common/alloc.h"

#define GUESS_OVERHEAD_S                                                                 \
    10 /* a point's start, population and results, before one is seen */
/* How long a due line waits for a client's heartbeat: a client sends one
 * a second in a load phase, on its own clock, not on the lines' grid.  A
 * line printed before it showed no calls of that client ("0.0 of 100
 * ops/s, mean 0.00 ms"), every phase's first line among them. */
#define BEAT_WAIT_MS 1500u

int pr_meter_open(struct pr_meter *m, const struct pr_run *run, FILE *out, FILE *log,
                  unsigned every_s, int whole)
{
    memset(m, 0, sizeof(*m));
    m->run = run;
    m->out = out;
    m->log = log;
    m->every_s = every_s;
    m->whole = whole;
    m->tty = !whole && out && isatty(fileno(out));
    m->client = cm_calloc(run->nclients ? run->nclients : 1, sizeof(*m->client));
    return m->client ? 0 : -1;
}

void pr_meter_close(struct pr_meter *m)
{
    free(m->client);
    m->client = NULL;
}

void pr_meter_time(int s, char *buf, size_t len)
{
    if (s < 0)
        s = 0;
    if (s >= 3600)
        snprintf(buf, len, "%d h %02d min", s / 3600, s / 60 % 60);
    else if (s >= 60)
        snprintf(buf, len, "%d min %02d s", s / 60, s % 60);
    else
        snprintf(buf, len, "%d s", s);
}

double pr_meter_point_s(const struct pr_meter *m, int warmup_s, int runtime_s)
{
    const struct pr_run *run = m->run;

    if (m->npoints_seen > 0) /* what the points so far took, their times apart */
        return m->overhead_sum_s / m->npoints_seen + warmup_s + runtime_s;
    return warmup_s + runtime_s + 2.0 * run->prime_sleep + GUESS_OVERHEAD_S;
}

void pr_meter_point(struct pr_meter *m, const char *label, const char *text,
                    double after_s)
{
    snprintf(m->label, sizeof(m->label), "%s", label);
    snprintf(m->prefix, sizeof(m->prefix), "%s", text);
    m->after_s = after_s;
    m->shown = m->whole; /* a whole line: the figures need not end it */
    m->point_ms = cm_now_ms();
    memset(m->client, 0, (m->run->nclients ? m->run->nclients : 1) * sizeof(*m->client));
    fputs(m->prefix, m->out);
    if (m->whole)
        fputc('\n', m->out);
    fflush(m->out);
}

void pr_meter_point_end(struct pr_meter *m, const char *tail, int warmup_s, int runtime_s)
{
    double took = (double)(cm_now_ms() - m->point_ms) / 1000.0;

    if (m->shown && m->tty)
        fprintf(m->out, "\r%s%s\033[K\n", m->prefix, tail);
    else if (m->shown)
        fprintf(m->out, "%s%s\n", m->prefix, tail);
    else
        fprintf(m->out, "%s\n", tail);
    fflush(m->out);
    m->shown = 0;
    m->phase = NULL;
    /* what a point costs beyond its warm-up and run (start, population,
     * results): the estimate of the time left */
    m->overhead_sum_s += took > warmup_s + runtime_s ? took - warmup_s - runtime_s : 0;
    m->npoints_seen++;
}

void pr_meter_heartbeat(struct pr_meter *m, unsigned client, const void *payload,
                        size_t len)
{
    struct ld_live l;

    if (m == NULL || client < 1 || client > m->run->nclients || len == 0 ||
        ld_live_decode(&l, payload, len) < 0)
        return;
    m->client[client - 1].cur = l;
    m->client[client - 1].beat_ms = cm_now_ms();
    if (m->client[client - 1].from_ms == 0) /* the window after the mark begins */
        m->client[client - 1].from_ms = l.first_ms;
}

static void sum_clients(const struct pr_meter *m, struct ld_live *out)
{
    unsigned k;

    ld_live_reset(out);
    for (k = 0; k < m->run->nclients; k++)
        ld_live_merge(out, &m->client[k].cur);
}

/* What the clients did since the last line (last) and their summed rate:
 * each client's calls over the window its heartbeats say holds them all,
 * on its own clock (load/live.h, ld_live_sum_since), since heartbeats do
 * not arrive on the lines' grid (a client with no new reading keeps its
 * last rate).  The marks move to now. */
static double interval(struct pr_meter *m, struct ld_live *last)
{
    struct ld_live d;
    double rate = 0;
    unsigned k;

    ld_live_reset(last);
    for (k = 0; k < m->run->nclients; k++) {
        struct pr_meter_client *c = &m->client[k];

        ld_live_diff(&d, &c->cur, &c->mark);
        ld_live_merge(last, &d);
        if (c->cur.at_ms > c->mark.at_ms && c->mark.at_ms > 0)
            c->rate = ld_live_rate(&c->cur, &c->mark, c->from_ms);
        c->mark = c->cur;
        c->from_ms = 0;
        rate += c->rate;
    }
    return rate;
}

void pr_meter_phase(struct pr_meter *m, const char *phase, unsigned total_s,
                    unsigned then_s, unsigned requested)
{
    unsigned k;

    if (m == NULL)
        return;
    m->phase = phase;
    m->total_s = total_s;
    m->then_s = then_s;
    m->requested = requested;
    m->start_ms = cm_now_ms();
    m->mark_ms = m->start_ms;
    m->next_ms = m->start_ms + (uint64_t)m->every_s * 1000u;
    sum_clients(m, &m->base);
    for (k = 0; k < m->run->nclients; k++) {
        m->client[k].mark = m->client[k].cur;
        m->client[k].from_ms = 0;
        m->client[k].rate = 0;
    }
}

void pr_meter_phase_end(struct pr_meter *m)
{
    if (m == NULL)
        return;
    /* the line due at the phase's end, when the end came first (as the
     * clients' meter, client/progress.c) - unless it still waits for a
     * client's heartbeat: no line rather than one without its calls */
    if (m->phase != NULL && m->every_s != 0 && cm_now_ms() >= m->next_ms)
        pr_meter_tick(m);
    m->phase = NULL;
}

/* The terminal's width (80 when it cannot be told). */
static size_t columns(FILE *f)
{
    struct winsize ws;

    if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
        return ws.ws_col;
    return 80;
}

/* 1 when a client has sent no heartbeat since the last line. */
static int beat_missing(const struct pr_meter *m)
{
    unsigned k;

    for (k = 0; k < m->run->nclients; k++)
        if (m->client[k].beat_ms <= m->mark_ms)
            return 1;
    return 0;
}

void pr_meter_tick(struct pr_meter *m)
{
    struct ld_live now, sum, last;
    struct ld_live_view v;
    double rate;
    char line[600], left[40], stamp[32];
    double elapsed, left_s;
    uint64_t t;
    time_t wall;
    int n;

    if (m == NULL || m->every_s == 0 || m->phase == NULL)
        return;
    t = cm_now_ms();
    if (t < m->next_ms)
        return;
    if (t < m->next_ms + BEAT_WAIT_MS && beat_missing(m))
        return;
    m->mark_ms = t;
    while (m->next_ms <= t)
        m->next_ms += (uint64_t)m->every_s * 1000u;
    sum_clients(m, &now);
    ld_live_diff(&sum, &now, &m->base);
    rate = interval(m, &last);
    elapsed = (double)(t - m->start_ms) / 1000.0;
    memset(&v, 0, sizeof(v));
    v.phase = m->phase;
    v.elapsed_s = elapsed;
    v.total_s = m->total_s;
    v.requested = m->requested;
    v.sum = &sum;
    v.last = &last;
    v.rate = rate;
    n = ld_live_line(m->run->wl, &v, line, sizeof(line));
    left_s = (m->total_s > elapsed ? m->total_s - elapsed : 0) + m->then_s + m->after_s;
    pr_meter_time((int)(left_s + 0.5), left, sizeof(left));
    snprintf(line + n, sizeof(line) - (size_t)n, "; about %s left", left);
    if (m->tty) { /* the fields that fit the terminal, none cut */
        char full[800], before[200], after[64];

        snprintf(before, sizeof(before), "%s ", m->prefix);
        snprintf(after, sizeof(after), "; about %s left", left);
        ld_live_line_fit(m->run->wl, &v, before, after, columns(m->out) - 1, full,
                         sizeof(full));
        fprintf(m->out, "\r%s\033[K", full);
    } else {
        if (!m->shown)
            fputc('\n', m->out); /* the "Executing" line ends here */
        fprintf(m->out, "  %s: %s\n", m->label, line);
    }
    m->shown = 1;
    fflush(m->out);
    wall = time(NULL);
    ctime_r(&wall, stamp);
    stamp[24] = '\0';
    if (m->log)
        fprintf(m->log, "%s %s: %s\n", stamp, m->label, line);
}
