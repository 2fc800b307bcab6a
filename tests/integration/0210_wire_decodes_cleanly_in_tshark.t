#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0210_wire_decodes_cleanly_in_tshark.t - an independent decoder checks
# every packet we send or answer: Wireshark's tshark captures the test's own
# loopback ports while short sfs (v2) and sfs3 (v3) runs over UDP and TCP use
# a mix with every op of their version, nf_procs calls every procedure of
# both versions (error paths included), and sfs_ping meets a second
# sfs_nfsd that answers every GETATTR and LOOKUP with an injected NFS error.  The capture must hold no malformed packet
# and no expert error, and every call must have its reply.  Skips with a
# reason where tshark cannot capture (not installed, not root).
# timeout: 240
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_nfscap.sh"
need_cmd tshark
need_root "packet capture on lo"
PROCS=$(tool_path nf_procs) || bail "tests/tools/nf_procs not built"
plan 9

# Every op of the version at an equal share (a v2 mix file names ops by SFS
# name; sfs/sfs3 skip the ops their version lacks).
V2_OPS="null getattr setattr root lookup readlink read wrcache write create
        remove rename link symlink mkdir rmdir readdir fsstat"
V3_OPS="null getattr setattr lookup access readlink read write create mkdir
        symlink mknod remove rmdir rename link readdir readdirplus fsstat fsinfo
        pathconf commit"
write_mix() { # FILE OPS...
    local f=$1 n=0 each i=0 op; shift
    n=$#; each=$((100 / n))
    echo "SFS MIXFILE VERSION 2" >"$f"
    for op in "$@"; do
        i=$((i + 1))
        # the last op takes the rounding remainder so the shares sum to 100
        if [ $i -eq $n ]; then each=$((100 - (n - 1) * (100 / n))); fi
        echo "$op $each%" >>"$f"
    done
}
# shellcheck disable=SC2086
write_mix "$T_DIR/v2.mix" $V2_OPS
# shellcheck disable=SC2086
write_mix "$T_DIR/v3.mix" $V3_OPS

start_nfsd SRV || bail "sfs_nfsd did not start"
start_nfsd ERR --error getattr=IO:100 --error lookup=ACCES:100 || bail "sfs_nfsd did not start"
PORTS="$SRV_NFS_PORT $SRV_MNT_PORT $ERR_NFS_PORT $ERR_MNT_PORT"
CAP=$T_DIR/wire.pcap
# shellcheck disable=SC2086
cap_start "$CAP" $PORTS || bail "the capture did not start"

run_load() { # PROG TRANSPORT-FLAG MIX
    "$T_BIN/$1" $2 -m "$3" -l 120 -p 2 -w 0 -t 3 -F 40 "$SRV_URL" \
        >"$T_DIR/$1$2.out" 2>&1
}
for prog in sfs sfs3; do
    for q in "" -Q; do
        mix=$T_DIR/v3.mix; [ $prog = sfs ] && mix=$T_DIR/v2.mix
        run_load $prog "$q" "$mix"
        ok $? "$prog ${q:-(UDP)} with every op of its version ran"
    done
done
"$PROCS" -2 "$SRV_URL" >"$T_DIR/procs2.out" 2>&1
"$PROCS" -3 -Q "$SRV_URL" >"$T_DIR/procs3.out" 2>&1
"$T_BIN/sfs_ping" -2 -c 20 -p getattr "$ERR_URL" >/dev/null 2>&1
"$T_BIN/sfs_ping" -3 -Q -c 20 -p lookup -n x "$ERR_URL" >/dev/null 2>&1
# every packet sent so far is in the file once cap_stop's probe is
cap_stop

decode() { # tshark options... (ports decoded as ONC RPC in both directions)
    local d="" p
    for p in $PORTS; do d="$d -d udp.port==$p,rpc -d tcp.port==$p,rpc"; done
    # shellcheck disable=SC2086
    tshark -r "$CAP" $d "$@" 2>/dev/null
}
calls=$(decode -Y 'rpc.msgtyp == 0' | wc -l)
ok $([ "$calls" -gt 2000 ] && echo 0 || echo 1) "the capture holds the runs' calls ($calls frames)"

bad=$(decode -Y '_ws.malformed || _ws.expert.severity >= 8388608')
is "$(printf '%s' "$bad" | grep -c .)" 0 "no malformed packet, no expert error"
[ -n "$bad" ] && diag "$(printf '%s\n' "$bad" | head -5)"

# Several RPC messages may share a TCP segment: fields come comma-separated.
pairs=$(decode -Y rpc -T fields -e rpc.xid -e rpc.msgtyp -e rpc.program)
unanswered=$(printf '%s\n' "$pairs" | awk '
    { n = split($1, x, ","); split($2, t, ",")
      for (i = 1; i <= n; i++) if (t[i] == 0) c[x[i]] = 1; else r[x[i]] = 1 }
    END { for (k in c) if (!(k in r)) print k }')
is "$(printf '%s' "$unanswered" | grep -c .)" 0 "every call has its reply"

# distinct procedure numbers of each version seen in calls and replies
nprocs() { decode -Y "nfs.procedure_v$1" -T fields -e "nfs.procedure_v$1" | tr ',' '\n' | sort -u | grep -c .; }
nv2=$(nprocs 2); nv3=$(nprocs 3)
ok $([ "$nv2" -eq 18 ] && [ "$nv3" -eq 22 ] && echo 0 || echo 1) \
    "every v2 (18) and v3 (22) procedure crossed the wire ($nv2, $nv3)"
errs=$(decode -Y 'nfs.status2 != 0 || nfs.status3 != 0' | wc -l)
ok $([ "$errs" -gt 0 ] && echo 0 || echo 1) "error replies were decoded too ($errs)"
