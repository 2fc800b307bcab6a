#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0001_layering.t - the layer arrows of docs/ARCHITECTURE.md stay honest:
# a layer includes only its own headers and those of the layers below it,
# each library has one home (docs/STYLE.md 2.2), and every allocation goes
# through common/alloc.h, where the failing-allocator hook sits (2.9).
# timeout: 30
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || bail "no tree"

# layer: layers it may include (besides itself)
declare -A allowed=(
    [common]=""
    [rpc]="common"
    [nfs]="rpc common"
    [validate]="nfs rpc common"
    [load]="validate trace nfs rpc common"
    [prime]="load validate trace nfs rpc common"
    [trace]="nfs rpc common"
    [analyze]="trace nfs rpc common"
    [server]="nfs rpc common"
    [submit]="common"
    [bin]="common rpc nfs validate load prime trace analyze server submit"
)
plan 8

bad=""
for layer in "${!allowed[@]}"; do
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

# Judy: the analyser's stack distances and the server's sparse maps (D1).
judy=$(grep -l '#include <Judy.h>' -r src | grep -vE '^src/(analyze/|server/map\.c$)' | tr '\n' ' ')
is "$judy" "" "Judy is used only in src/analyze and src/server/map.c"

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
