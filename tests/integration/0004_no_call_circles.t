#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0004_no_call_circles.t - no source file calls back into a file that calls
# it (docs/STYLE.md 2.2): read from the objects' symbol tables by
# tests/tools/call-circles.sh, which is first shown to find a circle in two
# objects built here for the purpose.
# timeout: 60
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || bail "no tree"
need_cmd nm
need_cmd cc

# The objects of the build under test: FREESFS_BIN=build/X/bin -> build/X/obj.
obj=build/linux/obj
if [ -n "${FREESFS_BIN:-}" ] && [ -d "$FREESFS_BIN/../obj" ]; then
    obj=$FREESFS_BIN/../obj
fi
[ -d "$obj/common" ] || skip_all "no objects in $obj (make all first)"


plan 3

# 1. The check finds a circle: a.c calls b(), b.c calls a().
mkdir -p "$T_DIR/obj/demo"
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$T_DIR/a.c"
printf 'int a(int);\nint b(int x) { return x ? a(x - 1) : 1; }\n' >"$T_DIR/b.c"
printf 'int a(int);\nint c(void) { return a(3); }\n' >"$T_DIR/c.c"
for f in a b c; do cc -c -o "$T_DIR/obj/demo/$f.o" "$T_DIR/$f.c" || bail "cc failed"; done
is "$(tests/tools/call-circles.sh "$T_DIR/obj")" \
    "src/demo/a.c <-> src/demo/b.c: src/demo/a.c calls b; src/demo/b.c calls a" \
    "a circle of two files is found, a one-way call is not"

# 2. A reference to a data symbol (an ops table) is not a call.
printf 'struct ops { int (*f)(int); };\nextern const struct ops impl_ops;\n' >"$T_DIR/a.c"
printf 'int core(int x) { return x; }\nint use(void) { return impl_ops.f(1); }\n' >>"$T_DIR/a.c"
printf 'struct ops { int (*f)(int); };\nint core(int);\nstatic int f(int x) { return core(x); }\nconst struct ops impl_ops = {f};\n' >"$T_DIR/b.c"
rm -f "$T_DIR/obj/demo/"*.o
for f in a b; do cc -c -o "$T_DIR/obj/demo/$f.o" "$T_DIR/$f.c" || bail "cc failed"; done
is "$(tests/tools/call-circles.sh "$T_DIR/obj")" "" \
    "an implementation registered in its core's ops table is not a circle"

# 3. The tree.
circles=$(tests/tools/call-circles.sh "$obj")
is "$circles" "" "no file-level call circles in src/ ($obj)"
