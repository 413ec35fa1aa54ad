#!/usr/bin/env bash
# Installs the Debian 12 packages serval needs to build, test and benchmark,
# calling apt-get only when something is missing. Safe to run again.
set -euo pipefail

# build: compilers, CMake, and the compression/archive libraries the library
# links (Brotli, LZMA, LZ4 for Resonite; zlib for .resonitepackage members
# and KingsIsle; expat for KingsIsle);
# test: cmocka, jq for CLI examples, godot3-server (the Godot 3 oracle),
# clang's runtime for the libFuzzer targets, valgrind (callgrind counts the
# work of decoding in tests/work/run.sh);
# bench peers: jansson (C), RapidJSON (C++, header-only), libbson (C),
# Node.js and npm for the npm peers (bench/node/).
packages=(
  build-essential cmake pkg-config clang
  libbrotli-dev liblzma-dev liblz4-dev zlib1g-dev libexpat1-dev
  libcmocka-dev jq godot3-server libclang-rt-14-dev valgrind
  libjansson-dev rapidjson-dev g++ libbson-dev
)

# --bench: also Node.js and npm, for the npm peers of bench/node/ (a Node.js
# that is already on the PATH, from any source, is used as it is).
if [ "${1:-}" = "--bench" ]; then
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
