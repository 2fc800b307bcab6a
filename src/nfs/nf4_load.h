/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf4_load.h - what a load process needs of NFSv4.1 beyond the client
 * (nf4_client.h), whatever drives it: a reply read out as the
 * version-neutral result the mix works with (v4_result.c: nf.h's status
 * numbering, the object's type and size, a new handle, an unstable
 * write), the OPEN state of the process's files (v4_opens.c: a file is
 * OPENed before its first READ or WRITE and CLOSEd when it leaves the
 * working set, as a client does; an open of an older client epoch is gone
 * and opened again), and the protocol's own counters (v4_counts.c: each
 * v4 operation sent, OPEN and CLOSE and their share of the mix, the
 * client's recoveries) as a cm_field table with their report rows and
 * YAML.  docs/nfsv4.md describes them.  Nothing here allocates per call.
 */
#ifndef NF4_LOAD_H
#define NF4_LOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "common/fields.h"
#include "nfs/nf4_client.h"

struct cm_yaml;

/* ---- a reply as a version-neutral result (v4_result.c) -------------------- */

/* nf.h's status for an nfsstat4: the same number where v4 kept v3's
 * meaning (NOENT, EXIST, STALE... DELAY is JUKEBOX), the v3 status a v3
 * server gives for the same failure where v4 has its own (FHEXPIRED:
 * STALE, NOFILEHANDLE: BADHANDLE, SYMLINK: NOTDIR, WRONG_TYPE: INVAL,
 * ATTRNOTSUPP: NOTSUPP, OPENMODE, SHARE_DENIED, LOCKED and DENIED:
 * ACCES), SERVERFAULT for the client-state statuses a client answers
 * itself and any other (the result keeps the v4 status to name it). */
uint32_t nf4_status_nf(uint32_t status4);

struct nf4_sfs_result {
    uint32_t status;    /* nf.h's numbering (nf4_status_nf) */
    uint32_t status4;   /* the compound's own (nfsstat4) */
    uint32_t failed_op; /* the operation that failed (nfs_opnum4); 0 when OK */
    unsigned has_attrs : 1, has_fh : 1, unstable : 1, eof : 1;
    uint32_t type; /* ftype3's numbering (NF3REG...; v4's 1..7 are the same) */
    uint64_t size;
    uint32_t nlink;
    uint32_t count; /* READ's bytes, WRITE's written */
    struct nf4_fh fh;
};

/* A v4 handle into the mix's file table (struct nf_fh, NF_FH_MAX bytes:
 * sfs_nfsd's v4 handles take 32) and back.  Returns 0, or -E2BIG for a
 * handle longer than nf_fh holds (said once, never cut). */
int nf4_fh_to_nf(const struct nf4_fh *in, struct nf_fh *out);
void nf4_fh_from_nf(const struct nf_fh *in, struct nf4_fh *out);

/* Reads r (a decoded reply) into out: the status, the attributes of the
 * last GETATTR that succeeded, GETFH's handle, READ's eof and bytes,
 * WRITE's count and whether it was UNSTABLE (a COMMIT to follow). */
void nf4_sfs_result(const struct nf4_res *r, struct nf4_sfs_result *out);

/* ---- the opens of a process's files (v4_opens.c) -------------------------- */

enum nf4_open_state {
    NF4_CLOSED = 0, /* not open (or its open is gone with an older epoch) */
    NF4_OPENING,    /* its OPEN is in flight: its READ/WRITE waits */
    NF4_OPEN,       /* stateid holds the open's */
    NF4_CLOSING     /* left the working set, its CLOSE queued or in flight
                       (proto4.c): not open for I/O; entering again waits
                       for the CLOSE.  These functions take it as closed. */
};

struct nf4_open {
    stateid4 stateid;
    uint32_t epoch; /* the client's epoch when it was opened */
    uint8_t state;  /* enum nf4_open_state */
};

