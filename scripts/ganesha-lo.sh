#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# ganesha-lo.sh - start, stop or show a throw-away nfs-ganesha on loopback
# for tests and benchmarks (docs/TESTING.md, "Peers").
#
#   GDIR=/tmp/g1 [BIND=127.0.0.1] [NFS_PORT=2049] [MNT_PORT=20048] [PROTOCOLS="3, 4"] [LEASE=S] [GRACE=S] \
#       scripts/ganesha-lo.sh start|stop|restart|status
#
# restart stops ganesha alone (by its saved PID) and starts it again on the
# same ports and export, as a production server is restarted: rpcbind and
# the export's files stay (the tests of a client that sees its server
# restart).
#
# It serves NFSv3 (and NFSv4 with PROTOCOLS="3, 4") over UDP and TCP from $GDIR/export (FSAL VFS) and /mem
# (FSAL MEM, when installed).  rpcbind is required by Debian's ganesha: the
# script starts one only when none answers, and stops only the one it
# started.  Every process is stopped by its saved PID; every wait is bounded.
set -u
: "${GDIR:?set GDIR to a state directory}"
BIND=${BIND:-127.0.0.1}
NFS_PORT=${NFS_PORT:-2049}
MNT_PORT=${MNT_PORT:-20048}
PSEUDO_MOUNT=${PSEUDO_MOUNT:-false}
PROTOCOLS=${PROTOCOLS:-3} # NFS versions served, e.g. "3, 4"
LEASE=${LEASE:-} # NFSv4 lease in seconds (ganesha's default when empty)
GRACE=${GRACE:-} # NFSv4 grace period in seconds after a start (empty: none, Graceless)

alive() {
    [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != "Z" ]
}
stop_pidfile() {
    f=$1
    [ -f "$f" ] || return 0
    pid=$(cat "$f")
    if alive "$pid"; then
        kill -TERM "$pid" 2>/dev/null
        i=0
        while alive "$pid" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
        alive "$pid" && kill -KILL "$pid" 2>/dev/null
    fi
    rm -f "$f"
}
rpcbind_up() { rpcinfo -p 127.0.0.1 >/dev/null 2>&1; }

start() {
    command -v ganesha.nfsd >/dev/null || { echo "ganesha-lo: ganesha.nfsd not installed (scripts/install-deps --test)" >&2; exit 1; }
    mkdir -p "$GDIR/export" "$GDIR/recov"
    if ! rpcbind_up; then
        mkdir -p /run/rpcbind
        chown _rpc:root /run/rpcbind 2>/dev/null || true
        rpcbind -f >"$GDIR/rpcbind.log" 2>&1 &
        echo $! >"$GDIR/rpcbind.pid"
        i=0
        while ! rpcbind_up && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
        rpcbind_up || { echo "ganesha-lo: rpcbind did not start" >&2; exit 1; }
    fi
    mem_export=""
    if ls /usr/lib/*/ganesha/libfsalmem.so >/dev/null 2>&1; then
        mem_export="EXPORT { Export_Id = 2; Path = /mem; Pseudo = /mem; FSAL { Name = MEM; } }"
    fi
    graceless=true
    [ -n "$GRACE" ] && graceless=false
    cat >"$GDIR/ganesha.conf" <<CONF
NFS_CORE_PARAM {
    Bind_addr = $BIND;
    NFS_Port = $NFS_PORT;
    MNT_Port = $MNT_PORT;
    Protocols = $PROTOCOLS;
    Enable_NLM = false;
    Enable_RQUOTA = false;
    Enable_UDP = true;
    mount_path_pseudo = $PSEUDO_MOUNT;
}
NFSv4 { Graceless = $graceless; ${GRACE:+Grace_Period = $GRACE;} RecoveryRoot = $GDIR/recov; ${LEASE:+Lease_Lifetime = $LEASE;} }
EXPORT_DEFAULTS {
    Access_Type = RW; Squash = No_Root_Squash; SecType = sys;
    Protocols = $PROTOCOLS; Transports = UDP, TCP;
}
EXPORT { Export_Id = 1; Path = $GDIR/export; Pseudo = /export; FSAL { Name = VFS; } }
$mem_export
LOG { Default_Log_Level = EVENT; }
CONF
    t0=$(date +%s%N)
    ganesha.nfsd -F -f "$GDIR/ganesha.conf" -L "$GDIR/ganesha.log" \
        -p "$GDIR/ganesha.pid" -N NIV_EVENT >/dev/null 2>&1 &
    pid=$!
    echo $pid >"$GDIR/ganesha.daemonpid"
    i=0
    while [ $i -lt 200 ]; do
        if rpcinfo -T tcp "$BIND" 100003 3 >/dev/null 2>&1 &&
            rpcinfo -p 127.0.0.1 2>/dev/null | grep -q " $NFS_PORT "; then
            t1=$(date +%s%N)
            echo "ganesha pid $pid on $BIND nfs $NFS_PORT mount $MNT_PORT ready in $(( (t1 - t0) / 1000000 )) ms"
            echo "nfs-ls 'nfs://$BIND$GDIR/export?nfsport=$NFS_PORT&mountport=$MNT_PORT'"
            return 0
        fi
        if ! alive "$pid"; then
            echo "ganesha-lo: ganesha exited:" >&2
            grep -E 'FATAL|MAJ' "$GDIR/ganesha.log" >&2 2>/dev/null | tail -5
            stop
            exit 1
        fi
        sleep 0.05; i=$((i + 1))
    done
    echo "ganesha-lo: ganesha not ready after 10 s" >&2
    stop
    exit 1
}

stop() {
    stop_pidfile "$GDIR/ganesha.daemonpid"
    rm -f "$GDIR/ganesha.pid"
    rmdir /run/ganesha 2>/dev/null || true
    if [ -f "$GDIR/rpcbind.pid" ]; then
        stop_pidfile "$GDIR/rpcbind.pid"
        rm -f /run/rpcbind.sock /run/rpcbind/*.xdr 2>/dev/null
    fi
    return 0
}

restart() {
    stop_pidfile "$GDIR/ganesha.daemonpid"
    rm -f "$GDIR/ganesha.pid"
    start
}

status() {
    for f in "$GDIR/ganesha.daemonpid" "$GDIR/rpcbind.pid"; do
        [ -f "$f" ] || continue
        pid=$(cat "$f")
        alive "$pid" && echo "$(basename "$f" .pid) $pid rss $(awk '/VmRSS/{print $2, $3}' /proc/$pid/status)"
    done
    rpcinfo -p 127.0.0.1 2>/dev/null | grep -E 'nfs|mountd'
}

case "${1:-}" in
start) start ;;
stop) stop ;;
restart) restart ;;
status) status ;;
*) echo "usage: GDIR=DIR $0 start|stop|restart|status" >&2; exit 2 ;;
esac
