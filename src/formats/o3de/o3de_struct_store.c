/* Storing bound C structs straight to O3DE JSON text (the store half of
 * the direct path; the load half and the shared state are o3de_struct.c).
 *
 * The text is what sv_o3de_write prints for the tree sv_o3de_store makes:
 * the same leaf serializers where a leaf is not plain, the class and
 * sequence walks of o3de_class.c and o3de_containers.c on the C memory, and
 * a member whose value turns out to be omitted cut back off the buffer.
 * Without a reporting callback or indentation, each class is walked from
 * its plan (o3de_store_plan.c: resolved once per class for the whole
 * store): fields in order with their offsets, their leaf kinds and their
 * keys as padded, precomputed text copied in one fixed-size move; plain
 * leaves are compared with the default instance's memory and written
 * straight into the output buffer, sequences of objects walked without
 * the general dispatch. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/compiler.h"
#include "core/mem.h"
#include "core/numconv.h"
#include "o3de_internal.h"
#include "o3de_struct_internal.h"
#include "schema/schema_internal.h"

#define WV SV_O3DE_WRITE_VALUE

/* ---- the output's room ----
 * A large output is faulted in 2 MiB at a time with one
 * sv__core_mem_populate each (core/mem.h), as the typed JSON writer does,
 * instead of one page fault per 4 KiB as the stores reach
 * it; the buffer grows by doubling. Checked once per member and per
 * sequence element (STORE_ROOM covers what a leaf writes; longer pieces
 * grow the buffer through sv_buf as before). */
#define STORE_STEP ((size_t)2 << 20)
#define STORE_ROOM O3_MEMBER_ROOM

static SV_NOINLINE bool store_room_slow(o3_sctx *x, size_t need)
{
    sv_buf *b = x->w.out;
    if (b->failed) return false;
    if (b->cap - b->len < need) {
        size_t want = b->cap > 65536 ? b->cap : 65536;
        if (want < need) want = need;
        if (sv_buf_ensure(b, want) != SV_OK) return false; /* failed, sticky */
    }
    if (b->cap < 2 * STORE_STEP) {
        x->ready = b->cap;
        return true;
    }
    /* need <= STORE_STEP: the step faulted in covers it */
    size_t from = x->ready > b->len ? x->ready : b->len;
    size_t upto = from + STORE_STEP < b->cap ? from + STORE_STEP : b->cap;
    sv__core_mem_populate(b->data + from, b->data + upto);
    x->ready = upto;
    return true;
}

/* True when need bytes (at most STORE_STEP) are there past the output's
 * end: members or elements that write at most STORE_ROOM each then store
 * through a cursor with no check of their own (out_leaf). False once the
 * buffer has failed (every failure makes it fail: the store stops there,
 * with its error). ready never exceeds cap, so len + need <= ready means
 * the room. */
static inline bool store_room_for(o3_sctx *x, size_t need)
{
    const sv_buf *b = x->w.out;
    if (SV_UNLIKELY(b->len + need > x->ready || b->failed)) return store_room_slow(x, need);
    return true;
}
static inline bool store_room(o3_sctx *x)
{
    return store_room_for(x, STORE_ROOM);
}

/* Whether any of eight bytes is a quote, a backslash or below 0x20 (the
 * bytes a JSON string escapes): the zero-byte test on w ^ '"' and w ^ '\\',
 * and the borrow of w - 0x20 in a byte whose top bit is clear. */
static inline uint64_t escape_bits8(uint64_t w)
{
    const uint64_t ones = UINT64_C(0x0101010101010101), high = ones * 0x80;
    uint64_t quote = w ^ (ones * '"'), bs = w ^ (ones * '\\');
    return (((quote - ones) & ~quote) | ((bs - ones) & ~bs) | ((w - ones * 0x20) & ~w)) & high;
}
static inline bool needs_escape8(uint64_t w)
{
    return escape_bits8(w) != 0;
}
/* The same for the sixteen bytes of two words at once: on SSE2 a quote or
 * a backslash by equality and a byte below 0x20 as one the unsigned
 * minimum with 0x1F leaves unchanged (bytes from 0x80 up are not). */
static inline bool escapes16(uint64_t a, uint64_t z)
{
#if defined(__SSE2__)
    __m128i v = _mm_set_epi64x((long long)z, (long long)a);
    __m128i m =
        _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    m = _mm_or_si128(m, _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v));
    return _mm_movemask_epi8(m) != 0;
#else
    return (escape_bits8(a) | escape_bits8(z)) != 0;
#endif
}

/* o3_write_string for the usual string, which needs no escape: copied
 * straight into the output eight bytes at a time while none needs one */
static void put_string(o3_sctx *x, const char *s, size_t n)
{
    sv_buf *b = x->w.out;
    if (sv_buf_ensure(b, n + 2 + 8) != SV_OK) return;
    uint8_t *d = b->data + b->len;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
        if (needs_escape8(w)) break;
        memcpy(d + 1 + i, &w, 8);
    }
    if (i < n && i + 8 > n && n >= 8) {
        /* no escape so far, fewer than eight bytes left: those as the
         * eight that end the string, overlapping bytes already checked and
         * copied */
        uint64_t w;
        memcpy(&w, s + n - 8, 8);
        if (!needs_escape8(w)) {
            memcpy(d + 1 + n - 8, &w, 8);
            i = n;
        }
    }
    for (; i < n; i++) {
        uint8_t ch = (uint8_t)s[i];
        if (ch < 0x20 || ch == '"' || ch == '\\') {
            o3_write_string(&x->w, s, n); /* escapes: the writer's own way */
            return;
        }
        d[1 + i] = ch;
    }
    d[0] = '"';
    d[n + 1] = '"';
    b->len += n + 2;
}