/* What the opens did (part of struct nf4_load_stats). */
struct nf4_open_counts {
    uint64_t opens;          /* OPENs sent (reopens included) */
    uint64_t reopens;        /* ... of files whose open a new client lost */
    uint64_t open_errors;    /* OPENs that failed */
    uint64_t closes;         /* CLOSEs sent (a created file's included) */
    uint64_t closes_gone;    /* files leaving whose open an older epoch held:
                                no CLOSE (the server has forgotten it) */
    uint64_t closes_skipped; /* created files left open: no call free for
                                their CLOSE and the queue of those waiting
                                for one full even after their CREATE waited
                                (create_waits) CLOSE_WAIT_MS (the server
                                then refuses the end's DESTROY_CLIENTID:
                                CLIENTID_BUSY) */
    uint64_t create_waits;   /* CREATEs held until the queue of created
                                files' CLOSEs had room (UNCLOSED_MAX) */
    double create_wait_s;    /* ... the time the process was held */
    uint64_t anonymous_io;   /* READs and WRITEs of a file with no open of the
                                present client: the anonymous stateid */
    uint64_t stale_resends;  /* READs, WRITEs and SETATTRs answered
                                STALE_STATEID, BAD_STATEID or EXPIRED for an
                                older client's stateid, sent again with the
                                present one's */
    uint64_t close_errors;   /* CLOSEs answered with an error, or none */
    /* calls slower than NF4_SLOW_NS, start (a slot's wait included) to
     * reply or failure: the mix's ops (a reopen before one included), the
     * working set's OPENs and CLOSEs, the created files' CLOSEs */
    uint64_t slow_ops, slow_ws_opens, slow_ws_closes, slow_created_closes;
    double ws_wait_s;    /* the process blocked on the working set's
                            OPENs and CLOSEs (file_enter, file_leave) */
    uint64_t in_use_max; /* files open at once, at most */
    uint64_t in_use;     /* files open now */
    /* the reclaim after a server restart (v4_reclaim.c): opens reclaimed
     * (CLAIM_PREVIOUS answered OK), and those that were not - answered
     * NO_GRACE (the server was not in its grace period), RECLAIM_BAD,
     * another status or no reply, or not tried (the reclaim's time ran
     * out, or a NO_GRACE said the rest would fail too); each of those is
     * opened again after the grace period, as a reopen */
    uint64_t reclaims;
    uint64_t reclaim_no_grace;
    uint64_t reclaim_bad;
    uint64_t reclaim_errors;
    uint64_t reclaim_untried;
};

/* A call slower than this is counted as slow: the pacer's carry limit
 * (LD_PACE_CARRY_LIMIT_NS), past which a stalled child gives time up. */
#define NF4_SLOW_NS 100000000u

/* What a READ or WRITE of file f needs now, with the client at epoch:
 * NF4_OPEN (its stateid is *sid), NF4_OPENING (its OPEN is in flight),
 * NF4_CLOSED (not open, or its open gone with an older client). */
enum nf4_open_state nf4_open_need(const struct nf4_open *f, uint32_t epoch,
                                  const stateid4 **sid);
/* 1 when f was open and a new client (epoch) lost its open: its next
 * READ, WRITE or SETATTR opens it again first. */
int nf4_open_lost(const struct nf4_open *f, uint32_t epoch);
/* The OPEN of f goes out (counted; a reopen when it was open in an older
 * epoch). */
void nf4_open_sending(struct nf4_open_counts *c, struct nf4_open *f);
/* The OPEN of f came back: r its reply (the open's stateid on success,
 * NULL: no reply), epoch the call's.  Returns 1 when the file is open. */
int nf4_open_done(struct nf4_open_counts *c, struct nf4_open *f, const struct nf4_res *r,
                  uint32_t epoch);
/* f leaves the working set: 1 and *sid (the caller's copy) when a CLOSE is
 * to be sent, 0 when there is nothing to close (never opened, or opened
 * by an older epoch: the file is closed; its OPEN still in flight: nothing
 * changes, the caller leaves it once the OPEN is done). */
int nf4_open_leave(struct nf4_open_counts *c, struct nf4_open *f, uint32_t epoch,
                   stateid4 *sid);

/* ---- the reclaim after a server restart (v4_reclaim.c) -------------------- */

/* A working-set file's state when its opens are to be reclaimed: its open
 * first (the file state the nf4_open_* functions take), then what its
 * reclaim needs - the handle, and the link of the reclaimer's list. */
struct nf4_kept_open {
    struct nf4_open open;
    struct nf4_kept_open *next;
    struct nf_fh fh;
    uint8_t kept; /* on the list */
};

struct nf4_reclaim_call;

