#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/fit.sh - `sfs_trace fit` against `sfs_trace stats` on the same
# captures (the "sfs_trace fit" section of docs/PERFORMANCE.md): the fit
# should read a capture as fast as stats does, and its miss-ratio curve
# must be the exact one.  Three captures are made here with dumpcap on lo,
# filtered on a private sfs_nfsd's ports (root needed): an sfs3 run of two
# sizes (SMALL_S 5 and LARGE_S 30 seconds at LOAD 1000 calls/s, 4 processes over TCP,
# after a 1 s warm-up and the file set's creation, all captured:
# SFS's default mix, what a fit is for), and an NFSv4.1 workload of
# tests/tools/nfs41_mix (V4_ROUNDS rounds).  On each, `stats`, `fit` and
# `mrc` run 3 times alternating (ROUNDS), the best wall and CPU time kept;
# the ratio is fit's time over stats's.  The fit's curve (YAML
# miss_ratio) is compared with `mrc`'s exact one at every size both give:
# any difference stops the bench.
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init fit
bench_need "$bin/sfs_trace" "$bin/sfs_nfsd" "$bin/sfs3" "$build/tools/nfs41_mix"
if [ "$(id -u)" -ne 0 ] || ! command -v dumpcap >/dev/null; then
    echo "fit: needs root and dumpcap; skipped"
    exit 0
fi
command -v python3 >/dev/null && python3 -c 'import yaml' 2>/dev/null ||
    { echo "fit: needs python3-yaml; skipped"; exit 0; }
[ -x /usr/bin/time ] || { echo "fit: /usr/bin/time missing (apt-get install time)"; exit 1; }
rounds=${ROUNDS:-3}
bench_spawn "$tmp/nfsd.log" "$bin/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export
bench_wait_ready "$tmp/nfsd.log" || exit 1
nfs=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$tmp/nfsd.log")
mnt=$(sed -n 's/.* mount [^ ]*:\([0-9]*\) .*/\1/p' "$tmp/nfsd.log")
url=127.0.0.1:$nfs:/export
ports="port $nfs or port $mnt"
# sfs3 SECONDS CLIENT: a run of its own file set (the client's directory)
sfs3() { "$bin/sfs3" -Q -l "${LOAD:-1000}" -p 4 -w 1 -t "$1" -F 1000 -a 50 -N "$2" "$url"; }
bench_capture "$tmp/small.pcapng" "$ports" sfs3 "${SMALL_S:-5}" 1
bench_capture "$tmp/large.pcapng" "$ports" sfs3 "${LARGE_S:-30}" 2
bench_capture "$tmp/v41.pcapng" "$ports" "$build/tools/nfs41_mix" -r "${V4_ROUNDS:-400}" \
    -f 3 "$nfs" export

# run FILE MODE ARGS...: one timed run; appends "FILE MODE wall cpu"
run() {
    f=$1 mode=$2
    shift 2
    /usr/bin/time -f "%e %U %S" -o "$tmp/t" "$bin/sfs_trace" "$@" -q "$tmp/$f.pcapng" \
        >/dev/null 2>&1 || { echo "fit: sfs_trace $* $f failed"; exit 1; }
    awk -v f="$f" -v m="$mode" '{printf "%s %s %.3f %.3f\n", f, m, $1, $2 + $3}' \
        "$tmp/t" >>"$tmp/times"
}
: >"$tmp/times"
for f in small large v41; do # the curves first: the fit's must be mrc's
    "$bin/sfs_trace" fit -q "$tmp/$f.pcapng" -o "$tmp/$f" --yaml "$tmp/$f.fit.yaml" &&
        "$bin/sfs_trace" mrc -q "$tmp/$f.pcapng" --yaml "$tmp/$f.mrc.yaml" &&
        "$bin/sfs_trace" stats -q "$tmp/$f.pcapng" --yaml "$tmp/$f.stats.yaml" ||
        { echo "fit: sfs_trace failed on $f"; exit 1; }
    python3 - "$tmp/$f" <<'PY' || exit 1
import sys, yaml
p = sys.argv[1]
fit = yaml.safe_load(open(p + ".fit.yaml"))
mrc = yaml.safe_load(open(p + ".mrc.yaml"))
st = yaml.safe_load(open(p + ".stats.yaml"))
exact = {h["cache_blocks"]: h["miss_ratio"] for h in mrc["hit_ratio"]}
both = [(m["cache_blocks"], m["miss_ratio"], exact[m["cache_blocks"]])
        for m in fit["miss_ratio"] if m["cache_blocks"] in exact]
# the fit prints 6 significant digits
bad = [b for b in both if abs(b[1] - b[2]) > 5e-6 * abs(b[2]) + 1e-300]
print("%s: %d calls, %d block references; fit's curve against mrc's exact one at %d sizes: %s"
      % (p.rsplit("/", 1)[1], st["calls"], mrc["references"], len(both),
         "identical (to the fit's 6 digits)" if both and not bad else "DIFFERENT %s" % bad[:3]))
sys.exit(1 if bad or not both else 0)
PY
done
r=0
while [ $r -lt "$rounds" ]; do
    r=$((r + 1))
    for f in small large v41; do
        run $f stats stats
        run $f fit fit -o "$tmp/$f"
        run $f mrc mrc
    done
done
printf '%-6s %8s %9s %15s %15s %15s %12s\n' capture MB calls "stats s (CPU)" \
    "fit s (CPU)" "mrc s (CPU)" "fit / stats"
for f in small large v41; do
    awk -v f="$f" -v mb="$(stat -c %s "$tmp/$f.pcapng" | awk '{printf "%.1f", $1 / 1e6}')" \
        -v calls="$(sed -n 's/^calls: //p' "$tmp/$f.stats.yaml")" '
        $1 != f { next }
        { if (!($2 in w) || $3 < w[$2]) w[$2] = $3; if (!($2 in c) || $4 < c[$2]) c[$2] = $4 }
        END { printf "%-6s %8s %9s %7.3f (%5.3f) %7.3f (%5.3f) %7.3f (%5.3f) %5.2fx %5.2fx\n",
                  f, mb, calls, w["stats"], c["stats"], w["fit"], c["fit"], w["mrc"], c["mrc"],
                  w["fit"] / w["stats"], c["stats"] ? c["fit"] / c["stats"] : 0 }' "$tmp/times"
done
echo "(best of $rounds alternating rounds; the last two columns: wall, CPU)"