/* ---- leaves through a cursor ----
 * A plain leaf (its kind from the class plan, o3s_leaf_of once per field)
 * with its result, for a member or element whose STORE_ROOM bytes
 * store_room has made sure of: written through q, a
 * local pointer, with no capacity check and no store of the buffer's
 * length per piece (every byte stored through a char pointer would make
 * the compiler reload the buffer's fields). At most 1 + 4 * 33 bytes (a
 * vector: brackets, commas, o3_dtoa's 32 each), an enumerator's slot or a
 * string of up to 16 bytes that needs no escape (18); a longer string,
 * whose length has no bound, goes through put_string with the length
 * committed first. dp: the default the value is compared with,
 * NULL when it is written whatever it is (no default, or keep_defaults:
 * the callers decide that once per object or sequence, not per leaf).
 * Returns the end of what was written, or NULL when the leaf is not plain
 * (nothing written: the general path's). out_leaf is inlined into the
 * walks: a call per leaf (with its saved registers) costs as much as the
 * work for short values. */
static inline char *cur_int(char *q, bool sgn, uint64_t v)
{
    uint64_t u = v;
    if (sgn && (int64_t)v < 0) {
        *q++ = '-';
        u = (uint64_t)0 - v;
    }
    if (u >= 100000000u) { /* long ones (ids): eight digits at a time */
        uint64_t hi = u / 100000000;
        uint32_t lo = (uint32_t)(u - hi * 100000000);
        if (hi >= 100000000u) { /* up to 20 digits: 4, 8 and 8 */
            uint32_t top = (uint32_t)(hi / 100000000);
            q += o3_put_digits(q, top);
            sv__core_store64le(q, o3_eight_digits((uint32_t)(hi - (uint64_t)top * 100000000)));
            q += 8;
        } else {
            q += o3_put_digits(q, (uint32_t)hi);
        }
        sv__core_store64le(q, o3_eight_digits(lo));
        return q + 8;
    }
    if (u == 0) { /* o3_put_digits writes no digit for 0 */
        *q = '0';
        return q + 1;
    }
    return q + o3_put_digits(q, (uint32_t)u);
}

/* Which of a vector's n floats (bits 0..n-1) are finite and which equal
 * the default's (operator==: values, so 0.0 equals -0.0); lanes past n are
 * zero in both, so they count as finite and equal. dp NULL: no default.
 * On SSE2 all four lanes at once, loaded straight into a register (through
 * a copy on the stack, a 16-byte load would wait for the narrower stores
 * before it): f - f is 0 for a finite f and NaN otherwise, and a NaN equals
 * nothing. */
#if defined(__SSE2__)
static O3_ALWAYS_INLINE __m128 load_floats(const uint8_t *p, size_t n)
{
    if (n == 4) return _mm_loadu_ps((const float *)(const void *)p);
    __m128 lo = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)p));
    if (n == 2) return lo;
    return _mm_movelh_ps(lo, _mm_load_ss((const float *)(const void *)(p + 8)));
}
#endif
static O3_ALWAYS_INLINE void floats_finite_equal(const uint8_t *p, const uint8_t *dp, size_t n,
                                                 unsigned *finite, unsigned *equal)
{
#if defined(__SSE2__)
    __m128 vf = load_floats(p, n), vd = dp ? load_floats(dp, n) : _mm_setzero_ps();
    *finite = (unsigned)_mm_movemask_ps(_mm_cmpeq_ps(_mm_sub_ps(vf, vf), _mm_setzero_ps()));
    *equal = (unsigned)_mm_movemask_ps(_mm_cmpeq_ps(vf, vd));
#else
    float f[4] = {0, 0, 0, 0}, d[4] = {0, 0, 0, 0};
    memcpy(f, p, 4 * n);
    if (dp) memcpy(d, dp, 4 * n);
    unsigned fin = 0, eq = 0;
    for (int i = 0; i < 4; i++) {
        fin |= (unsigned)(isfinite(f[i]) != 0) << i;
        eq |= (unsigned)(f[i] == d[i]) << i;
    }
    *finite = fin;
    *equal = eq;
#endif
}

/* p: the vector's floats in C memory (float-aligned, as the struct lays
 * them out) */
static O3_ALWAYS_INLINE char *cur_floats(char *q, const uint8_t *p, const uint8_t *dp, size_t n,
                                         bool color, o3_res *r)
{
    unsigned finite, equal;
    floats_finite_equal(p, dp, n, &finite, &equal);
    if (finite != 15) return NULL; /* the writer's error, the long way */
    /* f is finite, so equal values are also every case of equal bits */
    if (dp && equal == 15) {
        memcpy(q, "{}", 2);
        *r = o3_r(WV, SV_O3DE_DEFAULTS_USED);
        return q + 2;
    }
    size_t out = n;
    bool alpha_default = color && dp && (equal & 8);
    if (alpha_default) out = 3;
    *q++ = '[';
    q += o3_ftoa_list((const float *)(const void *)p, out, q);
    *q++ = ']';
    *r = o3_r(WV, alpha_default ? SV_O3DE_PARTIAL_DEFAULTS : SV_O3DE_SUCCESS);
    return q;
}

