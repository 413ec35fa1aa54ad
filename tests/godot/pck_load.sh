#!/usr/bin/env bash
# A pack serval writes is one Godot 3.2.3 loads: 'serval godot pck pack
# --format-version 1 --godot 3.2.3' of a directory, then godot3-server mounts
# it with ProjectSettings.load_resource_pack and reads every member back
# through res://; sizes and MD5s must be those of the files. The same for a
# pack 'pack --like' rewrote with a changed member. Exit 77 (skipped) when
# godot3-server is not installed.
#
#   bash tests/godot/pck_load.sh PATH-TO-SERVAL
set -u
S=$1
HERE=$(cd "$(dirname "$0")" && pwd)
GODOT=${GODOT3_SERVER:-godot3-server}
if ! command -v "$GODOT" >/dev/null 2>&1; then
    echo "godot3-server not found; skipping (install the Debian package godot3-server)"
    exit 77
fi
t=$(mktemp -d "${TMPDIR:-/tmp}/serval-pck-load.XXXXXX") || exit 3
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/src/loaded/sub" "$t/home" "$t/proj"
printf 'written by serval\n' >"$t/src/loaded/hello.txt"
head -c 5000 /dev/urandom >"$t/src/loaded/sub/random.bin"
: >"$t/src/loaded/empty.txt"
cp "$HERE/pck_load.gd" "$t/proj/"
fail=0
load() { # PACK DIR: the engine's view of every file under DIR
    local pack=$1 dir=$2 paths=() want got
    while IFS= read -r f; do paths+=("res://${f#"$dir"/}"); done < <(find "$dir" -type f | sort)
    (cd "$t/proj" && HOME="$t/home" XDG_DATA_HOME="$t/home" XDG_CONFIG_HOME="$t/home" \
        XDG_CACHE_HOME="$t/home" timeout 120 "$GODOT" -s pck_load.gd -- "$pack" "${paths[@]}" \
        >"$t/stdout.txt" 2>"$t/stderr.txt")
    got=$(grep -E $'^(L|M)\t' "$t/stdout.txt")
    want=$(printf 'L\tTrue'
        for p in "${paths[@]}"; do
            f="$dir/${p#res://}"
            printf '\nM\t%s\t%d\t%s' "$p" "$(wc -c <"$f")" "$(md5sum <"$f" | cut -d' ' -f1)"
        done)
    if [ "$got" = "$want" ]; then
        echo "ok: Godot 3.2.3 loaded $(basename "$pack") and read ${#paths[@]} members back"
    else
        echo "FAIL: $(basename "$pack"): the engine read"; echo "$got"; echo "expected"; echo "$want"
        tail -n 5 "$t/stderr.txt"
        fail=1
    fi
}
"$S" godot pck pack "$t/src" -o "$t/serval.pck" --format-version 1 --godot 3.2.3 || exit 1
load "$t/serval.pck" "$t/src"
"$S" godot pck pack "$t/src" -o "$t/aligned.pck" --format-version 1 --godot 3.2.3 --alignment 64 || exit 1
load "$t/aligned.pck" "$t/src"
printf 'changed, and longer than before\n' >"$t/src/loaded/hello.txt"
"$S" godot pck pack "$t/src" -o "$t/like.pck" --like "$t/aligned.pck" || exit 1
load "$t/like.pck" "$t/src"
exit $fail
