#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0003_no_external_citations.t - the tree cites only what a clone holds:
# no code comment, doc, test, script or report text names a file outside
# the repository or an issue number (docs/STYLE.md 2.8).  The project's own
# docs take their place: docs/SFS30.md, docs/DECISIONS.md, docs/STYLE.md,
# docs/TRACE_FORMATS.md, docs/NFS_TRACES.md, docs/TESTING.md.  The scan is
# tests/tools/citations.sh; this test first shows, on a copy of the tree
# with one reference of each kind planted in it, that the scan finds them.
# timeout: 180
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || bail "no tree"

# An exclusion, to show the scan's -x at work (check 3); the tree itself
# is scanned whole (check 4).
excl=(-x src/load)

scan=tests/tools/citations.sh
plan 4

# 1. The scan finds every kind of reference it must (written in pieces, so
#    that this file does not match itself): a copy of a few clean files with
#    one planted reference per line, each on its own line.
copy=$T_DIR/tree
mkdir -p "$copy/src/common" "$copy/docs" "$copy/tests/integration" "$copy/src/load"
cp src/common/rng.c "$copy/src/common/rng.c"
cp docs/SFS30.md docs/STYLE.md "$copy/docs/"
sect=$(printf '\302\247') # the section sign
planted=(
    "/* see sfs-""reference ${sect}8 */"
    "/* see deci""sions.md D5 */"
    "/* see sty""le.md 2.4 */"
    "/* see trace-""formats.md 2.2 */"
    "/* see nfs-""traces.md */"
    "/* see test-""environment.md 3.8 */"
    "/* see road""map.md */"
    "/* see ../sha""red/spec/x.md */"
    "/* fixed for iss""ue 12 */"
    "/* Iss""ues 8-15 */"
    "/* the pacer (${sect}9) */"
)
for p in "${planted[@]}"; do printf '%s\n' "$p" >>"$copy/src/common/rng.c"; done
printf '%s\n' "A user reads (4; sfs-""reference 17.2) here." >>"$copy/docs/STYLE.md"
printf '%s\n' "# iss""ue 9: a stalled server" >"$copy/tests/integration/9999_x.t"
printf '%s\n' "/* deci""sions.md D7 */" >"$copy/src/load/pacing.c"
found=$("$scan" "$copy" | sort)
want=$((${#planted[@]} + 3))
is "$(printf '%s\n' "$found" | grep -c .)" "$want" \
    "the scan finds each of the $want planted references"
diag_found=$(printf '%s\n' "$found" | grep -c '^src/common/rng.c:')
[ "$diag_found" = "${#planted[@]}" ] || diag "found in rng.c: $found"

# 2. What it must not flag: the project's own docs cited with their
#    sections, the section signs inside docs/SFS30.md, ordinary words.
printf '%s\n' \
    "/* docs/SFS30.md §17.2, §17.3; docs/DECISIONS.md D7; docs/STYLE.md 2.8 */" \
    "/* docs/TRACE_FORMATS.md 2.4; docs/TESTING.md, \"Peers\"; issue lag p99 */" \
    >"$copy/src/common/clean.c"
is "$("$scan" "$copy" | grep -c -e '^src/common/clean.c:' -e '^docs/SFS30.md:')" 0 \
    "the project's own docs, cited with their sections, are not flagged"

# 3. An excluded path is left out, and only it.
is "$("$scan" "${excl[@]}" "$copy" | grep -c -e '^src/load/' -e '^src/common/')" "${#planted[@]}" \
    "an excluded path is left out, the others are still scanned"

# 4. The tree itself.
hits=$("$scan" .)
is "$(printf '%s' "$hits" | grep -c .)" 0 "no reference to files outside the repository or to issue numbers"
[ -z "$hits" ] || diag "$hits"
