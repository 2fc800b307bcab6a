#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0004_no_call_circles.t - no source file calls back, directly or through
# other files, into a file that calls it (docs/STYLE.md 2.2): read from the
# objects' symbol tables by tests/tools/call-circles.sh, which is first
# shown to find circles of two and of three files in objects built here for
# the purpose.
# timeout: 240
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


plan 5

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

# 3. A circle of three files (a -> b -> c -> a), with a fourth file that
# calls into it; then a fifth that shares a file with it (a <-> d): one
# component of four files.
printf 'int b(int);\nint a(int x) { return x ? b(x - 1) : 0; }\n' >"$T_DIR/a.c"
printf 'int c(int);\nint b(int x) { return x ? c(x - 1) : 1; }\n' >"$T_DIR/b.c"
printf 'int a(int);\nint c(int x) { return x ? a(x - 1) : 2; }\n' >"$T_DIR/c.c"
printf 'int a(int);\nint e(void) { return a(3); }\n' >"$T_DIR/e.c"
rm -f "$T_DIR/obj/demo/"*.o
for f in a b c e; do cc -c -o "$T_DIR/obj/demo/$f.o" "$T_DIR/$f.c" || bail "cc failed"; done
is "$(tests/tools/call-circles.sh "$T_DIR/obj")" \
    "src/demo/a.c -> src/demo/b.c -> src/demo/c.c -> src/demo/a.c: src/demo/a.c calls b; src/demo/b.c calls c; src/demo/c.c calls a" \
    "a circle of three files is found, the file calling into it is not part of it"
printf 'int a(int);\nint d(int x) { return x ? a(x - 1) : 3; }\n' >"$T_DIR/d.c"
printf 'int b(int);\nint d(int);\nint a(int x) { return x ? b(x - 1) + d(x) : 0; }\n' >"$T_DIR/a.c"
for f in a d; do cc -c -o "$T_DIR/obj/demo/$f.o" "$T_DIR/$f.c" || bail "cc failed"; done
is "$(tests/tools/call-circles.sh "$T_DIR/obj")" \
    "src/demo/a.c -> src/demo/d.c -> src/demo/a.c: src/demo/a.c calls d; src/demo/d.c calls a (also: src/demo/b.c, src/demo/c.c)" \
    "two circles sharing a file are one component, every file named"

# 5. The tree.
circles=$(tests/tools/call-circles.sh "$obj")
is "$circles" "" "no file-level call circles in src/ ($obj)"
