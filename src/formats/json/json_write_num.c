/* The typed JSON writer: integers and floats of every width, math tuples
 * and packed numeric arrays (docs/json.md, "Scalars" and "Math tuples and
 * packed arrays"). Digits come from numconv (shortest round-trip floats). */
#include "formats/json/json_write_internal.h"

/* Room for one number of any element type and its separator. Non-finite
 * floats in tuples are strings, at most "nan:0x" + 16 hex digits + quotes. */
#define NUM_ROOM (SV_FMT_F64_MAX + 2)
/* A packed array without shape is written this many numbers per line. */
#define FLAT_ROW 8

#define LIT(s) s, sizeof(s) - 1

static sv_status malformed(sv_jw *w, const char *what)
{
    return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0, "malformed tree: %s", what);
}

static inline uint8_t *put(uint8_t *p, const char *s, size_t n)
{
    memcpy(p, s, n);
    return p + n;
}

/* "{\"$i8\": " etc., by width 1, 2, 4, 8 (index 0..3), padded with spaces:
 * copied whole (a constant-size copy), the pointer then advanced by the
 * length, and by one more when pretty (keeping a space). */
static const char int_open[4][16] = {
    "{\"$i8\":        ", "{\"$i16\":       ", "{\"$i32\":       ", "{\"$i64\":       "};
static const char uint_open[4][16] = {
    "{\"$u8\":        ", "{\"$u16\":       ", "{\"$u32\":       ", "{\"$u64\":       "};
static const uint8_t int_open_len[4] = {7, 8, 8, 8};

static int width_index(unsigned width)
{
    switch (width) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return -1;
    }
}

/* The text of each number below 1000 in the first three bytes of its entry,
 * and its length in the fourth. */
#define DIGITS3(u)                                                                                 \
    {                                                                                              \
        (char)((u) < 10    ? '0' + (u)                                                             \
               : (u) < 100 ? '0' + (u) / 10                                                        \
                           : '0' + (u) / 100),                                                     \
            (char)((u) < 10    ? 0                                                                 \
                   : (u) < 100 ? '0' + (u) % 10                                                    \
                               : '0' + (u) / 10 % 10),                                             \
            (char)((u) < 100 ? 0 : '0' + (u) % 10),                                                \
            (char)((u) < 10    ? 1                                                                 \
                   : (u) < 100 ? 2                                                                 \
                               : 3)                                                                \
    }
#define DIGITS3_10(u)                                                                              \
    DIGITS3(u), DIGITS3((u) + 1), DIGITS3((u) + 2), DIGITS3((u) + 3), DIGITS3((u) + 4),            \
        DIGITS3((u) + 5), DIGITS3((u) + 6), DIGITS3((u) + 7), DIGITS3((u) + 8), DIGITS3((u) + 9)
#define DIGITS3_100(u)                                                                             \
    DIGITS3_10(u), DIGITS3_10((u) + 10), DIGITS3_10((u) + 20), DIGITS3_10((u) + 30),               \
        DIGITS3_10((u) + 40), DIGITS3_10((u) + 50), DIGITS3_10((u) + 60), DIGITS3_10((u) + 70),    \
        DIGITS3_10((u) + 80), DIGITS3_10((u) + 90)
const char sv__jw_digits3[1000][4] = {
    DIGITS3_100(0),   DIGITS3_100(100), DIGITS3_100(200), DIGITS3_100(300), DIGITS3_100(400),
    DIGITS3_100(500), DIGITS3_100(600), DIGITS3_100(700), DIGITS3_100(800), DIGITS3_100(900)};
#undef DIGITS3_100
#undef DIGITS3_10
#undef DIGITS3

static const char hex_lower[16] = {'0', '1', '2', '3', '4', '5', '6', '7',
                                   '8', '9', 'a', 'b', 'c', 'd', 'e', 'f'};

static uint8_t *put_hex(uint8_t *p, uint64_t bits, int digits)
{
    for (int i = digits - 1; i >= 0; i--) *p++ = (uint8_t)hex_lower[(bits >> (4 * i)) & 0xF];
    return p;
}

/* A non-finite float as its typed JSON string: "inf", "-inf", "nan" for the
 * one canonical quiet NaN, else "nan:0x" and the raw bits. */
