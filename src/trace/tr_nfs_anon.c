/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * tr_nfs_anon.c - keyed anonymisation for the nfsdump writer (sfs_trace
 * convert --anonymize KEY).  Every replacement is a function of the key
 * and the original only, so two traces of the same tree anonymise alike,
 * and without the key the originals cannot be recovered: the keyed hash is
 * libsodium's crypto_generichash (BLAKE2b with a key), the one home of
 * libsodium in the tree.
 *   - a file handle keeps its length; its bytes are the keyed hash of the
 *     handle (distinct handles stay distinct but for a 2^-64 chance);
 *   - a name becomes "n" and 16 hex digits of its keyed hash; "." and ".."
 *     stay, so the tree's shape does;
 *   - a path (SYMLINK target, MOUNT path) is anonymised name by name, its
 *     slashes kept;
 *   - an IPv4 or IPv6 address goes through a keyed Feistel permutation of
 *     its bits, so two hosts never merge; an nfsdump host number (already
 *     anonymised by its maker) is kept.
 */
#include <errno.h>
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "common/alloc.h"
#include "trace/tr_nfs_int.h"

struct tr__anon {
    unsigned char key[crypto_generichash_KEYBYTES];
};

int tr__anon_new(struct tr__anon **a, const char *key)
{
    if (sodium_init() < 0)
        return -EIO;
    *a = cm_calloc(1, sizeof(**a));
    if (!*a)
        return -ENOMEM;
    /* the user's key, of any length, hashed to the hash's key size */
    crypto_generichash((*a)->key, sizeof((*a)->key), (const unsigned char *)key,
                       strlen(key), NULL, 0);
    return 0;
}

void tr__anon_free(struct tr__anon *a)
{
    if (a)
        sodium_memzero(a->key, sizeof(a->key));
    free(a);
}

/* out[0..n) = keyed hash of (domain tag, data). */
static void keyed(const struct tr__anon *a, char tag, const void *data, size_t len,
                  unsigned char *out, size_t n)
{
    crypto_generichash_state st;
    unsigned char full[crypto_generichash_BYTES_MAX];
    size_t hn = n < crypto_generichash_BYTES_MIN ? crypto_generichash_BYTES_MIN : n;

    crypto_generichash_init(&st, a->key, sizeof(a->key), hn);
    crypto_generichash_update(&st, (const unsigned char *)&tag, 1);
    crypto_generichash_update(&st, data, len);
    crypto_generichash_final(&st, full, hn);
    memcpy(out, full, n);
}

void tr__anon_fh(struct tr__anon *a, struct nf_fh *fh)
{
    unsigned char out[NF_FH_MAX];

    if (!fh->len)
        return;
    keyed(a, 'h', fh->data, fh->len, out, fh->len);
    memcpy(fh->data, out, fh->len);
}

static void name_n(struct tr__anon *a, const char *s, size_t n, char *out, size_t outlen)
{
    static const char hex[] = "0123456789abcdef";
    unsigned char h[8];
    size_t i;

    if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.') || n == 0) {
        snprintf(out, outlen, "%.*s", (int)n, s);
        return;
    }
    keyed(a, 'n', s, n, h, sizeof(h));
    if (outlen < 18) {
        if (outlen)
            out[0] = '\0';
        return;
    }
    out[0] = 'n';
    for (i = 0; i < 8; i++) {
        out[1 + 2 * i] = hex[h[i] >> 4];
        out[2 + 2 * i] = hex[h[i] & 15];
    }
    out[17] = '\0';
}

void tr__anon_name(struct tr__anon *a, const char *name, char *out, size_t outlen)
{
    name_n(a, name, strlen(name), out, outlen);
}

void tr__anon_path(struct tr__anon *a, const char *path, char *out, size_t outlen)
{
    size_t o = 0;

    if (outlen == 0)
        return;
    out[0] = '\0';
    while (*path && o + 1 < outlen) {
        const char *slash = strchr(path, '/');
        size_t n = slash ? (size_t)(slash - path) : strlen(path);
        char part[32];

        name_n(a, path, n, part, sizeof(part));
        o += (size_t)snprintf(out + o, outlen - o, "%s%s", part, slash ? "/" : "");
        if (o >= outlen) {
            out[outlen - 1] = '\0';
            return;
        }
        path += n + (slash ? 1 : 0);
    }
}

/* A keyed Feistel permutation of n bytes (4 or 16): four rounds over the
 * two halves, each round's function the keyed hash of (round, half). */
static void feistel(struct tr__anon *a, uint8_t *p, size_t n)
{
    uint8_t l[8], r[8], f[8], in[9];
    size_t h = n / 2, i;
    int round;

    memcpy(l, p, h);
    memcpy(r, p + h, h);
    for (round = 0; round < 4; round++) {
        in[0] = (uint8_t)round;
        memcpy(in + 1, r, h);
        keyed(a, 'a', in, h + 1, f, h);
        for (i = 0; i < h; i++) {
            uint8_t t = r[i];
            r[i] = l[i] ^ f[i];
            l[i] = t;
        }
    }
    memcpy(p, l, h);
    memcpy(p + h, r, h);
}

void tr__anon_ep(struct tr__anon *a, struct tr__ep *ep)
{
    if (ep->fam == TR__FAM_V4 || ep->fam == TR__FAM_V6)
        feistel(a, ep->a, ep->len);
}
