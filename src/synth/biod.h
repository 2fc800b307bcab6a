/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * biod.h - the biod emulation of SFS 3.0 (docs/SFS30.md §10): one request's
 * calls go out through the rpc engine's async API with up to
 * BIOD_MAX_READS (reads) or BIOD_MAX_WRITES (writes) of them in flight; 0
 * means one at a time (synchronous).  Every other op is a request of one
 * call through the same path with a depth of 1.
 *
 * The call slots are pre-allocated with room for the arguments and result
 * of any procedure of either version and the names an op needs, so nothing
 * is allocated per call (XDR's decoded results are freed with nf_call_free
 * after each call).  The caller supplies two functions: prepare fills slot
 * i's arguments and rp_call, done takes the finished call (status, times,
 * result) and does the accounting; both run inside sy_biod_run.
 *
 * Policy (open item 10 of docs/SFS30.md §22, chosen here): biod applies in the warm-up
 * and run phases and during population writes; a timed-out call counts as
 * one bad call and the request's other calls still complete; the request
 * ends when every call has completed.
 */
#ifndef SY_BIOD_H
#define SY_BIOD_H

#include <stdint.h>

#include "synth/files.h"
#include "load/jukebox.h"
#include "nfs/nf.h"

#define SY_BIOD_SLOTS 33   /* 32 (MAX_BIODS) + 1 */
#define SY_RBUF_BYTES 8192 /* a READ reply's data: one block (-B <= 8 KB) */

union sy_args {
    nfs_fh a2_fh;
    sattrargs a2_setattr;
    diropargs a2_dirop;
    readargs a2_read;
    writeargs a2_write;
    createargs a2_create;
    renameargs a2_rename;
    linkargs a2_link;
    symlinkargs a2_symlink;
    readdirargs a2_readdir;
    GETATTR3args a3_getattr;
    SETATTR3args a3_setattr;
    LOOKUP3args a3_lookup;
    ACCESS3args a3_access;
    READLINK3args a3_readlink;
    READ3args a3_read;
    WRITE3args a3_write;
    CREATE3args a3_create;
    MKDIR3args a3_mkdir;
    SYMLINK3args a3_symlink;
    MKNOD3args a3_mknod;
    REMOVE3args a3_remove;
    RMDIR3args a3_rmdir;
    RENAME3args a3_rename;
    LINK3args a3_link;
    READDIR3args a3_readdir;
    READDIRPLUS3args a3_readdirplus;
    FSSTAT3args a3_fsstat;
    FSINFO3args a3_fsinfo;
    PATHCONF3args a3_pathconf;
    COMMIT3args a3_commit;
};

/* One call in flight: the engine's call, its arguments and result, the
 * names it refers to, and what the request needs to account for it. */
struct sy_slot {
    struct rp_call call;
    union sy_args args;
    struct nf_res res;          /* READ data lands in rbuf, a handle in res.fh */
    char name[2][SY_NAME_MAX];  /* dir-op names (rename: from, to) */
    char text[SY_NAME_MAX + 4]; /* symlink text */
    char rbuf[SY_RBUF_BYTES];   /* res.data: READ data, entries read over */
    int op;                     /* enum nf_op */
    uint32_t file;              /* entry index, SY_NO_FILE when none */
    uint32_t file2;             /* second entry (rename target, link name) */
    uint64_t offset;            /* read/write */
    uint32_t len;
    uint32_t index; /* call number within the request */
    uint32_t busy;
    struct sy_biod *owner;
    /* the server's "busy, try later" (NFS3ERR_JUKEBOX): the call is sent
     * again after the biod's jukebox delay (load/jukebox.h) */
    struct ld_jukebox jb;
    uint32_t waiting; /* waiting for jb.retry_at_ns to be sent again */
};

struct sy_biod;
/* Fills slot->args (and slot fields) for call i of the request, then
 * prepares slot->call with nf_call_init.  Returns 0, or -errno to count
 * the call as failed without sending it. */
typedef int (*sy_biod_prepare_fn)(struct sy_slot *slot, uint32_t i, void *data);
/* Accounts a finished call (slot->call.status is 0 or an RP_ERR_*); the
 * result is freed by biod right after. */
typedef void (*sy_biod_done_fn)(struct sy_slot *slot, void *data);
/* Nonzero when a call's reply asks for it to be sent again later
 * (NFS3ERR_JUKEBOX). */
typedef int (*sy_biod_busy_fn)(const struct sy_slot *slot, void *data);

struct sy_biod {
    struct rp_client *clnt;
    struct sy_slot slot[SY_BIOD_SLOTS];
    unsigned in_flight;
    uint32_t timeout_ms; /* 0 = the op's class timeout from nf_call_init */
    sy_biod_prepare_fn prepare;
    sy_biod_done_fn done;
    void *data;
    sy_biod_busy_fn busy;      /* NULL: no reply is sent again */
    uint32_t jukebox_delay_ms; /* wait before a busy call is sent again */
    unsigned waiting;          /* busy slots waiting to be sent again */
    uint64_t max_in_flight;    /* the most calls ever outstanding (DEBUG 14) */
    uint64_t requests, calls;
};

/* Sets up the slots for a client (no allocation). */
void sy_biod_init(struct sy_biod *b, struct rp_client *clnt, sy_biod_prepare_fn prepare,
                  sy_biod_done_fn done, void *data);

/* Points the biod at another client (after a reconnect). */
void sy_biod_set_client(struct sy_biod *b, struct rp_client *clnt);

/*
 * Runs one request of ncalls calls with up to depth in flight (0 = one at a
 * time).  Blocks until every call has completed (each bounded by the
 * engine's timeouts and retransmissions, and a call the server answered
 * busy by LD_JUKEBOX_TRIES waits of jukebox_delay_ms).  Returns the number of calls that
 * were sent (prepare failures excluded) or -errno when the client is
 * unusable (every call is then accounted as failed through done).
 */
int sy_biod_run(struct sy_biod *b, uint32_t ncalls, uint32_t depth);

#endif /* SY_BIOD_H */
