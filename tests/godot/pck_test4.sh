#!/usr/bin/env bash
# Godot 4.6's own PCK and GDEC files through the command line, against what
# the engine read back from them (tests/godot/pck_regen4.sh wrote both):
#   - tests/vectors/godot-pck/engine4: PCKPacker packs (alignments 1 to 256,
#     members out of path order, an empty member, encrypted members and
#     directory, another key, a patch with a removal entry, the plain ones
#     again with three files changed: NAME_changed.pck) and engine.tsv:
#     every member the engine read through res:// after load_resource_pack;
#   - tests/vectors/godot-gdec/engine4: FileAccess.open_encrypted saves (key,
#     password, raw bytes, empty) and engine.tsv: what each get_var() gave.
# list and extract must give the engine's members, pack --like (also with
# the changed files) and a fresh pack the engine's bytes; the GDEC files must decrypt to the engine's values
# and encrypt back to the same bytes, directly, through dump | conv and
# through dump | jq . | conv.
#
#   bash tests/godot/pck_test4.sh PATH-TO-SERVAL
set -u
S=$1
HERE=$(cd "$(dirname "$0")" && pwd)
V="$(cd "$HERE/../.." && pwd)/tests/vectors"
E="$V/godot-pck/engine4"
G="$V/godot-gdec/engine4"
t=$(mktemp -d "${TMPDIR:-/tmp}/serval-pck4.XXXXXX") || exit 3
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
key_of() { awk -F'\t' -v n="$1" '$1 == n {print $2}' "$E/keys.tsv"; }
ZERO=$(printf '%064d' 0)

# what the engine read: "path<TAB>size<TAB>md5" per member of PACK, sorted
engine_members() {
    awk -F'\t' -v n="$1" '$1 == "M" && $2 == n {sub(/^res:\/\//, "", $3); print $3 "\t" $4 "\t" $5}' \
        "$E/engine.tsv" | LC_ALL=C sort
}

