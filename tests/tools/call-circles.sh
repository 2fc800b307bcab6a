#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# call-circles.sh - lists the file-level call circles of the tree from its
# object files' symbol tables: a pair of sources A and B where A calls (or
# takes the address of) a function defined in B and B one defined in A
# (docs/STYLE.md 2.2).  A reference to a data symbol - an ops table of
# function pointers, a const table - is not a call: a transport or a trace
# reader registered in its core's table and calling the core's helpers is
# the one-way shape of docs/STYLE.md 2.5.
#
#   tests/tools/call-circles.sh [-x DIR]... OBJDIR
#
# OBJDIR is build/<wrapper>/obj; -x leaves out the objects of a source
# directory (e.g. -x load, for build/linux/obj/load).  Prints one line per
# circle, "a.c <-> b.c: a calls f, g; b calls h", and nothing when there is
# none.  Exit status 0, or 2 on a usage error.
set -u
excl=" "
while [ $# -gt 0 ]; do
    case "$1" in
    -x) [ $# -ge 2 ] || { echo "usage: $0 [-x DIR]... OBJDIR" >&2; exit 2; }
        excl="$excl$2 "; shift 2 ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: $0 [-x DIR]... OBJDIR" >&2; exit 2; }
obj=${1%/}
find "$obj" -name '*.o' | sort | while read -r o; do
    f=${o#"$obj"/}
    case "$excl" in *" ${f%%/*} "*) continue ;; esac
    case "$f" in bin/*) continue ;; esac
    nm "$o" | awk -v f="src/${f%.o}.c" '
        $1 == "U" { print "U", f, $2 }
        $2 == "T" { print "T", f, $3 }'
done | awk '
    $1 == "T" { def[$3] = $2; next }
    { use[++n] = $2 " " $3 }
    END {
        for (i = 1; i <= n; i++) {
            split(use[i], a, " ")
            if (!(a[2] in def) || def[a[2]] == a[1]) continue
            e = a[1] " " def[a[2]]
            if (!(e in calls)) calls[e] = a[2]
            else if (index(", " calls[e] ", ", ", " a[2] ", ") == 0) calls[e] = calls[e] ", " a[2]
        }
        for (e in calls) {
            split(e, p, " ")
            r = p[2] " " p[1]
            if ((r in calls) && p[1] < p[2])
                printf "%s <-> %s: %s calls %s; %s calls %s\n", p[1], p[2], p[1], calls[e], p[2], calls[r]
        }
    }' | sort
