#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0662_trace_nfs_capture_image_matches_ganesha.t - the file-system image
# sfs_trace builds from a capture equals the real tree: a tree of real
# files is made on nfs-ganesha's export (directories, files of several
# sizes, an empty file, a symlink, a hard link), then an independent client
# (libnfs-utils: nfs-ls -R, nfs-cat, nfs-cp) walks it, reads a file and
# copies a new one in over NFSv3/TCP while dumpcap captures the test's
# ganesha ports.  The image's names at the start, their types and the
# files' sizes equal the tree on disk before the run (find); the copied
# file is created during the trace with the size it has on disk; no
# orphans; the root is the export MNT named.  stats on the same capture
# equal tshark's figures (tests/tools/nfs-tshark.py stats).
# timeout: 400
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_cmd nfs-ls
need_python_yaml
. "$(dirname "$0")/lib_nfs.sh"
plan 9
start_ganesha
X=$GANESHA_DIR/export
mkdir -p "$X/d1/d2" "$X/d1/empty_dir"
head -c 1000 /dev/urandom >"$X/d1/f1"
head -c 70000 /dev/urandom >"$X/d1/d2/f2"
head -c 300001 /dev/urandom >"$X/big"
printf 'hello' >"$X/top.txt"
: >"$X/d1/empty"
ln -s d1/f1 "$X/sym"
ln "$X/top.txt" "$X/hard"
(cd "$X" && find . -mindepth 1 -printf '%P %y %s\n' | sort) >"$T_DIR/before.txt"
head -c 12345 /dev/urandom >"$T_DIR/new.bin"
U=$GANESHA_LNFS_URL
add() { printf '%s' "$1" | sed "s|?|/$2?|"; } # a path inside the export URL

cap_start "$T_DIR/g.pcapng" "$GANESHA_NFS_PORT" "$GANESHA_MNT_PORT" || bail "no capture"
nfs-ls -R "$U" >"$T_DIR/ls.txt" 2>&1
r1=$?
nfs-cat "$(add "$U" d1/d2/f2)" >"$T_DIR/f2" 2>"$T_DIR/cat.err"
r2=$?
nfs-cp "$T_DIR/new.bin" "$(add "$U" new.bin)" >"$T_DIR/cp.out" 2>&1
r3=$?
cap_stop
is "$r1:$r2:$r3" "0:0:0" "nfs-ls -R, nfs-cat and nfs-cp ran while captured"
cmp -s "$T_DIR/f2" "$X/d1/d2/f2"
ok $? "nfs-cat read the real file"

"$T_BIN/sfs_trace" image "$T_DIR/g.pcapng" --yaml "$T_DIR/i.yaml" >"$T_DIR/i.txt" 2>"$T_DIR/err"
ok $? "image of the capture $(cat "$T_DIR/err")"
Y=$T_DIR/i.yaml
py() { python3 -c "import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); $1" "$Y"; }
# every name at the start as "PATH TYPE SIZE" (find's %y letters; sizes of
# files only, as find's %s of directories and symlinks is not the server's)
py '
t = {"reg": "f", "dir": "d", "lnk": "l"}
path = {o["id"]: o["path"] for o in g["objects_list"]}
out = []
for o in g["objects_list"]:
    for n in o["names"]:
        if n[2]:
            p = (path[n[0]] + "/" if path[n[0]] else "") + n[1]
            out.append("%s %s %s" % (p, t.get(o["type"], o["type"]), o["size"] if o["type"] == "reg" else "-"))
print("\n".join(sorted(out)))' >"$T_DIR/image.txt"
awk '{print $1, $2, ($2 == "f" ? $3 : "-")}' "$T_DIR/before.txt" >"$T_DIR/want.txt"
diff "$T_DIR/want.txt" "$T_DIR/image.txt" >"$T_DIR/diff.txt"
ok $? "image: the names, types and file sizes at the start equal the tree on disk"
[ -s "$T_DIR/diff.txt" ] && diag "$(cat "$T_DIR/diff.txt")"
is "$(py 'print([(o["path"], o["type"], o["size_max"]) for o in g["objects_list"] if not o["at_start"]])')" \
    "[('new.bin', 'reg', $(stat -c %s "$X/new.bin"))]" \
    "image: the copied file is created during the trace, with its size on disk"
is "$(py 'print(g["orphans"], g["roots"][0]["mnt_path"], g["hard_links"])')" \
    "0 $X 1" "image: no orphans, the export MNT named is the root, one hard link"
is "$(py 'print([sorted(n[1] for n in o["names"] if n[2]) for o in g["objects_list"] if len([n for n in o["names"] if n[2]]) == 2])')" \
    "[['hard', 'top.txt']]" "image: the hard-linked file is one object with two names"

"$T_BIN/sfs_trace" stats -q "$T_DIR/g.pcapng" --yaml "$T_DIR/s.yaml" 2>"$T_DIR/err"
ok $? "stats of the capture $(cat "$T_DIR/err")"
out=$(python3 "$NFS_TSHARK" stats "$T_DIR/g.pcapng" "$T_DIR/s.yaml" \
    "$GANESHA_NFS_PORT" "$GANESHA_MNT_PORT")
like "$out" "^agree: " "stats: calls, replies, response times and bytes equal tshark's"
diag "$out"
