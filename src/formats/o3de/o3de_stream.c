/* Loading O3DE JSON text straight into bound C structs, without a tree.
 *
 * A pull parser over the text, driven by the class and field types: an
 * object read for a class has its members matched to fields by O3DE's
 * rule (o3de_class.c: the lower-cased CRC-32, derived before base), an
 * array read for a vector or list fills its items in place, and every leaf
 * (a number, string, bool, null, {} or a short array of scalars) is made
 * into a small JSON value and handed to the direct load (o3de_struct.c),
 * so conversions, defaults and results are the tree path's own.
 *
 * It takes only the plain shape of things and gives up on the rest: a
 * comment, an escape or a byte above 0x7F in a string or key, a number the
 * reader does not take, an
 * object or nested array where a leaf is expected, a halted load, too deep
 * a nesting, anything after the value. Then the caller frees what was
 * filled, and the tree path (sv_o3de_read + sv_o3de_load_struct) reads the
 * text again and gives the answer, errors included. Reporting callbacks
 * need paths, which only the tree path keeps, so with one the tree path is
 * taken from the start. */
#include <math.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "core/value_internal.h"
#include "core/num_scan.h"
#include "formats/json/json_read_fast.h"
#include "o3de_struct_internal.h"
#include "schema/schema_internal.h"

#define RF SV_O3DE_READ_FIELD

/* deeper than this, the tree path decides (its reader and depth limits) */
#define STREAM_MAX_DEPTH 200
/* the most items of an array read as one leaf value (math types) */
#define LEAF_ITEMS 16

/* Per class: each field's name, and the field O3DE's lookup finds for a
 * key spelled exactly so (which is that field unless names collide). */
typedef struct s_names {
    size_t n;
    const char **name;
    size_t *len;
    long *hit;
} s_names;

/* The items of one sequence being read */
typedef struct s_items {
    uint8_t *b;
    size_t n, es, capb; /* capb: bytes; the block is kept for the next sequence at this depth */
    const sv_type *elem;
} s_items;

typedef struct s_ctx {
    o3_sctx x;
    const char *p, *end;
    unsigned depth;
    s_names *names; /* per class, lazily */
    sv_value empty; /* {} */
    char *scratch;  /* NUL-terminated copies of strings for non-string leaves */
    size_t scap;
    s_items blk[STREAM_MAX_DEPTH + 1]; /* of the sequences open, outermost first */
    size_t nblk, maxblk;
    uint8_t *flat; /* per class: 1 when its default instance owns nothing, 2 when it does */
    jmp_buf out;   /* giving up */
} s_ctx;

static _Noreturn void give_up(s_ctx *s)
{
    longjmp(s->out, 1);
}

static inline void ws(s_ctx *s)
{
    while (s->p < s->end) {
        char ch = *s->p;
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t')
            s->p++;
        else
            return;
    }
}

static inline char peek(s_ctx *s)
{
    ws(s);
    if (s->p >= s->end) give_up(s);
    return *s->p;
}

static inline void expect(s_ctx *s, char ch)
{
    if (peek(s) != ch) give_up(s);
    s->p++;
}

/* A string at p ('"'): its bytes, when plain ASCII without escapes. */
static const char *str(s_ctx *s, size_t *len)
{
    const char *b = ++s->p, *q = b;
    /* eight bytes at a time while none of them is special */
    const uint64_t ones = UINT64_C(0x0101010101010101), high = ones * 0x80;
    while (s->end - q >= 8) {
        uint64_t w;
        memcpy(&w, q, 8);
        uint64_t quote = w ^ (ones * '"'), bs = w ^ (ones * '\\');
        uint64_t special =
            ((quote - ones) & ~quote) | ((bs - ones) & ~bs) | ((w - ones * 0x20) & ~w) | w;
        if (special & high) break;
        q += 8;
    }
    for (;;) {
        if (q >= s->end) give_up(s);
        unsigned char ch = (unsigned char)*q;
        if (ch == '"') break;
        if (ch == '\\' || ch < 0x20 || ch >= 0x80) give_up(s);
        q++;
    }
    *len = (size_t)(q - b);
    if (*len > SV_DEFAULT_MAX_STRING) give_up(s);
    s->p = q + 1;
    return b;
}

