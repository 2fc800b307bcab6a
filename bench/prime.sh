#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/prime.sh - the prime's control plane fan-in (docs/PERFORMANCE.md,
# "Prime"): bin/sfs_prime driving N fake clients (bench/prime_fanin.c: they
# answer every command at once, so only the prime's one poll() loop is
# measured) through a point, for N = 1 (the baseline), 32, 250 and 1000.
# Prints one line per N and the ratio of the per-client cost to N = 1.
# Everything on 127.0.0.1.
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init prime
bench_need "$bin/sfs_prime" "$build/bench/prime_fanin"
for n in ${PRIME_FANIN_CLIENTS:-1 32 250 1000}; do
    d=$tmp/n$n
    mkdir -p "$d"
    "$build/bench/prime_fanin" "$bin/sfs_prime" "$n" "$d" || echo "prime: N=$n failed"
done | tee "$tmp/lines"
# per client: the phase round trip and the results over N, against N = 1
awk '{n = $2; rt = $9; res = $12
      if (NR == 1) { rt1 = rt / n; res1 = res / n }
      printf "clients %5d  round trip %6.1f us/client (x%.2f of N=1)  results %6.1f us/client (x%.2f)\n",
             n, rt * 1000 / n, rt1 ? (rt / n) / rt1 : 0, res * 1000 / n, res1 ? (res / n) / res1 : 0}' \
    "$tmp/lines"
