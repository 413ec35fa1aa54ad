/* The typed JSON reader (docs/json.md): text -> value tree, in one pass.
 *
 * No recursion: open arrays, objects and "$" forms are frames on an explicit
 * stack (so the depth limit, not the C stack, bounds nesting), and the values
 * of open containers wait on a value stack. A closed container is copied from
 * the value stack into one arena block of exactly its size.
 *
 * An object whose first key starts with a single '$' is a form. Forms that
 * hold arbitrary values ($array, $map, $class, $meta, tags) are frames here;
 * the others are parsed whole by json_read_forms.c.
 *
 * Errors stop the parse at once. The JSON Pointer path of the failing value
 * is built from the frames afterwards (json_read_errors.c), so the success
 * path pays nothing for it; the path points into the text as written ("$"
 * keys included, such as /pos/$vector3/1), which is what a user editing the
 * text needs.
 *
 * Speed: the loop reads from a pointer and an end; compact text has no
 * whitespace, so each whitespace check is one compare; short clean keys and
 * strings (up to 15 bytes) are found with two 8-byte loads; keys go through
 * a small cache before the document's intern table. */
#include <stdlib.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/value_internal.h"
#include "json/json_read_internal.h"
#include "json/numconv.h"

/* The value stack lives in parse()'s locals (vs, vtop, vcap: kept in
 * registers); this grows it and hands back the new storage. */
static sv_value *grow_values(jr *r, size_t vtop, const char *at)
{
    r->vtop = vtop;
    if (!sv_jr_grow(r, (void **)&r->vs, &r->vcap, sizeof(sv_value), vtop + 1, at)) return NULL;
    return r->vs;
}

static bool depth_error(jr *r, const char *at)
{
    return sv_jr_fail(r, at, SV_ERR_DEPTH, "nesting is deeper than the limit of %u levels",
                      (unsigned)r->lim.max_depth);
}

static inline jr_frame *push_frame(jr *r, int type, const char *at, size_t vtop)
{
    if (r->ftop >= r->lim.max_depth) {
        depth_error(r, at);
        return NULL;
    }
    if (r->ftop == r->fcap &&
        !sv_jr_grow(r, (void **)&r->fs, &r->fcap, sizeof(jr_frame), r->ftop + 1, at))
        return NULL;
    jr_frame *f = &r->fs[r->ftop++];
    f->type = (uint8_t)type;
    f->sub = 0;
    f->phase = 0;
    f->has_meta = 0;
    f->tag = 0;
    f->mark = f->base = vtop;
    f->at = at;
    return f;
}

/* ---- keys --------------------------------------------------------------------------------- */

/* Reads the key (or any string) at p, a '"': in place when short and clean. */
static inline const char *read_key(jr *r, const char *p, jr_str *key)
{
    long n = jr_short_string(p + 1, r->end);
    if (n >= 0 && (uint64_t)n <= r->lim.max_string) {
        key->s = p + 1;
        key->len = (size_t)n;
        key->escaped = false;
        return p + n + 2;
    }
    return sv_jr_read_str(r, p, key, false);
}

/* The document's copy of a key, through the reader's cache: a hit costs a
 * hash of the first and last 8 bytes and one compare of the first 8.
 * *slot_out gets 1 + the cache slot used, or 0 if the key is not cached. */
static inline bool intern(jr *r, const jr_str *k, const char *at, sv_value *out, unsigned *slot_out)
{
    const char *s = k->s;
    size_t n = k->len;
    *slot_out = 0;
#if JR_SWAR
    /* Keys read in place with 8 bytes to spare; the rest go straight to the
     * document's table. */
    if (!k->escaped && r->end - s >= 8) {
        uint64_t head = jr_load64(s);
        if (n < 8) head &= (UINT64_C(1) << (8 * n)) - 1;
        uint64_t tail = n > 8 ? jr_load64(s + n - 8) : 0;
        uint64_t h =
            ((head ^ n) * UINT64_C(0x9e3779b97f4a7c15) ^ tail) * UINT64_C(0xbf58476d1ce4e5b9);
        unsigned i = (unsigned)(h >> (64 - JR_KEY_CACHE_BITS));
        jr_key_slot *slot = &r->keys[i];
        *slot_out = i + 1;
        if (slot->head == head && slot->len == n && /* empty slots have len UINT32_MAX */
            (n <= 8 || memcmp(slot->s + 8, s + 8, n - 8) == 0)) {
            *out = sv__str_value(slot->s, (uint32_t)n);
            return true;
        }
        sv_value v = sv_str_intern(r->doc, s, n);
        if (v.kind != SV_STRING) return sv_jr_fail_alloc(r, at);
        slot->head = head;
        slot->s = v.as.str;
        slot->len = (uint32_t)n;
        slot->next = 0;
        *out = v;
        return true;
    }
#endif
    sv_value v = sv_str_intern(r->doc, s, n);
    if (v.kind != SV_STRING) return sv_jr_fail_alloc(r, at);
    *out = v;
    return true;
}

