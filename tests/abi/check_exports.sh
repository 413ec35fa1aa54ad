#!/usr/bin/env bash
# The shared library exports exactly the public API.
#
# usage: check_exports.sh LIBSERVAL_SO HEADER_DIR_OR_FILE...
#
# A file argument is one public header; CMake passes the headers of the
# formats built, so a format left out (SERVAL_WITH_*=OFF) is not expected.
#
# Every symbol that `nm -D --defined-only` lists for the library must be
# declared with SV_API in one of the public headers (HEADER_DIR/serval/*.h or
# HEADER_DIR/*.h), and every SV_API declaration must be exported. The library
# is built with hidden visibility, so a function lacking SV_API disappears
# from the list and an internal function marked for export would appear in
# it; either way this test names the symbol. A header declaration without
# SV_API is named too, and so is any exported name that is not sv_ followed
# by a letter or digit (an sv__ internal, or another prefix).
set -euo pipefail

lib=$1
shift
[[ -f $lib ]] || { echo "check_exports: no library at $lib" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Declared: the identifier an SV_API line declares -- the name before the
# first "(" for a function, the last name before ";" for an object. The name
# sits on the SV_API line itself (the headers never break a line before it).
headers=()
for dir in "$@"; do
    if [[ -f $dir ]]; then
        [[ $(basename "$dir") != api.h ]] && headers+=("$dir")
        continue
    fi
    for h in "$dir"/serval/*.h "$dir"/*.h; do
        [[ -f $h && $(basename "$h") != api.h ]] && headers+=("$h")
    done
done
[[ ${#headers[@]} -gt 0 ]] || { echo "check_exports: no headers under $*" >&2; exit 1; }
grep -h '^[[:space:]]*SV_API[[:space:]]' "${headers[@]}" |
    sed -E -e 's/\(.*//' -e 's/;.*//' -e 's/.*[^A-Za-z0-9_]([A-Za-z_][A-Za-z0-9_]*)[[:space:]]*$/\1/' |
    sort -u >"$tmp/declared"

# Exported: defined dynamic symbols, without any version suffix.
nm -D --defined-only "$lib" | awk 'NF >= 3 { sub(/@.*/, "", $3); print $3 }' | sort -u >"$tmp/exported"

# A public function declared without SV_API would be neither declared nor
# exported above, so look for it: a declaration at the start of a line
# (return type, then a name and "(") or an extern object without SV_API.
grep -nE '^(extern[[:space:]]|(const[[:space:]]+)?[A-Za-z_][A-Za-z0-9_]*[[:space:]*]+[A-Za-z_][A-Za-z0-9_]*\()' \
    "${headers[@]}" | grep -vE ':(static|typedef|SV_API)[[:space:]]|extern "C"' >"$tmp/unmarked" || true

status=0
if [[ -s $tmp/unmarked ]]; then
    echo "public declarations without SV_API:"
    sed 's/^/  /' "$tmp/unmarked"
    status=1
fi
extra=$(comm -13 "$tmp/declared" "$tmp/exported")
missing=$(comm -23 "$tmp/declared" "$tmp/exported")
if [[ -n $extra ]]; then
    echo "exported but not declared with SV_API in a public header:"
    printf '  %s\n' $extra
    status=1
fi
# The public namespace is sv_: an exported name outside it, or an internal
# sv__ name (one module's helper for another), is a leak even when a header
# declares it with SV_API.
outside=$(grep -vE '^sv_[A-Za-z0-9]' "$tmp/exported" || true)
if [[ -n $outside ]]; then
    echo "exported outside the public sv_ namespace (internal sv__ or another prefix):"
    printf '  %s\n' $outside
    status=1
fi
if [[ -n $missing ]]; then
    echo "declared with SV_API but not exported:"
    printf '  %s\n' $missing
    status=1
fi
echo "$(wc -l <"$tmp/exported") symbols exported, $(wc -l <"$tmp/declared") declared with SV_API"
exit $status
