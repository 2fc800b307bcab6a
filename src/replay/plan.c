/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * plan.c - the first pass over a trace (rl.h): the units with
 * the size preparation gives them, the number of streams, the trace's
 * duration, and the checks that must stop a replay before anything is sent
 * (a malformed record, a record NFSv2 cannot address, a path that would
 * leave the replay directory), and the bytes each unit's records touch
 * (common/runs.h).  Memory grows per unit and, while the pass lasts, per
 * disjoint run of touched bytes, never per record or byte.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay/rl.h"
#include "replaybase/rb.h"
#include "common/alloc.h"

#define V2_LIMIT (1ull << 32) /* NFSv2 offsets are unsigned 32-bit (RFC 1094) */

uint32_t rl_stream_key(const struct rl_plan *p, const struct tr_record *rec)
{
    /* MaStA is partitioned by region, so that a sync (which has no stream)
     * is issued by the process that wrote the region (docs/TRACE_FORMATS.md 3.7). */
    return strcmp(p->format, "masta") == 0 ? rec->unit : rec->stream;
}

void rl_procs(const struct ld_config *cfg, unsigned child, uint32_t *gproc,
              uint32_t *nprocs)
{
    *nprocs = (uint32_t)RB_TOPTS(cfg)->nclients * (uint32_t)cfg->procs;
    *gproc = (uint32_t)(cfg->client_num - 1) * (uint32_t)cfg->procs + child;
}

double rl_expected_s(const struct rl_plan *p, double speed)
{
    return speed > 0 ? (double)p->trace_ns / 1e9 / speed : 0;
}

double rl_rate(uint64_t records, uint64_t trace_ns, double speed)
{
    return speed > 0 && trace_ns > 0 ? (double)records / ((double)trace_ns / 1e9 / speed)
                                     : 0;
}

/* A rate with as many digits as it needs. */
static void rate_text(char *buf, size_t len, double rate)
{
    snprintf(buf, len, rate >= 100 ? "%.0f" : rate >= 0.01 ? "%.2f" : "%.3g", rate);
}

void rl_requested(char *buf, size_t len, double speed, const struct rb_stats *s,
                  unsigned nclients)
{
    double rate = rl_rate(s->replay_trace_records, s->replay_trace_ns, speed);
    char r[32];

    if (rate <= 0) {
        snprintf(buf, len, "as fast as the window allows (speed %g)", speed);
        return;
    }
    rate_text(r, sizeof(r), rate);
    if (nclients > 1)
        snprintf(buf, len, "%s records/s (the trace at speed %g, over %u clients)", r,
                 speed, nclients);
    else
        snprintf(buf, len, "%s records/s (the trace at speed %g)", r, speed);
}

/* Seconds, with days or hours beside them when there are that many. */
static void span(char *buf, size_t len, double s)
{
    if (s >= 86400)
        snprintf(buf, len, "%.3f s (%.1f days)", s, s / 86400);
    else if (s >= 3600)
        snprintf(buf, len, "%.3f s (%.1f h)", s, s / 3600);
    else
        snprintf(buf, len, "%.3f s", s);
}

void rl_plan_describe(FILE *log, const char *prog, const struct rl_plan *p, double speed,
                      int limit_s, unsigned nprocs)
{
    double expect = rl_expected_s(p, speed);
    char trace[64], run[64];

    span(trace, sizeof(trace), (double)p->trace_ns / 1e9);
    span(run, sizeof(run), expect);
    fprintf(log,
            "%s: replay plan: %s (%s): %llu records, %u streams, %u files; the trace "
            "lasts %s; ",
            prog, p->file, p->format, (unsigned long long)p->records, p->nstreams,
            p->nunits, trace);
    if (nprocs > p->nstreams) /* rl_owner: stream s goes to process s % nprocs */
        fprintf(log, "%u streams, %u processes: %u idle; ", p->nstreams, nprocs,
                nprocs - p->nstreams);
    if (expect > 0) {
        char r[32];

        rate_text(r, sizeof(r), rl_rate(p->records, (uint64_t)p->trace_ns, speed));
        fprintf(log, "at speed %g the replay takes %s (%s records/s)", speed, run, r);
    } else
        fprintf(log, "at speed %g it runs as fast as the window allows", speed);
    if (limit_s > 0 && (speed == 0 || expect > limit_s))
        fprintf(log,
                "; the run time (-t) ends it after %d s: records due later are not "
                "replayed",
                limit_s);
    fprintf(log, "\n");
}

