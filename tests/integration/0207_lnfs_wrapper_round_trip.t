#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0207_lnfs_wrapper_round_trip.t - the libnfs wrapper of the nfs layer
# (src/nfs/lnfs.c, docs/DECISIONS.md D3) against nfs-ganesha's VFS export, whose
# files are real files in $GANESHA_DIR/export: mkdir -p, write, read back,
# size, list and rm -rf, each checked on the server's own file system.
# timeout: 300
. "$(dirname "$0")/lib.sh"
T=$(tool_path lnfs_tool) || bail "tests/tools/lnfs_tool not built"
start_ganesha
plan 11

E=$GANESHA_DIR/export
U=$GANESHA_URL
"$T" "$U" mkdirp /tree/sub/deep
ok $? "mkdir -p through libnfs"
ok $([ -d "$E/tree/sub/deep" ] && echo 0 || echo 1) "the directories exist on the server"
"$T" "$U" write /tree/sub/deep/file "payload 0207"
ok $? "write a new file"
is "$(cat "$E/tree/sub/deep/file")" "payload 0207" "the server has the bytes"
is "$("$T" "$U" read /tree/sub/deep/file)" "payload 0207" "read back through libnfs"
is "$("$T" "$U" size /tree/sub/deep/file)" 12 "size"
echo other >"$E/tree/sub/plain"
is "$("$T" "$U" ls /tree/sub | sort | tr '\n' ' ')" "d deep f plain " "list names files and directories"
"$T" "$U" rmtree /tree
ok $? "rm -rf"
ok $([ ! -e "$E/tree" ] && echo 0 || echo 1) "the tree is gone from the server"
"$T" "$U" rmtree /tree
ok $? "rm -rf of a missing tree is not an error"
err=$("$T" "$U" read /no/such/file 2>&1)
like "$err" "^lnfs_tool: open /no/such/file: .*NOENT" "a missing file: one clear line"
