/* Eisel-Lemire (Daniel Lemire, "Number Parsing at a Gigabyte per Second",
 * 2021, after Michael Eisel), the one copy: num_parse.c's general decimal
 * conversion and the typed JSON reader's fast path (json_read_fast.h) both
 * inline it, with the format a constant the compiler folds in. num_parse.c's
 * header comment says how this variant reasons on the product's error. */
#ifndef SV_CORE_EISEL_LEMIRE_H
#define SV_CORE_EISEL_LEMIRE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/compiler.h"
#include "core/numconv.h"
#include "core/pow10_table.h"

/* ---- binary formats ----------------------------------------------------- */

typedef struct sv_binfmt {
    int prec;          /* significand bits, hidden bit included */
    int emin;          /* exponent of the smallest normal: 2^emin */
    int emax;          /* exponent of the largest binade */
    int q_zero;        /* 19 digits * 10^q with q below this round to zero */
    int q_inf;         /* 1 * 10^q with q above this overflows */
    uint64_t inf_bits; /* +infinity */
} sv_binfmt;

static const sv_binfmt sv_binfmt_f64 = {53, -1022, 1023, -342, 308, UINT64_C(0x7FF0000000000000)};
static const sv_binfmt sv_binfmt_f32 = {24, -126, 127, -65, 38, UINT64_C(0x7F800000)};

/* ---- Eisel-Lemire --------------------------------------------------------- */

enum { SV_EL_DONE, SV_EL_OPEN };

/* w * 10^q rounded to the format (bits, no sign) when SV_EL_DONE. Always stores
 * in *low a value at or below w * 10^q and at most two units below its
 * correct rounding (the slow path's starting candidate). Requires w != 0 and
 * f->q_zero <= q <= f->q_inf. */
static SV_ALWAYS_INLINE int sv__core_eisel_lemire(uint64_t w, int q, const sv_binfmt *f,
                                                  uint64_t *bits, uint64_t *low)
{
    int lz = sv__core_clz64(w);
    w <<= lz;
    const uint64_t *t = sv_pow5_128[q - SV_POW5_MIN];
    uint64_t p1, p0 = 0;
    uint64_t p1_hi;
    p1 = sv__core_mul128(w, t[0], &p1_hi);
    uint64_t p2 = p1_hi;

    int u = (int)(p2 >> 63);
    /* w * 10^q lies in [2^x, 2^(x+1)), or x is one low: when P < 2^191 but
     * the exact product is not. Then P's top bits are all ones, the
     * rounding goes up and the carry lands on 2^(x+1), the right answer. */
    int x = 63 + u + q + sv__core_floor_log2_pow5(q) - lz;
    if (SV_UNLIKELY(x > f->emax)) {
        *bits = *low = f->inf_bits;
        return SV_EL_DONE;
    }
    int keep = x - f->emin + f->prec;              /* significant bits the result keeps */
    if (SV_LIKELY(keep > f->prec)) keep = f->prec; /* a normal result */
    if (SV_UNLIKELY(keep < -1)) {
        /* Below 2^-1076 (double) / 2^-151 (float): under half the smallest
         * subnormal, so zero. */
        *bits = *low = 0;
        return SV_EL_DONE;
    }
    if (SV_UNLIKELY(keep < 1)) {
        *low = 0;
        return SV_EL_OPEN;
    }

    /* Keep the top `keep` bits of the 192-bit product; all discarded bits
     * that matter for rounding start in p2 (shift in [10, 63]). */
    int sh = 63 + u - keep;
    uint64_t mask = (UINT64_C(1) << sh) - 1;
    uint64_t half = UINT64_C(1) << (sh - 1);
    uint64_t r2 = p2 & mask;
    /* The low product adds less than 2^128 to the bits below p2, the table's
     * error less than 2^64 more: decided now unless r2 is half or half - 1. */
    if (SV_UNLIKELY(r2 + 1 == half || (r2 == half && p1 == 0))) {
        uint64_t b1, b0 = sv__core_mul128(w, t[1], &b1);
        p0 = b0;
        p1 += b1;
        p2 += p1 < b1; /* cannot reach the kept bits: r2 <= half here */
        r2 = p2 & mask;
    }
    uint64_t m = p2 >> sh;
    bool up;
    if (q >= 0 && q <= SV_POW5_EXACT_MAX) {
        /* Exact product: round half to even. */
        if (r2 != half)
            up = r2 > half;
        else
            up = (p1 | p0) != 0 || (m & 1);
    } else {
        /* The exact product is P + e, 0 < e < 2^64: at or above half means
         * strictly above; below half by less than 2^64 is undecidable. */
        if (r2 >= half) {
            up = true;
        } else if (r2 + 1 == half && p1 == UINT64_MAX && p0 != 0) {
            *low = keep == f->prec ? ((uint64_t)(x - f->emin) << (f->prec - 1)) + m : m;
            return SV_EL_OPEN;
        } else {
            up = false;
        }
    }
    /* A normal result carries its biased exponent minus one above the
     * significand (whose hidden bit adds the one); a carry out of the
     * significand moves into the exponent by itself. A subnormal result is
     * the significand alone. */
    uint64_t base = keep == f->prec ? ((uint64_t)(x - f->emin) << (f->prec - 1)) : 0;
    *low = base + m;
    uint64_t r = base + m + up;
    *bits = r >= f->inf_bits ? f->inf_bits : r;
    return SV_EL_DONE;
}

#endif
