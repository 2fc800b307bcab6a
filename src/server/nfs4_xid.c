/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfs4_xid.c - NFSv4.0's reply cache by XID (server layer).  A 4.0 request
 * sent again with the same XID (a client that lost the reply, or one that
 * retransmits over the same connection) gets the reply its first run
 * produced, not a second run: a CREATE or a REMOVE run twice answers EXIST
 * or NOENT to a request that succeeded (RFC 7530 3.1 leaves the duplicate
 * request cache to the server; pynfs's RPLY tests expect one).  Owner
 * seqids (nfs4_state.c) cover only the operations that carry one; 4.1 has
 * the session's slots instead, so this cache serves minor version 0 only.
 *
 * Only compounds that changed something are kept (a read-only one runs
 * again to the same effect), only replies of up to SV4_XID_REPLY_MAX
 * bytes, in a direct-mapped table of SV4_XID_ENTRIES indexed by the XID:
 * the lookup every 4.0 compound pays is one compare, and an entry's
 * buffer, once made, is reused by every later reply stored there (no
 * allocation per call).  A hit needs the same XID, the same peer address
 * and the same arguments (a hash, as the slots' false-retry check), so a
 * new request that reuses an XID is run, not answered from the cache.
 */
#include "server/nfs4_int.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

/* Operations whose second run would not answer as the first did (or would
 * change the server again). */
static int changes_state(uint32_t op)
{
    switch (op) {
    case OP_CLOSE:
    case OP_CREATE:
    case OP_DELEGRETURN:
    case OP_LINK:
    case OP_LOCK:
    case OP_LOCKU:
    case OP_OPEN:
    case OP_OPEN_CONFIRM:
    case OP_OPEN_DOWNGRADE:
    case OP_RELEASE_LOCKOWNER:
    case OP_REMOVE:
    case OP_RENAME:
    case OP_SETATTR:
    case OP_SETCLIENTID:
    case OP_SETCLIENTID_CONFIRM:
    case OP_WRITE:
        return 1;
    default:
        return 0;
    }
}

void sv4_xid_note_op(struct sv4_call *x, uint32_t op)
{
    if (x->minor == 0 && changes_state(op))
        x->xid_keep = 1;
}

/* FNV-1a over the peer's address. */
static uint64_t peer_hash(const char *peer)
{
    uint64_t h = 14695981039346656037ull;

    for (; *peer != '\0'; peer++)
        h = (h ^ (uint8_t)*peer) * 1099511628211ull;
    return h;
}

static struct sv4_xid_entry *entry_of(struct sv4 *v, uint32_t xid)
{
    return v->xid_cache != NULL ? &v->xid_cache[xid % SV4_XID_ENTRIES] : NULL;
}

int sv4_xid_lookup(struct sv4_call *x, uint32_t xid, const uint8_t **reply, uint32_t *len)
{
    struct sv4_xid_entry *e = entry_of(x->v, xid);

    if (e == NULL || e->len == 0 || e->xid != xid)
        return 0;
    if (e->peer_hash != peer_hash(x->c->peer) ||
        e->req_hash != sv4_request_hash(x->req_args, x->req_args_len))
        return 0; /* the XID reused by another request, or another peer */
    x->v->xid_replays++;
    *reply = e->reply;
    *len = e->len;
    return 1;
}

void sv4_xid_store(struct sv4_call *x, uint32_t xid, const uint8_t *reply, uint32_t len)
{
    struct sv4 *v = x->v;
    struct sv4_xid_entry *e;

    if (!x->xid_keep || len > SV4_XID_REPLY_MAX)
        return;
    if (v->xid_cache == NULL &&
        (v->xid_cache = cm_calloc(SV4_XID_ENTRIES, sizeof(*v->xid_cache))) == NULL)
        return; /* no cache: retransmissions run again, as before it */
    e = entry_of(v, xid);
    e->len = 0;
    if (e->reply == NULL && (e->reply = cm_malloc(SV4_XID_REPLY_MAX)) == NULL)
        return;
    memcpy(e->reply, reply, len);
    e->xid = xid;
    e->len = len;
    e->peer_hash = peer_hash(x->c->peer);
    e->req_hash = sv4_request_hash(x->req_args, x->req_args_len);
}

void sv4_xid_free(struct sv4 *v)
{
    if (v->xid_cache == NULL)
        return;
    for (uint32_t i = 0; i < SV4_XID_ENTRIES; i++)
        free(v->xid_cache[i].reply);
    free(v->xid_cache);
    v->xid_cache = NULL;
}
