#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# run-integration.sh - runs tests/integration/*.t through prove (TAP).
# Each test gets a wall-clock limit (scaled by FREESFS_TEST_TIMEOUT_MULTIPLIER)
# enforced by tests/tools/with-timeout; ONLY=pattern narrows the set,
# EXCEPT=pattern leaves the matching tests out (e.g. EXCEPT=082 while another
# run on the machine holds the fixed-name namespace test bed).
cd "$(dirname "$0")/../.." || exit 1
pattern=${ONLY:-}
except=${EXCEPT:-}
set --
for t in tests/integration/*.t; do
    [ -e "$t" ] || continue
    case "$t" in *"$pattern"*) ;; *) continue ;; esac
    if [ -n "$except" ]; then
        case "$t" in *"$except"*) continue ;; esac
    fi
    set -- "$@" "$t"
done
if [ $# -eq 0 ]; then
    echo "no integration tests"; exit 0
fi
exec prove -j"${PROVE_JOBS:-2}" --timer --exec tests/tools/with-timeout "$@"
