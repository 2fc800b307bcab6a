/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * load_choice.c - the per-call cost of the load model's choices as the
 * working set grows 1x, 10x, 100x (and 1000x): a cyclical Poisson group
 * draw (D5, binary search over 12 x cycles ranges) and a file draw (group,
 * then a file in it), plus the constant-size op and transfer-size draws for
 * reference.  The group draw must grow with log(groups), not with W.  Run by
 * bench/load.sh; prints one line per size and a final "log check" line.
 *
 *   load_choice [-n DRAWS]     (default 1 000 000 draws per measurement)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cm.h"
#include "common/clock.h"
#include "common/rng.h"
#include "load/iodist.h"
#include "load/mix.h"
#include "load/workset.h"

static volatile uint64_t sink; /* keeps the draws from being optimised out */

/* Best of three runs, in ns per draw. */
#define MEASURE(result, n, body)                                                         \
    do {                                                                                 \
        int rep_;                                                                        \
        (result) = 1e18;                                                                 \
        for (rep_ = 0; rep_ < 3; rep_++) {                                               \
            uint64_t t0_ = cm_now_ns(), acc_ = 0;                                        \
            uint32_t i_;                                                                 \
            for (i_ = 0; i_ < (n); i_++)                                                 \
                acc_ += (body);                                                          \
            sink += acc_;                                                                \
            double ns_ = (double)(cm_now_ns() - t0_) / (double)(n);                      \
            if (ns_ < (result))                                                          \
                (result) = ns_;                                                          \
        }                                                                                \
    } while (0)

int main(int argc, char **argv)
{
    static const uint32_t sizes[] = {975, 9750, 97500, 975000};
    uint32_t draws = 1000000;
    double group_ns[4];
    int log2g[4];
    struct cm_rng rng;
    struct ld_mix mix;
    struct ld_iodist io;
    struct ld_opsel sel;
    struct ld_xfer x;
    double op_ns, xfer_ns;
    size_t i;

    if (argc == 3 && strcmp(argv[1], "-n") == 0 && atol(argv[2]) > 0)
        draws = (uint32_t)atol(argv[2]);
    else if (argc != 1) {
        fprintf(stderr, "usage: %s [-n DRAWS]\n", argv[0]);
        return 2;
    }
    cm_rng_seed(&rng, CM_RNG_DEFAULT_SEED);

    printf("load_choice: %u draws per figure, best of 3\n", draws);
    printf("%-10s %8s %8s %12s %12s\n", "W", "x", "groups", "group ns", "file ns");
    for (i = 0; i < CM_ARRAY_LEN(sizes); i++) {
        struct ld_workset ws;
        double file_ns;
        uint32_t g;

        if (ld_workset_init(&ws, sizes[i]) < 0) {
            fprintf(stderr, "load_choice: cannot build a working set of %u\n", sizes[i]);
            return 1;
        }
        MEASURE(group_ns[i], draws, ld_workset_draw_group(&ws, &rng));
        MEASURE(file_ns, draws, ld_workset_draw_file(&ws, &rng, NULL));
        log2g[i] = 0;
        for (g = ws.ngroups; g > 1; g >>= 1)
            log2g[i]++;
        printf("%-10u %8u %8u %12.1f %12.1f\n", sizes[i], sizes[i] / sizes[0], ws.ngroups,
               group_ns[i], file_ns);
        ld_workset_free(&ws);
    }

    ld_mix_default(&mix, 3);
    ld_iodist_default(&io, 8);
    ld_opsel_init(&sel, &mix, &io, 3, 0);
    MEASURE(op_ns, draws, (uint32_t)ld_opsel_draw(&sel, &rng));
    MEASURE(xfer_ns, draws, (ld_iodist_draw(&io, 1, &rng, &x), x.bytes));
    printf("op choice (v3 default mix): %.1f ns; transfer size draw: %.1f ns\n", op_ns,
           xfer_ns);
    /* 100x the files is 10x..11x the groups' log2: the cost may grow by a few
     * binary-search steps, never by the factor 100 */
    printf("log check: group draw at 100x costs %.2fx the 1x draw "
           "(search steps %d -> %d; linear growth would be 100x)\n",
           group_ns[2] / group_ns[0], log2g[0] + 1, log2g[2] + 1);
    return 0;
}
