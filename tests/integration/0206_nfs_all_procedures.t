#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0206_nfs_all_procedures.t - every NFSv3 procedure (22) against nfs-ganesha
# and every NFSv2 procedure (18) against sfs_nfsd, over UDP and TCP, through
# the nfs layer's typed calls (tests/tools/nf_procs.c): each call gets a
# decoded reply, and the decoded values check out (data read back after
# WRITE/COMMIT, SETATTR size, LOOKUP handle, READLINK target, READDIR and
# READDIRPLUS names).
# timeout: 300
. "$(dirname "$0")/lib.sh"
T=$(tool_path nf_procs) || bail "tests/tools/nf_procs not built"
plan 8

# every NAME of the list appears as an answered call in OUT
all_answered() {
    local out=$1 missing="" n; shift
    for n in "$@"; do
        printf '%s\n' "$out" | grep -Eq "^(ok|nfs) $n( |\$)" || missing="$missing $n"
    done
    echo "${missing:-none}"
}
V3="null getattr setattr lookup access readlink read write create mkdir symlink mknod
    remove rmdir rename link readdir readdirplus fsstat fsinfo pathconf commit"
V2="null getattr setattr root lookup readlink read writecache write create remove
    rename link symlink mkdir rmdir readdir statfs"

if [ "$(id -u)" -eq 0 ] && command -v ganesha.nfsd >/dev/null; then
    start_ganesha
    for tr in udp tcp; do
        q=""; [ $tr = tcp ] && q=-Q
        out=$("$T" -3 $q "$GANESHA_URL" 2>&1); rc=$?
        is "$rc" 0 "v3 $tr against ganesha: every call decoded, every check ok"
        [ $rc -eq 0 ] || diag "$(printf '%s\n' "$out" | grep -v '^ok ' | head -10)"
        # shellcheck disable=SC2086
        is "$(all_answered "$out" $V3)" none "v3 $tr: all 22 procedures answered"
    done
    out=$("$T" -3 "$GANESHA_URL" 2>&1)
    is "$(printf '%s\n' "$out" | grep -c '^check .* ok$')" 8 "v3: the 8 value checks ran"
    unlike "$out" "FAIL" "v3: no failed check"
else
    for i in 1 2 3 4 5 6; do skip "needs root and nfs-ganesha"; done
fi

if [ -x "$T_BIN/sfs_nfsd" ]; then
    start_nfsd SRV || bail "sfs_nfsd did not start"
    out=$("$T" -2 "$SRV_URL" 2>&1); rc=$?
    is "$rc" 0 "v2 against sfs_nfsd: every call decoded, every check ok"
    [ $rc -eq 0 ] || diag "$(printf '%s\n' "$out" | grep -v '^ok ' | head -10)"
    # shellcheck disable=SC2086
    is "$(all_answered "$out" $V2)" none "v2: all 18 procedures answered"
else
    skip "sfs_nfsd not built: no complete NFSv2 server"
    skip "sfs_nfsd not built"
fi
