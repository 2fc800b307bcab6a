#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0001_layering.t - the layer arrows stay honest: the one table of them is
# mk/rules.mk (LAYERS and the DEPS_<layer> lines, which the link follows;
# a workload's are in its directory's layer.mk; `make print-layers` gives
# them all);
# every layer includes only its own headers and those of the layers it may
# use, docs/ARCHITECTURE.md's layer table names the same layers with the
# same arrows, each library has one home (docs/STYLE.md 2.2), and every
# allocation goes through common/alloc.h, where the failing-allocator hook
# sits (2.9), and the programs' files in src/bin stay under 150 lines.  The quick suite (`make check`: the tests with a "# check:"
# line) covers every layer and the programs, without nfs-ganesha.
# timeout: 150
# check: tree
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || bail "no tree"

# layer: layers it may include (besides itself), from mk/rules.mk
table=$(make -s print-layers 2>/dev/null)
layers=$(printf '%s\n' "$table" | sed -n 's/^\([a-z]*\):.*/\1/p' | tr '\n' ' ')
declare -A allowed=()
deps_of() { printf '%s\n' "$table" | sed -n "s/^$1: *//p"; }
for layer in $layers; do
    deps=$(deps_of "$layer")
    allowed[$layer]=" ${deps#"$layer"} "
done
allowed[bin]=" $layers " # the thin main()s may call any layer
plan 14

missing=""
for layer in $layers; do
    [ -n "$(deps_of "$layer")" ] || missing="$missing $layer"
done
is "$missing" "" "every layer of LAYERS has its DEPS_ line (mk/rules.mk or its layer.mk)"

# every directory of src/ is a layer (or bin)
stray=""
for d in src/*/; do
    d=$(basename "$d")
    case " $layers bin " in *" $d "*) ;; *) stray="$stray $d" ;; esac
done
is "$stray" "" "every directory of src/ is a layer of mk/rules.mk"

# the quick suite: every layer (and bin) named by a "# check:" line, and
# only names that are layers, bin or the tree
named=$(for t in tests/integration/*.t; do head -25 "$t" | sed -n 's/^# check: //p'; done |
    tr ' ' '\n' | grep . | sort -u)
gaps=""
for l in $layers bin; do
    printf '%s\n' "$named" | grep -qx "$l" || gaps="$gaps missing:$l"
done
for l in $named; do
    case " $layers bin tree " in *" $l "*) ;; *) gaps="$gaps unknown:$l" ;; esac
done
# ... and none waits for nfs-ganesha, one at a time machine-wide: a quick
# test behind another run's ganesha tests took 190 s
for t in tests/integration/*.t; do
    [ "$t" = "$0" ] || [ "${t##*/}" = "${0##*/}" ] && continue # this file names it
    head -25 "$t" | grep -q '^# check: ' && [ -n "$(sh "$T_TOP/tests/tools/uses-ganesha" "$t")" ] && gaps="$gaps ganesha:${t##*/}"
done
is "$gaps" "" "make check's integration tests (# check: lines) cover every layer and bin, none with ganesha"

# docs/ARCHITECTURE.md's layer table: one row per layer, "may use" equal to
# the DEPS_ line (the layer table rows read "| \`src/<layer>\` | prefix |
# role | may use |").
doc=""
for layer in $layers; do
    row=$(grep -E "^\| \`src/$layer\` \|" docs/ARCHITECTURE.md | head -1)
    if [ -z "$row" ]; then
        doc="$doc $layer:no-row"
        continue
    fi
    uses=$(printf '%s' "$row" | awk -F'|' '{print $(NF-1)}' | tr -d '`,' |
        tr ' ' '\n' | grep -E "^($(echo $layers | tr ' ' '|'))\$" | sort | tr '\n' ' ')
    want=$(echo ${allowed[$layer]} | tr ' ' '\n' | grep . | sort | tr '\n' ' ')
    [ "$uses" = "$want" ] || doc="$doc $layer:[$uses]!=[$want]"
done
is "$doc" "" "docs/ARCHITECTURE.md's layer table has every layer with the arrows of mk/rules.mk"

# no directory of src/ holds more than a fifth of its lines: a layer that
# grows past it is split by concern
total=$(cat src/*/*.[ch] | wc -l)
big=""
for d in src/*/; do
    n=$(cat "$d"*.[ch] 2>/dev/null | wc -l)
    [ $((n * 100)) -le $((total * 20)) ] || big="$big $(basename "$d"):$n/$total"
done
is "$big" "" "no directory of src/ holds more than 20 % of its lines"
# a program's main() is thin (docs/ARCHITECTURE.md, bin): parse, call one
# layer, choose the exit code - under 150 lines, the rest in a layer
long=""
for f in src/bin/*.c; do
    n=$(wc -l <"$f")
    [ "$n" -lt 150 ] || long="$long $f:$n"
done
is "$long" "" "every file of src/bin is under 150 lines"

bad=""
for layer in $layers bin; do
    [ -d "src/$layer" ] || continue
    for f in src/$layer/*.[ch]; do
        [ -e "$f" ] || continue
        for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*"/\1/p' "$f" | sort -u); do
            [ "$inc" = "$layer" ] && continue
            case " ${allowed[$layer]} " in *" $inc "*) ;; *) bad="$bad $f->$inc" ;; esac
        done
    done
done
is "$bad" "" "every #include follows the layer arrows"

# Judy: the analyser's stack distances, the server's sparse maps (D1) and
# the common set of key runs (a trace's footprint, a replay's touched bytes).
judy=$(grep -l '#include <Judy.h>' -r src | grep -vE '^src/(analyze/|server/map\.c$|common/runs\.c$)' | tr '\n' ' ')
is "$judy" "" "Judy is used only in src/analyze, src/server/map.c and src/common/runs.c"

lnfs=$(grep -lE '#include <nfsc/' -r src | grep -v '^src/nfs/lnfs\.[ch]$' | tr '\n' ' ')
is "$lnfs" "" "libnfs is used only in src/nfs/lnfs.c"

yaml=$(grep -lE '#include <yaml.h>' -r src | grep -vE '^src/common/yaml' | tr '\n' ' ')
is "$yaml" "" "libyaml is used only behind the common YAML module"

pcap=$(grep -lE '#include <pcap' -r src | grep -v '^src/trace/tr_nfs_pcap\.c$' | tr '\n' ' ')
is "$pcap" "" "libpcap is used only in src/trace/tr_nfs_pcap.c"

sodium=$(grep -lE '#include <sodium' -r src | grep -v '^src/trace/tr_nfs_anon\.c$' | tr '\n' ' ')
is "$sodium" "" "libsodium is used only in src/trace/tr_nfs_anon.c"

tirpc=$(grep -lE '#include <rpc/' -r src | grep -vE '^src/(rpc|nfs|server)/' | tr '\n' ' ')
is "$tirpc" "" "libtirpc headers are included only by rpc, nfs and server"

# The failing-allocator hook (docs/STYLE.md 2.9) sees only what goes through
# cm_malloc and friends.
direct=$(grep -nP '(?<![\w.>])(malloc|calloc|realloc|reallocarray|strdup|strndup)\s*\(' -r src --include='*.[ch]' |
    grep -vE '^src/common/alloc\.[ch]' | grep -vP '^[^:]+:[0-9]+:\s*(/?\*|//)' | tr '\n' ' ')
is "$direct" "" "allocations go through cm_malloc and friends (common/alloc.h)"
