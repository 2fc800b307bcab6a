#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0695_nfsdump_text_as_nfsdump_wrote_it.t - the nfsdump text the real tools
# wrote (Ellard's nfsdump, docs/NFS_TRACES.md section 4), each variant in
# lines the test writes: an excerpt that starts with replies whose calls
# came before it (its edge, also nfsdump's own "unknown" replies), readdirp
# with name-N entries and \XX escapes, NULL replies without a status,
# nfsdump -v's dotted-decimal hosts, LONGPKT-N and the compact con=N tail,
# SHORT PACKET, v2's +|+ and +/+ and "stable ?" lines (skipped and counted,
# strict mode too, their replies with them), NFSv2 WRITE's tcount as its
# size, v2's writecach/writecac, fn2 and fn.  Read strictly, with every
# field where it belongs; a file starting with readdirp is found as
# nfsdump; the hint for an unknown format names nfsdump; a reply without
# its call past the excerpt's first window is still an error.
# timeout: 60
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_nfs.sh"
plan 22

y() { # y FILE EXPR: evaluates a python expression over the YAML as g
    python3 -c 'import sys, yaml; g = yaml.safe_load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
D=0100000000000000000000000000000000000000000000000000000000000001
F=0100000000000000000000000000000000000000000000000000000000000009
T=1034787600
# the attributes of a v3 reply, and of a v2 one
A3="ftype 1 mode 1a4 nlink 1 uid 64 gid 64 size 4000 used 4000 rdev 0 rdev2 0 fsid 2 fileid 9 atime $T.000000 mtime $T.000000 ctime $T.000000"
A2="ftype 1 mode 81a4 nlink 1 uid 0 gid 0 size 2000 blksize 1000 rdev 0 blocks 8 fsid 3 fileid 9 atime $T.000000 mtime $T.000000 ctime $T.000000"
RT="status=0 pl = 100 con = 82 len = 182"
cat >"$T_DIR/v.txt" <<EOF
$T.000050 31.0801 30.0321 U R3 1a2b3bff  1 getattr  OK $A3 $RT
$T.000060 31.0801 30.0321 U R3 1a2b3bfe ffffffff unknown  status=0 pl = 0 con = 82 len = 90
$T.000100 30.0321 31.0801 U C3 1a2b3c01 11 readdirp fh $D cookie 0 count 200 maxcnt 2000 euid 64 egid 64 con = 82 len = 130
$T.000300 31.0801 30.0321 U R3 1a2b3c01 11 readdirp OK ${A3/ftype 1/ftype 2} eof 1 fileid-0 2a name-0 "a\\20b" cookie-0 1 ftype-0 2 mode-0 1ed fileid-1 2b name-1 "c\\5c41" cookie-1 2 $RT
$T.000400 30.0321 31.0801 U C3 1a2b3c02  0 null     euid 0 egid 0 con = 82 len = 126
$T.000500 31.0801 30.0321 U R3 1a2b3c02  0 null     status=0 pl = 0 con = 82 len = 110
$T.000600 192.168.1.5.0321 192.168.1.9.0801 T C3 1a2b3c03 1 getattr fh $F con = 82 len = 130
$T.000700 192.168.1.9.0801 192.168.1.5.0321 T R3 1a2b3c03 1 getattr OK $A3 $RT LONGPKT-4
$T.000800 30.0321 31.0801 U C3 1a2b3c04  7 write    fh $F off 0 count 2000 stable ? con = 82 len = 130
$T.000900 31.0801 30.0321 U R3 1a2b3c04  7 write    OK count 2000 stable F $RT
$T.001000 30.0321 31.0801 U C3 1a2b3c05  3 lookup   SHORT PACKETcon = 82 len = 130
$T.001100 31.0801 30.0321 U R3 1a2b3c05  3 lookup   2 $RT
$T.001200 30.0321 31.0801 U C3 1a2b3c06  6 read     fh $F off 0 count 1000 con = 82 len = 130
$T.001300 31.0801 30.0321 U R3 1a2b3c06  6 read     OK $A3 count SHORT PACKETstatus=0 pl = 100 con = 82 len = 182
$T.001400 30.0321 31.0801 U C3 1a2b3c07  7 write    fh $F off 0 count 1000 stable U con = 82 len = 130
$T.001500 31.0801 30.0321 U R3 1a2b3c07  7 write    OK count 1000 stable ? $RT
$T.001600 30.0321 31.0801 U C2 5b000001  8 write    fh $F begoff 0 offset 0 tcount 2000 con = 82 len = 130
$T.001700 31.0801 30.0321 U R2 5b000001  8 write    OK $A2 $RT
$T.001800 30.0321 31.0801 U C2 5b000002  7 writecach con = 82 len = 130
$T.001900 31.0801 30.0321 U R2 5b000002  7 writecac status=0 pl = 0 con = 82 len = 110
$T.002000 30.0321 31.0801 U C2 5b000003  d symlink  fh $D fn "l" fn2 "/a/b" +|+euid 0 egid 0 con = 82 len = 130
$T.002100 31.0801 30.0321 U R2 5b000003  d symlink  OK nfsstat 0 +/+status=0 pl = 4 con = 82 len = 86
$T.002200 30.0321 31.0801 U C2 5b000004  d symlink  fh $D fn "m" fn2 "/a/c" con=82 len=130
$T.002300 31.0801 30.0321 U R2 5b000004  d symlink  OK nfsstat 0 status=0 pl=4 con=82 len=86
$T.002400 30.0321 31.0801 U C2 5b000005  5 readlink fh $F con = 82 len = 130
$T.002500 31.0801 30.0321 U R2 5b000005  5 readlink OK fn "/a/c" $RT
EOF

"$NFS_EVENTS" "$T_DIR/v.txt" >"$T_DIR/v.ev" 2>"$T_DIR/v.err"
ok $? "every variant reads in strict mode $(cat "$T_DIR/v.err")"
cnt() { sed -n "s/^# $1 //p" "$T_DIR/v.ev"; }
is "$(cnt calls) $(cnt replies) $(cnt unanswered_calls)" "9 7 2" \
    "9 calls, 7 answered; the READ and the WRITE whose replies nfsdump did not parse unanswered"
is "$(cnt short_packet_lines) $(cnt stable_unknown_lines)" "4 2" \
    "SHORT PACKET, +|+ and +/+ lines (4) and 'stable ?' lines (2) skipped and counted"
is "$(cnt replies_without_calls) $(cnt replies_at_excerpt_start) $(cnt skipped_lines)" "2 2 " \
    "the excerpt's first replies (one nfsdump's own 'unknown') are its edge, no damage"
"$NFS_EVENTS" -e "$T_DIR/v.txt" >"$T_DIR/v.all"
ev() { grep -F "xid=$1 " "$T_DIR/v.all"; }
like "$(ev 1a2b3c01)" "100003/3/17 .* count=8192 .* eof=1 n=2 \[a b 42 .*\] \[c.41 43 " \
    "readdirp is READDIRPLUS: maxcnt, entries name-N/fileid-N, \\20 decoded"
like "$(ev 1a2b3c01)" "\[c\\\\41 43 " "\\5c is a backslash, not the start of another escape"
like "$(ev 1a2b3c02)" "100003/3/0 .* fl=1 .* status=0 " "the NULL reply without a status: answered, OK"
like "$(ev 1a2b3c03)" "^t=[0-9]+ rt=[0-9]+ 192\.168\.1\.5:801 192\.168\.1\.9:2049 T .* fl=1 " \
    "nfsdump -v: dotted-decimal hosts, hex ports; LONGPKT-4 is no cut (flags: reply only)"
like "$(ev 5b000001)" "100003/2/8 .* off=0 count=8192 " "NFSv2 WRITE: tcount 2000 is its size (8192)"
like "$(ev 5b000002)" "100003/2/7 .* fl=1 " "writecach and writecac: NFSv2 WRITECACHE"
like "$(ev 5b000004)" "name=m name2=\(null\) text=/a/c " "NFSv2 SYMLINK: fn2 is the target"
like "$(ev 5b000005)" "100003/2/5 .* fl=1 .*status=0 " "NFSv2 READLINK's reply: fn read (the target)"
is "$(grep -c 'xid=1a2b3c0[45] \|xid=5b000003 ' "$T_DIR/v.all")" 0 \
    "the skipped calls are no events, and their replies were taken with them"

"$T_BIN/sfs_trace" stats -q "$T_DIR/v.txt" --yaml "$T_DIR/v.yaml" 2>"$T_DIR/s.err"
ok $? "sfs_trace stats reads it strictly"
is "$(y "$T_DIR/v.yaml" 'g["bytes_written"], g["replies_without_calls"]')" "(12288, 2)" \
    "bytes written: the v2 WRITE's tcount (8192) and the v3 WRITE's count (4096); the skipped WRITE not counted"

# a file whose first line is readdirp: found as nfsdump by its content
sed -n 3,4p "$T_DIR/v.txt" >"$T_DIR/rdp.txt"
"$T_BIN/sfs_trace" stats -q "$T_DIR/rdp.txt" --yaml "$T_DIR/rdp.yaml" 2>"$T_DIR/rdp.err"
ok $? "a trace starting with readdirp is detected as nfsdump $(cat "$T_DIR/rdp.err")"
is "$(y "$T_DIR/rdp.yaml" 'g["format"], g["procedures"]["readdirplus"]["replies"]')" \
    "('nfsdump', 1)" "and its READDIRPLUS counted"
sed 's/ 11 readdirp / 11 readdir /' "$T_DIR/rdp.txt" >"$T_DIR/bad.txt"
err=$("$T_BIN/sfs_trace" stats "$T_DIR/bad.txt" 2>&1 >/dev/null)
like "$?:$err" "^1:.*bad.txt: cannot tell the trace format \(use --format [a-z|]*nfsdump[a-z|]*\): .*not nfsdump: the procedure's name does not match its number" \
    "a file that is not quite nfsdump: the hint names nfsdump and says why not"

# past the excerpt's first window, a reply without its call is damage
{ sed -n 3,6p "$T_DIR/v.txt"; echo "$((T + 200)).000100 31.0801 30.0321 U R3 99 1 getattr OK $A3 $RT"; } >"$T_DIR/late.txt"
err=$("$NFS_EVENTS" "$T_DIR/late.txt" 2>&1 >/dev/null)
like "$?:$err" "^1:.*late.txt:5: error: a reply without its call \(XID 99\)" \
    "200 s after the start a reply without its call stops strict reading at its line"
"$NFS_EVENTS" -l "$T_DIR/late.txt" >"$T_DIR/late.ev" 2>/dev/null
is "$(sed -n 's/^# \(replies_without_calls\|skipped_lines\) //p' "$T_DIR/late.ev" | tr '\n' ' ')" "1 1 " \
    "and --lenient skips and counts it (not as the excerpt's edge)"

# the text converts to FreeSFS's own and reads back to the same events
"$T_BIN/sfs_trace" convert --to nfsdump "$T_DIR/v.txt" -o "$T_DIR/c.txt" 2>/dev/null &&
    "$NFS_EVENTS" -e "$T_DIR/c.txt" >"$T_DIR/c.all"
ok $? "convert writes it as FreeSFS's nfsdump"
cmp -s <(grep -v '^#' "$T_DIR/v.all") <(grep -v '^#' "$T_DIR/c.all")
ok $? "which reads back to the same events (the backslash in a name kept)"
