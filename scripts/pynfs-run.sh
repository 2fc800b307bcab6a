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
# the counts, and every test ganesha passes that sfs_nfsd fails.  SUITE_ARGS default to `all`
# (pynfs flags and codes; `noFLAG` leaves a flag's tests out, e.g.
# `all notimed`; `-v` names each test as it starts); SUITES (default
# "4.0 4.1") picks the suites, SERVERS (default "sfs_nfsd ganesha") the
# servers.
#
# sfs_nfsd runs from bin/ on a free port; ganesha through
# scripts/ganesha-lo.sh with NFSv4 on (PROTOCOLS="3, 4") on port 3149, a
# lease of 15 s as sfs_nfsd's (run it as root: ganesha needs it; without
# root only sfs_nfsd is run), started for each suite under the ganesha lock
# the integration tests take, and each of its suites cut after
# GANESHA_SUITE_SECONDS (default 540: the tests wait 600 s for that lock).
# Both export /export; every process started is stopped by its PID.
# Traffic stays on 127.0.0.1.
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
with_ganesha=0
[ "$(id -u)" -eq 0 ] && command -v ganesha.nfsd >/dev/null && with_ganesha=1

# run_suite NAME URL SUITE SECONDS: one suite against one server, bounded
run_suite() {
    local name=$1 url=$2 suite=$3 secs=$4 minor=() counts
    # the 4.1 suite speaks minor version 2 unless told: both servers get 1
    [ "$suite" = 4.1 ] && minor=(--minorversion=1)
    (cd "$PYNFS/nfs$suite" && timeout "$secs" "${PY[@]}" ./testserver.py "$url" --maketree "${minor[@]}" \
        --outfile="$OUT/$name-$suite.out" --json="$OUT/$name-$suite.json" "${ARGS[@]}" \
        >"$OUT/$name-$suite.log" 2>&1) || [ $? -ne 124 ] || echo "(cut after $secs s)" >>"$OUT/$name-$suite.log"
    counts=$(grep -E '^Command line asked|^Of those:|^\(cut' "$OUT/$name-$suite.log" | tr '\n' ' ')
    echo "$suite $name: ${counts:-no result}" | tee -a "$OUT/summary.txt"
}

: >"$OUT/summary.txt"
for suite in ${SUITES:-4.0 4.1}; do
    # a suite that hangs on sfs_nfsd is stopped after 20 minutes
    case " ${SERVERS:-sfs_nfsd ganesha} " in
    *" sfs_nfsd "*) run_suite sfs_nfsd "127.0.0.1:$NFSD_PORT/export" "$suite" 1200 ;;
    esac
    case " ${SERVERS:-sfs_nfsd ganesha} " in *" ganesha "*) ;; *) with_ganesha=0 ;; esac
    if [ $with_ganesha = 1 ]; then
        # one ganesha at a time machine-wide (it owns rpcbind's
        # registrations: docs/TESTING.md, "One rpcbind, several servers"),
        # held for one suite only and for less than the 600 s the tests
        # wait for it; ports outside the tests' range
        exec 9>"${TMPDIR:-/tmp}/freesfs-ganesha.lock"
        if ! flock -w 900 9; then
            echo "pynfs-run: the ganesha lock stayed taken: ganesha $suite not run" | tee -a "$OUT/summary.txt"
        elif GDIR=$WORK/g PROTOCOLS="3, 4" LEASE=15 NFS_PORT=3149 MNT_PORT=3150 \
            "$TOP/scripts/ganesha-lo.sh" start >"$WORK/g.log" 2>&1; then
            run_suite ganesha 127.0.0.1:3149/export "$suite" "${GANESHA_SUITE_SECONDS:-540}"
            GDIR=$WORK/g "$TOP/scripts/ganesha-lo.sh" stop >/dev/null 2>&1
        else
            echo "pynfs-run: ganesha did not start ($(tail -2 "$WORK/g.log")); ganesha $suite not run" |
                tee -a "$OUT/summary.txt"
        fi
        exec 9>&-
    fi
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
