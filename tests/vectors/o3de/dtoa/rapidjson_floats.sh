#!/usr/bin/env bash
# Writes rapidjson_floats.txt (next to this script) with RapidJSON's own
# Writer: rapidjson_floats.cpp built against RapidJSON's headers
# ($RAPIDJSON_INCLUDE, else /usr/include) with the DigitGen fix O3DE's copy
# has (rapidjson_fixed_copy.sh). Run by hand; the file is checked in.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
rj=${RAPIDJSON_INCLUDE:-/usr/include}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bash "$here/rapidjson_fixed_copy.sh" "$rj" "$work"
g++ -O2 -std=c++11 -I"$work" "$here/rapidjson_floats.cpp" -o "$work/rapidjson_floats"
"$work/rapidjson_floats" > "$here/rapidjson_floats.txt"
