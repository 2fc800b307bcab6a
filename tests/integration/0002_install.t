#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# 0002_install.t - `make install PREFIX=...` puts every program (and the sfs3
# name) under the prefix, a man page for each - written from the program's
# own --help, so every option of the help is on its page, and from its page
# in docs/: a description, examples, the exit status, the files, the other
# programs - that `man -l` shows as it is (sfs3's too, no .so link that only
# MANPATH resolves) - and the docs (docs/sfs.md lists every option of sfs's
# tables, each workload's group under the heading --help gives it);
# `make uninstall` takes them away again.
# timeout: 120
. "$(dirname "$0")/lib.sh"
cd "$T_TOP" || bail "no tree"
[ -x bin/sfs_ping ] || skip_all "bin/ not built (run make first)"
plan 13

out=$(make -s install PREFIX="$T_DIR/usr" 2>&1)
ok $? "make install PREFIX=... succeeds"
missing=""
for p in bin/*; do
    [ -x "$T_DIR/usr/bin/$(basename "$p")" ] || missing="$missing $(basename "$p")"
done
is "$missing" "" "every program in bin/ is installed"
ok "$([ -e "$T_DIR/usr/share/freesfs" ] && echo 0 || echo 1)" "shared files are installed"
M=$T_DIR/usr/share/man/man1
missing=""
for p in bin/*; do
    [ -s "$M/$(basename "$p").1" ] || missing="$missing $(basename "$p")"
done
is "$missing" "" "every program has a man page"
# every option --help lists is on the page (as roff writes a '-': '\-')
bad=""
for p in sfs sfs_mgr sfs_nfsd sfs_trace sfs_generate; do
    for o in $("bin/$p" --help | grep -oE -- '--[a-z][a-z0-9-]+' | sort -u); do
        grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$M/$p.1" || bad="$bad $p:$o"
    done
done
is "$bad" "" "every option of each program's --help is on its man page"
# sfs's docs list every option of its tables, each workload's group under
# the heading --help gives it
bad=""
# (an option by its short flag when it has one: "-l, --load LOAD")
for o in $(bin/sfs --help | sed -n 's/^  \(-[A-Za-z]\),.*/\1/p; s/^      \(--[a-z][a-z0-9-]*\).*/\1/p' |
    grep -vx -- '--help\|--version'); do
    grep -qF -- "\`$o" docs/sfs.md || bad="$bad $o"
done
while IFS= read -r h; do
    grep -qxF -- "#### ${h%:}" docs/sfs.md || bad="$bad [$h]"
done < <(bin/sfs --help | grep -E ' \(--workload [a-z, -]+\):$')
is "$bad" "" "docs/sfs.md lists every option of sfs --help, each workload's under its heading"
if command -v man >/dev/null 2>&1; then
    page=$(MANWIDTH=100 man -l "$M/sfs_mgr.1" 2>/dev/null)
    like "$page" "sfs_mgr - run every load point of an rc file" "man shows the page's name line"
    like "$page" "--trees" "and its options"
else
    skip "man is not installed"; skip "man is not installed"
fi
like "$(head -1 "$M/sfs3.1")" "^\.TH SFS3 1 " "sfs3's page is a page of its own (a .so link needs MANPATH)"
if command -v man >/dev/null 2>&1; then
    bad=""
    for f in "$M"/*.1; do
        p=$(basename "$f" .1)
        page=$(MANWIDTH=80 man -l "$f" 2>"$T_DIR/man.err") || bad="$bad $p:exit"
        [ -s "$T_DIR/man.err" ] && bad="$bad $p:warnings($(head -1 "$T_DIR/man.err"))"
        for s in NAME SYNOPSIS DESCRIPTION OPTIONS EXAMPLES "EXIT STATUS" FILES "SEE ALSO"; do
            printf '%s\n' "$page" | grep -q "^$s\$" || bad="$bad $p:no-$s"
        done
    done
    is "$bad" "" "man -l shows every installed page, each with its sections"
    page=$(MANWIDTH=100 man -l "$M/sfs3.1" 2>/dev/null)
    like "$(printf '%s\n' "$page" | sed -n '/^EXIT STATUS/,/^FILES/p' | tr '\n' ' ')" \
        "182 +SFS_MOUNTS: .*mount point" "sfs3's exit status lists its own codes, from docs/EXIT_CODES.md"
else
    skip "man is not installed"; skip "man is not installed"
fi
D=$T_DIR/usr/share/doc/freesfs
ok "$([ -s "$D/sfs_mgr.md" ] && [ -s "$D/README.md" ] && [ -s "$D/examples/example_rc" ]; echo $?)" \
    "the docs are installed"
make -s uninstall PREFIX="$T_DIR/usr" >/dev/null 2>&1
left=$(ls "$T_DIR/usr/bin" "$M" 2>/dev/null | grep -v ':$' | tr '\n' ' ' | sed 's/ *$//')
is "$left" "" "make uninstall removes the programs and the pages"
