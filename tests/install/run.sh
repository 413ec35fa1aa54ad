#!/usr/bin/env bash
# Installs serval from the build tree into a temporary prefix, then builds a
# consumer program twice, with find_package(serval) and with pkg-config, and
# runs both (pkg-config --define-prefix relocates the .pc file). Usage: run.sh <build-dir>
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -x "$tmp/prefix/bin/serval"
test -f "$tmp/prefix/include/serval/serval.h"
test -f "$tmp/prefix/include/serval/version.h"
# 1. CMake package
cmake -S "$here" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$tmp/prefix" >/dev/null
cmake --build "$tmp/cm" >/dev/null
"$tmp/cm/consumer"
# 2. pkg-config, static library
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig:$tmp/prefix/lib64/pkgconfig:$tmp/prefix/lib/x86_64-linux-gnu/pkgconfig"
cc -o "$tmp/pc" "$here/consumer.c" $(pkg-config --define-prefix --cflags serval) \
   $(pkg-config --define-prefix --libs --static serval | sed 's/-lserval/-l:libserval.a/')
"$tmp/pc"
# 3. the shared library
cc -o "$tmp/so" "$here/consumer.c" $(pkg-config --define-prefix --cflags --libs serval) \
   -Wl,-rpath,"$(pkg-config --define-prefix --variable=libdir serval)"
"$tmp/so"
echo "1 passed, 0 failed"
