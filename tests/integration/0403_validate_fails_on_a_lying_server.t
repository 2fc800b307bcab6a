#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# The validation suite fails, with the matching message, on an sfs_nfsd
# told to misbehave: corrupted READ data ("checksum mismatch", and the
# libnfs read-back names the first differing byte), and a CREATE that
# fails (fatal: an E line, the run stops).  Every failing run ends with
# "validation terminated with errors" and exit 1.
. "$(dirname "$0")/lib.sh"
plan 8

# fails PROG NAME MESSAGE-REGEX DESCRIPTION: the run fails with the message
fails() {
    local prog=$1 name=$2 re=$3 what=$4 out rc
    out=$(timeout 60 "$T_BIN/$prog" -V 1 "$(eval echo \$${name}_URL)" 2>"$T_DIR/err")
    rc=$?
    is "$rc" 1 "$what: $prog exits 1" || diag "$(tail -5 <<<"$out")"
    like "$out" "$re" "$what: $prog says so"
    is "$(tail -1 <<<"$out")" "validation terminated with errors" "$what: the failure line"
}

start_nfsd C --corrupt-reads 100 || bail "no server"
fails sfs3 C "^W: read: file_en\.0: checksum mismatch in block 0 " "corrupted READ data"
like "$(timeout 60 "$T_BIN/sfs3" -V 1 "$C_URL" 2>&1)" \
    "^W: read-back: file_en\.0: libnfs read byte [0-9]+ \(block [0-9]+\) as 0x[0-9a-f]+; 0x[0-9a-f]+ was written" \
    "corrupted READ data: the libnfs read-back names the first differing byte"

start_nfsd N --error create=NOSPC:100 || bail "no server"
fails sfs N "^E: create: file_en\.0: NOSPC \(RFC 1094 section 2\.2\.10\)$" "a failing CREATE (v2)"
unlike "$(timeout 60 "$T_BIN/sfs" -V 1 "$N_URL" 2>&1)" "^(W|E): (attributes|write|read)" \
    "a failing CREATE is fatal: no later step runs"
