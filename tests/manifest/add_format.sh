#!/usr/bin/env bash
# Adding a format takes its folder and one manifest line, nothing else.
#
#   bash tests/manifest/add_format.sh SERVAL-SOURCE-DIR
#
# In a scratch copy of the source tree (src/ copied, everything else linked)
# this writes a trivial format, "tagbyte" (the bytes "TB1" and then a text,
# read as one string), into src/formats/tagbyte/, appends ONE line to
# src/formats/formats.def, configures with the tests on (so the fuzz list is
# made) and every other format but JSON off, and builds the serval target
# only, at -j2. Then it asserts that
#   - `serval formats` lists tagbyte (and the SERVAL_WITH_TAGBYTE option and
#     config.h macro exist),
#   - `serval dump x.tb | serval conv --from json --to tagbyte` gives the same
#     bytes back, and detection finds the format by its magic,
#   - fuzz-formats.txt (what scripts/fuzz.sh and CTest's replays use) has a
#     tagbyte line,
#   - with -DSERVAL_WITH_TAGBYTE=OFF it is gone again.
# Takes about a minute on 2 cores (the library's core, JSON and the CLI).
set -euo pipefail
src=$(cd "${1:?usage: add_format.sh SERVAL-SOURCE-DIR}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/serval-add-format.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

tree=$tmp/serval
mkdir "$tree"
for entry in "$src"/* "$src"/.[!.]*; do
    name=$(basename "$entry")
    case $name in
    .git | build* | src) ;;
    *) ln -s "$entry" "$tree/$name" ;;
    esac
done
cp -r "$src/src" "$tree/src"

# ---- the format's folder: its registry entry, nothing else ----
mkdir "$tree/src/formats/tagbyte"
cat >"$tree/src/formats/tagbyte/tagbyte_format.c" <<'EOF'
/* tagbyte: "TB1" then a text, read as one string. A test format. */
#include <string.h>

#include "serval/registry.h"

static int tb_probe(const uint8_t *data, size_t len)
{
    return len >= 3 && !memcmp(data, "TB1", 3) ? 100 : 0;
}

static sv_status tb_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                           sv_value *out, sv_error *err)
{
    (void)opts;
    if (len < 3 || memcmp(data, "TB1", 3))
        return sv_error_set(err, SV_ERR_SYNTAX, "tagbyte", 0, "no TB1 magic");
    *out = sv_str(doc, (const char *)data + 3, len - 3);
    return out->kind == SV_STRING ? SV_OK : sv_error_set(err, SV_ERR_NOMEM, "tagbyte", 0, "no memory");
}

static sv_status tb_encode(const sv_value *v, const sv_options *opts, sv_buf *out, sv_error *err)
{
    (void)opts;
    if (sv_kind_of(v) != SV_STRING)
        return sv_error_set(err, SV_ERR_TYPE, "tagbyte", 0, "the root is not a string");
    size_t n;
    const char *s = sv_get_str(v, &n);
    sv_buf_append(out, "TB1", 3);
    sv_buf_append(out, s, n);
    return sv_buf_ok(out) ? SV_OK : sv_error_set(err, SV_ERR_NOMEM, "tagbyte", 0, "no memory");
}

static const char *const tb_extensions[] = {"tb", NULL};

const sv_format sv_format_tagbyte = {
    .struct_size = sizeof(sv_format),
    .name = "tagbyte",
    .description = "a test format: TB1 and a text",
    .extensions = tb_extensions,
    .probe = tb_probe,
    .decode = tb_decode,
    .encode = tb_encode,
};
EOF
# ---- and one line in the manifest ----
def=$tree/src/formats/formats.def
lines_before=$(wc -l <"$def")
echo 'SV_FORMAT_GROUP(TAGBYTE, codec, tagbyte, "tagbyte", "", none, "", none, "Build the tagbyte test format")' >>"$def"
[ "$(wc -l <"$def")" -eq $((lines_before + 1)) ] || fail "the manifest did not grow by one line"

# Every other format off (the manifest's options: JSON cannot be), so the
# build is short, and a build of JSON and the new format alone works.
others=$(sed -nE 's/^SV_FORMAT_GROUP\(([A-Z0-9_]+),.*/\1/p' "$def" | sort -u | grep -vx 'JSON\|TAGBYTE' \
         | sed 's/.*/-DSERVAL_WITH_&=OFF/')
b=$tmp/build
# shellcheck disable=SC2086
cmake -S "$tree" -B "$b" -DCMAKE_BUILD_TYPE=Release -DSERVAL_TESTS=ON -DSERVAL_BENCH=OFF \
      -DSERVAL_EXAMPLES=OFF -DSERVAL_PYTHON=OFF -DSERVAL_WITH_GODOT_RSCC=OFF $others >"$tmp/configure.log" 2>&1 \
  || { cat "$tmp/configure.log"; fail "configure"; }
grep -qx 'SERVAL_WITH_TAGBYTE:BOOL=ON' "$b/CMakeCache.txt" || fail "no SERVAL_WITH_TAGBYTE option"
grep -qx '#define SERVAL_WITH_TAGBYTE 1' "$b/include/serval/config.h" || fail "config.h lacks SERVAL_WITH_TAGBYTE"
grep -q '^tagbyte ' "$b/fuzz-formats.txt" || fail "fuzz-formats.txt has no tagbyte line"
cmake --build "$b" -j2 --target serval >"$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log"; fail "build"; }
serval=$b/serval

"$serval" formats >"$tmp/formats.txt"
grep -q '^tagbyte   read/write  \.tb ' "$tmp/formats.txt" || { cat "$tmp/formats.txt"; fail "serval formats does not list tagbyte"; }
printf 'TB1hello, manifest' >"$tmp/x.tb"
[ "$("$serval" detect "$tmp/x.tb")" = "$tmp/x.tb: tagbyte" ] || fail "detect: $("$serval" detect "$tmp/x.tb")"
"$serval" dump "$tmp/x.tb" >"$tmp/x.json"
grep -q '"hello, manifest"' "$tmp/x.json" || fail "dump: $(cat "$tmp/x.json")"
"$serval" dump "$tmp/x.tb" | "$serval" conv --from json --to tagbyte -o "$tmp/y.tb" -
cmp "$tmp/x.tb" "$tmp/y.tb" || fail "dump | conv did not give the same bytes"
echo "ok: tagbyte built from its folder and one manifest line: listed, detected, round trip exact, fuzzed"

cmake -S "$tree" -B "$b" -DSERVAL_WITH_TAGBYTE=OFF >"$tmp/configure2.log" 2>&1 || { cat "$tmp/configure2.log"; fail "configure OFF"; }
grep -qx '#define SERVAL_WITH_TAGBYTE 0' "$b/include/serval/config.h" || fail "config.h: SERVAL_WITH_TAGBYTE not 0"
if grep -q '^tagbyte ' "$b/fuzz-formats.txt"; then fail "tagbyte fuzzed when off"; fi
if grep -q 'tagbyte' "$b/include/formats_table.inc"; then fail "tagbyte in the registry when off"; fi
echo "ok: SERVAL_WITH_TAGBYTE=OFF leaves it out"
