#!/usr/bin/env bash
# make install DESTDIR=... as a packager runs it: the manual page reads with
# man(1), the bash completion completes the commands, and the documents the
# help points to are under share/doc/serval. Usage: man.sh <source-dir> <build-dir>
set -euo pipefail
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
prefix=/usr/local
make -C "$src" --no-print-directory install-only BUILD="$build" PREFIX="$prefix" DESTDIR="$tmp/stage" >/dev/null
root="$tmp/stage$prefix"
test -x "$root/bin/serval"
# man, as a user runs it once the files are in place (MANPATH: the staging tree).
page=$(MANPATH="$root/share/man" MANWIDTH=80 man serval 2>&1)
grep -q "serval - read, convert and write game-engine serialization formats" <<<"$page" ||
    { echo "man serval: $page" | head; exit 1; }
grep -q -- "--output-dir DIR" <<<"$page" || { echo "man page lacks --output-dir"; exit 1; }
for f in README.md json.md schema.md security.md formats/godot.md formats/noesis.md; do
    test -f "$root/share/doc/serval/$f" || { echo "missing share/doc/serval/$f"; exit 1; }
done
test -f "$root/share/zsh/vendor-completions/_serval" || { echo "no zsh completion"; exit 1; }
comp="$root/share/bash-completion/completions/serval"
test -f "$comp" || { echo "no bash completion"; exit 1; }
got=$(PATH="$root/bin:$PATH" bash -c 'source "$1"; COMP_WORDS=(serval v); COMP_CWORD=1; _serval; echo "${COMPREPLY[*]}"' _ "$comp")
[ "$got" = "validate version" ] || { echo "bash completion of 'serval v': '$got'"; exit 1; }
got=$(PATH="$root/bin:$PATH" bash -c 'source "$1"; COMP_WORDS=(serval conv --to bs); COMP_CWORD=3; _serval; echo "${COMPREPLY[*]}"' _ "$comp")
[ "$got" = "bson" ] || { echo "bash completion of 'serval conv --to bs': '$got'"; exit 1; }
echo "1 passed, 0 failed"
