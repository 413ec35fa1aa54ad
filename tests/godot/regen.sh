#!/usr/bin/env bash
# Regenerates the Godot 3.2.3 oracle vectors (tests/vectors/godot/oracle/)
# from gen.gd, or with --check compares a fresh run with the committed ones
# byte for byte (exit 0 = identical, 1 = different, 77 = godot3-server absent).
#
#   bash tests/godot/regen.sh            # rewrite the vectors
#   bash tests/godot/regen.sh --check    # CTest: godot.oracle_regen
#
# Output: oracle/index.tsv (one line per vector: name, kind, options,
# expected, re-encoded hex, expression; see gen.gd) and oracle/<name>.bin
# (the input bytes).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DEST="$HERE/../vectors/godot/oracle"
GODOT=${GODOT3_SERVER:-godot3-server}
if ! command -v "$GODOT" >/dev/null 2>&1; then
    echo "godot3-server not found; skipping (install the Debian package godot3-server)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/serval-godot.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$HERE/gen.gd" "$HERE/jsonexp.gd" "$work/"
mkdir -p "$work/home" "$work/out"
# A private HOME/XDG: the engine writes user:// files and its settings there.
(cd "$work" && HOME="$work/home" XDG_DATA_HOME="$work/home" XDG_CONFIG_HOME="$work/home" \
    XDG_CACHE_HOME="$work/home" LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 \
    "$GODOT" -s gen.gd >"$work/stdout.txt" 2>"$work/stderr.txt") || {
    echo "godot3-server failed:"; tail -n 20 "$work/stderr.txt"; exit 1; }
{
    printf '# Godot 3.2.3 oracle vectors, written by tests/godot/regen.sh from gen.gd; do not edit.\n'
    printf '# name\tkind\toptions\texpected\tre-encoded hex\texpression (the input is <name>.bin)\n'
} >"$work/out/index.tsv"
count=0
# awk splits at every tab (bash's read would merge empty fields)
while IFS= read -r line; do
    case "$line" in V$'\t'*) ;; *) continue ;; esac
    name=$(printf '%s' "$line" | awk -F'\t' '{print $2}')
    kind=$(printf '%s' "$line" | awk -F'\t' '{print $3}')
    opts=$(printf '%s' "$line" | awk -F'\t' '{print $4}')
    hex=$(printf '%s' "$line" | awk -F'\t' '{print $5}')
    expected=$(printf '%s' "$line" | awk -F'\t' '{print $6}')
    reenc=$(printf '%s' "$line" | awk -F'\t' '{print $7}')
    expr=$(printf '%s' "$line" | awk -F'\t' '{print $8}')
    printf '%b' "$(printf '%s' "$hex" | sed 's/../\\x&/g')" >"$work/out/$name.bin"
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$kind" "$opts" "$expected" "$reenc" "$expr" \
        >>"$work/out/index.tsv"
    count=$((count + 1))
done <"$work/stdout.txt"
if [ "$count" -lt 100 ]; then
    echo "only $count vectors came out; stderr:"; tail -n 20 "$work/stderr.txt"; exit 1
fi
if [ "${1:-}" = "--check" ]; then
    if diff -r "$DEST" "$work/out" >"$work/diff.txt"; then
        echo "the $count oracle vectors regenerate byte for byte"
        exit 0
    fi
    echo "regenerated vectors differ from tests/vectors/godot/oracle:"; head -n 40 "$work/diff.txt"
    exit 1
fi
rm -rf "$DEST"
mkdir -p "$DEST"
cp "$work/out/"* "$DEST/"
echo "wrote $count vectors to $DEST"
