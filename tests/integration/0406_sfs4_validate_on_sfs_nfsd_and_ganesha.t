#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 300
# sfs4 -V runs the validation suite over NFSv4.1 with the compounds of the
# SFS mix (docs/validation.md, "Over NFSv4.1"): against sfs_nfsd it passes,
# sends no NFSv3 call, and reads every written file back through libnfs
# over NFSv4.0, an independent client; the session and the client are gone
# at the end.  A server that corrupts READ data or leaves READDIR entries
# out fails it with the matching line and exit 1.  Against nfs-ganesha
# (NFSv4 enabled) it passes too, deviations allowed, each naming its
# RFC 8881 section; ganesha's part skips without root or ganesha.
. "$(dirname "$0")/lib.sh"
plan 18

start_nfsd S --stats-file "$T_DIR/S.yaml" || bail "no server"
out=$(timeout 120 "$T_BIN/sfs4" -V 2 "$S_URL" 2>"$T_DIR/err")
is "$?" 0 "sfs4 -V 2 on sfs_nfsd: exit 0" || diag "$(grep -E '^(W|E)' <<<"$out" | head)"
is "$(head -1 <<<"$out")" "sfs4: validating $S_URL over NFSv4.1/TCP, level 2, in validatedir" \
    "... over NFSv4.1, TCP implied"
is "$(tail -1 <<<"$out")" "validation completed successfully." "... the success line"
is "$(grep -c '^  file_en\.[0-9]*: [0-9]* bytes identical$' <<<"$out")" 17 \
    "... the 17 written files read back through libnfs, byte for byte"
like "$out" "^readdirplus: READDIR with the attributes ls -l asks" \
    "... readdirplus as the mix sends it over v4"
like "$out" "^I: extended: not run over NFSv4\.1 yet" "... the extended section says it did not run"
kill -USR1 "$S_PID"
wait_for "grep -q compound_minor0 '$T_DIR/S.yaml'" 100 0.05
v3=$(python3 -c '
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
v4, st = d["nfs_v4"], d["nfs_v4_state"]
print(sum(d["nfs_v3"].values()), v4["compound_minor1"] > 100, v4["compound_minor0"] > 17,
      v4["exchange_id"], v4["destroy_clientid"], v4["create_session"], v4["destroy_session"],
      v4["open"] > 21 and v4["open"] == v4["close"], st["sessions"],
      st["clients"] == v4["setclientid_confirm"])' "$T_DIR/S.yaml")
# libnfs speaks v4.0, which has no DESTROY_CLIENTID: its client lapses
# with its lease, so the clients left are libnfs's alone
is "$v3" "0 True True 1 1 1 1 True 0 True" \
    "no NFSv3 call; v4.1 compounds and libnfs's v4.0 ones; the session and the v4.1 client destroyed; every OPEN closed"

# fails NAME OPTS REGEX WHAT: against sfs_nfsd with OPTS the run fails with
# a line matching REGEX (the output kept in $out)
fails() {
    local name=$1 opts=$2 re=$3 what=$4 url
    # shellcheck disable=SC2086
    start_nfsd "$name" $opts || bail "no server"
    url=$(eval echo \$${name}_URL)
    out=$(timeout 120 "$T_BIN/sfs4" -V 1 "$url" 2>"$T_DIR/err")
    is "$?" 1 "$what: sfs4 exits 1" || diag "$(tail -5 <<<"$out")"
    like "$out" "$re" "$what: sfs4 says so"
    is "$(tail -1 <<<"$out")" "validation terminated with errors" "$what: the failure line"
}
fails C "--corrupt-reads 100" "^W: read: file_en\.0: checksum mismatch in block 0 " \
    "corrupted READ data"
like "$out" \
    "^W: read-back: file_en\.0: libnfs read byte [0-9]+ \(block [0-9]+\) as 0x[0-9a-f]+; 0x[0-9a-f]+ was written" \
    "corrupted READ data: the libnfs read-back names the first differing byte"
fails D "--drop-dirents 100" "^W: readdir: [a-z_]+\.[0-9]+: not found \(RFC 8881 section 18\.23\)$" \
    "a dropped READDIR entry"

if [ "$(id -u)" -ne 0 ] || ! command -v ganesha.nfsd >/dev/null 2>&1; then
    for i in 1 2 3 4; do skip "nfs-ganesha needs root and ganesha.nfsd"; done
    exit 0
fi
export PROTOCOLS="3, 4"
start_ganesha
url="nfs://127.0.0.1:$GANESHA_NFS_PORT/export?mountport=$GANESHA_MNT_PORT"
out=$(timeout 120 "$T_BIN/sfs4" -V 2 "$url" 2>"$T_DIR/err")
is "$?" 0 "sfs4 -V 2 on ganesha: exit 0" || diag "$(grep -E '^(W|E)' <<<"$out" | head)"
unlike "$(grep -v 'RFC 8881 section [0-9.]*) \[deviation\]$' <<<"$out")" "^(W|E): " \
    "... no W or E line but deviations naming their RFC 8881 section"
like "$out" "^W: attributes: SETATTR answered OK but did not set both times .*symlink.*\(RFC 8881 section 18\.30\) \[deviation\]$" \
    "... among them: the times of symbolic links are not set, as over NFSv3"
is "$(grep -c '^  file_en\.[0-9]*: [0-9]* bytes identical$' <<<"$out")" 17 \
    "... the 17 written files read back through libnfs over NFSv4.0, byte for byte"