static uint8_t *put_nonfinite64(uint8_t *p, uint64_t bits)
{
    if ((bits & UINT64_C(0x000fffffffffffff)) == 0)
        return bits >> 63 ? put(p, LIT("\"-inf\"")) : put(p, LIT("\"inf\""));
    if (bits == UINT64_C(0x7ff8000000000000)) return put(p, LIT("\"nan\""));
    p = put(p, LIT("\"nan:0x"));
    p = put_hex(p, bits, 16);
    *p++ = '"';
    return p;
}

static uint8_t *put_nonfinite32(uint8_t *p, uint32_t bits)
{
    if ((bits & 0x007fffffu) == 0)
        return bits >> 31 ? put(p, LIT("\"-inf\"")) : put(p, LIT("\"inf\""));
    if (bits == 0x7fc00000u) return put(p, LIT("\"nan\""));
    p = put(p, LIT("\"nan:0x"));
    p = put_hex(p, bits, 8);
    *p++ = '"';
    return p;
}

static inline uint64_t f64_bits(double d)
{
    uint64_t b;
    memcpy(&b, &d, sizeof b);
    return b;
}

static inline uint32_t f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    return b;
}

static inline bool bits64_finite(uint64_t b)
{
    return (b & UINT64_C(0x7ff0000000000000)) != UINT64_C(0x7ff0000000000000);
}

static inline bool bits32_finite(uint32_t b)
{
    return (b & 0x7f800000u) != 0x7f800000u;
}

/* ---- scalars ---------------------------------------------------------------- */

/* The opening of a 64-bit integer of no explicit width that a double cannot
 * hold, by signedness: {"$int": "..."} and {"$uint": "..."} read back as the
 * same width-less integer (a bare literal would be rounded by jq 1.6). */
static uint8_t *put_wide_open(uint8_t *p, bool is_signed, bool pretty)
{
    p = is_signed ? put(p, LIT("{\"$int\":")) : put(p, LIT("{\"$uint\":"));
    if (pretty) *p++ = ' ';
    return p;
}

sv_status sv__json_jw_int(sv_jw *w, const sv_value *v)
{
    int wi = width_index(v->sub);
    if (wi < 0) return malformed(w, "an int whose width is not 1, 2, 4 or 8");
    int64_t i = v->as.i;
    if (wi < 3) {
        int64_t lim = (int64_t)1 << (8 * v->sub - 1);
        if (i < -lim || i >= lim)
            return sv_error_set(w->err, SV_ERR_RANGE, SV_JW_FORMAT, 0,
                                "malformed tree: %lld does not fit an int of %u bytes",
                                (long long)i, (unsigned)v->sub);
    }
    if (!sv__json_jw_need(w, SV_FMT_INT_MAX + 24)) return SV_ERR_NOMEM;
    uint8_t *p = w->p;
    bool form = false;
    if (w->plain) {
    } else if (wi != 3 || (v->flags & SV_F_EXPLICIT)) {
        memcpy(p, int_open[wi], 16);
        p += int_open_len[wi] + w->pretty;
        form = true;
    } else if (sv__json_jw_wide_i64(i)) {
        p = put_wide_open(p, true, w->pretty);
        form = true;
    }
    p += sv__json_jw_fmt_i64_q(i, p, !w->plain);
    if (form) *p++ = '}';
    w->p = p;
    return SV_OK;
}

sv_status sv__json_jw_uint(sv_jw *w, const sv_value *v)
{
    int wi = width_index(v->sub);
    if (wi < 0) return malformed(w, "a uint whose width is not 1, 2, 4 or 8");
    uint64_t u = v->as.u;
    if (wi < 3 && (u >> (8 * v->sub)) != 0)
        return sv_error_set(w->err, SV_ERR_RANGE, SV_JW_FORMAT, 0,
                            "malformed tree: %llu does not fit a uint of %u bytes",
                            (unsigned long long)u, (unsigned)v->sub);
    if (!sv__json_jw_need(w, SV_FMT_INT_MAX + 24)) return SV_ERR_NOMEM;
    uint8_t *p = w->p;
    bool form = !w->plain;
    if (w->plain) {
    } else if (wi == 3 && !(v->flags & SV_F_EXPLICIT) && u > (uint64_t)INT64_MAX) {
        /* (a bare literal is rounded by jq above 2^53; at or below int64's
         * maximum a width-less uint is written {"$u64": N} and reads back
         * with its width explicit, as {"$uint": N} does there) */
        p = put_wide_open(p, false, w->pretty);
    } else {
        memcpy(p, uint_open[wi], 16);
        p += int_open_len[wi] + w->pretty;
    }
    p += sv__json_jw_fmt_u64_q(u, p, !w->plain);
    if (form) *p++ = '}';
    w->p = p;
    return SV_OK;
}

