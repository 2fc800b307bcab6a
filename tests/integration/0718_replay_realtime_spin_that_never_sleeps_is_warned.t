#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0718_replay_realtime_spin_that_never_sleeps_is_warned.t - a real-time
# replay (--realtime) whose --spin is at least the mean time between one
# process's calls would never sleep, and the kernel's real-time throttling
# (sched_rt_runtime_us) then takes its CPU for the rest of each period:
# 50 ms of every second, calls up to 50 ms late (docs/replay.md
# "Lateness", PERFORMANCE.md).  The plan says so in one warning line, for
# the block replay (an SPC trace written here, one ASU, a record every
# 1 ms: 990 us apart on average over its 99 ms) and the NFS replay (an
# nfsdump trace, a LOOKUP then a GETATTR every 1 ms), both replayed to the
# end against sfs_nfsd; a spin under the gap, the ordinary class, or two
# processes each with half the calls of two ASUs, give no warning.  Nothing
# here is a speed: bench/replay_lateness.sh measures the lateness.
# timeout: 60
. "$(dirname "$0")/lib.sh"
need_cmd chrt
chrt -f 5 true 2>/dev/null || skip_all "this user may not have SCHED_FIFO (chrt -f 5 true)"
runtime=$(cat /proc/sys/kernel/sched_rt_runtime_us 2>/dev/null || echo -1)
period=$(cat /proc/sys/kernel/sched_rt_period_us 2>/dev/null || echo 0)
[ "$runtime" -ge 0 ] && [ "$runtime" -lt "$period" ] ||
    skip_all "no real-time throttling here (sched_rt_runtime_us $runtime): nothing to warn of"
plan 9
start_nfsd srv || bail "sfs_nfsd did not start"
awk 'BEGIN { for (i = 0; i < 100; i++) printf "0,%d,4096,R,%.6f\n", i * 8, i * 0.001 }' \
    >"$T_DIR/one.spc"
awk 'BEGIN { for (i = 0; i < 100; i++) printf "%d,%d,4096,R,%.6f\n", i % 2, i * 8, i * 0.001 }' \
    >"$T_DIR/two.spc"
root=01$(printf '%061d' 0)1
fh=02$(printf '%061d' 0)1
attr="ftype 1 mode 1a4 nlink 1 uid 0 gid 0 size 100000 used 100000 rdev 0 rdev2 0 fsid 2"
attr="$attr fileid 2 atime 1034787500.000000 mtime 1034787400.000000 ctime 1034787400.000000"
awk -v root="$root" -v fh="$fh" -v attr="$attr" 'BEGIN {
    t = 1034787600; tail = " status=XXX pl = XXX con = XXX len = XXX"
    printf "%.6f 30.0321 31.0801 U C3 00000001 3 lookup fh %s name \"f0\" con = XXX len = XXX\n", t, root
    printf "%.6f 31.0801 30.0321 U R3 00000001 3 lookup OK fh %s %s%s\n", t + 0.00005, fh, attr, tail
    for (i = 1; i < 100; i++) {
        printf "%.6f 30.0321 31.0801 U C3 %08x 1 getattr fh %s con = XXX len = XXX\n",
            t + i * 0.001, i + 1, fh
        printf "%.6f 31.0801 30.0321 U R3 %08x 1 getattr OK %s%s\n", t + i * 0.001 + 0.00005,
            i + 1, attr, tail
    }
}' >"$T_DIR/t.nfs"
want="sfs3: warning: --spin 1000 with --realtime 5: one replay process's WHAT come every 990 us"
want="$want on average (1010 WHAT/s over 1 process), within the spin, so it would never sleep,"
want="$want and the kernel lets a real-time process that never sleeps have its CPU for only"
want="$want $((runtime / 1000)) of every $((period / 1000)) ms (sched_rt_runtime_us): calls would"
want="$want be up to $(((period - runtime) / 1000)) ms late; use a --spin under 990 us"
# replay TRACE ARGS...: sfs3 replays TRACE to its end; its warning lines
replay() {
    local t=$1
    shift
    "$T_BIN/sfs3" --trace "$t" "$@" "$srv_URL" >"$T_DIR/out" 2>&1 ||
        diag "sfs3 --trace $t $* exited $?:" "$(tail -3 "$T_DIR/out")"
    grep 'warning' "$T_DIR/out"
}
is "$(replay "$T_DIR/one.spc" -p 1 --realtime 5 --spin 1000)" "${want//WHAT/records}" \
    "block replay, a record every 990 us, --realtime --spin 1000: the warning, whole"
like "$(cat "$T_DIR/out")" "records 100, calls 100," "and the replay goes on to the end"
is "$(replay "$T_DIR/t.nfs" -p 1 --realtime 5 --spin 1000)" "${want//WHAT/calls}" \
    "NFS replay, a call every 990 us, --realtime --spin 1000: the warning, whole"
like "$(cat "$T_DIR/out")" "calls replayed 100 of 100" "and the replay goes on to the end"
is "$(replay "$T_DIR/one.spc" -p 1 --realtime 5 --spin 900)" "" \
    "--spin 900, under the 990 us between records: no warning"
is "$(replay "$T_DIR/t.nfs" -p 1 --realtime 5 --spin 900)" "" \
    "--spin 900, under the 990 us between calls: no warning"
is "$(replay "$T_DIR/one.spc" -p 1 --spin 1000)" "" "the ordinary class: no warning"
is "$(replay "$T_DIR/two.spc" -p 2 --realtime 5 --spin 1000)" "" \
    "two ASUs over two processes, a record every 1980 us each: no warning"
is "$(replay "$T_DIR/one.spc" -p 2 --realtime 5 --spin 1000 | sed 's/ every.*//')" \
    "sfs3: warning: --spin 1000 with --realtime 5: one replay process's records come" \
    "one ASU over two processes: one of them replays every record, the warning"
