#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test-summary.sh FILE - the last line of `make test`: the checks passed and
# failed, summed over the lines the runners appended to FILE ("KIND BUILD
# PASSED FAILED"), with one part per kind.
[ -s "$1" ] || { echo "make test: no results recorded"; exit 1; }
awk '
{ p[$1] += $3; f[$1] += $4; P += $3; F += $4; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
END {
    line = ""
    for (i = 0; i < n; i++)
        line = line sprintf("%s%s %d passed, %d failed", i ? "; " : "", order[i], p[order[i]], f[order[i]])
    printf "make test: %d checks passed, %d failed (%s)\n", P, F, line
    exit F > 0
}' "$1"