/* The key that followed the last key (slot prev, 1-based) last time, if the
 * text at p (a '"') is exactly that key: its value, and p after it. Keys of
 * objects of one class come in one order, so this is the usual case and
 * skips the scan and the hash. */
static inline const char *predicted_key(jr *r, const char *p, unsigned prev, sv_value *out,
                                        unsigned *slot_out)
{
#if JR_SWAR
    unsigned next = r->keys[prev - 1].next;
    if (!next) return NULL;
    const jr_key_slot *e = &r->keys[next - 1];
    size_t n = e->len;
    if (r->end - p < 18 || n > 15) return NULL;
    /* A cached "$..." (a class name, or the key of "$$...") must never stand
     * for a text key "$...": that key is a form or an error. */
    if (n && (e->head & 0xFF) == '$' && !r->plain) return NULL;
    uint64_t w = jr_load64(p + 1);
    uint64_t mask = n < 8 ? (UINT64_C(1) << (8 * n)) - 1 : ~UINT64_C(0);
    if (((w & mask) != e->head) || p[1 + n] != '"' ||
        (n > 8 && memcmp(e->s + 8, p + 9, n - 8) != 0))
        return NULL;
    *out = sv__str_value(e->s, (uint32_t)n);
    *slot_out = next;
    return p + n + 2;
#else
    (void)r;
    (void)p;
    (void)prev;
    (void)out;
    (void)slot_out;
    return NULL;
#endif
}

bool sv_jr_intern(jr *r, const jr_str *k, const char *at, sv_value *out)
{
    unsigned slot;
    return intern(r, k, at, out, &slot);
}

/* A map key: interned, with a doubled leading '$' made single. */
static inline bool key_value(jr *r, const jr_str *key, const char *at, sv_value *out,
                             unsigned *slot)
{
    jr_str k = *key;
    if (k.len >= 2 && k.s[0] == '$' && k.s[1] == '$' && !r->plain) {
        k.s++;
        k.len--;
        *slot = 0;
        sv_value v;
        if (!intern(r, &k, at, &v, slot)) return false;
        *slot = 0; /* the text is not the key: no prediction */
        *out = v;
        return true;
    }
    return intern(r, &k, at, out, slot);
}

/* The form named by a "$" key (name: the key without its '$'), through the
 * reader's form cache. */
static inline jr_form form_of(jr *r, const jr_str *key)
{
    const char *s = key->s + 1;
    size_t n = key->len - 1;
#if JR_SWAR
    if (!key->escaped && n <= 16 && r->end - s >= 16) {
        uint64_t head = jr_load64(s);
        uint64_t tail = n > 8 ? jr_load64(s + n - 8) : 0;
        if (n < 8) head &= (UINT64_C(1) << (8 * n)) - 1;
        unsigned i = (unsigned)(((head ^ n) * UINT64_C(0x9e3779b97f4a7c15) ^ tail) >>
                                (64 - JR_FORM_CACHE_BITS));
        jr_form_slot *slot = &r->forms[i];
        if (slot->head == head && slot->tail == tail && slot->len == n) {
            jr_form f = {(jr_form_id)slot->id, (sv_elem)slot->elem, (sv_tag)slot->tag};
            return f;
        }
        jr_form f = sv_jr_form_lookup(s, n);
        slot->head = head;
        slot->tail = tail;
        slot->len = (uint32_t)n;
        slot->id = (uint8_t)f.id;
        slot->elem = (uint8_t)f.elem;
        slot->tag = (uint16_t)f.tag;
        return f;
    }
#endif
    return sv_jr_form_lookup(s, n);
}