static bool lit(s_ctx *s, const char *w, size_t n)
{
    if ((size_t)(s->end - s->p) < n || memcmp(s->p, w, n) != 0) return false;
    s->p += n;
    return true;
}

/* A number token the fast path does not take (more than 19 digits, an
 * exponent), scanned by the reader's own careful scan (num_scan.h) and
 * converted as sv__json_jr_num_value does. */
static sv_value num_long(s_ctx *s)
{
    const char *t0 = s->p;
    sv_num_scan n;
    const char *p = sv__core_num_scan_token(t0, s->end, &n);
    if (!p) give_up(s);
    sv_value v;
    if (n.is_int && !n.big && (!n.neg || n.mag <= (uint64_t)INT64_MAX + 1)) {
        v = sv__core_make(!n.neg && n.mag > (uint64_t)INT64_MAX ? SV_UINT : SV_INT, 8, 0);
        v.as.u = n.neg ? 0 - n.mag : n.mag;
    } else {
        double x;
        if (n.mant == 0)
            x = 0.0;
        else if (!sv__core_decimal_to_f64(n.mant, n.exp10, false, n.truncated, &x) &&
                 !sv__core_parse_f64(t0 + n.neg, (size_t)(p - t0) - n.neg, &x))
            give_up(s);
        if (isinf(x)) give_up(s); /* the reader's range error */
        v = sv__core_make(SV_FLOAT, 8, 0);
        v.as.f64 = n.neg ? -x : x;
    }
    s->p = p;
    return v;
}

/* A number as the reader makes it: INT, UINT past INT64_MAX, else FLOAT
 * (json_read.c's number(): its fast path inline, the rest above). */
static inline sv_value num(s_ctx *s)
{
    jr_dec d;
    const char *q = jr_decimal(s->p, s->end, &d);
    sv_value v;
    if (q && d.nf == 0 && (!d.neg || d.m <= (uint64_t)INT64_MAX)) {
        v = sv__core_make(d.m > (uint64_t)INT64_MAX ? SV_UINT : SV_INT, 8, 0);
        v.as.u = d.neg ? 0 - d.m : d.m;
    } else {
        double x;
        if (!q || !d.nf || !jr_dec_f64(d.m, d.nf, d.neg, &x)) return num_long(s);
        v = sv__core_make(SV_FLOAT, 8, 0);
        v.as.f64 = x;
    }
    s->p = q;
    return v;
}

/* A scalar at the cursor as a JSON value; a string is NUL-terminated in
 * scratch unless borrow (then it points into the text). */
static sv_value scalar(s_ctx *s, bool borrow)
{
    char ch = peek(s);
    if (ch == '"') {
        size_t n;
        const char *b = str(s, &n);
        if (!borrow) {
            void *scratch = s->scratch;
            if (!sv__core_mem_grow(s->x.a, &scratch, &s->scap, n + 1, 1)) give_up(s);
            s->scratch = scratch;
            memcpy(s->scratch, b, n);
            s->scratch[n] = 0;
            b = s->scratch;
        }
        return sv__core_str_value(b, (uint32_t)n);
    }
    if (ch == '-' || (ch >= '0' && ch <= '9')) return num(s);
    if (lit(s, "true", 4)) return sv_bool(true);
    if (lit(s, "false", 5)) return sv_bool(false);
    if (lit(s, "null", 4)) return sv_null();
    give_up(s);
}

/* Skips one value, checking its syntax as strictly as the rest. */
static void skip(s_ctx *s)
{
    char ch = peek(s);
    if (ch != '{' && ch != '[') {
        (void)scalar(s, true);
        return;
    }
    if (++s->depth > STREAM_MAX_DEPTH) give_up(s);
    s->p++;
    char close = ch == '{' ? '}' : ']';
    if (peek(s) == close) {
        s->p++;
    } else {
        for (;;) {
            if (ch == '{') {
                size_t n;
                if (peek(s) != '"') give_up(s);
                (void)str(s, &n);
                expect(s, ':');
            }
            skip(s);
            char sep = peek(s);
            s->p++;
            if (sep == close) break;
            if (sep != ',') give_up(s);
        }
    }
    s->depth--;
}

