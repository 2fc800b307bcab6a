#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0002_install.t - `make install PREFIX=...` puts every program (and the sfs3
# name) under the prefix, and `make uninstall` takes them away again.
# timeout: 120
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || bail "no tree"
[ -x bin/sfs_ping ] || skip_all "bin/ not built (run make first)"
plan 4

out=$(make -s install PREFIX="$T_DIR/usr" 2>&1)
ok $? "make install PREFIX=... succeeds"
missing=""
for p in bin/*; do
    [ -x "$T_DIR/usr/bin/$(basename "$p")" ] || missing="$missing $(basename "$p")"
done
is "$missing" "" "every program in bin/ is installed"
ok "$([ -e "$T_DIR/usr/share/freesfs" ] && echo 0 || echo 1)" "shared files are installed"
make -s uninstall PREFIX="$T_DIR/usr" >/dev/null 2>&1
left=$(ls "$T_DIR/usr/bin" 2>/dev/null | tr '\n' ' ')
is "$left" "" "make uninstall removes them"
