#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# scripts/testbed.sh - a multi-host test bed on one machine
# (docs/TESTING.md, "The namespace test bed"): N network namespaces joined by a bridge,
# each with its own sshd and host name (client1, client2, ...), so that
# sfs_mgr can start clients over ssh exactly as on separate hosts.
#
#   scripts/testbed.sh up N     build it (run as root)
#   scripts/testbed.sh down     tear it down (every process by its PID)
#   scripts/testbed.sh status   addresses and processes
#
# Settings (environment):
#   TESTBED_DIR     its files: keys, ssh_config, sshd configs, logs, PIDs
#                   (default /tmp/freesfs-testbed)
#   TESTBED_PREFIX  names of the namespaces (PREFIXc1...), the bridge
#                   (PREFIXbr) and veths (PREFIXv1...); at most 8 characters
#                   (default fstb)
#   TESTBED_NET     the first three octets of the subnet, inside
#                   10.200.0.0-10.255.255.255 (default 10.213.0)
# The bridge gets NET.1 in the root namespace (the server binds there);
# client i gets NET.(10+i).  No default route in the namespaces, ip_forward
# untouched, IPv6 off on every interface of the bed: no packet can leave the
# machine.  `ssh -F $TESTBED_DIR/ssh_config clientI` reaches client I.
# Every wait is bounded.
set -u
cmd=${1:-}
DIR=${TESTBED_DIR:-/tmp/freesfs-testbed}
PFX=${TESTBED_PREFIX:-fstb}
NET=${TESTBED_NET:-10.213.0}
BR=${PFX}br
MARKS=/tmp/freesfs-testbeds

die() { echo "testbed: $*" >&2; exit 1; }

check_settings() {
    [ ${#PFX} -le 8 ] || die "TESTBED_PREFIX '$PFX' is longer than 8 characters"
    case "$PFX" in *[!a-z0-9]*) die "TESTBED_PREFIX must be lower-case letters and digits" ;; esac
    case "$NET" in
    10.2[0-5][0-9].[0-9]*) ;;
    *) die "TESTBED_NET '$NET' is not inside 10.200.0.0-10.255.255.255" ;;
    esac
    o2=$(echo "$NET" | cut -d. -f2)
    o3=$(echo "$NET" | cut -d. -f3)
    [ "$o2" -ge 200 ] && [ "$o2" -le 255 ] && [ "$o3" -ge 0 ] && [ "$o3" -le 255 ] ||
        die "TESTBED_NET '$NET' is not inside 10.200.0.0-10.255.255.255"
}

alive() {
    [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]
}

stop_pid() {
    pid=$1
    alive "$pid" || return 0
    kill -TERM "$pid" 2>/dev/null
    i=0
    while alive "$pid" && [ $i -lt 50 ]; do sleep 0.05; i=$((i + 1)); done
    alive "$pid" && kill -KILL "$pid" 2>/dev/null
    return 0
}

