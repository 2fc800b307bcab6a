#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0905_generate_builds_the_example_submission.t - sfs_generate as a person
# uses it (expect on a terminal), on the shipped example files
# (docs/examples: example_info.yaml, example_rc, sfssum.example):
#  - [2] import: the file it writes is the shipped example.submit, byte for
#    byte, and every field is checked against its source - each static
#    field against the YAML (read here by python3-yaml, not by FreeSFS),
#    the load-generator blocks merged (tb_lg_number = 1 2), the benchmark
#    configuration against the sfssum file and the rc file, each point, the
#    peak and the overall response time recomputed here (section 17.3);
#  - [1] prompt: the same answers typed one by one give the same file;
#  - bad input: an aliased YAML file and one with a missing field are
#    refused at their FILE:LINE and asked again; an rc file of another run
#    is refused; garbage at the menu is asked again; the end of the input
#    writes nothing.
# timeout: 120
# check: submit bin
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_menus.sh"
need_python_yaml
plan 16

EX=$T_TOP/docs/examples
W=$T_DIR/work
mkdir -p "$W"
cp "$EX/example_info.yaml" "$EX/example_rc" "$EX/sfssum.example" "$W/"
export W T_BIN

cat >"$T_DIR/import.exp" <<'EOF'
cd $env(W)
spawn $env(T_BIN)/sfs_generate
step "Choice: " "4"
wait_for "Please answer 1, 2 or 3."
step "Choice: " "2"
step "Static information file (YAML): " "example_info.yaml"
step "The rc file of the run: " "example_rc"
step "The sfssum file of the run: " "sfssum.example"
wait_for "Client 1 of 2: client1"
step "RETURN for lg-a): " ""
step "RETURN for net1): " ""
step "comments (RETURN for none): " ""
wait_for "Client 2 of 2: client2"
step "RETURN for lg-a): " "lg-a"
step "RETURN for net1): " "1"
step "comments (RETURN for none): " ""
step "Name of the submission file \[example.submit\]: " ""
wait_for "Wrote example.submit: 2 client(s) in 1 load-generator block(s), 11 point(s)."
finish
EOF
menus_session import "$T_DIR/import.exp" "the import session ran to its end"
cmp -s "$W/example.submit" "$EX/example.submit"
ok $? "it wrote the shipped docs/examples/example.submit, byte for byte" ||
    diag "$(diff "$EX/example.submit" "$W/example.submit" | head -10)"

# ---- every field against its source ------------------------------------------------
cat >"$T_DIR/check.py" <<'EOF'
import sys, yaml
info = yaml.safe_load(open(sys.argv[1]))
sub = open(sys.argv[2]).read().splitlines()
rc_vals = dict(l.split("=", 1) for l in sys.argv[4:])
pairs = [(l.split(" = ", 1)[0], l.split(" = ", 1)[1] if " = " in l else "")
         for l in sub if l and not l.startswith("#") and not l.startswith("[")]
def values(key):
    return [v for k, v in pairs if k == key]
def lines(v):
    return [str(x) for x in v] if isinstance(v, list) else [str(v)]
bad = []
def expect(key, want):
    got = values(key)
    if got != want:
        bad.append("%s: got %r, want %r" % (key, got, want))
top = {"company": "company", "license_number": "license_number", "licensee": "licensee",
       "location": "location", "test_date": "test_date", "hardware_available": "hw_available",
       "software_available": "sw_available"}
server = {"model": "sut_model", "cpu": "sut_cpu", "cpu_count": "sut_cpu_count",
          "primary_cache": "sut_cache_primary", "secondary_cache": "sut_cache_secondary",
          "other_cache": "sut_cache_other", "memory": "sut_memory",
          "disk_controllers": "sut_disk_controllers", "disks": "sut_disks", "nvram": "sut_nvram",
          "network_controllers": "sut_network_controllers", "networks": "sut_networks",
          "ups": "sut_ups", "other_hardware": "sut_other_hardware", "os": "sut_os",
          "other_software": "sut_other_software", "buffer_cache": "sut_buffer_cache",
          "nfs_daemons": "sut_nfs_daemons", "filesystems": "sut_filesystems",
          "fs_config": "sut_fs_config", "fs_creation": "sut_fs_creation"}
