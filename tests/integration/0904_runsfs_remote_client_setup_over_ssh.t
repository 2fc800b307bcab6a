#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0904_runsfs_remote_client_setup_over_ssh.t - Remote Client Setup as a
# person uses it (expect on a terminal) on a test bed of network namespaces
# with one sshd each (scripts/testbed.sh): the programs are copied through
# the rc file's RSH to SFS_DIR on client1 and client2 and run there (each
# answers with its own host name); client3, which no ssh reaches, is
# reported FAILED; the copies are the build's programs byte for byte.
# timeout: 120
. "$(dirname "$0")/lib.sh"
[ -f "$(dirname "$0")/lib_prime.sh" ] || skip_all "needs the prime tests' test bed helpers"
. "$(dirname "$0")/lib_prime.sh"
. "$(dirname "$0")/lib_menus.sh"
[ -x "$T_BIN/sfs_mgr" ] || skip_all "sfs_mgr is not built"
testbed_start fs1304 10.231.13 2
plan 7

W=$T_DIR/work
mkdir -p "$W/rc"
prime_rc "$W/rc/remote_rc" 'LOAD="100"' 'CLIENTS="client1 client2 client3"' PROCS=1 \
    "MNT_POINTS=\"$TB_MOUNT\"" "RSH=\"ssh -F $TESTBED_DIR/ssh_config\"" \
    "SFS_DIR=$T_DIR/remote_bin"
export W T_BIN T_TOP

# FREESFS_HOME: the tree's wrappers also when T_BIN is another build's
# (FREESFS_BIN, e.g. make coverage's build/coverage/bin); runsfs then
# copies what M.linux builds, bin/
cat >"$T_DIR/remote.exp" <<'EOF'
spawn env FREESFS_HOME=$env(T_TOP) $env(T_BIN)/runsfs -C $env(W) -V linux
step "Novice mode (a/n(default))? " "a"
step "Choice : " "4"
wait_for "Sub Menu : Remote Client Setup Utilities"
step "Choice : " "1"
step "pick up an existing \"_rc\" file from above list: " "remote_rc"
wait_re "Copying sfs sfs3 sfs_ping from \[^\r\n\]* to \[^\r\n\]*/remote_bin on client1 client2 client3"
wait_re "Remote client setup: \[0-9\]+ client\\(s\\) ready, \[0-9\]+ failed."
step "To Continue Please Press The <RETURN> key:" ""
step "Choice : " "3"
step "Choice : " "11"
wait_for "Bye."
finish
EOF
menus_session remote "$T_DIR/remote.exp" "the session ran to its end"
log=$(tr -d '\r' <"$T_DIR/remote.log")
like "$log" "client1: copied; [^ ]*/remote_bin/sfs3 runs there \(the client calls itself client1\)" \
    "client1 got the programs and runs them"
like "$log" "client2: copied; [^ ]*/remote_bin/sfs3 runs there \(the client calls itself client2\)" \
    "client2 too"
like "$log" "client3: FAILED" "client3, which ssh cannot reach, is reported"
like "$log" "Remote client setup: 2 client\(s\) ready, 1 failed." "the summary counts both"
same=0
for p in sfs sfs_ping; do cmp -s "$T_TOP/bin/$p" "$T_DIR/remote_bin/$p" || same=1; done
[ "$(readlink "$T_DIR/remote_bin/sfs3")" = sfs ] || same=1
ok $same "the copies are the build's programs (sfs3 the link to sfs)"
left=$(find "$T_DIR/remote_bin" -name '.sfs_setup.*' | tr '\n' ' ')
is "$left" "" "no temporary directory is left on the clients"
