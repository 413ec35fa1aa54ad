#!/usr/bin/env bash
# PCK archives, encrypted files (GDEC) and project.binary (ECFG) through the
# command line, against what the engines wrote and read back:
#   - tests/vectors/godot-pck/engine3: Godot 3.2.3 PCKPacker packs and the
#     members the engine read after load_resource_pack (engine.tsv);
#   - tests/vectors/godot-pck/spec4: Godot 4 packs (formats 2 and 3, encrypted
#     members and directory, packs appended to an executable) built from the
#     format's tables by pck4_vectors.py, with each member's MD5 (*.expected);
#   - ../shared/samples/godot-res/sample4.pck (Godot 4.6 PCKPacker), when there;
#   - tests/vectors/godot-gdec: Godot 3.2.3 open_encrypted saves with what
#     get_var() returned (engine.tsv), and a 4.x GDEC file built from the tables;
#   - tests/vectors/godot-project: a project.binary Godot 3.2.3 saved.
#
#   bash tests/godot/pck_test.sh PATH-TO-SERVAL
set -u
S=$1
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
V="$TOP/tests/vectors"
SAMPLE="$TOP/../shared/samples/godot-res/sample4.pck"
t=$(mktemp -d "${TMPDIR:-/tmp}/serval-pck.XXXXXX") || exit 3
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
check() { # DESCRIPTION COMMAND...: the command must succeed
    local d=$1; shift
    if "$@" >"$t/out" 2>"$t/err"; then ok; else bad "$d"; cat "$t/err"; fi
}
hex2bin() { printf '%b' "$(printf '%s' "$1" | sed 's/../\\x&/g')"; }

