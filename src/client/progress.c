/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * progress.c - the progress lines of a client (docs/sfs.md, "Progress"):
 * every --progress seconds of the warm-up and the run, one line with the
 * phase's elapsed and total time, the achieved against the requested
 * ops/s, the mean and p99 response time and the rate of the last
 * interval (its calls over a window that holds every one of them, so that
 * a child's stale publication never makes it exceed what the server
 * answered: load/live.h), the bad calls so far and how far behind its schedule the
 * client is, and the workload's own part (a replay's records, lateness and
 * waits).  The figures are the children's live counters (load/live.h),
 * read from the area they publish to: the parent reads, nothing travels
 * per call.  On a terminal the line is rewritten in place with the fields
 * that fit its width (those that matter least left out, none cut),
 * elsewhere each line stands whole on its own, after the same
 * date stamp as the other progress lines of the log.
 */
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "client/cl_int.h"

void cl_meter_init(struct cl_meter *m, const struct ld_setup *su, FILE *log)
{
    memset(m, 0, sizeof(*m));
    m->su = su;
    m->log = log;
    m->every_s = su->live ? (unsigned)su->cfg->progress_s : 0;
    m->tty = log && isatty(fileno(log));
}

void cl_meter_begin(struct cl_meter *m, const char *phase, unsigned total_s)
{
    m->phase = phase;
    m->total_s = total_s;
    m->start_ms = cm_now_ms();
    m->next_ms = m->start_ms + (uint64_t)m->every_s * 1000u;
    ld_live_sum_since(m->su->live, LD_LIVE_LINES, &m->base);
    m->prev = m->base;
}

/* The terminal's width (80 when it cannot be told). */
static size_t columns(FILE *f)
{
    struct winsize ws;

    if (ioctl(fileno(f), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 20)
        return ws.ws_col;
    return 80;
}

void cl_meter_tick(void *data)
{
    struct cl_meter *m = data;
    struct ld_live now, sum, last;
    struct ld_live_view v;
    uint64_t t;
    char line[512];

    if (m->every_s == 0 || m->phase == NULL)
        return;
    t = cm_now_ms();
    if (t < m->next_ms)
        return;
    while (m->next_ms <= t) /* the next line on the interval's grid */
        m->next_ms += (uint64_t)m->every_s * 1000u;
    ld_live_sum_since(m->su->live, LD_LIVE_LINES, &now);
    ld_live_diff(&sum, &now, &m->base);
    ld_live_diff(&last, &now, &m->prev);
    memset(&v, 0, sizeof(v));
    v.phase = m->phase;
    v.elapsed_s = (double)(t - m->start_ms) / 1000.0;
    v.total_s = m->total_s;
    v.requested = ld_report_requested_ops(m->su->wl->report, (unsigned)m->su->cfg->load);
    v.sum = &sum;
    v.last = &last;
    v.rate = ld_live_rate(&now, &m->prev, now.first_ms);
    m->prev = now;
    if (m->tty) { /* the fields that fit the terminal, none cut */
        ld_live_line_fit(m->su->wl, &v, "", "", columns(m->log) - 1, line, sizeof(line));
        fprintf(m->log, "\r%s\033[K", line);
        m->open = 1;
    } else {
        ld_live_line(m->su->wl, &v, line, sizeof(line));
        cl_progress(m->log, "%s", line);
    }
    fflush(m->log);
}

void cl_meter_end(struct cl_meter *m)
{
    /* the line due at the phase's end, when the loop saw the end first
     * (a busy machine decides which of the two comes first) */
    if (m->phase != NULL && m->every_s != 0 && cm_now_ms() >= m->next_ms)
        cl_meter_tick(m);
    if (m->open) {
        fputc('\n', m->log);
        fflush(m->log);
    }
    m->open = 0;
    m->phase = NULL;
}

int cl_meter_heartbeat(const struct ld_setup *su, unsigned char *buf, size_t cap)
{
    struct ld_live now;

    if (su->live == NULL || cap < ld_live_wire_max())
        return 0;
    ld_live_sum_since(su->live, LD_LIVE_BEATS, &now);
    return (int)ld_live_encode(&now, buf);
}
