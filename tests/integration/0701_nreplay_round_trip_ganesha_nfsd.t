#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0701_nreplay_round_trip_ganesha_nfsd.t - the NFS trace replay's round
# trip: a tree of real files on nfs-ganesha's export (directories, files of
# several sizes, an empty file, a symlink, a hard link) is walked, read and
# added to by an independent client (libnfs-utils: nfs-ls -R, nfs-cat,
# nfs-cp) over NFSv3/TCP while dumpcap captures it.  sfs3 --trace replays
# the capture against a fresh sfs_nfsd and against ganesha itself: no
# status differs from the traced ones; the tree the replay leaves
# (CL1/nreplay/r0) equals the traced tree after the workload - on ganesha's
# disk names, types, sizes, modes, link counts and symlink targets, on
# sfs_nfsd names, types and sizes (nfs-ls) - and the replay's own capture,
# decoded by tshark, holds the traced NFS calls procedure for procedure,
# with their names and byte counts.  A server prepared differently (a file
# of the image removed before the run) gets its mismatches counted, named
# and the run marked INVALID (23).
# timeout: 500
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_cmd nfs-ls
need_python_yaml
. "$(dirname "$0")/lib_nreplay.sh"
plan 12
start_ganesha
X=$GANESHA_DIR/export
mkdir -p "$X/d1/d2" "$X/d1/empty_dir"
head -c 1000 /dev/urandom >"$X/d1/f1"
head -c 70000 /dev/urandom >"$X/d1/d2/f2"
head -c 300001 /dev/urandom >"$X/big"
printf 'hello' >"$X/top.txt"
: >"$X/d1/empty"
chmod 600 "$X/d1/f1"
ln -s d1/f1 "$X/sym"
ln "$X/top.txt" "$X/hard"
head -c 12345 /dev/urandom >"$T_DIR/new.bin"
U=$GANESHA_LNFS_URL
add() { printf '%s' "$1" | sed "s|?|/$2?|"; } # a path inside an export URL

cap_start "$T_DIR/g.pcapng" "$GANESHA_NFS_PORT" "$GANESHA_MNT_PORT" || bail "no capture"
nfs-ls -R "$U" >"$T_DIR/ls.txt" 2>&1
r1=$?
nfs-cat "$(add "$U" d1/d2/f2)" >"$T_DIR/f2" 2>"$T_DIR/cat.err"
r2=$?
nfs-cp "$T_DIR/new.bin" "$(add "$U" new.bin)" >"$T_DIR/cp.out" 2>&1
r3=$?
nfs-cat "$(add "$U" sym)" >"$T_DIR/sym" 2>&1 # READLINK: the trace shows the target
r4=$?
cap_stop
is "$r1:$r2:$r3:$r4" "0:0:0:0" "nfs-ls -R, nfs-cat (a file, a symlink) and nfs-cp ran while captured"
# the traced tree after the workload, as find sees it on disk
tree() { (cd "$1" && find . -mindepth 1 -printf '%P %y %m %n %s %l\n' |
    awk '{ if ($2 == "d") { $4 = "-"; $5 = "-" } print }' | sort); }
tree "$X" >"$T_DIR/traced.txt"
nr_calls "$T_DIR/g.pcapng" "$GANESHA_NFS_PORT" >"$T_DIR/traced.calls"

# ---- against a fresh sfs_nfsd -------------------------------------------------
start_nfsd B || bail "sfs_nfsd did not start"
nr_replay_captured "$T_DIR/b.pcapng" "$B_NFS_PORT" "$B_URL" -Q -p 1 --speed 0 \
    --trace "$T_DIR/g.pcapng" --yaml "$T_DIR/b.yaml"
is "$NR_RC:$(nr_yaml "$T_DIR/b.yaml" 'g["nfs_replay"]["status_mismatches"], g["nfs_replay"]["not_replayable"]["no_replayed_handle"], g["validity"]["code"]')" \
    "0:0 0 0" "sfs_nfsd: replayed with no status mismatch, every call sent, valid $(tail -3 "$T_DIR/err")"
# sfs_nfsd's maximum transfer (64 KiB) is below ganesha's: a longer READ or
# WRITE goes in pieces, so those compare by their bytes
nr_calls "$T_DIR/b.pcapng" "$B_NFS_PORT" >"$T_DIR/b.calls"
rw() { awk '$1 == "read" || $1 == "write" { n[$1] += $3 } END { print "read", n["read"] + 0, "write", n["write"] + 0 }' "$1"; }
grep -Ev '^(read|write) ' "$T_DIR/traced.calls" >"$T_DIR/traced.other"
grep -Ev '^(read|write) ' "$T_DIR/b.calls" | diff "$T_DIR/traced.other" - >"$T_DIR/b.diff"
is "$?:$(rw "$T_DIR/b.calls")" "0:$(rw "$T_DIR/traced.calls")" \
    "sfs_nfsd: tshark finds the traced NFS calls in the replay, procedure for procedure, and the bytes READ and WRITE asked ($(wc -l <"$T_DIR/b.calls") calls)"
