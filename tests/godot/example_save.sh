#!/usr/bin/env bash
# Writes examples/player.godot3: a save game as Godot 3.2.3 itself writes it
# with File.store_var (gen.gd's --example-save mode), or with --check
# compares a fresh one with the committed file (exit 77 without Godot).
#
#   bash tests/godot/example_save.sh            # rewrite the example
#   bash tests/godot/example_save.sh --check    # compare
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DEST="$HERE/../../examples/player.godot3"
GODOT=${GODOT3_SERVER:-godot3-server}
if ! command -v "$GODOT" >/dev/null 2>&1; then
    echo "godot3-server not found; skipping (install the Debian package godot3-server)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/serval-godot-save.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$HERE/gen.gd" "$HERE/jsonexp.gd" "$work/"
mkdir -p "$work/home"
(cd "$work" && HOME="$work/home" XDG_DATA_HOME="$work/home" XDG_CONFIG_HOME="$work/home" \
    XDG_CACHE_HOME="$work/home" LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 "$GODOT" -s gen.gd --example-save "$work/save.bin" \
    >"$work/log.txt" 2>&1) || { echo "godot3-server failed:"; tail -n 20 "$work/log.txt"; exit 1; }
[ -s "$work/save.bin" ] || { echo "godot3-server wrote no save"; tail -n 20 "$work/log.txt"; exit 1; }
if [ "${1:-}" = --check ]; then
    cmp "$work/save.bin" "$DEST" && echo "examples/player.godot3 is what Godot 3 writes"
else
    cp "$work/save.bin" "$DEST"
    echo "wrote $DEST ($(wc -c <"$DEST") bytes)"
fi