sv_status sv__json_jw_float(sv_jw *w, const sv_value *v)
{
    if (v->sub != 8 && v->sub != 4) return malformed(w, "a float whose width is not 4 or 8");
    if (!sv__json_jw_need(w, SV_FMT_F64_MAX + 12)) return SV_ERR_NOMEM;
    uint8_t *p = w->p;
    if (v->sub == 8) {
        double d = v->as.f64;
        uint64_t bits = f64_bits(d);
        bool finite = bits64_finite(bits);
        if (w->plain) {
            if (finite)
                p += sv__core_fmt_f64(d, (char *)p);
            else
                p = put(p, LIT("null"));
        } else if (finite && !(v->flags & SV_F_EXPLICIT)) {
            p += sv__core_fmt_f64(d, (char *)p);
        } else {
            p = put(p, LIT("{\"$f64\":"));
            if (w->pretty) *p++ = ' ';
            if (finite)
                p += sv__core_fmt_f64(d, (char *)p);
            else
                p = put_nonfinite64(p, bits);
            *p++ = '}';
        }
    } else {
        float f = v->as.f32;
        uint32_t bits = f32_bits(f);
        bool finite = bits32_finite(bits);
        if (w->plain) {
            if (finite)
                p += sv__core_fmt_f32(f, (char *)p);
            else
                p = put(p, LIT("null"));
        } else {
            p = put(p, LIT("{\"$f32\":"));
            if (w->pretty) *p++ = ' ';
            if (finite)
                p += sv__core_fmt_f32(f, (char *)p);
            else
                p = put_nonfinite32(p, bits);
            *p++ = '}';
        }
    }
    w->p = p;
    return SV_OK;
}

/* ---- runs of numbers ------------------------------------------------------------ */

/* Runs of numbers: m numbers from d, separated by ',' (", " when sep is
 * 2). Each number is followed by its separator, stored whole (", ",
 * advanced by sep) and the last one taken back: no test per number. Room:
 * m * NUM_ROOM. */
#define SEP()                                                                                      \
    do {                                                                                           \
        memcpy(p, ", ", 2);                                                                        \
        p += sep;                                                                                  \
    } while (0)

/* m (>= 1) float32s, the commonest tuple elements (inlined into the tuple
 * writer: a tuple shape has 2 to 16 scalars). */
static SV_ALWAYS_INLINE uint8_t *put_f32s(uint8_t *p, const uint8_t *d, size_t m, bool plain,
                                          size_t sep)
{
    for (size_t j = 0; j < m; j++) {
        float f;
        memcpy(&f, d + j * 4, 4);
        uint32_t bits = f32_bits(f);
        if (bits32_finite(bits))
            p += sv__core_fmt_f32(f, (char *)p);
        else if (plain)
            p = put(p, LIT("null"));
        else
            p = put_nonfinite32(p, bits);
        SEP();
    }
    return p - sep;
}

/* Writes m (>= 1) numbers of element type elem from data, starting at
 * scalar start, separated by ',' (", " when space). Room: m * NUM_ROOM. */
static uint8_t *put_nums(uint8_t *p, const void *data, size_t start, size_t m, unsigned elem,
                         bool plain, bool space)
{
    size_t sep = space ? 2 : 1;
    if (m == 0) return p;
#define INT_RUN(T, FMT)                                                                            \
    do {                                                                                           \
        const uint8_t *d = (const uint8_t *)data + start * sizeof(T);                              \
        for (size_t j = 0; j < m; j++) {                                                           \
            T x;                                                                                   \
            memcpy(&x, d + j * sizeof(T), sizeof(T));                                              \
            p += FMT(x, p, !plain);                                                                \
            SEP();                                                                                 \
        }                                                                                          \
    } while (0)
    switch (elem) {
    case SV_ELEM_U8: INT_RUN(uint8_t, sv__json_jw_fmt_u64_q); break;
    case SV_ELEM_I8: INT_RUN(int8_t, sv__json_jw_fmt_i64_q); break;
    case SV_ELEM_U16: INT_RUN(uint16_t, sv__json_jw_fmt_u64_q); break;
    case SV_ELEM_I16: INT_RUN(int16_t, sv__json_jw_fmt_i64_q); break;
    case SV_ELEM_U32: INT_RUN(uint32_t, sv__json_jw_fmt_u64_q); break;
    case SV_ELEM_I32: INT_RUN(int32_t, sv__json_jw_fmt_i64_q); break;
    case SV_ELEM_U64: INT_RUN(uint64_t, sv__json_jw_fmt_u64_q); break;
    case SV_ELEM_I64: INT_RUN(int64_t, sv__json_jw_fmt_i64_q); break;
    case SV_ELEM_F32: return put_f32s(p, (const uint8_t *)data + start * 4, m, plain, sep);
    case SV_ELEM_F64: {
        const uint8_t *d = (const uint8_t *)data + start * 8;
        for (size_t j = 0; j < m; j++) {
            double f;
            memcpy(&f, d + j * 8, 8);
            uint64_t bits = f64_bits(f);
            if (bits64_finite(bits))
                p += sv__core_fmt_f64(f, (char *)p);
            else if (plain)
                p = put(p, LIT("null"));
            else
                p = put_nonfinite64(p, bits);
            SEP();
        }
        break;
    }
    default: return p; /* (checked by the callers) */
    }
#undef INT_RUN
    return p - sep;
}
#undef SEP

