# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib_nfsd.sh - sfs_nfsd helpers for the 07NN tests,
# sourced after lib.sh.
#
# start_nfsd_any NAME [sfs_nfsd options...]: like lib.sh's start_nfsd, but
# lets the server pick free ports (-p 0 -m 0) and reads them back from its
# "ready" line.  Fixed per-test ports (20000 + 20 x test number) fall in
# Linux's ephemeral range above 32768 for tests 0640 and up, where a
# client's source port can take them first.  Sets NAME_PID, NAME_NFS_PORT,
# NAME_MNT_PORT, NAME_URL, NAME_NFSURL and NAME_LNFS_URL.
start_nfsd_any() {
    local name=$1; shift
    local log=$T_DIR/$name.log line nfs mnt
    "$T_BIN/sfs_nfsd" --foreground -b 127.0.0.1 -p 0 -m 0 --export /export "$@" \
        >"$log" 2>&1 &
    local pid=$!
    track "$pid"
    if ! wait_for "grep -q '^ready' '$log'" 200 0.05; then
        diag "sfs_nfsd $name did not get ready:" "$(tail -5 "$log")"
        return 1
    fi
    line=$(grep '^ready' "$log")
    nfs=$(printf '%s' "$line" | sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p')
    mnt=$(printf '%s' "$line" | sed -n 's/.* mount [^ ]*:\([0-9]*\) .*/\1/p')
    eval "${name}_PID=$pid ${name}_NFS_PORT=$nfs ${name}_MNT_PORT=$mnt"
    eval "${name}_URL=127.0.0.1:$nfs:/export"
    eval "${name}_NFSURL='nfs://127.0.0.1:$nfs/export?mountport=$mnt'"
    eval "${name}_LNFS_URL='nfs://127.0.0.1/export?nfsport=$nfs&mountport=$mnt'"
    return 0
}

# nfsd_tool NAME: prints the path of a built test tool (tests/tools/NAME.c)
# beside FREESFS_BIN's build, else in build/linux; fails when there is none.
nfsd_tool() {
    local d
    for d in "${FREESFS_TOOLS:-}" "$(dirname "$T_BIN")/tools" "$T_TOP/build/linux/tools"; do
        [ -n "$d" ] && [ -x "$d/$1" ] && { echo "$d/$1"; return 0; }
    done
    return 1
}