/* put_string at q: the length committed first, the cursor taken again
 * after (the buffer may have moved) */
static char *cur_string(o3_sctx *x, char *q, const char *s, size_t n)
{
    sv_buf *b = x->w.out;
    b->len = (size_t)((uint8_t *)q - b->data);
    put_string(x, s, n);
    return (char *)b->data + b->len;
}

static O3_ALWAYS_INLINE char *out_leaf(o3_sctx *x, char *q, const o3_leaf *lp, const uint8_t *p,
                                       const uint8_t *dp, o3_res *r)
{
    switch ((o3_op)lp->op) {
    case O3_OP_ENUM4: {
        /* O3_OP_ENUM's table by value for the usual four-byte enum, the
         * value read as unsigned: a negative one is past the table either
         * way, and values are equal exactly when their bytes are */
        uint32_t in, d;
        memcpy(&in, p, 4);
        if (in >= lp->by_value) return NULL;
        const char *slot = lp->names + (size_t)in * O3_ENUM_SLOT;
        if (!slot[0]) return NULL;
        if (dp) {
            memcpy(&d, dp, 4);
            if (in == d) goto dflt;
        }
        memcpy(q, slot + 1, O3_ENUM_SLOT - 1);
        q += (uint8_t)slot[0];
        goto done;
    }
    case O3_OP_ENUM: {
        const sv_schema_enum *e = lp->enm;
        int w = lp->width;
        bool sgn = lp->sgn;
        if (w == 1 && sgn) return NULL;
        uint64_t in = sgn ? (uint64_t)sv__core_native_int(p, w) : sv__core_native_uint(p, w);
        if (lp->by_value) {
            /* the name's slot by its value (o3de_store_plan.c): a value
             * with no slot or an empty one names no enumerator */
            if (in >= lp->by_value) return NULL;
            const char *slot = lp->names + (size_t)in * O3_ENUM_SLOT;
            if (!slot[0]) return NULL;
            if (dp &&
                in == (sgn ? (uint64_t)sv__core_native_int(dp, w) : sv__core_native_uint(dp, w)))
                goto dflt;
            memcpy(q, slot + 1, O3_ENUM_SLOT - 1);
            q += (uint8_t)slot[0];
            goto done;
        }
        for (uint32_t i = 0; i < e->nvalues; i++) {
            if (e->values[i].value != in) continue;
            if (dp &&
                in == (sgn ? (uint64_t)sv__core_native_int(dp, w) : sv__core_native_uint(dp, w)))
                goto dflt;
            if (!lp->names) { /* (a leaf outside a class plan) */
                const char *name = e->values[i].name;
                q = cur_string(x, q, name, strlen(name));
                goto done;
            }
            /* the name's text from its slot (o3de_store_plan.c) */
            const char *slot = lp->names + (size_t)i * O3_ENUM_SLOT;
            memcpy(q, slot + 1, O3_ENUM_SLOT - 1);
            q += (uint8_t)slot[0];
            goto done;
        }
        return NULL;
    }
    case O3_OP_INT: {
        int w = lp->width;
        bool sgn = lp->sgn;
        uint64_t v = sgn ? (uint64_t)sv__core_native_int(p, w) : sv__core_native_uint(p, w);
        if (dp && v == (sgn ? (uint64_t)sv__core_native_int(dp, w) : sv__core_native_uint(dp, w)))
            goto dflt;
        q = cur_int(q, sgn, v);
        goto done;
    }
    case O3_OP_F32: {
        float f, g = 0;
        memcpy(&f, p, 4);
        if (dp) memcpy(&g, dp, 4);
        if (dp && fabsf(f - g) <= FLT_EPSILON) goto dflt;
        if (!isfinite(f)) return NULL; /* the writer's error, the long way */
        q += o3_ftoa(f, q);
        goto done;
    }
    case O3_OP_F64: {
        double v, d = 0;
        memcpy(&v, p, 8);
        if (dp) memcpy(&d, dp, 8);
        if (dp && fabs(v - d) <= DBL_EPSILON) goto dflt;
        if (!isfinite(v)) return NULL;
        q += o3_dtoa(v, q);
        goto done;
    }
    case O3_OP_BOOL: {
        bool b, e = false;
        memcpy(&b, p, sizeof b);
        if (dp) memcpy(&e, dp, sizeof e);
        if (dp && b == e) goto dflt;
        /* "true" or "false" as one five-byte copy (the room is there) */
        memcpy(q, b ? "true " : "false", 5);
        q += b ? 4 : 5;
        goto done;
    }
    case O3_OP_STRING: {
        const char *s, *e = NULL;
        memcpy(&s, p, sizeof s);
        if (dp) memcpy(&e, dp, sizeof e);
        if (!s) s = "";
        if (dp && !e) e = "";
        if (dp && (e[0] ? strcmp(s, e) == 0 : s[0] == 0)) goto dflt;
        size_t n = strlen(s);
        if (n - 8 <= 8) {
            /* 8 to 16 bytes (most names), within the leaf's room: the
             * first eight and the last eight (overlapping) tested and
             * copied as two words when neither needs an escape */
            uint64_t a, z;
            memcpy(&a, s, 8);
            memcpy(&z, s + n - 8, 8);
            if (!escapes16(a, z)) {
                *q = '"';
                memcpy(q + 1, &a, 8);
                memcpy(q + 1 + n - 8, &z, 8);
                q[n + 1] = '"';
                q += n + 2;
                goto done;
            }
        }
        q = cur_string(x, q, s, n);
        goto done;
    }
    case O3_OP_VEC2: return cur_floats(q, p, dp, 2, false, r);
    case O3_OP_VEC3: return cur_floats(q, p, dp, 3, false, r);
    case O3_OP_VEC4: return cur_floats(q, p, dp, 4, false, r);
    case O3_OP_QUAT: return cur_floats(q, p, dp, 4, false, r);
    case O3_OP_COLOR: return cur_floats(q, p, dp, 4, true, r);
    default: return NULL;
    }
dflt:
    memcpy(q, "{}", 2);
    *r = o3_r(WV, SV_O3DE_DEFAULTS_USED);
    return q + 2;
done:
    *r = o3_r(WV, SV_O3DE_SUCCESS);
    return q;
}

