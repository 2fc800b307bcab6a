# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib.sh - shared helpers for the TAP integration tests.
#
# Source it first thing in every NNNN_<behaviour>.t:
#     . "$(dirname "$0")/lib.sh"
# It gives: TAP output (plan, ok, is, like, skip_all, diag), a private
# per-test directory ($T_DIR), per-test ports ($T_PORT_BASE, from the test
# number, so parallel tests never collide), start/stop of sfs_nfsd and
# nfs-ganesha on loopback, and a trap that stops every process the test
# started, by PID (docs/TESTING.md, "Network safety" and "Process hygiene").
#
# Safety: every address used here is on 127.0.0.0/8.  Every wait is bounded.

set -u

T_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
T_BIN=${FREESFS_BIN:-$T_TOP/bin}
T_NAME=$(basename "$0" .t)
T_NUM=$(printf '%s' "$T_NAME" | sed -n 's/^\([0-9][0-9]*\)_.*/\1/p')
T_NUM=$((10#${T_NUM:-9999}))
T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/freesfs-$T_NAME.XXXXXX")
# Ports: 10000 + 20 * (test number mod 1000); each test owns 20 ports, all
# below the kernel's ephemeral range (32768 and up) so that no outgoing
# connection can hold a port a test is about to bind.
T_PORT_BASE=$((10000 + 20 * (T_NUM % 1000)))
# Two checkouts' suites on one machine: with FREESFS_TEST_LOCK_DIR set, a
# test holds a lock named by its number while it runs, so that the same test
# of another checkout (the same ports, the same namespace test bed) waits
# for it instead of colliding; different tests still run side by side.
if [ -n "${FREESFS_TEST_LOCK_DIR:-}" ]; then
    exec 6>"$FREESFS_TEST_LOCK_DIR/test-$T_NUM.lock"
    flock 6
fi
T_FIXTURES=$T_TOP/tests/fixtures

_t_count=0
_t_failed=0
_t_pids=""
_t_cleanups=""

plan() { echo "1..$1"; }
diag() { printf '# %s\n' "$@" >&2; }
ok() {
    # ok STATUS "description": STATUS 0 means pass.  Like every check here
    # it returns false when it fails, so "is ... || diag MORE" says more.
    _t_count=$((_t_count + 1))
    if [ "$1" -eq 0 ]; then
        echo "ok $_t_count - $2"
    else
        echo "not ok $_t_count - $2"
        _t_failed=$((_t_failed + 1))
        return 1
    fi
}
pass() { ok 0 "$1"; }
fail() { ok 1 "$1"; }
is() {
    # is GOT EXPECTED "description"
    if [ "$1" = "$2" ]; then ok 0 "$3"; else
        ok 1 "$3"; diag "got:      '$1'" "expected: '$2'"; return 1
    fi
}
like() {
    # like TEXT EXTENDED-REGEX "description"
    if printf '%s' "$1" | grep -Eq -- "$2"; then ok 0 "$3"; else
        ok 1 "$3"; diag "text does not match /$2/:" "$(printf '%s' "$1" | head -20)"; return 1
    fi
}
unlike() {
    if printf '%s' "$1" | grep -Eq -- "$2"; then
        ok 1 "$3"; diag "text matches /$2/:" "$(printf '%s' "$1" | grep -E -- "$2" | head -5)"; return 1
    else ok 0 "$3"; fi
}
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
# todo_is GOT EXPECTED "description" "the known bug": a check of a bug known
# and not yet fixed (docs/TESTING.md "Known gaps"), reported as TAP's TODO:
# its failure is shown, and does not fail the test; once it passes, prove
# says so (an unexpected success), and the check goes back to is.
todo_is() {
    _t_count=$((_t_count + 1))
    if [ "$1" = "$2" ]; then echo "ok $_t_count - $3 # TODO $4"; else
        echo "not ok $_t_count - $3 # TODO $4"; diag "got:      '$1'" "expected: '$2'"
    fi
}
skip() { _t_count=$((_t_count + 1)); echo "ok $_t_count # SKIP $*"; }
# bail WHY: this test cannot go on - a failed check and exit 1.  Not TAP's
# "Bail out!", which stops prove's whole run: one test that could not start
# its server on a busy machine hid every later test's result.
bail() {
    _t_count=$((_t_count + 1))
    echo "not ok $_t_count - cannot go on: $*"
    exit 1
}

# alive PID: true when the process exists and is not a zombie (section 9).
alive() {
    [ -r "/proc/$1/stat" ] || return 1
    [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != "Z" ]
}

# track PID: stop it (TERM, bounded wait, KILL) when the test ends.
track() { _t_pids="$_t_pids $1"; }
# at_exit "command": run it when the test ends (after stopping tracked PIDs).
at_exit() { _t_cleanups="$_t_cleanups
$1"; }

# start_cpu_hogs: one busy loop per core beside the test, as other work
# loads a shared machine; their PIDs in HOGS, tracked (stop_pid each to
# end them earlier).
start_cpu_hogs() {
    local c
    HOGS=""
    for c in $(seq "$(nproc)"); do
        sh -c 'while :; do :; done' &
        HOGS="$HOGS $!"
        track "$!"
    done
}

stop_pid() {
    local pid=$1 i=0
    alive "$pid" || return 0
    kill -TERM "$pid" 2>/dev/null
    while alive "$pid" && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    if alive "$pid"; then kill -KILL "$pid" 2>/dev/null; fi
    wait "$pid" 2>/dev/null
    return 0
}

_t_exit() {
    local rc=$? p
    for p in $_t_pids; do stop_pid "$p"; done
    eval "$_t_cleanups"
    if [ -z "${KEEP_TEST_DIR:-}" ]; then rm -rf "$T_DIR"; else diag "kept $T_DIR"; fi
    [ $_t_failed -gt 0 ] && rc=1
    exit $rc
}
trap _t_exit EXIT
trap 'exit 130' INT TERM

# T_MS: a response time as the reports print it (ld_ms_decimals): two
# decimals below 10 ms, one from 10 ms up.  A check of the format uses it,
# so that it holds whatever a busy machine does to the times.
T_MS='([0-9]\.[0-9]{2}|[1-9][0-9]+\.[0-9])'

# rate_reached TPUT RATE SECONDS YAML: 0 when a load run's throughput TPUT
# is its requested RATE within 1 %, less only what the clients' pacing says
# it lost (YAML's pacing: behind_schedule_s and dropped_after_stalls_s,
# each child's average, of a SECONDS run): on a quiet machine nothing, on
# a busy one the time a starved client fell behind or gave up.  Prints the
# bounds it used.
rate_reached() {
    local lost
    lost=$(awk '/^ *(behind_schedule_s|dropped_after_stalls_s):/ {s += $2} END {print s + 0}' "$4" 2>/dev/null)
    awk -v t="$1" -v r="$2" -v d="$3" -v l="${lost:-0}" 'BEGIN {
        lo = r * 0.99 * (1 - l / d); printf "%.1f-%.1f", lo, r * 1.01
        exit !(t != "" && t >= lo && t <= r * 1.01) }'
}

# wait_for "command" [tries] [delay]: polls until the command succeeds.
wait_for() {
    local cmd=$1 tries=${2:-200} delay=${3:-0.05} i=0
    while [ $i -lt "$tries" ]; do
        eval "$cmd" >/dev/null 2>&1 && return 0
        sleep "$delay"; i=$((i + 1))
    done
    return 1
}

need_root() { [ "$(id -u)" -eq 0 ] || skip_all "needs root: $*"; }
need_cmd() { command -v "$1" >/dev/null 2>&1 || skip_all "needs $1 (scripts/install-deps)"; }
# need_python_yaml: python3 and its yaml module, which the tests' readers of
# YAML results and of tshark's output (tests/tools/*.py) import
need_python_yaml() {
    need_cmd python3
    python3 -c 'import yaml' 2>/dev/null || skip_all "needs python3-yaml (scripts/install-deps)"
}

# ---- sfs_nfsd ---------------------------------------------------------------

# start_nfsd NAME [extra sfs_nfsd options...]: starts bin/sfs_nfsd on
# 127.0.0.1, lets it pick free ports (-p 0 -m 0: no fixed port can be taken
# by another test or by a client's source port), waits for its "ready" line
# and reads the ports back from it.  Sets NAME_PID, NAME_NFS_PORT,
# NAME_MNT_PORT, NAME_URL (host:port:/export form), NAME_NFSURL
# (nfs://...?mountport=) and NAME_LNFS_URL (libnfs-utils form).
start_nfsd() {
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
    # the same export as libnfs-utils (nfs-ls, nfs-cp, nfs-cat) spell it
    eval "${name}_LNFS_URL='nfs://127.0.0.1/export?nfsport=$nfs&mountport=$mnt'"
    return 0
}

# start_restartable [extra sfs_nfsd options...]: a daemonized sfs_nfsd
# (--pidfile $T_DIR/r.pid) on free ports, R_NFS and R_MNT set, and
# $T_DIR/restart.sh, a restart command for sfs3 -V --restart-cmd: stops it
# by its pid and starts it again with the same ports and options.  The
# server that runs at the end is stopped.
start_restartable() {
    local opts="" o
    for o in "$@"; do opts="$opts '$o'"; done
    "$T_BIN/sfs_nfsd" -b 127.0.0.1 -p 0 -m 0 --export /export "$@" \
        --pidfile "$T_DIR/r.pid" >"$T_DIR/r.ready" 2>&1 || return 1
    track "$(cat "$T_DIR/r.pid")"
    R_NFS=$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$T_DIR/r.ready")
    R_MNT=$(sed -n 's/.* mount [^ ]*:\([0-9]*\) .*/\1/p' "$T_DIR/r.ready")
    cat >"$T_DIR/restart.sh" <<EOF
pid=\$(cat '$T_DIR/r.pid'); kill -TERM "\$pid"
i=0; while kill -0 "\$pid" 2>/dev/null && [ \$i -lt 100 ]; do sleep 0.05; i=\$((i + 1)); done
'$T_BIN/sfs_nfsd' -b 127.0.0.1 -p $R_NFS -m $R_MNT --export /export$opts --pidfile '$T_DIR/r.pid'
EOF
    at_exit "stop_pid \$(cat '$T_DIR/r.pid' 2>/dev/null || echo 0)"
}

# ---- programs that wait for Return (-i) ------------------------------------------

# prompted_start COMMAND...: starts COMMAND (e.g. sfs3 -i ...) with its
# standard input on a private fifo, its output in $T_DIR/out and
# $T_DIR/err, and waits (bounded) for its "Hit <return>" prompt, so that a
# test can look at a server between the preparation and the run.  Sets
# PROMPTED_PID.  Returns 1 (the prompt never came) after closing the fifo.
prompted_start() {
    # the old output goes first: the redirections below happen in the child,
    # after this shell may already look for the prompt
    rm -f "$T_DIR/in" "$T_DIR/out" "$T_DIR/err" && mkfifo "$T_DIR/in"
    exec 7<>"$T_DIR/in"
    "$@" <"$T_DIR/in" >"$T_DIR/out" 2>"$T_DIR/err" &
    PROMPTED_PID=$!
    track "$PROMPTED_PID"
    if ! wait_for "grep -q 'Hit <return>' '$T_DIR/err'" 1200 0.05; then
        diag "no prompt:" "$(tail -5 "$T_DIR/err")"
        exec 7>&-
        return 1
    fi
}

# prompted_go: presses Return and waits for the program; sets PROMPTED_RC.
prompted_go() {
    echo >&7
    wait "$PROMPTED_PID"
    PROMPTED_RC=$?
    exec 7>&-
}

# nfsd_stat NAME KEY: a counter from sfs_nfsd NAME's --stats-file (which
# must be $T_DIR/NAME.yaml), written afresh through SIGUSR1.
nfsd_stat() {
    rm -f "$T_DIR/$1.yaml"; kill -USR1 "$(eval echo \$${1}_PID)"
    wait_for "[ -s '$T_DIR/$1.yaml' ]" 100 0.05
    sed -n "s/^ *$2: //p" "$T_DIR/$1.yaml" | head -1
}

# nfsd_stat_in NAME SECTION KEY: a counter of one section of sfs_nfsd
# NAME's --stats-file (nfs_v4's read, not nfs_v2's), written afresh.
nfsd_stat_in() {
    nfsd_stat "$1" calls_answered >/dev/null
    awk -v sec="$2:" -v key="$3:" '$1 == sec { s = 1; next } /^[^ ]/ { s = 0 }
        s && $1 == key { print $2; exit }' "$T_DIR/$1.yaml"
}

# sfs4_ends_clean NAME ARGS...: sfs4 ARGS against sfs_nfsd NAME (started
# with --stats-file $T_DIR/NAME.yaml), a 3 s run that ends normally (its
# YAML kept in $T_DIR/run.yaml, stderr in run.err), then a 60 s run
# interrupted by SIGINT to its process group once the run phase started:
# after each, no client, session or process is left and no
# DESTROY_CLIENTID was refused. 6 checks.
sfs4_ends_clean() {
    local name=$1 url pid left rc
    shift
    url=$(eval echo "\$${name}_URL")
    "$T_BIN/sfs4" "$@" -t 3 --progress 0 --yaml "$T_DIR/run.yaml" "$url" \
        >"$T_DIR/run.out" 2>"$T_DIR/run.err"
    rc=$?
    is "$rc" 0 "sfs4 exits 0"
    [ "$rc" = 0 ] || diag "$(tail -3 "$T_DIR/run.err")"
    is "$(nfsd_stat "$name" clients)/$(nfsd_stat "$name" sessions)" "0/0" \
        "normal end: no client or session left"
    is "$(grep -c CLIENTID_BUSY "$T_DIR/run.err")" 0 "normal end: no DESTROY_CLIENTID refused"
    setsid "$T_BIN/sfs4" "$@" -t 60 --progress 0 "$url" >"$T_DIR/int.out" 2>"$T_DIR/int.err" &
    pid=$!
    track "$pid"
    wait_for "grep -q 'Starting 60 seconds' '$T_DIR/int.err'" 600 0.05
    kill -INT -- "-$pid"
    wait "$pid"
    is "$?" 130 "SIGINT: exit 130"
    left=$(pgrep -g "$pid" | tr '\n' ' ')
    is "$(nfsd_stat "$name" clients)/$(nfsd_stat "$name" sessions)/$left" "0/0/" \
        "SIGINT: no client, session or process left"
    is "$(grep -c CLIENTID_BUSY "$T_DIR/int.err")" 0 "SIGINT: no DESTROY_CLIENTID refused"
}

# ---- nfs-ganesha -------------------------------------------------------------

# capture_if_root: cap=1 with lib_nfscap.sh loaded (cap_start and the
# tshark checks) when the test runs as root with tshark and dumpcap, so
# that it checks the wire too; else cap=0 and it runs without those checks.
capture_if_root() {
    cap=0
    if [ "$(id -u)" -eq 0 ] && command -v tshark >/dev/null && command -v dumpcap >/dev/null; then
        cap=1
        . "$T_TOP/tests/integration/lib_nfscap.sh"
    fi
}

# ganesha_lock SECONDS: holds the machine-wide ganesha lock on fd 9 until
# the test ends (one rpcbind, ganesha's registrations would clash:
# docs/TESTING.md, "One rpcbind, several servers"); non-zero when it stayed
# taken for SECONDS.  Under prove, tests/tools/with-timeout has already
# taken it for a test whose text names start_ganesha or ganesha_lock,
# before the test's clock started (FREESFS_GANESHA_LOCKED=1): opening the
# lock file again here would wait for ourselves.
ganesha_lock() {
    [ "${FREESFS_GANESHA_LOCKED:-}" = 1 ] && return 0
    exec 9>"${TMPDIR:-/tmp}/freesfs-ganesha.lock"
    flock -w "$1" 9
}

# start_ganesha: starts a private nfs-ganesha (FSAL VFS + MEM) on 127.0.0.1
# through scripts/ganesha-lo.sh, serialised across parallel tests and
# benches with ganesha_lock.
# Sets GANESHA_URL (VFS export, nfs:// form with explicit ports, also usable
# by libnfs-utils), GANESHA_MEM_URL, GANESHA_NFS_PORT, GANESHA_MNT_PORT and
# GANESHA_DIR (its export is $GANESHA_DIR/export, a real directory).  Skips the whole test when ganesha or root
# is missing.
start_ganesha() {
    need_root "nfs-ganesha"
    need_cmd ganesha.nfsd
    need_cmd rpcbind
    ganesha_lock 600 || bail "could not take the ganesha lock in 600 s"
    GANESHA_DIR=$T_DIR/ganesha
    local port=$((T_PORT_BASE + 18))
    export GDIR=$GANESHA_DIR BIND=127.0.0.1 NFS_PORT=$port MNT_PORT=$((port + 1))
    if ! sh "$T_TOP/scripts/ganesha-lo.sh" start >"$T_DIR/ganesha-start.log" 2>&1; then
        diag "ganesha did not start:" "$(tail -20 "$T_DIR/ganesha-start.log")"
        GDIR=$GANESHA_DIR sh "$T_TOP/scripts/ganesha-lo.sh" stop >/dev/null 2>&1
        bail "nfs-ganesha failed to start"
    fi
    at_exit "GDIR='$GANESHA_DIR' sh '$T_TOP/scripts/ganesha-lo.sh' stop >/dev/null 2>&1"
    GANESHA_NFS_PORT=$port
    GANESHA_MNT_PORT=$((port + 1))
    # ganesha serves MOUNT on its own port, so only the nfs:// form with
    # mountport= reaches it without rpcbind.
    GANESHA_URL="nfs://127.0.0.1:$port$GANESHA_DIR/export?mountport=$GANESHA_MNT_PORT"
    GANESHA_MEM_URL="nfs://127.0.0.1:$port/mem?mountport=$GANESHA_MNT_PORT"
    GANESHA_NFSURL=$GANESHA_URL
    GANESHA_LNFS_URL="nfs://127.0.0.1$GANESHA_DIR/export?nfsport=$port&mountport=$GANESHA_MNT_PORT"
}

# ganesha_restarted_run N SECONDS SFS4-OPTION...: an sfs4 run of two
# processes against start_ganesha's export (its report in $T_DIR/outN,
# standard error in errN, results in rN.yaml) with ganesha stopped by its
# PID SECONDS into the run phase and started again in the same GDIR
# (scripts/ganesha-lo.sh restart: the same ports, export and recovery
# root), as a server is restarted; one check that it was.
# $RESTART_CLIENTS: how many client records (sfs4's owners) ganesha's
# recovery root held just before.  Returns sfs4's exit code.
ganesha_restarted_run() {
    local n=$1 secs=$2 run old new
    shift 2
    "$T_BIN/sfs4" -l 100 -p 2 -w 2 -F 300 -a 25 --progress 0 "$@" \
        --yaml "$T_DIR/r$n.yaml" "127.0.0.1:$GANESHA_NFS_PORT:/export" >"$T_DIR/out$n" \
        2>"$T_DIR/err$n" &
    run=$!
    track "$run"
    wait_for "grep -q 'test run' '$T_DIR/err$n'" 1200 0.1 || bail "run $n did not start"
    sleep "$secs"
    old=$(cat "$GANESHA_DIR/ganesha.daemonpid")
    RESTART_CLIENTS=$(find "$GANESHA_DIR/recov" -mindepth 1 2>/dev/null | grep -c 'freesfs')
    GDIR=$GANESHA_DIR sh "$T_TOP/scripts/ganesha-lo.sh" restart >"$T_DIR/restart$n.log" 2>&1 ||
        bail "ganesha did not start again: $(tail -3 "$T_DIR/restart$n.log")"
    new=$(cat "$GANESHA_DIR/ganesha.daemonpid")
    ok "$([ "$old" != "$new" ] && ! alive "$old"; echo $?)" \
        "run $n: ganesha stopped by its pid ($old) and started again ($new) on port $GANESHA_NFS_PORT"
    wait_for "! alive $run" 1200 0.1
    wait "$run"
}

# ---- test helper programs ---------------------------------------------------

# tool_path NAME: prints the path of the tests/tools program NAME from the
# same build as $T_BIN (build/<id>/tools beside build/<id>/bin), else from
# the default build (build/linux/tools); fails when it is not built.
tool_path() {
    local d
    for d in "$T_BIN/../tools" "$T_TOP/build/linux/tools"; do
        [ -x "$d/$1" ] && { echo "$d/$1"; return 0; }
    done
    return 1
}
