#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# One source for the rc vocabulary (docs/runsfs.md): `sfs_rc describe`
# prints each rc variable's kind and range from the tables a run checks it
# with - the load option table (the ranges sfs3 --help shows) and the
# prime's own variables - and runsfs checks what a user types with them:
# a PROCS beyond the option table's range and an NFS_VERSION outside 2..4
# are refused with the range, LOAD=auto is taken, and the saved rc
# file holds the good answers.  `sfs_rc pages` gives the settings pages
# from the prime's table: SFS's three pages of ten, in its order, each
# variable with its kind (the menu numbers above follow it).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_menus.sh"
plan 13

d=$("$T_BIN/sfs_rc" describe)
# an option's text wraps under its column: each option's on one line again
help=$("$T_BIN/sfs3" --help 2>&1 | sed -e ':a' -e '$!N' -e 's/\n  *\([^ -]\)/ \1/' -e 'ta' -e 'P' -e 'D')
pr=$(printf '%s\n' "$help" | sed -n 's/.*--procs N .*range \([0-9]*\)\.\.\([0-9]*\) .*/\1 \2/p')
is "$(printf '%s\n' "$d" | sed -n 's/^PROCS int //p')" "$pr" "PROCS: the option table's range ($pr)"
like "$d" "^LOAD loads 1 [0-9]+$" "LOAD: loads"
like "$d" "^NFS_VERSION int 2 4$" "NFS_VERSION: the prime's range"
like "$d" "^TRACE_STABLE enum file unstable$" "an enum lists its values"
"$T_BIN/sfs_rc" describe NO_SUCH >/dev/null 2>"$T_DIR/err"
is "$?:$(cat "$T_DIR/err")" "2:sfs_rc: NO_SUCH is not an rc variable" "an unknown name: exit 2, named"
# the settings pages come from the prime's table too (runsfs keeps no list)
pages=$("$T_BIN/sfs_rc" pages)
is "$(printf '%s\n' "$pages" | awk '{print NF}' | tr '\n' ' ')" "10 10 10 " \
    "sfs_rc pages: SFS's three pages of ten variables"
like "$pages" "^LOAD BIOD_MAX_WRITES BIOD_MAX_READS NFS_VERSION NUM_RUNS INCR_LOAD CLIENTS MNT_POINTS PROCS TCP
PRIME_SLEEP .*
WARMUP_TIME RUNTIME " "in SFS's order"
undescribed=$(for n in $pages; do printf '%s\n' "$d" | grep -q "^$n " || echo "$n"; done)
is "$undescribed" "" "sfs_rc describe gives every page's variable its kind"

menus_home
W=$T_DIR/work
export FREESFS_HOME=$MENUS_HOME
answers=(
    "" a 3 ""             # vendor, Advanced, RC file: the template
    9 0 2000 8            # PROCS: out of the option table's range twice, then 8
    4 5 3                 # NFS_VERSION: 5, then 3
    1 auto                # LOAD=auto
    13 described y        # save as described_rc (no clients yet: saved anyway)
    14 11                 # return, exit
)
printf '%s\n' "${answers[@]}" >"$T_DIR/in"
out=$("$T_BIN/runsfs" -C "$W" <"$T_DIR/in" 2>&1)
ok "$([ $? -le 1 ]; echo $?)" "the session ends normally"
like "$out" "'0' is not in the range 1\.\.1024\." "PROCS 0 is refused with the option table's range"
like "$out" "'2000' is not in the range 1\.\.1024\." "so is PROCS 2000"
like "$out" "'5' is not in the range 2\.\.4\." "NFS_VERSION 5 is refused with the range"
is "$("$T_BIN/sfs_rc" show "$W/rc/described_rc" PROCS NFS_VERSION LOAD 2>&1)" "PROCS=8
NFS_VERSION=3
LOAD=auto" "the saved rc file holds the good answers"
