#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# scripts/demo.sh - what `make demo` runs: the shortest path from a fresh
# clone to an SFS 3.0 client report.  Installs what the build needs when it
# is missing (scripts/install-deps --build), builds, starts the bundled
# sfs_nfsd on loopback (free ports, --foreground and its "ready" line),
# runs sfs3 standalone for a short run, prints the client report and where
# the YAML results are, and stops the server by its PID.  About a minute.
#
# The run is deliberately small: 200 ops/s from 2 children, 5 s warm-up,
# 20 s run, and a file set of 10 000 io files (-F) instead of SFS's
# 390 per op/s, so that population takes seconds and sfs_nfsd's memory
# stays small.  The report therefore says INVALID (non-standard runtime,
# warm-up); a real point uses -w 300 -t 300 and no -F.
# Everything stays on 127.0.0.1.
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

"$bin/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export \
    >"$work/nfsd.log" 2>&1 &
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
echo "demo: sfs_nfsd (pid $srv_pid) serves 127.0.0.1:$port:/export"

# ---- the run ------------------------------------------------------------------
mkdir -p result
yaml=$top/result/demo-sfs3.yaml
echo "demo: sfs3 -l 200 -p 2 -w 5 -t 20 -F 10000 --yaml $yaml 127.0.0.1:$port:/export"
"$bin/sfs3" -l 200 -p 2 -w 5 -t 20 -F 10000 --yaml "$yaml" "127.0.0.1:$port:/export"
rc=$?
if [ $rc -eq 0 ]; then
    echo "demo: the YAML results are in $yaml"
else
    echo "demo: sfs3 failed (exit $rc)" >&2
fi
exit $rc
