#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0697_nfsv4_capture_of_libnfs_matches_tshark.t - NFSv4.0 traffic FreeSFS
# did not make, read: libnfs-utils (an independent client, version=4) lists
# a tree of real files on nfs-ganesha's export recursively and reads two of
# them back while dumpcap captures the test's ganesha port.  Every NFSv4
# COMPOUND call and reply agrees with tshark's decode (operations in order,
# handles, names, offsets and counts, stateids, client ids, statuses);
# `sfs_trace stats` on the capture equals tshark's figures (NULL and
# COMPOUND calls and response times, calls, results, errors, bytes and
# response times per operation, per COMPOUND shape); the opens are closed;
# the image from the v4 traffic holds the tree on disk (names, types, file
# sizes) under the export; the miss-ratio curve's references are the
# files' blocks read; `convert --to nfsdump` says what it left out.
# timeout: 400
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_cmd nfs-ls
need_cmd nfs-cat
need_python_yaml
. "$(dirname "$0")/lib_nfs.sh"
plan 10
export PROTOCOLS="3, 4"
start_ganesha
P=$GANESHA_NFS_PORT
X=$GANESHA_DIR/export
mkdir -p "$X/d1/d2"
head -c 262144 /dev/urandom >"$X/big"
head -c 5000 /dev/urandom >"$X/d1/d2/f2"
printf 'hello' >"$X/d1/top.txt"
: >"$X/d1/empty"
(cd "$X" && find . -mindepth 1 -printf 'export/%P %y %s\n' | sort) >"$T_DIR/before.txt"
V4="nfs://127.0.0.1/export"
Q="version=4&nfsport=$P"

cap_start "$T_DIR/g.pcapng" "$P" || bail "no capture"
timeout 60 nfs-ls -R "$V4?$Q" >"$T_DIR/ls.txt" 2>&1
r1=$?
timeout 60 nfs-cat "$V4/big?$Q" >"$T_DIR/big" 2>"$T_DIR/cat.err"
r2=$?
timeout 60 nfs-cat "$V4/d1/d2/f2?$Q" >"$T_DIR/f2" 2>>"$T_DIR/cat.err"
r3=$?
cap_stop
is "$r1:$r2:$r3" "0:0:0" "libnfs-utils listed the tree and read two files over NFSv4.0"
cmp -s "$T_DIR/big" "$X/big" && cmp -s "$T_DIR/f2" "$X/d1/d2/f2"
ok $? "both files came back whole"

out=$(nfs4_check "$T_DIR/g.pcapng" "$P")
ok $? "every NFSv4 call and reply agrees with tshark's decode"
diag "$out"
out=$(nfs4_stats_check "$T_DIR/g.pcapng" "$P")
like "$out" "^agree: " "stats: every per-operation and per-shape figure equals tshark's"
diag "$out"
ev=$T_DIR/g.pcapng.events
S=$T_DIR/g.pcapng.stats.yaml
sy() { python3 -c "import sys, yaml; g = yaml.safe_load(open(sys.argv[1]))['nfsv4']; $1" "$S"; }
is "$(sy 'print(g["minor_versions"]["0"] == g["compounds"] > 0, g["bytes_read"])')" \
    "True $((262144 + 5000))" "stats: every COMPOUND is v4.0; READ returned both files' bytes"
is "$(sy 'o = g["opens"]; print(o["opened"], o["closed"], o["open_at_end"])')" "2 2 0" \
    "stats: both OPENs closed, their durations measured"

"$T_BIN/sfs_trace" image -q "$T_DIR/g.pcapng" --yaml "$T_DIR/i.yaml" 2>"$T_DIR/err"
ok $? "image of the capture $(cat "$T_DIR/err")"
python3 -c '
import sys, yaml
g = yaml.safe_load(open(sys.argv[1]))
t = {"reg": "f", "dir": "d", "lnk": "l"}
path = {o["id"]: o["path"] for o in g["objects_list"]}
out = []
for o in g["objects_list"]:
    for n in o["names"]:
        p = (path[n[0]] + "/" if path[n[0]] else "") + n[1]
        if n[2] and p.startswith("export/"):
            out.append("%s %s %s" % (p, t.get(o["type"], o["type"]), o["size"] if o["type"] == "reg" else "-"))
print("\n".join(sorted(out)))' "$T_DIR/i.yaml" >"$T_DIR/image.txt"
awk '{print $1, $2, ($2 == "f" ? $3 : "-")}' "$T_DIR/before.txt" >"$T_DIR/want.txt"
diff "$T_DIR/want.txt" "$T_DIR/image.txt" >"$T_DIR/diff.txt"
ok $? "image: the names, types and file sizes under the export equal the tree on disk"
[ -s "$T_DIR/diff.txt" ] && diag "$(cat "$T_DIR/diff.txt")"

"$T_BIN/sfs_trace" mrc -q "$T_DIR/g.pcapng" --yaml "$T_DIR/m.yaml" 2>"$T_DIR/err"
is "$(python3 -c 'import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print(g["unique_blocks"])' "$T_DIR/m.yaml")" \
    "$((262144 / 4096 + 2))" "mrc: the references are the blocks of the two files read, by handle"

v4=$(awk '$1 == "#" && $2 == "nfsv4_calls" {print $3}' "$ev")
err=$("$T_BIN/sfs_trace" convert --to nfsdump "$T_DIR/g.pcapng" -o "$T_DIR/g.txt" 2>&1)
like "$err" "$v4 NFSv4 calls not written \\([0-9]+ COMPOUNDs of [0-9]+ operations\\): nfsdump has no NFSv4 form" \
    "convert says what it left out"
