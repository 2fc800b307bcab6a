#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# check: prime common
# The rc file is data (docs/DECISIONS.md D9): every defect of the fixtures is
# reported as FILE:LINE with a non-zero exit and nothing started, by a run
# and by --check alike; an unknown variable is a warning; --check prints the
# resolved run (load points, clients with their mount points from a mount
# file, RSH, PRIME_HOST, WORK_DIR) as text and as YAML; the template alone
# is refused (no CLIENTS, no MNT_POINTS); a missing rc file is one line.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 26
cp "$T_FIXTURES"/rc/* "$T_DIR/"
cd "$T_DIR" || bail "no test dir"
check_bad() { # file line words...
    local f=$1 line=$2 what=$3 out code
    out=$("$T_BIN/sfs_mgr" -r "$f" 2>&1)
    code=$?
    is "$code" 2 "$f: exit 2"
    like "$out" "^$f:$line: error: .*$what" "$f: the error at line $line"
}
check_bad bad_cmdsubst_rc 4 'command substitution \$\(\.\.\.\)'
check_bad bad_backticks_rc 5 'command substitution `'
check_bad bad_semicolon_rc 3 "';' is not allowed"
check_bad bad_unterminated_rc 6 'unterminated double quote'
check_bad bad_procs_rc 4 "PROCS: 'abc'"
check_bad bad_load_rc 2 'LOAD: load points must increase'
out=$("$T_BIN/sfs_mgr" -r no_such_rc 2>&1)
is "$? $out" "2 sfs_mgr: no_such_rc: No such file or directory" \
    "a missing rc file: exit 2, one line with the reason"
out=$("$T_BIN/sfs_prime" -r no_such_rc --token-file "$T_DIR/token" 2>&1)
is "$? $out" "2 sfs_prime: no_such_rc: No such file or directory" \
    "sfs_prime says the same of a missing rc file"
out=$("$T_BIN/sfs_mgr" --check -r bad_procs_rc 2>&1)
is "$?" 2 "--check reports rc errors with a non-zero exit too"
ok "$([ ! -e "$T_DIR/result" ]; echo $?)" "nothing was started or written for a bad rc file"

out=$("$T_BIN/sfs_mgr" --check -r warn_unknown_var_rc 2>&1)
like "$out" "warn_unknown_var_rc:6: warning: unknown variable FROBNICATE_LEVEL" \
    "an unknown variable is a warning at its line"

out=$("$T_BIN/sfs_mgr" --check -r mountfile_rc 2>"$T_DIR/check.err")
is "$?" 0 "--check of a good rc file exits 0"
like "$out" "load_points: 300 600 900 1200 1500 1800 2100 2400 2700 3000" \
    "LOAD + INCR_LOAD x NUM_RUNS gives ten points"
like "$out" "per_client_load: 100 200 300" "each point split over three clients"
like "$out" "client 3: client3 remote procs=2 mounts=srv1:2049:/export/fs3 nfs://srv2:2049/export/fs7\?mountport=20048" \
    "client 3's mount points come from the mount-point file"
like "$out" "work_dir: $T_DIR/result" "WORK_DIR defaults to result/"
like "$out" "rsh: ssh -o BatchMode=yes" "RSH defaults to ssh in batch mode"
like "$out" "client_command 2: ssh -o BatchMode=yes client2 \"'[^ ]*/sfs3' '-M" \
    "a remote client's command is quoted word by word"
if python3 -c 'import yaml' 2>/dev/null; then
    y=$("$T_BIN/sfs_mgr" --check=yaml -r mountfile_rc 2>/dev/null | python3 -c 'import sys, yaml
d = yaml.safe_load(sys.stdin)
print(len(d["load_points"]), d["clients"][2]["mounts"][1], d["transport"])')
    is "$y" "10 nfs://srv2:2049/export/fs7?mountport=20048 tcp" "--check=yaml holds the same"
else
    skip "python3-yaml missing"
fi
out=$("$T_BIN/sfs_mgr" --check -r sfs_rc 2>&1)
like "$out" "sfs_rc:23: error: CLIENTS: must name at least one client" "the template alone is refused: CLIENTS"
