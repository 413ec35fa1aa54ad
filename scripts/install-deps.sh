#!/usr/bin/env bash
# Installs the Debian 12 packages serval needs to build, or to test, or to
# benchmark, calling apt-get only when something is missing. Safe to run again.
set -euo pipefail

# Profiles, each adding to the one before:
#   build (default): what building the library and the command needs:
#     compilers, CMake, pkg-config, the compression libraries the Resonite
#     format links (Brotli, LZMA, LZ4, zlib), zlib and expat for KingsIsle,
#     libssl-dev (libcrypto: encrypted Godot files and packs), libzstd-dev
#     (compressed Godot resources); jq and man-db, which make run and the
#     manual page use; python3-dev and python3-setuptools, Python's headers for
#     the C extension of the Python module (make python, pip install
#     bindings/python);
#   test: cmocka, clang and its runtime (the ASan+UBSan build and the
#     libFuzzer targets), godot3-server (the Godot 3 oracle), valgrind
#     (callgrind counts the work of decoding in tests/work/run.sh), Debian's
#     python3 and its venv module (the Python module's tests), python3-dask and
#     python3-distributed (serval.dask's test cluster), mypy (the module's type
#     stubs), time (the peak memory of tests/hostile/run.sh), rapidjson-dev
#     and g++ (O3DE's number text checked against RapidJSON's writer),
#     clang-format (scripts/check-format.sh, Debian 12's version 14); the browser
#     viewer's tools come from scripts/install-web-deps.sh;
#   bench: the benchmark peers: jansson (C), RapidJSON (from test), simdjson (C++),
#     libbson (C), brotli (the command), python3-bson with python3-bson-ext
#     (pymongo's BSON and its C extension, for bindings/python/bench/), and Node.js and npm for bench/node/
#     (a Node.js already on the PATH, from any source, is used as it is).
#
#   bash scripts/install-deps.sh [build|test|bench]
profile=${1:-build}
profile=${profile#--}
packages=(
  build-essential cmake pkg-config
  libbrotli-dev liblzma-dev liblz4-dev zlib1g-dev libexpat1-dev libzstd-dev libssl-dev
  jq man-db python3-dev python3-setuptools
)
case $profile in
  build) ;;
  test | bench)
    packages+=(libcmocka-dev clang libclang-rt-14-dev godot3-server valgrind python3 python3-venv python3-dask python3-distributed mypy strace time rapidjson-dev g++ clang-format)
    if [ "$profile" = bench ]; then
      packages+=(libjansson-dev libsimdjson-dev libbson-dev brotli python3-bson python3-bson-ext)
      command -v node >/dev/null || packages+=(nodejs)
      command -v npm >/dev/null || packages+=(npm)
    fi
    ;;
  *)
    echo "usage: bash scripts/install-deps.sh [build|test|bench]" >&2
    exit 2
    ;;
esac

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
