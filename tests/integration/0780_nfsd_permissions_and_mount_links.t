#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# sfs_nfsd checks permissions as a real server does: ACCESS,
# LOOKUP, READ, WRITE, CREATE, READDIR and SETATTR follow the mode bits
# against the AUTH_SYS uid, gid and supplementary groups (owner, group
# member, other user, root; v3 and v2); --root-squash serves root as
# nobody.  MNT follows symbolic links inside the export, as Linux mountd
# does, and refuses those that lead out of it.
. "$(dirname "$0")/lib.sh"
NFSD_PERMS=$(tool_path nfsd_perms) || skip_all "nfsd_perms not built (make tools)"
plan 3

run() { # run DESCRIPTION ARGS...: one nfsd_perms suite as one TAP line
    local what=$1 out rc; shift
    out=$("$NFSD_PERMS" "$@" 2>&1); rc=$?
    ok $rc "$what ($(printf '%s\n' "$out" | grep -c '^ok') checks)"
    if [ $rc -ne 0 ]; then diag "$(printf '%s\n' "$out" | grep -v '^ok' | head -10)"; fi
}
start_nfsd S --export /other || bail "no server"
run "mode bits against owner, group, supplementary groups, others and root" \
    modes "$S_NFS_PORT" /export
run "MNT through symbolic links: inside resolved, outside refused" \
    mnt "$S_NFS_PORT" /export /other
start_nfsd Q --root-squash || bail "no server"
run "--root-squash: root is nobody" squash "$Q_NFS_PORT" /export
