# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib_prime.sh - helpers for the sfs_mgr / sfs_prime tests
# (08xx), sourced after lib.sh:
#   prime_rc FILE LINE...   writes an rc file, one NAME=value per argument
#   run_tag RC              the tag naming this run's client pid files
#   run_procs TAG           PIDs of every FreeSFS process of this test's
#                           runs (sfs_mgr, sfs_prime, clients, their
#                           children, the ssh processes that started them),
#                           found by the tag or $T_DIR on their command line
#   no_leftovers TAG [S]    true when run_procs is empty within S seconds
#   sumfield LINE N         field N of an sfssum line (1 = requested, with
#                           an INVALID flag dropped first)
# Every wait is bounded.

prime_rc() {
    local f=$1
    shift
    : >"$f"
    for l in "$@"; do printf '%s\n' "$l" >>"$f"; done
}

run_tag() {
    "$T_BIN/sfs_mgr" --check -r "$1" 2>/dev/null |
        sed -n 's/.*--pid-file=\/tmp\/freesfs-\([0-9a-f]*\)-CL.*/\1/p' | head -1
}

# run_procs TAG: the pids of the run's live processes (sfs_mgr and
# sfs_prime of this test, the clients of run TAG).  One ps for all: a loop
# over /proc that forks per process takes seconds on a busy machine with a
# few hundred processes, longer than the runs the tests look at.
run_procs() {
    ps -e -ww -o pid=,stat=,args= 2>/dev/null |
        awk -v self="$$" -v dir="$T_DIR" -v cl="freesfs-$1-CL" '
        $1 == self || $2 ~ /^Z/ { next }
        {
            a = $0; sub(/^ *[0-9]+ +[^ ]+ +/, "", a)
            if (a ~ /run_procs|awk|grep/) next
            # as the glob *sfs_mgr*DIR*: the program before the directory
            # (a test directory named after sfs_mgr is not the program)
            m = index(a, "sfs_mgr"); p = index(a, "sfs_prime")
            if ((m && index(substr(a, m + 7), dir)) || (p && index(substr(a, p + 9), dir)) ||
                index(a, cl))
                print $1
        }'
}

no_leftovers() {
    local tag=$1 s=${2:-10} i=0
    while [ $i -lt $((s * 10)) ]; do
        [ -z "$(run_procs "$tag")" ] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    diag "left running:" "$(for p in $(run_procs "$tag"); do tr '\0' ' ' <"/proc/$p/cmdline"; echo; done)"
    return 1
}

sumfield() {
    printf '%s\n' "$1" | sed 's/^ *INVALID *//' | awk -v n="$2" '{print $n}'
}

# wait_log FILE REGEX [TRIES]: waits (0.1 s steps) until FILE matches.
wait_log() {
    wait_for "grep -Eq -- '$2' '$1'" "${3:-300}" 0.1
}

# client_pid LOG N: the pid client N reported in its HELLO (the last one in
# the prime's log LOG).
client_pid() {
    sed -n "s/.*client $2 ([^)]*) connected from .* pid=\\([0-9]*\\) .*/\\1/p" "$1" | tail -1
}

# testbed_start PREFIX NET N: a test bed of N ssh hosts (scripts/testbed.sh,
# torn down when the test ends) and sfs_nfsd on the bridge address NET.1;
# sets TESTBED_DIR and TB_MOUNT (NET.1:PORT:/export).  Skips without root or
# sshd.
testbed_start() {
    need_root "network namespaces"
    command -v /usr/sbin/sshd >/dev/null || skip_all "needs openssh-server (scripts/install-deps)"
    export TESTBED_DIR=$T_DIR/tb TESTBED_PREFIX=$1 TESTBED_NET=$2
    at_exit "sh '$T_TOP/scripts/testbed.sh' down >/dev/null 2>&1"
    sh "$T_TOP/scripts/testbed.sh" up "$3" >"$T_DIR/tb.log" 2>&1 || {
        cat "$T_DIR/tb.log" >&2
        bail "the test bed did not come up"
    }
    "$T_BIN/sfs_nfsd" --foreground -b "$2.1" -p 0 -m 0 --export /export \
        >"$T_DIR/nfsd.log" 2>&1 &
    track $!
    wait_for "grep -q '^ready' '$T_DIR/nfsd.log'" 200 0.05 || bail "sfs_nfsd did not start"
    TB_MOUNT="$2.1:$(sed -n 's/^ready nfs [^ ]*:\([0-9]*\) .*/\1/p' "$T_DIR/nfsd.log"):/export"
}
