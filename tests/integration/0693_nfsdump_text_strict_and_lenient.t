#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0693_nfsdump_text_strict_and_lenient.t - the Harvard/SNIA nfsdump text
# format: a hand-made trace in that style reads to the calls, replies and
# fields it holds (found by content, or with --format nfsdump, or from
# stdin); each kind of damage real files have - a garbage line, a block of
# NUL bytes, a reply without its call, a time going backwards, a line cut
# before its tail, an unknown key, a second reply, a line of megabytes - is
# one "FILE:LINE: error" and exit 1, and with --lenient a counted skip;
# FreeSFS's own text (convert) reads back unchanged.
# timeout: 60
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_nfs.sh"
F=$T_FIXTURES/nfsdump
plan 19

"$NFS_EVENTS" "$F/basic.txt" >"$T_DIR/b.ev" 2>&1
ok $? "the hand-made trace reads"
is "$(grep -c '^C' "$T_DIR/b.ev") $(grep -c '^R' "$T_DIR/b.ev") $(sed -n 's/^# unanswered_calls //p' "$T_DIR/b.ev")" \
    "8 7 1" "8 calls, 7 replies, the last READ unanswered"
field() { awk -F'\t' -v k="$1" -v w="$2" '$1 == k && $2 == w' "$T_DIR/b.ev" | cut -f"$3"; }
is "$(field C 4 7-9 | tr '\t' ' ')" "3 0100000000000000000000000000000000000000000000000000000000000001 docs" \
    "line 4, LOOKUP: its directory handle and name"
is "$(field R 9 7-10 | tr '\t' ' ')" "6 0 - 8192" "line 9, the READ's reply: OK, 0x2000 bytes"
is "$(field R 13 7-8 | tr '\t' ' ')" "3 2" "line 13, the LOOKUP of a missing name: NOENT (2)"
is "$(field C 16 7,9 | tr '\t' ' ')" "14 report.txt" "line 16, RENAME (0xe): its from-name"
"$NFS_EVENTS" -e "$F/basic.txt" >"$T_DIR/b.all"
like "$(grep -F 'xid=1a2b3c05' "$T_DIR/b.all")" "name=report.txt name2=final report.txt" \
    "and its to-name, which has a space"
like "$(grep -F 'xid=5b000001' "$T_DIR/b.all")" "attr=7ff/1/644/1/0/0/1024/" \
    "NFSv2 GETATTR: a v2 mode with its type bits keeps the permission bits (644)"

"$T_BIN/sfs_trace" convert --to nfsdump "$F/basic.txt" -o "$T_DIR/c1.txt" 2>/dev/null
"$T_BIN/sfs_trace" convert --to nfsdump --format nfsdump - <"$T_DIR/c1.txt" >"$T_DIR/c2.txt" 2>/dev/null
ok "$(cmp -s "$T_DIR/c1.txt" "$T_DIR/c2.txt" && echo 0 || echo 1)" \
    "convert finds the format by content; its own text (from stdin) converts to itself"
"$NFS_EVENTS" -e "$T_DIR/c1.txt" | grep -v '^#' >"$T_DIR/c1.all"
grep -v '^#' "$T_DIR/b.all" | cmp -s - "$T_DIR/c1.all"
ok $? "and reads back to the same events"

# one kind of damage at a time after the first three lines of damaged.txt
head -3 "$F/damaged.txt" >"$T_DIR/head"
damage() { # LINE REGEX WHAT [SED]: the line (edited by SED) after the head
    cat "$T_DIR/head" >"$T_DIR/d.txt"
    sed -n "$1p" "$F/damaged.txt" | sed "${4:-}" >>"$T_DIR/d.txt"
    err=$("$T_BIN/sfs_trace" convert --to nfsdump "$T_DIR/d.txt" 2>&1 >/dev/null)
    rc=$?
    like "$rc $err" "^1 .*d.txt:4: error: $2" "$3: FILE:LINE and exit 1"
}
damage 4 "not an nfsdump line" "a garbage line"
damage 5 "NUL bytes" "a block of NULs"
# (a reply without its call 200 s after the first line: within the first
# pairing window it would be the excerpt's edge, counted, no error)
damage 6 "a reply without its call \(XID 99\)" "a reply without its call" 's/^1034787600\./1034787800./'
damage 7 "time goes backwards" "a time going backwards"
damage 8 "not an nfsdump line: name/value pairs must end with the con" "a line cut before its tail"
damage 9 "unknown key 'colour'" "an unknown key"

err=$("$T_BIN/sfs_trace" convert --lenient --to nfsdump "$F/damaged.txt" 2>&1 >"$T_DIR/l.txt")
ok $? "--lenient reads the damaged file"
is "$(grep -o 'counter [a-z_]* [0-9]*' "$T_DIR/l.txt" | tr '\n' ' ')" \
    "counter calls 2 counter replies 2 counter replies_without_calls 1 counter replies_at_excerpt_start 1 counter duplicate_replies 1 counter skipped_lines 6 counter garbage_lines 3 counter nul_lines 1 counter lines_back_in_time 1 " \
    "and counts each kind of damage it skipped (the reply without its call, 0.2 ms in, as the excerpt's edge)"
{ sed -n 4,5p "$F/basic.txt"; head -c 1200000 /dev/zero; echo; sed -n 6p "$F/basic.txt"; } >"$T_DIR/big.txt"
"$NFS_EVENTS" -l "$T_DIR/big.txt" >"$T_DIR/big.ev" 2>/dev/null
is "$(sed -n 's/^# long_lines //p' "$T_DIR/big.ev") $(grep -c '^C' "$T_DIR/big.ev")" "1 2" \
    "a megabyte of NULs without a newline: one long line skipped, the lines around it read"
