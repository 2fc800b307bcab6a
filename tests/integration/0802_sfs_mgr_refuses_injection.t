#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# Nothing in an rc file can run a command: shell syntax is refused by the
# parser, and host names, users, paths, suffixes and every value that would
# reach a client's (remote) command line are checked first - each attempt
# below is one clear FILE:LINE error, exit 2, and the canary file a shell
# would have created never appears.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_prime.sh"
plan 24
canary=$T_DIR/pwned
base=('LOAD=100' 'PROCS=1' 'MNT_POINTS="127.0.0.1:2049:/export"' "WORK_DIR=$T_DIR/res")
attempt() { # description, expected message, rc lines...
    local what=$1 msg=$2 out code
    shift 2
    prime_rc "$T_DIR/x_rc" "${base[@]}" "$@"
    out=$("$T_BIN/sfs_mgr" -r "$T_DIR/x_rc" 2>&1)
    code=$?
    is "$code" 2 "$what: refused (exit 2)"
    like "$out" "x_rc:[0-9]+: error: .*$msg" "$what: says why at its line"
}
attempt "a host that is an ssh option" "is not a host name" \
    "CLIENTS=\"localhost -oProxyCommand=touch\\ $canary\""
attempt "a host with a command" "is not a host name" \
    "CLIENTS=\"client1;touch$canary\""
attempt "a quote and ; in a mount point" "character ''' is not allowed" \
    'CLIENTS=localhost' "MNT_POINTS=\"127.0.0.1:2049:/export';touch$canary;'\""
attempt "a command in DEBUG" "character ';' is not allowed" \
    'CLIENTS=localhost' "DEBUG=\"3;touch $canary\""
attempt "command substitution" 'command substitution' \
    'CLIENTS=localhost' "MIXFILE=\$(touch $canary)"
attempt "backticks in double quotes" 'command substitution' \
    'CLIENTS=localhost' "SFS_USER=\"\`touch $canary\`\""
attempt "a user that is an option" "is not a user name" \
    'CLIENTS=localhost' "SFS_USER=\"-oProxyCommand=touch\""
attempt "PRIME_HOST with a blank" "is not a host name" \
    'CLIENTS=localhost' "PRIME_HOST=\"a b\""
attempt "a pipe" "'\\|' is not allowed" \
    'CLIENTS=localhost' "SUFFIX=x | touch $canary"
attempt "a dollar in SFS_DIR" "character '\\$' is not allowed" \
    'CLIENTS=localhost' "SFS_DIR='/opt/\$(id)'"
attempt "a redirection" "'>' is not allowed" \
    'CLIENTS=localhost' "LOAD=100>$canary"
prime_rc "$T_DIR/y_rc" "${base[@]}" 'CLIENTS=localhost'
out=$("$T_BIN/sfs_mgr" -r "$T_DIR/y_rc" -s '../../etc/x' 2>&1)
is "$?" 2 "a suffix that climbs out of WORK_DIR is refused"
ok "$([ ! -e "$canary" ] && [ ! -e "$T_DIR/res" ]; echo $?)" \
    "no command ran and nothing was written"
