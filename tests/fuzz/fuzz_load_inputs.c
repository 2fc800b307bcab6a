/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_load_inputs.c - libFuzzer driver for the load generator's input
 * files: the mix file parsers (version 2 and nfsstat version 1, for v2 and
 * v3 runs) and the block-size distribution parser (src/load/mix.c,
 * iodist.c).  The first byte picks the parser and the NFS version; a file
 * that parses must also give a usable op selector and transfer draws.
 */
#include <stddef.h>
#include <stdint.h>

#include "common/error.h"
#include "common/rng.h"
#include "load/iodist.h"
#include "load/mix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CM_ERR_LEN];
    struct ld_iodist d;
    struct ld_mix m;
    struct ld_opsel sel;
    struct ld_xfer x;
    struct cm_rng rng;
    int version, i;

    if (size < 1)
        return 0;
    version = (data[0] & 1) ? 3 : 2;
    cm_rng_seed(&rng, 1);
    ld_iodist_default(&d, 8);
    if (data[0] & 2) {
        if (ld_iodist_parse(&d, 1 + (data[0] >> 5), "fuzz.iodist", (const char *)data + 1,
                            size - 1, NULL, err, sizeof(err)) != 0)
            return 0;
        for (i = 0; i < 64; i++)
            ld_iodist_draw(&d, i & 1, &rng, &x);
        return 0;
    }
    if (ld_mix_parse(&m, version, "fuzz.mix", (const char *)data + 1, size - 1, NULL, err,
                     sizeof(err)) != 0)
        return 0;
    if (ld_opsel_init(&sel, &m, &d, version, data[0] & 4) == 0)
        for (i = 0; i < 64; i++)
            (void)ld_opsel_draw(&sel, &rng);
    return 0;
}
