#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# The 0310 acceptance run with NFSv2 (sfs): 400 ops/s +-1 %, v2 default mix
# within 1.5 points per op.
LOAD_PROG=sfs LOAD_OPTS=
. "$(dirname "$0")/0310_sfs3_udp_load_within_one_percent.t"
