#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# The prime and its clients cannot choose different workloads
# (docs/sfs_mgr.md, "Workloads"): a TRACE_FILE the prime cannot read (here
# sfs_mgr runs in a mount namespace where the trace's path is an unreadable
# sysfs file) but its clients can (a stand-in launcher, RSH="... %h",
# starts them back in this test's namespace) leaves the choice to the
# clients: --check says so, sfs_mgr asks them before the first point, the
# clients say nfs-replay and the run is an NFS replay; WORKLOAD names the
# workload without asking; the prime passes the workload it chose to the
# clients by name.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
need_root "mount namespaces"
need_cmd unshare
need_cmd nsenter
[ -e /sys/bus/pci/rescan ] || skip_all "no write-only sysfs file to hide the trace with"
plan 9
cd "$T_DIR" || bail "no test dir"
start_nfsd srv || bail "sfs_nfsd did not start"
cp "$T_FIXTURES/nfsdump/nreplay-deps.txt" "$T_DIR/t.txt"

# onhost HOST COMMAND...: runs the command in this test's mount namespace
cat >onhost <<EOS
#!/bin/sh
shift
exec nsenter --mount=/proc/$$/ns/mnt -- "\$@"
EOS
chmod +x onhost
# hidden COMMAND...: runs the command where t.txt cannot be read
hidden() {
    unshare --mount --propagation private sh -c \
        'mount --bind /sys/bus/pci/rescan "$0" && exec "$@"' "$T_DIR/t.txt" "$@"
}
rc_for() {
    prime_rc "$1" CLIENTS=host1 LOAD=10 PROCS=1 "MNT_POINTS=$srv_URL" NFS_VERSION=3 \
        WARMUP_TIME=0 RUNTIME=2 PRIME_HOST=127.0.0.1 "RSH=\"$T_DIR/onhost %h\"" \
        "TRACE_FILE=$T_DIR/t.txt" TRACE_SPEED=0 "WORK_DIR=$T_DIR/res" "${@:2}"
}

rc_for a_rc
out=$(hidden "$T_BIN/sfs_mgr" --check -r a_rc 2>&1)
like "$out" "workload: asked of the clients before the first point \(.*t\.txt: Permission denied\)" \
    "--check: the prime cannot read the trace, the clients will say the workload"
hidden "$T_BIN/sfs_mgr" -r a_rc -s a >a.out 2>a.err
is "$?" 0 "sfs_mgr runs the point $(tail -2 a.err)"
like "$(cat res/sfslog.a)" "cannot choose the workload .*asking the clients" "the log says it asked"
like "$(cat res/sfslog.a)" "The clients run the nfs-replay workload" "and what they answered"
is "$(python3 -c "import yaml; d = yaml.safe_load(open('res/sfsres.a.yaml'))
print(d['points'][0]['aggregate']['nfs_replay']['calls'])" 2>&1)" 9 \
    "the point is an NFS replay of the trace's 9 calls"

rc_for b_rc WORKLOAD=nfs-replay
out=$(hidden "$T_BIN/sfs_mgr" --check -r b_rc 2>&1)
like "$out" "workload: nfs-replay" "WORKLOAD names it: no question"
like "$out" "client_command 1: .* --workload=nfs-replay " "and the clients are told it"
hidden "$T_BIN/sfs_mgr" -r b_rc -s b >b.out 2>b.err
is "$? $(grep -c 'asking the clients' res/sfslog.b)" "0 0" "sfs_mgr runs it without asking $(tail -2 b.err)"
no_leftovers "$(run_tag a_rc)" 10
ok $? "no process of the runs is left"
