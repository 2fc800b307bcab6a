#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# timeout: 60
# A replay's report says what the replay asked of the server, not the
# unused -l default: CLIENT REQUESTED LOAD is the trace's records per
# second at the given speed (seed-example.spc: 11 records over 2.450 s, at
# speed 2 = 8.98 records/s), or "as fast as the window allows" at speed 0
# (before: "CLIENT REQUESTED LOAD: 60 Ops/Sec").  The YAML agrees: no
# requested_load of 60, the replay section's requested_records_per_s.
. "$(dirname "$0")/lib.sh"
plan 7
start_nfsd srv || bail "sfs_nfsd did not start"
TRACE=$T_FIXTURES/spc/seed-example.spc
out=$("$T_BIN/sfs3" -p 2 --trace "$TRACE" --speed 2 --yaml "$T_DIR/s2.yaml" "$srv_URL" \
    2>"$T_DIR/err")
is "$?" 0 "the speed-2 replay exits 0" || diag "$(tail -3 "$T_DIR/err")"
like "$out" "CLIENT REQUESTED LOAD: 8\.98 records/s \(the trace at speed 2\)" \
    "the report asks for the trace's 11 records in 1.225 s"
unlike "$out" "REQUESTED LOAD: [0-9]+ Ops/Sec" "no requested load in ops/s"
like "$(cat "$T_DIR/err")" "at speed 2 the replay takes 1\.225 s \(8\.98 records/s\)" \
    "the plan says the same before the replay"
is "$(awk '/^ *requested_records_per_s:/ {printf "%.2f", $2}' "$T_DIR/s2.yaml")" "8.98" \
    "the YAML's replay section: 8.98 records/s"
is "$(grep -c '^ *requested_load:' "$T_DIR/s2.yaml")" 0 "and no requested_load (the -l 60)"
out=$("$T_BIN/sfs3" -p 2 --trace "$TRACE" --speed 0 "$srv_URL" 2>/dev/null)
like "$out" "CLIENT REQUESTED LOAD: as fast as the window allows \(speed 0\)" \
    "speed 0: as fast as the window allows"