static const s_names *class_names(s_ctx *s, const sv_schema_class *cls, const o3_class_info *ci)
{
    s_names *nm = &s->names[cls->index];
    if (nm->name || ci->nfields == 0) return nm;
    nm->n = ci->nfields;
    nm->name = sv__core_mem_calloc(s->x.a, nm->n, sizeof *nm->name);
    nm->len = sv__core_mem_calloc(s->x.a, nm->n, sizeof *nm->len);
    nm->hit = sv__core_mem_calloc(s->x.a, nm->n, sizeof *nm->hit);
    if (!nm->name || !nm->len || !nm->hit) give_up(s);
    for (size_t i = 0; i < nm->n; i++) {
        nm->name[i] = ci->fields[i]->name;
        nm->len[i] = strlen(nm->name[i]);
        uint32_t crc = o3_crc32_lower(nm->name[i], nm->len[i]);
        nm->hit[i] = -1;
        for (size_t k = nm->n; k-- > 0;) {
            if (ci->crc[k] == crc) {
                nm->hit[i] = (long)k;
                break;
            }
        }
    }
    return nm;
}

/* O3DE's field lookup for key k: an exact spelling first (the field after
 * the last one found is tried before the others), the CRC-32 rule else. */
static long find(const o3_class_info *ci, const s_names *nm, const char *k, size_t n, size_t *next)
{
    for (size_t t = 0; t < nm->n; t++) {
        size_t i = *next + t < nm->n ? *next + t : *next + t - nm->n;
        if (nm->len[i] == n && memcmp(nm->name[i], k, n) == 0) {
            *next = i + 1 < nm->n ? i + 1 : 0;
            return nm->hit[i];
        }
    }
    uint32_t crc = o3_crc32_lower(k, n);
    for (size_t i = ci->nfields; i-- > 0;)
        if (ci->crc[i] == crc) return (long)i;
    return -1;
}

static o3_res value(s_ctx *s, const sv_type *t, uint8_t *p, uint8_t *aux, bool is_new);

/* ld_class of o3de_struct.c for a non-empty object at the cursor */
static o3_res object(s_ctx *s, const sv_schema_class *cls, uint8_t *p)
{
    o3_ctx *c = s->x.c;
    const o3_class_info *ci = o3_class(c, cls);
    if (!o3_ok(c)) give_up(s);
    const s_names *nm = class_names(s, cls, ci);
    o3_res result = sv_o3de_result_none(RF);
    size_t loads = 0, next = 0;
    s->p++; /* '{' */
    for (;;) {
        size_t kn;
        if (peek(s) != '"') give_up(s);
        const char *k = str(s, &kn);
        expect(s, ':');
        if (kn == 5 && memcmp(k, "$type", 5) == 0) {
            skip(s);
        } else {
            long fi = find(ci, nm, k, kn, &next);
            if (fi < 0) {
                result = o3_combine(result, o3_r(RF, SV_O3DE_SKIPPED));
                skip(s);
            } else {
                const sv_schema_field *f = ci->fields[fi];
                uint8_t *faux = f->c->aux != SV_CFIELD_NO_AUX ? p + f->c->aux : NULL;
                o3_res r = value(s, f->type, p + f->c_offset, faux, false);
                if (!o3_altered(r)) loads++;
                result = o3_combine(result, r);
            }
        }
        char sep = peek(s);
        s->p++;
        if (sep == '}') break;
        if (sep != ',') give_up(s);
    }
    if (ci->nfields > loads)
        result = o3_combine(
            result, o3_r(RF, loads == 0 ? SV_O3DE_DEFAULTS_USED : SV_O3DE_PARTIAL_DEFAULTS));
    return result;
}

/* Whether the C memory m of class cls owns nothing (no string, no
 * sequence items, in nested classes neither): then a copy of it is what
 * clone_direct makes. */
