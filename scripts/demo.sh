#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# scripts/demo.sh - what `make demo` runs: what SFS users do, from a fresh
# clone.  Installs what the build needs when it is missing
# (scripts/install-deps --build; gnuplot for the picture when root), builds,
# starts the bundled sfs_nfsd on loopback (free ports, --foreground and its
# "ready" line; a server of fixed capacity, --service-us), runs `sfs_mgr -r
# rc/demo_rc` (LOAD=auto: a search for the peak, then six points up to just
# past it, two clients on this machine),
# which prints the sfssum lines and where the report and the curve picture
# are, prints the report's summary (each point's figures and every reason
# it is INVALID), and stops the server by its PID.  About two minutes.
#
# The runs are deliberately small (see rc/demo_rc): every point says
# INVALID (non-standard warm-up and run time); a real point uses 300 s and
# no FILE_COUNT.  Everything stays on 127.0.0.1.  SFS_DEMO_RC and
# SFS_DEMO_RESULT (the rc file's WORK_DIR) name another rc file and its
# results (the tests run the demo so, away from result/).
set -u
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)

# ---- dependencies and build ----------------------------------------------
missing=""
for c in gcc make rpcgen; do
    command -v "$c" >/dev/null 2>&1 || missing="$missing $c"
done
for h in /usr/include/tirpc/rpc/rpc.h /usr/include/nfsc/libnfs.h /usr/include/Judy.h \
    /usr/include/yaml.h /usr/include/cmocka.h; do
    [ -e "$h" ] || missing="$missing $h"
done
if [ -n "$missing" ]; then
    echo "demo: missing:$missing - running scripts/install-deps --build"
    sh scripts/install-deps --build || exit 1
fi
if ! command -v gnuplot >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "demo: installing gnuplot-nox for the curve picture"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gnuplot-nox >/dev/null 2>&1 ||
        echo "demo: no gnuplot: the run goes on without a picture"
fi
echo "demo: building (make -j2 all) ..."
if ! make -j2 all >build-demo.log 2>&1; then
    tail -20 build-demo.log
    echo "demo: the build failed; the whole log is in build-demo.log" >&2
    exit 1
fi
rm -f build-demo.log
bin=${FREESFS_BIN:-$top/bin}

# ---- the server -------------------------------------------------------------
work=$(mktemp -d "${TMPDIR:-/tmp}/freesfs-demo.XXXXXX")
srv_pid=""
cleanup() {
    if [ -n "$srv_pid" ] && kill -0 "$srv_pid" 2>/dev/null; then
        kill -TERM "$srv_pid" 2>/dev/null
        i=0
        while kill -0 "$srv_pid" 2>/dev/null && [ $i -lt 50 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        kill -KILL "$srv_pid" 2>/dev/null
    fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The demo's server serves NFS calls one at a time, 1 ms each
# (--service-us): a server whose disk is its bottleneck, with a queue
# before it.  Its peak (1000 calls/s) takes a small part of this machine's
# CPU, so the curve has the same shape on a quiet machine and on a busy
# one, where a peak set by the CPU would move with whatever else runs.
service_us=1000
"$bin/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export \
    --service-us "$service_us" >"$work/nfsd.log" 2>&1 &
srv_pid=$!
i=0
until grep -q '^ready' "$work/nfsd.log" 2>/dev/null; do
    i=$((i + 1))
    if [ $i -gt 100 ] || ! kill -0 "$srv_pid" 2>/dev/null; then
        cat "$work/nfsd.log" >&2
        echo "demo: sfs_nfsd did not start" >&2
        exit 1
    fi
    sleep 0.1
done
# "ready nfs 127.0.0.1:PORT udp,tcp mount 127.0.0.1:PORT ..."
port=$(sed -n 's/^ready nfs [^ ]*:\([0-9][0-9]*\) .*/\1/p' "$work/nfsd.log")
echo "demo: sfs_nfsd (pid $srv_pid) serves 127.0.0.1:$port:/export, one NFS call at a time, $((service_us / 1000)) ms each (--service-us $service_us: a server with a queue before its disk)"

# ---- the run ------------------------------------------------------------------
# sfs_mgr reads rc/demo_rc (parsed as data), searches the peak (LOAD=auto)
# and runs its points on two clients of this machine; it prints the probes,
# the date and "Executing run i of N ... done" per point, then the sfssum lines and where the report, the YAML
# and the curve picture are (result/, suffix "demo").
export SFS_DEMO_MOUNT="127.0.0.1:$port:/export"
rcfile=${SFS_DEMO_RC:-rc/demo_rc}
res=${SFS_DEMO_RESULT:-result}
echo "demo: sfs_mgr -r $rcfile   (MNT_POINTS=$SFS_DEMO_MOUNT)"
times=$("$bin/sfs_mgr" --check -r "$rcfile" 2>/dev/null |
    sed -n 's/^warmup_s: \(.*\)/warm-up \1 s/p; s/^runtime_s: \(.*\)/run \1 s/p' | sed 'N;s|\n| and |')
echo "demo: every point will be marked INVALID only because of its short times ($times; SFS requires 300 s each): the curve's shape is what the demo shows"
"$bin/sfs_mgr" -r "$rcfile"
rc=$?
[ $rc -eq 0 ] || echo "demo: sfs_mgr failed (exit $rc); its log is $res/sfslog.demo" >&2
# the report's summary of this run (sfsres is appended to run after run)
if [ -s "$res/sfsres.demo" ]; then
    echo "demo: the report's summary ($res/sfsres.demo):"
    awk '/^==== Summary of/ {buf = ""; on = 1} on {buf = buf $0 "\n"} END {printf "%s", buf}' \
        "$res/sfsres.demo"
fi
# The rc file as it ran, with the server's address in place of
# $SFS_DEMO_MOUNT: sfs_generate (docs/generate.md) reads the mount points
# from it.  Written through a temporary file and a rename.
if [ -s "$res/sfssum.demo" ]; then
    sed "s|^MNT_POINTS=.*|MNT_POINTS=\"$SFS_DEMO_MOUNT\"|" "$rcfile" >"$res/demo_rc.tmp" &&
        mv "$res/demo_rc.tmp" "$res/demo_rc" &&
        echo "demo: the rc file as it ran: $res/demo_rc (for bin/sfs_generate, with $res/sfssum.demo)"
fi
exit $rc
