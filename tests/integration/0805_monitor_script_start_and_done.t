#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# PRIME_MON_SCRIPT is called with START when every client is READY and with
# DONE after the measured run, with PRIME_MON_ARGS as its arguments (no
# shell: the words reach it as they are) and the run's facts in its
# environment; scripts/sfs_ext_mon, the example monitor, samples the
# prime's statistics into WORK_DIR between the two and leaves nothing
# running.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 8
start_nfsd srv || bail "sfs_nfsd did not start"
mon=$T_DIR/mon.sh
cat >"$mon" <<EOF
#!/bin/sh
echo "\$1 args=\$2,\$3,\$4 run=\$SFS_RUN load=\$SFS_LOAD sfx=\$SFS_SUFFIX" >>"$T_DIR/mon.log"
exec "$T_TOP/scripts/sfs_ext_mon" "\$1" -i 1
EOF
chmod +x "$mon"
rc=$T_DIR/mon_rc
prime_rc "$rc" 'LOAD=40' 'CLIENTS=localhost' PROCS=1 "MNT_POINTS=\"$srv_URL\"" \
    NFS_VERSION=3 WARMUP_TIME=1 RUNTIME=3 FILE_COUNT=100 "WORK_DIR=$T_DIR/res" \
    "PRIME_MON_SCRIPT=$mon" "PRIME_MON_ARGS='-x \$HOME;id'"
tag=$(run_tag "$rc")
"$T_BIN/sfs_mgr" -r "$rc" >"$T_DIR/out" 2>"$T_DIR/err"
is "$?" 0 "sfs_mgr exits 0"
calls=$(cat "$T_DIR/mon.log" 2>/dev/null)
like "$calls" "^START args=-x,\\\$HOME;id, run=1 load=40 sfx=mon" \
    "START first, with the arguments as words (nothing expanded or run)"
like "$(printf '%s\n' "$calls" | sed -n 2p)" "^DONE " "then DONE"
is "$(printf '%s\n' "$calls" | wc -l)" 2 "called exactly twice"
log=$(cat "$T_DIR/res/sfslog.mon")
ok "$(printf '%s\n' "$log" | awk '/Running .* START/ {s=NR} /Starting 3 seconds/ {r=NR}
    /Running .* DONE/ {d=NR} END {exit !(s && r && d && s < r && r < d)}'; echo $?)" \
    "START before the run, DONE after it"
samples=$(grep -vc '^#' "$T_DIR/res/sfsmon.mon.1" 2>/dev/null)
ok "$([ "${samples:-0}" -ge 2 ]; echo $?)" "sfs_ext_mon sampled the prime ($samples samples)"
ok "$([ ! -e "$T_DIR/res/.sfs_ext_mon.mon.pid" ]; echo $?)" "its sampler was stopped at DONE"
no_leftovers "$tag" 10
ok $? "no process of the run is left"
