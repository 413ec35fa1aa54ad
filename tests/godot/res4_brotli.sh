#!/usr/bin/env bash
# Has Godot 4.6 (the official web export template in headless Chromium, as
# regen_res4.sh runs it) load the Brotli-compressed resources of
# tests/vectors/godot-res/brotli4/ (RSCC mode 4, made by make_brotli.py
# there: Godot reads the mode but never writes it) and records what it read
# back from each as <name>.json beside it, in the form of the v4 vectors'.
# With --check it compares a fresh readback with the committed one instead.
# Exit 0 = done (or the same), 1 = the engine could not load a file or read
# something else, 77 = Chromium, node or the engine package unavailable.
#
#   bash tests/godot/res4_brotli.sh            # write <name>.json
#   bash tests/godot/res4_brotli.sh --check    # compare
# (KEEP_WORK=1 keeps the scratch folder with everything the engine printed.)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEST="$ROOT/tests/vectors/godot-res/brotli4"
# shellcheck source=godot4_engine.sh
. "$HERE/godot4_engine.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/serval-res4-brotli.XXXXXX")
trap '[ -n "${KEEP_WORK:-}" ] || rm -rf "$work"' EXIT
mkdir -p "$work/in" "$work/out"
cp "$DEST"/*.res "$work/in/"
GODOT4_GEN=gen_res4.gd GODOT4_INPUT="$work/in" node "$HERE/godot4_run.mjs" "$ENGINE4" "$work"
status=0
for f in "$work/in"/*.res; do
    name=$(basename "$f" .res)
    hex=$(awk -F'\t' -v n="$name" '$1 == "R" && $2 == n { print $4 }' "$work/stdout.txt")
    if [ "$hex" != "$(xxd -p "$f" | tr -d '\n')" ]; then
        echo "res4_brotli: the engine did not see $name.res as given"; status=1; continue
    fi
    awk -F'\t' -v n="$name" '$1 == "J" && $2 == n { print $3 }' "$work/stdout.txt" >"$work/out/$name.json"
    if [ ! -s "$work/out/$name.json" ]; then
        echo "res4_brotli: Godot 4.6 could not load $name.res:"
        grep '^E' "$work/stdout.txt" | head -n 5
        status=1
    fi
done
[ $status -eq 0 ] || exit 1
if [ "${1:-}" = "--check" ]; then
    for f in "$work/out"/*.json; do
        cmp -s "$f" "$DEST/$(basename "$f")" || { echo "res4_brotli: $(basename "$f") differs"; status=1; }
    done
    [ $status -eq 0 ] && echo "res4_brotli: Godot 4.6 reads every Brotli resource as recorded"
    exit $status
fi
cp "$work/out"/*.json "$DEST/"
echo "res4_brotli: Godot 4.6 loaded $(ls "$work/out" | wc -l) Brotli resources; readback in $DEST"
