#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0671_trace_fit_round_trip_default_mix.t - sfs_trace fit on a capture of
# an sfs3 run with SFS's default mix and block sizes gives them back (the
# mix within 1 point per op, 8 KB blocks and the block-size rows - each
# within 1 point, as SFS's decks of 100 transfers per process allow in a
# few seconds of requests: tests/tools/fit-check.py -, the file set within
# 10 %); sfs_mgr runs the fitted rc file; the capture of
# that run, fitted again, gives back the first fit within the same bounds;
# both miss-ratio curves are drawn in one picture.  The captures are
# sfs_trace's own live captures on lo (filtered to this test's server),
# from the warm-up on.  The run has every io file in its working set
# (-a 100) and 2000 of them: so SFS's best fit finds a file for nearly
# every transfer (a small working set clips the large ones, and the trace
# then shows the clipped sizes), and a few seconds of calls touch files
# in every directory.
# timeout: 180
. "$(dirname "$0")/lib.sh"
need_root "live capture on lo"
need_python_yaml
. "$(dirname "$0")/lib_fit.sh"
plan 8
fit_round_trip "default files=2000" -l 2000 -p 2 -w 1 -t 4 -F 2000 -a 100
