# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib_nfscap.sh - packet captures a test makes of its own
# NFS traffic (docs/TESTING.md: dumpcap on lo only, always filtered on the
# test's server ports, the file deleted with the test's directory).
# Source it after lib.sh.
#
#   cap_start FILE PORT...   dumpcap on lo for those ports, into FILE
#   cap_stop                 stops it once FILE has stopped growing

# cap_start FILE PORT...: starts dumpcap and waits (bounded) until it
# captures.  Sets CAP_PID.
cap_start() {
    local file=$1 filter="" p
    shift
    for p in "$@"; do filter="${filter:+$filter or }port $p"; done
    rm -f "$file" "$file.err"
    # a 64 MiB buffer: a busy machine must not make the kernel drop packets
    dumpcap -B 64 -i lo -f "$filter" -w "$file" 2>"$file.err" &
    CAP_PID=$!
    track "$CAP_PID"
    wait_for "grep -q 'Capturing on' '$file.err'" 200 0.05 || diag "dumpcap: $(cat "$file.err")"
    CAP_FILE=$file
}

# cap_stop: dumpcap writes in batches, so it is stopped once its file has
# stopped growing (bounded), then waited for.
cap_stop() {
    local size=-1 i=0
    while [ $i -lt 50 ] && [ "$size" != "$(stat -c %s "$CAP_FILE" 2>/dev/null)" ]; do
        size=$(stat -c %s "$CAP_FILE" 2>/dev/null)
        sleep 0.3
        i=$((i + 1))
    done
    kill -INT "$CAP_PID" 2>/dev/null
    wait_for "! alive $CAP_PID" 100 0.05
    stop_pid "$CAP_PID"
    grep -i "dropped" "$CAP_FILE.err" | grep -q "/[1-9]" && diag "$(cat "$CAP_FILE.err")"
    return 0
}
