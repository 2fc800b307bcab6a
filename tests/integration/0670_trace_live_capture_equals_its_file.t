#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0670_trace_live_capture_equals_its_file.t - sfs_trace stats --interface
# lo on the traffic of a running sfs3 (filtered to this test's server
# ports): the report equals that of the pcapng --write kept, read as a
# file; --progress prints its lines; the capture ends by itself after
# --duration and --count; a capture the kernel had to drop packets of
# (a 1 MiB buffer while sfs_trace is stopped) says so in its headline;
# mrc --interface gives the sampled curve (and refuses the exact one); and
# without the CAP_NET_RAW capability the message says what is missing.
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_root "live capture on lo"
need_cmd capsh
need_python_yaml
plan 14
start_nfsd srv || bail "sfs_nfsd did not start"
FILTER="port $srv_NFS_PORT or port $srv_MNT_PORT"

# live NAME ARGS...: sfs_trace ARGS --interface lo in the background (PID in
# LIVE_PID), stderr in $T_DIR/NAME.err, stdout in NAME.out; returns once it
# says it captures (bounded).
live() {
    local name=$1
    shift
    "$T_BIN/sfs_trace" "$@" --interface lo >"$T_DIR/$name.out" 2>"$T_DIR/$name.err" &
    LIVE_PID=$!
    track "$LIVE_PID"
    wait_for "grep -q '^sfs_trace: capturing on lo' '$T_DIR/$name.err'" 200 0.05
}

# ended PID: waits (bounded) for the capture to end; its exit status.
ended() {
    wait_for "! alive $1" 400 0.05 || return 99
    wait "$1"
}

# yaml_core FILE: the stats YAML without what names the source (trace,
# format, capture, options)
yaml_core() {
    python3 -c '
import sys, yaml
g = yaml.safe_load(open(sys.argv[1]))
for k in ("trace", "format", "capture", "options"):
    g.pop(k, None)
print(yaml.safe_dump(g, sort_keys=True))' "$1"
}

# 1-5: a capture of a whole sfs3 run (population and load), stopped by SIGINT;
# 256 MiB of buffer: on a busy machine (load 14 on 2 CPUs) sfs_trace was
# not run for long enough that the default 64 MiB overflowed with the
# population's 64 KiB segments on lo (553 of 2 092 packets dropped)
live run stats --filter "$FILTER" --write "$T_DIR/run.pcapng" --yaml "$T_DIR/live.yaml" \
    --progress 1 --buffer-mb 256 || bail "the live capture did not start: $(cat "$T_DIR/run.err")"
"$T_BIN/sfs3" -l 100 -p 2 -w 1 -t 2 -F 100 "$srv_URL" >"$T_DIR/sfs3.out" 2>&1
is $? 0 "sfs3 ran while captured"
kill -INT "$LIVE_PID"
ended "$LIVE_PID"
is $? 0 "SIGINT ends the live capture with its report (exit 0)"
"$T_BIN/sfs_trace" stats "$T_DIR/run.pcapng" --yaml "$T_DIR/file.yaml" >"$T_DIR/file.out"
is "$(yaml_core "$T_DIR/live.yaml")" "$(yaml_core "$T_DIR/file.yaml")" \
    "the live report's figures equal those of the pcapng it kept, read as a file"
is "$(tail -n +2 "$T_DIR/run.out")" "$(tail -n +2 "$T_DIR/file.out")" \
    "and so do the text tables, the headline apart"
calls=$(python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["calls"])' "$T_DIR/live.yaml")
lines=$(grep -c ' calls/s' "$T_DIR/run.err")
[ "$calls" -gt 500 ] && [ "$lines" -ge 2 ]
ok $? \
    "the run's calls were captured ($calls) and --progress printed a line a second ($lines)"
diag "$(head -1 "$T_DIR/run.out")" "$(grep -m 2 ' calls/s' "$T_DIR/run.err")"
like "$(head -1 "$T_DIR/run.out")" "^trace lo \(live; [0-9]* packets, none dropped\)$" \
    "the headline: live, its packets, none dropped"