/* A plain leaf written where nothing has made room for it yet (st and
 * st_seq): out_leaf after store_room. false: not a plain leaf, or the
 * buffer has failed; the general path then decides (and writes nothing to
 * a failed buffer). */
static inline bool fast_store_leaf(o3_sctx *x, o3_leaf l, const uint8_t *p, const uint8_t *dp,
                                   o3_res *r)
{
    if (!store_room(x)) return false;
    sv_buf *b = x->w.out;
    char *end = out_leaf(x, (char *)b->data + b->len, &l, p, dp, r);
    if (!end) return false;
    b->len = (size_t)((uint8_t *)end - b->data);
    return true;
}

static inline bool fast_store(o3_sctx *x, const sv_type *t, const uint8_t *p, const uint8_t *dp,
                              o3_res *r)
{
    return fast_store_leaf(x, o3s_leaf_of(t), p, x->c->keep_defaults ? NULL : dp, r);
}

/* ---- store ---- */

static o3_res st(o3_sctx *x, const sv_type *t, const uint8_t *p, const uint8_t *aux,
                 const uint8_t *dp, const uint8_t *daux, unsigned level);

/* The member walk with a reporting callback, indentation or the depth
 * limit reached: every member through st, its path kept for the callback
 * (the keys still from the class plan). */
static o3_res st_class(o3_sctx *x, const sv_schema_class *cls, const uint8_t *p, const uint8_t *dp,
                       unsigned level)
{
    o3_ctx *c = x->c;
    o3_writer *w = &x->w;
    const o3_class_info *ci = o3_class(c, cls);
    if (ci->nfields == 0) {
        sv_buf_append(w->out, "{}", 2);
        return c->keep_defaults
                   ? o3_rep(c, WV, SV_O3DE_SUCCESS, "Class didn't contain any elements to store.")
                   : o3_rep(c, WV, SV_O3DE_DEFAULTS_USED,
                            "Class didn't contain any elements to store.");
    }
    const o3_plan *pl = o3s_plan(x, cls);
    if (!pl) return o3_r(WV, SV_O3DE_CATASTROPHIC);
    sv_buf_putc(w->out, '{');
    size_t written = 0;
    o3_res result = sv_o3de_result_none(WV);
    for (size_t i = 0; i < ci->nfields && o3_ok(c); i++) {
        const sv_schema_field *f = ci->fields[i];
        const o3_step *s = &pl->steps[i];
        size_t back = w->out->len;
        if (written) sv_buf_putc(w->out, ',');
        if (w->indent) {
            o3_write_newline(w, level + 1);
            sv_buf_append(w->out, pl->keys + s->key_off, s->key_len - 1);
            sv_buf_append(w->out, ": ", 2);
        } else {
            sv_buf_append(w->out, pl->keys + s->key_off, s->key_len);
        }
        size_t mark = c->report ? o3_path_key(c, f->name, strlen(f->name)) : o3_path_mark(c);
        size_t ao = s->aux;
        o3_res r =
            st(x, f->type, p + s->off, ao != SV_CFIELD_NO_AUX ? p + ao : NULL,
               dp ? dp + s->off : NULL, dp && ao != SV_CFIELD_NO_AUX ? dp + ao : NULL, level + 1);
        if (c->report) o3_path_pop(c, mark);
        if (o3_halted(r)) return o3_report(c, r, "Storing of element has failed.");
        if (c->keep_defaults || o3_out(r) != SV_O3DE_DEFAULTS_USED)
            written++;
        else if (sv_buf_ok(w->out))
            w->out->len = back; /* omitted: cut the member off again */
        result = o3_combine(result, r);
    }
    if (w->indent && written) o3_write_newline(w, level);
    sv_buf_putc(w->out, '}');
    return result;
}

static o3_res plan_seq(o3_sctx *x, const o3_step *s, const uint8_t *p, const uint8_t *aux,
                       unsigned level);

/* ---- results of the plain walks ----
 * A plain leaf's result is success, defaults used or partial defaults of
 * WV (out_leaf). Folded into a result that is no result yet or one of
 * those three, o3_combine gives the OR of the two: the outcomes are 1, 4
 * and 5 and their pairs combine to 1|4 = 5 (the partial one), 1|5 and 4|5
 * = 5, and no result (the task alone) ORed with one is that one. So the
 * walks OR a leaf's result in while the result stays in that set (the
 * usual case: it leaves it only after a general member's result, an
 * altered or skipped one) and combine it otherwise. */
