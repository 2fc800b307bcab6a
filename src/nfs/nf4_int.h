/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nf4_int.h - what the NFSv4 client's files share (nfs layer, private):
 * the client's state (struct nf4_client), its slot table and the state
 * calls of v4_session.c, which v4_client.c drives.  No other layer
 * includes it.
 */
#ifndef NF4_INT_H
#define NF4_INT_H

#include "common/error.h"
#include "nfs/nf4_client.h"

/* Where the client stands.  The states between NEW_CLIENT and UP are the
 * steps of establishing it (at open, and again after STALE_CLIENTID or
 * EXPIRED); NEW_SESSION alone follows BADSESSION/DEADSESSION. */
enum nf4_state {
    NF4_ST_NEW_CLIENT,  /* EXCHANGE_ID (4.1), SETCLIENTID (4.0) */
    NF4_ST_CONFIRM,     /* SETCLIENTID_CONFIRM (4.0) */
    NF4_ST_NEW_SESSION, /* CREATE_SESSION */
    NF4_ST_RECLAIMING,  /* the caller reclaims its opens (a server restart) */
    NF4_ST_RECLAIM,     /* RECLAIM_COMPLETE: nothing (more) to reclaim */
    NF4_ST_LEASE,       /* PUTROOTFH GETATTR: the lease time (at open) */
    NF4_ST_UP,
    NF4_ST_CLOSING,
    NF4_ST_DEAD,
};

/* Calls of the client itself (the caller's have none of these flags). */
#define NF4_F_INTERNAL 1u /* not counted as the caller's */
#define NF4_F_CTL      2u /* a state call: goes while the client is not up */

/* Where a call is (nf4_call.state). */
enum { NF4_C_IDLE, NF4_C_WAITING, NF4_C_SENT, NF4_C_HELD, NF4_C_DONE };

#define NF4_DELEGRETURNS    4 /* delegations handed back at once */
#define NF4_RESENDS_MAX     8 /* recoveries one call lives through */
#define NF4_SLOT_WORDS      (NF4_MAX_SLOTS / 32)
#define NF4_LEASE_DEFAULT_S 90 /* when the server does not say */

struct nf4_slot {
    uint32_t seqid;    /* of the next call on the slot */
    uint8_t uncertain; /* the last call got no reply: it may have been seen */
};

/* A delegation being handed back: the file's handle and the call. */
struct nf4_dret {
    struct nf4_call call;
    struct nf4_fh fh;
    int busy;
};

struct nf4_client {
    struct rp_client *rpc;
    struct nf4_client_opts opts;
    struct cm_clock clock;
    enum nf4_state state;
    int established;           /* UP once: later recoveries are not the open's */
    int from_new_client;       /* the session being made follows a new client:
                                  1 its first, 2 one made again before its
                                  RECLAIM_COMPLETE (no new epoch, no reclaim) */
    int stale_seen;            /* this recovery began with STALE_CLIENTID: the
                                  server does not know the client id at all */
    int restarted;             /* the new client follows a server restart */
    uint64_t server_id;        /* EXCHANGE_ID's digest of the server's owner */
    uint64_t reclaim_until_ns; /* the reclaim ends by then at the latest */
    clientid4 clientid;
    sequenceid4 cs_seq;  /* the next CREATE_SESSION's sequence id */
    verifier4 confirm;   /* SETCLIENTID_CONFIRM's (4.0) */
    verifier4 boot_verf; /* the owner's verifier: this client instance */
    char owner[NF4_OWNER_MAX];
    uint32_t owner_len;
    sessionid4 sessionid;
    uint32_t session_gen;  /* + 1 per session */
    uint32_t epoch;        /* + 1 per client established */
    uint32_t clients_made; /* EXCHANGE_IDs or SETCLIENTIDs answered OK */

    /* the fore channel: nslots granted, usable of them in use now */
    struct nf4_slot *slots;
    unsigned nslots, usable, busy, highest;
    uint32_t busy_bits[NF4_SLOT_WORDS];

    uint32_t lease_ms;
    uint64_t last_send_ns;
    uint64_t recovery_start_ns;
    uint64_t recovery_retry_ns; /* 0: none due */

    struct nf4_call *wait_head, *wait_tail; /* for a slot or the session */
    struct nf4_call *held;                  /* DELAY, GRACE: sent again later */
    unsigned pending;                       /* the caller's calls not done */
    int dispatching;

    struct nf4_call ctl;   /* the state calls, one at a time */
    struct nf4_call renew; /* SEQUENCE alone (4.1), RENEW (4.0) */
    struct nf4_dret dret[NF4_DELEGRETURNS];
    struct nf4_attrs server; /* the root's (NF4_MASK_SERVER) */

    struct nf4_client_stats st;
    char last_error[CM_ERR_LEN];
};

/* ---- v4_attr.c ------------------------------------------------------------ */

/* Encodes the attributes of sa (NULL: none) into buf (cap bytes) in number
 * order and their bitmap into words; returns the bytes, or -ENOSPC. */
int nf4__sattr_encode(const struct nf4_sattr *sa, uint32_t words[2], char *buf,
                      size_t cap);

/* ---- v4_kept.c: a kept compound's encoding ----------------------------------- */

/* Keeps c's encoding when c asks for it (nf4_compound_keep) and has none
 * yet: rpcgen encodes it once, into c->kept. */
void nf4__compound_kept(struct nf4_compound *c);
/* The arguments codec of a compound (struct nf4_compound): its kept bytes
 * with SEQUENCE's fields written over, else rpcgen's xdr_COMPOUND4args. */
bool_t nf4__xdr_compound(XDR *x, void *compound);

/* ---- v4_session.c: the state calls and the slot table ----------------------- */

/* Builds the compound of the state step st into c (for the client cl). */
void nf4__state_compound(const struct nf4_client *cl, enum nf4_state st,
                         struct nf4_compound *c);
/* Applies the successful reply r of state step st to cl; returns the next
 * state. */
enum nf4_state nf4__state_apply(struct nf4_client *cl, enum nf4_state st,
                                const struct nf4_res *r);
/* The compounds that end the client: DESTROY_SESSION, DESTROY_CLIENTID. */
void nf4__destroy_session(const struct nf4_client *cl, struct nf4_compound *c);
void nf4__destroy_clientid(const struct nf4_client *cl, struct nf4_compound *c);
/* The lease-keeping compound: SEQUENCE alone (4.1), RENEW (4.0). */
void nf4__renew_compound(const struct nf4_client *cl, struct nf4_compound *c);
/* The name of a state step ("EXCHANGE_ID", "CREATE_SESSION"...). */
const char *nf4__state_name(const struct nf4_client *cl, enum nf4_state st);

/* A free slot below cl->usable (the lowest), marked busy; -1 when none. */
int nf4__slot_get(struct nf4_client *cl);
/* Frees slot s. */
void nf4__slot_put(struct nf4_client *cl, unsigned s);
/* Fresh slots for a new session of n slots. */
void nf4__slots_reset(struct nf4_client *cl, unsigned n);

#endif /* NF4_INT_H */
