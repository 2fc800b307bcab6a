#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# check: validate client
# The validation suite (sfs -V / sfs3 -V) passes on a healthy sfs_nfsd over
# NFSv2 and NFSv3, UDP and TCP: exit 0, the success line, no W or E line,
# every step run (22 objects in v2, 51 in v3), every written file read back
# through libnfs byte for byte, validatedir removed afterwards, leftovers
# of an earlier run emptied first.  The COMMIT verifier check restarts the
# server through --restart-cmd and sees a new verifier.  One mount point
# only; a missing export is an E line and exit 1.
. "$(dirname "$0")/lib.sh"
need_cmd nfs-ls
need_cmd nfs-cp
plan 32

start_nfsd S || bail "no server"
for prog in sfs sfs3; do
    for opts in "" "-Q"; do
        # shellcheck disable=SC2086
        out=$(timeout 60 "$T_BIN/$prog" -V 2 $opts "$S_URL" 2>"$T_DIR/err")
        rc=$?
        name="$prog -V 2 $opts"
        is "$rc" 0 "$name: exit 0" || diag "$(tail -5 "$T_DIR/err")"
        last=$(printf '%s\n' "$out" | tail -1)
        is "$last" "validation completed successfully." "$name: the success line"
        unlike "$out" "^(W|E): " "$name: no W or E line"
        steps="null create attributes write read read-back readdir rename remove extended"
        [ "$prog" = sfs3 ] && steps="$steps readdirplus"
        miss=""
        for s in $steps; do
            printf '%s\n' "$out" | grep -q "^$s: " || miss="$miss $s"
        done
        is "$miss" "" "$name: every step ran"
        # v3: 17 written files and the extended section's COMMIT file
        [ "$prog" = sfs3 ] && files=18 || files=7
        is "$(printf '%s\n' "$out" | grep -c 'bytes identical')" "$files" \
            "$name: $files files read back through libnfs, byte for byte"
    done
done
like "$(printf '%s\n' "$out" | grep '^create: ')" "21 files, 10 directories, 10 hard links, 10 symbolic links" \
    "v3 makes 51 objects"
like "$(timeout 60 "$T_BIN/sfs" -V 2 "$S_URL" | grep '^create: ')" \
    "7 files, 5 directories, 5 hard links, 5 symbolic links" "v2 makes 22 objects"
unlike "$(timeout 15 nfs-ls "$S_LNFS_URL" 2>&1)" "validatedir" "validatedir is removed afterwards"

# leftovers of an interrupted run are emptied first
LT=$(tool_path lnfs_tool) || bail "lnfs_tool not built"
"$LT" "$S_URL" mkdirp /validatedir/dir_ent.1 >/dev/null &&
    "$LT" "$S_URL" write /validatedir/file_en.3 old >/dev/null &&
    "$LT" "$S_URL" write /validatedir/junk junk >/dev/null
ok $? "leftovers made through libnfs"
out=$(timeout 60 "$T_BIN/sfs3" -V 2 "$S_URL" 2>&1)
is "$?" 0 "a run over leftovers passes"
like "$out" "emptied of what an earlier run left" "... after emptying validatedir"

# one mount point only
out=$(timeout 15 "$T_BIN/sfs3" -V 1 "$S_URL" "$S_URL" 2>&1)
is "$?" 182 "two mount points: exit 182"
like "$out" "Can only validate one directory at a time." "... with SFS's message"

# a missing export: an E line, the failure line, exit 1
out=$(timeout 30 "$T_BIN/sfs3" -V 1 "127.0.0.1:$S_NFS_PORT:/nonexistent" 2>&1)
is "$?" 1 "a missing export: exit 1"
like "$out" "^E: mount: .*export refused" "... an E line naming the refusal"

# the COMMIT verifier across a restart: same ports, new instance
start_restartable || bail "no restartable server"
out=$(timeout 60 "$T_BIN/sfs3" -V 2 -Q --restart-cmd "sh $T_DIR/restart.sh" \
    "127.0.0.1:$R_NFS:/export" 2>"$T_DIR/err")
is "$?" 0 "--restart-cmd: passes" || diag "$(printf '%s\n' "$out" | grep -E '^(W|E)')"
line=$(printf '%s\n' "$out" | grep 'before the restart')
before=$(printf '%s' "$line" | sed -n 's/.*verifier \([0-9a-f]*\) before.*/\1/p')
after=$(printf '%s' "$line" | sed -n 's/.* \([0-9a-f]*\) after$/\1/p')
[ -n "$before" ] && [ -n "$after" ] && [ "$before" != "$after" ]
ok $? "the verifier changed across the restart ($before -> $after)"
