#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0906_runsfs_novice_times_vendors_and_newfs.t - runsfs as a new user meets
# it (expect on a terminal):
#  - the vendor list names vendor ports only (linux), not the build
#    variants clang, coverage, debug and fuzz;
#  - Novice mode asks the warm-up and run times: a quick look (10 s + 30 s,
#    and a file set of 10 000 files a client, not one sized for 16 000
#    ops/s) states how long the run takes - sfs_mgr --check's estimate, the
#    one the saved file gets - and that its points will be INVALID only
#    because of these times; RETURN takes SFS's 300 s + 300 s;
#  - LOAD=auto asks how many points follow the search (10 on RETURN, where
#    the template's single point was refused at Save) and states the
#    search's range of time;
#  - answering that the file systems were newfs'ed while an earlier run's
#    CL<n> trees are on the server gets a warning at once, naming the tree,
#    and "n" runs nothing.
# The saved rc files hold the times.
# timeout: 120
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_menus.sh"
. "$(dirname "$0")/lib_prime.sh"
[ -x "$T_BIN/sfs_mgr" ] || skip_all "sfs_mgr is not built"
plan 16

menus_home
start_nfsd nfsd || bail "sfs_nfsd did not start"
WORK=$T_DIR/work
export WORK MOUNT=$nfsd_URL T_BIN
# an earlier run leaves its CL1 tree on the server
prime_rc "$T_DIR/old_rc" CLIENTS=localhost LOAD=20 PROCS=1 "MNT_POINTS=$MOUNT" NFS_VERSION=3 \
    WARMUP_TIME=1 RUNTIME=1 FILE_COUNT=20 "WORK_DIR=$T_DIR/old"
"$T_BIN/sfs_mgr" -r "$T_DIR/old_rc" -s old >/dev/null 2>&1 || bail "the earlier run failed"

# one session: (r)un twice, each with a new rc file from the questions
cat >"$T_DIR/times.exp" <<'EOF2'
spawn env FREESFS_HOME=$env(MENUS_HOME) $env(T_BIN)/runsfs -C $env(WORK)
wait_for "The benchmark has been ported to the following vendor/OS list:"
step "Please enter your vendor type from the above list or press Return: " ""
step "Novice mode (a/n(default))? " "n"
step "( (y)es, (n)o )? " "y"
step "Do you want to edit the M.linux file ((y)es, (n)o)? " "n"
step "( (y)es, (n)o, (p)revious )? " "y"
step "Do you want to edit the file ((y)es, (n)o, (p)revious)? " "n"
foreach {name load times answer} {quick "4000 8000 12000 16000" q n
                                   standard "100 200 300" "" n auto auto q n} {
    step "(p)revious question, (q)uit ... " "r"
    step "pick up an existing \"_rc\" file from above list: " ""
    step "Enter new LOAD Initial/Series value : " $load
    if {$load eq "auto"} {
        wait_for "Points of the curve:"
        step "Enter new Points after the search value : " ""
    }
    step "Enter new NFS Version value : " "3"
    step "Enter new Use TCP value : " ""
    step "Enter new Clients value : " "localhost"
    step "Enter new Mount Points value : " "$env(MOUNT)"
    step "Enter new Number of Load Generating Processes value : " "1"
    wait_for "Warm-up and Run Times:"
    step "(c)hoose (default s)? " $times
    step "New _rc file name: " $name
    step "(Do not exceed 3 chars if there is a 14 character limit; RETURN for $name): " ""
    step "Answer y or n (default is y): " "n"
    wait_for "Have all targeted server file systems been NEWFS'ed ?"
    step "Answer y or n (default is y): " "y"
    wait_for "WARNING: the file systems were not newfs'ed since an earlier run:"
    step "Run anyway? (y/n, default n): " $answer
}
step "(p)revious question, (q)uit ... " "q"
wait_for "Bye."
finish
EOF2
menus_session times "$T_DIR/times.exp" "the session ran to its end"
log=$(tr -d '\r' <"$T_DIR/times.log")

vendors=$(printf '%s\n' "$log" | sed -n '/ported to the following vendor/,/Please enter your vendor/p')
like "$vendors" "^linux" "the vendor list names linux"
unlike "$vendors" "clang|coverage|debug|fuzz" "and none of the build variants"
quick=$("$T_BIN/sfs_mgr" --check -r "$WORK/rc/quick_rc" | sed -n 's/^expected_time: about //p')
like "$quick" "^[0-9]+ min [0-9]+ s \\(4 points x \\(10 s warm-up \\+ 30 s run\\)" \
    "a quick look of four points takes minutes ($quick)"
like "$log" "How long \\(sfs_mgr --check\\): $(printf '%s' "$quick" | sed 's/[][().*+?^$|\\]/\\&/g')" \
    "and runsfs says so, with sfs_mgr --check's very words"
is "$("$T_BIN/sfs_rc" show "$WORK/rc/quick_rc" FILE_COUNT)" "FILE_COUNT=10000" \
    "the quick look's file set is 10000 files a client (as -F), not one for 16 000 ops/s"
like "$log" "Every point will be INVALID \\(not publishable\\) only because of these times" \
    "and that they will be INVALID for it"
like "$log" "How long \\(sfs_mgr --check\\): [0-9]+ min [0-9]+ s \\(3 points x \\(300 s warm-up \\+ 300 s run\\) = 30 min 00 s of load" \
    "RETURN: SFS's times"
like "$log" "How long \\(sfs_mgr --check\\): [0-9]+ min [0-9]+ s to [0-9]+ min [0-9]+ s \\(LOAD=auto: a search of 3 to 8 probes" \
    "LOAD=auto: the search's range of time"
is "$("$T_BIN/sfs_rc" show "$WORK/rc/auto_rc" LOAD NUM_RUNS | tr '\n' ' ')" "LOAD=auto NUM_RUNS=10 " \
    "the auto rc file was saved with ten points after the search"
is "$("$T_BIN/sfs_rc" show "$WORK/rc/quick_rc" WARMUP_TIME RUNTIME | tr '\n' ' ')" \
    "WARMUP_TIME=10 RUNTIME=30 " "the quick rc file holds 10 s and 30 s"
is "$("$T_BIN/sfs_rc" show "$WORK/rc/standard_rc" WARMUP_TIME RUNTIME | tr '\n' ' ')" \
    "WARMUP_TIME=300 RUNTIME=300 " "the standard one 300 s and 300 s"
like "$log" "CL1 already on " "the warning names the tree left behind"
unlike "$log" "STARTED SFS RUNS" "and answering n runs nothing"
ok "$([ ! -e "$WORK/result" ]; echo $?)" "no result was written"
ok "$(no_leftovers "$(run_tag "$T_DIR/old_rc")" 10; echo $?)" "no process is left"
