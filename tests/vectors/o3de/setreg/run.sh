#!/usr/bin/env bash
# The Settings Registry vectors: each folder here is one case taken from
# O3DE's own tests (README names the test for each), run as
#
#   cd CASE && serval o3de setreg $(cat args)
#
# and checked against what the O3DE test asserts: `expected` is the exact
# standard output, `expected_compact` the output with the white space
# outside strings taken out (O3DE's dumper without prettifying, as its test
# spells it), `exit` the exit status (0 when absent), `stderr` a text the
# error output must contain. Each case that prints JSON is also read
# back through `serval o3de setreg merge` (a file merged by itself is the
# registry again), so the printed text is one O3DE can merge; a case with a
# `no_merge_back` file (saying why) is not.
#
#   bash tests/vectors/o3de/setreg/run.sh PATH-TO-SERVAL
set -u
if [ $# -lt 1 ] || [ ! -x "$1" ]; then
    echo "usage: bash run.sh PATH-TO-SERVAL" >&2
    exit 2
fi
SERVAL=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/serval-setreg.XXXXXX") || exit 3
trap 'rm -rf "$scratch"' EXIT
pass=0 fail=0
for dir in "$HERE"/*/; do
    name=$(basename "$dir")
    [ -f "$dir/args" ] || continue
    read -r -a args < "$dir/args"
    want_exit=0
    [ -f "$dir/exit" ] && want_exit=$(cat "$dir/exit")
    (cd "$dir" && "$SERVAL" o3de setreg "${args[@]}") > "$scratch/out" 2> "$scratch/err"
    got=$?
    ok=1
    if [ "$got" != "$want_exit" ]; then
        echo "FAIL $name: exit $got, expected $want_exit"; ok=0
    fi
    if [ -f "$dir/expected" ] && ! cmp -s "$dir/expected" "$scratch/out"; then
        echo "FAIL $name: output differs"; diff "$dir/expected" "$scratch/out" | head -20; ok=0
    fi
    if [ -f "$dir/expected_compact" ]; then
        python3 -c '
import sys
out, in_str, esc = [], False, False
for ch in sys.stdin.read():
    if in_str:
        out.append(ch)
        if esc:
            esc = False
        elif ch == "\\":
            esc = True
        elif ch == "\"":
            in_str = False
    elif ch == "\"":
        out.append(ch)
        in_str = True
    elif ch not in " \t\r\n":
        out.append(ch)
print("".join(out))' < "$scratch/out" > "$scratch/compact"
        if ! cmp -s "$dir/expected_compact" "$scratch/compact"; then
            echo "FAIL $name: compact output differs"; diff "$dir/expected_compact" "$scratch/compact"; ok=0
        fi
    fi
    if [ -f "$dir/stderr" ] && ! grep -qF -- "$(cat "$dir/stderr")" "$scratch/err"; then
        echo "FAIL $name: standard error lacks '$(cat "$dir/stderr")'"; cat "$scratch/err"; ok=0
    fi
    if [ "$want_exit" = 0 ] && [ "${args[0]}" = merge ] && [ ! -f "$dir/no_merge_back" ]; then
        # the merged view, merged again by itself, is the same registry
        cp "$scratch/out" "$scratch/again.setreg"
        if ! "$SERVAL" o3de setreg merge "$scratch/again.setreg" > "$scratch/out2" 2>&1 ||
            ! cmp -s "$scratch/out" "$scratch/out2"; then
            echo "FAIL $name: the merged output does not merge back to itself"; ok=0
        fi
    fi
    if [ $ok = 1 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
