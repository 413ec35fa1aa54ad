/* The one careful scan of a JSON number token (internal), shared by the
 * typed JSON reader (tokens of more than 19 digits), the text-to-float
 * conversion (num_parse.c) and O3DE's streaming loader.
 *
 * It checks RFC 8259 §6 (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?)
 * while it keeps the first 19 significant digits, notes whether a dropped
 * one was non-zero, and gives the integer part's magnitude while it fits in
 * 64 bits. Digits are taken eight at a time where the input allows. It is
 * static inline: each caller gets it compiled into its own loop, as the
 * copies it replaces were. */
#ifndef SV_JSON_NUM_SCAN_H
#define SV_JSON_NUM_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/compiler.h"

#define SV_NUM_SIG_DIGITS 19
/* An exponent above this is saturated: 10^(1e9) is 0 or infinity either
 * way, and adding the digit count to it cannot overflow an int64. */
#define SV_NUM_EXP_SATURATE 1000000000

typedef enum sv_num_fault {
    SV_NUM_FINE,
    SV_NUM_NO_DIGIT,     /* nothing or no digit where the number starts */
    SV_NUM_LEADING_ZERO, /* "01" */
    SV_NUM_NO_FRACTION,  /* "1." */
    SV_NUM_NO_EXPONENT   /* "1e", "1e+" */
} sv_num_fault;

typedef struct sv_num_scan {
    uint64_t mant;       /* the first 19 significant digits */
    int64_t exp10;       /* value ~ mant * 10^exp10, the exponent included */
    int64_t exp;         /* the exponent as written (saturated), 0 without */
    uint64_t mag;        /* the integer part, when it fits (!big) */
    bool neg;            /* a leading '-' */
    bool is_int;         /* no fraction, no exponent */
    bool big;            /* integer part above UINT64_MAX */
    bool truncated;      /* a non-zero digit beyond the 19 in mant */
    const char *ib, *ie; /* the integer digits */
    const char *fb, *fe; /* the fraction digits (fb == fe: none) */
    sv_num_fault fault;  /* why the scan failed, at fault_at */
    const char *fault_at;
} sv_num_scan;

static inline bool sv__core_num_is_digit(const char *p)
{
    return (unsigned)((unsigned char)*p - '0') <= 9;
}

/* All 8 bytes in '0'..'9': high nibble 3, and still 3 after adding 6. */
static inline bool sv__core_num_all_digits8(uint64_t v)
{
    const uint64_t hi = UINT64_C(0xF0F0F0F0F0F0F0F0);
    return ((v & hi) | (((v + UINT64_C(0x0606060606060606)) & hi) >> 4)) ==
           UINT64_C(0x3333333333333333);
}

/* The value of 8 digit bytes loaded little-endian, first byte most
 * significant: pairs, then quads, then the whole, one multiply a step. */
static inline uint32_t sv__core_num_parse8(uint64_t v)
{
    v -= UINT64_C(0x3030303030303030);
    v = (v * 10 + (v >> 8)) & UINT64_C(0x00FF00FF00FF00FF);
    v = (v * 100 + (v >> 16)) & UINT64_C(0x0000FFFF0000FFFF);
    return (uint32_t)(v * 10000 + (v >> 32));
}

/* The exponent's digits at p (its sign already taken): their value,
 * saturated, into *e; the end of them. p must be at a digit. */
static inline const char *sv__core_num_exp_digits(const char *p, const char *end, int64_t *e)
{
    int64_t v = 0;
    do {
        if (v < SV_NUM_EXP_SATURATE) v = v * 10 + (*p - '0');
        p++;
    } while (p < end && sv__core_num_is_digit(p));
    *e = v;
    return p;
}

static inline const char *sv__core_num_refuse(sv_num_scan *n, sv_num_fault f, const char *at)
{
    n->fault = f;
    n->fault_at = at;
    return NULL;
}

/* Digits from p on, into *w while it holds fewer than 19 (*nd of them);
 * each one kept moves *q by keep_q, each one dropped by drop_q and marks
 * *trunc when non-zero. Returns the end of the digits. */
static inline const char *sv__core_num_digits(const char *p, const char *end, uint64_t *w, int *nd,
                                              int64_t *q, int keep_q, int drop_q, bool *trunc)
{
    while (end - p >= 8 && *nd <= SV_NUM_SIG_DIGITS - 8 &&
           sv__core_num_all_digits8(sv__core_load64le(p))) {
        *w = *w * 100000000 + sv__core_num_parse8(sv__core_load64le(p));
        *nd += 8;
        *q += 8 * keep_q;
        p += 8;
    }
    for (; p < end && sv__core_num_is_digit(p); p++) {
        if (*nd < SV_NUM_SIG_DIGITS) {
            *w = *w * 10 + (uint64_t)(*p - '0');
            ++*nd;
            *q += keep_q;
        } else {
            *q += drop_q;
            *trunc |= *p != '0';
        }
    }
    return p;
}

/* Scans the number token at p (p < end, or the token is empty): the end of
 * it (the first byte that cannot continue it), or NULL with n->fault and
 * n->fault_at saying what is wrong where. */
static inline const char *sv__core_num_scan_token(const char *p, const char *end, sv_num_scan *n)
{
    uint64_t w = 0;
    int nd = 0; /* significant digits in w */
    int64_t q = 0;
    bool trunc = false;
    n->fault = SV_NUM_FINE;
    n->neg = false;
    n->is_int = true;
    if (p < end && *p == '-') {
        n->neg = true;
        p++;
    }
    n->ib = p;
    if (p == end || !sv__core_num_is_digit(p)) return sv__core_num_refuse(n, SV_NUM_NO_DIGIT, p);
    if (*p == '0') {
        p++;
        if (p < end && sv__core_num_is_digit(p))
            return sv__core_num_refuse(n, SV_NUM_LEADING_ZERO, p);
    } else {
        /* the first digit is not zero, so every digit is significant */
        p = sv__core_num_digits(p, end, &w, &nd, &q, 0, 1, &trunc);
    }
    n->ie = p;
    /* the integer part fits when it has at most 20 digits and the 20th does
     * not carry it past UINT64_MAX; w holds exactly its first 19 then */
    size_t ni = (size_t)(n->ie - n->ib);
    n->big = ni > 20;
    n->mag = w;
    if (ni == 20) {
        unsigned d = (unsigned)(n->ib[19] - '0');
        n->big = w > (UINT64_MAX - d) / 10;
        n->mag = w * 10 + d;
    }
    if (n->big) n->mag = 0;
    n->fb = n->fe = p;
    if (p < end && *p == '.') {
        n->is_int = false;
        n->fb = ++p;
        if (w == 0) /* 0.000ddd: the zeros only scale */
            for (; p < end && *p == '0'; p++) q--;
        p = sv__core_num_digits(p, end, &w, &nd, &q, -1, 0, &trunc);
        n->fe = p;
        if (n->fb == n->fe) return sv__core_num_refuse(n, SV_NUM_NO_FRACTION, p);
    }
    n->exp = 0;
    if (p < end && (*p | 0x20) == 'e') {
        n->is_int = false;
        p++;
        bool eneg = false;
        if (p < end && (*p == '+' || *p == '-')) eneg = *p++ == '-';
        if (p == end || !sv__core_num_is_digit(p))
            return sv__core_num_refuse(n, SV_NUM_NO_EXPONENT, p);
        p = sv__core_num_exp_digits(p, end, &n->exp);
        if (eneg) n->exp = -n->exp;
    }
    n->mant = w;
    n->exp10 = q + n->exp;
    n->truncated = trunc;
    return p;
}

#endif
