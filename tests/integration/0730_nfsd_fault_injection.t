#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# sfs_nfsd's fault injection, seen through an independent client (libnfs):
# --error OP=STATUS:PCT fails that procedure only, --max-bytes answers
# NOSPC when full, --corrupt-reads changes what is read back and is
# deterministic for a --seed, --drop-replies leaves calls unanswered,
# --delay-us still answers, --exit-after stops the server (status 3) after
# exactly N answered calls; --stats-file counts all of it.
. "$(dirname "$0")/lib.sh"
need_cmd nfs-cp
need_cmd nfs-ls
plan 18

lnfs() { timeout "${TMO:-15}" "$@" >/dev/null 2>&1; }
url() { echo "nfs://127.0.0.1/export/$2?nfsport=$(eval echo \$${1}_NFS_PORT)&mountport=$(eval echo \$${1}_MNT_PORT)"; }
head -c 300000 /dev/urandom >"$T_DIR/data"

start_nfsd E --error write=NOSPC:100 --stats-file "$T_DIR/E.yaml" || bail "no server"
lnfs nfs-cp "$T_DIR/data" "$(url E f)"; [ $? -ne 0 ]; ok $? "--error write=NOSPC:100: nfs-cp fails"
lnfs nfs-ls "$E_LNFS_URL"; ok $? "other procedures still work"
n=$(nfsd_stat E errors_injected); [ "${n:-0}" -gt 0 ]; ok $? "errors_injected counted ($n)"

start_nfsd F --max-bytes 64K || bail "no server"
head -c 20000 /dev/urandom >"$T_DIR/small"
lnfs nfs-cp "$T_DIR/small" "$(url F small)"; ok $? "--max-bytes 64K: 20 KB file fits"
lnfs nfs-cp "$T_DIR/data" "$(url F big)"; [ $? -ne 0 ]; ok $? "300 KB file: NOSPC"
lnfs nfs-cp "$(url F small)" "$T_DIR/small.back"; cmp -s "$T_DIR/small" "$T_DIR/small.back"
ok $? "the file that fitted reads back intact"

start_nfsd C --corrupt-reads 100 --stats-file "$T_DIR/C.yaml" || bail "no server"
lnfs nfs-cp "$T_DIR/data" "$(url C f)"; ok $? "--corrupt-reads 100: write works"
lnfs nfs-cp "$(url C f)" "$T_DIR/c.back"; cmp -s "$T_DIR/data" "$T_DIR/c.back"; [ $? -ne 0 ]
ok $? "what is read back differs"
n=$(nfsd_stat C reads_corrupted); [ "${n:-0}" -gt 0 ]; ok $? "reads_corrupted counted ($n)"

# the same seed and the same calls give the same corruption
for s in S1 S2; do
    start_nfsd $s --corrupt-reads 50 --seed 4242 || bail "no server"
    lnfs nfs-cp "$T_DIR/data" "$(url $s f)"
    for i in 1 2 3; do lnfs nfs-cp "$(url $s f)" "$T_DIR/$s.$i"; done
done
same=0
for i in 1 2 3; do cmp -s "$T_DIR/S1.$i" "$T_DIR/S2.$i" || same=1; done
ok $same "--seed: two servers corrupt the same bytes"
cmp -s "$T_DIR/S1.1" "$T_DIR/S1.2" && cmp -s "$T_DIR/S1.1" "$T_DIR/S1.3"; [ $? -ne 0 ]
ok $? "... and successive reads differ"

start_nfsd D --drop-replies 100 --stats-file "$T_DIR/D.yaml" || bail "no server"
TMO=3 lnfs nfs-ls "$D_LNFS_URL"; [ $? -ne 0 ]; ok $? "--drop-replies 100: nfs-ls gets no answer"
n=$(nfsd_stat D replies_dropped); [ "${n:-0}" -gt 0 ]; ok $? "replies_dropped counted ($n)"

start_nfsd L --delay-us 20000:10000 || bail "no server"
lnfs nfs-ls "$L_LNFS_URL"; ok $? "--delay-us 20000:10000: still answers"

start_nfsd X --exit-after 25 --stats-file "$T_DIR/X.yaml" || bail "no server"
for i in 1 2 3 4 5 6 7 8 9 10; do TMO=3 lnfs nfs-ls "$X_LNFS_URL" || break; done
wait_for "! alive $X_PID" 100 0.05; ok $? "--exit-after 25: the server exits"
wait "$X_PID"; is "$?" "3" "exit status 3"
is "$(sed -n 's/^calls_answered: //p' "$T_DIR/X.yaml")" "25" "exactly 25 calls answered"

"$T_BIN/sfs_nfsd" -f --error 'write=BOGUS:10' >/dev/null 2>&1; is "$?" "2" "bad --error spec: exit 2"
