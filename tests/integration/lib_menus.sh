# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib_menus.sh - helpers for the runsfs and sfs_generate
# tests (source it after lib.sh).  They drive the programs as a person
# would, through expect on a pseudo-terminal; the transcript of every
# session is kept in $T_DIR/<name>.log for the checks and for diagnosis.
#
#   menus_home        a FreeSFS home of the test's own ($MENUS_HOME): copies
#                     of the wrappers and of the rc template, so a session
#                     that edits them never touches the tree
#   menus_session NAME FILE DESCRIPTION
#                     runs the expect script FILE (which starts with the
#                     prelude below: step/step_re/wait_for/wait_re/finish)
#                     as one TAP check: ok when the session ran to its end,
#                     else the transcript's tail as a diagnostic

need_cmd expect

menus_home() {
    MENUS_HOME=$T_DIR/home
    mkdir -p "$MENUS_HOME/rc" "$T_DIR/work"
    cp -r "$T_TOP/M.wrappers" "$T_TOP/C.wrappers" "$MENUS_HOME/" || bail "copy wrappers"
    cp "$T_TOP/rc/sfs_rc" "$MENUS_HOME/rc/sfs_rc" || bail "copy rc template"
    export MENUS_HOME
}

# The expect prelude: a step waits for text (exact, or a regular expression
# with the _re forms) and answers; a timeout or an early end fails the
# session with a line naming what was awaited.
MENUS_PRELUDE='
set timeout 30
proc fail_on {what pat} { send_user "\n### $what waiting for: $pat\n"; exit 2 }
proc wait_for {pat} {
    expect {
        -ex $pat {}
        timeout { fail_on TIMEOUT $pat }
        eof { fail_on EOF $pat }
    }
}
proc wait_re {pat} {
    expect {
        -re $pat {}
        timeout { fail_on TIMEOUT $pat }
        eof { fail_on EOF $pat }
    }
}
proc step {pat reply} { wait_for $pat; send -- "$reply\r" }
proc step_re {pat reply} { wait_re $pat; send -- "$reply\r" }
proc finish {} {
    expect {
        eof {}
        timeout { fail_on TIMEOUT "the end of the session" }
    }
    set st [wait]
    exit [lindex $st 3]
}
'

menus_session() {
    local name=$1 file=$2 what=$3 st
    {
        printf '%s\n' "$MENUS_PRELUDE"
        printf 'log_file -noappend {%s}\n' "$T_DIR/$name.log"
        cat "$file"
    } >"$T_DIR/$name.session.exp"
    expect -f "$T_DIR/$name.session.exp" >/dev/null 2>&1
    st=$?
    ok $st "$what (transcript: $name.log)"
    [ $st -eq 0 ] || diag "$(tail -25 "$T_DIR/$name.log")"
    return $st
}
