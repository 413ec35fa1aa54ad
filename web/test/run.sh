#!/usr/bin/env bash
# Builds the viewer page with emscripten and runs the browser tests in
# headless Chromium. Usage: run.sh BUILD_DIR SERVAL_CLI
# Exits 77 (skipped) with the reason when a tool is missing;
# scripts/install-web-deps.sh installs them all.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:?usage: run.sh BUILD_DIR SERVAL_CLI}"
cli="${2:?usage: run.sh BUILD_DIR SERVAL_CLI}"

skip() { echo "SKIP web.browser: $1 (scripts/install-web-deps.sh installs it)"; exit 77; }
command -v emcmake >/dev/null || skip "emscripten is not installed"
command -v chromium >/dev/null || skip "chromium is not installed"
command -v node >/dev/null || skip "Node.js is not installed"
[ -d "$here/node_modules/playwright-core" ] || skip "playwright-core is not installed in web/test (npm ci)"

# Debian's emscripten finds its acorn under /usr/share/nodejs.
export NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}"
# The WebAssembly zlib, Brotli, LZ4, liblzma, expat and zstd, when the
# script has built them: without them the page has no resonite, kingsisle or
# compressed Godot resources, and the tests of those say so.
prefix="$(bash "$root/scripts/install-web-deps.sh" --prefix)"
emcmake cmake -S "$root/web" -B "$build" -Wno-dev -DSERVAL_WEB_DEPS="$prefix" >/dev/null
cmake --build "$build" -j2 >/dev/null
# With zstd among them the page reads compressed Godot resources (RSCC), and
# the tests then require it to.
SERVAL_WEB_RSCC=0
if [ -f "$prefix/lib/pkgconfig/libzstd.pc" ] && [ -f "$prefix/lib/pkgconfig/zlib.pc" ]; then
  SERVAL_WEB_RSCC=1
fi
export SERVAL_WEB_RSCC

cd "$here"
SERVAL_SOURCE_DIR="$root" SERVAL_CLI="$cli" SERVAL_VIEWER="$build/serval-viewer.html" \
  node --test tjson.test.mjs search.test.mjs model.test.mjs viewer.test.mjs conformance.test.mjs
