/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_hosts.c - the hosts an NFS trace names: numbered in the order
 * events first name them (an open-addressing index over the endpoints,
 * bounded by TR__HOSTS_MAX), and written as an address or, for a host an
 * anonymised nfsdump text numbered, its hex digits as the text had them.
 * The pairing numbers each event's client and server here; the writer and
 * the reader's interface (tr_nfs_client_name) name them.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "trace/tr_nfs_int.h"

static uint64_t ep_hash(const struct tr__ep *ep)
{
    uint64_t h = 0xcbf29ce484222325ull ^ ep->fam ^ ((uint64_t)ep->len << 8);
    unsigned i;

    for (i = 0; i < 16; i++)
        h = (h ^ ep->a[i]) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

static int ep_same_host(const struct tr__ep *a, const struct tr__ep *b)
{
    return a->fam == b->fam && a->len == b->len && memcmp(a->a, b->a, 16) == 0;
}

static int hosts_grow(struct tr__hosts *h)
{
    uint32_t cap = h->tab_cap ? h->tab_cap * 2 : 64, i;
    uint32_t *tab = cm_calloc(cap, sizeof(*tab));

    if (!tab)
        return -ENOMEM;
    for (i = 0; i < h->n; i++) {
        uint32_t j = (uint32_t)ep_hash(&h->eps[i]) & (cap - 1);
        while (tab[j])
            j = (j + 1) & (cap - 1);
        tab[j] = i + 1;
    }
    free(h->tab);
    h->tab = tab;
    h->tab_cap = cap;
    return 0;
}

int tr__host_index(struct tr__hosts *h, const struct tr__ep *ep, uint32_t *index)
{
    uint32_t j;

    if ((h->n + 1) * 2 > h->tab_cap && hosts_grow(h) < 0)
        return -ENOMEM;
    j = (uint32_t)ep_hash(ep) & (h->tab_cap - 1);
    while (h->tab[j]) {
        if (ep_same_host(&h->eps[h->tab[j] - 1], ep)) {
            *index = h->tab[j] - 1;
            return 0;
        }
        j = (j + 1) & (h->tab_cap - 1);
    }
    if (h->n == TR__HOSTS_MAX)
        return -E2BIG;
    if (h->n == h->cap) {
        uint32_t cap = h->cap ? h->cap * 2 : 16;
        struct tr__ep *eps = cm_reallocarray(h->eps, cap, sizeof(*eps));
        if (!eps)
            return -ENOMEM;
        h->eps = eps;
        h->cap = cap;
    }
    h->eps[h->n] = *ep;
    h->eps[h->n].port = 0;
    h->tab[j] = ++h->n;
    *index = h->n - 1;
    return 0;
}

void tr__hosts_free(struct tr__hosts *h)
{
    free(h->eps);
    free(h->tab);
    memset(h, 0, sizeof(*h));
}

const struct tr__ep *tr__host(const struct tr_nfs_reader *r, uint32_t i)
{
    return i < r->hosts.n ? &r->hosts.eps[i] : NULL;
}

const char *tr__ep_name(const struct tr__ep *ep, char *buf, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t i, o = 0;

    if (ep->fam == TR__FAM_V4 || ep->fam == TR__FAM_V6) {
        if (!inet_ntop(ep->fam == TR__FAM_V4 ? AF_INET : AF_INET6, ep->a, buf,
                       (socklen_t)len))
            snprintf(buf, len, "?");
        return buf;
    }
    /* the hex digits as the text wrote them: the last len nibbles */
    for (i = 32 - ep->len; i < 32 && o + 1 < len; i++)
        buf[o++] = hex[(ep->a[i / 2] >> (i % 2 ? 0 : 4)) & 15];
    buf[o] = '\0';
    return buf;
}

const char *tr_nfs_client_name(const struct tr_nfs_reader *r, uint32_t i, char *buf,
                               size_t len)
{
    const struct tr__ep *ep = tr__host(r, i);

    if (!ep) {
        snprintf(buf, len, "?");
        return buf;
    }
    return tr__ep_name(ep, buf, len);
}

uint32_t tr_nfs_nhosts(const struct tr_nfs_reader *r)
{
    return r->hosts.n;
}
