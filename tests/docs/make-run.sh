#!/usr/bin/env bash
# The commands `make run` echoes can be pasted into a shell as they are:
# runs the demo of make run (make run-demo) with the serval of BUILD-DIR, then
# runs every line it printed as "$ COMMAND" again, as a user pasting it in
# the source directory would, and fails when one exits non-zero or prints
# other output than the demo printed after it.
#
#   bash tests/docs/make-run.sh BUILD-DIR SOURCE-DIR
set -u
if [ $# -ne 2 ] || [ ! -x "$1/serval" ]; then
    echo "usage: bash make-run.sh BUILD-DIR SOURCE-DIR (BUILD-DIR holding serval)" >&2
    exit 2
fi
BUILD=$(cd "$1" && pwd)
SRC=$(cd "$2" && pwd)
command -v jq >/dev/null || { echo "jq not found; skipping"; exit 77; }
command -v make >/dev/null || { echo "make not found; skipping"; exit 77; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/serval-make-run.XXXXXX") || exit 3
trap 'rm -rf "$scratch"' EXIT

(cd "$SRC" && make -s --no-print-directory run-demo BUILD="$BUILD") >"$scratch/demo" 2>&1 ||
    { echo "not ok - make run-demo failed:"; sed 's/^/#   /' "$scratch/demo"; exit 1; }

# One file per echoed command: cmd.N holds the command, out.N what followed it.
awk -v dir="$scratch" '
    /^\$ / { n++; print substr($0, 3) > (dir "/cmd." n); printf "" > (dir "/out." n); next }
    /^The command is / { n_done = 1 }
    n && !n_done { print > (dir "/out." n) }
' "$scratch/demo"

passed=0
failed=0
for cmdfile in "$scratch"/cmd.*; do
    [ -f "$cmdfile" ] || continue
    n=${cmdfile##*.}
    cmd=$(cat "$cmdfile")
    if (cd "$SRC" && bash -o pipefail -c "$cmd") </dev/null >"$scratch/got" 2>&1 &&
        cmp -s "$scratch/got" "$scratch/out.$n"; then
        passed=$((passed + 1))
        echo "ok - pasted: $cmd"
    else
        failed=$((failed + 1))
        echo "not ok - pasted: $cmd"
        diff "$scratch/out.$n" "$scratch/got" | head -n 20 | sed 's/^/#   /'
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -ge 3 ]
