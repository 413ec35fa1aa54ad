#!/usr/bin/env bash
# Embeds serval in a project with add_subdirectory(), asking for JSON and
# Godot only (without compressed resources, SERVAL_WITH_GODOT_RSCC=OFF), and
# proves that such a project needs no compression library:
#   - configure runs where pkg-config sees no .pc file at all, so a lookup of
#     Brotli, LZMA, LZ4, libzip or zlib would fail it, and the cache shows
#     that pkg-config was never even searched for;
#   - serval's tests, benchmark, examples and CLI are off by default, and it
#     forces no build type and no flags on the embedding project's target;
#   - neither the program's link command nor its ELF dependencies (nor the
#     shared libserval's) name a compression library;
#   - the program (subdir/embedder.c) runs: the registry lists json, godot4,
#     godot3, godot-doc, godot-res, godot-enc and godot-project, and a Godot 4 blob comes back byte for byte.
# Usage: subdir.sh <serval-source-dir>
set -euo pipefail
src=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
compression='brotli|lzma|lz4|libzip|-lzip|zlib|libz\.|-lz( |$)'

mkdir "$tmp/no-pc"
export PKG_CONFIG_LIBDIR="$tmp/no-pc" PKG_CONFIG_PATH=""
b="$tmp/build"
cmake -S "$here/subdir" -B "$b" -DSERVAL_SOURCE_DIR="$src" \
      -DSERVAL_WITH_RESONITE=OFF -DSERVAL_WITH_NOESIS=OFF -DSERVAL_WITH_BSON=OFF -DSERVAL_WITH_KINGSISLE=OFF \
      -DSERVAL_WITH_O3DE=OFF -DSERVAL_WITH_GODOT_RSCC=OFF -DSERVAL_WITH_OPENSSL=OFF >"$tmp/configure.log" 2>&1 \
  || { cat "$tmp/configure.log"; fail "configure"; }
grep -q 'serval: formats json;godot$' "$tmp/configure.log" || fail "configure did not report 'formats json;godot'"

cache=$(grep -v '^//' "$b/CMakeCache.txt" | grep -v '^#')
for opt in SERVAL_TESTS SERVAL_BENCH SERVAL_EXAMPLES SERVAL_CLI SERVAL_WERROR; do
  grep -qx "$opt:BOOL=OFF" <<<"$cache" || fail "$opt is not OFF by default in a subproject"
done
grep -qx 'CMAKE_BUILD_TYPE:STRING=' <<<"$cache" || fail "serval set the build type of the project embedding it"
if grep -E 'PKG_CONFIG|SERVAL_DEPS' <<<"$cache"; then fail "pkg-config was looked up"; fi
if grep -iE "$compression" <<<"$cache"; then fail "the cache names a compression library"; fi
echo "configure: no pkg-config, no compression library looked up; tests, bench, examples, CLI off"

cmake --build "$b" -j2 >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "build"; }
test ! -e "$b/serval/serval" || fail "the CLI was built"
test ! -d "$b/serval/tests" || fail "serval's tests were configured"
if grep -E -- '-Werror|-Wshadow' "$b/CMakeFiles/embedder.dir/flags.make"; then
  fail "serval's warning flags reached the embedding project's target"
fi

link="$b/CMakeFiles/embedder.dir/link.txt"
if grep -iE "$compression" "$link"; then fail "the link command names a compression library"; fi
so=$(find "$b/serval" -name 'libserval.so*' -type f | head -n 1)
test -n "$so" || fail "no shared libserval was built"
for elf in "$b/embedder" "$so"; do
  needed=$(readelf -d "$elf" | awk '/NEEDED/ { print $NF }')
  echo "$(basename "$elf") needs: $(tr '\n' ' ' <<<"$needed")"
  if grep -iE 'brotli|lzma|lz4|zip|libz\.' <<<"$needed"; then fail "$elf needs a compression library"; fi
done

"$b/embedder"
echo "1 passed, 0 failed"
