#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/nplan.sh - NFS traces of any length (docs/nfs_replay.md "Plans",
# PERFORMANCE.md): for each length of LENGTHS (1 000 000 and 10 000 000
# calls), an nfsdump trace bench/nfsdump_trace.py writes (GETATTR 40 %,
# READ 30 %, LOOKUP 20 %, WRITE 10 % on FILES files, 10 000 calls/s; kept
# in $TMPDIR/freesfs-nplan-N.txt between runs, never in git) is
#   1. planned once: `sfs_trace plan` - its time, its largest resident set
#      (GNU time), the plan's size;
#   2. replayed from the plan by `sfs3 -p PROCS --speed 0 -t RUN_S` against
#      sfs_nfsd on loopback: the time from the start of sfs3 to the run's
#      first call (the "Starting NFS replay" line, stamped as it comes),
#      the largest resident set of every sfs3 process (VmHWM, read every
#      0.2 s while it runs and at its end), the calls replayed;
#   3. side by side, the same replay given the capture itself (it plans
#      into a temporary file first): the same figures, and the ratio of the
#      times to the first call.
# The trace's length must change neither the processes' memory nor the
# time to the first call with a plan (the bound is the look-ahead).
. bench/lib.sh
bench_init nplan
bench_need "$bin/sfs3" "$bin/sfs_nfsd" "$bin/sfs_trace"
lengths=${LENGTHS:-"1000000 10000000"}
files=${FILES:-1000}
procs=${PROCS:-2}
run_s=${RUN_S:-15}
cache=${TMPDIR:-/tmp}
bench_spawn "$tmp/nfsd.log" "$bin/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export
bench_wait_ready "$tmp/nfsd.log" 2>/dev/null
port=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$tmp/nfsd.log")
url=127.0.0.1:$port:/export

# trace FILE N: N calls at 10 000 calls/s on $files files, lean replies
# (bench/nfsdump_trace.py)
trace() {
    python3 bench/nfsdump_trace.py "$1.tmp" "$2" 10000 "$files" 1 && mv "$1.tmp" "$1"
}

# replay NAME TRACE: sfs3 replays TRACE for at most $run_s s; prints "first
# S hwm KB calls N" (the time to the run's first call, the largest VmHWM
# of its processes, the calls replayed).
replay() {
    n=$1 tr=$2
    : >"$tmp/$n.hwm"
    t0=$(date +%s.%N)
    ("$bin/sfs3" -p "$procs" --speed 0 -t "$run_s" --trace "$tr" --yaml "$tmp/$n.yaml" \
        "$url" 2>&1 >"$tmp/$n.out" | while IFS= read -r line; do
        echo "$(date +%s.%N) $line"
    done >"$tmp/$n.err") &
    rp=$!
    while kill -0 "$rp" 2>/dev/null; do
        for p in $(pgrep -f "sfs3 -p $procs --speed 0 -t $run_s --trace $tr"); do
            awk '/^VmHWM:/ {print $2}' "/proc/$p/status" 2>/dev/null
        done >>"$tmp/$n.hwm"
        sleep 0.2
    done
    wait "$rp"
    first=$(awk -v t0="$t0" '/Starting NFS replay/ {printf "%.2f", $1 - t0; exit}' "$tmp/$n.err")
    hwm=$(sort -n "$tmp/$n.hwm" | tail -1)
    calls=$(python3 -c "import sys, yaml; print(yaml.safe_load(open(sys.argv[1]))['nfs_replay']['calls'])" "$tmp/$n.yaml" 2>/dev/null)
    echo "first ${first:-?} s, largest process ${hwm:-?} KB, calls replayed ${calls:-?}"
}

for n in $lengths; do
    src=$cache/freesfs-nplan-$n.txt
    [ -s "$src" ] || trace "$src" "$n"
    echo "== $n calls: $(du -m "$src" | cut -f1) MB of nfsdump text"
    /usr/bin/time -f "%e %M" -o "$tmp/plan.time" "$bin/sfs_trace" plan "$src" \
        -o "$tmp/t.plan" >"$tmp/plan.out" 2>&1 || { cat "$tmp/plan.out"; exit 1; }
    read -r pt pm <"$tmp/plan.time"
    echo "  sfs_trace plan: $pt s, largest resident set $pm KB, plan $(du -m "$tmp/t.plan" | cut -f1) MB"
    a=$(replay plan "$tmp/t.plan")
    echo "  replay of the plan (-p $procs, speed 0, -t $run_s): $a"
    b=$(replay capture "$src")
    echo "  replay of the capture itself (planned first): $b"
    fa=$(echo "$a" | sed 's/first \([0-9.]*\) s.*/\1/')
    fb=$(echo "$b" | sed 's/first \([0-9.]*\) s.*/\1/')
    awk -v a="$fa" -v b="$fb" 'BEGIN { if (a > 0) printf "  time to first call: plan file / capture = %.3f\n", a / b }'
    rm -f "$tmp/t.plan"
done
