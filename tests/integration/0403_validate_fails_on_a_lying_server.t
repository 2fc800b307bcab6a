#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# The validation suite fails, with the matching message, on an sfs_nfsd
# told to misbehave (docs/sfs_nfsd.md, fault injection), in NFSv3 and
# NFSv2: wrong attributes (--wrong-attrs: "attributes differ" naming the
# mode and the size), a READDIR entry left out (--drop-dirents: "not
# found", in READDIR and READDIRPLUS), a handle that changes between
# LOOKUPs (--change-handles: "filehandles do not match", an E that stops a
# v3 run, a W in v2), corrupted READ data (--corrupt-reads: "checksum
# mismatch", and the libnfs read-back names the first differing byte), and
# a CREATE that fails (an E: the run stops).  Every failing run ends with
# "validation terminated with errors" and exit 1.
. "$(dirname "$0")/lib.sh"
plan 34

# fails PROG NAME REGEX WHAT: the run fails, with a line matching REGEX;
# the output is kept in $out
fails() {
    local prog=$1 name=$2 re=$3 what=$4 rc
    out=$(timeout 60 "$T_BIN/$prog" -V 1 "$(eval echo \$${name}_URL)" 2>"$T_DIR/err")
    rc=$?
    is "$rc" 1 "$what: $prog exits 1" || diag "$(tail -5 <<<"$out")"
    like "$out" "$re" "$what: $prog says so"
    is "$(tail -1 <<<"$out")" "validation terminated with errors" "$what: $prog's failure line"
}

start_nfsd A --wrong-attrs 100 || bail "no server"
fails sfs3 A "^W: create: file_en\.0: CREATE attributes differ: mode 0111, expected 0666, size 1, expected 0 \(RFC 1813 section 3\.3\.8\)$" \
    "wrong attributes"
like "$out" "^W: attributes: file_en\.0: GETATTR attributes differ: mode 0111, expected 0666" \
    "wrong attributes: GETATTR too"
fails sfs A "^W: create: file_en\.0: CREATE attributes differ: mode 0111, expected 0666, size 1, expected 0 \(RFC 1094 section 2\.2\.10\)$" \
    "wrong attributes"

start_nfsd D --drop-dirents 100 || bail "no server"
fails sfs3 D "^W: readdir: [a-z_]+\.[0-9]+: not found \(RFC 1813 section 3\.3\.16\)$" \
    "a dropped READDIR entry"
like "$out" "^W: readdirplus: [a-z_]+\.[0-9]+: not found \(RFC 1813 section 3\.3\.17\)$" \
    "a dropped READDIRPLUS entry"
fails sfs D "^W: readdir: [a-z_]+\.[0-9]+: not found \(RFC 1094 section 2\.2\.17\)$" \
    "a dropped READDIR entry"

start_nfsd H --change-handles 100 || bail "no server"
fails sfs3 H "^E: attributes: file_en\.0: filehandles do not match: LOOKUP returned another handle" \
    "a changing handle"
unlike "$out" "^[A-Z]: (write|read|readdir)" "a changing handle: an error in v3, the run stops"
fails sfs H "^W: attributes: file_en\.0: filehandles do not match: LOOKUP returned another handle" \
    "a changing handle"
like "$out" "^22 warnings, 0 errors$" "a changing handle: a warning per object in v2"

start_nfsd C --corrupt-reads 100 || bail "no server"
fails sfs3 C "^W: read: file_en\.0: checksum mismatch in block 0 " "corrupted READ data"
like "$out" \
    "^W: read-back: file_en\.0: libnfs read byte [0-9]+ \(block [0-9]+\) as 0x[0-9a-f]+; 0x[0-9a-f]+ was written" \
    "corrupted READ data: the libnfs read-back names the first differing byte"
fails sfs C "^W: read: file_en\.0: checksum mismatch in block 0 " "corrupted READ data"

start_nfsd N --error create=NOSPC:100 || bail "no server"
fails sfs N "^E: create: file_en\.0: NOSPC \(RFC 1094 section 2\.2\.10\)$" "a failing CREATE"
unlike "$out" "^(W|E): (attributes|write|read)" "a failing CREATE is fatal: no later step runs"

# the same server without faults passes: the failures above are the faults'
start_nfsd OK || bail "no server"
out=$(timeout 60 "$T_BIN/sfs3" -V 1 "$OK_URL" 2>&1)
is "$?" 0 "the same server without faults passes"
