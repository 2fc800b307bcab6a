#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# A capture taken as docs/nfs_replay.md ("Capturing traffic for a
# replay") says: dumpcap with a snap length of 512 bytes and a filter on
# the server's NFS and MOUNT ports, of sfs3's SFS mix over UDP.  Every
# packet is cut to 512 bytes, the capture is a fraction of the traffic's
# bytes, sfs_trace reads every call with its reply (READ and WRITE data
# cut, never needed), and the capture replays against a fresh server with
# every call replayed and no status mismatch.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_nfscap.sh"
need_root "dumpcap on lo"
need_cmd dumpcap
need_cmd tshark
plan 6
start_nfsd src || bail "sfs_nfsd did not start"
cap=$T_DIR/cut.pcapng
cap_start -s 512 "$cap" "$src_NFS_PORT" "$src_MNT_PORT" || bail "no capture"
"$T_BIN/sfs3" -l 400 -p 2 -w 1 -t 3 -F 100 --progress 0 "$src_URL" >"$T_DIR/mix.out" 2>&1
mix=$?
cap_stop
is "$mix" 0 "sfs3's mix ran while captured"
read -r frames longest wire <<<"$(tshark -n -r "$cap" -T fields -e frame.cap_len -e frame.len 2>/dev/null |
    awk '{n++; if ($1 > m) m = $1; w += $2} END {print n, m, w}')"
ok "$([ "${longest:-0}" -le 512 ] && [ "${frames:-0}" -gt 500 ]; echo $?)" \
    "every packet is cut at 512 bytes at most ($frames packets, the longest $longest)"
size=$(stat -c %s "$cap")
ok "$([ "$size" -lt $((wire / 2)) ]; echo $?)" \
    "the capture holds less than half of the traffic ($size of $wire bytes)"
stats=$("$T_BIN/sfs_trace" stats "$cap" 2>&1)
like "$stats" "unanswered calls +0$" "sfs_trace reads every call with its reply"
start_nfsd dst || bail "the second sfs_nfsd did not start"
"$T_BIN/sfs3" --trace "$cap" -p 1 --speed 0 --progress 0 "$dst_URL" >"$T_DIR/replay.out" 2>&1
is "$?" 0 "the cut capture replays"
like "$(tr "\n" " " <"$T_DIR/replay.out")" "calls replayed ([0-9]+) of \\1 .*statuses compared \\1, mismatched 0 " \
    "every call replayed, every status compared, no mismatch"
