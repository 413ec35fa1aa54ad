#!/usr/bin/env bash
# Regenerates the Godot 3.2.3 oracle vectors of PCK archives, encrypted files
# and project.binary from pck_gen.gd, or with --check compares a fresh run
# with the committed ones byte for byte (exit 0 = identical, 1 = different,
# 77 = godot3-server absent). Godot 3's output here has no randomness: its
# GDEC files are AES-ECB without an IV.
#
#   bash tests/godot/pck_regen.sh            # rewrite the vectors
#   bash tests/godot/pck_regen.sh --check    # CTest: godot.pck_oracle_regen
#
# Output:
#   tests/vectors/godot-pck/engine3/    PCKPacker packs, and engine.tsv: what the
#                                       engine read back after load_resource_pack
#                                       (L: mounted; M: path, size, MD5 per member)
#   tests/vectors/godot-gdec/engine3/   File.open_encrypted saves (key.txt holds the
#                                       key, password.txt the password), and
#                                       engine.tsv (G: file, var2str, var2bytes hex
#                                       of each get_var())
#   tests/vectors/godot-project/engine3/project.binary (ProjectSettings.save_custom)
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
V="$HERE/../vectors"
GODOT=${GODOT3_SERVER:-godot3-server}
if ! command -v "$GODOT" >/dev/null 2>&1; then
    echo "godot3-server not found; skipping (install the Debian package godot3-server)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/serval-godot-pck.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$HERE/pck_gen.gd" "$work/"
mkdir -p "$work/home"
(cd "$work" && HOME="$work/home" XDG_DATA_HOME="$work/home" XDG_CONFIG_HOME="$work/home" \
    XDG_CACHE_HOME="$work/home" LANG=en_US.UTF-8 LC_ALL=en_US.UTF-8 \
    timeout 120 "$GODOT" -s pck_gen.gd >"$work/stdout.txt" 2>"$work/stderr.txt") || {
    echo "godot3-server failed:"; tail -n 20 "$work/stderr.txt"; exit 1; }
mkdir -p "$work/new/godot-pck/engine3" "$work/new/godot-gdec/engine3" "$work/new/godot-project/engine3"
cp "$work"/out/*.pck "$work/new/godot-pck/engine3/"
cp "$work"/out/*.gdec "$work/new/godot-gdec/engine3/"
cp "$work/out/project.binary" "$work/new/godot-project/engine3/"
key=$(sed -n 's/^const KEY_HEX = "\(.*\)"$/\1/p' "$HERE/pck_gen.gd")
pass=$(sed -n 's/^const PASSWORD = "\(.*\)"$/\1/p' "$HERE/pck_gen.gd")
printf '%s\n' "$key" >"$work/new/godot-gdec/engine3/key.txt"
printf '%s\n' "$pass" >"$work/new/godot-gdec/engine3/password.txt"
hdr='# written by tests/godot/pck_regen.sh from what Godot 3.2.3 read back; do not edit.'
{ echo "$hdr"; grep -E '^(L|M)'$'\t' "$work/stdout.txt"; } >"$work/new/godot-pck/engine3/engine.tsv"
{ echo "$hdr"; grep -E '^G'$'\t' "$work/stdout.txt"; } >"$work/new/godot-gdec/engine3/engine.tsv"
n=$(grep -c $'^M\t' "$work/new/godot-pck/engine3/engine.tsv" || true)
if [ "$n" -lt 12 ]; then
    echo "only $n member read-backs came out; stderr:"; tail -n 20 "$work/stderr.txt"; exit 1
fi
if [ "${1:-}" = "--check" ]; then
    status=0
    for d in godot-pck/engine3 godot-gdec/engine3 godot-project/engine3; do
        diff -r "$V/$d" "$work/new/$d" >"$work/diff.txt" || {
            echo "regenerated $d differs from the committed vectors:"; head -n 20 "$work/diff.txt"
            status=1
        }
    done
    [ $status = 0 ] && echo "the Godot 3.2.3 PCK, GDEC and project.binary vectors regenerate byte for byte"
    exit $status
fi
for d in godot-pck/engine3 godot-gdec/engine3 godot-project/engine3; do
    rm -rf "${V:?}/$d"
    mkdir -p "$V/$d"
    cp -r "$work/new/$d/." "$V/$d/"
done
echo "wrote $(find "$work/new" -type f | wc -l) files under tests/vectors/godot-{pck,gdec,project}/engine3"
