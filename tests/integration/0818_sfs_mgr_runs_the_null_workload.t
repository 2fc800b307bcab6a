#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# check: null
# A workload is its directory and one line in the registry (docs/ARCHITECTURE.md,
# "The workload interface"): the null workload (src/null: NULL calls at the
# requested rate) runs end to end through sfs_mgr on two local clients
# against sfs_nfsd - chosen by WORKLOAD, its own option NULL_BATCH reaching
# the clients and the YAML's parameters, its own counters (requests, the
# most calls in flight) in the YAML beside the per-op table, the load held
# to 2 % - and its option is refused when another workload runs.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
need_python_yaml
plan 7
start_nfsd srv || bail "sfs_nfsd did not start"
rc=$T_DIR/null_rc
prime_rc "$rc" WORKLOAD=null NULL_BATCH=4 LOAD=400 'CLIENTS="localhost localhost"' \
    PROCS=2 "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=4 \
    "WORK_DIR=$T_DIR/res"
out=$("$T_BIN/sfs_mgr" --check -r "$rc" 2>&1)
like "$out" "client_command 1: .* --workload=null .*--null-batch=4 " \
    "--check: each client is told the workload and its option"
"$T_BIN/sfs_mgr" -r "$rc" -s n >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr runs the null workload $(tail -2 "$T_DIR/err")"
like "$(cat "$T_DIR/out")" "Executing run 1 of 1 \.\.\. done" "the point is done"
y=$(python3 -c 'import sys, yaml
p = yaml.safe_load(open(sys.argv[1]))["points"][0]["aggregate"]
n, par = p["null"], p["parameters"]
ops = {o["op"]: o for o in p["ops"]}
print(par["null-batch"]["value"], par["null-batch"]["source"], n["most_in_flight"],
      abs(ops["null"]["good"] - 4 * n["requests"]) <= 16,
      p["aggregate_requested_load"] == 400 and
      0 < p["results"]["throughput_ops"] <= 408)' "$T_DIR/res/sfsres.n.yaml" 2>&1)
is "$y" "4 rc file 4 True True" \
    "the YAML: NULL_BATCH from the rc file, 4 calls in flight, 4 NULL calls per request, 400 ops/s asked and never more done"
"$T_BIN/sfs3" --null-batch 2 "$srv_URL" >"$T_DIR/bad.out" 2>&1
is "$?:$(cat "$T_DIR/bad.out")" \
    "51:sfs3: --null-batch 2: an option of the null workload; this run's is mix" \
    "--null-batch with the mix is refused with one line"
"$T_BIN/sfs3" --workload null --null-batch 65 "$srv_URL" >"$T_DIR/bad.out" 2>&1
is "$?:$(cat "$T_DIR/bad.out")" \
    "51:sfs3: --null-batch: 65 is out of range 1..64 calls" "and out of its range"
no_leftovers "$(run_tag "$rc")" 10
ok $? "no process of the run is left"
