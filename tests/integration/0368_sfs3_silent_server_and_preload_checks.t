#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 90
# A silent server fails fast and by name, and every check that
# can be made before the load starts is made before.
#  - A stopped server (SIGSTOP): "mount 127.0.0.1:PORT:/export: no reply in
#    10 s", within 30 s, instead of "2 child(ren) did not finish the phase
#    in 122 s" after two minutes.
#  - A mount point that does not parse, a --yaml path that cannot be
#    written and a load whose file set a process cannot hold are refused
#    at once (against the stopped server, so nothing gets as far as
#    mounting), each with one line; -l 6000000 used to say "the file set
#    would be empty (load 0 without -F)".
. "$(dirname "$0")/lib.sh"
plan 10
start_nfsd mute || bail "sfs_nfsd did not start"
kill -STOP "$mute_PID"
at_exit "kill -CONT $mute_PID 2>/dev/null"
t0=$(date +%s)
"$T_BIN/sfs3" -l 10 -p 2 -w 0 -t 2 -F 20 "$mute_URL" >/dev/null 2>"$T_DIR/err"
rc=$?
t1=$(date +%s)
is "$rc" 1 "a silent server fails the run"
like "$(cat "$T_DIR/err")" "mount 127\.0\.0\.1:$mute_NFS_PORT:/export: no reply in 10 s" \
    "naming the phase and the server"
ok "$(test $((t1 - t0)) -lt 30; echo $?)" "within 30 s ($((t1 - t0)) s)"

quick() { # quick NAME ARGS...: runs sfs3, records exit code, message and time
    local name=$1 s e; shift
    s=$(date +%s%N)
    "$T_BIN/sfs3" "$@" >/dev/null 2>"$T_DIR/$name.err"
    eval "${name}_rc=$?"
    e=$(date +%s%N)
    eval "${name}_ms=$(((e - s) / 1000000))"
}
quick spec -t 2 "127.0.0.1/export"
is "$spec_rc" 182 "a bad mount point: exit 182"
like "$(cat "$T_DIR/spec.err")" "mount point '127.0.0.1/export': no ':/path' part" "one line names it"
quick yaml -t 2 --yaml "$T_DIR/none/r.yaml" "$mute_URL"
is "$yaml_rc" 34 "an unwritable --yaml path: exit 34 ($yaml_ms ms)"
like "$(cat "$T_DIR/yaml.err")" "--yaml .*/none/r.yaml: cannot write the results there" \
    "one line names it"
quick big -l 6000000 -t 2 "$mute_URL"
is "$big_rc" 96 "-l 6000000: refused"
like "$(cat "$T_DIR/big.err")" "-l 6000000: 585000001 io files per process, more than the 4194304 a process can hold" \
    "saying the file set is too large, not empty"
ok "$(test "$yaml_ms" -lt 5000 -a "$big_ms" -lt 5000; echo $?)" \
    "both before any mount ($yaml_ms ms, $big_ms ms)"