/*
 * What reclaims a process's opens after its server restarted (RFC 8881
 * 8.4.2): the client calls nf4_reclaimer_run (its opts.reclaim, data the
 * reclaimer) once the new client has its session; every kept file whose
 * open the previous client held gets an OPEN with CLAIM_PREVIOUS (SEQUENCE
 * PUTFH OPEN ACCESS GETATTR, the same share access), at most ncalls at
 * once on calls allocated at init, and a reclaimed file's open is the new
 * client's (its stateid and epoch), so its next READ or WRITE needs no
 * reopen.  When all are answered, RECLAIM_COMPLETE goes.  NO_GRACE stops
 * the rest; a file not reclaimed is opened again after the grace period
 * as today (a reopen); all counted in *counts.  Bounded: no reclaim
 * starts after a lease, and each has a timeout; when the time runs out
 * the rest is abandoned with one line on standard error.
 */
struct nf4_reclaimer {
    struct nf4_client *cl;
    struct nf4_kept_open *files;  /* every kept file, newest first */
    struct nf4_kept_open *cursor; /* the next file to look at */
    struct nf4_reclaim_call *calls, *free_calls;
    unsigned ncalls, busy;
    uint32_t from_epoch; /* the opens of this client epoch are reclaimed */
    uint64_t deadline_ns;
    uint64_t started_ns;
    int stopped;   /* no more reclaims this time (NO_GRACE, the bound) */
    int abandoned; /* ... because the time ran out */
    struct nf4_open_counts *counts;
    const char *prog; /* names the process on standard error */
};

/* Allocates ncalls calls (at least one).  Returns 0 or -ENOMEM. */
int nf4_reclaimer_init(struct nf4_reclaimer *r, unsigned ncalls,
                       struct nf4_open_counts *counts, const char *prog);
void nf4_reclaimer_free(struct nf4_reclaimer *r);
/* Keeps f (the file fh) for a reclaim: once, when it enters the working
 * set. */
void nf4_reclaimer_keep(struct nf4_reclaimer *r, struct nf4_kept_open *f,
                        const struct nf_fh *fh);
/* The client's reclaim hook (struct nf4_client_opts.reclaim), data r. */
void nf4_reclaimer_run(struct nf4_client *cl, void *data);

/* ---- the session's mount (proto4.c) --------------------------------------- */

struct nf_session;
/* The v4 mount of a session mounted over NFSv4.1 (its client, the
 * export's handle and attributes), for a caller that builds its own
 * compounds (the NFS trace replay); NULL for another protocol's session,
 * or before the mount. */
const struct nf4_mount *nf4_session_mount(const struct nf_session *s);

/* ---- the protocol's counters (v4_counts.c) ------------------------------- */

#define NF4_LOAD_NFIELDS 37 /* rows of nf4_load_field_table */

struct nf4_load_stats {
    uint64_t ops[NF4_COUNTED_OPS]; /* operations sent, by number (SEQUENCE too) */
    uint64_t ops_other;            /* operations numbered past NFSv4.1's */
    uint64_t compounds;            /* COMPOUNDs sent for the load */
    struct nf4_open_counts open;
    /* the client's (nf4_client_stats, over the measured phase) */
    uint64_t delays, graces, new_sessions, new_clients, slot_repairs, renewals;
    uint64_t delegations, delegreturns, slot_waits, recovery_failed, restarts;
};

/* The counters' field table (merge, wire form, YAML group "nfsv4"):
 * NF4_LOAD_NFIELDS rows. */
extern const struct cm_field nf4_load_field_table[NF4_LOAD_NFIELDS];
/* Adds what the client counted between two of its snapshots: the
 * compounds and operations it sent, its resends and recoveries. */
void nf4_load_client(struct nf4_load_stats *s, const struct nf4_client_stats *now,
                     const struct nf4_client_stats *before);
/* Adds what the opens counted between two snapshots; the files open now,
 * and at most, are now's. */
void nf4_load_opens(struct nf4_load_stats *s, const struct nf4_open_counts *now,
                    const struct nf4_open_counts *before);
/* The report's rows: each v4 operation sent with its count, then OPEN and
 * CLOSE with their share of the mix's calls (sfs_calls: the SFS ops'
 * calls), the delegations returned, the client's recoveries and resends. */
void nf4_load_report(FILE *out, const struct nf4_load_stats *s, uint64_t sfs_calls);
/* The same for the YAML: ops as a mapping of name to count (those sent),
 * then the fields of group "nfsv4". */
void nf4_load_yaml(struct cm_yaml *y, const struct nf4_load_stats *s);

#endif /* NF4_LOAD_H */