static inline bool is_form_key(const jr *r, const jr_str *k)
{
    return k->len && k->s[0] == '$' && !r->plain && (k->len == 1 || k->s[1] != '$');
}

static inline bool key_is(const jr_str *k, const char *lit)
{
    size_t n = strlen(lit);
    return k->len == n && memcmp(k->s, lit, n) == 0;
}

/* ---- containers ------------------------------------------------------------------------ */

/* A container of n items of size bytes copied from items, in one arena block:
 * the header (sv_container, value.h) and the items right after it. */
static inline bool make_box(jr *r, sv_kind kind, const void *items, size_t n, size_t size,
                            const char *at, sv_value *out)
{
    if (n > UINT32_MAX || n > (SIZE_MAX - sizeof(sv_container)) / size)
        return sv_jr_fail(r, at, SV_ERR_LIMIT, "more than %lu items in one container",
                          (unsigned long)UINT32_MAX);
    sv_container *box = sv_jr_alloc(r, sizeof(sv_container) + n * size, at);
    if (!box) return false;
    *box = (sv_container){0};
    box->cap = (uint32_t)n;
    if (n) memcpy(box + 1, items, n * size);
    sv_value v = sv__make(kind, 0, 0);
    v.len = (uint32_t)n;
    v.as.box = box;
    *out = v;
    return true;
}

/* Closes the top frame, a JR_FR_ARRAY: its items are vs[f->base..*vtop). */
static inline bool close_array(jr *r, const sv_value *vs, size_t *vtop, const char *at,
                               sv_value *out)
{
    jr_frame *f = &r->fs[r->ftop - 1];
    if (!make_box(r, SV_ARRAY, vs + f->base, *vtop - f->base, sizeof(sv_value), at, out))
        return false;
    *vtop = f->mark;
    r->ftop--;
    return true;
}

/* Closes the top frame, a JR_FR_MAP or JR_FR_PAIRS: a MAP, or an OBJECT
 * whose class (and meta) sit before its pairs. */
static inline bool close_map(jr *r, const sv_value *vs, size_t *vtop, const char *at, sv_value *out)
{
    jr_frame *f = &r->fs[r->ftop - 1];
    bool object = f->type == JR_FR_MAP && f->sub == JR_MK_OBJECT;
    if (!make_box(r, object ? SV_OBJECT : SV_MAP, vs + f->base, (*vtop - f->base) / 2,
                  sizeof(sv_pair), at, out))
        return false;
    if (object) {
        const sv_value *cls = &vs[f->mark];
        if (!f->has_meta && r->cls && memcmp(r->cls, cls, sizeof *cls) == 0) {
            /* objects of one class share one read-only class value */
            out->as.box->cls = r->cls;
        } else {
            /* class and meta in one block */
            size_t extra = 1 + f->has_meta;
            sv_value *cm = sv_jr_alloc(r, extra * sizeof(sv_value), at);
            if (!cm) return false;
            memcpy(cm, cls, extra * sizeof(sv_value));
            out->as.box->cls = cm;
            if (f->has_meta)
                out->as.box->meta = cm + 1;
            else
                r->cls = cm;
        }
    }
    *vtop = f->mark;
    r->ftop--;
    return true;
}

/* ---- scalars ------------------------------------------------------------------------------ */

/* Numbers that json_read_number.c reads: long, with an exponent, or wrong. */
static const char *number_general(jr *r, const char *p, sv_value *out)
{
    jr_num n;
    const char *e = sv_jr_scan_number(r, p, &n);
    if (!e || !sv_jr_num_value(r, &n, out)) return NULL;
    return e;
}

/* A number. Tokens of up to 19 digits without an exponent (nearly all) are
 * read here in one pass: the digits 8 at a time into one integer, then
 * either that integer or one call to sv_decimal_to_f64. Anything else, and
 * every error, goes through json_read_number.c. */
