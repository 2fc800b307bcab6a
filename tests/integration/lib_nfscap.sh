# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib_nfscap.sh - packet captures a test makes of its own
# NFS traffic (docs/TESTING.md, Network safety: on lo or inside the test's
# own network namespace only, always filtered on the test's server ports,
# the file deleted with the test's directory).  Source it after lib.sh.
#
#   cap_start [-n NETNS -i IFACE] FILE PORT...
#                 dumpcap on lo (or on IFACE inside the test's namespace
#                 NETNS) for those ports, into FILE; status 1 when it did
#                 not start
#   cap_stop      stops it once FILE has stopped growing
#
# Inside a namespace the filter also keeps the IPv4 fragments after the
# first (they carry no UDP header, so no port to filter on): the namespace
# is the test's own, so they are the test's too.

# cap_start [-n NETNS -i IFACE] FILE PORT...: starts dumpcap and waits
# (bounded) until it captures.  Sets CAP_PID and CAP_FILE.
cap_start() {
    local ns="" ifc=lo filter="" p
    while [ $# -gt 0 ]; do
        case "$1" in
        -n) ns=$2; shift 2 ;;
        -i) ifc=$2; shift 2 ;;
        *) break ;;
        esac
    done
    CAP_FILE=$1
    shift
    for p in "$@"; do filter="${filter:+$filter or }port $p"; done
    rm -f "$CAP_FILE" "$CAP_FILE.err"
    # a 64 MiB buffer: a busy machine must not make the kernel drop packets
    if [ -n "$ns" ]; then
        filter="$filter or (ip[6:2] & 0x1fff != 0)"
        # ip netns exec execs dumpcap: $! is dumpcap's PID
        ip netns exec "$ns" dumpcap -B 64 -i "$ifc" -f "$filter" -w "$CAP_FILE" \
            2>"$CAP_FILE.err" &
    else
        dumpcap -B 64 -i "$ifc" -f "$filter" -w "$CAP_FILE" 2>"$CAP_FILE.err" &
    fi
    CAP_PID=$!
    track "$CAP_PID"
    wait_for "grep -q 'Capturing on' '$CAP_FILE.err'" 200 0.05 && return 0
    diag "dumpcap did not start: $(cat "$CAP_FILE.err")"
    return 1
}

# cap_stop: dumpcap writes in batches, so it is stopped once its file has
# stopped growing (bounded: 15 s), then waited for; packets the kernel
# dropped are said.
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
