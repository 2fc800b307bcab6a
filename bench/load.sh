#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/load.sh - the load generator's benchmarks (the "Load generator"
# section of docs/PERFORMANCE.md), all on loopback against the bundled
# sfs_nfsd (and nfs-ganesha FSAL VFS when root):
#   1. acceptance: sfs3 -l 400 -p 4 -w 10 -t 60 over UDP and TCP on
#      sfs_nfsd and ganesha, sfs (v2) on sfs_nfsd: achieved ops/s and the
#      largest per-op mix error (target: 400 +-1 %, every op within 1.5);
#   2. pacing accuracy over a curve of 10 loads up to the server's limit;
#   3. client CPU microseconds per NFS call at 1 000 and 10 000 ops/s (one
#      run minus a populate-only run of the same file set, so the figure is
#      the load phases' cost), and the highest load one child paces within
#      1 %;
#   4. memory per child (peak RSS) at 1 000 ops/s, and the file-selection
#      cost as the working set grows (h-loadmodel's bench/load_choice).
# QUICK=1 shortens every run (-w 3 -t 10) for a smoke test; ONLY_PART=N runs
# one part.  The file set is cut with -F (sfs_nfsd keeps files in memory).
cd "$(dirname "$0")/.." || exit 1
bin=${FREESFS_BIN:-bin}
build=${BENCH_BUILD:-build/linux}
port=29940 # the bench's own loopback ports (29940..29949)
w=10 t=60
[ -n "${QUICK:-}" ] && w=3 t=10
for f in "$bin/sfs3" "$bin/sfs" "$bin/sfs_nfsd"; do
    [ -x "$f" ] || { echo "load: $f not built (make all)"; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/load_bench.XXXXXX") || exit 1
srv=""
cleanup() {
    [ -n "$srv" ] && kill -TERM "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
    [ -f "$tmp/g/ganesha.pid" ] && GDIR=$tmp/g sh scripts/ganesha-lo.sh stop >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# start_srv [sfs_nfsd options]: a fresh sfs_nfsd on $port (the old one stops)
start_srv() {
    [ -n "$srv" ] && kill -TERM "$srv" 2>/dev/null && wait "$srv" 2>/dev/null
    "$bin/sfs_nfsd" -f -b 127.0.0.1 -p $port -m $((port + 1)) --max-bytes 4G "$@" \
        >"$tmp/nfsd.log" 2>&1 &
    srv=$!
    i=0
    while ! grep -q '^ready' "$tmp/nfsd.log" && [ $i -lt 100 ]; do
        sleep 0.05
        i=$((i + 1))
    done
}
url=127.0.0.1:$port:/export

# summary FILE: "achieved max-mix-error-points" from a client report
summary() {
    awk '/THROUGHPUT:/ { tput = $4 }
         /^-+$/ { rule++ }
         rule == 2 && NF == 9 && $2 ~ /%$/ && $3 ~ /%$/ {
             d = ($3 + 0) - ($2 + 0); if (d < 0) d = -d; if (d > e) e = d }
         END { printf "%s %.2f\n", tput, e }' "$1"
}
part() { [ -z "${ONLY_PART:-}" ] || [ "$ONLY_PART" = "$1" ]; }

if part 1; then
    echo "== 1. acceptance: -l 400 -p 4 -w $w -t $t (target 400 +-1 %, mix +-1.5)"
    printf '%-28s %9s %12s\n' run "ops/s" "max mix err"
    start_srv
    for run in "sfs3 UDP sfs_nfsd:" "sfs3 TCP sfs_nfsd:-Q" "sfs UDP sfs_nfsd:"; do
        name=${run%%:*} opts=${run#*:} prog=${name%% *}
        # shellcheck disable=SC2086
        "$bin/$prog" $opts -l 400 -p 4 -w $w -t $t -F 16000 -a 25 "$url" \
            >"$tmp/r" 2>"$tmp/e" || echo "  ($name failed: $(tail -1 "$tmp/e"))"
        printf '%-28s %9s %12s\n' "$name" $(summary "$tmp/r")
    done
    if [ "$(id -u)" -eq 0 ] && command -v ganesha.nfsd >/dev/null; then
        exec 9>"${TMPDIR:-/tmp}/freesfs-ganesha.lock"
        if flock -w 600 9 && GDIR=$tmp/g BIND=127.0.0.1 NFS_PORT=$((port + 5)) \
            MNT_PORT=$((port + 6)) sh scripts/ganesha-lo.sh start >"$tmp/g.log" 2>&1; then
            gurl="nfs://127.0.0.1:$((port + 5))$tmp/g/export?mountport=$((port + 6))"
            for opts in "" "-Q"; do
                # shellcheck disable=SC2086
                "$bin/sfs3" $opts -l 400 -p 4 -w $w -t $t -F 4000 -a 100 "$gurl" \
                    >"$tmp/r" 2>"$tmp/e" || echo "  (ganesha failed: $(tail -1 "$tmp/e"))"
                printf '%-28s %9s %12s\n' "sfs3 ${opts:-UDP} ganesha" $(summary "$tmp/r")
            done
            GDIR=$tmp/g sh scripts/ganesha-lo.sh stop >/dev/null 2>&1
        else
            echo "  ganesha did not start: its rows are skipped"
        fi
        exec 9>&-
    else
        echo "  not root or no ganesha: ganesha rows skipped"
    fi
fi

if part 2; then
    # sfs_nfsd with sfs3 -p 4 on the same 2 vCPUs tops out near 72 000
    # ops/s: ten even steps up to there and a bit beyond
    echo "== 2. pacing accuracy, sfs3 UDP -p 4 on sfs_nfsd (-w 5 -t 20)"
    printf '%9s %9s %8s %12s\n' requested achieved "err %" "max mix err"
    start_srv
    for l in 8000 16000 24000 32000 40000 48000 56000 64000 72000 80000; do
        "$bin/sfs3" -l $l -p 4 -w 5 -t 20 -F 16000 -a 25 "$url" >"$tmp/r" 2>"$tmp/e"
        set -- $(summary "$tmp/r")
        printf '%9s %9s %8s %12s\n' $l "$1" \
            "$(awk -v a="$1" -v r=$l 'BEGIN { printf "%+.2f", (a - r) * 100 / r }')" "$2"
    done
fi

# cpu_s CMD...: user+system CPU seconds of CMD and its children
cpu_s() {
    /usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >"$tmp/r" 2>"$tmp/e"
    awk '{ printf "%.3f", $1 + $2 }' "$tmp/time"
}

if part 3; then
    echo "== 3. client CPU per call (sfs3 UDP, -w 2 -t 10, one child)"
    printf '%9s %9s %10s %12s\n' requested achieved calls "us/call"
    start_srv
    for l in 1000 10000; do
        pop=$(cpu_s "$bin/sfs3" -P -l $l -p 1 -F 4000 "$url")
        all=$(cpu_s "$bin/sfs3" -l $l -p 1 -w 2 -t 10 -F 4000 "$url")
        calls=$(awk '/TOTAL NFS OPERATIONS:/ { print $4 }' "$tmp/r")
        set -- $(summary "$tmp/r")
        printf '%9s %9s %10s %12s\n' $l "$1" "$calls" \
            "$(awk -v a="$all" -v p="$pop" -v c="$calls" 'BEGIN { printf "%.1f", (a - p) * 1e6 / c }')"
    done
    echo "   highest load one child paces within 1 %:"
    best=0
    for l in 5000 10000 15000 20000 25000 30000 40000 50000; do
        "$bin/sfs3" -l $l -p 1 -w 3 -t 10 -F 4000 "$url" >"$tmp/r" 2>"$tmp/e"
        set -- $(summary "$tmp/r")
        ok=$(awk -v a="$1" -v r=$l 'BEGIN { print (a >= r * 0.99 && a <= r * 1.01) }')
        printf '%9s %9s %s\n' $l "$1" "$([ "$ok" = 1 ] && echo within || echo missed)"
        [ "$ok" = 1 ] && best=$l
    done
    echo "   => $best ops/s"
fi

if part 4; then
    echo "== 4. memory per child at 1 000 ops/s (-p 4), file-selection cost"
    start_srv
    for f in 40000; do
        "$bin/sfs3" -l 1000 -p 4 -w 2 -t 4 -F $f "$url" >"$tmp/r" 2>"$tmp/e" &
        pid=$!
        i=0
        while ! grep -q 'test run' "$tmp/e" 2>/dev/null && kill -0 $pid 2>/dev/null &&
            [ $i -lt 2400 ]; do
            sleep 0.05
            i=$((i + 1))
        done
        hwm=$(for c in $(pgrep -P $pid); do
            awk '/VmHWM/ { print $2 }' /proc/$c/status 2>/dev/null; done |
            sort -n | tail -1)
        wait $pid
        echo "   -F $f ($((f / 4 + 1)) io files per child): peak RSS per child ${hwm:-?} KB"
    done
    if [ -x "$build/bench/load_choice" ]; then
        "$build/bench/load_choice"
    else
        echo "   $build/bench/load_choice not built (make bench): skipped"
    fi
fi
exit 0