#define RES_NONE ((o3_res)WV) /* sv_o3de_result_none(WV) */
static inline bool leaf_ors(o3_res r)
{
    uint32_t o = (uint32_t)r >> 16;
    if (r == RES_NONE) return true;
    return ((uint32_t)r & 0xffffu) == ((uint32_t)SV_O3DE_COMPLETED << 8 | (uint32_t)WV) &&
           (o == SV_O3DE_SUCCESS || o == SV_O3DE_DEFAULTS_USED || o == SV_O3DE_PARTIAL_DEFAULTS);
}

/* The elements of a sequence of integers (n > 0, the '[' written) and its
 * ']' in one tight loop: room for up to INT_ITEMS_STEP elements at once
 * (INT_ITEM_ROOM each: a comma, a sign and 20 digits, o3_put_digits's
 * eight-byte stores included), each written or {} when it equals the
 * default dp (NULL: none); *res gets the elements' results folded
 * (success, defaults used: their OR, as in plan_class). Specialized per
 * width and sign (int_items picks one). False: the buffer failed. */
#define INT_ITEM_ROOM 24
#define INT_ITEMS_STEP 256
static O3_ALWAYS_INLINE bool int_items_as(o3_sctx *x, const uint8_t *items, size_t n, size_t es,
                                          int w, bool sgn, const uint8_t *dp, o3_res *res)
{
    sv_buf *out = x->w.out;
    const o3_res ok = o3_r(WV, SV_O3DE_SUCCESS), dflt = o3_r(WV, SV_O3DE_DEFAULTS_USED);
    uint64_t dv = 0;
    if (dp) dv = sgn ? (uint64_t)sv__core_native_int(dp, w) : sv__core_native_uint(dp, w);
    o3_res acc = RES_NONE;
    for (size_t i = 0; i < n;) {
        size_t m = n - i < INT_ITEMS_STEP ? n - i : INT_ITEMS_STEP;
        if (!store_room_for(x, m * INT_ITEM_ROOM + 1)) return false; /* and the ']' */
        char *q = (char *)out->data + out->len;
        for (size_t stop = i + m; i < stop; i++) {
            *q = ',';
            q += i != 0;
            const uint8_t *e = items + i * es;
            uint64_t v = sgn ? (uint64_t)sv__core_native_int(e, w) : sv__core_native_uint(e, w);
            if (dp && v == dv) {
                memcpy(q, "{}", 2);
                q += 2;
                acc |= dflt;
            } else {
                q = cur_int(q, sgn, v);
                acc |= ok;
            }
        }
        if (i == n) *q++ = ']';
        out->len = (size_t)((uint8_t *)q - out->data);
    }
    *res = acc;
    return true;
}
static bool int_items(o3_sctx *x, o3_leaf l, const uint8_t *items, size_t n, size_t es,
                      const uint8_t *dp, o3_res *res)
{
    switch (l.width * 2 + l.sgn) {
    case 2: return int_items_as(x, items, n, es, 1, false, dp, res);
    case 3: return int_items_as(x, items, n, es, 1, true, dp, res);
    case 4: return int_items_as(x, items, n, es, 2, false, dp, res);
    case 5: return int_items_as(x, items, n, es, 2, true, dp, res);
    case 8: return int_items_as(x, items, n, es, 4, false, dp, res);
    case 9: return int_items_as(x, items, n, es, 4, true, dp, res);
    case 16: return int_items_as(x, items, n, es, 8, false, dp, res);
    default: return int_items_as(x, items, n, es, 8, true, dp, res);
    }
}

/* The member walk without callback or indentation (st_class's output and
 * results, member for member): the fields from the class plan, plain
 * leaves written in place, sequences walked here, the rest through st. */