for p in "$E"/*.pck; do
    n=$(basename "$p" .pck)
    case "$n" in *_changed) continue ;; esac # below
    k=$(key_of "$n.pck")
    kk=()
    [ -n "$k" ] && kk=(--key "$k")
    # ---- list: the engine's members -------------------------------------------
    if [ "$n" = enc_key ]; then
        # the engine could not mount it (its key is not the template's): the
        # sources it packed are the reference
        [ "$(awk -F'\t' '$1 == "L" && $2 == "enc_key" {print $3}' "$E/engine.tsv")" = false ] && ok ||
            bad "enc_key.pck: the engine was expected to refuse it"
        awk -F'\t' '$1 == "S" {print "pk/enc_key/" $2 "\t" $3 "\t" $4}' "$E/engine.tsv" | LC_ALL=C sort >"$t/want"
    else
        engine_members "$n" >"$t/want"
    fi
    "$S" godot pck list "${kk[@]}" "$p" >"$t/list" 2>"$t/err" || { bad "list $n"; cat "$t/err"; }
    grep -v $'\tremoval$' "$t/list" | cut -f1-3 | LC_ALL=C sort >"$t/got"
    if [ -s "$t/want" ] && cmp -s "$t/want" "$t/got"; then ok; else bad "list $n vs the engine"; diff "$t/want" "$t/got"; fi
    # the members the generator added with encrypt = true
    case "$n" in enc_files) w=3 ;; enc_both | enc_key) w=5 ;; *) w=0 ;; esac
    [ "$(grep -c $'\tencrypted$' "$t/list")" -eq $w ] && ok || bad "list $n: $w encrypted members expected"
    # ---- extract: the engine's bytes -------------------------------------------
    d="$t/x_$n"
    if "$S" godot pck extract "${kk[@]}" "$p" -o "$d" 2>"$t/err"; then
        (cd "$d" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | while IFS= read -r f; do
            printf '%s\t%d\t%s\n' "$f" "$(wc -c <"$f")" "$(md5sum <"$f" | cut -d' ' -f1)"
        done) >"$t/xgot"
        cmp -s "$t/want" "$t/xgot" && ok || { bad "extract $n vs the engine"; diff "$t/want" "$t/xgot"; }
    else
        bad "extract $n"; cat "$t/err"
    fi
    # ---- pack --like: the same bytes -------------------------------------------
    if "$S" godot pck pack "$d" -o "$t/like.pck" --like "$p" "${kk[@]}" 2>"$t/err" && cmp -s "$t/like.pck" "$p"; then
        ok
    else
        bad "extract + pack --like $n"; cat "$t/err"
    fi
done
# the patch pack's removal entry (add_file_removal), which the engine applied:
# after mounting the patch, res://pk/plain32/hello.txt was gone
"$S" godot pck list "$E/patch.pck" | grep -qx $'pk/plain32/hello.txt\t0\t00000000000000000000000000000000\tremoval' &&
    ok || bad "patch.pck: the removal entry"
awk -F'\t' '$1 == "M" && $2 == "plain32-patched"' "$E/engine.tsv" | grep -q 'plain32/hello.txt' &&
    bad "engine.tsv: the patch was expected to remove plain32/hello.txt" || ok

# ---- pack --like with changed files: what PCKPacker wrote with those files ----
# NAME_changed.pck: the engine packed the same paths in the same order with
# three files changed (longer, shorter, empty before); the padding after them
# follows the alignment, which pack --like infers from the original's gaps
for p in "$E"/*_changed.pck; do
    n=$(basename "$p" _changed.pck)
    rm -rf "$t/c"
    if "$S" godot pck extract "$p" -o "$t/c" 2>"$t/err" &&
        "$S" godot pck pack "$t/c" -o "$t/c.pck" --like "$E/$n.pck" 2>>"$t/err" && cmp -s "$t/c.pck" "$p"; then
        ok
    else
        bad "pack --like $n.pck with three files changed != Godot 4.6's $n""_changed.pck"; cat "$t/err"
    fi
done

# ---- a fresh pack is what Godot 4.6's PCKPacker writes (members in path order)
for a in plain32:32 align1:1 align16:16; do
    n=${a%%:*}
    if "$S" godot pck pack "$t/x_$n" -o "$t/fresh.pck" --format-version 3 --godot 4.6.0 --alignment "${a#*:}" 2>"$t/err" &&
        cmp -s "$t/fresh.pck" "$E/$n.pck"; then ok; else bad "pack --format-version 3 --alignment ${a#*:} != Godot 4.6's $n.pck"; cat "$t/err"; fi
done

# ---- keys: needed, wrong -------------------------------------------------------
expect_fail() { # DESCRIPTION PATTERN COMMAND...: exit 1 with PATTERN on stderr
    local d=$1 pat=$2; shift 2
    "$@" >/dev/null 2>"$t/err"
    local rc=$?
    if [ $rc -eq 1 ] && grep -q -- "$pat" "$t/err"; then ok; else bad "$d (exit $rc)"; cat "$t/err"; fi
}
expect_fail "enc_dir.pck without a key" "a key is needed" "$S" godot pck list "$E/enc_dir.pck"
expect_fail "enc_files.pck without a key" "a key is needed" "$S" godot pck cat "$E/enc_files.pck" pk/enc_files/hello.txt
expect_fail "enc_key.pck with the templates' key" "wrong key or damaged file" \
    "$S" godot pck list --key "$ZERO" "$E/enc_key.pck"

# ---- GDEC: the engine's values, the same bytes back ------------------------------
K=$(cat "$G/key.txt")
P=$(cat "$G/password.txt")
hex2bin() { printf '%b' "$(printf '%s' "$1" | sed 's/../\\x&/g')"; }
plain_of() { # FILE: the engine's plaintext: store_var frames (u32 length, var_to_bytes)
    awk -F'\t' -v n="$1" '$1 == "G" && $2 == n {print $4}' "$G/engine.tsv" | while read -r h; do
        printf '%08x' $((${#h} / 2)) | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/'
        printf '%s' "$h"
    done
}
roundtrip() { # FILE DUMP-OPTIONS... -- CONV-OPTIONS...: three ways back to the same bytes
    local f=$1 din=() cout=()
    shift
    while [ "$1" != -- ]; do din+=("$1"); shift; done
    shift
    cout=("$@")
    "$S" conv "${din[@]}" "${cout[@]}" --to godot-enc -o "$t/re1" "$G/$f" 2>"$t/err" && cmp -s "$t/re1" "$G/$f" &&
        ok || { bad "$f: conv re-encrypt"; cat "$t/err"; }
    "$S" dump "${din[@]}" "$G/$f" >"$t/d.json" 2>"$t/err" || { bad "dump $f"; cat "$t/err"; }
    "$S" conv --from json "${cout[@]}" --to godot-enc -o "$t/re2" - <"$t/d.json" 2>"$t/err" && cmp -s "$t/re2" "$G/$f" &&
        ok || { bad "$f: dump | conv"; cat "$t/err"; }
    jq . "$t/d.json" | "$S" conv --from json "${cout[@]}" --to godot-enc -o "$t/re3" - 2>"$t/err" &&
        cmp -s "$t/re3" "$G/$f" && ok || { bad "$f: dump | jq . | conv"; cat "$t/err"; }
    if grep -q -i -e "$K" -e "$P" "$t/d.json"; then bad "$f: the key is in the dump"; else ok; fi
}
for c in "save_key.gdec key=$K" "save_pass.gdec password=$P"; do
    f=${c%% *} o=${c#* }
    hex2bin "$(plain_of "$f")" >"$t/want.bin"
    "$S" dump -I "$o" "$G/$f" 2>"$t/err" | jq '."$map".data' | "$S" conv --from json --to godot4 -o "$t/plain.bin" - 2>>"$t/err"
    if [ -s "$t/want.bin" ] && cmp -s "$t/plain.bin" "$t/want.bin"; then ok; else bad "$f: plaintext != the engine's get_var()"; cat "$t/err"; fi
    roundtrip "$f" -I "$o" -- -O "$o"
done
"$S" dump -I key="$K" -I inner=bytes "$G/raw16.gdec" | grep -q '"c2l4dGVlbiBieXRlcyEhCg=="' && ok || bad "raw16.gdec as bytes"
roundtrip raw16.gdec -I key="$K" -I inner=bytes -- -O key="$K"
[ "$("$S" dump --compact -I key="$K" -I inner=bytes "$G/empty.gdec" | jq -c '."$map".data')" = '{"$bytes":""}' ] &&
    ok || bad "empty.gdec: no bytes"
roundtrip empty.gdec -I key="$K" -I inner=bytes -- -O key="$K"
# without inner=: the engine's get_var() loop read no value from it, so it is
# a store_var stream of none
[ "$("$S" dump --compact -I key="$K" "$G/empty.gdec" 2>"$t/err" | jq -c '."$map".data')" = \
    '{"$array":[],"$meta":{"format":"godot4","framing":"stream"}}' ] && ok || { bad "empty.gdec: no values"; cat "$t/err"; }
[ "$(awk -F'\t' '$1 == "N" && $2 == "empty.gdec" {print $3}' "$G/engine.tsv")" = 0 ] && ok ||
    bad "engine.tsv: the engine was expected to read no value from empty.gdec"
roundtrip empty.gdec -I key="$K" -- -O key="$K"
expect_fail "GDEC 4 wrong password" "wrong key or damaged file" "$S" dump -I password=nope "$G/save_pass.gdec"
expect_fail "GDEC 4 without a key" "a key is needed" "$S" dump "$G/save_key.gdec"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
