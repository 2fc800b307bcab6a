#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0903_runsfs_advanced_edits_wrapper_and_rc.t - an Advanced session as a
# person has it (expect on a terminal), in a home of the test's own:
#  - 1) M.vendor: C OPTIONS and EXTRA CFLAGS changed, saved under a new
#    name; make reads the new wrapper with those values; M.linux unchanged;
#  - 2) C.vendor: RSH_CMD changed and saved in place, comments kept;
#  - 3) RC file: page 1 and page 2 values changed and saved in place (only
#    those lines change); then the guide's rules: mount points that do not
#    match PROCS, and no client at all, are refused at Save with the rc
#    file's line, and "Save anyway? n" leaves the file as it was;
#  - 6) Start Compilation with the new wrapper; 10) Shell Escape;
#    8) View Results lists the suffixes newest first and prints the sfssum.
# timeout: 120
# check: bin common
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_menus.sh"
[ -x "$T_BIN/sfs_mgr" ] || skip_all "sfs_mgr is not built (the rules are sfs_mgr --check's)"
plan 13

menus_home
# a source-tree home: make and the programs are the tree's own (the build
# is up to date, so compiling changes nothing)
for f in Makefile mk src scripts build; do ln -s "$T_TOP/$f" "$MENUS_HOME/$f"; done
ln -s "$T_BIN" "$MENUS_HOME/bin"
W=$T_DIR/work
mkdir -p "$W/rc" "$W/result"
cat >"$W/rc/adv_rc" <<'EOF'
# adv_rc - edited by the test through runsfs
LOAD="100 200"   # two points
CLIENTS=localhost
PROCS=2
MNT_POINTS="127.0.0.1:2049:/export"

# page 2
PRIME_SLEEP=0
EOF
cp "$W/rc/adv_rc" "$T_DIR/adv_rc.orig"
printf '       100     100     1.0    30000  300 3 U     100000   1  2  2  2 3.0\n' >"$W/result/sfssum.old1"
printf '       200     199     1.2    59700  300 3 U     100000   1  2  2  2 3.0\n' >"$W/result/sfssum.new2"
touch -d '2 hours ago' "$W/result/sfssum.old1"
cp "$MENUS_HOME/C.wrappers/C.linux" "$T_DIR/C.linux.orig"
export W T_BIN

cat >"$T_DIR/adv.exp" <<'EOF'
spawn env FREESFS_HOME=$env(MENUS_HOME) $env(T_BIN)/runsfs -C $env(W)
step "press Return: " ""
step "Novice mode (a/n(default))? " "a"
# 1) the M wrapper
step "Choice : " "1"
step "Hit Return if using M.linux : " ""
wait_for "Checking Wrapper file ......."
step "To Continue Please Press The <RETURN> key:" ""
wait_for "3) C OPTIONS -> -O2 -g"
step "Select Setting : " "3"
step "Enter new C OPTIONS value : " "-O1 -g"
wait_for "3) C OPTIONS -> -O1 -g"
step "Select Setting : " "4"
step "Enter new EXTRA CFLAGS value : " "-DMENU_TEST"
step "Select Setting : " "8"
step "or <RETURN> for M.linux : " "menutest"
wait_re "Saved \[^\r\n\]*/M.wrappers/M.menutest"
step "Select Setting : " "9"
# 2) the C wrapper
step "Choice : " "2"
step "Hit Return if using C.linux : " ""
wait_for "5) RSH_CMD -> ssh -o BatchMode=yes"
step "Select Setting : " "5"
step "Enter new RSH_CMD value : " "ssh -o BatchMode=yes -o ConnectTimeout=5"
step "Select Setting : " "12"
step "or <RETURN> for C.linux : " ""
wait_re "Saved \[^\r\n\]*/C.wrappers/C.linux"
step "Select Setting : " "13"
# 3) the rc file: good edits on pages 1 and 2
step "Choice : " "3"
step "pick up an existing \"_rc\" file from above list: " "adv_rc"
wait_for "Checking RC file ......."
wait_for "1) LOAD -> 100 200"
step "Select Setting : " "1"
step "Enter new LOAD value : " "300 600 900"
step "Select Setting : " "9"
step "Enter new PROCS value : " "1"
step "Select Setting : " "12"
wait_for "Additional modifiable RC Parameter Settings (Page 2)"
step "Select Setting : " "1"
step "Enter new PRIME_SLEEP value : " "2"
step "Select Setting : " "13"
step "Save as (RETURN for adv_rc): " ""
wait_re "Saved \[^\r\n\]*/rc/adv_rc"
# the rules: PROCS against the mount points, at least one client
step "Select Setting : " "12"
wait_for "Fixed RC Parameter Settings (Page 3)"
step "Select Setting : " "12"
wait_for "Current modifiable RC Parameter Settings (Page 1)"
step "Select Setting : " "8"
step "Enter new MNT_POINTS value : " "h:/a h:/b h:/c"
step "Select Setting : " "13"
step "Save as (RETURN for adv_rc): " ""
wait_re "adv_rc:\[0-9\]+: error: MNT_POINTS: 3 mount points for 1 client"
step "Save adv_rc anyway? (y/n, default n): " ""
wait_for "Not saved."
step "Select Setting : " "8"
step "Enter new MNT_POINTS value : " "h:/a"
step "Select Setting : " "7"
step "Enter new CLIENTS value : " " "
step "Select Setting : " "13"
step "Save as (RETURN for adv_rc): " ""
wait_re "adv_rc:\[0-9\]+: error: CLIENTS: must name at least one client"
step "Save adv_rc anyway? (y/n, default n): " "n"
wait_for "Not saved."
step "Select Setting : " "14"
step "Leave them unsaved? (y/n, default n): " "y"
# 6) compile with the new wrapper, 10) shell escape
step "Choice : " "6"
wait_for "Compiling with M.wrappers/M.menutest"
set timeout 120
wait_for "... Done"
set timeout 30
step "To Continue Please Press The <RETURN> key:" ""
step "Choice : " "10"
wait_for "Type 'exit' to come back to runsfs."
send -- "echo SHELL_\$((6*7)); exit\r"
wait_for "SHELL_42"
wait_for "Back in runsfs."
# 8) view results: newest first
step "Choice : " "8"
wait_re "new2 old1"
step "Press <RETURN> for new2: " "old1"
wait_re "/result/sfssum.old1\r?\n"
wait_for "100     100     1.0    30000"
step "To Continue Please Press The <RETURN> key:" ""
step "Choice : " "11"
wait_for "Bye."
finish
EOF
menus_session adv "$T_DIR/adv.exp" "the advanced session ran to its end"

