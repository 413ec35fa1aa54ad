#!/usr/bin/env python3
"""Prints src/formats/o3de/o3de_float_powers.h, the per-exponent table of src/formats/o3de/o3de_dtoa.c's exact-float
path: for each float biased exponent 1..254, Grisu2's cached power (its index
in cached_f / cached_e, chosen by cached_power's rule), the shift s = -e of
the scaled upper boundary, and the fewest decimal places J with
delta * 10^J >= 2^s for the largest delta that exponent can have, with the
threshold ceil(2^s / 10^J): a delta below it needs one place more.

    python3 scripts/o3de_float_powers.py src/formats/o3de/o3de_dtoa.c \
        > src/formats/o3de/o3de_float_powers.h
"""
import re
import sys

src = open(sys.argv[1]).read()
fs = [int(x, 16) for x in re.findall(r"UINT64_C\((0x[0-9a-f]+)\)", src.split("cached_f[87]")[1].split("};")[0])]
es = [int(x) for x in re.findall(r"-?\d+", src.split("cached_e[87] = {")[1].split("};")[0])]
assert len(fs) == 87 and len(es) == 87


def floor_log10_pow2(x):
    return (x * 78913) >> 18


rows = []
for be in range(1, 255):
    e = be - 190
    x = -61 - e
    k = 347 + (0 if x == 0 else floor_log10_pow2(x) + 1)
    index = (k >> 3) + 1
    cf, ce = fs[index], es[index]
    s = -(e + ce + 64)
    assert 32 <= s <= 60, (be, s)
    # delta = hi((big + 2^10) c) - hi((big - 2^10 or 2^9) c) - 2, hi() rounded
    top = ((1 << 11) * cf >> 64) + 2
    low = ((3 << 9) * cf >> 64) - 3
    j = 0
    while top * 10**j < (1 << s):
        j += 1
    assert low * 10 ** (j + 1) >= (1 << s) and j + 1 <= 19
    thr = -(-(1 << s) // 10**j)
    rows.append((index, s, j, thr))
print("""/* Made by scripts/o3de_float_powers.py from o3de_dtoa.c's cached powers;
 * included by o3de_dtoa.c alone.
 *
 * Per float exponent (biased, 1..254): the cached power's index (as
 * cached_power picks it for the boundaries' exponent, be - 190), s (-e of
 * the scaled upper boundary), the fewest places J that do for the largest
 * delta the exponent has, and ceil(2^s / 10^J): a delta below that needs
 * one place more (never two: the smallest delta, at a power of two, is
 * above 3/4 of the largest). */
#ifndef SERVAL_O3DE_FLOAT_POWERS_H
#define SERVAL_O3DE_FLOAT_POWERS_H

#include <stdint.h>

typedef struct o3_float_power {
    uint8_t index, shift, places;
    uint64_t threshold;
} o3_float_power;
""")
print("static const o3_float_power float_powers[255] = {")
print("    {0, 0, 0, 0},")
for be, (index, s, j, thr) in enumerate(rows, 1):
    print("    {%d, %d, %d, UINT64_C(%d)}, /* %d */" % (index, s, j, thr, be))
print("};")
print("")
print("#endif")
