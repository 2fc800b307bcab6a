# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib_nreplay.sh - what the NFS trace replay's tests
# share, sourced after lib.sh: captures (lib_nfscap.sh), tshark's list of
# the NFS calls of a capture (tests/tools/nfs-tshark.py calls) and a replay
# whose timed part alone is captured.

. "$(dirname "${BASH_SOURCE[0]}")/lib_nfscap.sh"
NFS_TSHARK=$T_TOP/tests/tools/nfs-tshark.py
LNFS_TOOL=$(tool_path lnfs_tool) || bail "tests/tools/lnfs_tool not built"

# nr_calls CAPTURE PORT...: tshark's NFS calls, one "PROC NAME..." line each
# (READ and WRITE with their byte counts), sorted; when tshark fails or
# finds nothing, the capture's size and tshark's complaint are said.
nr_calls() {
    local out
    out=$(python3 "$NFS_TSHARK" calls "$@" 2>"$T_DIR/nr_calls.err")
    [ -n "$out" ] || diag "no NFS call found in $1 ($(stat -c %s "$1" 2>/dev/null) bytes):" \
        "$(tail -5 "$T_DIR/nr_calls.err")" "$(cat "$CAP_FILE.err" 2>/dev/null | tail -3)"
    printf '%s\n' "$out"
}

# nr_yaml FILE EXPR: a value of the results' YAML (g is the document).
nr_yaml() {
    python3 -c "import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print($2)" "$1"
}

# nr_replay_captured CAP PORTS URL [sfs3 options...]: replays with sfs3 -i,
# the capture CAP (filtered on PORTS, comma-separated) running from the
# prompt (mount and preparation done) to the end; a hook NR_BEFORE_RUN (a
# shell command) runs at the prompt; NR_PROG names another program than
# sfs3 (sfs4).  Sets NR_RC.
nr_replay_captured() {
    local cap=$1 ports=$2 url=$3
    shift 3
    # shellcheck disable=SC2046
    if ! prompted_start "$T_BIN/${NR_PROG:-sfs3}" -i "$@" "$url"; then
        NR_RC=99
        return
    fi
    [ -n "${NR_BEFORE_RUN:-}" ] && eval "$NR_BEFORE_RUN"
    # shellcheck disable=SC2046
    cap_start "$cap" $(echo "$ports" | tr , ' ') || {
        prompted_go
        NR_RC=98
        return
    }
    prompted_go
    NR_RC=$PROMPTED_RC
    cap_stop
}

# nr_validation_capture FILE: the validation suite (sfs3 -Q -V 1) run
# against a new sfs_nfsd A while captured into FILE (A stays up: A_URL,
# A_NFS_PORT...); returns sfs3's exit status.  left: "none", or "left
# running" while a process whose command line names one of the test's
# captures ($T_DIR/*.pcapng) is still there.
nr_validation_capture() {
    local rv
    start_nfsd A || bail "sfs_nfsd did not start"
    cap_start "$1" "$A_NFS_PORT" "$A_MNT_PORT" || bail "no capture"
    timeout 100 "$T_BIN/sfs3" -Q -V 1 "$A_URL" >"$T_DIR/v.out" 2>&1
    rv=$?
    cap_stop
    return $rv
}
left() { pgrep -f "$T_DIR/[a-z0-9]*\.pcapng" >/dev/null && echo "left running" || echo none; }

# nr4_plan CAPTURE PORT: sfs_trace plan --nfs-version 4 of CAPTURE (PORT:
# the server's NFS port) into CAPTURE.plan, and what to compare it with.
# Sets NR4_RC (its exit status), NR4_LINE (its first line), NR4_OPS (its
# second, the calls per op...), NR4_WANT (the same as tshark decodes the
# capture, tests/tools/nfs4-planned.py), NR4_OBJECTS (sfs_trace
# image's objects) and NR4_CLIENTS (the clients tshark finds: EXCHANGE_ID
# and SETCLIENTID owners, tests/tools/nfs4-clients.py).
nr4_plan() {
    "$T_BIN/sfs_trace" plan --nfs-version 4 "$1" -o "$1.plan" >"$1.out" 2>&1
    NR4_RC=$?
    NR4_LINE=$(head -1 "$1.out")
    NR4_OPS=$(sed -n '2s/^  //p' "$1.out")
    NR4_WANT=$(python3 "$T_TOP/tests/tools/nfs4-planned.py" "$1" "$2")
    NR4_CLIENTS=$(python3 "$T_TOP/tests/tools/nfs4-clients.py" "$1" "$2" |
        sed -n 's/^clients \([0-9]*\),.*/\1/p')
    NR4_OBJECTS=$("$T_BIN/sfs_trace" image -q "$1" --yaml "$1.yaml" >/dev/null 2>&1 &&
        python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["objects"])' \
            "$1.yaml")
}