static bool owns_nothing(const sv_schema_class *cls, const uint8_t *m)
{
    size_t n;
    const sv_schema_field *const *f = sv_schema_class_fields(cls, &n);
    for (size_t i = 0; i < n; i++) {
        const sv_type *t = f[i]->type;
        const uint8_t *q = m + f[i]->c_offset;
        if ((t->kind == SV_TYPE_PRIM && t->prim == SV_PRIM_STRING) || t->kind == SV_TYPE_GENERIC) {
            void *ptr;
            memcpy(&ptr, q, sizeof ptr);
            if (ptr) return false;
        } else if (t->kind == SV_TYPE_CLASS && !owns_nothing(t->cls, q)) {
            return false;
        }
    }
    return true;
}

static bool flat_class(s_ctx *s, const sv_schema_class *cls)
{
    uint8_t *fl = &s->flat[cls->index];
    if (!*fl) {
        const uint8_t *proto = o3s_prototype(&s->x, cls);
        if (!proto) give_up(s);
        *fl = owns_nothing(cls, proto) ? 1 : 2;
    }
    return *fl == 1;
}

/* ld_seq of o3de_struct.c for a non-empty array at the cursor. The new
 * items gather in a block of their own and join the sequence at the end,
 * so that giving up half way leaves the struct whole (the block's items
 * are freed here). */

static o3_res array(s_ctx *s, const sv_type *t, uint8_t *p, uint8_t *aux, s_items *blk)
{
    o3_ctx *c = s->x.c;
    uint8_t *items;
    size_t n;
    memcpy(&items, p, sizeof items);
    memcpy(&n, aux, sizeof n);
    if (!items) n = 0;
    if (c->clear_containers && n) {
        o3_res cr = o3_rep(c, SV_O3DE_CLEAR, SV_O3DE_SUCCESS, "Clearing basic container.");
        if (o3_halted(cr)) give_up(s);
        if (o3_out(cr) == SV_O3DE_SUCCESS) {
            o3s_free(&s->x, t, p, aux);
            items = NULL;
            n = 0;
        }
    }
    blk->elem = t->params[0];
    blk->es = sv__schema_type_c_size(blk->elem);
    blk->n = 0;
    /* a class whose default instance owns nothing is copied as it is */
    const uint8_t *proto = NULL;
    if (blk->elem->kind == SV_TYPE_CLASS && flat_class(s, blk->elem->cls)) {
        proto = o3s_prototype(&s->x, blk->elem->cls);
        if (!proto) give_up(s);
    }
    o3_res result = sv_o3de_result_none(RF);
    s->p++; /* '[' */
    for (;;) {
        if ((blk->n + 1) * blk->es > blk->capb) {
            void *b = blk->b;
            if (!sv__core_mem_grow(s->x.a, &b, &blk->capb, (blk->n + 1) * blk->es, 1)) give_up(s);
            blk->b = b;
        }
        uint8_t *slot = blk->b + blk->n * blk->es;
        memset(slot, 0, blk->es);
        blk->n++; /* counted while loading, so that giving up frees it */
        if (proto)
            memcpy(slot, proto, blk->es);
        else
            o3s_fresh_default(&s->x, blk->elem, slot);
        o3_res r = value(s, blk->elem, slot, NULL, true);
        if (o3_altered(r)) {
            o3s_free(&s->x, blk->elem, slot, NULL);
            blk->n--;
        }
        result = o3_combine(result, r);
        char sep = peek(s);
        s->p++;
        if (sep == ']') break;
        if (sep != ',') give_up(s);
    }
    size_t total = n + blk->n;
    if (blk->n) {
        uint8_t *grown = s->x.a->realloc(s->x.a->ctx, items, n * blk->es, total * blk->es);
        if (!grown) give_up(s);
        memcpy(grown + n * blk->es, blk->b, blk->n * blk->es);
        memcpy(p, &grown, sizeof grown);
        memcpy(aux, &total, sizeof total);
        blk->n = 0; /* the items belong to the sequence now */
        result = o3_combine(result, o3_r(RF, SV_O3DE_SUCCESS));
    } else if (n == 0 && items) {
        /* every item was refused: no block, as the tree path leaves it */
        s->x.a->free(s->x.a->ctx, items, 0);
        memset(p, 0, sizeof(void *));
        memset(aux, 0, sizeof n);
    }
    return o3_report(c, result, "Loaded basic container.");
}

