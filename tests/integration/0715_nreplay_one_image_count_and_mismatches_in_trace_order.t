#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0715_nreplay_one_image_count_and_mismatches_in_trace_order.t - an nfsdump
# trace the test writes: a READDIR lists a name before its handle is known,
# and that handle turns out to be a known object's (a merge); a WRITE of
# file a, then four GETATTRs of a and four of b, all traced NOENT.  The
# replay's plan line and `sfs_trace image` give the same number of objects
# and name the merge alike.  Replayed at speed 0 against sfs_nfsd holding
# WRITE replies 0.3 s, the GETATTRs of b complete first (nothing holds
# them) while those of a wait for the WRITE: the four mismatches named
# "first" are still the trace's first four, a's, in the text and the YAML.
# An NFSv2 replay against a server that serves no NFSv3 (the test-only
# v2_responder) stops in INIT, saying that the image is prepared through
# libnfs over NFSv3.
# timeout: 60
. "$(dirname "$0")/lib.sh"
need_python_yaml
. "$(dirname "$0")/lib_nreplay.sh"
V2R=$(tool_path v2_responder) || bail "tests/tools/v2_responder not built"
plan 8

T=1034787600
R=01000000000000000000000000000000000000000000000000000000000000f0
A=01000000000000000000000000000000000000000000000000000000000000a0
B=01000000000000000000000000000000000000000000000000000000000000b0
C=01000000000000000000000000000000000000000000000000000000000000c0
DIR="ftype 2 mode 1ed nlink 3 uid 0 gid 0 size 1000 used 1000 rdev 0 rdev2 0 fsid 2 fileid 2 atime $T.000000 mtime $T.000000 ctime $T.000000"
reg() { echo "ftype 1 mode 1a4 nlink 1 uid 0 gid 0 size 1000 used 1000 rdev 0 rdev2 0 fsid 2 fileid $1 atime $T.000000 mtime $T.000000 ctime $T.000000"; }
CT="con = 82 len = 130"
RT="status=0 pl = 100 con = 82 len = 182"
{
    echo "$T.001000 30.0321 31.0801 T C3 100 3 lookup fh $R name \"a\" $CT"
    echo "$T.001100 31.0801 30.0321 T R3 100 3 lookup OK fh $A $(reg a) $DIR $RT"
    echo "$T.002000 30.0321 31.0801 T C3 101 3 lookup fh $R name \"b\" $CT"
    echo "$T.002100 31.0801 30.0321 T R3 101 3 lookup OK fh $B $(reg b) $DIR $RT"
    echo "$T.003000 30.0321 31.0801 T C3 102 10 readdir fh $R cookie 0 count 1000 $CT"
    echo "$T.003100 31.0801 30.0321 T R3 102 10 readdir OK $DIR eof 1 name-0 \"c\" cookie-0 1 $RT"
    echo "$T.004000 30.0321 31.0801 T C3 103 1 getattr fh $C $CT"
    echo "$T.004100 31.0801 30.0321 T R3 103 1 getattr OK $(reg c) $RT"
    echo "$T.005000 30.0321 31.0801 T C3 104 3 lookup fh $R name \"c\" $CT"
    echo "$T.005100 31.0801 30.0321 T R3 104 3 lookup OK fh $C $(reg c) $DIR $RT"
    echo "$T.010000 30.0321 31.0801 T C3 105 7 write fh $A off 0 count 10 stable F $CT"
    echo "$T.010100 31.0801 30.0321 T R3 105 7 write OK count 10 stable F $RT"
    for f in a b; do
        for i in 0 1 2 3; do
            h=$A t=2
            [ $f = b ] && h=$B t=3
            echo "$T.0$t${i}000 30.0321 31.0801 T C3 1$t$i 1 getattr fh $h $CT"
            echo "$T.0$t${i}100 31.0801 30.0321 T R3 1$t$i 1 getattr 2 $RT"
        done
    done
} >"$T_DIR/t.txt"

"$T_BIN/sfs_trace" image "$T_DIR/t.txt" >"$T_DIR/image.out" 2>&1
like "$(grep '^objects ' "$T_DIR/image.out")" \
    "^objects +4 \(4 at the start, 0 created during the trace; 1 known by a name only merged into them\)" \
    "sfs_trace image: 4 objects, the name listed before its handle merged into its object"

start_nfsd S --delay-us 300000 --delay-only write || bail "sfs_nfsd did not start"
timeout 50 "$T_BIN/sfs3" -Q -p 1 --speed 0 --trace "$T_DIR/t.txt" --yaml "$T_DIR/r.yaml" "$S_URL" \
    >"$T_DIR/r.out" 2>"$T_DIR/r.err"
ok $? "the trace replays at speed 0 $(tail -2 "$T_DIR/r.err")"
like "$(grep 'NFS trace' "$T_DIR/r.err")" \
    "image of 4 objects \(1 known by a name only merged into them\), 1 root" \
    "the plan line gives the same number and names the merge alike"
is "$(nr_yaml "$T_DIR/r.yaml" 'g["nfs_replay"]["status_mismatches"]')" 8 \
    "the eight GETATTRs traced NOENT are mismatches"
is "$(grep -o 'mismatch: getattr [ab] at [0-9.]* s' "$T_DIR/r.out" | tr '\n' ' ')" \
    "mismatch: getattr a at 0.019000 s mismatch: getattr a at 0.020000 s mismatch: getattr a at 0.021000 s mismatch: getattr a at 0.022000 s " \
    "the four named first are the trace's first four, though b's completed before them"
is "$(nr_yaml "$T_DIR/r.yaml" '" ".join(x.split(" at ")[1].split(" s")[0] for x in g["nfs_replay"]["first_mismatches"])')" \
    "0.019000 0.020000 0.021000 0.022000" "and so does the YAML"

# an NFSv2 replay needs NFSv3 over TCP for the image's preparation
port=$((T_PORT_BASE + 5))
"$V2R" -b 127.0.0.1 -p "$port" >"$T_DIR/v2r.out" 2>&1 &
track $!
wait_for "grep -q '^ready' '$T_DIR/v2r.out'" 100 0.05 || bail "v2_responder did not start"
R2=0200000000000000000000000000000000000000000000000000000000000001
printf '%s\n' "$T.001000 30.0321 31.0801 U C2 200 1 getattr fh $R2 $CT" \
    "$T.001100 31.0801 30.0321 U R2 200 1 getattr OK $(reg 9 | sed 's/mode 1a4/mode 81a4/') $RT" \
    >"$T_DIR/v2.txt"
err=$(timeout 50 "$T_BIN/sfs" -p 1 --speed 0 --trace "$T_DIR/v2.txt" "127.0.0.1:$port:/export" 2>&1 >/dev/null)
is "$?" 1 "sfs --trace against a server without NFSv3: exit 1"
like "$err" "child 0: preparing the image through libnfs \(NFSv3 over TCP, also for an NFSv2 replay\): libnfs: mount 127\.0\.0\.1:$port:/export" \
    "the child says the image is prepared through libnfs over NFSv3"
