#!/usr/bin/env bash
# Hostile inputs, run through the serval command with a stopwatch and a
# memory meter.
#
#   bash tests/hostile/run.sh PATH-TO-SERVAL
#
# Each directory tests/hostile/cases/NAME/ is one case: `script` is run with
# bash in a fresh scratch directory, with SERVAL (the binary) and CASE (the
# case directory) in the environment, under /usr/bin/time. It makes its
# hostile input, runs serval on it and checks serval's exit status and
# message itself; it passes when it exits 0. `limits` holds
# `seconds=S rss_mb=M`: the whole script's elapsed time and peak resident
# memory (the largest of its processes) must stay within them. The limits
# are for the normal (optimised) build; HOSTILE_SLACK=K (for the sanitizer
# builds, e.g. 10) allows K times the seconds and 3 x the memory plus 256 MB.
#
# Prints one line per case with its time and memory, and last
# "N passed, M failed". Exits non-zero when a case failed.
set -u

if [ $# -ne 1 ] || [ ! -x "$1" ]; then
    echo "usage: bash run.sh PATH-TO-SERVAL" >&2
    exit 2
fi
SERVAL=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
here=$(cd "$(dirname "$0")" && pwd)
slack=${HOSTILE_SLACK:-1}
if [ ! -x /usr/bin/time ]; then
    echo "hostile: /usr/bin/time is missing (scripts/install-deps.sh test installs 'time')" >&2
    exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

passed=0 failed=0
for dir in "$here"/cases/*/; do
    name=$(basename "$dir")
    seconds=2 rss_mb=64
    if [ -f "$dir/limits" ]; then
        for kv in $(cat "$dir/limits"); do
            case $kv in
            seconds=*) seconds=${kv#seconds=} ;;
            rss_mb=*) rss_mb=${kv#rss_mb=} ;;
            esac
        done
    fi
    if [ "$slack" != 1 ]; then
        seconds=$(awk -v s="$seconds" -v k="$slack" 'BEGIN { print s * k }')
        rss_mb=$((rss_mb * 3 + 256))
    fi
    work="$scratch/$name"
    mkdir -p "$work"
    # %e: elapsed seconds, %M: peak resident set in KB, on the last line
    out=$(cd "$work" && SERVAL=$SERVAL CASE=$dir /usr/bin/time -o "$scratch/time" -f '%e %M' \
          bash "$dir/script" 2>&1)
    rc=$?
    # A killed script makes time write "Command terminated ..." first.
    last=$(tail -n 1 "$scratch/time")
    set -- $last
    took=${1:-0} rss_kb=${2:-0}
    rss=$(awk -v k="$rss_kb" 'BEGIN { printf "%.0f", k / 1024 }')
    why=""
    [ "$rc" -eq 0 ] || why="script exited $rc"
    if awk -v t="$took" -v m="$seconds" 'BEGIN { exit !(t > m) }'; then
        why="${why:+$why; }took ${took} s > ${seconds} s"
    fi
    if [ "$rss" -gt "$rss_mb" ]; then
        why="${why:+$why; }peak RSS ${rss} MB > ${rss_mb} MB"
    fi
    if [ -z "$why" ]; then
        printf 'ok   %-36s %6s s %6s MB\n' "$name" "$took" "$rss"
        passed=$((passed + 1))
    else
        printf 'FAIL %-36s %6s s %6s MB: %s\n' "$name" "$took" "$rss" "$why"
        [ -n "$out" ] && printf '%s\n' "$out" | sed 's/^/    /'
        failed=$((failed + 1))
    fi
    rm -rf "$work"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
