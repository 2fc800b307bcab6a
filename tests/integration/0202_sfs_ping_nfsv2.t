#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0202_sfs_ping_nfsv2.t - sfs_ping over NFSv2 (MOUNT v1) on UDP and TCP.
# The peer is the bundled server sfs_nfsd when it is built; until then the
# test-only responder tests/tools/v2_responder.c (no v2 server exists for
# this machine: docs/TESTING.md, "NFSv2: FreeSFS's own server").
# timeout: 60
# check: rpc nfs bin
. "$(dirname "$0")/lib.sh"
plan 13

P=$T_BIN/sfs_ping

if [ -x "$T_BIN/sfs_nfsd" ]; then
    start_nfsd SRV || bail "sfs_nfsd did not start"
    URL=$SRV_URL
    peer=sfs_nfsd
else
    R=$(tool_path v2_responder) || bail "tests/tools/v2_responder not built (make tools)"
    port=$T_PORT_BASE
    "$R" -b 127.0.0.1 -p "$port" -e /export >"$T_DIR/responder.log" 2>&1 &
    track $!
    wait_for "grep -q '^ready' '$T_DIR/responder.log'" 100 0.05 || bail "responder did not start"
    URL=127.0.0.1:$port:/export
    peer=v2_responder
fi
diag "NFSv2 peer: $peer at $URL"

field() { printf '%s\n' "$2" | awk -v k="$1" '$1 == k { print $2 }'; }

for tr in udp tcp; do
    q=""; [ $tr = tcp ] && q=-Q
    out=$("$P" -2 $q -c 2000 -o 8 "$URL" 2>&1); rc=$?
    is "$rc" 0 "v2 $tr getattr: exit 0"
    is "$(field calls "$out")/$(field errors "$out")/$(field nfs_errors "$out")" "2000/0/0" \
        "v2 $tr: 2000 calls, no errors"
    like "$out" "NFSv2 over $(echo $tr | tr a-z A-Z)" "v2 $tr: report names version and transport"
done
for op in null lookup; do
    out=$("$P" -2 -c 300 -o 4 -p $op "$URL" 2>&1); rc=$?
    is "$rc/$(field calls "$out")/$(field errors "$out")" "0/300/0" "v2 $op: 300 calls, no errors"
done
out=$("$P" -2 -E "$URL" 2>&1)
like "$out" "^export +/export" "-E lists the export over MOUNT v1"
if [ "$(id -u)" -eq 0 ]; then
    sp=$(field source_port "$("$P" -2 -r -c 10 "$URL" 2>&1)")
    ok $([ -n "$sp" ] && [ "$sp" -lt 1024 ] && echo 0 || echo 1) "-r: reserved source port ($sp)"
else
    skip "-r needs root"
fi
if [ $peer = v2_responder ]; then
    out=$("$P" -2 -c 300 -o 4 -p read "$URL" 2>&1); rc=$?
    is "$rc/$(field calls "$out")/$(field nfs_errors "$out")" "0/300/0" "v2 read: 300 calls"
    out=$("$P" -3 "$URL" 2>&1); rc=$?
    is "$out" "sfs_ping: 127.0.0.1: server offers NFS versions 2..2, not 3" \
        "asking a v2-only server for v3: one line"
    out=$("$P" -2 "${URL%/export}/elsewhere" 2>&1); rc=$?
    is "$out" "sfs_ping: 127.0.0.1:/elsewhere: export refused (NOENT); the server exports /export" \
        "a refused export is named in one line, with the exports"
else
    skip "v2 read needs a regular file in sfs_nfsd's export"
    skip "sfs_nfsd serves v3 too: no version refusal to check"
    out=$("$P" -2 "${URL%/export}/elsewhere" 2>&1); rc=$?
    like "$out" "^sfs_ping: 127.0.0.1:/elsewhere: export refused \([A-Z]+\); the server exports /export$" \
        "a refused export is named in one line, with the exports"
fi
