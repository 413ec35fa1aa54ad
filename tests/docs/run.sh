#!/usr/bin/env bash
# Runs every command of the ```sh blocks of README.md and docs/ (docs/*.md,
# docs/formats/*.md) as written, with the serval under test first on the
# PATH, and fails when one exits non-zero (pipelines too: pipefail).
#
#   bash tests/docs/run.sh PATH-TO-SERVAL SOURCE-DIR
#
# The commands of a file run one after another in one scratch directory
# holding a copy of examples/, both as examples/ (README.md's commands run
# from the repository's top directory) and at the top (the format pages name
# the example files directly). A line ending in "\" continues on the next;
# lines starting with "#" are comments.
set -u
if [ $# -ne 2 ] || [ ! -x "$1" ]; then
    echo "usage: bash run.sh PATH-TO-SERVAL SOURCE-DIR" >&2
    exit 2
fi
BIN=$(cd "$(dirname "$1")" && pwd)
SRC=$(cd "$2" && pwd)
# The binary must be called serval on the PATH.
[ "$(basename "$1")" = serval ] || { echo "the binary must be named serval" >&2; exit 2; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/serval-docs.XXXXXX") || exit 3
trap 'rm -rf "$scratch"' EXIT
command -v jq >/dev/null || { echo "jq not found; skipping"; exit 77; }

passed=0
failed=0
for doc in "$SRC/README.md" "$SRC"/docs/*.md "$SRC"/docs/formats/*.md; do
    [ -f "$doc" ] || continue
    rel=${doc#"$SRC"/}
    work="$scratch/$(echo "$rel" | tr / _)"
    mkdir -p "$work"
    cp -R "$SRC/examples" "$work/examples"
    cp "$SRC"/examples/*.* "$work/" 2>/dev/null
    # One command per record, separated by NUL.
    awk '
        /^```(sh|bash)[ \t]*$/ { inblock = 1; next }
        /^```/ { inblock = 0; next }
        !inblock { next }
        /^[ \t]*#/ && cmd == "" { next }
        /^[ \t]*$/ && cmd == "" { next }
        {
            line = $0
            if (line ~ /\\$/) { cmd = cmd substr(line, 1, length(line) - 1) " "; next }
            cmd = cmd line
            printf "%s%c", cmd, 0
            cmd = ""
        }
    ' "$doc" >"$scratch/cmds"
    while IFS= read -r -d '' cmd; do
        out="$scratch/out.txt"
        if (cd "$work" && PATH="$BIN:$PATH" bash -o pipefail -c "$cmd" </dev/null >"$out" 2>&1); then
            passed=$((passed + 1))
            echo "ok - $rel: $cmd"
        else
            failed=$((failed + 1))
            echo "not ok - $rel: $cmd"
            sed -e 's/^/#   /' "$out" | head -n 20
        fi
    done <"$scratch/cmds"
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