up() {
    n=${1:-3}
    [ "$(id -u)" -eq 0 ] || die "needs root"
    command -v /usr/sbin/sshd >/dev/null || die "needs openssh-server (scripts/install-deps)"
    [ -e "/sys/class/net/$BR" ] && die "$BR exists already (testbed.sh down first)"
    mkdir -p "$DIR" "$MARKS" /run/sshd || die "cannot create $DIR"
    chmod 0755 /run/sshd
    touch "$MARKS/$PFX"
    [ -f "$DIR/id" ] || ssh-keygen -q -t ed25519 -N '' -f "$DIR/id" || die "ssh-keygen"
    [ -f "$DIR/hostkey" ] || ssh-keygen -q -t ed25519 -N '' -f "$DIR/hostkey" || die "ssh-keygen"
    cp "$DIR/id.pub" "$DIR/authorized_keys" && chmod 600 "$DIR/authorized_keys"
    : >"$DIR/ssh_config"
    : >"$DIR/sshd.pids"
    ip link add "$BR" type bridge || die "ip link add $BR"
    sysctl -qw "net.ipv6.conf.$BR.disable_ipv6=1"
    ip addr add "$NET.1/24" dev "$BR"
    ip link set "$BR" up
    i=1
    while [ $i -le "$n" ]; do
        ns=${PFX}c$i
        v=${PFX}v$i
        ip netns add "$ns" || die "ip netns add $ns"
        ip link add "$v" type veth peer name eth0 netns "$ns" || die "veth $v"
        sysctl -qw "net.ipv6.conf.$v.disable_ipv6=1"
        ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
        ip link set "$v" master "$BR" up
        ip netns exec "$ns" ip addr add "$NET.$((10 + i))/24" dev eth0
        ip netns exec "$ns" ip link set lo up
        ip netns exec "$ns" ip link set eth0 up
        cat >"$DIR/sshd_$i.conf" <<EOF
ListenAddress $NET.$((10 + i)):22
HostKey $DIR/hostkey
PidFile $DIR/sshd_$i.pid
AuthorizedKeysFile $DIR/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
UseDNS no
MaxStartups 100:30:200
MaxSessions 100
Subsystem sftp /usr/lib/openssh/sftp-server
EOF
        ip netns exec "$ns" unshare --uts sh -c \
            "hostname client$i; exec /usr/sbin/sshd -D -e -f '$DIR/sshd_$i.conf'" \
            >"$DIR/sshd_$i.log" 2>&1 &
        echo "$! $ns" >>"$DIR/sshd.pids"
        cat >>"$DIR/ssh_config" <<EOF
Host client$i
    HostName $NET.$((10 + i))
    User root
    IdentityFile $DIR/id
    IdentitiesOnly yes
    StrictHostKeyChecking no
    UserKnownHostsFile /dev/null
    LogLevel ERROR
    BatchMode yes
    ConnectTimeout 5
EOF
        i=$((i + 1))
    done
    i=1
    while [ $i -le "$n" ]; do
        t=0
        until ssh -F "$DIR/ssh_config" "client$i" true 2>/dev/null; do
            t=$((t + 1))
            [ $t -ge 50 ] && die "client$i: sshd does not answer (see $DIR/sshd_$i.log)"
            sleep 0.1
        done
        i=$((i + 1))
    done
    echo "testbed: $n client(s) up on $BR ($NET.1); ssh -F $DIR/ssh_config clientI"
}

down() {
    if [ -f "$DIR/sshd.pids" ]; then
        while read -r pid ns; do stop_pid "$pid"; done <"$DIR/sshd.pids"
        rm -f "$DIR/sshd.pids"
    fi
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${PFX}c[0-9]*$"); do
        for pid in $(ip netns pids "$ns" 2>/dev/null); do stop_pid "$pid"; done
        ip netns del "$ns" 2>/dev/null
    done
    [ -e "/sys/class/net/$BR" ] && ip link del "$BR" 2>/dev/null
    t=0
    while ls /sys/class/net 2>/dev/null | grep -q "^${PFX}v[0-9]*$" && [ $t -lt 50 ]; do
        sleep 0.1
        t=$((t + 1))
    done
    rm -f "$MARKS/$PFX"
    # /run/sshd is shared by every test bed of the machine: only the last goes
    rmdir "$MARKS" 2>/dev/null && rmdir /run/sshd 2>/dev/null
    return 0
}

status() {
    ip -br addr show "$BR" 2>/dev/null || echo "no bridge $BR"
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^${PFX}c[0-9]*$"); do
        echo "$ns: $(ip netns exec "$ns" ip -br -4 addr show eth0 2>/dev/null | awk '{print $3}')" \
            "pids: $(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')"
    done
}

check_settings
case "$cmd" in
up) shift; up "$@" ;;
down) down ;;
status) status ;;
*) echo "usage: $0 up N | down | status" >&2; exit 2 ;;
esac
