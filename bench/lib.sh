# SPDX-License-Identifier: BSD-2-Clause
# bench/lib.sh - shell helpers shared by the bench/*.sh scripts; sourced
# (". bench/lib.sh" from the tree's root), never run on its own (bench/run.sh
# skips it).  It owns what every bench repeated: the build and bin
# directories, one private temporary directory, the list of background
# servers and their clean-up at exit, the loopback nfs-ganesha behind the
# integration tests' lock, and the bounded wait for a server's "ready" line.

# bench_init NAME: sets build, bin, tmp (a fresh temporary directory) and
# pids, and installs the exit trap that stops every bench_spawn'ed process
# and the ganesha of bench_ganesha and removes tmp.  NAME prefixes messages.
bench_init() {
    bench_name=$1
    build=${BENCH_BUILD:-build/linux}
    bin=${FREESFS_BIN:-bin}
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/${bench_name}_bench.XXXXXX") || exit 1
    pids=""
    trap bench_cleanup EXIT
    trap 'exit 130' INT TERM
}

bench_cleanup() {
    for p in $pids; do kill -TERM "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    [ -f "$tmp/g/ganesha.pid" ] && GDIR=$tmp/g sh scripts/ganesha-lo.sh stop >/dev/null 2>&1
    rm -rf "$tmp"
}

# bench_need FILE...: exits with a message unless every FILE is executable.
bench_need() {
    for f in "$@"; do
        [ -x "$f" ] || { echo "$bench_name: $f not built (make all bench)"; exit 1; }
    done
}

# bench_spawn LOG COMMAND...: starts COMMAND in the background with its
# output in LOG; bench_cleanup stops it.
bench_spawn() {
    bench_log=$1; shift
    "$@" >"$bench_log" 2>&1 &
    pids="$pids $!"
}

# bench_ganesha NFSPORT MOUNTPORT: starts a private nfs-ganesha on loopback
# in $tmp/g (export $tmp/g/export; the NFS versions of GANESHA_PROTOCOLS,
# default "3") and sets ganesha=1, or says why not and sets ganesha=0 (it
# needs root).  Takes the integration tests' lock first:
# one ganesha at a time owns rpcbind's registrations (docs/TESTING.md, "One rpcbind, several servers").
bench_ganesha() {
    ganesha=0
    if [ "$(id -u)" -ne 0 ] || ! command -v ganesha.nfsd >/dev/null; then
        echo "$bench_name: not root or no ganesha: its rows are skipped"
        return
    fi
    exec 9>"${TMPDIR:-/tmp}/freesfs-ganesha.lock"
    flock -w 600 9 || { echo "$bench_name: could not take the ganesha lock"; exit 1; }
    if GDIR=$tmp/g BIND=127.0.0.1 NFS_PORT=$1 MNT_PORT=$2 PROTOCOLS="${GANESHA_PROTOCOLS:-3}" \
        sh scripts/ganesha-lo.sh start >"$tmp/g.log" 2>&1; then
        ganesha=1
    else
        echo "$bench_name: ganesha did not start; its rows are skipped"; tail -3 "$tmp/g.log"
    fi
}

# bench_capture FILE FILTER COMMAND...: COMMAND's traffic on lo that
# FILTER (a capture filter: the server's ports) passes, captured into FILE
# by dumpcap (root); waits until the file stops growing.
bench_capture() {
    f=$1 filter=$2
    shift 2
    dumpcap -i lo -f "$filter" -w "$f" 2>"$f.err" &
    cpid=$!
    i=0
    while [ $i -lt 200 ] && ! grep -q "Capturing on" "$f.err"; do sleep 0.05; i=$((i + 1)); done
    "$@" >/dev/null 2>&1 || echo "$bench_name: $1 failed"
    size=-1
    while [ "$size" != "$(stat -c %s "$f")" ]; do size=$(stat -c %s "$f"); sleep 0.5; done
    kill -INT $cpid
    wait $cpid
}

# bench_wait_ready LOG: waits (at most 5 s) for a line starting "ready".
bench_wait_ready() {
    i=0
    while ! grep -q '^ready' "$1" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
}
