#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0201_sfs_ping_ganesha_v3.t - sfs_ping against a real nfs-ganesha on
# loopback: NFSv3 over UDP and TCP, every ping op, many calls in flight,
# explicit ports and the rpcbind (host:/path) form; asking ganesha for
# NFSv2 gives the one-line "server offers NFS versions 3..3, not 2".
# timeout: 300
. "$(dirname "$0")/lib.sh"
start_ganesha
plan 19

P=$T_BIN/sfs_ping
echo "some data" >"$GANESHA_DIR/export/afile"

# field NAME OUTPUT: the value of one report line
field() { printf '%s\n' "$2" | awk -v k="$1" '$1 == k { print $2 }'; }

for tr in udp tcp; do
    q=""; [ $tr = tcp ] && q=-Q
    out=$("$P" $q -c 3000 -o 16 "$GANESHA_URL" 2>&1); rc=$?
    is "$rc" 0 "v3 $tr getattr, 16 in flight: exit 0"
    is "$(field calls "$out")/$(field errors "$out")/$(field nfs_errors "$out")" \
        "3000/0/0" "v3 $tr: 3000 calls, no errors"
    like "$out" "NFSv3 over $(echo $tr | tr a-z A-Z)" "v3 $tr: report names version and transport"
done

for op in null lookup read; do
    out=$("$P" -c 200 -o 4 -p $op "$GANESHA_URL" 2>&1); rc=$?
    is "$rc/$(field calls "$out")/$(field errors "$out")/$(field nfs_errors "$out")" \
        "0/200/0/0" "v3 $op: 200 calls, no errors"
done
like "$out" "op +read afile" "read found the regular file of the export"

# response times are reported and ordered
out=$("$P" -c 500 "$GANESHA_URL" 2>&1)
p50=$(field p50_us "$out"); p99=$(field p99_us "$out"); max=$(field max_us "$out")
ok $([ "$p50" -gt 0 ] && [ "$p50" -le "$p99" ] && [ "$p99" -le "$max" ] && echo 0 || echo 1) \
    "p50 <= p99 <= max ($p50, $p99, $max)"

# the rpcbind form (ganesha registers with rpcbind; start_ganesha holds the
# lock that keeps other instances away while this test runs)
out=$("$P" -c 100 "127.0.0.1:$GANESHA_DIR/export" 2>&1); rc=$?
is "$rc/$(field calls "$out")" "0/100" "host:/path through rpcbind works"
like "$out" "nfs port $GANESHA_NFS_PORT, mount port $GANESHA_MNT_PORT" \
    "rpcbind gave ganesha's ports"

# NFSv2: ganesha has none
out=$("$P" -2 "$GANESHA_URL" 2>&1); rc=$?
is "$out" "sfs_ping: 127.0.0.1: server offers NFS versions 3..3, not 2" \
    "v2 refused in one line (explicit ports)"
ok $([ $rc -ne 0 ] && echo 0 || echo 1) "v2: non-zero exit"
out=$("$P" -2 "127.0.0.1:$GANESHA_DIR/export" 2>&1)
is "$out" "sfs_ping: 127.0.0.1: server offers NFS versions 3..3, not 2" \
    "v2 refused in one line (rpcbind)"

# MOUNT EXPORT lists the export; a reserved source port on request (root)
out=$("$P" -E "$GANESHA_URL" 2>&1)
like "$out" "^export +$GANESHA_DIR/export\$" "-E lists ganesha's export"
out=$("$P" -r -c 10 "$GANESHA_URL" 2>&1)
sp=$(field source_port "$out")
ok $([ -n "$sp" ] && [ "$sp" -lt 1024 ] && echo 0 || echo 1) "-r: reserved source port ($sp)"

# an export ganesha does not have
out=$("$P" "nfs://127.0.0.1:$GANESHA_NFS_PORT/no/such/export?mountport=$GANESHA_MNT_PORT" 2>&1)
like "$out" "^sfs_ping: 127.0.0.1:/no/such/export: export refused \([A-Z]+\); the server exports .*/export" \
    "a missing export is named in one line, with the exports"
