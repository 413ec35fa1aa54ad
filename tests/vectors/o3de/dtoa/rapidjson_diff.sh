#!/usr/bin/env bash
# Differential check: serval's O3DE number text against RapidJSON's own
# Writer::Double() for a million doubles (random bit patterns, widened floats,
# subnormals, powers of two and their neighbours, 2^53 neighbours, whole
# numbers below 2^53, short decimals, one ulp off a float, the 1e21 / 1e-7
# layout limits).
#
#   rapidjson_diff.sh LIBSERVAL_SO INCLUDE_DIR GENERATED_INCLUDE_DIR [COUNT]
#
# Needs g++ and RapidJSON's headers ($RAPIDJSON_INCLUDE, else
# /usr/include: Debian's rapidjson-dev); exits 77 (skipped) without them.
# O3DE's RapidJSON has upstream commit bb06211 (2021: DigitGen's rounding
# factor from a 20-entry 64-bit table instead of a 10-entry 32-bit one);
# Debian's 1.1.0 predates it, so its headers are copied and that one change
# is made to the copy (rapidjson_fixed_copy.sh, which checks it took).
set -euo pipefail
lib=$1 inc=$2 geninc=$3 count=${4:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
rj=${RAPIDJSON_INCLUDE:-/usr/include}
if ! command -v g++ >/dev/null; then echo "SKIP: no g++"; exit 77; fi
if [ ! -f "$rj/rapidjson/internal/dtoa.h" ]; then
    echo "SKIP: no RapidJSON headers in $rj (apt-get install rapidjson-dev)"; exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$here/rapidjson_fixed_copy.sh" "$rj" "$work"
g++ -O2 -std=c++11 -I"$work" -I"$inc" -I"$geninc" "$here/rapidjson_diff.cpp" \
    "$lib" -Wl,-rpath,"$(dirname "$lib")" -o "$work/rapidjson_diff"
"$work/rapidjson_diff" "$count"
