#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# scripts/demo.sh - what `make demo` runs: what SFS users do, from a fresh
# clone.  Installs what the build needs when it is missing
# (scripts/install-deps --build; gnuplot for the picture when root), builds,
# starts the bundled sfs_nfsd on loopback (free ports, --foreground and its
# "ready" line), runs `sfs_mgr -r rc/demo_rc` (three load points, two
# clients on this machine), which prints the sfssum lines and where the
# report and the curve picture are, and stops the server by its PID.
# About a minute and a half.
#
# The runs are deliberately small (see rc/demo_rc): every point says
# INVALID (non-standard warm-up and run time); a real point uses 300 s and
# no FILE_COUNT.  Everything stays on 127.0.0.1.
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
# sfs_mgr reads rc/demo_rc (parsed as data) and runs its three load points on
# two clients of this machine; it prints the date and "Executing run i of N
# ... done" per point, then the sfssum lines and where the report, the YAML
# and the curve picture are (result/, suffix "demo").
export SFS_DEMO_MOUNT="127.0.0.1:$port:/export"
echo "demo: sfs_mgr -r rc/demo_rc   (MNT_POINTS=$SFS_DEMO_MOUNT)"
"$bin/sfs_mgr" -r rc/demo_rc
rc=$?
[ $rc -eq 0 ] || echo "demo: sfs_mgr failed (exit $rc); its log is result/sfslog.demo" >&2
# The rc file as it ran, with the server's address in place of
# $SFS_DEMO_MOUNT: sfs_generate (docs/generate.md) reads the mount points
# from it.  Written through a temporary file and a rename.
if [ -s result/sfssum.demo ]; then
    sed "s|^MNT_POINTS=.*|MNT_POINTS=\"$SFS_DEMO_MOUNT\"|" rc/demo_rc >result/demo_rc.tmp &&
        mv result/demo_rc.tmp result/demo_rc &&
        echo "demo: the rc file as it ran: result/demo_rc (for bin/sfs_generate, with result/sfssum.demo)"
fi
exit $rc
