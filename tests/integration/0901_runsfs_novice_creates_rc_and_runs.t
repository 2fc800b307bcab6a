#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0901_runsfs_novice_creates_rc_and_runs.t - a Novice session as a person
# has it (expect on a terminal): the vendor and mode questions, the wrapper
# questions, (r)un with a new rc file built from the prompts (LOAD, NFS
# version, TCP, clients, mount points, processes, the warm-up and run times
# (kept: the home's template is shortened to 1 s and 3 s, so the points
# take seconds), name), the suffix, the validation and newfs questions, a
# two-point run of sfs_mgr against sfs_nfsd with "Executing run i of 2 ...
# done", then (v)iew (the sfssum lines and the curve picture's place) and
# (a)rchive (a .tar.gz of the suffix's files and the rc file).  The
# validation question is answered with RETURN (yes): sfs_mgr -v 2 runs the
# validation suite against the server first.  The rc file, the results and
# the archive are checked afterwards.
# timeout: 180
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_menus.sh"
[ -x "$T_BIN/sfs_mgr" ] || skip_all "sfs_mgr is not built"
plan 15

menus_home
"$T_BIN/sfs_rc" set "$MENUS_HOME/rc/sfs_rc" WARMUP_TIME=1 RUNTIME=3 FILE_COUNT=100 ||
    bail "cannot shorten the template"
start_nfsd nfsd || bail "sfs_nfsd did not start"
WORK=$T_DIR/work
export WORK MOUNT=$nfsd_URL T_BIN

cat >"$T_DIR/novice.exp" <<'EOF'
spawn env FREESFS_HOME=$env(MENUS_HOME) $env(T_BIN)/runsfs -C $env(WORK)
step "Please enter your vendor type from the above list or press Return: " ""
wait_for "The default command file is being set to C.linux ."
step "Novice mode (a/n(default))? " "n"
step "( (y)es, (n)o )? " "y"
step "Do you want to edit the M.linux file ((y)es, (n)o)? " "n"
step "( (y)es, (n)o, (p)revious )? " "y"
step "Do you want to edit the file ((y)es, (n)o, (p)revious)? " "n"
step "(p)revious question, (q)uit ... " "r"
wait_for "List of Available RC Files that End with _rc - Latest First"
step "pick up an existing \"_rc\" file from above list: " ""
wait_for "Load information:"
step "Enter new LOAD Initial/Series value : " "100 200"
step "Enter new NFS Version value : " "3"
step "Enter new Use TCP value : " ""
step "Enter new Clients value : " "localhost"
wait_for "To retain this value type <RETURN>"
step "Enter new Mount Points value : " "$env(MOUNT) $env(MOUNT)"
wait_for "For null value type <space> & <RETURN>"
step "Enter new Number of Load Generating Processes value : " "2"
wait_for "Warm-up and Run Times:"
step "(c)hoose (default s)? " "c"
step "Enter new Warm-up Time (s) value : " ""
step "Enter new Run Time (s) value : " ""
wait_re "How long \\(sfs_mgr --check\\): \[0-9\]+ s \\(2 points x \\(1 s warm-up \\+ 3 s run\\) = 8 s of load; plus 10 s start-up a point"
wait_for "Saving the _rc file information ..."
step "New _rc file name: " "novice"
wait_re "Saved \[^\r\n\]*/rc/novice_rc"
wait_for "Using novice_rc as the RC file"
step "(Do not exceed 3 chars if there is a 14 character limit; RETURN for novice): " "n1"
wait_re "sfssum.n1"
wait_for ">> Do you want to run the VALIDATION test ?"
step "Answer y or n (default is y): " ""
wait_for "Have all targeted server file systems been NEWFS'ed ?"
step "Answer y or n (default is y): " ""
wait_re ">>>>> STARTED SFS RUNS ON \[0-9/\]+ AT \[0-9:\]+ <<<<<"
set timeout 120
wait_re ">>>>> STARTED SFS VALIDATION ON \[^\r\n\]+ <<<<<"
wait_for "Validation completed"
wait_for "Executing run 1 of 2 ... done"
wait_for "Executing run 2 of 2 ... done"
wait_re "The results & log files are in \[^\r\n\]*/work/result"
set timeout 30
step "(p)revious question, (q)uit ... " "v"
wait_for "List of Suffixes For Which Results Are Available:"
step "Press <RETURN> for n1: " ""
wait_for "Searching for Results file"
wait_re "/work/result/sfssum.n1\r?\n"
wait_re "100 +\[0-9\]+ +\[0-9.\]+ +\[0-9\]+ +\[0-9\]+ 3 U"
wait_re "200 +\[0-9\]+ +\[0-9.\]+ +\[0-9\]+ +\[0-9\]+ 3 U"
wait_re "(curve is \[^\r\n\]*sfsres.n1.png|no curve picture)"
step "(p)revious question, (q)uit ... " "a"
step "Press <RETURN> for n1: " ""
step "Archive file (RETURN for " ""
wait_re "Archived \[0-9\]+ files of suffix n1 into \[^\r\n\]*sfs_n1.tar.gz"
step "(p)revious question, (q)uit ... " "q"
wait_for "Bye."
finish
EOF
menus_session novice "$T_DIR/novice.exp" "the novice session ran to its end"