/* A leaf array of scalars (math types, or a wrong type) as one value. */
static o3_res leaf_array(s_ctx *s, const sv_type *t, uint8_t *p, uint8_t *aux, bool is_new)
{
    sv_value it[LEAF_ITEMS];
    size_t n = 0;
    s->p++;
    if (peek(s) == ']') {
        s->p++;
    } else {
        for (;;) {
            char ch = peek(s);
            if (ch == '{' || ch == '[' || n == LEAF_ITEMS) give_up(s);
            if (ch == '"') { /* kept in the scratch document, NUL-terminated */
                size_t sn;
                const char *b = str(s, &sn);
                it[n] = sv_str(s->x.c->doc, b, sn);
                if (sv_kind_of(&it[n++]) != SV_STRING) give_up(s);
            } else {
                it[n++] = scalar(s, true);
            }
            char sep = peek(s);
            s->p++;
            if (sep == ']') break;
            if (sep != ',') give_up(s);
        }
    }
    sv_value a = sv__core_array_from(s->x.c->doc, it, n);
    if (sv_kind_of(&a) != SV_ARRAY) give_up(s);
    return o3s_load(&s->x, t, &a, p, aux, is_new);
}

static bool is_plain_math(const sv_type *t)
{
    return t->kind == SV_TYPE_PRIM && (t->prim == SV_PRIM_VECTOR2 || t->prim == SV_PRIM_VECTOR3 ||
                                       t->prim == SV_PRIM_VECTOR4 || t->prim == SV_PRIM_QUATERNION);
}

/* vector2/3/4 and quaternion from exactly their count of numbers: what
 * fast_load does with them, without a value in between */
static bool math_fast(s_ctx *s, const sv_type *t, uint8_t *p, o3_res *r)
{
    size_t want = (size_t)sv_tag_scalars(sv__schema_prim_tag(t->prim));
    const char *save = s->p;
    float f[4];
    s->p++;
    for (size_t i = 0; i < want; i++) {
        ws(s);
        if (s->p >= s->end || (*s->p != '-' && (unsigned)(*s->p - '0') > 9)) goto no;
        sv_value v = num(s);
        double d = v.kind == SV_INT    ? (double)v.as.i
                   : v.kind == SV_UINT ? (double)v.as.u
                                       : v.as.f64;
        if (d > FLT_MAX || d < -FLT_MAX) goto no;
        f[i] = (float)d;
        if (peek(s) != (i + 1 == want ? ']' : ',')) goto no;
        s->p++;
    }
    memcpy(p, f, want * sizeof(float));
    *r = o3_r(RF, SV_O3DE_SUCCESS);
    return true;
no:
    s->p = save;
    return false;
}

/* A string leaf (set_leaf of o3de_struct.c): the text has no NUL byte,
 * str() refused control characters. */
static void set_string(s_ctx *s, uint8_t *p, const char *b, size_t n)
{
    char *prev;
    memcpy(&prev, p, sizeof prev);
    char *str_ = prev ? s->x.a->realloc(s->x.a->ctx, prev, strlen(prev) + 1, n + 1)
                      : s->x.a->malloc(s->x.a->ctx, n + 1);
    if (!str_) give_up(s); /* prev is still there to free */
    memcpy(str_, b, n);
    str_[n] = 0;
    memcpy(p, &str_, sizeof str_);
}

