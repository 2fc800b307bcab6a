/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * nfsd_names.c - sfs_nfsd's per-directory name -> entry map, three ways
 * side by side (the rule: JudySL or JudyHS unless a benchmark shows the
 * hash faster): the chained FNV-1a hash that src/server/fs.c used (power
 * of two buckets, two entries per bucket on average), JudySL (a trie on the
 * name's bytes) and JudyHS (Judy arrays keyed by length and hash).  For a
 * directory of N names (SFS-style "file_en.000NNN"): insert all, look up
 * each once in random order (hits), look up as many absent names
 * (misses, as a CREATE's EXIST check finds), then remove all.  Best of 3
 * runs, ns per operation, and the ratio of each Judy to the hash.  Run by
 * bench/nfsd.sh (NAMES_ONLY=1 runs only this part).
 *
 *   nfsd_names [-n NAMES]...   (default 30, 1000, 100000)
 */
#include <Judy.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/clock.h"
#include "common/rng.h"

#define NAME_LEN 32

/* ---- the chained hash (fs.c before this benchmark) --------------------- */

struct hent {
    struct hent *next;
    uint32_t hash;
    void *val;
    char name[];
};
struct hmap {
    struct hent **b;
    size_t nb, n;
};

static uint32_t fnv(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

static void *h_get(const struct hmap *m, const char *name)
{
    uint32_t h;

    if (m->nb == 0)
        return NULL;
    h = fnv(name);
    for (struct hent *e = m->b[h & (m->nb - 1)]; e; e = e->next)
        if (e->hash == h && strcmp(e->name, name) == 0)
            return e->val;
    return NULL;
}

static void h_put(struct hmap *m, const char *name, void *val)
{
    size_t len = strlen(name);
    struct hent *e;

    if (m->n + 1 > 2 * m->nb) {
        size_t nb = m->nb ? m->nb * 2 : 8;
        struct hent **b = calloc(nb, sizeof(*b));
        for (size_t i = 0; i < m->nb; i++)
            for (struct hent *x = m->b[i], *nx; x; x = nx) {
                nx = x->next;
                x->next = b[x->hash & (nb - 1)];
                b[x->hash & (nb - 1)] = x;
            }
        free(m->b);
        m->b = b;
        m->nb = nb;
    }
    e = malloc(sizeof(*e) + len + 1);
    e->hash = fnv(name);
    e->val = val;
    memcpy(e->name, name, len + 1);
    e->next = m->b[e->hash & (m->nb - 1)];
    m->b[e->hash & (m->nb - 1)] = e;
    m->n++;
}

static void h_del(struct hmap *m, const char *name)
{
    uint32_t h = fnv(name);
    struct hent **pp = &m->b[h & (m->nb - 1)];

    while (*pp && !((*pp)->hash == h && strcmp((*pp)->name, name) == 0))
        pp = &(*pp)->next;
    if (*pp) {
        struct hent *e = *pp;
        *pp = e->next;
        free(e);
        m->n--;
    }
}

/* ---- the run -------------------------------------------------------------- */

static volatile uintptr_t sink;

static double ns_per(uint64_t t0, size_t n)
{
    return (double)(cm_now_ns() - t0) / (double)n;
}

enum { INS, HIT, MISS, DEL, NPH };
static const char *const phase[NPH] = {"insert", "hit", "miss", "remove"};

/* One run of the four phases for one map kind (0 hash, 1 JudySL, 2 JudyHS). */
static void run(int kind, char (*names)[NAME_LEN], char (*absent)[NAME_LEN],
                const size_t *order, size_t n, double *ns)
{
    struct hmap h = {NULL, 0, 0};
    Pvoid_t sl = NULL, hs = NULL;
    PWord_t slot;
    uint64_t t0;
    uintptr_t acc = 0;
    int rc;

    t0 = cm_now_ns();
    for (size_t i = 0; i < n; i++) {
        if (kind == 0) {
            h_put(&h, names[i], names[i]);
        } else if (kind == 1) {
            JSLI(slot, sl, (uint8_t *)names[i]);
            *slot = (Word_t)names[i];
        } else {
            JHSI(slot, hs, names[i], strlen(names[i]));
            *slot = (Word_t)names[i];
        }
    }
    ns[INS] = ns_per(t0, n);
    for (int ph = HIT; ph <= MISS; ph++) {
        char(*set)[NAME_LEN] = ph == HIT ? names : absent;
        t0 = cm_now_ns();
        for (size_t k = 0; k < n; k++) {
            const char *nm = set[order[k]];
            if (kind == 0) {
                acc += (uintptr_t)h_get(&h, nm);
            } else if (kind == 1) {
                JSLG(slot, sl, (const uint8_t *)nm);
                acc += slot ? *slot : 0;
            } else {
                JHSG(slot, hs, (void *)nm, strlen(nm));
                acc += slot ? *slot : 0;
            }
        }
        ns[ph] = ns_per(t0, n);
    }
    t0 = cm_now_ns();
    for (size_t k = 0; k < n; k++) {
        const char *nm = names[order[k]];
        if (kind == 0) {
            h_del(&h, nm);
        } else if (kind == 1) {
            JSLD(rc, sl, (const uint8_t *)nm);
        } else {
            JHSD(rc, hs, (void *)nm, strlen(nm));
        }
    }
    ns[DEL] = ns_per(t0, n);
    (void)rc;
    sink += acc;
    free(h.b);
}

int main(int argc, char **argv)
{
    static const char *const kinds[] = {"hash", "JudySL", "JudyHS"};
    size_t sizes[8] = {30, 1000, 100000}, nsizes = 3;
    struct cm_rng rng;

    if (argc > 1) {
        nsizes = 0;
        for (int i = 1; i + 1 < argc && nsizes < 8; i += 2)
            if (strcmp(argv[i], "-n") == 0 && atol(argv[i + 1]) > 0)
                sizes[nsizes++] = (size_t)atol(argv[i + 1]);
        if (nsizes == 0) {
            fprintf(stderr, "usage: %s [-n NAMES]...\n", argv[0]);
            return 2;
        }
    }
    cm_rng_seed(&rng, CM_RNG_DEFAULT_SEED);
    printf("%-8s %-7s %10s %10s %10s %10s   (ns per operation, best of 3)\n", "names",
           "map", phase[0], phase[1], phase[2], phase[3]);
    for (size_t s = 0; s < nsizes; s++) {
        size_t n = sizes[s];
        char(*names)[NAME_LEN] = malloc(n * NAME_LEN);
        char(*absent)[NAME_LEN] = malloc(n * NAME_LEN);
        size_t *order = malloc(n * sizeof(*order));
        double best[3][NPH];
        /* repeat the whole outer loop enough times for small directories */
        size_t reps = n < 100000 ? 100000 / n : 1;

        for (size_t i = 0; i < n; i++) {
            snprintf(names[i], NAME_LEN, "file_en.%06zu", i);
            snprintf(absent[i], NAME_LEN, "file_en.%06zu.x", i);
            order[i] = i;
        }
        for (size_t i = n; i > 1; i--) { /* Fisher-Yates, seeded */
            size_t j = cm_rng_below(&rng, (uint32_t)i), t = order[i - 1];
            order[i - 1] = order[j];
            order[j] = t;
        }
        for (int k = 0; k < 3; k++)
            for (int p = 0; p < NPH; p++)
                best[k][p] = 1e18;
        for (int round = 0; round < 3; round++)
            for (int k = 0; k < 3; k++) { /* interleaved: a busy machine hurts all */
                double ns[NPH] = {0};
                for (size_t r = 0; r < reps; r++) {
                    double one[NPH];
                    run(k, names, absent, order, n, one);
                    for (int p = 0; p < NPH; p++)
                        ns[p] += one[p] / (double)reps;
                }
                for (int p = 0; p < NPH; p++)
                    if (ns[p] < best[k][p])
                        best[k][p] = ns[p];
            }
        for (int k = 0; k < 3; k++) {
            printf("%-8zu %-7s", n, kinds[k]);
            for (int p = 0; p < NPH; p++)
                printf(" %10.1f", best[k][p]);
            printf("\n");
        }
        for (int k = 1; k < 3; k++) {
            printf("%-8zu %-7s", n, k == 1 ? "SL/hash" : "HS/hash");
            for (int p = 0; p < NPH; p++)
                printf(" %9.2fx", best[k][p] / best[0][p]);
            printf("\n");
        }
        free(names);
        free(absent);
        free(order);
    }
    return 0;
}