int rl_plan_check_time(const struct rl_plan *p, double speed, int limit_s, char *err,
                       size_t errlen)
{
    double expect = rl_expected_s(p, speed), need;
    char run[64];

    if (limit_s == 0 && p->bytes > RL_MAX_UNBOUNDED_BYTES)
        return cm_errf(err, errlen,
                       "%s: the replay would move %.1f GiB, more than the %llu GiB a "
                       "replay may move without -t: pass -t SEC to end it after SEC "
                       "seconds",
                       p->file, (double)p->bytes / (1024.0 * 1024.0 * 1024.0),
                       (unsigned long long)(RL_MAX_UNBOUNDED_BYTES >> 30)),
               -E2BIG;
    if (limit_s > 0 || expect <= RB_MAX_UNBOUNDED_S)
        return 0;
    span(run, sizeof(run), expect);
    need = (double)p->trace_ns / 1e9 / RB_MAX_UNBOUNDED_S; /* the least speed */
    cm_errf(err, errlen,
            "%s: the replay would take %s at speed %g, more than the %d s (1 day) a "
            "replay may run without -t: pass -t SEC to end it after SEC seconds, or "
            "--speed %llu or more to replay it within a day",
            p->file, run, speed, RB_MAX_UNBOUNDED_S,
            (unsigned long long)need + ((double)(unsigned long long)need < need));
    return -E2BIG;
}

static void options_of(struct tr_options *o, const struct ld_config *cfg)
{
    memset(o, 0, sizeof(*o));
    o->format = RB_TOPTS(cfg)->trace_format[0] ? RB_TOPTS(cfg)->trace_format : "auto";
    o->lenient = RB_TOPTS(cfg)->trace_lenient;
    o->spc_lba_size = (uint32_t)RL_BOPTS(cfg)->trace_block_size;
}

int rl_open_reader(const struct rl_plan *p, struct tr_reader *r, char *err, size_t errlen)
{
    struct tr_options o = p->topt;

    o.format = p->format;
    o.warn = NULL;
    o.warn_data = NULL;
    return tr_reader_open(r, p->file, NULL, &o, err, errlen);
}

static void warn_to_log(void *data, const char *msg)
{
    FILE *log = data;

    if (log)
        fprintf(log, "%s\n", msg);
}

/* Grows the unit table to hold unit u.  0 or -ENOMEM. */
static int need_unit(struct rl_plan *p, uint32_t u)
{
    struct rl_unit *n;
    uint32_t cap;

    if (u < p->nunits)
        return 0;
    cap = u + 1 + (u + 1) / 2;
    if (cap > TR_MAX_UNITS)
        cap = TR_MAX_UNITS;
    n = cm_realloc(p->units, cap * sizeof(*n));
    if (!n)
        return -ENOMEM;
    memset(n + p->nunits, 0, (cap - p->nunits) * sizeof(*n));
    p->units = n;
    p->nunits = u + 1;
    return 0;
}

/* The reader's unit name as a path below the replay directory: the
 * leading '/' and "." components dropped, repeated '/' folded; ".." and an
 * empty name are refused. */
static int unit_path(const char *in, char *out, size_t len)
{
    size_t o = 0;
    const char *s = in;

    while (*s) {
        const char *e;
        size_t n;

        while (*s == '/')
            s++;
        e = s;
        while (*e && *e != '/')
            e++;
        n = (size_t)(e - s);
        if (n == 2 && s[0] == '.' && s[1] == '.')
            return -EINVAL;
        if (n > 0 && !(n == 1 && s[0] == '.')) {
            if (o + n + 2 > len)
                return -ENAMETOOLONG;
            if (o > 0)
                out[o++] = '/';
            memcpy(out + o, s, n);
            o += n;
        }
        s = e;
    }
    out[o] = '\0';
    return o > 0 ? 0 : -EINVAL;
}

