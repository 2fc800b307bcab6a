#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# The 0310 acceptance run over TCP (-Q): 400 ops/s +-1 %, mix within 1.5.
LOAD_PROG=sfs3 LOAD_OPTS=-Q
. "$(dirname "$0")/0310_sfs3_udp_load_within_one_percent.t"
