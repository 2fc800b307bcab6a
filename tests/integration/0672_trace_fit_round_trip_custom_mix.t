#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0672_trace_fit_round_trip_custom_mix.t - the round trip of 0671 with a
# mix file and a block-size file of the test's own and blocks of 4 KB
# (-B 4): the fit gives back the mix and the rows within 1 point each,
# the 4 KB blocks exactly and the file set within 10 %; the fitted run's
# capture gives back the fit.  Files of at least 16 KB, the largest
# transfer here, are a quarter of SFS's file sizes: best fit never clips.
# timeout: 180
. "$(dirname "$0")/lib.sh"
need_root "live capture on lo"
need_python_yaml
. "$(dirname "$0")/lib_fit.sh"
plan 8
# every NFSv3 op listed: a version-2 mix file keeps SFS's default for the
# ops it leaves out
cat >"$T_DIR/custom.mix" <<'MIX'
SFS MIXFILE VERSION 2
null 0%
getattr 20%
setattr 0%
lookup 20%
readlink 0%
read 30%
write 20%
create 0%
remove 0%
rename 0%
link 0%
symlink 0%
mkdir 0%
rmdir 0%
readdir 0%
fsstat 0%
access 0%
commit 5%
fsinfo 0%
mknod 0%
pathconf 0%
readdirplus 5%
MIX
cat >"$T_DIR/custom.iodist" <<'IODIST'
# percent blocks fragment, blocks of 4 KB (-B 4)
Read
60 1 0
30 2 1
10 4 0
Write
50 0 1
40 1 0
10 3 1
IODIST
fit_round_trip "mix=$T_DIR/custom.mix iodist=$T_DIR/custom.iodist block=4 files=2000" \
    -m "$T_DIR/custom.mix" -b "$T_DIR/custom.iodist" -B 4 -l 2000 -p 2 -w 1 -t 4 -F 2000 -a 100