/* The record cannot be replayed over NFSv2: ends beyond 4 GiB. */
int rl_beyond_v2(const struct rl_plan *p, const struct tr_record *rec)
{
    return p->nfs_version == 2 && (rec->op == TR_OP_READ || rec->op == TR_OP_WRITE) &&
           (rec->offset >= V2_LIMIT || rec->length > V2_LIMIT - rec->offset);
}

uint64_t rl_record_blocks(const struct tr_record *rec)
{
    uint64_t last;

    if ((rec->op != TR_OP_READ && rec->op != TR_OP_WRITE) || rec->length == 0)
        return 0;
    last = rec->length - 1 > UINT64_MAX - rec->offset ? UINT64_MAX
                                                      : rec->offset + (rec->length - 1);
    return last / RL_RECORD_BLOCK - rec->offset / RL_RECORD_BLOCK + 1;
}

int rl_plan_skips(const struct rl_plan *p, const struct tr_record *rec)
{
    return rl_beyond_v2(p, rec) || rl_record_blocks(rec) > p->max_blocks;
}

/* Where a record sits, for messages: "FILE:LINE" or "FILE: entry N". */
static void where(const struct rl_plan *p, const struct tr_record *rec, char *buf,
                  size_t len)
{
    if (strcmp(p->format, "masta") == 0)
        snprintf(buf, len, "%s: entry %ld", p->file, rec->line);
    else
        snprintf(buf, len, "%s:%ld", p->file, rec->line);
}

/* Adds the bytes of a READ or WRITE record (length > 0) to those its unit
 * is touched at: offset .. offset + length - 1, the end held at the last
 * byte an offset can name.  0 or -ENOMEM. */
static int touch(struct rl_unit *u, const struct tr_record *rec, char *err, size_t errlen)
{
    uint64_t last = rec->length - 1 > UINT64_MAX - rec->offset
                        ? UINT64_MAX
                        : rec->offset + (rec->length - 1);

    if (cm_runs_add(&u->touched, rec->offset, last) < 0)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    return 0;
}

/* Accounts one record; 0, 1 to skip it (lenient v2), or -errno. */
static int take(struct rl_plan *p, const struct tr_record *rec, FILE *log, char *err,
                size_t errlen)
{
    uint32_t key = rl_stream_key(p, rec);
    char pos[LD_PATH_MAX + 32];
    int rc;

    if (rl_beyond_v2(p, rec)) {
        where(p, rec, pos, sizeof(pos));
        if (!p->topt.lenient)
            return cm_errf(err, errlen,
                           "%s: error: record ends beyond 4 GiB, which NFSv2 cannot "
                           "address (use sfs3, or --lenient to skip it)",
                           pos);
        if (log)
            fprintf(log, "%s: warning: record beyond NFSv2's 4 GiB skipped\n", pos);
        p->v2_beyond++;
        return 1;
    }
    if (rl_record_blocks(rec) > p->max_blocks) {
        where(p, rec, pos, sizeof(pos));
        if (!p->topt.lenient)
            return cm_errf(err, errlen,
                           "%s: error: record of %llu blocks (%u bytes each) exceeds "
                           "--max-record-blocks %llu (raise it, or --lenient to skip "
                           "the record)",
                           pos, (unsigned long long)rl_record_blocks(rec),
                           RL_RECORD_BLOCK, (unsigned long long)p->max_blocks);
        if (log)
            fprintf(log,
                    "%s: warning: record of %llu blocks over --max-record-blocks "
                    "skipped\n",
                    pos, (unsigned long long)rl_record_blocks(rec));
        p->oversize++;
        return 1;
    }
    if (key >= RL_MAX_STREAMS)
        return cm_errf(err, errlen, "%s: more than %u streams", p->file, RL_MAX_STREAMS);
    if (key >= p->nstreams)
        p->nstreams = key + 1;
    if (rec->t_ns > p->trace_ns)
        p->trace_ns = rec->t_ns;
    if (rec->op == TR_OP_SYNC)
        return 0; /* names regions it may not touch otherwise */
    rc = need_unit(p, rec->unit);
    if (rc < 0)
        return cm_errf(err, errlen, "out of memory"), rc;
    if ((rec->op == TR_OP_READ || rec->op == TR_OP_WRITE) &&
        rec->offset + rec->length > p->units[rec->unit].size)
        p->units[rec->unit].size = rec->offset + rec->length;
    if ((rec->op != TR_OP_READ && rec->op != TR_OP_WRITE) || rec->length == 0)
        return 0;
    p->bytes = rec->length > UINT64_MAX - p->bytes ? UINT64_MAX : p->bytes + rec->length;
    return touch(&p->units[rec->unit], rec, err, errlen);
}

