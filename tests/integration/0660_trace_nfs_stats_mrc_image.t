#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0660_trace_nfs_stats_mrc_image.t - sfs_trace stats, mrc and image on an
# NFS trace in nfsdump text (tests/fixtures/nfsdump/image.txt, written by
# hand with known answers): calls, replies, errors, unanswered calls,
# bytes and response times per procedure; the miss-ratio curve over (file
# handle, block), equal to the curve of the same references written as an
# SPC trace (image-refs.spc: files numbered in order of first READ or
# WRITE; a READ references what its reply returned, an unanswered one what
# it asked); and the image: the tree at the start, sizes, what the trace
# created, renamed and removed, orphans, symlink targets.
# timeout: 60
# check: analyze image trace
. "$(dirname "$0")/lib.sh"
need_python_yaml
plan 16

F=$T_FIXTURES/nfsdump
y() { # y FILE EXPR: evaluates a python expression over the YAML as g
    python3 -c 'import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

"$T_BIN/sfs_trace" stats "$F/image.txt" --yaml "$T_DIR/s.yaml" >"$T_DIR/s.txt"
ok $? "stats on nfsdump text (format detected)"
is "$(y "$T_DIR/s.yaml" '(g["format"], g["calls"], g["replies"], g["calls_by_version"], g["errors"], g["unanswered_calls"], g["bytes_read"], g["bytes_written"])')" \
   "('nfsdump', 22, 21, {'nfsv2': 0, 'nfsv3': 21, 'nfsv4': 0, 'mount': 1}, 1, 1, 20480, 12288)" \
   "stats: calls, replies, versions, errors, unanswered, bytes"
is "$(y "$T_DIR/s.yaml" '[(p, v["calls"], v["replies"], v["unanswered"]) for p, v in g["procedures"].items() if p in ("read", "lookup", "write", "readdirplus")]')" \
   "[('lookup', 4, 4, 0), ('read', 4, 3, 1), ('write', 2, 2, 0), ('readdirplus', 1, 1, 0)]" \
   "stats: per procedure, keyed by the SFS op names"
is "$(y "$T_DIR/s.yaml" '(g["procedures"]["read"]["response_ms"]["mean"], g["procedures"]["read"]["response_ms"]["max"], g["procedures"]["getattr"]["response_ms"]["min"], g["mount_procedures"]["mnt"]["calls"])')" \
   "(0.5, 0.5, 0.2, 1)" "stats: the traced server's response times from the stamps"
is "$(y "$T_DIR/s.yaml" 'g["errors_by_status"]')" \
   "[{'procedure': 'lookup', 'status': 2, 'name': 'NOENT', 'count': 1}]" "stats: errors by procedure and status"
like "$(cat "$T_DIR/s.txt")" "read +4 +3 +0 +1 +0 +20480 +0.500" "the table has the same figures"

"$T_BIN/sfs_trace" mrc -q "$F/image.txt" --yaml "$T_DIR/m.yaml" --cache-sizes 1,2,4,6,7,8
ok $? "mrc on nfsdump text"
"$T_BIN/sfs_trace" mrc -q --lba-size 1 "$F/image-refs.spc" --yaml "$T_DIR/r.yaml" --cache-sizes 1,2,4,6,7,8
is "$(y "$T_DIR/m.yaml" '(g["references"], g["cold_misses"], [h["hits"] for h in g["hit_ratio"]])')" \
   "$(y "$T_DIR/r.yaml" '(g["references"], g["cold_misses"], [h["hits"] for h in g["hit_ratio"]])')" \
   "mrc: the NFS trace's curve equals its references' as an SPC trace"
is "$(y "$T_DIR/m.yaml" '(g["records"], g["other_records"], g["unique_blocks"], [h["hits"] for h in g["hit_ratio"]])')" \
   "(6, 16, 7, [0, 0, 0, 0, 2, 2])" "mrc: 6 reads and writes, 7 blocks, the re-read hits at 7 blocks"

"$T_BIN/sfs_trace" image "$F/image.txt" --yaml "$T_DIR/i.yaml" >"$T_DIR/i.txt"
ok $? "image on nfsdump text"
is "$(y "$T_DIR/i.yaml" '(g["roots"][0]["mnt_path"], g["objects"], g["at_start"], g["created"], g["removed"], g["renamed"], g["orphans"], g["bytes"], g["max_depth"])')" \
   "('/export', 13, 10, 3, 2, 1, 2, 20752, 3)" "image: objects at the start, created, removed, renamed, orphans, bytes"
is "$(y "$T_DIR/i.yaml" 'sorted((o["path"], o["type"], o["size"]) for o in g["objects_list"] if o["at_start"])')" \
   "[('', 'dir', 0), ('dir', 'dir', 4096), ('dir/gone', 'reg', 0), ('dir/listed', 'reg', 8192), ('dir/old.txt', 'reg', 12288), ('dir/sub', 'dir', 4096), ('dir/sub/deep', 'reg', 16), ('emptydir', 'dir', 0), ('h000000000000000a', 'lnk', 6), ('h000000000000000b', 'reg', 256)]" \
   "image: the tree at the start, sizes before the first change (read past the end, write past it, truncation)"
is "$(y "$T_DIR/i.yaml" 'sorted((o["path"], o["type"], o.get("target")) for o in g["objects_list"] if not o["at_start"])')" \
   "[('ln', 'lnk', 'dir/old.txt'), ('newdir', 'dir', None), ('newdir/a', 'reg', None)]" \
   "image: created during the trace, where, and a symlink's target"
is "$(y "$T_DIR/i.yaml" '[(n[1], n[2], n[3] is not None, n[4] is not None) for o in g["objects_list"] if o["fh"] == "0000000000000005" for n in o["names"]]')" \
   "[('moved', False, True, False), ('listed', True, False, True)]" "image: a rename ends one name and makes another"
is "$(y "$T_DIR/i.yaml" '[n[1] for o in g["objects_list"] if o["fh"] == "0000000000000003" for n in o["names"]]')" \
   "['hard', 'old.txt']" "image: a hard link made by LINK"
"$T_BIN/sfs_trace" image "$T_FIXTURES/spc/seed-example.spc" >/dev/null 2>"$T_DIR/e.txt"
is "$?:$(cat "$T_DIR/e.txt")" \
   "1:sfs_trace: image: $T_FIXTURES/spc/seed-example.spc is not an NFS trace (--format pcap or nfsdump)" \
   "image of a block trace: one clear message, exit 1"
