/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * fuzz_common_rc.c - libFuzzer driver for the rc-file parser
 * (src/common/rc.c; docs/DECISIONS.md D9): any bytes either parse or give
 * FILE:LINE errors; every value that parsed splits into words.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/rc.h"
#include "common/error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[CM_ERR_LEN];
    struct cm_rc rc;
    size_t i;

    (void)cm_rc_parse(&rc, "fuzz_rc", (const char *)data, size, NULL, NULL, NULL, err,
                      sizeof(err));
    for (i = 0; i < rc.n; i++) {
        char **w = NULL;
        if (cm_rc_split(rc.vars[i].value, &w, 1000000) >= 0)
            free(w);
    }
    cm_rc_free(&rc);
    return 0;
}
