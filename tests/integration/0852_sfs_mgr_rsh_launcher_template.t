#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 120
# RSH may be a template for launchers that are not ssh-like (kubectl exec
# -i %h --, srun -w %h): %h is the client's host, %u the user, and the
# client's command follows as words of their own (no remote shell string).
# Stand-in launchers - scripts that record their arguments and run the
# command here, as kubectl would in the pod - start two "pods" of a point
# against sfs_nfsd; --check shows the same words; -k reaches the clients
# through the launcher too; a template with an unknown %x is an rc error.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 14
cd "$T_DIR" || bail "no test dir"
start_nfsd srv || bail "sfs_nfsd did not start"

# kubectl exec -i POD -- COMMAND...: one argument a line in POD.args, then
# the command run with the launcher's standard input (the token, the
# lifeline) handed on, as kubectl -i does
cat >kubectl <<'EOS'
#!/bin/sh
[ "$1" = exec ] && [ "$2" = -i ] && [ "$4" = -- ] || { echo "kubectl: bad usage: $*" >&2; exit 2; }
pod=$3; shift 4
printf '%s\n' "$@" >>"$(dirname "$0")/$pod.args"
exec "$@"
EOS
# srun -w HOST --uid USER COMMAND...
cat >srun <<'EOS'
#!/bin/sh
[ "$1" = -w ] && [ "$3" = --uid ] || { echo "srun: bad usage: $*" >&2; exit 2; }
printf '%s\n' "$4" >"$(dirname "$0")/srun.$2.user"
shift 4
exec "$@"
EOS
chmod +x kubectl srun

prime_rc k_rc 'CLIENTS="pod-a pod-b"' LOAD=40 PROCS=1 "MNT_POINTS=$srv_URL" NFS_VERSION=3 \
    WARMUP_TIME=1 RUNTIME=2 FILE_COUNT=50 PRIME_HOST=127.0.0.1 \
    "RSH=\"$T_DIR/kubectl exec -i %h --\"" "WORK_DIR=$T_DIR/k"
out=$("$T_BIN/sfs_mgr" --check -r k_rc 2>&1)
is "$?" 0 "--check accepts a launcher template"
like "$out" "client_command 1: $T_DIR/kubectl exec -i pod-a -- $T_BIN/sfs3 -M127.0.0.1:0 -N1 " \
    "and shows the launcher's words with the client's after them"
unlike "$out" "client_command 2: .*\"'" "no quoted remote-shell string"
"$T_BIN/sfs_mgr" -r k_rc -s k >"$T_DIR/k.out" 2>"$T_DIR/k.err"
is "$?" 0 "a point runs with both clients started through the launcher"
like "$(cat "$T_DIR/k.out")" "Executing run 1 of 1 \\.\\.\\. done" "and finishes"
is "$(wc -l <"$T_DIR/k/sfssum.k" | tr -d ' ')" 1 "with its sfssum line"
is "$(sumfield "$(cat "$T_DIR/k/sfssum.k")" 9)" 2 "over two clients"
args=$(cat pod-a.args 2>/dev/null)
is "$(printf '%s\n' "$args" | head -1)" "$T_BIN/sfs3" "pod-a ran sfs3 as the command's first word"
ok "$(printf '%s\n' "$args" | grep -qx -- '-N1' && printf '%s\n' "$args" | grep -qx -- '--load=20' &&
    printf '%s\n' "$args" | grep -qx -- "$srv_URL"; echo $?)" \
    "each of its words one argument (-N1, --load=20, the mount point)"
ok "$(grep -qx -- '-N2' pod-b.args; echo $?)" "pod-b ran client 2"

# %u: SFS_USER, through another launcher
prime_rc s_rc 'CLIENTS=node7' LOAD=20 PROCS=1 "MNT_POINTS=$srv_URL" NFS_VERSION=3 \
    WARMUP_TIME=1 RUNTIME=2 FILE_COUNT=50 PRIME_HOST=127.0.0.1 SFS_USER=bench \
    "RSH=\"$T_DIR/srun -w %h --uid %u\"" "WORK_DIR=$T_DIR/s"
"$T_BIN/sfs_mgr" -r s_rc -s s >"$T_DIR/s.out" 2>"$T_DIR/s.err"
is "$?" 0 "srun -w %h --uid %u runs the point"
is "$(cat srun.node7.user 2>/dev/null)" "bench" "%u is SFS_USER, %h the host"
out=$("$T_BIN/sfs_mgr" -k -r k_rc -s k 2>&1)
like "$out" "client 1 \\(pod-a\\)" "-k reaches the clients through the launcher"

prime_rc bad_rc CLIENTS=pod-a LOAD=20 PROCS=1 "MNT_POINTS=$srv_URL" "RSH=\"kubectl exec %h %x --\""
out=$("$T_BIN/sfs_mgr" --check -r bad_rc 2>&1)
like "$out" "^bad_rc:5: error: RSH: '%x': a launcher template knows %h \\(host\\), %u \\(user\\)" \
    "an unknown %x in a template is an error at its line"
