#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# The extended section's checks that need the whole program (the sfs_nfsd
# command line, libnfs, a restart command) fail with their message against
# a real sfs_nfsd told to misbehave (the rest: tests/unit/
# test_core_validate.c, in-process): a write verifier that changes while
# the server runs (--change-verf: W, exit 1, the data still read back
# through libnfs), contradictory FSSTAT/FSINFO/PATHCONF values (--bad-fs:
# deviations only, exit 0), a verifier that stays the same across a restart
# (--write-verf on both instances: "the one from before the server
# restarted", exit 1), and a restart command that fails (an E naming its
# status).
. "$(dirname "$0")/lib.sh"
need_cmd nfs-ls
plan 13

start_nfsd V --change-verf 100 || bail "no server"
out=$(timeout 60 "$T_BIN/sfs3" -V 1 -Q "$V_URL" 2>"$T_DIR/err")
is "$?" 1 "--change-verf: exit 1" || diag "$(tail -5 "$T_DIR/err")"
like "$out" "^W: write: file_en\.1: the write verifier changed between two WRITEs to a server that did not restart \(RFC 1813 section 3\.3\.7\)$" \
    "--change-verf: the write step names it"
like "$out" "^W: extended: ext_commit: two COMMITs returned the verifiers [0-9a-f]{16} and [0-9a-f]{16}: it must not change while the server runs" \
    "--change-verf: the COMMIT check names it"
unlike "$out" "libnfs" "--change-verf: the unstable data still read back through libnfs"

start_nfsd F --bad-fs 100 || bail "no server"
out=$(timeout 60 "$T_BIN/sfs3" -V 1 "$F_URL" 2>"$T_DIR/err")
is "$?" 0 "--bad-fs: deviations alone pass" || diag "$(tail -5 "$T_DIR/err")"
like "$out" "^W: extended: FSSTAT: abytes [0-9]+ <= fbytes [0-9]+ <= tbytes [0-9]+ .*\(RFC 1813 section 3\.3\.18\) \[deviation\]$" \
    "--bad-fs: FSSTAT named"
like "$out" "^11 deviations from the RFCs beyond what SFS 3\.0 checks" "--bad-fs: 11 deviations counted"

# a server that keeps its verifier across a restart: the same --write-verf
# on both instances (same ports; handles go STALE, a new file is asked)
start_restartable --write-verf 42 || bail "no restartable server"
out=$(timeout 60 "$T_BIN/sfs3" -V 1 -Q --restart-cmd "sh $T_DIR/restart.sh" \
    "127.0.0.1:$R_NFS:/export" 2>"$T_DIR/err")
is "$?" 1 "a verifier kept across a restart: exit 1" || diag "$(tail -5 "$T_DIR/err")"
like "$out" "^W: extended: ext_commit: the write verifier 2a00000000000000 is the one from before the server restarted: a client cannot tell that its unstable data were lost \(RFC 1813 section 3\.3\.21\)$" \
    "... named, with the verifier"
is "$(grep -c '^W' <<<"$out")" 1 "... and nothing else"
new=$(cat "$T_DIR/r.pid")
alive "$new" && ok 0 "the restarted server runs (pid $new)" || ok 1 "the restarted server runs"

# a restart command that fails: an E with its status, exit 1
out=$(timeout 60 "$T_BIN/sfs3" -V 1 --restart-cmd "exit 3" "127.0.0.1:$R_NFS:/export" \
    2>"$T_DIR/err")
is "$?" 1 "a failing restart command: exit 1"
like "$out" "^E: extended: restart command exited with status 3$" "... an E naming its status"
