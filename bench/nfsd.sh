#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# bench/nfsd.sh - sfs_nfsd against nfs-ganesha (FSAL VFS, NFSv3 and NFSv4
# on) on the same machine in the same run (the "sfs_nfsd" section of
# docs/PERFORMANCE.md).  Three kinds of rows, each with OUTSTANDING (default
# 64) calls in flight on one connection:
#   - NFSv3 GETATTR over UDP and TCP, driven by sfs_ping (the project's
#     engine) and, over TCP, by the bare libnfs raw-async loop
#     (bench/lnfs_getattr);
#   - NFSv4.1 compounds over TCP, driven by sfs_ping -4 (one session, a slot
#     per call in flight): SEQUENCE PUTFH GETATTR, the LOOKUP of a file and
#     the READ of it - when the sfs_ping used speaks NFSv4 (else skipped);
#   - the v3 SFS mix with 16 load processes over TCP (sfs3 -Q -p 16) asked
#     for more than either server gives: its throughput is the peak of
#     client and server sharing the machine, and the server's CPU time per
#     call is taken from /proc (MIX=0 skips these rows);
#   - the v4.1 SFS mix the same way, 16 sfs4 processes (one NFSv4.1 client
#     and session each), when bin/ has sfs4.
# Rounds alternate between the two servers so that a busy machine hurts
# both alike; prints the median and range of ROUNDS rounds per row, and
# the median and range of the sfs_nfsd/ganesha ratios of rounds run next
# to each other.  ganesha needs root: without it only the
# sfs_nfsd rows are measured.  PIN=1 runs the servers on CPU 0 and every
# client on CPU 1 (taskset; ganesha's threads all on CPU 0), so that client
# and server do not share a core (other work on the machine still may).
# COUNT, OUTSTANDING, ROUNDS, MIX_LOAD, MIX_SECONDS override; BENCH_BUILD names the build directory, SFS_PING the
# sfs_ping to use (default $FREESFS_BIN/sfs_ping).
cd "$(dirname "$0")/.." || exit 1
. bench/lib.sh
bench_init nfsd
count=${COUNT:-200000}
outs=${OUTSTANDING:-64}
rounds=${ROUNDS:-3}
mix_load=${MIX_LOAD:-200000}
mix_s=${MIX_SECONDS:-8}
port=29970 # fixed loopback ports for the bench's own servers
ping=${SFS_PING:-$bin/sfs_ping}
bench_need "$bin/sfs_nfsd" "$ping" "$bin/sfs3"
mix4=0
[ -x "$bin/sfs4" ] && mix4=1
lnfs=$build/bench/lnfs_getattr
[ -x "$lnfs" ] || lnfs=
v4=0
"$ping" --help 2>&1 | grep -q -- '--minor' && v4=1
[ $v4 = 1 ] || echo "nfsd: $ping speaks no NFSv4: the NFSv4 rows are skipped"

srv_pin= cli_pin=
if [ "${PIN:-0}" = 1 ]; then
    srv_pin="taskset -c 0" cli_pin="taskset -c 1"
