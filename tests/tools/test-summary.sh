#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# test-summary.sh FILE [LABEL] - the last lines of `make test` (or LABEL's): each stage with its
# wall time and result ("stage NAME STATUS SECONDS" lines, from
# tests/tools/make-test.sh), then the checks passed and failed, summed over
# the lines the runners appended to FILE ("KIND BUILD PASSED FAILED"), with
# one part per kind, and the stages that failed.  Exits non-zero when a
# check or a stage failed.
label=${2:-make test}
[ -s "$1" ] || { echo "$label: no results recorded"; exit 1; }
awk -v label="$label" '
$1 == "stage" {
    st = st sprintf("%s%s %d s%s", ns++ ? ", " : "", $2, $4, $3 == 0 ? "" : " FAILED")
    if ($3 != 0) bad = bad (bad == "" ? "" : ", ") $2
    next
}
{ p[$1] += $3; f[$1] += $4; P += $3; F += $4; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
END {
    if (ns) printf "stages: %s\n", st
    line = ""
    for (i = 0; i < n; i++)
        line = line sprintf("%s%s %d passed, %d failed", i ? "; " : "", order[i], p[order[i]], f[order[i]])
    printf "%s: %d checks passed, %d failed (%s)%s\n", label, P, F, line,
        bad == "" ? "" : "; stages failed: " bad
    exit F > 0 || bad != ""
}' "$1"