static O3_ALWAYS_INLINE o3_res plan_class_as(o3_sctx *x, const o3_plan *pl, const uint8_t *p,
                                             const uint8_t *dp, unsigned level, const bool cmp)
{
    o3_ctx *c = x->c;
    sv_buf *out = x->w.out;
    const char *keys = pl->keys;
    const bool keep = c->keep_defaults;
    const o3_res dflt = o3_r(WV, SV_O3DE_DEFAULTS_USED);
    sv_buf_putc(out, '{');
    /* a failed buffer may have no data yet: the cursor below is taken
     * from a buffer that holds at least the brace (the first member's room
     * check would fail the store just the same) */
    if (!sv_buf_ok(out)) return o3_r(WV, SV_O3DE_CATASTROPHIC);
    bool written = false;
    o3_res result = RES_NONE;
    bool ors = true; /* leaf_ors(result) */
    /* Room for a run of members at once (s->room_n from the plan): the
     * bounded members of the run (s->bounded: they write at most
     * STORE_ROOM with no growth of their own) need no check, until one
     * that may grow the buffer or write more (a string, a sequence, the
     * general path), after which the next member makes room for the next
     * run. The walk stops at a failed buffer: the store's error is then
     * the buffer's (out of memory or its limit).
     * q is the output's end while members are written in place: kept in
     * a register and stored to out->len only before anything that grows
     * the buffer or reads its length (every byte stored through a char
     * pointer would otherwise make the compiler reload the buffer's
     * fields). */
    uint32_t left = 0; /* members the room made covers */
    /* plan_seq's checks pass for a sequence here and its leaves are within
     * the depth limit (the depth is the object's throughout: what the
     * members raise they lower again), and the context is sound (checked
     * after every general path below, and before this walk) */
    const bool int_seqs = c->depth + 1 < c->max_depth;
    char *q = (char *)out->data + out->len;
    for (const o3_step *s = pl->steps, *last = pl->steps + pl->n; s < last; s++) {
        if (left == 0) {
            out->len = (size_t)((uint8_t *)q - out->data);
            if (!store_room_for(x, s->room_n * STORE_ROOM)) return o3_r(WV, SV_O3DE_CATASTROPHIC);
            q = (char *)out->data + out->len;
            left = s->room_n;
        }
        left = s->bounded ? left - 1 : 0;
        char *m = q; /* the member's start, where an omitted one is cut */
        size_t kl = s->key_len;
        if (kl <= O3_KEY_PAD) {
            /* the separator and the key, the key as one fixed-size copy
             * (the key text is padded) */
            *q = ',';
            q += written;
            memcpy(q, keys + s->key_off, O3_KEY_PAD);
            q += kl;
        } else {
            if (written) *q++ = ',';
            out->len = (size_t)((uint8_t *)q - out->data);
            size_t back = (size_t)((uint8_t *)m - out->data);
            sv_buf_append(out, keys + s->key_off, kl);
            if (!store_room(x)) return o3_r(WV, SV_O3DE_CATASTROPHIC); /* the leaf's room */
            q = (char *)out->data + out->len;
            m = (char *)out->data + back;
        }
        const uint8_t *fp = p + s->off;
        o3_res r;
        /* (a sequence is no leaf: NULL) */
        char *end = out_leaf(x, q, &s->leaf, fp, cmp ? dp + s->off : NULL, &r);
        if (end) {
            /* a plain leaf: never halted; omitted when it is the default
             * (only ever so without keep_defaults: it has no default then).
             * Only a string may have moved the buffer, and a default one
             * writes nothing but {}: m still holds when it is cut. */
            bool omit = r == dflt;
            q = omit ? m : end;
            written |= !omit;
            result = ors ? result | r : o3_combine(result, r);
            continue;
        }
        left = 0; /* what follows writes any length */
        if (s->leaf.op == O3_OP_SEQ && s->elem_leaf.op == O3_OP_INT && int_seqs) {
            /* a sequence of integers, as plan_seq would write it: its
             * elements' results folded are in the leaves' set, and so is
             * that with the sequence's own success (their OR); never the
             * default (success is in it), so never omitted */
            const uint8_t *items;
            size_t n;
            memcpy(&items, fp, sizeof items);
            memcpy(&n, p + s->aux, sizeof n);
            if (items && n) {
                *q++ = '[';
                out->len = (size_t)((uint8_t *)q - out->data);
                const uint8_t *ed = keep ? NULL : s->elem_default;
                /* the usual i32 elements inline here (a call's saved
                 * registers and set-up cost as much as a short sequence) */
                bool ok = s->elem_leaf.width == 4 && s->elem_leaf.sgn
                              ? int_items_as(x, items, n, s->elem_size, 4, true, ed, &r)
                              : int_items(x, s->elem_leaf, items, n, s->elem_size, ed, &r);
                if (!ok) return o3_r(WV, SV_O3DE_CATASTROPHIC);
                q = (char *)out->data + out->len;
                r |= o3_r(WV, SV_O3DE_SUCCESS);
                written = true;
                result = ors ? result | r : o3_combine(result, r);
                continue;
            }
        }
        size_t back = (size_t)((uint8_t *)m - out->data);
        out->len = (size_t)((uint8_t *)q - out->data);
        if (s->leaf.op == O3_OP_SEQ) {
            r = plan_seq(x, s, fp, p + s->aux, level + 1);
        } else { /* not a plain leaf */
            size_t ao = s->aux;
            r = st(x, s->t, fp, ao != SV_CFIELD_NO_AUX ? p + ao : NULL, dp ? dp + s->off : NULL,
                   dp && ao != SV_CFIELD_NO_AUX ? dp + ao : NULL, level + 1);
        }
        if (o3_halted(r)) return o3_report(c, r, "Storing of element has failed.");
        if (keep || o3_out(r) != SV_O3DE_DEFAULTS_USED)
            written = true;
        else if (sv_buf_ok(out))
            out->len = back; /* omitted: cut the member off again */
        q = (char *)out->data + out->len;
        result = o3_combine(result, r);
        ors = leaf_ors(result);
        /* The context can fail only in the general path (st, plan_seq):
         * c is checked after those, not per member (st_object checked it
         * before). */
        if (!o3_ok(c)) break;
    }
    out->len = (size_t)((uint8_t *)q - out->data);
    sv_buf_putc(out, '}');
    return result;
}
/* The walk in two copies, with and without a default to compare leaves
 * with (keep_defaults, or none), so that neither tests for it per leaf. */
static o3_res plan_class(o3_sctx *x, const o3_plan *pl, const uint8_t *p, const uint8_t *dp,
                         unsigned level)
{
    if (dp && !x->c->keep_defaults) return plan_class_as(x, pl, p, dp, level, true);
    return plan_class_as(x, pl, p, dp, level, false);
}

/* st for a class value: the nesting checks, then the plain walk when
 * nothing listens, nothing is indented and the leaves one level down are
 * within the limit; else the member walk through st. pl: the class's plan
 * when the caller has it, else NULL. */
