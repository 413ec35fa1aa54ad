#!/usr/bin/env bash
# Installs what the browser viewer (web/) needs to build and be tested on
# Debian 12: emscripten (the WebAssembly build), chromium (the browser the
# tests drive), Node.js and npm, then playwright-core from web/test's lock
# file (npm ci). apt-get runs only for what is missing; npm ci only when the
# installed packages do not match the lock file. Safe to run again.
#
# The resonite and kingsisle formats need zlib, Brotli, LZ4, liblzma and
# expat in WebAssembly, Godot's compressed resources zlib and zstd. They are built from Debian's own source packages
# (apt-get source, with a deb-src entry added for the system's Debian
# suites) by web/deps/ into a cache outside the repository:
# ${SERVAL_WEB_DEPS:-~/.cache/serval-web-deps}/prefix, which web/test/run.sh
# and make web hand to the viewer's build. Built once; a later run finds the
# prefix's stamp and does nothing.
#
#   install-web-deps.sh            installs and builds what is missing
#   install-web-deps.sh --prefix   prints that prefix (built or not) and exits
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
deps="${SERVAL_WEB_DEPS:-${XDG_CACHE_HOME:-$HOME/.cache}/serval-web-deps}"
if [ "${1:-}" = "--prefix" ]; then
  echo "$deps/prefix"
  exit 0
fi

packages=(emscripten chromium dpkg-dev)
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -gt 0 ]; then
  echo "install-web-deps: installing ${missing[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# npm ci writes node_modules/.package-lock.json; when it equals the lock
# file's packages, the install is current.
cd "$root/web/test"
if ! cmp -s <(node -e 'const l=require("./package-lock.json");delete l.packages[""];console.log(JSON.stringify(l.packages))' 2>/dev/null) \
            <(node -e 'console.log(JSON.stringify(require("./node_modules/.package-lock.json").packages))' 2>/dev/null); then
  echo "install-web-deps: npm ci in web/test" >&2
  npm ci --no-audit --no-fund --silent
fi

# ---- zlib, Brotli, LZ4, liblzma, expat and zstd for WebAssembly ---------------
source_packages=(zlib brotli lz4 xz-utils expat libzstd)
stamp="$deps/prefix/.serval-web-deps"
# Builds them into $deps/prefix; any step that fails leaves no stamp.
build_web_libraries() {
  local SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  # apt-get source needs the source indexes: a deb-src entry for the same
  # archive and suites as the system's deb822 or one-line entries.
  if ! apt-get source --simulate zlib >/dev/null 2>&1; then
    local list=/etc/apt/sources.list.d/serval-web-deps-src.sources suites
    echo "install-web-deps: adding Debian source entries ($list)" >&2
    suites="$(. /etc/os-release && echo "$VERSION_CODENAME $VERSION_CODENAME-updates")"
    printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
      "$suites" | $SUDO tee "$list" >/dev/null || return 1
    $SUDO apt-get update -qq || return 1
  fi
  echo "install-web-deps: building ${source_packages[*]} for WebAssembly in $deps" >&2
  rm -rf "$deps/src" "$deps/build" "$deps/prefix"
  mkdir -p "$deps/src"
  (cd "$deps/src" && apt-get source -qq "${source_packages[@]}" >/dev/null 2>&1) || return 1
  NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}" emcmake cmake -S "$root/web/deps" \
    -B "$deps/build" -DSOURCES="$deps/src" -DCMAKE_INSTALL_PREFIX="$deps/prefix" -Wno-dev >/dev/null &&
  NODE_PATH="/usr/share/nodejs${NODE_PATH:+:$NODE_PATH}" cmake --build "$deps/build" -j2 \
    --target install >/dev/null || return 1
  echo "${source_packages[*]}" > "$stamp"
}
if [ "$(cat "$stamp" 2>/dev/null)" != "${source_packages[*]}" ]; then
  # Without them the viewer is built without resonite, kingsisle and
  # compressed Godot resources, and its tests of those say they are
  # skipped: not a reason to stop.
  build_web_libraries ||
    echo "install-web-deps: could not build ${source_packages[*]} for WebAssembly" \
         "(apt-get source or emcc failed); the viewer leaves out resonite, kingsisle and" \
         "compressed Godot resources" >&2
fi
