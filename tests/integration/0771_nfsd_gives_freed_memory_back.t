#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# sfs_nfsd gives the memory of removed files back to the system: two
# clients populate about 220 MB of file sets, `sfs_mgr -c` removes every
# tree, and the server's resident size falls back to near what it was
# before (file data is kept in small chunks, which libc would otherwise
# keep for reuse: the server held the size of every file ever removed).
# A second population grows it again: the memory is the server's to use.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 4
start_nfsd srv || bail "sfs_nfsd did not start"
rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$srv_PID/status"; }
prime_rc "$T_DIR/m_rc" 'LOAD=10' 'CLIENTS="localhost localhost"' PROCS=4 \
    "MNT_POINTS=\"$srv_URL\"" NFS_VERSION=3 POPULATE=1 FILE_COUNT=4000 "WORK_DIR=$T_DIR/res"
base=$(rss)
"$T_BIN/sfs_mgr" -r "$T_DIR/m_rc" --progress 0 >"$T_DIR/pop1" 2>&1
full=$(rss)
ok "$([ "$full" -gt $((base + 150000)) ]; echo $?)" \
    "the file sets are in the server's memory (${base} kB -> ${full} kB resident)"
"$T_BIN/sfs_mgr" -c -r "$T_DIR/m_rc" >"$T_DIR/clean" 2>&1
is "$?" 0 "sfs_mgr -c removed every tree"
after=$(rss)
ok "$([ "$after" -lt $((base + (full - base) / 5)) ]; echo $?)" \
    "their memory went back to the system ($full kB -> $after kB resident, from $base kB)"
"$T_BIN/sfs_mgr" -r "$T_DIR/m_rc" --progress 0 >"$T_DIR/pop2" 2>&1
again=$(rss)
ok "$([ "$again" -gt $((after + 150000)) ]; echo $?)" \
    "a second population takes it again ($again kB)"