/* o3de_struct.c's ld for the value at the cursor */
static o3_res value(s_ctx *s, const sv_type *t, uint8_t *p, uint8_t *aux, bool is_new)
{
    o3_ctx *c = s->x.c;
    if (!o3_ok(c) || c->depth >= c->max_depth || s->depth >= STREAM_MAX_DEPTH) give_up(s);
    char ch = peek(s);
    o3_res r;
    if (ch == '{') {
        const char *save = s->p++;
        if (peek(s) == '}') {
            s->p++;
            r = o3s_load(&s->x, t, &s->empty, p, aux, is_new);
        } else if (t->kind == SV_TYPE_CLASS) {
            s->p = save;
            c->depth++;
            s->depth++;
            r = object(s, t->cls, p);
            s->depth--;
            c->depth--;
        } else {
            give_up(s);
        }
    } else if (ch == '[') {
        if (t->kind == SV_TYPE_GENERIC) {
            const char *save = s->p++;
            bool empty = peek(s) == ']';
            s->p = save;
            if (empty) return leaf_array(s, t, p, aux, is_new);
            s_items *blk = &s->blk[s->nblk++];
            if (s->nblk > s->maxblk) s->maxblk = s->nblk;
            c->depth++;
            s->depth++;
            r = array(s, t, p, aux, blk);
            s->depth--;
            c->depth--;
            s->nblk--;
        } else if (!(is_plain_math(t) && math_fast(s, t, p, &r))) {
            r = leaf_array(s, t, p, aux, is_new);
        }
    } else {
        bool is_str = t->kind == SV_TYPE_PRIM && t->prim == SV_PRIM_STRING;
        if (is_str && ch == '"') {
            size_t n;
            const char *b = str(s, &n);
            set_string(s, p, b, n);
            r = o3_r(RF, SV_O3DE_SUCCESS);
        } else {
            sv_value v = scalar(s, is_str);
            if (t->kind != SV_TYPE_PRIM || !o3s_fast_load(&s->x, t, &v, p, &r))
                r = o3s_load(&s->x, t, &v, p, aux, is_new);
        }
    }
    if (o3_halted(r) || !o3_ok(c)) give_up(s);
    return r;
}

bool o3_load_struct_stream(o3_ctx *c, const sv_schema_class *cls, const char *text, size_t len,
                           void *st, const sv_alloc *alloc, o3_res *result)
{
    s_ctx *s = sv__core_mem_calloc(alloc, 1, sizeof *s);
    if (!s) return false;
    volatile bool ok = false;
    s->p = text;
    s->end = text + len;
    s->names = sv__core_mem_calloc(alloc, c->nclasses, sizeof *s->names);
    s->flat = sv__core_mem_calloc(alloc, c->nclasses, 1);
    s->empty = o3_empty_object(c);
    if (!s->names || !s->flat || !o3_ok(c) || !o3s_init(&s->x, c, alloc)) {
        sv__core_mem_free(alloc, s->names, c->nclasses, sizeof *s->names);
        sv__core_mem_free(alloc, s->flat, c->nclasses, 1);
        sv__core_mem_free(alloc, s, 1, sizeof *s);
        return false;
    }
    sv_type t;
    memset(&t, 0, sizeof t);
    t.kind = SV_TYPE_CLASS;
    t.cls = cls;
    t.name = t.text = cls->name;
    if (setjmp(s->out) == 0) {
        *result = value(s, &t, st, NULL, false);
        ws(s);
        if (s->p != s->end) give_up(s);
        ok = true;
    } else {
        /* free the items of sequences still being read, then the struct */
        for (size_t k = 0; k < s->nblk; k++) {
            s_items *b = &s->blk[k];
            for (size_t i = 0; i < b->n; i++) o3s_free(&s->x, b->elem, b->b + i * b->es, NULL);
        }
        sv_struct_free(c->s, cls, st, alloc);
        memset(st, 0, cls->c->size);
        c->depth = 0;
    }
    o3s_done(&s->x);
    for (size_t i = 0; i < c->nclasses; i++) {
        s_names *nm = &s->names[i];
        sv__core_mem_free(alloc, nm->name, nm->n, sizeof *nm->name);
        sv__core_mem_free(alloc, nm->len, nm->n, sizeof *nm->len);
        sv__core_mem_free(alloc, nm->hit, nm->n, sizeof *nm->hit);
    }
    for (size_t k = 0; k < s->maxblk; k++) sv__core_mem_free(alloc, s->blk[k].b, s->blk[k].capb, 1);
    sv__core_mem_free(alloc, s->names, c->nclasses, sizeof *s->names);
    sv__core_mem_free(alloc, s->flat, c->nclasses, 1);
    sv__core_mem_free(alloc, s->scratch, s->scap, 1);
    sv__core_mem_free(alloc, s, 1, sizeof *s);
    return ok;
}
