#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# call-circles.sh OBJDIR - prints every pair of files of src/ that call each
# other: file A calls a function defined in file B (A's object file needs a
# global text symbol B's defines) and B calls one defined in A.  Reads the
# object files' symbol tables (nm), so it sees the calls the compiler kept,
# not the text; calls through function pointers (a table, a callback) are
# not calls of a file, which is how a lower file reaches back up.  Prints
# "a.c <-> b.c" lines; exits 1 when there is any, 2 when it cannot look.
# Run from the top of the tree.
export LC_ALL=C
objdir=${1:-build/linux/obj}
[ -d "$objdir" ] || { echo "call-circles: no $objdir (build first)" >&2; exit 2; }
command -v nm >/dev/null || { echo "call-circles: nm not installed" >&2; exit 2; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT INT TERM
# defs: "symbol file"; uses: "symbol file"
for o in "$objdir"/*/*.o; do
    [ -e "$o" ] || continue
    f=${o#"$objdir"/}
    f=${f%.o}.c
    case "$f" in bin/*) continue ;; esac # main()s call down, nothing calls them
    [ -e "src/$f" ] || continue          # an object left from a moved file
    nm -g --defined-only "$o" | awk -v f="$f" '$2 == "T" { print $3, f }' >>"$tmp/defs"
    nm -u "$o" | awk -v f="$f" '{ print $NF, f }' >>"$tmp/uses"
done
sort -u "$tmp/defs" >"$tmp/defs.s"
sort -u "$tmp/uses" >"$tmp/uses.s"
# edges "caller callee" between distinct files
join "$tmp/uses.s" "$tmp/defs.s" | awk '$2 != $3 { print $2, $3 }' | sort -u >"$tmp/edges"
awk '{ print $2, $1 }' "$tmp/edges" | sort -u >"$tmp/back"
comm -12 "$tmp/edges" "$tmp/back" | awk '$1 < $2 { print $1, "<->", $2 }' >"$tmp/circles"
cat "$tmp/circles"
[ ! -s "$tmp/circles" ]