/* ,"$elem":"f64" (with spaces when pretty). Room: 24. */
static uint8_t *put_elem_member(uint8_t *p, unsigned elem, bool pretty)
{
    static const char names[SV_ELEM_COUNT][4] = {"",    "u8",  "i8",  "u16", "i16", "u32",
                                                 "i32", "u64", "i64", "f32", "f64"};
    *p++ = ',';
    if (pretty) *p++ = ' ';
    p = put(p, LIT("\"$elem\":"));
    if (pretty) *p++ = ' ';
    *p++ = '"';
    memcpy(p, names[elem], 4);
    p += elem <= SV_ELEM_I8 ? 2 : 3;
    *p++ = '"';
    return p;
}

static SV_NOINLINE sv_status tuple_error(sv_jw *w, const sv_value *v)
{
    unsigned tag = v->tag, elem = v->sub;
    if (tag == 0 || tag >= SV_TAG_COUNT || sv__jw_tags[tag].kind != SV_TUPLE)
        return malformed(w, "a tuple without a shape tag");
    if (elem == SV_ELEM_NONE || elem >= SV_ELEM_COUNT)
        return malformed(w, "a tuple without an element type");
    return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0,
                        "malformed tree: a %s tuple holds %u numbers, not %u",
                        sv_tag_name((sv_tag)tag), v->as.data ? (unsigned)v->len : 0u,
                        (unsigned)sv__jw_tags[tag].scalars);
}

sv_status sv__json_jw_tuple(sv_jw *w, const sv_value *v)
{
    unsigned tag = v->tag, elem = v->sub;
    /* (row 0, no tag, is not a tuple shape) */
    const sv_jw_tag *t = &sv__jw_tags[tag < SV_TAG_COUNT ? tag : 0];
    if (t->kind != SV_TUPLE || elem - 1u >= SV_ELEM_COUNT - 1u || v->len != t->scalars ||
        !v->as.data)
        return tuple_error(w, v);
    size_t n = v->len;
    if (!sv__json_jw_need(w, SV_JW_OPEN_MAX + 32 + n * NUM_ROOM)) return SV_ERR_NOMEM;
    uint8_t *p = w->p;
    bool plain = w->plain, pretty = w->pretty;
    if (!plain) {
        memcpy(p, t->open, SV_JW_OPEN_MAX);
        p += t->open_len;
        *p = ' '; /* kept when pretty */
        p += pretty;
    }
    /* the numbers of a tuple stay on one line */
    *p++ = '[';
    if (elem == SV_ELEM_F32)
        p = put_f32s(p, v->as.data, n, plain, pretty ? 2 : 1);
    else
        p = put_nums(p, v->as.data, 0, n, elem, plain, pretty);
    *p++ = ']';
    if (!plain) {
        if (elem != t->elem) p = put_elem_member(p, elem, pretty);
        *p++ = '}';
    }
    w->p = p;
    return SV_OK;
}

