#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0902_runsfs_survives_eof_and_garbage.t - every prompt of runsfs survives
# the end of its input and answers it cannot use:
#  - an Advanced session that visits every menu, page and kind of prompt is
#    cut after each of its answers: each cut ends with the "end of input"
#    line and status 1, never a shell error, and leaves no file behind;
#  - garbage at each kind of prompt (numbers out of range, words, escape
#    sequences, NUL and control bytes, shell syntax, very long lines) gets
#    the prompt again, and the session still does what the good answers say
#    (the rc file it saves holds exactly the good values);
#  - random bytes as the whole input end cleanly too.
# timeout: 120
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_menus.sh"
plan 10

menus_home
W=$T_DIR/work
export FREESFS_HOME=$MENUS_HOME
runsfs() { "$T_BIN/runsfs" -C "$W" "$@"; }
shell_errors='(line [0-9]+:|syntax error|unbound variable|command not found|bad substitution|No such file or directory|Segmentation|[Aa]borted)'

# The full session: one answer a line (an empty line is a RETURN).
full=(
    ""            # vendor: linux
    a             # Advanced
    1 "" ""       # M.vendor: keep M.linux, "Checking...", continue
    3 "-O1 -g"    # C OPTIONS
    9 y           # return without saving: leave unsaved
    2 ""          # C.vendor: keep C.linux
    5 " "         # RSH_CMD: null
    13 y          # return, leave unsaved
    3 ""          # RC file: the template
    1 "100 200"   # LOAD
    7 localhost   # CLIENTS
    12            # page 2
    6 "  "        # WORK_DIR: null
    12            # page 3
    1 5           # WARMUP_TIME
    12            # back to page 1
    14 y          # return, leave unsaved
    4 3           # remote client setup, back
    8 ""          # view results (none), continue
    9 ""          # archive (none), continue
    11            # exit
)
printf '%s\n' "${full[@]}" >"$T_DIR/full.in"
out=$(runsfs <"$T_DIR/full.in" 2>&1)
st=$?
is "$st" 0 "the whole session ends with its Exit"
like "$out" "Bye\.$" "and says goodbye"

# Cut after every answer: n = 0 .. all-1 lines of input.
bad_cuts=""
n=${#full[@]}
for ((i = 0; i < n; i++)); do
    head -n "$i" "$T_DIR/full.in" >"$T_DIR/cut.in"
    o=$(runsfs <"$T_DIR/cut.in" 2>&1)
    s=$?
    if [ $s -ne 1 ] || ! printf '%s' "$o" | tail -1 | grep -q 'end of input' ||
        printf '%s' "$o" | grep -Eq "$shell_errors"; then
        bad_cuts="$bad_cuts $i(st=$s)"
        diag "cut after $i answers:" "$(printf '%s' "$o" | tail -4)"
    fi
done
is "$bad_cuts" "" "every one of the $n cuts ends with 'end of input' and status 1"
left=$(find "$W" "$MENUS_HOME" -newer "$T_DIR/full.in" -type f | tr '\n' ' ')
is "$left" "" "no cut session wrote a file"

# Garbage before each good answer; the good answers build and save an rc.
# @NUL@ stands for a line with a NUL byte in it.
g1=$'\033[A'
g2=$(printf 'x%.0s' $(seq 1 5000))
g4='$(touch '"$T_DIR"'/pwned); `touch '"$T_DIR"'/pwned2`'
g5=$'\x01\x02\x7f'
answers=(
    "nosuch" "$g1" "linux; rm -rf /" ""  # vendor
    "x" @NUL@ "yes please" a             # mode: garbage, then "a"
    0 99 "$g2" "3x" "$g4" 3              # main menu: 3) RC file
    "nosuch_rc" "../../etc/passwd" ""    # rc files: garbage, then the template
    15 -1 "$g5" 1                        # page 1: LOAD
    "abc" "100 x" "-5" "$g4" "100 200 300"
    4 "5" "v3" 3                         # NFS_VERSION
    10 "maybe" on                        # TCP
    7 "bad host!" "$g4" "localhost localhost" # CLIENTS
    8 "srv:/e;rm" "$g4" "127.0.0.1:1:/e 127.0.0.1:1:/e" # MNT_POINTS
    9 "two" 2                            # PROCS
    13 "bad name!" "$g4" "garbage"       # save as garbage_rc
    14 11                                # return, exit
)
for a in "${answers[@]}"; do
    if [ "$a" = @NUL@ ]; then printf '1\0002\n'; else printf '%s\n' "$a"; fi
done >"$T_DIR/garbage.in"
out=$(runsfs <"$T_DIR/garbage.in" 2>&1)
st=$?
ok "$([ $st -eq 0 ] || [ $st -eq 1 ]; echo $?)" "the garbage session ends normally (status $st)"
unlike "$out" "$shell_errors" "no shell error, whatever was typed"
ok "$([ ! -e "$T_DIR/pwned" ] && [ ! -e "$T_DIR/pwned2" ]; echo $?)" \
    "no typed text was ever run"
vals=$("$T_BIN/sfs_rc" show "$W/rc/garbage_rc" LOAD NFS_VERSION TCP CLIENTS PROCS 2>&1)
is "$vals" "LOAD=100 200 300
NFS_VERSION=3
TCP=on
CLIENTS=localhost localhost
PROCS=2" "the saved rc file holds exactly the good answers"
reprompts=$(printf '%s' "$out" |
    grep -c -E 'Please enter a number|is not|Please answer|There is no|Use letters|Control characters|The NFS version|Give 1')
ok "$([ "$reprompts" -ge 20 ]; echo $?)" "each bad answer was refused with a reason ($reprompts refusals)"

# Random bytes as the whole input.
awk 'BEGIN { srand(1302); for (i = 0; i < 4000; i++) {
        c = int(rand() * 256); if (c == 0) c = 10; printf "%c", c } }' >"$T_DIR/random.in"
errs=""
for seed_input in "$T_DIR/random.in" /dev/null; do
    o=$(LC_ALL=C runsfs <"$seed_input" 2>&1)
    s=$?
    if printf '%s' "$o" | grep -Eq "$shell_errors" || [ $s -gt 1 ]; then
        errs="$errs $(basename "$seed_input")(st=$s)"
        diag "$(printf '%s' "$o" | grep -E "$shell_errors" | head -3)"
    fi
done
is "$errs" "" "random bytes and an empty input end cleanly"