/* Names the units once the reader has seen them all. */
static int name_units(struct rl_plan *p, struct tr_reader *r, char *err, size_t errlen)
{
    char name[LD_PATH_MAX], path[LD_PATH_MAX];
    uint32_t u;

    for (u = 0; u < p->nunits; u++) {
        tr_reader_unit_name(r, u, name, sizeof(name));
        if (unit_path(name, path, sizeof(path)) < 0)
            return cm_errf(err, errlen,
                           "%s: file '%s' cannot be placed below the replay directory "
                           "(empty, '..' or too long)",
                           p->file, name);
        p->units[u].name = cm_strdup(path);
        if (!p->units[u].name)
            return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    }
    return 0;
}

int rl_plan_build(struct rl_plan *p, const struct ld_config *cfg, FILE *log, char *err,
                  size_t errlen)
{
    struct tr_reader r;
    struct tr_record rec;
    uint32_t u;
    int rc, mine = 0;

    memset(p, 0, sizeof(*p));
    snprintf(p->file, sizeof(p->file), "%s", RB_TOPTS(cfg)->trace_file);
    p->nfs_version = cfg->nfs_version;
    p->max_blocks = (uint64_t)RL_BOPTS(cfg)->trace_max_blocks;
    options_of(&p->topt, cfg);
    p->topt.warn = warn_to_log;
    p->topt.warn_data = log;
    rc = tr_reader_open(&r, p->file, NULL, &p->topt, err, errlen);
    if (rc < 0)
        return rc;
    snprintf(p->format, sizeof(p->format), "%s", tr_reader_format(&r));
    p->topt.format = NULL; /* p->format is what children open with */
    p->topt.warn = NULL;
    p->topt.warn_data = NULL;
    while ((rc = tr_reader_next(&r, &rec)) > 0) {
        rc = take(p, &rec, log, err, errlen);
        if (rc < 0) {
            mine = 1;
            break;
        }
        p->records += rc == 0;
    }
    if (rc < 0 && !mine)
        cm_errf(err, errlen, "%s", r.last_error[0] ? r.last_error : strerror(-rc));
    else if (rc == 0 && (p->records == 0 || p->nstreams == 0))
        rc = cm_errf(err, errlen, "%s: no records to replay", p->file);
    if (rc == 0)
        rc = name_units(p, &r, err, errlen);
    for (u = 0; u < p->nunits; u++) /* the counts stay; the runs are not needed */
        cm_runs_free(&p->units[u].touched);
    p->skipped = r.skipped;
    p->warnings = r.warnings;
    p->ncounters = r.ncounters;
    memcpy(p->counters, r.counters, sizeof(p->counters));
    tr_reader_close(&r);
    if (rc < 0)
        rl_plan_free(p);
    return rc;
}

void rl_plan_free(struct rl_plan *p)
{
    uint32_t u;

    for (u = 0; u < p->nunits; u++) {
        free(p->units[u].name);
        cm_runs_free(&p->units[u].touched);
    }
    free(p->units);
    p->units = NULL;
    p->nunits = 0;
}
