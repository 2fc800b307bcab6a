/* SPDX-License-Identifier: BSD-2-Clause */
/* fuzz_trace_masta.c - libFuzzer driver for the masta trace reader
 * (src/trace/masta.c); the body is fuzz_trace_common.h. */
#include "fuzz_trace_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_trace("masta", data, size);
}
