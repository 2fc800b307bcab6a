#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# pynfs-run.sh - the pynfs NFSv4.0 and NFSv4.1 server suites against
# sfs_nfsd and nfs-ganesha side by side, by hand (docs/TESTING.md, "pynfs").
# pynfs is not a Debian package: it stays out of `make test`.
#
#   scripts/pynfs-run.sh PYNFS_DIR [OUT_DIR] [SUITE_ARGS...]
#
# PYNFS_DIR is a copy of pynfs (its testservers write next to themselves,
# so not a read-only one) built with `python3 setup.py build`; it needs
# Debian's python3-ply and python3-gssapi and runs with Debian's
# /usr/bin/python3.  OUT_DIR (default /tmp/pynfs-results) gets one result
# file per suite and server (`<server>-<4.0|4.1>.out`, pynfs's own format,
# read by its showresults.py, and .json), its log (.log) and summary.txt:
# the counts, and every test ganesha passes that sfs_nfsd fails.  SUITE_ARGS default to `all`.
#
# sfs_nfsd runs from bin/ on a free port; ganesha through
# scripts/ganesha-lo.sh with NFSv4 on (PROTOCOLS="3, 4") on port 2049 (run
# it as root: ganesha needs it; without root only sfs_nfsd is run).  Both
# export /export; every process started is stopped by its PID.  Traffic
# stays on 127.0.0.1.  Hold the machine's integration lock around it when
# other tests may run: flock /work/locks/integration scripts/pynfs-run.sh ...
set -u
PYNFS=${1:?usage: pynfs-run.sh PYNFS_DIR [OUT_DIR] [SUITE_ARGS...]}
OUT=${2:-/tmp/pynfs-results}
shift $(($# >= 2 ? 2 : 1))
ARGS=("$@")
[ ${#ARGS[@]} -eq 0 ] && ARGS=(all)
TOP=$(cd "$(dirname "$0")/.." && pwd)
PY=(env PATH=/usr/bin:/bin /usr/bin/python3)
for m in ply gssapi; do
    "${PY[@]}" -c "import $m" 2>/dev/null ||
        { echo "pynfs-run: python3-$m missing (apt-get install python3-ply python3-gssapi)" >&2; exit 2; }
done
if [ ! -x "$PYNFS/nfs4.0/testserver.py" ] || [ ! -x "$PYNFS/nfs4.1/testserver.py" ]; then
    echo "pynfs-run: $PYNFS: no nfs4.0/testserver.py and nfs4.1/testserver.py" >&2
    exit 2
fi
# a copy whose symbolic links became files holding their targets (as the
# snapshot keeps them) cannot build its 4.0 suite: say so
if [ ! -d "$PYNFS/nfs4.0/xdrdef" ]; then
    echo "pynfs-run: $PYNFS/nfs4.0/xdrdef is not a directory: make pynfs's links links" \
        "again (docs/TESTING.md, pynfs)" >&2
    exit 2
fi
[ -x "$TOP/bin/sfs_nfsd" ] || { echo "pynfs-run: build sfs_nfsd first (make)" >&2; exit 2; }
mkdir -p "$OUT"
WORK=$(mktemp -d /tmp/pynfs-run.XXXXXX)
NFSD_PID=""
cleanup() {
    [ -n "$NFSD_PID" ] && kill "$NFSD_PID" 2>/dev/null && wait "$NFSD_PID" 2>/dev/null
    [ -f "$WORK/g/ganesha.pid" ] && GDIR=$WORK/g "$TOP/scripts/ganesha-lo.sh" stop >/dev/null 2>&1
    rm -rf "$WORK"
}
trap cleanup EXIT

# a short lease: the suites wait a lease and more wherever they let one run out
"$TOP/bin/sfs_nfsd" -f -p 0 -m 0 --export /export --lease 15 >"$WORK/nfsd.log" 2>&1 &
NFSD_PID=$!
for _ in $(seq 100); do grep -q '^ready' "$WORK/nfsd.log" && break; sleep 0.05; done
NFSD_PORT=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$WORK/nfsd.log")
[ -n "$NFSD_PORT" ] || { echo "pynfs-run: sfs_nfsd did not start: $(cat "$WORK/nfsd.log")" >&2; exit 1; }
servers="sfs_nfsd=127.0.0.1:$NFSD_PORT/export"
if [ "$(id -u)" -eq 0 ] && command -v ganesha.nfsd >/dev/null; then
    if GDIR=$WORK/g PROTOCOLS="3, 4" "$TOP/scripts/ganesha-lo.sh" start >"$WORK/g.log" 2>&1; then
        servers="$servers ganesha=127.0.0.1:2049/export"
    else
        echo "pynfs-run: ganesha did not start ($(tail -2 "$WORK/g.log")); sfs_nfsd only" >&2
    fi
fi

: >"$OUT/summary.txt"
for suite in 4.0 4.1; do
    for s in $servers; do
        name=${s%%=*} url=${s#*=}
        out="$OUT/$name-$suite.out"
        # bounded: a suite that hangs on a server is stopped after 20 minutes
        # the 4.1 suite speaks minor version 2 unless told: both servers get 1
        minor=(); [ "$suite" = 4.1 ] && minor=(--minorversion=1)
        (cd "$PYNFS/nfs$suite" && timeout 1200 "${PY[@]}" ./testserver.py "$url" --maketree "${minor[@]}" \
            --outfile="$out" --json="$OUT/$name-$suite.json" "${ARGS[@]}" \
            >"$OUT/$name-$suite.log" 2>&1)
        line=$(grep -E '^Of those:' -A0 "$OUT/$name-$suite.log" | tail -1)
        counts=$(grep -E '^Command line|^Of those|Skipped|Failed|Warned|Passed' \
            "$OUT/$name-$suite.log" | tail -5 | tr '\n' ' ')
        echo "$suite $name: ${counts:-$line}" | tee -a "$OUT/summary.txt"
    done
    if [ -f "$OUT/ganesha-$suite.json" ]; then
        # the tests ganesha passes and sfs_nfsd does not
        "${PY[@]}" - "$OUT/ganesha-$suite.json" "$OUT/sfs_nfsd-$suite.json" <<'EOF' | tee -a "$OUT/summary.txt"
import json, sys
def load(p):
    try:
        d = json.load(open(p))
    except Exception:
        return {}
    return {t["code"]: t for t in d.get("testcase", [])}
g, s = load(sys.argv[1]), load(sys.argv[2])
def failed(t):
    return "failure" in t
gap = sorted(c for c, t in g.items() if not failed(t) and c in s and failed(s[c]))
print("ganesha passes, sfs_nfsd fails (%d): %s" % (len(gap), " ".join(gap)))
EOF
    fi
done
