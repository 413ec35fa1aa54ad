#!/usr/bin/env bash
# Golden tests of the serval command.
#
#   bash tests/cli/run.sh PATH-TO-SERVAL [VERSION]
#
# VERSION is the version project(VERSION) in CMakeLists.txt gives (CTest
# passes it); an expected stdout or stderr may say @SERVAL_VERSION@ for it.
#
# Each directory in cases/ is one test, of one of two kinds:
#  - a golden case: `cmd` holds the arguments on one line (split at spaces, no
#    quoting), run with the case directory as the working directory, so the
#    arguments name files there or ../../../vectors/...; `stdin` (optional)
#    is fed to standard input; `stdout`, `stderr` and `exit` hold what must
#    come out, byte for byte (a missing stdout/stderr means empty, a missing
#    exit means 0);
#  - a scripted case: `script` is run with bash in a fresh scratch directory,
#    with SERVAL (the binary), CASE (the case directory) and VECTORS (the
#    vectors directory) in the environment; it passes when it exits 0 and
#    says what went wrong on its output otherwise; it exits 77 to be skipped
#    (a tool it needs, such as jq, is not installed), saying why.
# A case that needs formats a build may leave out says so: a name starting
# with a format group of the manifest and "-" ("godot-", "bson-", ...) needs that format, and a
# `requires` file lists more ("all": output that names every format, as the
# format list and the help do). When SERVAL_FORMATS (the formats built, as
# CMake passes them: "json godot bson ...") lacks one, the case is skipped;
# unset, every case runs.
# Then every typed-JSON vector in ../vectors/json/ must come back byte for
# byte, plus the final newline JSON output ends with, through `conv --from
# json --to json`, through `dump | conv`, and must pass `validate`.
#
# With SERVAL_TEST_SHARD=K/N in the environment only every Nth case (and
# vector), from the Kth, is run: CTest runs the cases as N such tests side
# by side.
#
# Prints one TAP-like line per check and, last, "N passed, M failed, K
# skipped". Exits
# non-zero when anything failed.
set -u

if [ $# -lt 1 ] || [ $# -gt 2 ] || [ ! -x "$1" ]; then
    echo "usage: bash run.sh PATH-TO-SERVAL [VERSION]" >&2
    exit 2
fi
VERSION=${2:-}
SERVAL=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
VECTORS=$(cd "$HERE/../vectors" && pwd)
export SERVAL VECTORS

scratch=$(mktemp -d "${TMPDIR:-/tmp}/serval-cli.XXXXXX") || exit 3
trap 'rm -rf "$scratch"' EXIT

# shellcheck source=../lib/shard.sh
. "$HERE/../lib/shard.sh"

count=0
passed=0
failed=0

ok() {
    count=$((count + 1))
    passed=$((passed + 1))
    echo "ok $count - $1"
}

# not_ok NAME FILE-WITH-DETAILS
not_ok() {
    count=$((count + 1))
    failed=$((failed + 1))
    echo "not ok $count - $1"
    if [ -s "$2" ]; then sed -e 's/^/#   /' "$2" | head -n 40; fi
}

# compare WHAT EXPECTED-FILE ACTUAL-FILE REPORT: appends a diff to REPORT
# when they differ. A missing EXPECTED-FILE stands for empty.
compare() {
    local expected=$2
    [ -f "$expected" ] || expected=/dev/null
    if grep -q '@SERVAL_VERSION@' "$expected"; then
        if [ -z "$VERSION" ]; then
            echo "$1 names @SERVAL_VERSION@, but no VERSION was given to run.sh" >>"$4"
            return 1
        fi
        sed "s/@SERVAL_VERSION@/$VERSION/g" "$expected" >"$scratch/expected.version"
        expected="$scratch/expected.version"
    fi
    if ! cmp -s "$expected" "$3"; then
        {
            echo "$1 differs (--- expected, +++ actual):"
            diff -u "$expected" "$3" | tail -n +3
        } >>"$4"
        return 1
    fi
    return 0
}

run_golden() {
    local dir=$1 name=$2 args=() stdin=/dev/null
    local out="$scratch/$name.stdout" err="$scratch/$name.stderr" report="$scratch/$name.report"
    read -r -a args <"$dir/cmd" || true
    [ -f "$dir/stdin" ] && stdin="$dir/stdin"
    (cd "$dir" && exec "$SERVAL" ${args[@]+"${args[@]}"} <"$stdin" >"$out" 2>"$err")
    local code=$? want=0
    [ -f "$dir/exit" ] && want=$(tr -d ' \n' <"$dir/exit")
    : >"$report"
    local good=1
    compare stdout "$dir/stdout" "$out" "$report" || good=0
    compare stderr "$dir/stderr" "$err" "$report" || good=0
    if [ "$code" != "$want" ]; then
        echo "exit code $code, expected $want" >>"$report"
        good=0
    fi
    if [ $good = 1 ]; then ok "$name"; else not_ok "$name" "$report"; fi
}

run_script() {
    local dir=$1 name=$2 work="$scratch/$name.work" report="$scratch/$name.report"
    mkdir -p "$work"
    (cd "$work" && CASE="$dir" exec bash "$dir/script") >"$report" 2>&1
    local code=$?
    if [ $code = 0 ]; then
        ok "$name"
    elif [ $code = 77 ]; then # a tool the case needs is missing: its output says which
        skipped=$((skipped + 1))
        echo "skip - $name ($(head -n 1 "$report"))"
    else
        not_ok "$name" "$report"
    fi
}

# Every format group of the manifest (its option in lower case), as CMake
# names them in SERVAL_FORMATS; library-only lines (pickle) are no format.
ALL_FORMATS=$(sed -nE 's/^SV_FORMAT_GROUP\(([A-Z0-9_]+), *(codec|schema),.*/\1/p' \
    "$HERE/../../src/formats/formats.def" | tr 'A-Z' 'a-z' | awk '!seen[$0]++' | tr '\n' ' ')
BUILT_FORMATS=${SERVAL_FORMATS:-$ALL_FORMATS}
built() { case " $BUILT_FORMATS " in *" $1 "*) return 0 ;; esac; return 1; }

