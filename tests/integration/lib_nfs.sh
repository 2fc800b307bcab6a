# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib_nfs.sh - what the NFS trace reader's tests share,
# sourced after lib.sh: captures of the test's own traffic
# (lib_nfscap.sh), the reader's per-message dump (tests/tools/nfs_events)
# and the comparisons with tshark's independent decode
# (tests/tools/nfs-tshark.py; NFSv4's: tests/tools/nfs4-tshark.py).

. "$(dirname "${BASH_SOURCE[0]}")/lib_nfscap.sh"
NFS_EVENTS=$(tool_path nfs_events) || bail "tests/tools/nfs_events not built"
NFS_TSHARK=$T_TOP/tests/tools/nfs-tshark.py
NFS4_TSHARK=$T_TOP/tests/tools/nfs4-tshark.py

# nfs_check CAPTURE PORTS [reader options]: the reader's messages against
# tshark's (PORTS: the server's ports, comma-separated); prints the
# checker's summary (and mismatches); status 0 when they agree.
nfs_check() {
    local cap=$1 ports=$2 ev
    shift 2
    ev=$T_DIR/$(basename "$cap").events
    "$NFS_EVENTS" "$@" "$cap" >"$ev" || return 1
    # shellcheck disable=SC2046
    python3 "$NFS_TSHARK" events "$cap" "$ev" $(echo "$ports" | tr , ' ')
}

# nfs_stats_check CAPTURE PORT...: `sfs_trace stats` on the capture against
# tshark's figures (calls, replies, response times per procedure, bytes);
# prints "agree: ..." or the differences; status 0 when they agree.
nfs_stats_check() {
    local cap=$1 y
    shift
    y=$T_DIR/$(basename "$cap").stats.yaml
    "$T_BIN/sfs_trace" stats -q "$cap" --yaml "$y" || return 1
    python3 "$NFS_TSHARK" stats "$cap" "$y" "$@"
}

# nfs4_check CAPTURE PORT: the reader's NFSv4 COMPOUNDs and their
# operations (nfs_events -4, left in CAPTURE.events) against tshark's;
# prints the checker's summary (and mismatches); status 0 when they agree.
nfs4_check() {
    local ev=$T_DIR/$(basename "$1").events
    "$NFS_EVENTS" -4 "$1" >"$ev" || return 1
    python3 "$NFS4_TSHARK" events "$1" "$ev" "$2"
}

# nfs4_stats_check CAPTURE PORT: `sfs_trace stats`'s nfsv4 figures (the
# YAML left in CAPTURE.stats.yaml) against tshark's; prints "agree: ..."
# or the differences.
nfs4_stats_check() {
    local y=$T_DIR/$(basename "$1").stats.yaml
    "$T_BIN/sfs_trace" stats -q "$1" --yaml "$y" || return 1
    python3 "$NFS4_TSHARK" stats "$1" "$y" "$2"
}
