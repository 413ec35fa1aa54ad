#!/usr/bin/env bash
# Regenerates the Godot 4.6 vectors of godot-res (tests/vectors/godot-res/v4/)
# from gen_res4.gd, run by the official Godot 4.6 web export template in
# headless Chromium (the machinery of regen4.sh: godot4_run.mjs with
# GODOT4_GEN=gen_res4.gd). Writes each saved file (.res, .scn) and beside it
# <name>.json, what the engine read back from it. Exit 77 when Chromium, node
# or the engine package are unavailable.
#
#   bash tests/godot/regen_res4.sh
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEST="$ROOT/tests/vectors/godot-res/v4"
# shellcheck source=godot4_engine.sh
. "$HERE/godot4_engine.sh"
engine="$ENGINE4"

work=$(mktemp -d "${TMPDIR:-/tmp}/serval-godot-res4.XXXXXX")
trap 'rm -rf "$work"' EXIT
GODOT4_GEN=gen_res4.gd node "$HERE/godot4_run.mjs" "$engine" "$work"
mkdir -p "$work/dest"
count=0
while IFS=$'\t' read -r kind name a b; do
    case "$kind" in
    R) printf '%s' "$b" | xxd -r -p >"$work/dest/$name.$a"; count=$((count + 1)) ;;
    J) printf '%s\n' "$a" >"$work/dest/$name.json" ;;
    esac
done <"$work/stdout.txt"
if [ "$count" -lt 5 ]; then
    echo "only $count files came out"; tail -n 20 "$work/stdout.txt"; exit 1
fi
rm -rf "$DEST"
mkdir -p "$DEST"
cp "$work/dest/"* "$DEST/"
echo "regen_res4: wrote $count files to $DEST"
