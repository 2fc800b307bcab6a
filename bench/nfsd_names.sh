#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/nfsd_names.sh - sfs_nfsd's per-directory name map: the chained hash
# it uses against JudySL and JudyHS, side by side in one run (the "name map"
# part of docs/PERFORMANCE.md's sfs_nfsd section).  Prints ns per insert,
# hit, miss and remove for directories of 30, 1000 and 100000 names, and
# each Judy's ratio to the hash.  BENCH_BUILD names the build directory.
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init nfsd_names
if [ ! -x "$build/bench/nfsd_names" ]; then
    echo "   $build/bench/nfsd_names not built (make bench): skipped"
    exit 0
fi
"$build/bench/nfsd_names"
