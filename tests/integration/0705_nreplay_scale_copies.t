#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0705_nreplay_scale_copies.t - --scale N replays N copies of one NFS
# trace, each on its own copy of the image (docs/nfs_replay.md, "Scaling"):
# a libnfs-utils workload (nfs-ls -R, nfs-cat, nfs-cp) is captured against
# nfs-ganesha and replayed with --scale 2.  Against sfs_nfsd (two
# processes, a copy each) the replay makes twice the traced calls with no
# status mismatch, tshark finds every traced call twice in the replay's
# own capture, and both trees (CL1/nreplay and CL1/nreplay.1) hold the
# traced names, types and sizes.  Against ganesha (one process replaying
# both copies at once) both trees on disk equal the traced one and their
# files are distinct objects (inode numbers).  sfs_mgr with
# TRACE_SCALE="1 2" over two clients runs one point per scale: one and two
# copies' calls (at scale 1 client 2 has no copy and stays idle), the
# sfssum lines and the picture.  --scale with a trace that is not an NFS
# one is refused (50).
# timeout: 500
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_cmd nfs-ls
need_python_yaml
. "$(dirname "$0")/lib_prime.sh"
. "$(dirname "$0")/lib_nreplay.sh"
plan 14
start_ganesha
X=$GANESHA_DIR/export
mkdir -p "$X/d1/d2"
head -c 3000 /dev/urandom >"$X/d1/f1"
head -c 70000 /dev/urandom >"$X/d1/d2/f2"
printf 'hello' >"$X/top.txt"
ln -s d1/f1 "$X/sym"
head -c 12345 /dev/urandom >"$T_DIR/new.bin"
U=$GANESHA_LNFS_URL
add() { printf '%s' "$1" | sed "s|?|/$2?|"; } # a path inside an export URL

cap_start "$T_DIR/g.pcapng" "$GANESHA_NFS_PORT" "$GANESHA_MNT_PORT" || bail "no capture"
nfs-ls -R "$U" >"$T_DIR/ls.txt" 2>&1 &&
    nfs-cat "$(add "$U" d1/d2/f2)" >"$T_DIR/f2" 2>&1 &&
    nfs-cp "$T_DIR/new.bin" "$(add "$U" new.bin)" >"$T_DIR/cp.out" 2>&1 &&
    nfs-cat "$(add "$U" sym)" >"$T_DIR/sym" 2>&1 # READLINK: the trace shows the target
r=$?
cap_stop
is "$r" 0 "nfs-ls -R, nfs-cat (a file, a symlink) and nfs-cp ran while captured"
tree() { (cd "$1" && find . -mindepth 1 -printf '%P %y %m %n %s %l\n' |
    awk '{ if ($2 == "d") { $4 = "-"; $5 = "-" } print }' | sort); }
tree "$X" >"$T_DIR/traced.txt"
nr_calls "$T_DIR/g.pcapng" "$GANESHA_NFS_PORT" >"$T_DIR/traced.calls"
"$T_BIN/sfs_trace" stats -q "$T_DIR/g.pcapng" --yaml "$T_DIR/s.yaml" >/dev/null 2>&1
calls=$(nr_yaml "$T_DIR/s.yaml" 'sum(p["calls"] for p in g["procedures"].values())')

# ---- sfs_nfsd: two processes, a copy each ---------------------------------------
start_nfsd B || bail "sfs_nfsd did not start"
nr_replay_captured "$T_DIR/b.pcapng" "$B_NFS_PORT" "$B_URL" -Q -p 2 --speed 0 --scale 2 \
    --trace "$T_DIR/g.pcapng" --yaml "$T_DIR/b.yaml"
is "$NR_RC:$(nr_yaml "$T_DIR/b.yaml" 'g["nfs_replay"]["copies"], g["nfs_replay"]["calls"], g["nfs_replay"]["status_mismatches"], g["validity"]["code"]')" \
    "0:2 $((2 * calls)) 0 0" "sfs_nfsd, --scale 2 -p 2: twice the trace's $calls calls, no status mismatch, valid $(tail -3 "$T_DIR/err")"
like "$(cat "$T_DIR/err")" "; 2 copies; speed 0" "the plan line names the copies"
# sfs_nfsd's maximum transfer is below ganesha's: READ and WRITE compare by bytes
rw() { awk '$1 == "read" || $1 == "write" { n[$1] += $3 } END { print "read", n["read"] + 0, "write", n["write"] + 0 }' "$1"; }
grep -Ev '^(read|write) ' "$T_DIR/traced.calls" >"$T_DIR/traced.other"
sort "$T_DIR/traced.other" "$T_DIR/traced.other" >"$T_DIR/twice.other"
cat "$T_DIR/traced.calls" "$T_DIR/traced.calls" >"$T_DIR/twice.calls"
nr_calls "$T_DIR/b.pcapng" "$B_NFS_PORT" >"$T_DIR/b.calls"
grep -Ev '^(read|write) ' "$T_DIR/b.calls" | diff "$T_DIR/twice.other" - >"$T_DIR/b.diff"
is "$?:$(rw "$T_DIR/b.calls")" "0:$(rw "$T_DIR/twice.calls")" \
    "sfs_nfsd: tshark finds every traced call twice in the replay, and twice the bytes READ and WRITE"
