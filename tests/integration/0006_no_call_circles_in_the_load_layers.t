#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0006_no_call_circles_in_the_load_layers.t - no file of the layers the load
# generator was split into (ctl, load, synth, replay, client) nor of the
# prime calls a function defined in a file that calls back into it, read
# from the objects' symbol tables by tests/tools/call-circles.sh (the
# checker of 0004_no_call_circles.t, which checks every layer once the
# structure and docs branches are both merged: this test then goes).
# timeout: 60
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || bail "no tree"
need_cmd nm

# The objects of the build under test: FREESFS_BIN=build/X/bin -> build/X/obj.
obj=build/linux/obj
if [ -n "${FREESFS_BIN:-}" ] && [ -d "$FREESFS_BIN/../obj" ]; then
    obj=$FREESFS_BIN/../obj
fi
[ -d "$obj/client" ] || skip_all "no objects in $obj (make all first)"
plan 1

# Only these layers' objects (an object left behind by a moved file is
# not looked at: its source is gone).
mkdir -p "$T_DIR/obj"
for layer in ctl load synth replay client prime; do
    for o in "$obj/$layer"/*.o; do
        [ -e "$o" ] || continue
        f=${o#"$obj"/}
        [ -e "src/${f%.o}.c" ] || continue
        mkdir -p "$T_DIR/obj/$layer"
        cp "$o" "$T_DIR/obj/$f"
    done
done
is "$(tests/tools/call-circles.sh "$T_DIR/obj")" "" \
    "no file-level call circles in ctl, load, synth, replay, client and prime"
