# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib_nfscap.sh - packet captures a test makes of its own
# NFS traffic (docs/TESTING.md, Network safety: on lo or inside the test's
# own network namespace only, always filtered on the test's server ports,
# the file deleted with the test's directory).  Source it after lib.sh.
#
#   cap_start [-n NETNS -i IFACE -t PEER] [-s SNAPLEN] FILE PORT...
#                 dumpcap on lo (or on IFACE inside the test's namespace
#                 NETNS, PEER an address reached through IFACE) for those
#                 ports, into FILE (each packet cut at SNAPLEN bytes when
#                 given); returns once a probe datagram sent after it
#                 started is in FILE; status 1 when it did not start
#   cap_stop      sends a last probe, waits until it is in FILE, stops
#                 dumpcap (SIGINT, by PID) and waits for it to exit; the
#                 probes are then removed from FILE
#
# Why probes: dumpcap says "Capturing on" before it has opened the
# interface, and it writes what it captured in batches (about every half
# second), so neither its words nor a file that stopped growing tell that
# a packet is in the file.  On a busy machine a capture started or stopped
# on those signs lost the first or the last calls.  A probe is one UDP
# datagram with a token of its own to the discard port (9, nobody listens:
# the kernel drops it) through the captured interface; once the token is
# in the file, every packet sent before it is there too (one interface,
# one ring, in order).  Probes go to the discard port only, so the
# capture's other packets are exactly the test's.
#
# Inside a namespace the filter also keeps the IPv4 fragments after the
# first (they carry no UDP header, so no port to filter on): the namespace
# is the test's own, so they are the test's too.

CAP_PROBE_PORT=9

# _cap_probe TOKEN: one probe datagram through the captured interface.
_cap_probe() {
    if [ -n "$CAP_NS" ]; then
        ip netns exec "$CAP_NS" bash -c "echo '$1' >/dev/udp/$CAP_PEER/$CAP_PROBE_PORT" 2>/dev/null
    else
        echo "$1" >"/dev/udp/127.0.0.1/$CAP_PROBE_PORT" 2>/dev/null
    fi
    return 0
}

# _cap_seen TOKEN: is the token in the capture file yet?
_cap_seen() { grep -aqF "$1" "$CAP_FILE" 2>/dev/null; }

# _cap_wait TOKEN: probes every 50 ms until the token is in the file;
# bounded by 15 s.
_cap_wait() {
    local i=0
    while [ $i -lt 300 ]; do
        _cap_probe "$1"
        _cap_seen "$1" && return 0
        alive "$CAP_PID" || return 1
        sleep 0.05
        i=$((i + 1))
    done
    return 1
}

# cap_start [-n NETNS -i IFACE -t PEER] [-s SNAPLEN] FILE PORT...: starts
# dumpcap and waits (bounded) until it captures.  Sets CAP_PID and CAP_FILE.
cap_start() {
    local ifc=lo filter="" p snap=262144
    CAP_NS="" CAP_PEER=""
    while [ $# -gt 0 ]; do
        case "$1" in
        -n) CAP_NS=$2; shift 2 ;;
        -i) ifc=$2; shift 2 ;;
        -t) CAP_PEER=$2; shift 2 ;;
        -s) snap=$2; shift 2 ;;
        *) break ;;
        esac
    done
    command -v editcap >/dev/null || bail "cap_start needs editcap (wireshark-common, beside tshark)"
    [ -n "$CAP_NS" ] && [ -z "$CAP_PEER" ] && bail "cap_start -n needs -t PEER (the probes' way out)"
    CAP_FILE=$1
    CAP_TOKEN="freesfs-cap-probe-$$-$RANDOM$RANDOM"
    shift
    for p in "$@"; do filter="${filter:+$filter or }port $p"; done
    filter="$filter or udp dst port $CAP_PROBE_PORT"
    rm -f "$CAP_FILE" "$CAP_FILE.err"
    # a 64 MiB buffer: a busy machine must not make the kernel drop packets
    if [ -n "$CAP_NS" ]; then
        filter="$filter or (ip[6:2] & 0x1fff != 0)"
        # ip netns exec execs dumpcap: $! is dumpcap's PID
        ip netns exec "$CAP_NS" dumpcap -B 64 -s "$snap" -i "$ifc" -f "$filter" \
            -w "$CAP_FILE" 2>"$CAP_FILE.err" &
    else
        dumpcap -B 64 -s "$snap" -i "$ifc" -f "$filter" -w "$CAP_FILE" 2>"$CAP_FILE.err" &
    fi
    CAP_PID=$!
    track "$CAP_PID"
    _cap_wait "$CAP_TOKEN-start" && return 0
    diag "dumpcap did not capture its probe: $(cat "$CAP_FILE.err")"
    stop_pid "$CAP_PID"
    return 1
}

# cap_stop: the last probe in the file, then dumpcap stopped and waited
# for, the probes taken out; packets the kernel dropped are said.
cap_stop() {
    local frames
    _cap_wait "$CAP_TOKEN-stop" || diag "dumpcap: the last probe did not reach $CAP_FILE"
    kill -INT "$CAP_PID" 2>/dev/null
    wait_for "! alive $CAP_PID" 200 0.05
    stop_pid "$CAP_PID"
    grep -i "dropped" "$CAP_FILE.err" | grep -q "/[1-9]" && diag "$(cat "$CAP_FILE.err")"
    frames=$(tshark -n -r "$CAP_FILE" -Y "udp.dstport == $CAP_PROBE_PORT" -T fields \
        -e frame.number 2>/dev/null | tr '\n' ' ')
    if [ -n "${frames// /}" ]; then
        # shellcheck disable=SC2086
        editcap "$CAP_FILE" "$CAP_FILE.tmp" $frames >/dev/null 2>>"$CAP_FILE.err" &&
            mv "$CAP_FILE.tmp" "$CAP_FILE"
    fi
    return 0
}
