#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# A remote shell that ends at once (ssh refused by the host) may be gone
# before sfs_mgr writes the run's token to its standard input: on a busy
# machine it often is.  The failure is then still the remote shell's exit,
# its status and its last words - ssh's reason - never "could not hand over
# the token", which said neither (0821 saw both, by the race).  The remote
# shell here is a script that closes its standard input first, then says
# what ssh says when the host refuses and exits 255; twelve runs beside a
# busy loop per CPU (that makes the early end likely), each one checked.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 4
cat >"$T_DIR/rsh" <<'EOF'
#!/bin/sh
exec <&-
echo "ssh: connect to host $1 port 22: Connection refused" >&2
exit 255
EOF
chmod +x "$T_DIR/rsh"
prime_rc "$T_DIR/rc" LOAD=30 'CLIENTS="farhost"' PROCS=1 \
    'MNT_POINTS="127.0.0.1:2049:/export"' NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=3 \
    FILE_COUNT=100 "WORK_DIR=$T_DIR/res" "RSH=\"$T_DIR/rsh\""
start_cpu_hogs
st="" msgs="" early=0
for i in $(seq 12); do
    "$T_BIN/sfs_mgr" -r "$T_DIR/rc" -s "r$i" --progress 0 >"$T_DIR/out$i" 2>"$T_DIR/err$i"
    st="$st$? "
    msgs="$msgs$(cat "$T_DIR/err$i")
"
    grep -q "its standard input closed before the token was written" "$T_DIR/res/sfslog.r$i" &&
        early=$((early + 1))
done
for h in $HOGS; do stop_pid "$h"; done
diag "the remote shell was gone before the token in $early of 12 runs"
is "$st" "1 1 1 1 1 1 1 1 1 1 1 1 " "every run fails (exit 1)"
want="sfs_mgr: run 1 of 1 failed: client 1 (farhost): its remote shell exited (exit status 255) before the end of the point: ssh: connect to host farhost port 22: Connection refused"
is "$(printf '%s' "$msgs" | sort | uniq -c | sed 's/^ *//')" "12 $want" \
    "each names the host, the remote shell's exit status and ssh's reason"
unlike "$msgs" "could not hand over the token" "none blames the token's write"
ok "$(for i in $(seq 12); do [ -s "$T_DIR/res/sfssum.r$i" ] && exit 1; done; echo 0)" \
    "no point was recorded"
