#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# check: synth load
# Population is idempotent: a run changes the file set (appends, creates,
# removes, truncates), and populating again restores exactly the base set:
# the same names, types and sizes as after the first population.  The tree
# is read back with libnfs-utils' nfs-ls, an independent client.
. "$(dirname "$0")/lib.sh"
need_cmd nfs-ls
plan 4
start_nfsd srv || bail "sfs_nfsd did not start"
url="nfs://127.0.0.1/export/CL1?nfsport=${srv_NFS_PORT}&mountport=${srv_MNT_PORT}"
listing() { nfs-ls -R "$url" | awk '{print $1, $5, $6}' | sort; }
"$T_BIN/sfs3" -P -p 2 -F 600 -l 10 "$srv_URL" >/dev/null 2>"$T_DIR/err1"
is "$?" 0 "first population succeeds"
listing >"$T_DIR/before"
# a run whose mix changes the namespace and sizes a lot
printf 'SFS MIXFILE VERSION 2\nwrite 40%%\ncreate 20%%\nremove 20%%\nsetattr 10%%\nlookup 10%%\n' \
    >"$T_DIR/churn.mix"
for op in read getattr readlink readdir fsstat readdirplus access commit fsinfo; do
    echo "$op 0%" >>"$T_DIR/churn.mix"
done
"$T_BIN/sfs3" -m "$T_DIR/churn.mix" -p 2 -F 600 -l 200 -w 0 -t 3 "$srv_URL" \
    >"$T_DIR/run.out" 2>"$T_DIR/err2"
listing >"$T_DIR/during"
ok "$(cmp -s "$T_DIR/before" "$T_DIR/during"; [ $? -ne 0 ]; echo $?)" "the run changed the tree"
"$T_BIN/sfs3" -P -p 2 -F 600 -l 10 "$srv_URL" >/dev/null 2>"$T_DIR/err3"
is "$?" 0 "second population succeeds on the existing tree"
listing >"$T_DIR/after"
ok "$(cmp -s "$T_DIR/before" "$T_DIR/after"; echo $?)" "the base set is restored" ||
    diag "$(diff "$T_DIR/before" "$T_DIR/after" | head -10)"
