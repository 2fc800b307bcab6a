# SPDX-License-Identifier: BSD-2-Clause
# tests/integration/lib_fit.sh - what the tests of sfs_trace fit share
# (0671-0673), sourced after lib.sh: a run captured from its warm-up on by
# sfs_trace's own live capture (on lo, filtered to the test's server
# ports), and the checks of a fit's YAML against a workload.
#
#   fit_capture LOG PCAP PORTS CMD...
#                 runs CMD (stdout and stderr in $T_DIR/cmd.out); once LOG
#                 (sfs3's stderr, or an sfs_mgr client's log) says the
#                 warm-up began, captures on lo for the ports (a space-
#                 separated list) into PCAP until CMD has ended; status 0
#                 when CMD and the capture both ended well
#   fit_check YAML EXPECT...
#                 tests/tools/fit-check.py: the fit in YAML against the
#                 workload (default, mix=FILE, iodist=FILE, files=N,
#                 block=N, or fit=OTHER.yaml); prints "agree: ..." or the
#                 differences
#   fit_round_trip "EXPECT..." SFS3_OPTION...
#                 the round trip (8 tests): sfs3 with the options against
#                 a fresh sfs_nfsd, captured from its warm-up on; its fit
#                 against EXPECT; sfs_mgr runs the fitted rc file,
#                 captured the same way; that capture's fit against the
#                 first fit, both curves in one picture.  Runs in $T_DIR.

FIT_CHECK=$T_TOP/tests/tools/fit-check.py

fit_capture() {
    local log=$1 pcap=$2 ports=$3 filter="" p cmd cap rc
    shift 3
    for p in $ports; do filter="${filter:+$filter or }port $p"; done
    rm -f "$log"
    "$@" >"$T_DIR/cmd.out" 2>&1 &
    cmd=$!
    track "$cmd"
    # the warm-up follows the population: the capture holds the load only
    if ! wait_for "grep -q 'pretest warmup' '$log'" 1200 0.05; then
        diag "no warm-up in $log: $(tail -3 "$T_DIR/cmd.out")"
        return 1
    fi
    "$T_BIN/sfs_trace" stats -q --interface lo --filter "$filter" --write "$pcap" \
        >"$T_DIR/cap.out" 2>"$T_DIR/cap.err" &
    cap=$!
    track "$cap"
    if ! wait_for "grep -q '^sfs_trace: capturing on lo' '$T_DIR/cap.err'" 200 0.05; then
        diag "the capture did not start: $(cat "$T_DIR/cap.err")"
        return 1
    fi
    wait "$cmd"
    rc=$?
    kill -INT "$cap"
    wait_for "! alive $cap" 200 0.05
    wait "$cap" && [ "$rc" -eq 0 ]
}

fit_check() {
    python3 "$FIT_CHECK" "$@"
}

fit_round_trip() {
    local expect=$1 out P
    shift
    start_nfsd srv || bail "sfs_nfsd did not start"
    # shellcheck disable=SC2154
    P="$srv_NFS_PORT $srv_MNT_PORT"
    cd "$T_DIR" || bail "no test directory"

    fit_capture "$T_DIR/cmd.out" run1.pcapng "$P" "$T_BIN/sfs3" "$@" "$srv_URL"
    ok $? "sfs3 $* ran, captured from its warm-up on"
    diag "$(grep -E 'THROUGHPUT|NO-FIT' "$T_DIR/cmd.out")"

    "$T_BIN/sfs_trace" fit run1.pcapng -o fit1 --points 1 --mount "$srv_URL" \
        --yaml fit1.yaml >fit1.out 2>fit1.err
    is "$?:$(ls fit1.mix fit1.iodist fit1_rc 2>/dev/null | wc -l)" "0:3" \
        "fit writes the mix, the block sizes and the rc file $(cat fit1.err)"
    # shellcheck disable=SC2086
    out=$(fit_check fit1.yaml $expect)
    like "$out" "^agree: " "the fit gives back the run's mix, block sizes and file set"
    diag "$out"

    "$T_BIN/sfs_mgr" --check -r fit1_rc >check.out 2>&1
    is "$?:$(grep -c '^client_options: .*--mix=.*fit1.mix.*--iodist=.*fit1.iodist' check.out)" \
        "0:1" "sfs_mgr takes the fitted rc file, its mix and block-size files"

    fit_capture "$T_DIR/result/sfsc001.fit1" run2.pcapng "$P" "$T_BIN/sfs_mgr" -r fit1_rc
    ok $? "sfs_mgr -r fit1_rc ran the fitted workload, captured from its warm-up on"
    diag "$(grep -E '^(INVALID|VALID) ' "$T_DIR/cmd.out")"

    "$T_BIN/sfs_trace" fit run2.pcapng -o fit2 --points 1 --compare run1.pcapng \
        --plot both.png --yaml fit2.yaml >fit2.out 2>fit2.err
    is "$?:$(grep -c '^Picture: both.png' fit2.out):$(head -c 4 both.png | od -An -c | tr -d ' ')" \
        "0:1:211PNG" "the fitted run's capture fitted, both curves in one picture $(cat fit2.err)"
    out=$(fit_check fit2.yaml fit=fit1.yaml)
    like "$out" "^agree: " "the fitted run's capture gives back the first fit within the same bounds"
    diag "$out"
    out=$(python3 -c 'import sys, yaml; d = yaml.safe_load(open(sys.argv[1]))["distance"]; print(d["mix_max"], d["mrc_mean"]); sys.exit(0 if d["mrc_mean"] < 0.1 else 1)' fit2.yaml)
    ok $? "the distances the report gives: largest mix difference, mean miss-ratio difference ($out)"
}