static o3_res st_object(o3_sctx *x, const sv_schema_class *cls, const o3_plan *pl, const uint8_t *p,
                        const uint8_t *dp, unsigned level)
{
    o3_ctx *c = x->c;
    if (!o3_ok(c)) return o3_r(WV, SV_O3DE_CATASTROPHIC);
    if (c->depth >= c->max_depth)
        return o3_rep(c, WV, SV_O3DE_CATASTROPHIC, "The value is nested too deeply to store.");
    c->depth++;
    o3_res r;
    if (!c->report && !x->w.indent && c->depth < c->max_depth) {
        if (!pl) pl = o3s_plan(x, cls);
        if (!pl)
            r = o3_r(WV, SV_O3DE_CATASTROPHIC);
        else if (pl->n)
            r = plan_class(x, pl, p, dp, level);
        else
            r = st_class(x, cls, p, dp, level); /* no fields: its own report */
    } else {
        r = st_class(x, cls, p, dp, level);
    }
    c->depth--;
    return r;
}

/* A sequence's elements (st_seq's output and results), the element kind,
 * size and default from the field's plan step. */
static o3_res plan_seq_items(o3_sctx *x, const o3_step *s, const uint8_t *p, const uint8_t *aux,
                             unsigned level)
{
    o3_ctx *c = x->c;
    sv_buf *out = x->w.out;
    const uint8_t *items;
    size_t n;
    memcpy(&items, p, sizeof items);
    memcpy(&n, aux, sizeof n);
    if (!items) n = 0;
    if (n == 0) {
        if (!c->keep_defaults) {
            sv_buf_append(out, "{}", 2);
            return o3_rep(c, WV, SV_O3DE_DEFAULTS_USED, "Empty container.");
        }
        sv_buf_append(out, "[]", 2);
        return o3_rep(c, WV, SV_O3DE_SUCCESS, "Empty container stored.");
    }
    size_t es = s->elem_size;
    const uint8_t *d = s->elem_default;
    const o3_plan *epl = NULL;
    bool objects = s->elem_leaf.op == O3_OP_CLASS;
    if (objects) {
        d = o3s_prototype(x, s->elem->cls);
        if (!d) return o3_r(WV, SV_O3DE_CATASTROPHIC);
        epl = o3s_plan(x, s->elem->cls);
        if (!epl) return o3_r(WV, SV_O3DE_CATASTROPHIC);
    }
    sv_buf_putc(out, '[');
    o3_res result = RES_NONE;
    bool ors = true;                                 /* leaf_ors(result), as in plan_class */
    bool leaves = c->depth < c->max_depth;           /* st's checks for a leaf pass */
    const uint8_t *ld = c->keep_defaults ? NULL : d; /* what leaves compare with */
    if (leaves && s->elem_leaf.op == O3_OP_INT) {
        if (!int_items(x, s->elem_leaf, items, n, es, ld, &result))
            return o3_r(WV, SV_O3DE_CATASTROPHIC);
        return o3_combine(result, o3_r(WV, SV_O3DE_SUCCESS));
    }
    if (objects && epl->n && c->depth + 2 < c->max_depth) {
        /* every element passes st_object's checks and takes the plain walk
         * (nothing reports or indents here: plan_class called this): the
         * checks once for the sequence, the depth raised once for all */
        c->depth++;
        for (size_t i = 0; i < n; i++) {
            if (i) sv_buf_putc(out, ',');
            o3_res r = plan_class(x, epl, items + i * es, d, level + 1);
            if (o3_halted(r)) {
                c->depth--;
                return r;
            }
            result = o3_combine(result, r);
            if (!o3_ok(c)) break;
        }
        c->depth--;
        sv_buf_putc(out, ']');
        return o3_combine(result, o3_r(WV, SV_O3DE_SUCCESS));
    }
    for (size_t i = 0; i < n; i++) {
        if (!store_room(x)) return o3_r(WV, SV_O3DE_CATASTROPHIC); /* as in plan_class */
        char *q = (char *)out->data + out->len;
        *q = ',';
        q += i != 0;
        const uint8_t *e = items + i * es;
        o3_res r;
        char *end = objects || !leaves ? NULL : out_leaf(x, q, &s->elem_leaf, e, ld, &r);
        if (end) {
            out->len = (size_t)((uint8_t *)end - out->data);
            result = ors ? result | r : o3_combine(result, r);
            continue;
        }
        out->len = (size_t)((uint8_t *)q - out->data);
        if (objects)
            r = st_object(x, s->elem->cls, epl, e, d, level + 1);
        else
            r = st(x, s->elem, e, NULL, d, NULL, level + 1); /* not a plain leaf */
        if (o3_halted(r)) return r;
        result = o3_combine(result, r);
        ors = leaf_ors(result);
        if (!o3_ok(c)) break; /* checked after the general path (as in plan_class) */
    }
    sv_buf_putc(out, ']');
    return o3_combine(result, o3_r(WV, SV_O3DE_SUCCESS));
}

/* st for a counted sequence field of a plain walk */
static o3_res plan_seq(o3_sctx *x, const o3_step *s, const uint8_t *p, const uint8_t *aux,
                       unsigned level)
{
    o3_ctx *c = x->c;
    if (!o3_ok(c)) return o3_r(WV, SV_O3DE_CATASTROPHIC);
    if (c->depth >= c->max_depth)
        return o3_rep(c, WV, SV_O3DE_CATASTROPHIC, "The value is nested too deeply to store.");
    c->depth++;
    o3_res r = plan_seq_items(x, s, p, aux, level);
    c->depth--;
    return r;
}