[ -s "$T_DIR/b.diff" ] && diag "$(head -20 "$T_DIR/b.diff")"
awk '{ print $1, $2, ($2 == "f" ? $5 : "-") }' "$T_DIR/traced.txt" >"$T_DIR/want.short"
for d in nreplay nreplay.1; do
    # nfs-ls -R: "MODE NLINK UID GID SIZE PATH"
    nfs-ls -R "$(add "$B_LNFS_URL" "CL1/$d/r0")" 2>&1 |
        awk '{ t = substr($1, 1, 1); t = (t == "-" ? "f" : t); print $6, t, (t == "f" ? $5 : "-") }' |
        sort | diff "$T_DIR/want.short" - >"$T_DIR/bt.$d.diff"
    ok $? "sfs_nfsd: CL1/$d/r0 has the traced names, types and sizes"
    [ -s "$T_DIR/bt.$d.diff" ] && diag "$(cat "$T_DIR/bt.$d.diff")"
done

# ---- ganesha: one process, both copies at once ----------------------------------
"$T_BIN/sfs3" -Q -p 1 --speed 0 --scale 2 --trace "$T_DIR/g.pcapng" --yaml "$T_DIR/gr.yaml" \
    "$GANESHA_URL" >"$T_DIR/gr.out" 2>"$T_DIR/gr.err"
is "$?:$(nr_yaml "$T_DIR/gr.yaml" 'g["nfs_replay"]["calls"], g["nfs_replay"]["status_mismatches"]')" \
    "0:$((2 * calls)) 0" "ganesha, --scale 2 -p 1: twice the calls by one process, no status mismatch $(tail -3 "$T_DIR/gr.err")"
tree "$X/CL1/nreplay/r0" >"$T_DIR/g0.tree"
tree "$X/CL1/nreplay.1/r0" >"$T_DIR/g1.tree"
diff "$T_DIR/traced.txt" "$T_DIR/g0.tree" >"$T_DIR/g0.diff" && diff "$T_DIR/traced.txt" "$T_DIR/g1.tree" >"$T_DIR/g1.diff"
ok $? "ganesha: both copies' trees on disk equal the traced one (names, types, modes, links, sizes, targets)"
cat "$T_DIR/g0.diff" "$T_DIR/g1.diff" 2>/dev/null | head -10 | while read -r l; do diag "$l"; done
i0=$(stat -c %i "$X/CL1/nreplay/r0/new.bin" "$X/CL1/nreplay/r0/d1/f1" 2>&1 | tr '\n' ' ')
i1=$(stat -c %i "$X/CL1/nreplay.1/r0/new.bin" "$X/CL1/nreplay.1/r0/d1/f1" 2>&1 | tr '\n' ' ')
ok "$([ -n "$i0" ] && [ "$i0" != "$i1" ] && ! echo "$i0$i1" | grep -q "cannot" && echo 0 || echo 1)" \
    "ganesha: the copies' files are distinct objects (inodes $i0/ $i1)"

# ---- sfs_mgr: TRACE_SCALE="1 2" over two clients ---------------------------------
start_nfsd M || bail "sfs_nfsd did not start"
rc=$T_DIR/scale_rc
prime_rc "$rc" LOAD=60 'CLIENTS="localhost localhost"' PROCS=1 \
    "MNT_POINTS=\"$M_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=30 TCP=1 \
    "TRACE_FILE=$T_DIR/g.pcapng" TRACE_SPEED=0 'TRACE_SCALE="1 2"' "WORK_DIR=$T_DIR/res"
"$T_BIN/sfs_mgr" -r "$rc" -s t >"$T_DIR/mgr.out" 2>"$T_DIR/mgr.err"
is "$?:$(wc -l <"$T_DIR/res/sfssum.t" 2>/dev/null)" "0:2" "sfs_mgr exits 0 with one sfssum line per scale $(tail -3 "$T_DIR/mgr.err")"
is "$(python3 -c "
import yaml
d = yaml.safe_load(open('$T_DIR/res/sfsres.t.yaml'))
r = [p['aggregate']['nfs_replay'] for p in d['points']]
print(' '.join('%s:%s/%s' % (x['copies'], x['calls'], x['status_mismatches']) for x in r))" 2>&1)" \
    "1:$calls/0 2:$((2 * calls))/0" "per point: the copies' calls (1 and 2 copies), no mismatch"
like "$(cat "$T_DIR/res/sfslog.t")" "NFS replay of .*g.pcapng at speed 0, 2 copies" "the log names each point's copies"
ok "$([ -s "$T_DIR/res/sfsres.t.png" ] && echo 0 || echo 1)" "the curve's picture is drawn"

"$T_BIN/sfs3" --trace "$T_FIXTURES/spc/seed-example.spc" --scale 2 "$M_URL" >"$T_DIR/bad.out" 2>&1
is "$?:$(cat "$T_DIR/bad.out")" \
    "50:sfs3: --scale 2: an option of the nfs-replay workload; this run's is replay" \
    "--scale with a block trace is refused with one line"