rc=$WORK/rc/novice_rc
vals=$("$T_BIN/sfs_rc" show "$rc" LOAD NFS_VERSION TCP CLIENTS MNT_POINTS PROCS WARMUP_TIME 2>&1)
is "$vals" "LOAD=100 200
NFS_VERSION=3
TCP=
CLIENTS=localhost
MNT_POINTS=$MOUNT $MOUNT
PROCS=2
WARMUP_TIME=1" "the new rc file holds the answers (and the template's values)"
ok "$(grep -c '^# sfs_rc -- FreeSFS run-control file template' "$rc" | grep -qx 1; echo $?)" \
    "it keeps the template's comments"
out=$("$T_BIN/sfs_mgr" --check -r "$rc" 2>&1)
ok $? "sfs_mgr --check accepts it"

sum=$WORK/result/sfssum.n1
is "$(wc -l <"$sum" | tr -d ' ')" 2 "sfssum.n1 has one line per point"
# the fields of docs/SFS30.md §16.5 (these short points are INVALID: 3 s runs)
fields=$(sed 's/^ *INVALID//' "$sum")
is "$(printf '%s\n' "$fields" | awk '{print $1}' | tr '\n' ' ')" "100 200 " \
    "requested loads 100 and 200"
is "$(printf '%s\n' "$fields" | awk '{print $6, $7, $9, $10}' | sort -u)" "3 U 1 2" \
    "NFSv3 over UDP, one client, two processes"
# each point ran its load: calls answered (how close a point comes to its
# requested load is the 03xx tests'; beside two CPU hogs and another suite
# a 3 s point of this run once carried less than half of it)
ok "$(printf '%s\n' "$fields" | awk '!($2 > 0) {bad = 1} END {exit bad}'; echo $?)" \
    "each point ran calls"
grep -q "Executing run 1 of 2 ... done" "$T_DIR/novice.log" &&
    grep -qE '^[A-Z][a-z]{2} [A-Z][a-z]{2} +[0-9]+ [0-9:]{8} [0-9]{4}' "$T_DIR/novice.log"
ok $? "the date comes before each point, as sfs_mgr prints it"

tarball=$WORK/result/sfs_n1.tar.gz
members=$(tar -tzf "$tarball" 2>/dev/null | sort | tr '\n' ' ')
like "$members" "sfslog.n1 .*sfsres.n1 .*sfsres.n1.yaml .*sfssum.n1" "the archive holds the run's files"
like "$members" "sfsc001.n1 .*sfsval.n1" "and the client log and the validation report"
like "$members" "^novice_rc " "and the rc file sfs_generate needs"
tar -xzOf "$tarball" sfssum.n1 | cmp -s - "$sum"
ok $? "the archived sfssum is the file itself"

left=$(find "$WORK" "$MENUS_HOME" -name '*runsfs*' | tr '\n' ' ')
is "$left" "" "no temporary file is left behind"
sleep 0.2
procs=$(pgrep -f -- "-r $rc" | tr '\n' ' ')
is "$procs" "" "no process of the run is left"