# ---- packs: extract + pack --like gives the same bytes ----------------------
like() { # PACK [KEY]
    local p=$1 k=() d="$t/x.$RANDOM"
    [ $# -gt 1 ] && k=(--key "$2")
    if "$S" godot pck extract "${k[@]}" "$p" -o "$d" 2>"$t/err" &&
        "$S" godot pck pack "$d" -o "$t/like.pck" --like "$p" "${k[@]}" 2>>"$t/err" &&
        cmp -s "$t/like.pck" "$p"; then ok; else bad "extract + pack --like: $p"; cat "$t/err"; fi
}
for p in "$V"/godot-pck/engine3/*.pck; do like "$p"; done
K4=$(cat "$V/godot-pck/spec4/key.txt")
for p in "$V"/godot-pck/spec4/*.pck "$V"/godot-pck/spec4/*.bin; do like "$p" "$K4"; done
if [ -f "$SAMPLE" ]; then like "$SAMPLE"; else echo "SKIP: $SAMPLE absent (the Godot 4.6 sample)"; fi

# ---- list against the engine's read-back (3.2.3) and the tables' MD5s (4) ----
for p in "$V"/godot-pck/engine3/*.pck; do
    n=$(basename "$p")
    awk -F'\t' -v n="$n" '$1 == "M" && $2 == n {print $3 "\t" $4 "\t" $5}' \
        "$V/godot-pck/engine3/engine.tsv" | sort >"$t/want"
    "$S" godot pck list "$p" | cut -f1-3 | sort >"$t/got"
    if [ -s "$t/want" ] && cmp -s "$t/want" "$t/got"; then ok; else bad "list $n vs engine"; diff "$t/want" "$t/got"; fi
done
for p in "$V"/godot-pck/spec4/*.pck "$V"/godot-pck/spec4/*.bin; do
    if "$S" godot pck list --key "$K4" "$p" | cmp -s - "$p.expected"; then ok; else bad "list $p"; fi
done
if [ -f "$SAMPLE" ]; then
    if [ "$("$S" godot pck list "$SAMPLE")" = "sample4/readme.txt	16	b5882a0c9420b29baab131b9f2e50392" ]; then ok; else bad "list sample4.pck"; fi
fi

# ---- extract: the engine's bytes (MD5 of what it read through res://) --------
"$S" godot pck extract "$V/godot-pck/engine3/pack3.pck" -o "$t/e3" 2>"$t/err" || bad "extract pack3"
while IFS=$'\t' read -r tag pk path size md5; do
    [ "$tag" = M ] && [ "$pk" = pack3.pck ] || continue
    f="$t/e3/${path#res://}"
    if [ "$(md5sum <"$f" | cut -d' ' -f1)" = "$md5" ] && [ "$(wc -c <"$f")" -eq "$size" ]; then ok; else bad "extract $path"; fi
done <"$V/godot-pck/engine3/engine.tsv"
"$S" godot pck extract --key "$K4" "$V/godot-pck/spec4/v3_enc_dir.pck" -o "$t/e4" 2>"$t/err" &&
    diff -r "$t/e4" "$V/godot-pck/spec4/members" >/dev/null && ok || bad "extract v3_enc_dir"
"$S" godot pck extract "$V/godot-pck/spec4/v3_embedded.bin" -o "$t/e5" 2>"$t/err" &&
    diff -r "$t/e5" "$V/godot-pck/spec4/members" >/dev/null && ok || bad "extract from an executable"

# ---- a fresh pack is what the engine's PCKPacker writes ---------------------
check "pack format 1" "$S" godot pck pack "$t/e3" -o "$t/f1.pck" --format-version 1 --godot 3.2.3
cmp -s "$t/f1.pck" "$V/godot-pck/engine3/pack3_sorted.pck" && ok || bad "pack format 1 != 3.2.3 PCKPacker"
check "pack format 3" "$S" godot pck pack "$V/godot-pck/spec4/members" -o "$t/f3.pck" --format-version 3 --godot 4.6.0
cmp -s "$t/f3.pck" "$V/godot-pck/spec4/v3_plain.pck" && ok || bad "pack format 3 != the tables' layout"
check "pack format 2" "$S" godot pck pack "$V/godot-pck/spec4/members" -o "$t/f2.pck" --format-version 2 --godot 4.2.2
cmp -s "$t/f2.pck" "$V/godot-pck/spec4/v2_plain.pck" && ok || bad "pack format 2 != the tables' layout"
if [ -f "$SAMPLE" ]; then
    "$S" godot pck extract "$SAMPLE" -o "$t/s4" 2>/dev/null
    "$S" godot pck pack "$t/s4" -o "$t/s4.pck" --format-version 3 --godot 4.6.0 && cmp -s "$t/s4.pck" "$SAMPLE" &&
        ok || bad "pack format 3 != Godot 4.6's sample4.pck"
fi

# ---- keys: needed, wrong ------------------------------------------------------
expect_fail() { # DESCRIPTION EXIT PATTERN COMMAND...
    local d=$1 code=$2 pat=$3; shift 3
    "$@" >/dev/null 2>"$t/err"
    local rc=$?
    if [ $rc -eq "$code" ] && grep -q -- "$pat" "$t/err"; then ok; else bad "$d (exit $rc)"; cat "$t/err"; fi
}
WRONG=$(printf '%064d' 7)
expect_fail "encrypted directory without a key" 1 "a key is needed" \
    "$S" godot pck list "$V/godot-pck/spec4/v3_enc_dir.pck"
expect_fail "encrypted member without a key" 1 "a key is needed" \
    "$S" godot pck extract "$V/godot-pck/spec4/v3_enc_files.pck" -o "$t/nokey"
expect_fail "encrypted directory, wrong key" 1 "wrong key or damaged file" \
    "$S" godot pck list --key "$WRONG" "$V/godot-pck/spec4/v3_enc_dir.pck"
expect_fail "encrypted member, wrong key" 1 "wrong key or damaged file" \
    "$S" godot pck cat --key "$WRONG" "$V/godot-pck/spec4/v3_enc_files.pck" readme.txt

# ---- GDEC: decode with key and password, the engine's values, same bytes back -
G="$V/godot-gdec/engine3"
K3=$(cat "$G/key.txt")
P3=$(cat "$G/password.txt")
plain_of() { # FILE: the engine's plaintext, the store_var frames of its values
    awk -F'\t' -v n="$1" '$1 == "G" && $2 == n {print $4}' "$G/engine.tsv" | while read -r h; do
        printf '%08x' $((${#h} / 2)) | sed 's/\(..\)\(..\)\(..\)\(..\)/\4\3\2\1/'
        printf '%s' "$h"
    done
}
gdec_case() { # FILE OPTION
    local n=$1 opt=$2
    hex2bin "$(plain_of "$n")" >"$t/want.bin"
    "$S" dump -I "$opt" "$G/$n" >"$t/d.json" 2>"$t/err" || bad "dump $n"
    jq '."$map".data' "$t/d.json" | "$S" conv --from json --to godot3 -o "$t/plain.bin" - 2>>"$t/err"
    if [ -s "$t/want.bin" ] && cmp -s "$t/plain.bin" "$t/want.bin"; then ok; else bad "$n: plaintext != the engine's get_var()"; cat "$t/err"; fi
    # the same bytes back: direct, through dump, through jq
    "$S" conv -I "$opt" -O "$opt" --to godot-enc -o "$t/re.gdec" "$G/$n" && cmp -s "$t/re.gdec" "$G/$n" && ok || bad "$n: conv re-encrypt"
    "$S" conv --from json -O "$opt" --to godot-enc -o "$t/re2.gdec" - <"$t/d.json" && cmp -s "$t/re2.gdec" "$G/$n" && ok || bad "$n: dump | conv"
    jq . "$t/d.json" | "$S" conv --from json -O "$opt" --to godot-enc -o "$t/re3.gdec" - && cmp -s "$t/re3.gdec" "$G/$n" && ok || bad "$n: dump | jq . | conv"
    # the key is the user's: it is in no output
    if grep -q -i -e "$K3" -e "$P3" "$t/d.json"; then bad "$n: the key is in the dump"; else ok; fi
}
gdec_case save_key.gdec "key=$K3"
gdec_case save_pass.gdec "password=$P3"
"$S" dump -I key="$K3" -I inner=bytes "$G/raw16.gdec" | grep -q '"c2l4dGVlbiBieXRlcyEhCg=="' && ok || bad "raw16.gdec as bytes"
expect_fail "GDEC wrong key" 1 "wrong key or damaged file" "$S" dump -I key="$WRONG" "$G/save_key.gdec"
expect_fail "GDEC wrong password" 1 "wrong key or damaged file" "$S" dump -I password=nope "$G/save_pass.gdec"
expect_fail "GDEC without a key" 1 "a key is needed" "$S" dump "$G/save_key.gdec"
G4="$V/godot-gdec/spec4"
K4G=$(cat "$G4/key.txt")
"$S" dump -I key="$K4G" "$G4/save4.gdec" >"$t/d4.json" || bad "dump save4.gdec"
jq '."$map".data' "$t/d4.json" | "$S" conv --from json --to godot4 -o "$t/p4.bin" - && cmp -s "$t/p4.bin" "$G4/save4.plain" && ok || bad "save4.gdec plaintext"
"$S" conv --from json -O key="$K4G" --to godot-enc -o "$t/r4.gdec" - <"$t/d4.json" && cmp -s "$t/r4.gdec" "$G4/save4.gdec" && ok || bad "save4.gdec re-encrypt with the recorded IV"

# ---- project.binary ----------------------------------------------------------
E="$V/godot-project/engine3/project.binary"
"$S" dump "$E" >"$t/e.json" || bad "dump project.binary"
[ "$(jq -c '."$map"."serval/custom/list"' "$t/e.json")" = '[1,"two",{"$vector3":[3,4,5]}]' ] && ok || bad "project.binary list value"
[ "$(jq -r '."$map"."application/config/name"' "$t/e.json")" = "serval oracle" ] && ok || bad "project.binary name"
"$S" conv --to godot-project -o "$t/e.bin" "$E" && cmp -s "$t/e.bin" "$E" && ok || bad "project.binary conv"
"$S" conv --from json --to godot-project -o "$t/e2.bin" - <"$t/e.json" && cmp -s "$t/e2.bin" "$E" && ok || bad "project.binary dump | conv"
jq . "$t/e.json" | "$S" conv --from json --to godot-project -o "$t/e3.bin" - && cmp -s "$t/e3.bin" "$E" && ok || bad "project.binary dump | jq . | conv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
