#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0706_nreplay_streams_over_processes.t - the streams of an NFS trace (its
# traced client hosts) are dealt over a client's processes
# (docs/nfs_replay.md, "Processes, clients and scaling"): a two-host
# nfsdump trace written here, in which host B looks up, reads, renames
# away and removes the files host A creates and writes, and host A then
# finds them gone, is replayed at speed 0 with -p 2 against sfs_nfsd while
# dumpcap captures it.  Every status is as traced (B's calls waited for
# A's across the processes, and used the handles A's replies named),
# tshark finds each traced host's calls on one source port of its own
# (two processes sent them), and the plan states no idle process.  With
# -p 3 one process is idle and the plan says so; --scale 2 -p 2 gives
# each process a stream of each copy, still with no mismatch.
# timeout: 300
# check: nreplay image trace
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
need_python_yaml
. "$(dirname "$0")/lib_nreplay.sh"
plan 7
N=20
python3 - "$T_DIR/two.txt" "$N" <<'EOF'
import sys
out, n = sys.argv[1], int(sys.argv[2])
A, B, S = "30.0321", "32.0401", "31.0801"
root = "01" + "0" * 61 + "1"
d = "01" + "0" * 61 + "2"
attr_d = ("ftype 2 mode 1ed nlink 2 uid 0 gid 0 size 200 used 200 rdev 0 rdev2 0 fsid 2 "
          "fileid 2 atime 1034787500.000000 mtime 1034787400.000000 ctime 1034787400.000000")
def attr_f(k, size):
    return ("ftype 1 mode 1a4 nlink 1 uid 0 gid 0 size %x used %x rdev 0 rdev2 0 fsid 2 "
            "fileid %x atime 1034787500.000000 mtime 1034787400.000000 "
            "ctime 1034787400.000000" % (size, size, k + 16))
t, xid, lines = 1034787600.0, 0, []
def pair(host, proc, name, call, status, reply):
    global t, xid
    xid += 1
    t += 0.0001
    lines.append("%.6f %s %s U C3 %08x %x %s %s con = XXX len = XXX" % (t, host, S, xid, proc, name, call))
    t += 0.00005
    lines.append("%.6f %s %s U R3 %08x %x %s %s %s status=XXX pl = XXX con = XXX len = XXX"
                 % (t, S, host, xid, proc, name, status, reply))
pair(A, 3, "lookup", 'fh %s name "d"' % root, "OK", "fh %s %s" % (d, attr_d))
pair(B, 3, "lookup", 'fh %s name "d"' % root, "OK", "fh %s %s" % (d, attr_d))
for k in range(n):
    x = "02" + "%062x" % (k + 1)
    pair(A, 8, "create", 'fh %s name "x%d" how U mode 1a4' % (d, k), "OK", "fh %s %s" % (x, attr_f(k, 0)))
    pair(A, 7, "write", "fh %s off 0 count 1000 stable U" % x, "OK", "count 1000 stable U")
    pair(B, 3, "lookup", 'fh %s name "x%d"' % (d, k), "OK", "fh %s %s" % (x, attr_f(k, 4096)))
    pair(B, 6, "read", "fh %s off 0 count 1000" % x, "OK", attr_f(k, 4096) + " count 1000 eof 1")
    pair(B, 0xe, "rename", 'fh %s name "x%d" fh2 %s name2 "y%d"' % (d, k, d, k), "OK", "")
    pair(B, 0xc, "remove", 'fh %s name "y%d"' % (d, k), "OK", "")
    pair(A, 3, "lookup", 'fh %s name "y%d"' % (d, k), "2", "")
open(out, "w").write("\n".join(lines) + "\n")
EOF
calls=$((2 + 7 * N))

start_nfsd B || bail "sfs_nfsd did not start"
nr_replay_captured "$T_DIR/b.pcapng" "$B_NFS_PORT" "$B_URL" -Q -p 2 --speed 0 \
    --trace "$T_DIR/two.txt" --yaml "$T_DIR/b.yaml"
is "$NR_RC:$(nr_yaml "$T_DIR/b.yaml" 'g["nfs_replay"]["calls"], g["nfs_replay"]["statuses_compared"], g["nfs_replay"]["status_mismatches"], g["validity"]["code"]')" \
    "0:$calls $calls 0 0" "-p 2: the two hosts' $calls calls replayed with every status as traced $(tail -3 "$T_DIR/err")"
like "$(head -1 "$T_DIR/err")" "of 2 client\(s\) .*; 1 copy; speed 0" "the plan states two streams and no idle process"
# the source port of each NFS call, with the procedure: A's calls are
# CREATE, WRITE and its LOOKUPs of "d" and "yK"; B's READ, RENAME, REMOVE
# and its LOOKUPs of "d" and "xK"
tshark -n -r "$T_DIR/b.pcapng" -o rpc.desegment_rpc_over_tcp:TRUE \
    -o tcp.reassemble_out_of_order:TRUE -d "tcp.port==$B_NFS_PORT,rpc" \
    -Y "rpc.msgtyp == 0 && nfs" -T fields -e tcp.srcport -e nfs.procedure_v3 -e nfs.name \
    2>/dev/null >"$T_DIR/ports.txt"
python3 - "$T_DIR/ports.txt" >"$T_DIR/who.txt" <<'EOF'
import sys
host = {}
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t") + ["", ""]
    port, proc, name = f[0], f[1], f[2].split(",")[0]
    if proc in ("8", "7") or (proc == "3" and name.startswith("y")):
        h = "A"
    elif proc in ("6", "14", "12") or (proc == "3" and name.startswith("x")):
        h = "B"
    else:
        continue  # LOOKUP "d": both hosts
    host.setdefault(h, set()).add(port)
print(" ".join("%s:%d" % (h, len(host.get(h, ()))) for h in "AB"),
      "distinct" if host.get("A") and host.get("B") and not host["A"] & host["B"] else "shared")
EOF
is "$(cat "$T_DIR/who.txt")" "A:1 B:1 distinct" \
    "tshark: each traced host's calls left from one source port of its own (two processes)"
nr_calls "$T_DIR/b.pcapng" "$B_NFS_PORT" | grep -c . >"$T_DIR/n.txt"
is "$(cat "$T_DIR/n.txt")" "$calls" "tshark counts the $calls calls in the replay's capture"

"$T_BIN/sfs3" -Q -p 3 --speed 0 --trace "$T_DIR/two.txt" --yaml "$T_DIR/c.yaml" "$B_URL" \
    >"$T_DIR/c.out" 2>"$T_DIR/c.err"
is "$?:$(nr_yaml "$T_DIR/c.yaml" 'g["nfs_replay"]["status_mismatches"]')" "0:0" "-p 3: replayed, no mismatch"
like "$(head -1 "$T_DIR/c.err")" "; 1 copy, 3 processes: 1 idle;" "-p 3: the plan says one process is idle"
"$T_BIN/sfs3" -Q -p 2 --scale 2 --speed 0 --trace "$T_DIR/two.txt" --yaml "$T_DIR/s.yaml" "$B_URL" \
    >"$T_DIR/s.out" 2>"$T_DIR/s.err"
is "$?:$(nr_yaml "$T_DIR/s.yaml" 'g["nfs_replay"]["calls"], g["nfs_replay"]["status_mismatches"]')" \
    "0:$((2 * calls)) 0" "--scale 2 -p 2: both copies' streams over both processes, no mismatch"
