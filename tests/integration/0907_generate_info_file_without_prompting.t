#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0907_generate_info_file_without_prompting.t - sfs_generate for scripted
# submissions: --info takes the static information from a YAML file without
# the menu (the rc file, the sfssum file and the clients' answers still
# asked, here from a pipe); with --rc, --sfssum and --output as well only
# the clients' answers are read, and the file is the shipped
# example.submit byte for byte.  A named file that cannot be used ends the
# session at once with its FILE:LINE error and exit 2, writing nothing (no
# question is asked again of a script); so do an rc file and an sfssum file
# of different runs.
# timeout: 60
. "$(dirname "$0")/lib.sh"
plan 12

EX=$T_TOP/docs/examples
cd "$T_DIR" || bail "no test dir"
cp "$EX/example_info.yaml" "$EX/example_rc" "$EX/sfssum.example" .

out=$(printf 'example_rc\nsfssum.example\n\n\n\n\n\n\nfirst.submit\n' |
    "$T_BIN/sfs_generate" --info example_info.yaml 2>&1)
is "$?" 0 "--info with the other answers piped: written (exit 0)"
unlike "$out" "\\[1\\] Prompt user|Choice:|Static information file" "no menu, no question for the static information"
like "$out" "The rc file of the run: " "the rc file is still asked for"
cmp -s first.submit "$EX/example.submit"
ok $? "the file is the shipped example, byte for byte"

out=$(yes '' | "$T_BIN/sfs_generate" --info example_info.yaml --rc example_rc \
    --sfssum sfssum.example -o second.submit 2>&1)
is "$?" 0 "every file named: only the clients are asked (RETURN: the first type and network)"
unlike "$out" "The rc file of the run|The sfssum file|Name of the submission" "no file is asked for"
cmp -s second.submit "$EX/example.submit"
ok $? "the same file"

sed 's/^company:/compnay:/' example_info.yaml >typo.yaml
out=$(yes '' | "$T_BIN/sfs_generate" --info typo.yaml --rc example_rc \
    --sfssum sfssum.example -o third.submit 2>&1)
is "$?" 2 "a bad --info file: exit 2"
like "$out" "typo.yaml:[0-9]+:.*compnay" "with the error at its FILE:LINE"
ok "$([ ! -e third.submit ]; echo $?)" "and nothing written"

sed 's/^CLIENTS=.*/CLIENTS="c1 c2 c3"/' example_rc >other_rc
out=$(yes '' | "$T_BIN/sfs_generate" --info example_info.yaml --rc other_rc \
    --sfssum sfssum.example -o fourth.submit 2>&1)
is "$?" 2 "an rc file and an sfssum file of different runs: exit 2, not asked again"
ok "$([ ! -e fourth.submit ]; echo $?)" "nothing written"
