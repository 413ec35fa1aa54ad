#!/usr/bin/env bash
# Regenerates the Godot 3.2.3 vectors of godot-res (tests/vectors/godot-res/v3/)
# from gen_res3.gd: the files the engine saved (.res, .scn) and, beside each,
# <name>.json with what the engine read back from it (see gen_res3.gd).
# With --check it compares a fresh run with the committed files instead
# (exit 0 = the same, 1 = different). Exit 77 when godot3-server is absent.
#
#   bash tests/godot/regen_res3.sh            # rewrite the vectors
#   bash tests/godot/regen_res3.sh --check    # CTest: godot.res3_regen
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
DEST="$HERE/../vectors/godot-res/v3"
GODOT=${GODOT3_SERVER:-godot3-server}
if ! command -v "$GODOT" >/dev/null 2>&1; then
    echo "godot3-server not found; skipping (install the Debian package godot3-server)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/serval-godot-res.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$HERE/gen_res3.gd" "$HERE/jsonexp.gd" "$HERE/res3/holder.gd" "$work/"
mkdir -p "$work/home"
# A private HOME/XDG; res:// is the scratch folder.
(cd "$work" && HOME="$work/home" XDG_DATA_HOME="$work/home" XDG_CONFIG_HOME="$work/home" \
    XDG_CACHE_HOME="$work/home" LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 \
    "$GODOT" -s gen_res3.gd >"$work/stdout.txt" 2>"$work/stderr.txt") || {
    echo "godot3-server failed:"; tail -n 20 "$work/stderr.txt"; exit 1; }
count=0
mkdir -p "$work/dest"
while IFS= read -r line; do
    case "$line" in J$'\t'*) ;; *) continue ;; esac
    name=$(printf '%s' "$line" | awk -F'\t' '{print $2}')
    printf "%s\n" "$line" | awk -F"\t" "{print \$3}" >"$work/dest/$name.json"
    for ext in res scn; do
        [ -f "$work/out/v3/$name.$ext" ] && cp "$work/out/v3/$name.$ext" "$work/dest/"
    done
    count=$((count + 1))
done <"$work/stdout.txt"
if [ "$count" -lt 10 ]; then
    echo "only $count files came out; stderr:"; tail -n 20 "$work/stderr.txt"; exit 1
fi
if [ "${1:-}" = "--check" ]; then
    if diff -r "$DEST" "$work/dest" >"$work/diff.txt"; then
        echo "the $count godot-res v3 files and their readback regenerate byte for byte"
        exit 0
    fi
    echo "regenerated files differ from tests/vectors/godot-res/v3:"; head -n 40 "$work/diff.txt"
    exit 1
fi
rm -rf "$DEST"
mkdir -p "$DEST"
cp "$work/dest/"* "$DEST/"
echo "wrote $count files to $DEST"
