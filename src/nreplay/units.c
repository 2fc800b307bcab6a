/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * units.c - who replays what (nr.h, docs/nfs_replay.md "Processes,
 * clients and scaling"): stream s of copy j of the trace is unit j x
 * streams + s of the run, dealt over the clients first, then over a
 * client's processes; the copies a client takes part in, their trees'
 * directories, the processes left idle, the units as text, and the
 * dependencies that cross client hosts (one read of the plan's calls).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/error.h"
#include "common/alloc.h"
#include "nreplay/nr.h"

/* ---- copies and streams (nr.h) -------------------------------------------- */

static uint32_t streams_of(uint32_t nstreams)
{
    return nstreams ? nstreams : 1;
}

/* Whether this client replays a stream of copy j. */
static int takes_part(const struct ld_config *cfg, uint32_t j, uint32_t nstreams)
{
    uint32_t s, n = streams_of(nstreams);

    for (s = 0; s < n && s < (uint32_t)RB_TOPTS(cfg)->nclients;
         s++) /* the units go round */
        if (nr_unit_client(cfg, j, s, n) == (uint32_t)cfg->client_num)
            return 1;
    return 0;
}

uint32_t nr_client_copies(const struct ld_config *cfg, uint32_t nstreams)
{
    uint32_t j, n = 0;

    for (j = 0; j < nr_scale(cfg); j++)
        n += (uint32_t)takes_part(cfg, j, nstreams);
    return n;
}

void nr_copy_dir(const struct ld_config *cfg, uint32_t j, uint32_t nstreams, char *buf,
                 size_t len)
{
    uint32_t home = nr_unit_client(cfg, j, 0, streams_of(nstreams)), k, m = 0;

    for (k = 0; k < j; k++) /* the copies homed on the same client before it */
        m += nr_unit_client(cfg, k, 0, streams_of(nstreams)) == home;
    if (m == 0)
        snprintf(buf, len, "%s", NR_DIR);
    else
        snprintf(buf, len, "%s.%u", NR_DIR, m);
}

unsigned nr_idle_procs(const struct ld_config *cfg, uint32_t nstreams)
{
    uint64_t units = (uint64_t)nr_scale(cfg) * streams_of(nstreams), mine;
    uint32_t clients = (uint32_t)RB_TOPTS(cfg)->nclients, c, idle = 0;

    for (c = 0; c < clients; c++) { /* client c + 1 holds units c, c + clients, ... */
        mine = units > c ? (units - c + clients - 1) / clients : 0;
        if (mine < (uint64_t)cfg->procs)
            idle += (unsigned)((uint64_t)cfg->procs - mine);
    }
    return idle;
}

void nr_units_text(const struct ld_config *cfg, uint32_t client, uint32_t nstreams,
                   int with_proc, char *buf, size_t len)
{
    uint32_t j, s, n = streams_of(nstreams);
    size_t at = 0;

    buf[0] = '\0';
    for (j = 0; j < nr_scale(cfg); j++)
        for (s = 0; s < n; s++) {
            char one[64];
            int w;

            if (nr_unit_client(cfg, j, s, n) != client)
                continue;
            if (with_proc)
                w = snprintf(one, sizeof(one), "%scopy %u stream %u (process %u)",
                             at ? ", " : "", j, s, nr_unit_proc(cfg, j, s, n));
            else
                w = snprintf(one, sizeof(one), "%scopy %u stream %u", at ? ", " : "", j,
                             s);
            if (at + (size_t)w + 6 >= len) { /* room for ", ..." */
                snprintf(buf + at, len - at, ", ...");
                return;
            }
            memcpy(buf + at, one, (size_t)w + 1);
            at += (size_t)w;
        }
    if (at == 0)
        snprintf(buf, len, "nothing");
}

int nr_cross_deps(const struct nr_plan *p, const struct ld_config *cfg, uint32_t client,
                  int proc, uint64_t *deps, uint64_t *calls, char *err, size_t errlen)
{
    uint32_t ns = streams_of(p->nstreams), j, k, *stream_of;
    struct nr_stream in;
    struct nr_call c;
    int rc;

    *deps = *calls = 0;
    if (RB_TOPTS(cfg)->nclients < 2 || ns < 2)
        return 0;
    /* a dependency reaches back less than NR_LOOKAHEAD calls */
    stream_of = cm_calloc(NR_LOOKAHEAD, sizeof(*stream_of));
    if (!stream_of)
        return cm_errf(err, errlen, "out of memory"), -ENOMEM;
    rc = nr_stream_open(&in, p, 0, err, errlen);
    while (rc == 0 && (rc = nr_stream_next(&in, &c, err, errlen)) > 0) {
        uint64_t i = in.next - 1;

        rc = 0;
        stream_of[i % NR_LOOKAHEAD] = c.stream;
        for (j = 0; j < nr_scale(cfg); j++) {
            uint32_t at = nr_unit_client(cfg, j, c.stream, ns), n = 0;

            if (c.v4 != NR_V4_CALL || /* a state record: no call */
                (client > 0 &&
                 (at != client ||
                  (proc >= 0 && nr_unit_proc(cfg, j, c.stream, ns) != (unsigned)proc))))
                continue;
            for (k = 0; k < NR_DEPS && c.dep[k]; k++)
                n += nr_unit_client(cfg, j, stream_of[(i - c.dep[k]) % NR_LOOKAHEAD],
                                    ns) != at;
            *deps += n;
            *calls += n > 0;
        }
    }
    nr_stream_close(&in);
    free(stream_of);
    return rc < 0 ? rc : 0;
}
