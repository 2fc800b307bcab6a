/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_server_decode.c - libFuzzer driver for sfs_nfsd's request path: each
 * input is one RPC message handed to sv_core_handle (header decoding,
 * program/version/procedure dispatch, argument decoding, the handlers on
 * the in-memory file system, reply encoding).  The core is fixed to
 * instance 1 so that the seed corpus (tests/fuzz/corpus/fuzz_server_decode/)
 * can carry valid handles (root: file id 2, /export: file id 3), and it is
 * rebuilt every 20000 inputs so that files the fuzzer creates stay bounded.
 */
#include "server/sv.h"

#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct sv_core *core;
    static unsigned runs;
    static uint8_t out[SV_REPLY_MAX];
    struct sv_config cfg;
    char err[256];

    if (core == NULL || ++runs % 20000 == 0) {
        sv_core_destroy(core);
        sv_config_defaults(&cfg);
        cfg.instance = 1;
        cfg.max_bytes = 8 * 1024 * 1024;
        core = sv_core_create(&cfg, err, sizeof(err));
        if (core == NULL)
            abort();
    }
    /* the last bit of the length picks the transport limits (UDP or TCP) */
    sv_core_handle(core, data, size, out, sizeof(out), "fuzz", (int)(size & 1));
    return 0;
}
