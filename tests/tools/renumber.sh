#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# renumber.sh [-n] [MAP] - gives integration tests new numbers from a map
# file (tests/tools/renumber.map by default) and fixes every reference to
# them in the tracked text files: the file names (NNNN_behaviour, wherever
# they are written) and the bare numbers ("test 0370", "`1305`").  -n only
# prints what it would do.  docs/TESTING.md, "Numbering", says what the
# groups are.
#
# The map has one line per test, "OLD NEW" or, for two files sharing a
# number, "OLD NEW NAME" (the old file name without ".t"; its bare number
# is then left alone, being ambiguous, and reported while both files have
# it), and "free RANGE..."
# lines: numbers kept for tests being written elsewhere, which no NEW may
# take.  No NEW may be a number in use or an OLD of the map, so that
# running the script again - after a merge brought files or text that
# still use old numbers - renames and fixes only those: it is idempotent.
# A test's ports and lock come from its number modulo 1000
# (tests/integration/lib.sh), so no two tests may share that either.
#
# Bare numbers are rewritten only in prose (Markdown, comment lines) and
# where they stand as numbers of tests: not inside a longer number, a
# version or a fraction ("1021/1307"; code's "srand(1302)" stays), and
# every such rewrite is printed as FILE:LINE for review; a range
# ("0370-0381") whose ends move apart is printed as a warning to fix by
# hand, and so is prose about the groups (docs/TESTING.md).
#
#   tests/tools/renumber.sh [-n] [MAP]
set -eu
cd "$(dirname "$0")/../.."
dry=0
if [ "${1:-}" = -n ]; then
    dry=1
    shift
