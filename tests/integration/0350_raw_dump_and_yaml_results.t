#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# -z writes one raw dump per child (c<client>-p<child> in $TMPDIR) with one
# row per call of the run; --yaml writes the results, and their call count
# is the report's.  -N names the client's directory (CL<N>) and the dump.
# results.run.client_cpu_us is the children's CPU in the run phase: more
# than nothing, and no more than the run's time per child.
# DEBUG 14 shows biod keeping several calls of a request in flight (-R/-W).
. "$(dirname "$0")/lib.sh"
plan 8
start_nfsd srv || bail "sfs_nfsd did not start"
out=$(TMPDIR=$T_DIR "$T_BIN/sfs3" -z -N 7 -d 14 -R 4 -W 4 -l 100 -p 2 -w 1 -t 3 -F 400 \
    --yaml "$T_DIR/res.yaml" "$srv_URL" 2>"$T_DIR/err")
is "$?" 0 "sfs3 -z exits 0"
ok "$([ -s "$T_DIR/c007-p000" ] && [ -s "$T_DIR/c007-p001" ]; echo $?)" \
    "one dump per child: c007-p000, c007-p001"
rows=$(cat "$T_DIR"/c007-p00? | grep -cE '^(getattr|setattr|lookup|readlink|read|write|create|remove|readdir|fsstat|access|commit|fsinfo|readdirplus) ')
total=$(printf '%s\n' "$out" | awk '/TOTAL NFS OPERATIONS:/ {print $4}')
is "$rows" "$total" "one dump row per call ($total)"
like "$(grep -E '^(read|write) ' "$T_DIR/c007-p000" | head -1)" \
    '^(read|write) +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+$' \
    "read/write rows carry length, offset and size"
yaml=$(cat "$T_DIR/res.yaml" 2>/dev/null)
like "$yaml" "lookup" "the YAML file has the per-op results"
cpu_ok=$(printf '%s\n' "$yaml" | awk '/^  test_time_exact_s:/ { t = $2 } /^  children:/ { n = $2 }
    /^  client_cpu_us:/ { c = $2 } END { print (c > 0 && c <= (t + 1) * 1e6 * n) ? 0 : 1 }')
ok "$cpu_ok" "client_cpu_us: the run phase's CPU, above 0 and within the run's time per child"
like "$(nfs-ls "nfs://127.0.0.1/export?nfsport=${srv_NFS_PORT}&mountport=${srv_MNT_PORT}" 2>&1)" \
    "CL7" "-N 7 works in CL7"
like "$(cat "$T_DIR/err")" "biod: .* at most [2-4] in flight" \
    "biod keeps up to -R/-W calls of a request in flight"
