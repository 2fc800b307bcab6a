#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0673_trace_fit_of_a_libnfs_workload.t - sfs_trace fit --interface lo on
# a workload that is not SFS-shaped: libnfs-utils copying a 3 MB and a
# 5 KB file to sfs_nfsd over TCP, listing the export and reading both back
# (large calls, whole-file sequential transfers, MOUNT and FSINFO at each
# start).  The fit says what it could not map or keep - the MOUNT calls,
# the calls larger than SFS's 8 KB block, the requests longer than 64
# blocks, the files the trace created - its files read back (the load
# layer's parsers, sfs_mgr --check), and its mix is over the NFS calls.
# timeout: 60
. "$(dirname "$0")/lib.sh"
need_root "live capture on lo"
need_cmd nfs-cp
need_cmd nfs-ls
need_cmd nfs-cat
need_python_yaml
plan 5
start_nfsd srv || bail "sfs_nfsd did not start"
cd "$T_DIR" || bail "no test directory"
head -c 3000000 /dev/urandom >big.bin
head -c 5000 /dev/urandom >small.bin
url() { printf 'nfs://127.0.0.1/export%s?nfsport=%s&mountport=%s' "$1" "$srv_NFS_PORT" "$srv_MNT_PORT"; }

"$T_BIN/sfs_trace" fit --interface lo --filter "port $srv_NFS_PORT or port $srv_MNT_PORT" \
    -o lnfs --points 2 --yaml lnfs.yaml --write lnfs.pcapng >fit.out 2>fit.err &
cap=$!
track "$cap"
wait_for "grep -q '^sfs_trace: capturing on lo' fit.err" 200 0.05 || bail "no capture: $(cat fit.err)"
nfs-cp big.bin "$(url /big.bin)" >/dev/null &&
    nfs-cp small.bin "$(url /small.bin)" >/dev/null &&
    nfs-ls "$(url "")" >ls.out &&
    nfs-cat "$(url /big.bin)" | cmp -s - big.bin &&
    nfs-cp "$(url /small.bin)" back.bin >/dev/null && cmp -s back.bin small.bin
ok $? "libnfs-utils copied, listed and read back while captured"
kill -INT "$cap"
wait_for "! alive $cap" 200 0.05
wait "$cap"
is "$?:$(ls lnfs.mix lnfs.iodist lnfs_rc 2>/dev/null | wc -l)" "0:3" "fit --interface ended at SIGINT and wrote its files $(cat fit.err)"
diag "$(sed -n '/what it cannot keep/,/^$/p' fit.out)"
out=$(python3 - lnfs.yaml <<'PY'
import sys, yaml
g = yaml.safe_load(open(sys.argv[1]))
notes = "\n".join(g["not_kept"])
want = ["MOUNT calls: not in SFS's mix", "SFS's largest block is 8 KB",
        "cut to 64 blocks", "files the trace created and wrote taken for the file set"]
missing = [w for w in want if w not in notes]
print("missing: " + "; ".join(missing) if missing else
      "stated: %d MOUNT calls, %d not mapped, %d notes" %
      (notes.count("MOUNT"), g["unmapped_calls"], len(g["not_kept"])))
sys.exit(1 if missing or g["unmapped_calls"] == 0 else 0)
PY
)
ok $? "what could not be mapped or kept is stated ($out)"
SFS_MOUNT=$srv_URL "$T_BIN/sfs_mgr" --check -r lnfs_rc >check.out 2>&1
is "$?:$(grep -c '^load_points: ' check.out)" "0:1" "sfs_mgr takes the fitted rc file $(grep -i error check.out)"
out=$(python3 -c '
import sys, yaml
g = yaml.safe_load(open(sys.argv[1]))
print(sum(g["mix"].values()), g["mix"]["read"] > 0, g["mix"]["write"] > 0, g["rc"]["NUM_RUNS"], g["nfs_version"])' lnfs.yaml)
is "$out" "100 True True 2 3" "the mix sums to 100 over the NFS calls, reads and writes in it; 2 load points; NFSv3"
