#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# Input files are text: a NUL byte anywhere in an rc file, a mount-point
# file, a mix file or a block-size file is an error at its FILE:LINE with a
# non-zero exit - never a value silently cut at the NUL (CLIENTS="loc\0alhost"
# running "loc", LOAD="1\00" running 1, a mix line "lookup 3\06%" read as
# 3 %) - for sfs_rc show and check, sfs_mgr and sfs3 alike.  An rc value is
# at most 1 MiB after expansion: ten levels of $A$A... stop at their line
# within a small memory limit instead of growing to gigabytes; a
# PRIME_MON_ARGS of more than 256 words is an error, not silently empty.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 22
cd "$T_DIR" || bail "no test dir"

rc_base() { # the lines of a good rc file, then the caller's
    printf 'LOAD=100\nPROCS=1\nMNT_POINTS=127.0.0.1:9:/export\n'
}

# ---- NUL bytes in an rc file ----
{ printf 'CLIENTS="loc\0alhost"\n'; rc_base; } >clients_rc
{ rc_base | sed 's/^LOAD=100$//'; printf 'CLIENTS=localhost\nLOAD="1\00"\n'; } >load_rc
{ printf 'CLIENTS=localhost\n'; rc_base | sed 's/^PROCS=1$/PROCS=2\o0003/'; } >procs_rc
out=$("$T_BIN/sfs_rc" show clients_rc CLIENTS 2>&1)
is "$?" 2 "sfs_rc show: a NUL in CLIENTS is refused (exit 2)"
like "$out" "^clients_rc:1: a NUL byte at column 13" "at its FILE:LINE and column"
unlike "$out" "CLIENTS=loc" "and no cut value is shown"
out=$("$T_BIN/sfs_rc" check load_rc 2>&1)
is "$?" 2 "sfs_rc check: LOAD=\"1\\00\" is refused"
like "$out" "^load_rc:5: a NUL byte" "at its line"
out=$("$T_BIN/sfs_mgr" --check -r procs_rc 2>&1)
is "$?" 2 "sfs_mgr --check: PROCS=2\\0003 is refused"
like "$out" "procs_rc:3: a NUL byte" "at its line"
out=$("$T_BIN/sfs_mgr" -r clients_rc 2>&1)
is "$?" 2 "a run refuses it too"
ok "$([ ! -e result ]; echo $?)" "and starts nothing"

# ---- a mount-point file ----
printf 'localhost 127.0.0.1:9:/ex\0port\n' >mounts
prime_rc mf_rc CLIENTS=localhost LOAD=100 PROCS=1 MNT_POINTS=mounts
out=$("$T_BIN/sfs_mgr" --check -r mf_rc 2>&1)
is "$?" 2 "a NUL in a mount-point file is refused"
like "$out" "mf_rc:4: error: MNT_POINTS: .*/mounts:1: a NUL byte at column 26" \
    "at the mount-point file's line, from the rc line naming it"

# ---- mix and block-size files ----
sed 's/^lookup 27%$/lookup 2\o0007%/' "$T_FIXTURES/mix/v2-nfsv3-default.mix" >nul.mix
sed '0,/^[0-9]/s/^\([0-9]\)/\1\o000/' "$T_FIXTURES/iodist/default.bsd" >nul.bsd
out=$("$T_BIN/sfs3" -m nul.mix -l 10 -p 1 -w 1 -t 1 127.0.0.1:9:/export 2>&1)
is "$?" 2 "sfs3 -m: a NUL in the mix file is refused (exit 2)"
like "$out" "nul.mix:3: a NUL byte at column 9" "at its line: not read as 2 %"
out=$("$T_BIN/sfs3" -b nul.bsd -l 10 -p 1 -w 1 -t 1 127.0.0.1:9:/export 2>&1)
is "$?" 2 "sfs3 -b: a NUL in the block-size file is refused"
like "$out" "nul.bsd:[0-9]+: a NUL byte at column 2" "at its line"

# ---- bounded expansion ----
{
    printf 'CLIENTS=localhost\n'
    rc_base
    printf 'A=%s\n' "$(head -c 1000 /dev/zero | tr '\0' x)"
    for i in 1 2 3 4 5 6 7 8 9 10; do printf 'A=%s\n' '$A$A$A$A$A$A$A$A$A$A'; done
} >bomb_rc
# 100 MB of address space: the file must fail at its line, not run out of
# memory (10^13 bytes if nothing stopped the growth)
out=$( (ulimit -v 100000 && exec "$T_BIN/sfs_mgr" --check -r bomb_rc) 2>&1)
is "$?" 2 "ten levels of \$A\$A... fail (exit 2)"
like "$out" "^bomb_rc:9: error: A: the value is longer than 1048576 bytes \\(1 MiB\\) after expansion" \
    "at the line that passes 1 MiB"
unlike "$out" "out of memory" "within 100 MB of memory"
out=$( (ulimit -v 100000 && exec "$T_BIN/sfs_rc" show bomb_rc A) 2>&1)
is "$?" 2 "sfs_rc refuses it the same way"

# ---- PRIME_MON_ARGS ----
printf '#!/bin/sh\nexit 0\n' >mon && chmod +x mon
prime_rc mon_rc CLIENTS=localhost LOAD=100 PROCS=1 MNT_POINTS=127.0.0.1:9:/export \
    PRIME_MON_SCRIPT=mon "PRIME_MON_ARGS=\"$(seq -s ' ' 1 257)\""
out=$("$T_BIN/sfs_mgr" --check -r mon_rc 2>&1)
is "$?" 2 "257 monitor arguments are refused"
like "$out" "mon_rc:6: error: PRIME_MON_ARGS: more than 256 words" "at their line"
prime_rc mon2_rc CLIENTS=localhost LOAD=100 PROCS=1 MNT_POINTS=127.0.0.1:9:/export \
    PRIME_MON_SCRIPT=mon "PRIME_MON_ARGS=\"$(seq -s ' ' 1 256)\""
out=$("$T_BIN/sfs_mgr" --check -r mon2_rc 2>&1)
like "$out" "monitor: .*/mon 1 2 3 .* 255 256$" "256 are passed, every one"