fi
# shellcheck disable=SC2086 # an empty pin is no word
bench_spawn "$tmp/nfsd.log" $srv_pin "$bin/sfs_nfsd" -f -b 127.0.0.1 -p $port -m $((port + 1))
nfsd_pid=${pids##* }
GANESHA_PROTOCOLS="3, 4" bench_ganesha $((port + 5)) $((port + 6))
[ -n "$srv_pin" ] && [ $ganesha = 1 ] &&
    taskset -a -p -c 0 "$(cat "$tmp/g/ganesha.daemonpid")" >/dev/null
bench_wait_ready "$tmp/nfsd.log"

# a file to LOOKUP and READ over NFSv4 in each export
head -c 4096 /dev/zero >"$tmp/f4k"
if [ $v4 = 1 ]; then
    nfs-cp "$tmp/f4k" "nfs://127.0.0.1/export/f4k?nfsport=$port&mountport=$((port + 1))" \
        >/dev/null 2>&1 || { echo "nfsd: nfs-cp failed: the NFSv4 rows are skipped"; v4=0; }
    [ $ganesha = 1 ] && cp "$tmp/f4k" "$tmp/g/export/f4k"
fi
# the SFS mix's file set, made once per server and version
mix_mount() { # NAME VERSION: the mount point of that server
    if [ "$1" = sfs_nfsd ]; then
        echo "127.0.0.1:$port:/export"
    elif [ "$2" = 4 ]; then # ganesha's NFSv4 path is its pseudo path
        echo "127.0.0.1:$((port + 5)):/export"
    else
        echo "nfs://127.0.0.1:$((port + 5))$tmp/g/export?mountport=$((port + 6))"
    fi
}
if [ "${MIX:-1}" = 1 ]; then
    for s in sfs_nfsd ganesha; do
        [ $s = ganesha ] && [ $ganesha = 0 ] && continue
        "$bin/sfs3" -Q -p 16 -F 16000 -P "$(mix_mount $s 3)" >"$tmp/pop.$s" 2>&1 ||
            echo "nfsd: populating $s failed: $(tail -1 "$tmp/pop.$s")"
        [ $mix4 = 1 ] && { "$bin/sfs4" -p 16 -F 16000 -P "$(mix_mount $s 4)" >"$tmp/pop4.$s" 2>&1 ||
            echo "nfsd: populating $s over NFSv4.1 failed: $(tail -1 "$tmp/pop4.$s")"; }
    done
fi

# measure NAME COMMAND...: appends "NAME calls/s" to rows
measure() {
    name=$1; shift
    # shellcheck disable=SC2086
    out=$($cli_pin "$@" 2>&1) || { echo "nfsd: $name failed: $(echo "$out" | tail -1)"; return; }
    echo "$name $(echo "$out" | awk '$1 == "ops/s" { print $2 }') $r" >>"$tmp/rows"
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
# mix NAME PID VERSION: the SFS mix's peak over NFSv3 (sfs3) or NFSv4.1
# (sfs4), and the server's CPU per call
mix() {
    if [ "$3" = 4 ]; then set -- "$1" "$2" 4 "$bin/sfs4" mix4_sfs4_p16 mix4_server_cpu_us
    else set -- "$1" "$2" 3 "$bin/sfs3 -Q" mix_sfs3_p16 mix_server_cpu_us; fi
    t0=$(cpu_ticks "$2")
    # shellcheck disable=SC2086 # $4 is the program and its -Q
    $cli_pin $4 -p 16 -l "$mix_load" -F 16000 -w 2 -t "$mix_s" "$(mix_mount "$1" "$3")" \
        >"$tmp/mix.out" 2>&1
    t1=$(cpu_ticks "$2")
    awk -v n="$1" -v r="$r" -v ticks=$((t1 - t0)) -v hz="$(getconf CLK_TCK)" -v s="$mix_s" \
        -v row="$5" -v cpu="$6" '
        /THROUGHPUT:/ { ops = $4 }
        END {
            if (ops == "") exit 1
            # ticks cover the warm-up (2 s) too: per call over its length
            printf "%s_%s %s %d\n%s_%s %.2f %d\n", n, row, ops, r, n, cpu,
                ticks / hz * 1e6 / (ops * (s + 2)), r
        }' "$tmp/mix.out" >>"$tmp/rows" ||
        echo "nfsd: $1 v$3 mix failed: $(tail -1 "$tmp/mix.out")"
}
# one server's rows: NAME NFSPORT MOUNTPORT EXPORT PID
server_rows() {
    m="nfs://127.0.0.1:$2$4?mountport=$3"
    measure "$1_udp_sfs_ping" "$ping" -3 -c "$count" -o "$outs" "$m"
    measure "$1_tcp_sfs_ping" "$ping" -3 -Q -c "$count" -o "$outs" "$m"
    [ -n "$lnfs" ] && measure "$1_tcp_libnfs" "$lnfs" -c "$count" -o "$outs" -n "$2" -m "$3" -e "$4"
    if [ $v4 = 1 ]; then # ganesha's NFSv4 path is its pseudo path, /export
        measure "$1_v4_getattr" "$ping" -4 -c "$count" -o "$outs" -p getattr "127.0.0.1:$2:/export"
        measure "$1_v4_lookup" "$ping" -4 -c "$count" -o "$outs" -p lookup -n f4k "127.0.0.1:$2:/export"
        measure "$1_v4_read_4k" "$ping" -4 -c "$count" -o "$outs" -p read -n f4k "127.0.0.1:$2:/export"
    fi
    [ "${MIX:-1}" = 1 ] && mix "$1" "$5" 3
    [ "${MIX:-1}" = 1 ] && [ $mix4 = 1 ] && mix "$1" "$5" 4
    printf '%s round %s done, load average %s\n' "$1" "$r" "$(cut -d' ' -f1-3 /proc/loadavg)"
}
for r in $(seq "$rounds"); do
    server_rows sfs_nfsd $port $((port + 1)) /export "$nfsd_pid"
    [ $ganesha = 1 ] &&
        server_rows ganesha $((port + 5)) $((port + 6)) "$tmp/g/export" "$(cat "$tmp/g/ganesha.daemonpid")"
done

echo "$count calls per row ($outs in flight), the SFS mix $mix_s s; median (range) of $rounds rounds:"
printf '%-28s %12s  %s\n' row "calls/s" range
# rows: NAME VALUE ROUND
sort -k1,1 -k2,2n "$tmp/rows" | awk -v rounds="$rounds" '
    function isort(a, m,    x, y, t) { # mawk has no asort
        for (x = 2; x <= m; x++)
            for (y = x; y > 1 && a[y - 1] > a[y]; y--) { t = a[y]; a[y] = a[y - 1]; a[y - 1] = t }
    }
    {
        v[$1, ++n[$1]] = $2; at[$1, $3] = $2
        if (!($1 in seen)) { seen[$1] = 1; order[++k] = $1 }
    }
    END {
        for (i = 1; i <= k; i++) {
            r = order[i]; med[r] = v[r, int((n[r] + 1) / 2)]
            printf "%-28s %12.2f  (%.2f-%.2f)\n", r, med[r], v[r, 1], v[r, n[r]]
        }
        # the ratio of each round (round j of one server ran next to round
        # j of the other): their median and range
        for (i = 1; i <= k; i++) {
            r = order[i]; if (r !~ /^sfs_nfsd_/) continue
            g = r; sub(/^sfs_nfsd_/, "ganesha_", g)
            m = 0; delete q
            for (j = 1; j <= rounds; j++)
                if ((r, j) in at && (g, j) in at && at[g, j] > 0)
                    q[++m] = at[r, j] / at[g, j]
            if (m == 0) continue
            isort(q, m)
            printf "%s: sfs_nfsd/ganesha %.2f (%.2f-%.2f)\n", substr(r, 10), q[int((m + 1) / 2)], q[1], q[m]
        }
    }'
