#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0690_nfs_capture_of_sfs_nfsd_matches_tshark.t - the NFS capture reader
# against real traffic and an independent decoder: dumpcap captures the
# test's own loopback ports while sfs3 and sfs (v3 and v2, UDP and TCP)
# run a mix of every op of their version against sfs_nfsd and nf_procs
# calls every procedure; every call and reply the reader finds is checked
# against tshark's decode (frame, XID, procedure, handle, name, offset,
# count, status, new handle), every v2 and v3 procedure is among them, and
# a capture cut to a 200-byte snap length (editcap) still agrees.  Then
# `sfs_trace convert --to nfsdump` writes the capture as text that reads
# back to the same events and counters, and --anonymize changes names and
# handles, alike for the same key.
# timeout: 300
. "$(dirname "$0")/lib.sh"
need_cmd tshark
need_cmd dumpcap
need_cmd editcap
need_cmd python3
need_root "packet capture on lo"
. "$(dirname "$0")/lib_nfs.sh"
PROCS=$(tool_path nf_procs) || bail "tests/tools/nf_procs not built"
plan 15

write_mix() { # FILE OPS...: every op at an equal share
    local f=$1 n i=0 each op
    shift
    n=$#
    echo "SFS MIXFILE VERSION 2" >"$f"
    for op in "$@"; do
        i=$((i + 1))
        each=$((100 / n))
        [ $i -eq $n ] && each=$((100 - (n - 1) * (100 / n)))
        echo "$op $each%" >>"$f"
    done
}
# shellcheck disable=SC2086
write_mix "$T_DIR/v2.mix" null getattr setattr root lookup readlink read wrcache write \
    create remove rename link symlink mkdir rmdir readdir fsstat
# shellcheck disable=SC2086
write_mix "$T_DIR/v3.mix" null getattr setattr lookup access readlink read write create \
    mkdir symlink mknod remove rmdir rename link readdir readdirplus fsstat fsinfo \
    pathconf commit

start_nfsd SRV || bail "sfs_nfsd did not start"
PORTS=$SRV_NFS_PORT,$SRV_MNT_PORT
CAP=$T_DIR/wire.pcapng
cap_start "$CAP" "$SRV_NFS_PORT" "$SRV_MNT_PORT" || bail "no capture"
for prog in sfs3 sfs; do
    for q in "" -Q; do
        mix=$T_DIR/v3.mix
        [ $prog = sfs ] && mix=$T_DIR/v2.mix
        "$T_BIN/$prog" $q -m "$mix" -l 100 -p 2 -w 0 -t 2 -F 30 "$SRV_URL" \
            >"$T_DIR/$prog$q.out" 2>&1
        ok $? "$prog ${q:-(UDP)} with every op of its version ran"
    done
done
"$PROCS" -3 "$SRV_URL" >"$T_DIR/p3.out" 2>&1 && "$PROCS" -2 -Q "$SRV_URL" >"$T_DIR/p2.out" 2>&1
ok $? "nf_procs called every procedure (v3 UDP, v2 TCP)"
cap_stop

out=$(nfs_check "$CAP" "$PORTS")
ok $? "every call and reply agrees with tshark"
diag "$out"
ev=$T_DIR/wire.pcapng.events
n2=$(awk -F'\t' '$1 == "C" && $5 == 100003 && $6 == 2 {print $7}' "$ev" | sort -u | wc -l)
n3=$(awk -F'\t' '$1 == "C" && $5 == 100003 && $6 == 3 {print $7}' "$ev" | sort -u | wc -l)
is "$n2 $n3" "18 22" "every v2 (18) and v3 (22) procedure was read"
like "$(grep -c '^C' "$ev")" '^[0-9]{4,}$' "thousands of calls"

editcap -s 200 "$CAP" "$T_DIR/cut.pcapng" 2>/dev/null
out=$(nfs_check "$T_DIR/cut.pcapng" "$PORTS")
ok $? "cut to a 200-byte snap length: still every call and reply agrees"
diag "$out"
like "$(grep '^# ' "$T_DIR/cut.pcapng.events")" "data_cut [0-9]+" \
    "WRITEs and READs whose data was cut are counted"

# the capture as nfsdump text, and back
"$T_BIN/sfs_trace" convert --to nfsdump "$CAP" -o "$T_DIR/wire.txt" 2>"$T_DIR/conv.err"
ok $? "sfs_trace convert --to nfsdump"
"$NFS_EVENTS" -e "$CAP" | grep -v '^# format' >"$T_DIR/a.ev"
"$NFS_EVENTS" -e "$T_DIR/wire.txt" | grep -v '^# format' >"$T_DIR/b.ev"
if cmp -s "$T_DIR/a.ev" "$T_DIR/b.ev"; then pass "the text reads back to the same events and counters"; else
    fail "the text reads back to the same events and counters"
    diag "$(diff "$T_DIR/a.ev" "$T_DIR/b.ev" | head -6)"
fi

"$T_BIN/sfs_trace" convert --to nfsdump --anonymize k1 "$CAP" -o "$T_DIR/k1a.txt" 2>/dev/null
"$T_BIN/sfs_trace" convert --to nfsdump --anonymize k1 "$T_DIR/wire.txt" -o "$T_DIR/k1b.txt" 2>/dev/null
"$T_BIN/sfs_trace" convert --to nfsdump --anonymize k2 "$CAP" -o "$T_DIR/k2.txt" 2>/dev/null
ok "$(cmp -s "$T_DIR/k1a.txt" "$T_DIR/k1b.txt" && ! cmp -s "$T_DIR/k1a.txt" "$T_DIR/k2.txt" && echo 0 || echo 1)" \
    "the same key anonymises the capture and its text alike, another key otherwise"
names=$(grep -o 'name "[^"]*"' "$T_DIR/wire.txt" | sort -u | wc -l)
leaked=$(grep -o 'name "[^"]*"' "$T_DIR/wire.txt" | sort -u | grep -v -e '"\."' -e '"\.\."' |
    grep -F -f - "$T_DIR/k1a.txt" | wc -l)
ok "$([ "$names" -gt 5 ] && [ "$leaked" -eq 0 ] && echo 0 || echo 1)" \
    "no name of the capture is left in the anonymised text ($names names)"
"$NFS_EVENTS" "$T_DIR/k1a.txt" | awk -F'\t' '!/^#/ {print $1, $5, $6, $7, $10, $11}' >"$T_DIR/k.ev"
"$NFS_EVENTS" "$CAP" | awk -F'\t' '!/^#/ {print $1, $5, $6, $7, $10, $11}' >"$T_DIR/w.ev"
ok "$(cmp -s "$T_DIR/k.ev" "$T_DIR/w.ev" && echo 0 || echo 1)" \
    "the anonymised text keeps every call, reply, procedure, offset and count"