# 7: --duration ends it by itself
live dur stats --filter "$FILTER" --duration 1 -q --yaml "$T_DIR/dur.yaml" ||
    bail "no capture: $(cat "$T_DIR/dur.err")"
ended "$LIVE_PID"
is $? 0 "--duration 1: the capture ended by itself"

# 8: --count N packets
live cnt stats --filter "$FILTER" --count 20 -q --yaml "$T_DIR/cnt.yaml" ||
    bail "no capture: $(cat "$T_DIR/cnt.err")"
"$T_BIN/sfs_ping" -c 50 -p getattr "$srv_URL" >/dev/null 2>&1
ended "$LIVE_PID"
is "$?:$(python3 -c 'import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))["reader"]["counters"]["packets"])' "$T_DIR/cnt.yaml")" \
    "0:20" "--count 20: the capture ended by itself after 20 packets"

# 9-10: packets the kernel dropped (1 MiB of buffer, sfs_trace stopped while
# sfs_ping sends) are stated in the headline and the YAML
live drop stats --filter "$FILTER" --buffer-mb 1 --yaml "$T_DIR/drop.yaml" ||
    bail "no capture: $(cat "$T_DIR/drop.err")"
kill -STOP "$LIVE_PID"
"$T_BIN/sfs_ping" -c 2000 -o 8 -p getattr "$srv_URL" >/dev/null 2>&1
kill -CONT "$LIVE_PID"
kill -INT "$LIVE_PID"
ended "$LIVE_PID"
like "$(head -1 "$T_DIR/drop.out")" "^trace lo \(live; [0-9]* packets, [0-9]* DROPPED \([0-9]* by the kernel, 0 by the interface\): the figures below miss them\)$" \
    "a capture that dropped packets says so in its headline"
ok "$(python3 -c 'import sys, yaml; c = yaml.safe_load(open(sys.argv[1]))["capture"]; sys.exit(0 if c["dropped_kernel"] > 0 and c["received"] >= c["packets"] + c["dropped_kernel"] else 1)' "$T_DIR/drop.yaml"; echo $?)" \
    "the YAML's capture figures: the dropped and the read add up to what the filter passed"

# 11-12: mrc on a live capture is sampled
live mrc mrc --filter "$FILTER" --sample 0.5 --yaml "$T_DIR/mrc.yaml" ||
    bail "no capture: $(cat "$T_DIR/mrc.err")"
"$T_BIN/sfs3" -l 100 -p 1 -w 1 -t 1 -F 50 "$srv_URL" >/dev/null 2>&1
kill -INT "$LIVE_PID"
ended "$LIVE_PID"
is "$?:$(python3 -c 'import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print(g["sampling"]["rate"], g["capture"]["dropped_kernel"], g["references_total"] > 0)' "$T_DIR/mrc.yaml")" \
    "0:0.5 0 True" "mrc --interface --sample: the sampled curve of the live traffic"
"$T_BIN/sfs_trace" mrc --interface lo --duration 1 >/dev/null 2>"$T_DIR/exact.err"
is "$?:$(grep -c 'needs --sample' "$T_DIR/exact.err")" "2:1" "mrc --interface without --sample is refused"

# 13-14: without CAP_NET_RAW: one clear message, exit 1, no file
capsh --drop=cap_net_raw -- -c "'$T_BIN/sfs_trace' stats --interface lo --duration 1 --write '$T_DIR/no.pcapng'" \
    >/dev/null 2>"$T_DIR/nocap.err"
is "$?:$(wc -l <"$T_DIR/nocap.err")" "1:1" "without CAP_NET_RAW: exit 1, one line"
is "$(grep -c 'live capture on lo: permission denied: capturing needs the CAP_NET_RAW capability' "$T_DIR/nocap.err"):$(ls "$T_DIR"/no.pcapng* 2>/dev/null | wc -l)" \
    "1:0" "the line names the capability; no capture file is left"
diag "$(cat "$T_DIR/nocap.err")"
