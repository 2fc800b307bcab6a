#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0203_sfs_ping_bad_mount_points.t - malformed mount points, unknown hosts,
# closed ports and bad options: one clear line on stderr naming the
# problem, a non-zero exit, no crash, nothing on stdout.
# timeout: 60
. "$(dirname "$0")/lib.sh"

P=$T_BIN/sfs_ping
closed=$((T_PORT_BASE + 1)) # nobody listens here: this test's own range

# check ARGS... -- REGEX DESCRIPTION
cases=(
    "server|mount point 'server': no ':/path' part"
    "server:export|mount point 'server:export': 'export' is not a port 1..65535"
    ":/export|mount point ':/export': no host name"
    "127.0.0.1:0:/e|'0' is not a port 1..65535"
    "127.0.0.1:99999:/e|'99999' is not a port 1..65535"
    "nfs://127.0.0.1|the path must start with '/'"
    "nfs://127.0.0.1/e?mountport=x|'x' is not a port 1..65535"
    "nfs://127.0.0.1/e?vers=3|unknown option 'vers=3'"
    "127.0.0.1:$closed:/e|^sfs_ping: 127.0.0.1: no NFS server answers at port $closed \\(connection refused\\)\$"
)
plan $((${#cases[@]} * 2 + 8))

for c in "${cases[@]}"; do
    spec=${c%%|*}
    want=${c#*|}
    err=$("$P" -t 2000 "$spec" 2>&1 >"$T_DIR/stdout"); rc=$?
    like "$err" "$want" "'$spec': clear message"
    lines=$(printf '%s\n' "$err" | wc -l)
    ok $([ $rc -eq 1 ] && [ "$lines" -eq 1 ] && [ ! -s "$T_DIR/stdout" ] && echo 0 || echo 1) \
        "'$spec': exit 1, one line, no stdout (rc $rc, $lines lines)"
done

# An unknown host: resolved inside an empty network namespace, so that the
# name lookup can never reach a real DNS server (safety rule 1).
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1; then
    err=$(unshare -n "$P" no-such-host.invalid:/e 2>&1); rc=$?
    like "$err" "^sfs_ping: no-such-host.invalid: unknown host \\(.*\\)$" "unknown host named"
    is "$rc" 1 "unknown host: exit 1"
else
    skip "unknown host check needs root and unshare (no DNS traffic allowed)"
    skip "unknown host check needs root and unshare"
fi

err=$("$P" -Q "127.0.0.1:$closed:/e" 2>&1); rc=$?
like "$err" "^sfs_ping: 127.0.0.1: no server answers at port $closed \(connection refused\)$" \
    "TCP to a closed port: one line"
ok $([ $rc -eq 1 ] && echo 0 || echo 1) "TCP to a closed port: exit 1"

err=$("$P" -p write 127.0.0.1:/e 2>&1); rc=$?
like "$err" "^sfs_ping: -p \(--proc\): 'write' is not one of null, getattr, lookup, read" "unknown -p op named, with the choices"
is "$rc" 2 "bad usage exits 2"
err=$("$P" -c 0 127.0.0.1:/e 2>&1); rc=$?
like "$err" "^sfs_ping: -c" "-c 0 refused"
"$P" >/dev/null 2>&1; is "$?" 2 "no mount point: usage, exit 2"
