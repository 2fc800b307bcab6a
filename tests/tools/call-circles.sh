#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# call-circles.sh - lists the file-level call circles of the tree from its
# object files' symbol tables (docs/STYLE.md 2.2): the strongly connected
# components of the graph whose nodes are source files and whose edges say
# "A calls (or takes the address of) a function defined in B" - a circle of
# any length, A -> B -> A as well as A -> B -> C -> A.  A reference to a
# data symbol - an ops table of function pointers, a const table - is not a
# call: a transport or a trace reader registered in its core's table and
# calling the core's helpers is the one-way shape of docs/STYLE.md 2.5.
#
#   tests/tools/call-circles.sh [-x DIR]... OBJDIR
#
# OBJDIR is build/<wrapper>/obj; -x leaves out the objects of a source
# directory (e.g. -x load, for build/linux/obj/load).  Prints one line per
# circle and nothing when there is none: two files as
# "a.c <-> b.c: a.c calls f, g; b.c calls h", more as the shortest circle
# through the first file of the component by name,
# "a.c -> b.c -> c.c -> a.c: a.c calls f; b.c calls g; c.c calls h", with
# "(also: d.c, e.c)" naming the component's files that circle misses.
# Exit status 0, or 2 on a usage error.
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
    # Tarjan: one depth-first walk; a node whose low link is its own index
    # closes a component (the files above it on the stack).
    function strong(v,    ws, n, i, w, members, m) {
        idx[v] = low[v] = ++counter
        stack[++sp] = v
        onstack[v] = 1
        n = split(adj[v], ws, " ")
        for (i = 1; i <= n; i++) {
            w = ws[i]
            if (!(w in idx)) {
                strong(w)
                if (low[w] < low[v]) low[v] = low[w]
            } else if (onstack[w] && idx[w] < low[v])
                low[v] = idx[w]
        }
        if (low[v] != idx[v]) return
        members = ""; m = 0
        do {
            w = stack[sp--]
            onstack[w] = 0
            comp[w] = v
            members = members " " w
            m++
        } while (w != v)
        if (m > 1) report(substr(members, 2), m)
    }
    # The shortest circle through the first member by name (breadth first
    # inside the component), its calls, and the members it misses.
    function report(members, m,    ms, i, s, head, tail, q, u, ws, n, j, w, from, path, txt, seen, miss, left, p) {
        split(members, ms, " ")
        s = ms[1]
        for (i = 2; i <= m; i++) if (ms[i] < s) s = ms[i]
        head = 1; tail = 0
        q[++tail] = s
        while (head <= tail && !(s in from)) {
            u = q[head++]
            n = split(adj[u], ws, " ")
            for (j = 1; j <= n; j++) {
                w = ws[j]
                if (comp[w] != comp[s] || (w in from)) continue
                from[w] = u
                if (w == s) break
                q[++tail] = w
            }
        }
        # walk back from s to s through from[]
        path = s; txt = ""; w = s
        do {
            u = from[w]
            path = u " -> " path
            txt = u " calls " calls[u " " w] (txt == "" ? "" : "; " txt)
            seen[u] = 1
            w = u
        } while (w != s)
        if (m == 2) {
            split(path, p, " -> ")
            print p[1] " <-> " p[2] ": " txt
            return
        }
        # the members the circle misses, by name (an insertion sort)
        n = 0
        for (i = 1; i <= m; i++) {
            if (ms[i] in seen) continue
            for (j = ++n; j > 1 && left[j - 1] > ms[i]; j--) left[j] = left[j - 1]
            left[j] = ms[i]
        }
        miss = ""
        for (i = 1; i <= n; i++) miss = miss ", " left[i]
        print path ": " txt (miss == "" ? "" : " (also: " substr(miss, 3) ")")
    }
    $1 == "T" { def[$3] = $2; next }
    { use[++nuse] = $2 " " $3 }
    END {
        for (i = 1; i <= nuse; i++) {
            split(use[i], a, " ")
            if (!(a[2] in def) || def[a[2]] == a[1]) continue
            e = a[1] " " def[a[2]]
            if (!(e in calls)) {
                calls[e] = a[2]
                adj[a[1]] = adj[a[1]] " " def[a[2]]
                node[a[1]] = node[def[a[2]]] = 1
            } else if (index(", " calls[e] ", ", ", " a[2] ", ") == 0)
                calls[e] = calls[e] ", " a[2]
        }
        for (v in node) if (!(v in idx)) strong(v)
    }' | sort