static inline const char *number(jr *r, const char *p, sv_value *out)
{
    const char *end = r->end, *s = p;
    bool neg = *p == '-';
    p += neg;
    const char *ds = p;
    uint64_t m = 0;
    p = jr_take_digits(p, end, &m);
    size_t nd = (size_t)(p - ds);
    if (nd == 0 || nd > 19 || (nd > 1 && *ds == '0')) goto general;
    if (p == end || (*p != '.' && (*p | 0x20) != 'e')) {
        sv_value v;
        if (!neg && m <= (uint64_t)INT64_MAX) {
            v = sv__make(SV_INT, 8, 0);
            v.as.i = (int64_t)m;
        } else if (!neg) {
            v = sv__make(SV_UINT, 8, 0);
            v.as.u = m;
        } else if (m <= (uint64_t)INT64_MAX) {
            v = sv__make(SV_INT, 8, 0);
            v.as.i = -(int64_t)m;
        } else {
            goto general; /* -2^63 and below */
        }
        *out = v;
        return p;
    }
    int64_t e10 = 0;
    if (*p == '.') {
        const char *fs = ++p;
        p = jr_take_digits(p, end, &m);
        size_t nf = (size_t)(p - fs);
        if (nf == 0 || nd + nf > 19) goto general;
        e10 = -(int64_t)nf;
    }
    if (p < end && (*p | 0x20) == 'e') goto general;
    double d = 0.0;
    if (m != 0 && !sv_decimal_to_f64(m, e10, false, false, &d)) goto general;
    sv_value v = sv__make(SV_FLOAT, 8, 0);
    v.as.f64 = neg ? -d : d;
    *out = v;
    return p;
general:
    return number_general(r, s, out);
}

/* A string value: up to 15 clean bytes inline, the rest through
 * json_read_string.c. */
static inline const char *string_value(jr *r, const char *p, sv_value *out)
{
    long n = jr_short_string(p + 1, r->end);
    if (n >= 0 && (uint64_t)n <= r->lim.max_string) {
        /* 8 or 16 bytes, which is what the arena rounds len + 1 up to
         * anyway: the body moves as whole words. */
        size_t room = n < 8 ? 8 : 16;
        char *dst = sv_jr_alloc(r, room, p);
        if (!dst) return NULL;
        memcpy(dst, p + 1, room);
        dst[n] = '\0';
        *out = sv__str_value(dst, (uint32_t)n);
        return p + n + 2;
    }
    return sv_jr_string_value(r, p, out, false);
}

/* ---- the parser -------------------------------------------------------------------------- */

#define SKIP_WS(p)                                                                                 \
    do {                                                                                           \
        if ((p) < end && ((unsigned char)*(p) <= ' ' || *(p) == '/')) {                            \
            (p) = sv_jr_ws_slow(r, (p));                                                           \
            if (!(p)) goto fail;                                                                   \
        }                                                                                          \
    } while (0)

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        sv_jr_fail(r, __VA_ARGS__);                                                                \
        goto fail;                                                                                 \
    } while (0)

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        if (!(expr)) goto fail;                                                                    \
    } while (0)

#define PUSH(val, at)                                                                              \
    do {                                                                                           \
        if (vtop == vcap) {                                                                        \
            if (!(vs = grow_values(r, vtop, (at)))) goto fail;                                     \
            vcap = r->vcap;                                                                        \
        }                                                                                          \
        vs[vtop++] = (val);                                                                        \
    } while (0)

