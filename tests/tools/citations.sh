#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# citations.sh - lists every reference to something a clone of FreeSFS does
# not hold: files outside the repository (the SFS reference notes, the
# design-decision, style, trace-format, NFS-trace, test-environment and
# roadmap notes, anything under a "shared" folder) and issue numbers.  The
# project's own docs replace them: docs/SFS30.md, docs/DECISIONS.md,
# docs/STYLE.md, docs/TRACE_FORMATS.md, docs/NFS_TRACES.md, docs/TESTING.md
# (docs/STYLE.md 2.8).
#
#   tests/tools/citations.sh [-x PATH]... ROOT
#
# Scans src, tests, scripts, bench, docs, README.md, mk, rc, C.wrappers and
# M.wrappers under ROOT (text files only) and prints one FILE:LINE: text
# line per hit, FILE relative to ROOT; prints nothing when the tree is
# clean.  -x PATH leaves out a file or a directory (relative to ROOT; a
# trailing * matches any file name that starts with the rest).  Exit status
# 0, or 2 on a usage error.
#
# What counts as a reference (the words are split below so that this file
# does not match itself):
#   - the names of the outside notes in any form: "sfs-reference",
#     "trace-formats", "nfs-traces", "test-environment", "roadmap.md";
#     "decisions.md" and "style.md" in lower case (the project's own are
#     DECISIONS.md and STYLE.md), and "decisions D<n>";
#   - a path into a "shared" or "ref" folder;
#   - an issue number: "issue 12", "Issues 8-15", "issue_12";
#   - a section sign not preceded on its line by "SFS30.md", the one doc
#     whose sections are cited with it (docs/SFS30.md itself excepted).
set -u
excl=()
while [ $# -gt 0 ]; do
    case "$1" in
    -x) [ $# -ge 2 ] || { echo "usage: $0 [-x PATH]... ROOT" >&2; exit 2; }
        excl+=("$2"); shift 2 ;;
    -*) echo "usage: $0 [-x PATH]... ROOT" >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] && [ -d "$1" ] || { echo "usage: $0 [-x PATH]... ROOT" >&2; exit 2; }
cd "$1" || exit 2

names='sfs-ref''erence|trace-for''mats|nfs-tra''ces|test-envir''onment|road''map\.md'
lower='(?<![A-Za-z_/])(deci''sions|sty''le)\.md|\bdeci''sions D[0-9]'
paths='(?<![\w.-])(\.\./)?sha''red/(spec|ref|fixtures|hooks)|/sha''red/|(?<![\w/.-])re''f/[a-z]'
issues='\b[Ii]ssues? #?[0-9]|\bissue_[0-9]'
section=$(printf '\302\247')

paths_to_scan=()
for p in src tests scripts bench docs README.md mk rc C.wrappers M.wrappers; do
    [ -e "$p" ] && paths_to_scan+=("$p")
done
[ ${#paths_to_scan[@]} -gt 0 ] || exit 0

excluded() {
    local f=$1 x
    for x in "${excl[@]+"${excl[@]}"}"; do
        case "$x" in
        *\*) case "$f" in "${x%\*}"*) return 0 ;; esac ;;
        *) case "$f" in "$x" | "$x"/*) return 0 ;; esac ;;
        esac
    done
    return 1
}

grep -rnIP -e "$names|$lower|$paths|$issues|$section" -- "${paths_to_scan[@]}" 2>/dev/null |
    while IFS= read -r hit; do
        f=${hit%%:*}
        [ "$f" = tests/tools/citations.sh ] && continue # names what it looks for
        excluded "$f" && continue
        rest=${hit#*:}
        text=${rest#*:}
        if ! printf '%s\n' "$text" | grep -qP -e "$names|$lower|$paths|$issues"; then
            # only a section sign: fine after "SFS30.md" on the same line,
            # and anywhere in docs/SFS30.md (its own sections)
            [ "$f" = docs/SFS30.md ] && continue
            before=${text%%"$section"*}
            case "$before" in *SFS30.md*) continue ;; esac
        fi
        printf '%s\n' "$hit"
    done
exit 0