M=$MENUS_HOME/M.wrappers
cmp -s "$M/M.linux" "$T_TOP/M.wrappers/M.linux"
ok $? "M.linux is unchanged"
is "$(diff "$M/M.linux" "$M/M.menutest" | grep '^[<>]' | tr '\n' '|')" \
    "< COPT     = -O2 -g|< CFLAGS_EXTRA ?=|> COPT     = -O1 -g|> CFLAGS_EXTRA ?= -DMENU_TEST|" \
    "M.menutest differs from M.linux in the two changed lines only"
# the make a user runs, not a sub-make of `make check`'s (whose MAKEFLAGS
# told it of a jobserver it cannot reach: a warning in its output)
got=$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s --no-print-directory -C "$MENUS_HOME" -f M.wrappers/M.menutest \
    --eval 'show-settings: ; @echo "$(COPT)|$(CFLAGS_EXTRA)"' show-settings 2>&1)
is "$got" "-O1 -g|-DMENU_TEST" "make reads the new wrapper with the new values"

is "$("$T_BIN/sfs_rc" show "$MENUS_HOME/C.wrappers/C.linux" RSH_CMD SHELL_CMD)" \
    "RSH_CMD=ssh -o BatchMode=yes -o ConnectTimeout=5
SHELL_CMD=/bin/sh" "C.linux holds the new RSH_CMD"
is "$(diff "$T_DIR/C.linux.orig" "$MENUS_HOME/C.wrappers/C.linux" | grep -c '^[<>]')" 2 \
    "and only that line changed (comments kept)"

rc=$W/rc/adv_rc
is "$("$T_BIN/sfs_rc" show "$rc" LOAD PROCS PRIME_SLEEP CLIENTS MNT_POINTS)" "LOAD=300 600 900
PROCS=1
PRIME_SLEEP=2
CLIENTS=localhost
MNT_POINTS=127.0.0.1:2049:/export" "adv_rc holds the saved values, not the refused ones"
is "$(diff "$T_DIR/adv_rc.orig" "$rc" | grep '^[<>]' | tr '\n' '|')" \
    '< LOAD="100 200"   # two points|> LOAD="300 600 900"   # two points|< PROCS=2|> PROCS=1|< PRIME_SLEEP=0|> PRIME_SLEEP=2|' \
    "only the changed lines differ; comments stay"
"$T_BIN/sfs_mgr" --check -r "$rc" >/dev/null 2>&1
ok $? "sfs_mgr --check accepts the saved file"

like "$(tr -d '\r' <"$T_DIR/adv.log")" "adv_rc:5: error: MNT_POINTS: 3 mount points" \
    "the refusal names the rc file's line"
unlike "$(cat "$T_DIR/adv.log")" "runsfs-[0-9]+-adv_rc" "the temporary copy's name never shows"
left=$(find "$W" "$MENUS_HOME/M.wrappers" "$MENUS_HOME/C.wrappers" "$MENUS_HOME/rc" -name '*runsfs*' |
    tr '\n' ' ')
is "$left" "" "no temporary file is left behind"
like "$(tr -d '\r' <"$T_DIR/adv.log")" "Compiling with M.wrappers/M.menutest" \
    "Start Compilation used the wrapper chosen last"