static o3_res st_seq(o3_sctx *x, const sv_type *t, const uint8_t *p, const uint8_t *aux,
                     unsigned level)
{
    o3_ctx *c = x->c;
    o3_writer *w = &x->w;
    const uint8_t *items;
    size_t n;
    memcpy(&items, p, sizeof items);
    memcpy(&n, aux, sizeof n);
    if (!items) n = 0;
    if (n == 0) {
        if (!c->keep_defaults) {
            sv_buf_append(w->out, "{}", 2);
            return o3_rep(c, WV, SV_O3DE_DEFAULTS_USED, "Empty container.");
        }
        sv_buf_append(w->out, "[]", 2);
        return o3_rep(c, WV, SV_O3DE_SUCCESS, "Empty container stored.");
    }
    const sv_type *elem = t->params[0];
    size_t es = sv__schema_type_c_size(elem);
    /* each element against a fresh default of its type (ReplaceDefault) */
    uint8_t leaf[64];
    const uint8_t *d = leaf;
    if (elem->kind == SV_TYPE_CLASS) {
        d = o3s_prototype(x, elem->cls);
        if (!d) return o3_r(WV, SV_O3DE_CATASTROPHIC);
    } else {
        o3s_fresh_default(x, elem, leaf); /* a leaf: owns nothing */
    }
    sv_buf_putc(w->out, '[');
    o3_res result = sv_o3de_result_none(WV);
    bool plain = !c->report && !w->indent && c->depth < c->max_depth;
    for (size_t i = 0; i < n && o3_ok(c); i++) {
        store_room(x);
        if (i) sv_buf_putc(w->out, ',');
        if (w->indent) o3_write_newline(w, level + 1);
        o3_res r;
        if (plain && fast_store(x, elem, items + i * es, d, &r)) {
            /* a plain leaf, as in plan_class */
        } else {
            size_t mark = c->report ? o3_path_index(c, i) : o3_path_mark(c);
            r = st(x, elem, items + i * es, NULL, d, NULL, level + 1);
            if (c->report) o3_path_pop(c, mark);
        }
        if (o3_halted(r)) return r;
        result = o3_combine(result, r);
    }
    if (w->indent) o3_write_newline(w, level);
    sv_buf_putc(w->out, ']');
    return o3_combine(result, o3_r(WV, SV_O3DE_SUCCESS));
}

static o3_res st(o3_sctx *x, const sv_type *t, const uint8_t *p, const uint8_t *aux,
                 const uint8_t *dp, const uint8_t *daux, unsigned level)
{
    o3_ctx *c = x->c;
    (void)daux;
    if (t->kind == SV_TYPE_CLASS) return st_object(x, t->cls, NULL, p, dp, level);
    if (!o3_ok(c)) return o3_r(WV, SV_O3DE_CATASTROPHIC);
    if (c->depth >= c->max_depth)
        return o3_rep(c, WV, SV_O3DE_CATASTROPHIC, "The value is nested too deeply to store.");
    c->depth++;
    o3_res r;
    if (t->kind == SV_TYPE_GENERIC) {
        r = st_seq(x, t, p, aux, level);
    } else if (!c->report && !x->w.indent && fast_store(x, t, p, dp, &r)) {
        /* done */
    } else {
        sv_value v = o3s_leaf_value(x, t, p), d, j;
        if (dp) d = o3s_leaf_value(x, t, dp);
        memset(&j, 0, sizeof j);
        j.kind = SV_MAP; /* the pre-set {} a default leaves in place */
        if (t->kind == SV_TYPE_ENUM)
            r = o3_store_enum(c, t->enm, &v, dp ? &d : NULL, &j);
        else if (o3s_is_math(t->prim))
            r = o3_store_math(c, t->prim, &v, dp ? &d : NULL, &j);
        else
            r = o3_store_prim(c, t->prim, &v, dp ? &d : NULL, &j);
        if (j.kind == SV_MAP && !j.as.box)
            sv_buf_append(x->w.out, "{}", 2); /* still the pre-set {} (no storage) */
        else
            o3_write_value(&x->w, &j, level);
    }
    c->depth--;
    return r;
}

/* ---- entry point ---- */

o3_res o3_store_struct_direct(o3_ctx *c, const sv_schema_class *cls, const void *obj, sv_buf *out,
                              int indent)
{
    o3_sctx x;
    if (!o3s_init(&x, c, out->alloc)) return o3_r(WV, SV_O3DE_CATASTROPHIC);
    x.w.out = out;
    x.w.indent = indent;
    x.w.err = c->err;
    sv_type t;
    o3s_class_type(&t, cls);
    size_t start = out->len;
    /* the root class is compared with its default instance unless
     * keep_defaults (sv_o3de_store's rule for classes) */
    const uint8_t *d = c->keep_defaults ? NULL : o3s_prototype(&x, cls);
    o3_res r = o3_ok(c) ? st(&x, &t, obj, NULL, d, NULL, 0) : o3_r(WV, SV_O3DE_CATASTROPHIC);
    if (o3_halted(r) && sv_buf_ok(out)) {
        out->len = start; /* a halted store leaves the pre-set {} */
        sv_buf_append(out, "{}", 2);
    }
    if (x.w.bad && o3_ok(c)) o3_fail(c, x.w.st, "JSON text");
    o3s_done(&x);
    return r;
}
