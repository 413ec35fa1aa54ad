#!/usr/bin/env bash
# Writes rapidjson_floats.txt (next to this script) with RapidJSON's own
# Writer: rapidjson_floats.cpp built against RapidJSON's headers
# ($RAPIDJSON_INCLUDE, else /usr/include) with the DigitGen fix O3DE's copy
# has, made as rapidjson_diff.sh makes it. Run by hand; the file is checked in.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rj=${RAPIDJSON_INCLUDE:-/usr/include}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$rj/rapidjson" "$work/"
dtoa=$work/rapidjson/internal/dtoa.h
if ! grep -q 'index < 20' "$dtoa"; then
    sed -i \
        -e 's/static const uint32_t kPow10\[\] = {[^}]*};/static const uint64_t kPow10[] = { 1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL };/' \
        -e 's/index < 9 ?/index < 20 ?/' "$dtoa"
    grep -q 'index < 20 ?' "$dtoa" && grep -q 'static const uint64_t kPow10' "$dtoa"
fi
g++ -O2 -std=c++11 -I"$work" "$here/rapidjson_floats.cpp" -o "$work/rapidjson_floats"
"$work/rapidjson_floats" > "$here/rapidjson_floats.txt"
