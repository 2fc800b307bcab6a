/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_trace_detect.c - libFuzzer driver for format detection and the
 * analysis behind it: the input is read with the format detected (so that
 * tr_probe and the per-format reasons of a failed detection, reader.c, see
 * every input) in strict and lenient mode, and each record goes to the
 * statistics (footprint runs) and to an exact and a sampled miss-ratio
 * analysis with a small --max-record-blocks, so that any record stays cheap.
 * Nothing may crash, leak or hang. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analyze/az.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct az_mrc exact, sampled;
    int lenient;

    if (size == 0)
        return 0; /* fmemopen refuses empty buffers */
    for (lenient = 0; lenient < 2; lenient++) {
        struct tr_options o = {.lenient = lenient};
        struct az_mrc_opts eo = {.block_size = 512,
                                 .max_record_blocks = 4096,
                                 .lenient = lenient,
                                 .per_unit = 1,
                                 .isolated = 1};
        struct az_mrc_opts so = eo;
        struct tr_reader r;
        struct tr_record rec;
        struct az_stats st;
        char err[CM_ERR_LEN];
        FILE *fp = fmemopen((void *)data, size, "rb");
        unsigned n = 0;

        if (!fp)
            return 0;
        so.sample_rate = 0.5;
        az_stats_init(&st, 512);
        if (az_mrc_init(&exact, &eo, err, sizeof(err)) == 0 &&
            az_mrc_init(&sampled, &so, err, sizeof(err)) == 0 &&
            tr_reader_open(&r, "fuzz", fp, &o, err, sizeof(err)) == 0) {
            while (n++ < 20000 && tr_reader_next(&r, &rec) > 0) {
                az_stats_record(&st, &rec);
                az_mrc_record(&exact, &rec);
                az_mrc_record(&sampled, &rec);
            }
            az_mrc_finish(&sampled);
            tr_reader_close(&r);
        }
        az_mrc_free(&exact);
        az_mrc_free(&sampled);
        az_stats_free(&st);
        fclose(fp);
    }
    return 0;
}