[ -s "$T_DIR/b.diff" ] && diag "$(head -20 "$T_DIR/b.diff")"
# nfs-ls -R: "MODE NLINK UID GID SIZE PATH"
nfs-ls -R "$(add "$B_LNFS_URL" CL1/nreplay/r0)" 2>&1 |
    awk '{ t = substr($1, 1, 1); t = (t == "-" ? "f" : t); print $6, t, (t == "f" ? $5 : "-") }' |
    sort >"$T_DIR/b.tree"
awk '{ print $1, $2, ($2 == "f" ? $5 : "-") }' "$T_DIR/traced.txt" >"$T_DIR/want.short"
diff "$T_DIR/want.short" "$T_DIR/b.tree" >"$T_DIR/bt.diff"
ok $? "sfs_nfsd: the replayed tree has the traced names, types and sizes"
[ -s "$T_DIR/bt.diff" ] && diag "$(cat "$T_DIR/bt.diff")"

# ---- against ganesha itself ----------------------------------------------------
nr_replay_captured "$T_DIR/gr.pcapng" "$GANESHA_NFS_PORT" "$GANESHA_URL" -Q -p 1 \
    --trace "$T_DIR/g.pcapng" --yaml "$T_DIR/gr.yaml"
is "$NR_RC:$(nr_yaml "$T_DIR/gr.yaml" 'g["nfs_replay"]["status_mismatches"], g["validity"]["code"]')" \
    "0:0 0" "ganesha (speed 1): replayed with no status mismatch, valid $(tail -3 "$T_DIR/err")"
tree "$X/CL1/nreplay/r0" >"$T_DIR/g.tree"
diff "$T_DIR/traced.txt" "$T_DIR/g.tree" >"$T_DIR/gt.diff"
ok $? "ganesha: the tree on disk equals the traced one (names, types, modes, link counts, sizes, symlink targets)"
[ -s "$T_DIR/gt.diff" ] && diag "$(cat "$T_DIR/gt.diff")"
nr_calls "$T_DIR/gr.pcapng" "$GANESHA_NFS_PORT" >"$T_DIR/gr.calls"
grep -Ev '^(read|write) ' "$T_DIR/gr.calls" | diff "$T_DIR/traced.other" - >"$T_DIR/gr.diff"
is "$?:$(rw "$T_DIR/gr.calls")" "0:$(rw "$T_DIR/traced.calls")" \
    "ganesha: tshark finds the traced NFS calls in the replay, procedure for procedure, and the bytes READ and WRITE asked"
[ -s "$T_DIR/gr.diff" ] && diag "$(head -20 "$T_DIR/gr.diff")"
cmp -s "$T_DIR/new.bin" "$X/new.bin" && [ "$(stat -c %s "$X/CL1/nreplay/r0/new.bin")" = 12345 ]
ok $? "the copied file was created again by the replay with its size"

# ---- a server prepared differently -----------------------------------------------
NR_BEFORE_RUN="'$LNFS_TOOL' '$B_NFSURL' rmtree /CL1/nreplay/r0/d1/d2/f2 >'$T_DIR/rm.out' 2>&1"
nr_replay_captured "$T_DIR/d.pcapng" "$B_NFS_PORT" "$B_URL" -Q -p 1 --speed 0 \
    --trace "$T_DIR/g.pcapng" --yaml "$T_DIR/d.yaml"
NR_BEFORE_RUN=
cat "$T_DIR/rm.out"
is "$NR_RC" 0 "a replay against a server that lost a file of the image completes"
like "$(nr_yaml "$T_DIR/d.yaml" 'g["nfs_replay"]["first_mismatches"][0]')" \
    "lookup d1/d2/f2 at [0-9.]* s: traced OK, replayed NOENT" "its first mismatch is named: procedure, path, time, statuses"
ok "$(nr_yaml "$T_DIR/d.yaml" '0 if g["nfs_replay"]["status_mismatches"] >= 2 and g["validity"]["code"] == 23 else 1')" \
    "the mismatches are counted and the run is INVALID (23)"
like "$(cat "$T_DIR/out")" "INVALID RUN, [0-9.]*% Status mismatches: [0-9]* of the [0-9]* calls compared" \
    "the report says why"