for k, key in top.items():
    expect(key, lines(info[k]))
for k, key in server.items():
    expect(key, lines(info["server"][k]))
for k, v in info["network_gear"].items():
    expect("net_" + k, lines(v))
for k, v in info["notes"].items():
    expect("notes_" + k, lines(v))
expect("tb_net_name", [n["name"] for n in info["networks"]])
expect("tb_net_description", [n["description"] for n in info["networks"]])
lg = info["load_generator_types"][0]
expect("tb_lg_number", ["1 2"])
for k, v in lg.items():
    expect("tb_lg_type" if k == "name" else "tb_lg_" + k, lines(v))
expect("tb_lg_network", ["net1"])
expect("tb_lg_comments", ["none"])
# the benchmark configuration from the sfssum file and the rc file
pts = [l.split() for l in open(sys.argv[3]) if l.strip()]
first = pts[0][1:] if pts[0][0] == "INVALID" else pts[0]
expect("tb_nfs_version", [first[5]])
expect("tb_transport", ["UDP" if first[6] == "U" else "TCP"])
expect("tb_clients", [first[8]])
expect("tb_procs_per_client", [first[9]])
expect("tb_biod_max_read", [first[10]])
expect("tb_biod_max_write", [first[11]])
expect("tb_sfs_version", [first[12]])
last = pts[-1][1:] if pts[-1][0] == "INVALID" else pts[-1]
expect("tb_fileset_size_kb", [last[7]])
mounts = rc_vals["MNT_POINTS"].split()
procs = int(rc_vals["PROCS"])
clients = rc_vals["CLIENTS"].split()
expect("tb_fs_config", ["client %d (%s): %s" % (i + 1, c, " ".join(mounts[i * procs:(i + 1) * procs]))
                        for i, c in enumerate(clients)])
for name, val in rc_vals.items():
    if "%s=%s" % (name, val) not in values("tb_rc"):
        bad.append("tb_rc lacks %s=%s" % (name, val))
# the points, the peak and the overall response time (trapezoids from 0, 0)
want, xy = [], []
for p in pts:
    if p[0] == "INVALID":
        want.append("%s INVALID" % p[1])
    else:
        want.append("%s %s %s" % (p[0], p[1], p[2]))
        xy.append((float(p[1]), float(p[2])))
expect("result_point", want)
xy.sort()
area, px, py = 0.0, 0.0, 0.0
for x, y in xy:
    area += 0.5 * (py + y) * (x - px)
    px, py = x, y
expect("result_valid_points", [str(len(xy))])
expect("result_peak_throughput", ["%.0f" % px])
expect("result_overall_response_ms", ["%.2f" % (area / px)])
expect("metric", ["%.0f SPECsfs97_R1.v3 ops per second with an overall response time of %.2f ms"
                  % (px, area / px)])
print("\n".join(bad))
EOF
rcvals=$("$T_BIN/sfs_rc" show "$W/example_rc" LOAD CLIENTS PROCS MNT_POINTS BIOD_MAX_WRITES \
    BIOD_MAX_READS NFS_VERSION TCP WARMUP_TIME RUNTIME SFS_USER RSH PRIME_MON_SCRIPT)
mapfile -t rcargs <<<"$rcvals"
bad=$(python3 "$T_DIR/check.py" "$W/example_info.yaml" "$W/example.submit" "$W/sfssum.example" \
    "${rcargs[@]}" 2>&1)
is "$bad" "" "every field matches its source (static information, rc file, sfssum file)"
is "$(grep -c '^\[load_generator\]' "$W/example.submit")" 1 \
    "the two clients' identical blocks are one block"
like "$(grep '^metric' "$W/example.submit")" "^metric = 1996 SPECsfs97_R1.v3 ops per second with an overall response time of 3.63 ms$" \
    "the metric line (checked by hand too: area 7243.65 over 1996 ops/s)"

# ---- [1]: the same answers, typed ----------------------------------------------------
python3 - "$W/example_info.yaml" >"$T_DIR/answers.tsv" <<'EOF'
import sys, yaml
info = yaml.safe_load(open(sys.argv[1]))
def emit(key, v):
    for line in (v if isinstance(v, list) else [v]):
        print("%s\t%s" % (key, line))