static bool parse(jr *r, const char *p, sv_value *root)
{
    const char *const end = r->end;
    sv_value *vs = r->vs;
    size_t vtop = r->vtop, vcap = r->vcap;
    jr_frame *f;
    sv_value v;
    jr_str key;
    jr_form fm;
    const char *kq, *obj;
    unsigned slot;
    bool open = true; /* the innermost frame has an item in progress (for error paths) */

value:
    open = true;
    SKIP_WS(p);
    if (p >= end) {
        sv_jr_bad_value(r, p);
        goto fail;
    }
    switch (*p) {
    case '"': TRY(p = string_value(r, p, &v)); goto have_value;
    case '-':
    case '0':
    case '1':
    case '2':
    case '3':
    case '4':
    case '5':
    case '6':
    case '7':
    case '8':
    case '9': TRY(p = number(r, p, &v)); goto have_value;
    case 't':
        if (end - p < 4 || memcmp(p, "true", 4) != 0) goto literal;
        v = sv__make(SV_BOOL, 0, 0);
        v.as.b = true;
        p += 4;
        goto have_value;
    case 'f':
        if (end - p < 5 || memcmp(p, "false", 5) != 0) goto literal;
        v = sv__make(SV_BOOL, 0, 0);
        p += 5;
        goto have_value;
    case 'n':
        if (end - p < 4 || memcmp(p, "null", 4) != 0) goto literal;
        v = sv__make(SV_NULL, 0, 0);
        p += 4;
        goto have_value;
    case '[':
        TRY(push_frame(r, JR_FR_ARRAY, p, vtop));
        p++;
        SKIP_WS(p);
        if (p < end && *p == ']') {
            TRY(close_array(r, vs, &vtop, p++, &v));
            goto have_value;
        }
        goto value;
    case '{': goto object;
    default: sv_jr_bad_value(r, p); goto fail;
    }

literal:
    sv_jr_bad_literal(r, p);
    goto fail;

object:
    obj = p;
    if (r->ftop >= r->lim.max_depth) {
        depth_error(r, p);
        goto fail;
    }
    p++;
    SKIP_WS(p);
    if (p < end && *p == '}') {
        TRY(make_box(r, SV_MAP, NULL, 0, sizeof(sv_pair), p++, &v));
        goto have_value;
    }
    if (p >= end || *p != '"') FAIL(p, SV_ERR_SYNTAX, "expected a key or '}' after '{'");
    kq = p;
    TRY(p = read_key(r, p, &key));
    if (is_form_key(r, &key)) goto form;
    TRY(push_frame(r, JR_FR_MAP, obj, vtop));
    goto key_push;

form:
    fm = form_of(r, &key);
    switch (fm.id) {
    case JF_UNKNOWN:
        FAIL(kq, SV_ERR_SYNTAX,
             "unknown form \"%.*s\" (a key that starts with '$' is written '$$')",
             (int)(key.len > 40 ? 40 : key.len), key.s);
    case JF_META:
        FAIL(kq, SV_ERR_SYNTAX, "\"$meta\" must follow a \"$array\", \"$map\" or \"$class\" key");
    case JF_ELEM:
        FAIL(kq, SV_ERR_SYNTAX, "\"$elem\" must follow the payload of a tuple or packed form");
    default: break;
    }
    SKIP_WS(p);
    if (p >= end || *p != ':') FAIL(p, SV_ERR_SYNTAX, "expected ':' after an object key");
    p++;
    SKIP_WS(p);
    switch (fm.id) {
    case JF_CLASS:
        TRY(f = push_frame(r, JR_FR_MAP, kq, vtop));
        f->sub = JR_MK_OBJECT;
        if (p < end && *p == '"') { /* a class name, usually short: inline */
            const char *cq = p;
            TRY(p = read_key(r, p, &key));
            TRY(intern(r, &key, cq, &v, &slot));
        } else {
            TRY(p = sv_jr_class_value(r, p, &v));
        }
        PUSH(v, p);
        r->fs[r->ftop - 1].base = vtop;
        goto map_next;
    case JF_ARRAY:
        if (p >= end || *p != '[') FAIL(p, SV_ERR_TYPE, "$array takes an array");
        TRY(f = push_frame(r, JR_FR_FORM, kq, vtop));
        f->sub = JF_ARRAY;
        f->at = p;
        goto value;
    case JF_MAP:
        if (p >= end || (*p != '[' && *p != '{'))
            FAIL(p, SV_ERR_TYPE, "$map takes an array of [key, value] pairs or an object");
        TRY(f = push_frame(r, JR_FR_FORM, kq, vtop));
        f->sub = JF_MAP;
        f->at = p;
        TRY(f = push_frame(r, *p == '[' ? JR_FR_PAIRS : JR_FR_MAP, p, vtop));
        if (*p == '{') {
            f->sub = JR_MK_PAYLOAD;
            p++;
            SKIP_WS(p);
            if (p < end && *p == '}') {
                TRY(close_map(r, vs, &vtop, p++, &v));
                goto have_value;
            }
            goto map_key;
        }
        p++;
        SKIP_WS(p);
        if (p < end && *p == ']') {
            TRY(close_map(r, vs, &vtop, p++, &v));
            goto have_value;
        }
        goto pair_open;
    case JF_TAG:
        TRY(f = push_frame(r, JR_FR_FORM, kq, vtop));
        f->sub = JF_TAG;
        f->tag = (uint16_t)fm.tag;
        f->at = p;
        goto value;
    default: TRY(p = sv_jr_leaf_form(r, p, fm, &v)); goto have_value;
    }

have_value:
    open = false;
    if (r->ftop == 0) {
        *root = v;
        SKIP_WS(p);
        if (p != end) FAIL(p, SV_ERR_TRAILING, "unexpected data after the JSON value");
        return true;
    }
    f = &r->fs[r->ftop - 1];
    switch (f->type) {
    case JR_FR_ARRAY:
        PUSH(v, p);
        SKIP_WS(p);
        if (p < end) {
            if (*p == ',') {
                p++;
                goto value;
            }
            if (*p == ']') {
                TRY(close_array(r, vs, &vtop, p++, &v));
                goto have_value;
            }
        }
        FAIL(p, SV_ERR_SYNTAX, "expected ',' or ']' after an array item");
    case JR_FR_MAP:
        PUSH(v, p);
        if (f->phase == 1) { /* that was the $meta of a $class */
            f->phase = 0;
            f->has_meta = 1;
            f->base = vtop;
        }
        goto map_next;
    case JR_FR_PAIR:
        PUSH(v, p);
        SKIP_WS(p);
        if (vtop - f->base == 1) {
            if (p < end && *p == ',') {
                p++;
                goto value;
            }
            FAIL(p, SV_ERR_SYNTAX, "expected ',' after the key of a $map pair");
        }
        if (p >= end || *p != ']')
            FAIL(p, SV_ERR_SYNTAX,
                 "expected ']' after the value of a $map pair (a pair has two items)");
        p++;
        r->ftop--;
        goto pairs_next;
    case JR_FR_FORM:
        if (f->sub == JF_TAG) {
            sv_tag tag = (sv_tag)f->tag;
            sv_kind want = sv_tag_kind(tag);
            open = true; /* errors below are about the wrapped value */
            if (want != SV_KIND_COUNT && v.kind != want)
                FAIL(f->at, SV_ERR_TYPE, "$%s takes a %s, not a %s", sv_tag_name(tag),
                     sv_kind_name(want), sv_kind_name((sv_kind)v.kind));
            if (v.tag != SV_TAG_NONE)
                FAIL(f->at, SV_ERR_TYPE, "a value has one tag: $%s cannot wrap a $%s value",
                     sv_tag_name(tag), sv_tag_name((sv_tag)v.tag));
            open = false;
            v.tag = (uint16_t)tag;
            SKIP_WS(p);
            if (p >= end || *p != '}')
                FAIL(p, SV_ERR_SYNTAX, "expected '}' after the $%s value (a tag form has one key)",
                     sv_tag_name(tag));
            p++;
            r->ftop--;
            goto have_value;
        }
        if (f->phase == 0) { /* the $array or $map payload */
            PUSH(v, p);
            f->phase = 1;
            SKIP_WS(p);
            if (p < end && *p == ',') {
                p++;
                SKIP_WS(p);
                kq = p;
                if (p >= end || *p != '"') FAIL(p, SV_ERR_SYNTAX, "expected \"$meta\" after ','");
                TRY(p = read_key(r, p, &key));
                if (!key_is(&key, "$meta"))
                    FAIL(kq, SV_ERR_SYNTAX, "only \"$meta\" may follow the payload of $%s",
                         f->sub == JF_ARRAY ? "array" : "map");
                f->phase = 2;
                goto map_colon;
            }
        } else { /* phase 2: the $meta value */
            sv_value *m = sv_jr_alloc(r, sizeof *m, p);
            if (!m) goto fail;
            *m = v;
            vs[f->mark].as.box->meta = m;
            f->phase = 1;
            SKIP_WS(p);
        }
        if (p >= end || *p != '}')
            FAIL(p, SV_ERR_SYNTAX, "expected '}' to close the $%s form",
                 f->sub == JF_ARRAY ? "array" : "map");
        p++;
        v = vs[f->mark];
        vtop = f->mark;
        r->ftop--;
        goto have_value;
    }
    FAIL(p, SV_ERR_SYNTAX, "internal error: bad frame"); /* not reached */

map_next:
    SKIP_WS(p);
    if (p < end && *p == ',') {
        p++;
        goto map_key;
    }
    if (p < end && *p == '}') {
        TRY(close_map(r, vs, &vtop, p++, &v));
        goto have_value;
    }
    FAIL(p, SV_ERR_SYNTAX, "expected ',' or '}' after an object member");

map_key:
    SKIP_WS(p);
    if (p >= end || *p != '"') FAIL(p, SV_ERR_SYNTAX, "expected a key (a string)");
    kq = p;
    f = &r->fs[r->ftop - 1];
    if (f->tag) {
        const char *q = predicted_key(r, p, f->tag, &v, &slot);
        if (q) {
            p = q;
            f->tag = (uint16_t)slot;
            PUSH(v, kq);
            goto map_colon;
        }
    }
    TRY(p = read_key(r, p, &key));
    if (is_form_key(r, &key)) {
        f = &r->fs[r->ftop - 1];
        if (key_is(&key, "$meta") && f->sub == JR_MK_OBJECT && !f->has_meta && vtop == f->base) {
            f->phase = 1;
            goto map_colon;
        }
        if (key_is(&key, "$meta") && f->sub == JR_MK_OBJECT)
            FAIL(kq, SV_ERR_SYNTAX, "\"$meta\" must come right after the \"$class\" key");
        FAIL(kq, SV_ERR_SYNTAX,
             "unexpected key \"%.*s\" (a key that starts with '$' is written '$$')",
             (int)(key.len > 40 ? 40 : key.len), key.s);
    }
key_push:
    TRY(key_value(r, &key, kq, &v, &slot));
    PUSH(v, kq);
    /* remember the order of keys for predicted_key */
    f = &r->fs[r->ftop - 1];
    if (f->tag && slot) r->keys[f->tag - 1].next = slot;
    f->tag = (uint16_t)slot;

map_colon:
    open = true;
    SKIP_WS(p);
    if (p >= end || *p != ':') FAIL(p, SV_ERR_SYNTAX, "expected ':' after an object key");
    p++;
    goto value;

pair_open:
    open = true;
    SKIP_WS(p);
    if (p >= end || *p != '[') {
        if (p < end && (*p == ']' || *p == '}')) {
            sv_jr_bad_value(r, p);
            goto fail;
        }
        FAIL(p, SV_ERR_TYPE, "a $map item is a [key, value] array");
    }
    TRY(push_frame(r, JR_FR_PAIR, p, vtop));
    p++;
    goto value;

pairs_next:
    open = false;
    SKIP_WS(p);
    if (p < end && *p == ',') {
        p++;
        goto pair_open;
    }
    if (p < end && *p == ']') {
        TRY(close_map(r, vs, &vtop, p++, &v));
        goto have_value;
    }
    FAIL(p, SV_ERR_SYNTAX, "expected ',' or ']' after a $map pair");

fail:
    r->vtop = vtop;
    sv_jr_build_path(r, open);
    return false;
}

