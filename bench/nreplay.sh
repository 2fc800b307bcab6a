#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/nreplay.sh - the NFS trace replay's speed (docs/nfs_replay.md,
# PERFORMANCE.md), against sfs_nfsd on loopback:
#   1. throughput: an nfsdump trace of CALLS NFSv3 calls (GETATTR 40 %,
#      READ 4 KiB 30 %, LOOKUP 20 %, WRITE 4 KiB 10 %, on 64 files) replayed
#      at speed 0 by `sfs3 --trace` (one copy: one process replays; and
#      --scale PROCS: a copy per process), side by side with sfs3's synthetic SFS
#      mix asked for far more than the server gives (-l 120000, -F 16000, so
#      its calls/s is what the client and server reach), the same -p and
#      transport, ROUNDS rounds interleaved; the median calls/s of each and
#      their ratio;
#   2. lateness: the same kind of trace at RATE calls/s (10 000) replayed
#      at speed 1: lateness p50/p99/max, could not keep up, drift.
# The traces are written by this script (nfsdump text; the reader is the
# one a capture goes through after decoding, docs/NFS_TRACES.md).
. bench/lib.sh
bench_init nreplay
bench_need "$bin/sfs3" "$bin/sfs_nfsd"
procs=${PROCS:-2}
rounds=${ROUNDS:-3}
calls=${CALLS:-200000}
rate=${RATE:-10000}
secs=${SECONDS_AT_RATE:-10}
bench_spawn "$tmp/nfsd.log" "$bin/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export
bench_wait_ready "$tmp/nfsd.log" 2>/dev/null
port=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$tmp/nfsd.log")
url=127.0.0.1:$port:/export

# trace FILE N RATE: N calls at RATE calls/s (bench/nfsdump_trace.py)
trace() { python3 bench/nfsdump_trace.py "$1" "$2" "$3"; }

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR ? v[int((NR + 1) / 2)] : 0) }'; }

echo "== 1. calls/s at speed 0 against the synthetic mix, sfs3 -p $procs UDP, $calls calls, $rounds rounds"
trace "$tmp/fast.txt" "$calls" 100000 # the times do not matter at speed 0
: >"$tmp/rep"
: >"$tmp/rep2"
: >"$tmp/syn"
# replay OUT OPTIONS...: one replay at speed 0, its RPCs per second into OUT
replay() {
    out=$1
    shift
    "$bin/sfs3" -p "$procs" --speed 0 --trace "$tmp/fast.txt" --yaml "$tmp/r.yaml" "$@" "$url" \
        >/dev/null 2>"$tmp/err" || { tail -3 "$tmp/err"; exit 1; }
    python3 -c "
import yaml
r = yaml.safe_load(open('$tmp/r.yaml'))['nfs_replay']
print('%.0f' % (r['rpcs'] / r['duration_s']))" >>"$out"
}
i=0
while [ $i -lt "$rounds" ]; do
    replay "$tmp/rep"
    replay "$tmp/rep2" --scale "$procs"
    "$bin/sfs3" -p "$procs" -l 120000 -w 2 -t 10 -F 16000 -a 25 --yaml "$tmp/s.yaml" "$url" \
        >/dev/null 2>"$tmp/err" || true
    python3 -c "
import yaml
print('%.0f' % yaml.safe_load(open('$tmp/s.yaml'))['results']['throughput_ops'])" >>"$tmp/syn" 2>/dev/null ||
        { tail -3 "$tmp/err"; exit 1; }
    i=$((i + 1))
done
rep=$(median <"$tmp/rep")
rep2=$(median <"$tmp/rep2")
syn=$(median <"$tmp/syn")
printf '%-40s %10s %s\n' row calls/s rounds
printf '%-40s %10s %s\n' "nfs replay, speed 0, 1 copy" "$rep" "$(tr '\n' ' ' <"$tmp/rep")"
printf '%-40s %10s %s\n' "nfs replay, speed 0, --scale $procs" "$rep2" "$(tr '\n' ' ' <"$tmp/rep2")"
printf '%-40s %10s %s\n' "sfs3 synthetic mix (-l 120000)" "$syn" "$(tr '\n' ' ' <"$tmp/syn")"
awk -v a="$rep" -v c="$rep2" -v b="$syn" 'BEGIN { printf "replay / synthetic: 1 copy %.2f x, --scale %.2f x\n", (b > 0 ? a / b : 0), (b > 0 ? c / b : 0) }'

echo "== 2. lateness at $rate calls/s, speed 1, $secs s, sfs3 -p $procs UDP"
trace "$tmp/rate.txt" $((rate * secs)) "$rate"
"$bin/sfs3" -p "$procs" --speed 1 --trace "$tmp/rate.txt" --yaml "$tmp/r.yaml" "$url" \
    >/dev/null 2>"$tmp/err" || { tail -3 "$tmp/err"; exit 1; }
python3 -c "
import yaml
r = yaml.safe_load(open('$tmp/r.yaml'))['nfs_replay']
l = r['lateness_us']
print('calls %d, lateness p50 %.1f us, p99 %.1f us, max %d us, could not keep up %d, drift %+.3f ms, mismatches %d'
      % (r['calls'], l['p50'], l['p99'], l['max'], l['could_not_keep_up'], r['drift_s'] * 1000, r['status_mismatches']))"
