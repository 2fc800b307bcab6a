# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib_nfs.sh - what the NFS trace reader's tests share,
# sourced after lib.sh: a capture on lo filtered to the test's own ports
# (dumpcap, stopped by its PID once the file stops growing), the reader's
# per-message dump (tests/tools/nfs_events) and the comparison with
# tshark's independent decode (tests/tools/nfs-tshark-check.py).

NFS_EVENTS=$(tool_path nfs_events) || bail "tests/tools/nfs_events not built"
NFS_CHECK=$T_TOP/tests/tools/nfs-tshark-check.py

# capture_start FILE PORT...: dumpcap on lo, only those ports; sets CAP_PID.
capture_start() {
    local f=$1 filter="" p
    shift
    for p in "$@"; do filter="$filter${filter:+ or }port $p"; done
    dumpcap -q -n -B 64 -i lo -f "$filter" -w "$f" 2>"$T_DIR/dumpcap.err" &
    CAP_PID=$!
    track "$CAP_PID"
    wait_for "grep -q 'Capturing on' '$T_DIR/dumpcap.err'" 200 0.05 ||
        bail "dumpcap did not start: $(cat "$T_DIR/dumpcap.err")"
}

# capture_stop FILE: waits (bounded) until the file stops growing, then
# stops dumpcap by its PID.
capture_stop() {
    local size=-1 i=0
    while [ $i -lt 40 ] && [ "$size" != "$(stat -c %s "$1" 2>/dev/null)" ]; do
        size=$(stat -c %s "$1" 2>/dev/null)
        sleep 0.3
        i=$((i + 1))
    done
    kill -INT "$CAP_PID" 2>/dev/null
    wait_for "! alive $CAP_PID" 100 0.05
    stop_pid "$CAP_PID"
}

# nfs_check CAPTURE PORTS [reader options]: the reader's messages against
# tshark's; prints the checker's summary (and mismatches); status 0 when
# they agree.
nfs_check() {
    local cap=$1 ports=$2 ev
    shift 2
    ev=$T_DIR/$(basename "$cap").events
    "$NFS_EVENTS" "$@" "$cap" >"$ev" || return 1
    python3 "$NFS_CHECK" "$cap" "$ev" -p "$ports"
}
