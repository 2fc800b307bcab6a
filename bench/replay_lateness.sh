#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/replay_lateness.sh - where a replay's lateness comes from and what
# each scheduling option does about it (docs/replay.md "Lateness",
# docs/nfs_replay.md "Timing", PERFORMANCE.md): the block replay (an SPC
# trace, 4 ASUs, 4 KiB, 2/3 reads, evenly spaced; -p PROCS_SPC, 4) and the
# NFS replay (an nfsdump trace of bench/nfsdump_trace.py; -p PROCS_NFS, 2)
# at each of RATES calls/s (2000 10000) for SECONDS_PER_RATE (10) at speed
# 1 against sfs_nfsd on loopback, once per VARIANTS value, the variants
# interleaved ROUNDS (2) times so that they share the machine's state:
#   slack50   the kernel's default 50 us timer slack (the replay sets 1 ns)
#   default   the replay's defaults: 1 ns slack, --spin 20
#   spin200   --spin 200: the last 200 us before a call polled
#   p1        one replay process (-p 1) instead of PROCS_*: the others gone
#   apart     the server on the last CPU, the replay on the others (--cpus)
#   rt        --realtime 10: the replay in SCHED_FIFO
#   rtspin    --realtime 10 --spin 200
#   rtapart   --realtime 10, the server on the last CPU, the replay on the others
#   rtsrv     --realtime 10, and the server in SCHED_FIFO too (priority 5)
#   p1rtapartN  two busy processes on two CPUs: ONE replay process (-p 1)
#             in SCHED_FIFO (--realtime 10) with --spin N (p1rtapart: 50)
#             on CPU 0 (--cpus 0), the server alone on the last CPU in
#             SCHED_FIFO (priority 5)
# (a variant the system refuses - rt without CAP_SYS_NICE - prints its
# message as its row).  BASE_BIN=DIR (the bin directory of a build of
# the code before a change) runs every row a second time with DIR's sfs3,
# side by side, its row's code column saying "base" (else "this").  Per run: the lateness distribution (p50, p90, p99,
# p99.9, max), could not keep up, the CPU seconds sfs3 used (a spin costs
# CPU), its processes' involuntary and voluntary context switches (waits
# for a CPU, sleeps) and the load average as it started.
. bench/lib.sh
bench_init replay_lateness
bench_need "$bin/sfs3" "$bin/sfs_nfsd" ${BASE_BIN:+"$BASE_BIN/sfs3"}
secs=${SECONDS_PER_RATE:-10}
rounds=${ROUNDS:-2}
bench_spawn "$tmp/nfsd.log" "$bin/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export
srv=$!
bench_wait_ready "$tmp/nfsd.log" 2>/dev/null
port=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$tmp/nfsd.log")
url=127.0.0.1:$port:/export
ncpu=$(nproc)
last=$((ncpu - 1))
others=0
[ "$ncpu" -gt 2 ] && others=0-$((ncpu - 2))

# run KIND TRACE PROCS VARIANT [CODE]: one replay at speed 1 with the sfs3
# of this tree (CODE "this") or of BASE_BIN ("base"), its row printed
run() {
    procs=$3 slack="" opts="" code=${5:-this} sfs3=$bin/sfs3
    [ "$code" = base ] && sfs3=$BASE_BIN/sfs3
    taskset -a -p -c "0-$last" "$srv" >/dev/null
    chrt -o -a -p 0 "$srv" >/dev/null
    case $4 in
    slack50) slack=50000 ;;
    default) ;;
    spin200) opts="--spin 200" ;;
    p1) procs=1 ;;
    apart | rtapart)
        taskset -a -p -c "$last" "$srv" >/dev/null
        opts="--cpus $others" ;;
    esac
    case $4 in
    rt | rtapart) opts="$opts --realtime 10" ;;
    rtsrv)
        chrt -f -a -p 5 "$srv" >/dev/null || echo "# rtsrv: the server may not have SCHED_FIFO"
        opts="--realtime 10" ;;
    rtspin) opts="--realtime 10 --spin 200" ;;
    p1rtapart*)
        procs=1
        taskset -a -p -c "$last" "$srv" >/dev/null
        chrt -f -a -p 5 "$srv" >/dev/null || echo "# $4: the server may not have SCHED_FIFO"
        spin=${4#p1rtapart}
        opts="--realtime 10 --spin ${spin:-50} --cpus 0" ;;
    esac
    load=$(cut -d' ' -f1 /proc/loadavg)
    # shellcheck disable=SC2086 # opts: words on purpose
    FREESFS_REPLAY_TIMERSLACK_NS=$slack /usr/bin/time -f '%U %S %c %w' -o "$tmp/cpu" \
        "$sfs3" -p "$procs" --trace "$2" $opts --yaml "$tmp/r.yaml" "$url" \
        >/dev/null 2>"$tmp/err" || {
        printf '%-4s %-4s %6s %-12s %3s %s\n' "$1" "$code" "$rate" "$4" "$procs" \
            "$(tail -1 "$tmp/err")"
        return
    }
    python3 -c "
import yaml
y = yaml.safe_load(open('$tmp/r.yaml'))
r = y['replay'] if '$1' == 'spc' else y['nfs_replay']
l = r['lateness_us']
behind = r['could_not_keep_up'] if 'could_not_keep_up' in r else l['could_not_keep_up']
u, s, c, w = open('$tmp/cpu').read().split()[-4:]
print('%-4s %-4s %6s %-12s %3s %8.1f %8.1f %8.1f %8.1f %8d %7d %6.2f %7s %7s %5s' % ('$1',
      '$code', '$rate', '$4', '$procs', l['p50'], l['p90'], l['p99'], l['p999'], l['max'], behind,
      float(u) + float(s), c, w, '$load'))"
}

printf '%-4s %-4s %6s %-12s %3s %8s %8s %8s %8s %8s %7s %6s %7s %7s %5s\n' kind code rate variant p \
    p50_us p90_us p99_us p999_us max_us behind cpu_s invcs volcs load
for rate in ${RATES:-2000 10000}; do
    n=$((rate * secs))
    awk -v r="$rate" -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
        printf "%d,%d,4096,%s,%.6f\n", i % 4, (i * 8) % 1000000, (i % 3 ? "R" : "W"), i / r }' \
        >"$tmp/t.spc"
    python3 bench/nfsdump_trace.py "$tmp/t.nfs" "$n" "$rate"
    echo "# $rate calls/s, $n calls; load average $(cut -d' ' -f1-3 /proc/loadavg), $ncpu CPUs"
    i=0
    while [ $i -lt "$rounds" ]; do
        for v in ${VARIANTS:-slack50 default spin200 p1 apart rt rtspin rtapart rtsrv}; do
            for kind in ${KINDS:-spc nfs}; do
                for code in this ${BASE_BIN:+base}; do
                    if [ "$kind" = spc ]; then
                        run spc "$tmp/t.spc" "${PROCS_SPC:-4}" "$v" "$code"
                    else
                        run nfs "$tmp/t.nfs" "${PROCS_NFS:-2}" "$v" "$code"
                    fi
                done
            done
        done
        i=$((i + 1))
    done
done