/* [[a, b, c], ...]: one item per line, its numbers on that line. */
static sv_status packed_items(sv_jw *w, const void *data, size_t items, size_t k, unsigned elem)
{
    if (items == 0) {
        if (!sv__json_jw_need(w, 2)) return SV_ERR_NOMEM;
        w->p = put(w->p, "[]", 2);
        return SV_OK;
    }
    size_t outer = w->ind, ci = outer + w->indent;
    uint8_t open = '[';
    for (size_t i = 0; i < items; i++) {
        if (!sv__json_jw_need(w, ci + 4 + SV_JW_NL_SLACK + k * NUM_ROOM)) return SV_ERR_NOMEM;
        uint8_t *p = w->p;
        *p++ = open;
        open = ',';
        if (w->pretty) p = sv__json_jw_nl(p, ci);
        *p++ = '[';
        p = put_nums(p, data, i * k, k, elem, w->plain, w->pretty);
        *p++ = ']';
        w->p = p;
    }
    if (!sv__json_jw_need(w, outer + 2 + SV_JW_NL_SLACK)) return SV_ERR_NOMEM;
    if (w->pretty) w->p = sv__json_jw_nl(w->p, outer);
    *w->p++ = ']';
    return SV_OK;
}

/* [a, b, ...]: when pretty, on the form's line if it fits one row of
 * FLAT_ROW numbers, else FLAT_ROW numbers per line. */
static sv_status packed_flat(sv_jw *w, const void *data, size_t n, unsigned elem)
{
    if (n == 0) {
        if (!sv__json_jw_need(w, 2)) return SV_ERR_NOMEM;
        w->p = put(w->p, "[]", 2);
        return SV_OK;
    }
    bool rows = w->pretty && n > FLAT_ROW;
    size_t outer = w->ind, ci = outer + w->indent;
    for (size_t i = 0; i < n; i += FLAT_ROW) {
        size_t m = n - i < FLAT_ROW ? n - i : FLAT_ROW;
        if (!sv__json_jw_need(w, ci + 4 + SV_JW_NL_SLACK + FLAT_ROW * NUM_ROOM))
            return SV_ERR_NOMEM;
        uint8_t *p = w->p;
        *p++ = i ? ',' : '[';
        if (rows)
            p = sv__json_jw_nl(p, ci);
        else if (i && w->pretty)
            *p++ = ' ';
        p = put_nums(p, data, i, m, elem, w->plain, w->pretty);
        w->p = p;
    }
    if (!sv__json_jw_need(w, outer + 2 + SV_JW_NL_SLACK)) return SV_ERR_NOMEM;
    if (rows) w->p = sv__json_jw_nl(w->p, outer);
    *w->p++ = ']';
    return SV_OK;
}

sv_status sv__json_jw_packed(sv_jw *w, const sv_value *v)
{
    static const char flat_open[SV_ELEM_COUNT][12] = {"",
                                                      "{\"$u8s\":",
                                                      "{\"$i8s\":",
                                                      "{\"$u16s\":",
                                                      "{\"$i16s\":",
                                                      "{\"$u32s\":",
                                                      "{\"$i32s\":",
                                                      "{\"$u64s\":",
                                                      "{\"$i64s\":",
                                                      "{\"$f32s\":",
                                                      "{\"$f64s\":"};
    unsigned tag = v->tag, elem = v->sub;
    /* any other tag was written around this value by the caller */
    const sv_jw_tag *shape =
        tag && tag < SV_TAG_COUNT && sv__jw_tags[tag].kind == SV_PACKED ? &sv__jw_tags[tag] : NULL;
    if (elem == SV_ELEM_NONE || elem >= SV_ELEM_COUNT)
        return malformed(w, "a packed array without an element type");
    size_t n = v->len, k = shape ? shape->scalars : 1;
    if (n && !v->as.data) return malformed(w, "a packed array without storage");
    if (n % k)
        return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0,
                            "malformed tree: %zu numbers do not make whole %s items", n,
                            sv_tag_name((sv_tag)tag));
    if (!w->plain) {
        if (!sv__json_jw_need(w, SV_JW_OPEN_MAX + 1)) return SV_ERR_NOMEM;
        if (shape) {
            memcpy(w->p, shape->open, SV_JW_OPEN_MAX);
            w->p += shape->open_len;
        } else {
            memcpy(w->p, flat_open[elem], 12);
            w->p += elem == SV_ELEM_U8 || elem == SV_ELEM_I8 ? 8 : 9;
        }
        if (w->pretty) *w->p++ = ' ';
    }
    sv_status st =
        shape ? packed_items(w, v->as.data, n / k, k, elem) : packed_flat(w, v->as.data, n, elem);
    if (st) return st;
    if (!w->plain) {
        if (!sv__json_jw_need(w, 32)) return SV_ERR_NOMEM;
        if (shape && elem != shape->elem) w->p = put_elem_member(w->p, elem, w->pretty);
        *w->p++ = '}';
    }
    return SV_OK;
}
