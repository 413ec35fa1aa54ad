#!/usr/bin/env bash
# Copies RapidJSON's headers from RJ_INCLUDE (the folder holding rapidjson/)
# into WORK and applies there the one change O3DE's RapidJSON has over
# Debian's 1.1.0: upstream commit bb06211 (2021), DigitGen's rounding factor
# from a 20-entry 64-bit table instead of a 10-entry 32-bit one. Fails when
# the change did not take.
#
#   rapidjson_fixed_copy.sh RJ_INCLUDE WORK
set -euo pipefail
rj=$1 work=$2
cp -r "$rj/rapidjson" "$work/"
dtoa=$work/rapidjson/internal/dtoa.h
if ! grep -q 'index < 20' "$dtoa"; then
    sed -i \
        -e 's/static const uint32_t kPow10\[\] = {[^}]*};/static const uint64_t kPow10[] = { 1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL, 1000000000000ULL, 10000000000000ULL, 100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL, 1000000000000000000ULL, 10000000000000000000ULL };/' \
        -e 's/index < 9 ?/index < 20 ?/' "$dtoa"
    if ! grep -q 'index < 20 ?' "$dtoa" || ! grep -q 'static const uint64_t kPow10' "$dtoa"; then
        echo "FAIL: could not apply RapidJSON's DigitGen fix to $dtoa" >&2
        exit 1
    fi
fi
