#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 400
# Trace replay against nfs-ganesha, counted independently on the wire:
# dumpcap captures the test's own loopback port during the whole run
# (lib_nfscap.sh) and tshark decodes it;
# the calls sent after sfs3 -i has prompted (mount, preparation and handle
# lookups are done by then) and Return was pressed are the replay's.
# Every NFSv3 call among them is decoded and counted by
# procedure (a UDP retransmission, same XID, counts once), with the byte
# counts of READ and WRITE calls.  Over UDP the
# replay sends at most 32 KiB per call (docs/replay.md).
. "$(dirname "$0")/lib.sh"
need_root "dumpcap on lo"
need_cmd tshark
need_cmd python3
need_cmd dumpcap
. "$(dirname "$0")/lib_nfscap.sh"
plan 6
start_ganesha
FX=$T_FIXTURES
port=$GANESHA_NFS_PORT

# counted TRACE OPTIONS...: replays with a capture around the timed part;
# sets GOT ("read=N write=N commit=N lookup=N create=N getattr=N
# bytes_read=N bytes_written=N") and RC.
counted() {
    local trace=$1 t0
    shift
    cap_start "$T_DIR/cap.pcapng" "$port" || {
        GOT=none RC=1
        return
    }
    if ! prompted_start "$T_BIN/sfs3" -i --trace "$trace" --yaml "$T_DIR/r.yaml" "$@" \
        "$GANESHA_URL"; then
        cap_stop
        GOT=none RC=1
        return
    fi
    t0=$(date +%s.%N) # every call before this is preparation
    prompted_go
    RC=$PROMPTED_RC
    cap_stop
    GOT=$(tshark -n -r "$T_DIR/cap.pcapng" -d "udp.port==$port,rpc" -Y "frame.time_epoch >= $t0 && rpc.msgtyp == 0 && nfs" \
        -T fields -e rpc.xid -e nfs.procedure_v3 -e nfs.count3 2>/dev/null | python3 -c "
import sys
names = {1: 'getattr', 3: 'lookup', 6: 'read', 7: 'write', 8: 'create', 21: 'commit'}
c = dict.fromkeys(['read', 'write', 'commit', 'lookup', 'create', 'getattr'], 0)
b = {'read': 0, 'write': 0}
seen = set()
for line in sys.stdin:
    f = line.rstrip('\n').split('\t')
    if len(f) < 2 or not f[1].strip() or f[0] in seen:
        continue  # a UDP retransmission carries the same XID: one call
    seen.add(f[0])
    f = f[1:]
    n = names.get(int(f[0]), 'other')
    c[n] = c.get(n, 0) + 1
    if n in b and len(f) > 1 and f[1].strip():
        b[n] += int(f[1].split(',')[0])
print(' '.join('%s=%d' % (k, c[k]) for k in ('read', 'write', 'commit', 'lookup', 'create', 'getattr'))
      + ' bytes_read=%d bytes_written=%d' % (b['read'], b['write']))")
}

e=$(python3 "$T_TOP/tests/tools/replay-expect.py" spc "$FX/spc/seed-example.spc" 32768 unstable)
counted "$FX/spc/seed-example.spc" --stable unstable -p 2
is "$RC" 0 "SPC example on ganesha: exit 0"
is "$GOT" "read=2 write=9 commit=9 lookup=0 create=0 getattr=0 $(echo "$e" | sed 's/.*\(bytes_read\)/\1/')" \
    "SPC example, unstable, on the wire: 2 READ, 9 WRITE, 9 COMMIT and their bytes"

counted "$FX/sysio/sample.trace" --speed 0
is "$RC" 0 "sysio sample on ganesha: exit 0"
is "$GOT" "read=0 write=36 commit=0 lookup=0 create=2 getattr=1 bytes_read=0 bytes_written=1048616" \
    "sysio sample on the wire: CREATE 2, GETATTR 1, WRITE 36, 1 048 616 bytes"

e=$(python3 "$T_TOP/tests/tools/replay-expect.py" masta "$FX/masta/synthetic-2k.mtr" 32768)
counted "$FX/masta/synthetic-2k.mtr" --speed 4 --stable unstable
is "$RC" 0 "MaStA synthetic on ganesha: exit 0"
is "$GOT" "$(echo "$e" | awk '{print $1, $2, $3}') lookup=0 create=0 getattr=0 $(echo "$e" | awk '{print $4, $5}')" \
    "MaStA synthetic on the wire: READ/WRITE/COMMIT and bytes ($e)"
