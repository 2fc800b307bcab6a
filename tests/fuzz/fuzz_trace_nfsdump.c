/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_trace_nfsdump.c - libFuzzer driver for the nfsdump text reader
 * (src/trace/tr_nfs_text.c) and, on what it reads, the pairing and the
 * nfsdump writer with and without anonymisation: the input is a text trace
 * from memory (fmemopen), read in strict and in lenient mode; every event is
 * written back as nfsdump to memory.  The reader must end with events or a
 * message, never a crash, a leak or undefined behaviour.
 */
#include <stdint.h>
#include <stdio.h>

#include "trace/tr_nfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static char out[1 << 16];
    int lenient;

    if (size == 0)
        return 0; /* fmemopen refuses empty buffers */
    for (lenient = 0; lenient < 2; lenient++) {
        struct tr_nfs_options o = {.format = "nfsdump", .lenient = lenient};
        struct tr_nfs_write_options wo = {.anon_key = lenient ? "fuzz" : NULL};
        struct tr_nfs_reader *r;
        struct tr_nfs_writer *w = NULL;
        struct tr_nfs_event ev;
        char err[CM_ERR_LEN];
        FILE *fp = fmemopen((void *)data, size, "rb");
        FILE *wf = fmemopen(out, sizeof(out), "wb");
        unsigned n = 0;

        if (!fp || !wf) {
            if (fp)
                fclose(fp);
            if (wf)
                fclose(wf);
            return 0;
        }
        if (tr_nfs_open_fp(&r, fp, "fuzz", &o, err, sizeof(err)) == 0) {
            if (tr_nfs_writer_open(&w, wf, r, &wo, err, sizeof(err)) < 0)
                w = NULL;
            while (n++ < 100000 && tr_nfs_next(r, &ev) > 0)
                if (w)
                    tr_nfs_write(w, &ev);
            tr_nfs_writer_close(w, err, sizeof(err));
            tr_nfs_close(r);
        }
        fclose(wf);
        fclose(fp);
    }
    return 0;
}