fi
map=${1:-tests/tools/renumber.map}
[ -r "$map" ] || {
    echo "renumber: cannot read $map" >&2
    exit 2
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the map, checked: "OLD NEW NAME" rows (NAME empty when the number is one
# file's) in $work/rows, the free numbers in $work/free
awk -v out="$work/rows" -v freeout="$work/free" '
function bad(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg > "/dev/stderr"; err = 1 }
/^[ \t]*(#|$)/ { next }
$1 == "free" {
    for (i = 2; i <= NF; i++) {
        n = split($i, r, "-")
        if (n > 2 || r[1] !~ /^[0-9][0-9][0-9][0-9]$/ || (n == 2 && r[2] !~ /^[0-9][0-9][0-9][0-9]$/)) {
            bad("a free range is NNNN or NNNN-NNNN, not " $i); continue
        }
        hi = n == 2 ? r[2] : r[1]
        for (k = r[1] + 0; k <= hi + 0; k++) print k > freeout
    }
    next
}
{
    if ($1 !~ /^[0-9][0-9][0-9][0-9]$/ || $2 !~ /^[0-9][0-9][0-9][0-9]$/ || NF > 3) {
        bad("expected OLD NEW [NAME], four-digit numbers"); next
    }
    if ($3 != "" && index($3, $1 "_") != 1) { bad($3 " is not a name of test " $1); next }
    key = $3 != "" ? $3 : $1
    if (key in seen) { bad(key " is mapped twice"); next }
    if ($2 in target) { bad($2 " is the new number of two tests"); next }
    seen[key] = 1; target[$2] = 1; old[$1] = 1
    print $1, $2, $3 > out
}
END {
    for (t in target) if (t in old) { print FILENAME ": " t " is both an old and a new number" > "/dev/stderr"; err = 1 }
    exit err
}' "$map"
touch "$work/rows" "$work/free"

# the tests as they are, "NUMBER NAME" per file
for t in tests/integration/[0-9][0-9][0-9][0-9]_*.t; do
    [ -e "$t" ] || continue
    t=${t##*/}
    echo "${t%%_*} ${t%.t}"
done >"$work/tests"

# the renames: a row's file, if it is still there; "OLD NEW REST" for the
# text, from the file renamed now or from the file already renamed before
status=0
: >"$work/renames"
: >"$work/names"
: >"$work/dups"
while read -r o n name; do
    if [ -n "$name" ]; then
        from=$(awk -v w="$name" '$2 == w { print $2 }' "$work/tests")
    else
        from=$(awk -v o="$o" '$1 == o { print $2 }' "$work/tests")
    fi
    if [ "$(printf '%s\n' "$from" | grep -c .)" -gt 1 ]; then
        echo "renumber: $o names $(printf '%s\n' "$from" | tr '\n' ' '): give each its NAME in the map" >&2
        status=1
        continue
    fi
    if [ -n "$from" ]; then
        rest=${from#????_}
        echo "$from $n" >>"$work/renames"
        # the number still names two files in the text written so far
        [ -z "$name" ] || echo "$o" >>"$work/dups"
    else
        # already renamed (a second run): the new file tells the rest
        new=$(awk -v n="$n" '$1 == n { print $2 }' "$work/tests")
        [ -n "$new" ] || continue
        rest=${new#????_}
        # a NAME row's file already renamed: only that name matches
        [ -z "$name" ] || [ "$name" = "${o}_$rest" ] || continue
    fi
    echo "$o $n $rest" >>"$work/names"
done <"$work/rows"
[ "$status" -eq 0 ] || exit "$status"

# the tests as they will be: no number twice, no two alike modulo 1000 (the
# ports and locks), no new number in a free range
awk -v renames="$work/renames" -v free="$work/free" '
BEGIN {
    while ((getline l < renames) > 0) { split(l, f, " "); to[f[1]] = f[2] }
    while ((getline l < free) > 0) isfree[l + 0] = 1
}
{
    n = ($2 in to) ? to[$2] : $1
    if (($2 in to) && (n + 0) in isfree) {
        print "renumber: " $2 " would take " n ", a free number (kept for tests written elsewhere)" > "/dev/stderr"; err = 1
    }
    m = (n + 0) % 1000
    if (m in mod) {
        print "renumber: " mod[m] " and " $2 " would share ports and lock (" n " modulo 1000)" > "/dev/stderr"; err = 1
    }
    mod[m] = $2
}
END { exit err }' "$work/tests" || exit 1

# the renames
while read -r from n; do
    echo "rename tests/integration/$from.t -> ${n}_${from#????_}.t"
    [ "$dry" -eq 1 ] || git mv "tests/integration/$from.t" "tests/integration/${n}_${from#????_}.t"
done <"$work/renames"

# the references: every tracked text file but fixtures and fuzz corpora
# (data, where a number is never a test's)
git ls-files -z | tr '\0' '\n' |
    grep -v -e '^tests/fixtures/' -e '^tests/fuzz/corpus/' -e '^tests/tools/renumber' >"$work/files"
rc=0
while read -r f; do
    [ -f "$f" ] || continue
    grep -Iq . "$f" 2>/dev/null || continue
    grep -q '[0-9][0-9][0-9][0-9]' "$f" || continue
    awk -v names="$work/names" -v rows="$work/rows" -v dups="$work/dups" -v file="$f" '
    BEGIN {
        while ((getline l < names) > 0) {
            split(l, w, " "); full[w[1] "_" w[3]] = w[2] "_" w[3]
        }
        while ((getline l < rows) > 0) {
            k = split(l, w, " ")
            if (k == 2) bare[w[1]] = w[2]
        }
        while ((getline l < dups) > 0) dup[l] = 1
    }
    function log_(kind, msg) { print kind " " file ":" FNR ": " msg > "/dev/stderr" }
    {
        line = $0; out = ""
        # a bare number is a test'"'"'s in prose only: documents and comments
        prose = file ~ /\.md$/ || $0 ~ /^[ \t]*(#|\/\/|\/\*|\*)/
        while (match(line, /[0-9][0-9][0-9][0-9]/)) {
            pre = substr(line, 1, RSTART - 1); num = substr(line, RSTART, 4)
            post = substr(line, RSTART + 4)
            before = substr(pre, length(pre), 1); before2 = substr(pre, length(pre) - 1, 1)
            after = substr(post, 1, 1); after2 = substr(post, 2, 1)
            rep = num
            if (before ~ /[0-9]/) {
                # inside a longer number
            } else if (after == "_") {
                match(post, /^_[a-z0-9_]*/)
                name = num substr(post, 1, RLENGTH)
                # the longest known name the text starts with
                for (k = length(name); k > 5; k--) {
                    if (substr(name, 1, k) in full) { rep = substr(full[substr(name, 1, k)], 1, 4); break }
                }
            } else if (prose && after !~ /[0-9A-Za-z\/]/ && !((after == "," || after == ".") && after2 ~ /[0-9]/) &&
                       (before == "" || index(" \t(`\047\"=[-", before) || (before == "/" && before2 ~ /[a-z]/))) {
                if (num in bare) {
                    rep = bare[num]
                    log_("bare", num " -> " rep)
                    if (before == "-" || after == "-") log_("WARNING range", "check by hand: " $0)
                } else if (num in dup) {
                    log_("WARNING ambiguous", num " names two tests: fix by hand")
                }
            }
            out = out pre rep
            line = post
        }
        print out line
    }' "$f" >"$work/out" 2>>"$work/log" || rc=1
    if ! cmp -s "$f" "$work/out"; then
        echo "edit $f"
        [ "$dry" -eq 1 ] || cat "$work/out" >"$f"
    fi
done <"$work/files"
cat "$work/log"
exit "$rc"
