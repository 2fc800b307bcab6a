#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/run.sh - `make bench`: runs every bench/*.sh in turn.  Each one runs
# its peer or baseline side by side in the same run and prints ratios;
# figures are recorded in docs/PERFORMANCE.md.  ONLY=pattern narrows.
cd "$(dirname "$0")/.." || exit 1
rc=0
for b in bench/*.sh; do
    [ -e "$b" ] || continue
    case "$b" in bench/run.sh | bench/lib.sh) continue ;; *"${ONLY:-}"*) ;; *) continue ;; esac
    echo "==== $b"
    sh "$b" || rc=1
done
exit $rc
