#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# Level 3 (interactive) driven through a pipe: after each W the suite asks
# "continue? (y or n)"; y goes on, n stops the run at once, EOF counts as
# n, any other answer is asked again.  A stopped run fails ("validation
# terminated with errors", exit 1) even when the W was only a deviation.
# The server answers FSSTAT and PATHCONF with IO (sfs_nfsd --error), two
# deviations in the extended section, so that the questions come at known
# places; a healthy server asks nothing.
. "$(dirname "$0")/lib.sh"
plan 18

start_nfsd D --error fsstat=IO:100 --error pathconf=IO:100 || bail "no server"
v3() { timeout 60 "$T_BIN/sfs3" -V 3 "$D_URL" 2>"$T_DIR/err"; }
asks() { grep -o 'continue? (y or n)' <<<"$1" | wc -l; }

out=$(printf 'y\ny\n' | v3)
is "$?" 0 "y, y: exit 0 (two deviations are not errors)"
is "$(asks "$out")" 2 "... asked twice, once after each W"
like "$out" "W: extended: FSSTAT: IO .*" "... first after FSSTAT"
like "$out" "continue\? \(y or n\) y$" "... the piped answer echoed"
like "$out" "MKNOD ext_fifo" "... and went on past PATHCONF to MKNOD"
is "$(tail -1 <<<"$out")" "validation completed successfully." "... to the success line"

out=$(printf 'n\n' | v3)
is "$?" 1 "n: exit 1"
is "$(asks "$out")" 1 "... asked once"
unlike "$out" "PATHCONF of" "... and stopped before PATHCONF"
like "$out" "validation stopped after a warning" "... saying why"
is "$(tail -1 <<<"$out")" "validation terminated with errors" "... the failure line"

out=$(v3 </dev/null)
is "$?" 1 "EOF: exit 1, as n"
is "$(asks "$out")" 1 "... asked once"

out=$(printf 'maybe\n\nY\nyes\n' | v3)
is "$?" 0 "'maybe' and an empty line are asked again; Y and yes go on"
is "$(asks "$out")" 4 "... four questions for two W lines"

start_nfsd H || bail "no server"
out=$(timeout 60 "$T_BIN/sfs3" -V 3 "$H_URL" </dev/null 2>&1)
is "$?" 0 "a healthy server at level 3: exit 0"
is "$(asks "$out")" 0 "... no question"
like "$out" "^readdirplus: " "... verbose, as level 2"