# The formats case directory $1 needs, one a line.
needs() {
    local name
    name=$(basename "$1")
    case " $ALL_FORMATS " in *" ${name%%-*} "*) [ "${name%%-*}" != "$name" ] && echo "${name%%-*}" ;; esac
    if [ -f "$1/requires" ]; then
        local f
        for f in $(cat "$1/requires"); do
            if [ "$f" = all ]; then printf '%s\n' $ALL_FORMATS; else echo "$f"; fi
        done
    fi
}

skipped=0
for dir in "$HERE"/cases/*/; do
    dir=${dir%/}
    name=$(basename "$dir")
    in_shard || continue
    missing=""
    for f in $(needs "$dir"); do built "$f" || missing="$missing $f"; done
    if [ -n "$missing" ]; then
        skipped=$((skipped + 1))
        echo "skip - $name (built without:$missing)"
        continue
    fi
    if [ -f "$dir/script" ]; then
        run_script "$dir" "$name"
    elif [ -f "$dir/cmd" ]; then
        run_golden "$dir" "$name"
    else
        echo "no cmd or script" >"$scratch/$name.report"
        not_ok "$name" "$scratch/$name.report"
    fi
done

# The vectors are compact canonical typed JSON: reading and writing them
# again must give the same bytes (docs/json.md, "Writing").
for vec in "$VECTORS"/json/*.json; do
    in_shard || continue
    rel=${vec#"$VECTORS"/}
    out="$scratch/vector.out"
    report="$scratch/vector.report"
    want="$scratch/vector.want"
    { cat "$vec"; echo; } >"$want"

    : >"$report"
    "$SERVAL" conv --from json --to json "$vec" >"$out" 2>"$report"
    if [ $? = 0 ] && compare "conv output" "$want" "$out" "$report"; then
        ok "$rel: conv --from json --to json gives the same bytes"
    else
        not_ok "$rel: conv --from json --to json gives the same bytes" "$report"
    fi

    : >"$report"
    "$SERVAL" dump "$vec" 2>"$report" | "$SERVAL" conv --from json --to json - >"$out" 2>>"$report"
    if [ "${PIPESTATUS[0]}${PIPESTATUS[1]}" = 00 ] && compare "dump | conv" "$want" "$out" "$report"; then
        ok "$rel: dump | conv gives the same bytes"
    else
        not_ok "$rel: dump | conv gives the same bytes" "$report"
    fi

    : >"$report"
    "$SERVAL" validate "$vec" >"$out" 2>"$report"
    if [ $? = 0 ] && [ "$(cat "$out")" = "$vec: ok" ]; then
        ok "$rel: validate says ok"
    else
        cat "$out" >>"$report"
        not_ok "$rel: validate says ok" "$report"
    fi
done

echo "1..$count"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
