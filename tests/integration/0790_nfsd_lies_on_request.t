#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# The faults that let the validation suite (docs/validation.md) prove it catches a
# lying server, each seen by an independent client: --wrong-attrs (nfs-ls
# and GETATTR see size + 1 and the mode bits inverted), --drop-dirents
# (nfs-ls misses a name), --change-handles (a second LOOKUP of the same
# file gives another handle, which still works), --corrupt-reads (bytes
# read back differ; also in 0730).  Each is counted in the stats file, and
# a server without them tells the truth.
. "$(dirname "$0")/lib.sh"
need_cmd nfs-cp
need_cmd nfs-ls
FHPROBE=$(tool_path nfsd_fhprobe) || skip_all "nfsd_fhprobe not built (make tools)"
plan 13

url() { echo "nfs://127.0.0.1/export/$2?nfsport=$(eval echo \$${1}_NFS_PORT)&mountport=$(eval echo \$${1}_MNT_PORT)"; }
lnfs() { timeout 15 "$@" >/dev/null 2>&1; }
# put NAME FILE...: copies each file into server NAME's export
put() { local s=$1 f; shift; for f in "$@"; do lnfs nfs-cp "$T_DIR/$f" "$(url $s "$f")" || return 1; done; }
printf '0123456789' >"$T_DIR/ten"
for f in a b c d e; do printf '%s' "$f" >"$T_DIR/$f"; done

start_nfsd T --stats-file "$T_DIR/T.yaml" || bail "no server"
put T ten a b c d e
honest=$(timeout 15 nfs-ls "$T_LNFS_URL" 2>&1)
like "$honest" "-rw-rw---- +1 +[0-9]+ +[0-9]+ +10 ten" "an honest server: ten is 10 bytes, mode 0660"
is "$(printf '%s\n' "$honest" | grep -cE ' [a-e]$')" "5" "... and lists a to e"
like "$("$FHPROBE" "$T_NFS_PORT" /export ten)" "v3 differ=0 resolves=1 same_fileid=1 size=10 mode=660" \
    "... and gives the same handle twice"

start_nfsd W --wrong-attrs 100 --stats-file "$T_DIR/W.yaml" || bail "no server"
put W ten
like "$(timeout 15 nfs-ls "$W_LNFS_URL" 2>&1)" "---x--xrwx +1 +[0-9]+ +[0-9]+ +11 ten" \
    "--wrong-attrs 100: nfs-ls sees 11 bytes and mode 0117"
like "$("$FHPROBE" "$W_NFS_PORT" /export ten)" "size=11 mode=117" "... GETATTR too"
n=$(nfsd_stat W attrs_falsified); [ "${n:-0}" -gt 0 ]; ok $? "attrs_falsified counted ($n)"

start_nfsd D --drop-dirents 100 --stats-file "$T_DIR/D.yaml" || bail "no server"
put D a b c d e
is "$(timeout 15 nfs-ls "$D_LNFS_URL" 2>&1 | grep -cE ' [a-e]$')" "4" \
    "--drop-dirents 100: nfs-ls lists 4 of the 5 files"
n=$(nfsd_stat D dirents_dropped); [ "${n:-0}" -gt 0 ]; ok $? "dirents_dropped counted ($n)"

start_nfsd H --change-handles 100 --stats-file "$T_DIR/H.yaml" || bail "no server"
put H ten
out=$("$FHPROBE" "$H_NFS_PORT" /export ten)
like "$out" "v3 differ=1 resolves=1 same_fileid=1" \
    "--change-handles 100: a second LOOKUP gives another handle for the same file, which works"
like "$out" "v2 differ=1" "... in v2 too"
n=$(nfsd_stat H handles_changed); [ "${n:-0}" -gt 0 ]; ok $? "handles_changed counted ($n)"

start_nfsd C --corrupt-reads 100 || bail "no server"
head -c 100000 /dev/urandom >"$T_DIR/rnd"
put C rnd; lnfs nfs-cp "$(url C rnd)" "$T_DIR/rnd.back"
cmp -s "$T_DIR/rnd" "$T_DIR/rnd.back"; [ $? -ne 0 ]; ok $? "--corrupt-reads 100: the data read back differs"
"$T_BIN/sfs_nfsd" -f --wrong-attrs 101 >/dev/null 2>&1; is "$?" "2" "--wrong-attrs 101: usage error"