for k, v in info.items():
    if k in ("load_generator_types", "networks"):
        emit(k, len(v))
        for i, item in enumerate(v):
            for f, fv in item.items():
                emit("%s.%d.%s" % (k, i + 1, f), fv)
    elif isinstance(v, dict):
        for f, fv in v.items():
            emit("%s.%s" % (k, f), fv)
    else:
        emit(k, v)
EOF
export ANSWERS=$T_DIR/answers.tsv
cat >"$T_DIR/prompt.exp" <<'EOF'
set f [open $env(ANSWERS)]
set ans [dict create]
while {[gets $f l] >= 0} {
    set i [string first "\t" $l]
    dict lappend ans [string range $l 0 [expr {$i - 1}]] [string range $l [expr {$i + 1}] end]
}
close $f
cd $env(W)
spawn $env(T_BIN)/sfs_generate
step "Choice: " "1"
set asked 0
while 1 {
    expect {
        -re { \[([a-z_.0-9]+)\]: $} {
            set k $expect_out(1,string)
            if {![dict exists $ans $k]} { fail_on "NO ANSWER" $k }
            foreach v [dict get $ans $k] { send -- "$v\r" }
            # a list ends with an empty line
            if {[string match "*an empty line ends)*" $expect_out(buffer)]} { send -- "\r" }
            incr asked
        }
        "The rc file of the run: " { break }
        timeout { fail_on TIMEOUT "a question" }
        eof { fail_on EOF "a question" }
    }
}
send_user "\n### $asked questions answered\n"
send -- "example_rc\r"
step "The sfssum file of the run: " "sfssum.example"
step "RETURN for lg-a): " ""
step "RETURN for net1): " ""
step "comments (RETURN for none): " ""
step "RETURN for lg-a): " ""
step "RETURN for net1): " ""
step "comments (RETURN for none): " ""
step "Name of the submission file \[example.submit\]: " "typed.submit"
wait_for "Wrote typed.submit"
finish
EOF
menus_session prompt "$T_DIR/prompt.exp" "the [1] session answered every question"
is "$(diff "$W/example.submit" "$W/typed.submit" | grep '^[<>]' | sed 's/: .*/:/' | tr '\n' '|')" \
    "< #   static information:|> #   static information:|" \
    "typed answers give the same submission (only the header's source differs)"

# ---- bad input ---------------------------------------------------------------------------
cat >"$W/alias.yaml" <<'EOF'
company: &c Example
licensee: *c
EOF
sed '/^  ups: none$/d' "$W/example_info.yaml" >"$W/missing.yaml"
sed 's/^PROCS=8$/PROCS=4/' "$W/example_rc" >"$W/other_rc"
out=$(cd "$W" && printf '2\nalias.yaml\nmissing.yaml\nexample_info.yaml\nother_rc\nsfssum.example\nexample_rc\nsfssum.example\nnosuch\n9\n\n' |
    "$T_BIN/sfs_generate" 2>&1)
st=$?
like "$out" "alias.yaml:1: error: anchors \(&c\) and aliases are not accepted" \
    "an anchor or alias is refused at its line"
like "$out" "missing.yaml: error: server.ups is missing \(UPS\)" "a missing field is named"
# the refusal names the rc file's line, the one to mend
like "$out" "other_rc:$(grep -n '^PROCS=' "$W/other_rc" | cut -d: -f1): the rc file has PROCS=4, the sfssum file 8: not the same run." \
    "an rc file of another run is refused at its PROCS line"
like "$out" "Client 1 of 2: client1" "after each refusal the question comes again"
like "$(printf '%s' "$out" | tr '\n' ' ')" "'nosuch' is not in the list: give a load-generator type by its name or number.*'9' is not in the list" \
    "a type that is not in the list, by name or number, is asked again"
is "$st" 1 "the input ended before the file name: status 1"
like "$out" "end of input; nothing was written" "and says so"
ok "$([ ! -e "$W/sfssum.submit" ] && [ "$(ls "$W" | grep -c submit)" -eq 2 ]; echo $?)" \
    "no file was written"
out=$(printf '3\n' | "$T_BIN/sfs_generate" 2>&1)
is "$?:$(printf '%s' "$out" | tail -1)" "0:Choice: " "[3] Exit leaves at once"