sv_status sv_json_read(sv_doc *doc, const char *text, size_t len, const sv_json_read_opts *opts,
                       sv_value *out, sv_error *err)
{
    sv_error local;
    if (!err) err = &local;
    sv_error_clear(err);
    if (out) *out = sv_null();
    if (!doc || !out || (!text && len))
        return sv_error_set(err, SV_ERR_USAGE, "json", 0,
                            "sv_json_read needs a document, text and out");
    jr r;
    memset(&r, 0, sizeof r);
    r.doc = doc;
    r.text = text ? text : "";
    r.end = r.text + len;
    r.err = err;
    r.lim = sv_limits_resolve(opts ? &opts->limits : NULL);
    if (opts && opts->limits.max_alloc) sv_doc_set_max_alloc(doc, opts->limits.max_alloc);
    r.lim.max_alloc = doc->max_alloc; /* the document's own cap when opts leave it */
    r.comments = opts && opts->allow_comments;
    r.plain = opts && opts->plain;
    for (size_t i = 0; i < sizeof r.keys / sizeof r.keys[0]; i++)
        r.keys[i].len = UINT32_MAX;
    for (size_t i = 0; i < sizeof r.forms / sizeof r.forms[0]; i++)
        r.forms[i].len = UINT32_MAX;
    static char no_block[1];
    r.bump = r.bump_end = no_block;

    /* Small stacks up front, so they are never NULL (NULL + 0 is undefined). */
    bool ok = sv_jr_grow(&r, (void **)&r.vs, &r.vcap, sizeof(sv_value), 64, r.text) &&
              sv_jr_grow(&r, (void **)&r.fs, &r.fcap, sizeof(jr_frame), 16, r.text) &&
              parse(&r, r.text, out);
    free(r.vs);
    free(r.fs);
    free(r.sbuf);
    free(r.nbuf);
    if (!ok) {
        *out = sv_null();
        return err->status;
    }
    return SV_OK;
}
