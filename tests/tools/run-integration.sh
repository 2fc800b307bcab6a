#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-integration.sh - runs tests/integration/*.t through prove (TAP).
# Each test gets a wall-clock limit (scaled by FREESFS_TEST_TIMEOUT_MULTIPLIER)
# enforced by tests/tools/with-timeout; ONLY=pattern narrows the set.
cd "$(dirname "$0")/../.." || exit 1
pattern=${ONLY:-}
set --
for t in tests/integration/*.t; do
    [ -e "$t" ] || continue
    case "$t" in *"$pattern"*) set -- "$@" "$t" ;; esac
done
if [ $# -eq 0 ]; then
    echo "no integration tests"; exit 0
fi
exec prove -j"${PROVE_JOBS:-2}" --timer --exec tests/tools/with-timeout "$@"
