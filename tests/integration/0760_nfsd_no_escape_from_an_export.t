#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# No handle path leaves an export: LOOKUP ".." at an export's
# root, READDIR's and READDIRPLUS's ".." entry, v2 and v3, over TCP and
# UDP, all give the export root itself - never the server's internal root
# (from which every export could be listed) nor a directory above the
# export.  Walked from every export of a server with nested paths.
. "$(dirname "$0")/lib.sh"
NFSD_WALK=$(tool_path nfsd_walk) || skip_all "nfsd_walk not built (make tools)"
plan 2

start_nfsd S --export /a/b --export /c || bail "no server"
for proto in tcp udp; do
    flag=; [ $proto = udp ] && flag=-u
    out=$("$NFSD_WALK" $flag "$S_NFS_PORT" /export /a/b /c 2>&1); rc=$?
    n=$(printf '%s\n' "$out" | grep -c '^ok')
    ok $rc "walk up from /export, /a/b and /c over $proto ($n checks)"
    if [ $rc -ne 0 ]; then diag "$(printf "%s\n" "$out" | grep -v "^ok" | head -10)"; fi
done
