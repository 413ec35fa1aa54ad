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
 * Speed (measured with callgrind on the benchmark document, bench/): the
 * loop keeps the text pointer, the value stack and the top frame in locals
 * and makes each value in place, in the value stack slot where it stays; a
 * value's 16 bytes are built as two words (jr_value). Compact text has no
 * whitespace: a structural byte is checked first and whitespace handled
 * only when it is not there. Keys are predicted from the key cache
 * (jr_key_slot): the key that followed the previous one last time, the
 * first key of an object from the key it is the value of, the keys of an
 * object from its class; a hit is one or two 8-byte compares. A "$" form's
 * key is looked up by its first 16 bytes, and the common one-key forms
 * ($f32, $u8, $bytes, $vector3, ...) are read by json_read_fast.h straight
 * into their values. Short clean strings (up to 15 bytes) are found with two
 * 8-byte loads. Everything else, and every error, goes the general way. */
#include <stdlib.h>
#include <string.h>

#include "core/article.h"
#include "core/doc_internal.h"
#include "core/value_internal.h"
#include "formats/json/json_read_fast.h"
#include "formats/json/json_opts.h"
#include "formats/json/json_read_internal.h"
#include "core/numconv.h"

/* The value stack's storage and top live in parse()'s locals (vs, vtop:
 * kept in registers); this grows it to hold vs[vtop] and hands back the new
 * storage. */
static sv_value *grow_values(jr *r, size_t vtop, const char *at)
{
    r->vtop = vtop;
    if (!sv__json_jr_grow(r, (void **)&r->vs, &r->vcap, sizeof(sv_value), vtop + 1, at))
        return NULL;
    return r->vs;
}

static bool depth_error(jr *r, const char *at)
{
    return sv__json_jr_fail(r, at, SV_ERR_DEPTH, "nesting is deeper than the limit of %u levels",
                            (unsigned)r->lim.max_depth);
}

/* ---- frames --------------------------------------------------------------------------------- */

/* parse() keeps the top frame in a local (f); these return the new top. */
static inline jr_frame *push_frame(jr *r, int type, const char *at, size_t vtop)
{
    if (r->ftop >= r->lim.max_depth) {
        depth_error(r, at);
        return NULL;
    }
    if (r->ftop == r->fcap &&
        !sv__json_jr_grow(r, (void **)&r->fs, &r->fcap, sizeof(jr_frame), r->ftop + 1, at))
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

static inline jr_frame *pop_frame(jr *r)
{
    r->ftop--;
    return r->ftop ? &r->fs[r->ftop - 1] : &r->root;
}

/* Where a map or array opened inside frame f finds its first key predicted:
 * inside a map, the "first" of the key whose value it is (the slot whose
 * next field f->link points at: worked out from the address); inside an
 * array, the array's own link, so that the maps of an array share one
 * prediction; elsewhere slot 0, which predicts nothing. */
static inline uint16_t *child_link(jr *r, const jr_frame *f)
{
    if (f->type == JR_FR_MAP) {
        size_t slot = ((uintptr_t)f->link - (uintptr_t)r->keys) / sizeof(jr_key_slot);
        return &r->keys[slot].first;
    }
    if (f->type == JR_FR_ARRAY) return f->link;
    return &r->keys[0].first;
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
    return sv__json_jr_read_str(r, p, key, false);
}

/* A map key: interned, with a doubled leading '$' made single. */
static inline bool key_value(jr *r, const jr_str *key, const char *at, sv_value *out,
                             unsigned *slot)
{
    jr_str k = *key;
    if (k.len >= 2 && k.s[0] == '$' && k.s[1] == '$' && !r->plain) {
        k.s++;
        k.len--;
        if (!sv__json_jr_key(r, &k, at, out, slot)) return false;
        *slot = 0; /* the text is not the key: no prediction */
        return true;
    }
    return sv__json_jr_key(r, &k, at, out, slot);
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
        return sv__json_jr_fail(r, at, SV_ERR_LIMIT, "more than %lu items in one container",
                                (unsigned long)UINT32_MAX);
    sv_container *box = sv__json_jr_alloc(r, sizeof(sv_container) + n * size, at);
    if (!box) return false;
    sv__core_box_init(box, n);
    size_t bytes = n * size;
    if (bytes <= 96) {
        /* small containers (most of them): 16 bytes a step, no call */
        for (size_t i = 0; i < bytes; i += 16)
            memcpy((char *)(box + 1) + i, (const char *)items + i, 16);
    } else {
        memcpy(box + 1, items, bytes);
    }
    *out = jr_value(jr_hdr(kind, 0, 0, 0, n), jr_ptr_word(box));
    return true;
}

/* The container of the top frame f, a JR_FR_ARRAY: its items are
 * vs[base..vtop). (The caller pops the frame: CLOSE in parse.) */
static inline bool close_array(jr *r, const sv_value *vs, size_t vtop, const jr_frame *f,
                               const char *at, sv_value *out)
{
    return make_box(r, SV_ARRAY, vs + f->base, vtop - f->base, sizeof(sv_value), at, out);
}

/* The container of the top frame f, a JR_FR_MAP or JR_FR_PAIRS: a MAP, or
 * an OBJECT whose class (and meta) sit before its pairs. out may be the
 * class's own slot (vs[f->mark]): the class is read first. */
static inline bool close_map(jr *r, const sv_value *vs, size_t vtop, const jr_frame *f,
                             const char *at, sv_value *out)
{
    bool object = f->type == JR_FR_MAP && f->sub == JR_MK_OBJECT;
    sv_value cm_vals[2];
    if (object) memcpy(cm_vals, &vs[f->mark], (1 + (size_t)f->has_meta) * sizeof(sv_value));
    if (!make_box(r, object ? SV_OBJECT : SV_MAP, vs + f->base, (vtop - f->base) / 2,
                  sizeof(sv_pair), at, out))
        return false;
    if (object) {
        sv_container *box = out->as.box;
        if (!f->has_meta && r->cls && memcmp(r->cls, &cm_vals[0], sizeof(sv_value)) == 0) {
            /* objects of one class share one read-only class value */
            box->cls = r->cls;
        } else {
            /* class and meta in one block */
            size_t extra = 1 + (size_t)f->has_meta;
            sv_value *cm = sv__json_jr_alloc(r, extra * sizeof(sv_value), at);
            if (!cm) return false;
            memcpy(cm, cm_vals, extra * sizeof(sv_value));
            box->cls = cm;
            if (f->has_meta)
                box->meta = cm + 1;
            else
                r->cls = cm;
        }
    }
    return true;
}

/* ---- scalars ------------------------------------------------------------------------------ */

/* Numbers that json_read_number.c reads: long, with an exponent, or wrong. */
static const char *number_general(jr *r, const char *p, sv_value *out)
{
    jr_num n;
    const char *e = sv__json_jr_scan_number(r, p, &n);
    if (!e || !sv__json_jr_num_value(r, &n, out)) return NULL;
    return e;
}

/* A number: plain decimals of up to 19 digits (nearly all) are converted
 * from their digits here; anything else, and every error, goes through
 * json_read_number.c. Integers that fit an int64 are INT, larger ones up
 * to UINT64_MAX are UINT (docs/json.md), the rest float64. */
static inline const char *number(jr *r, const char *p, sv_value *out)
{
    jr_dec d;
    const char *q = jr_decimal(p, r->end, &d);
    if (q && d.nf == 0 && (!d.neg || d.m <= (uint64_t)INT64_MAX)) {
        sv_kind kind = d.m > (uint64_t)INT64_MAX ? SV_UINT : SV_INT;
        *out = jr_value(jr_hdr(kind, 0, 8, 0, 0), d.neg ? 0 - d.m : d.m);
        return q;
    }
    double x;
    if (q && d.nf && jr_dec_f64(d.m, d.nf, d.neg, &x)) {
        uint64_t w;
        memcpy(&w, &x, sizeof w);
        *out = jr_value(jr_hdr(SV_FLOAT, 0, 8, 0, 0), w);
        return q;
    }
    return number_general(r, p, out);
}

/* A string value: up to 15 clean bytes inline, the rest through
 * json_read_string.c. The body moves as one or two whole words (8 or 16
 * bytes, which is what the arena rounds len + 1 up to anyway). */
static inline const char *string_value(jr *r, const char *p, sv_value *out)
{
    long n = jr_short_string(p + 1, r->end);
    if (n >= 0 && (uint64_t)n <= r->lim.max_string) {
        char *dst;
        if (n < 8) {
            if (!(dst = sv__json_jr_alloc(r, 8, p))) return NULL;
            memcpy(dst, p + 1, 8);
        } else {
            if (!(dst = sv__json_jr_alloc(r, 16, p))) return NULL;
            memcpy(dst, p + 1, 16);
        }
        dst[n] = '\0';
        *out = jr_value(jr_hdr(SV_STRING, 0, 0, 0, (uint64_t)n), jr_ptr_word(dst));
        return p + n + 2;
    }
    return sv__json_jr_string_value(r, p, out, false);
}

/* ---- the parser -------------------------------------------------------------------------- */

#define SKIP_WS(p)                                                                                 \
    do {                                                                                           \
        if ((p) < r->end && ((unsigned char)*(p) <= ' ' || *(p) == '/')) {                         \
            (p) = sv__json_jr_ws_slow(r, (p));                                                     \
            if (!(p)) goto fail;                                                                   \
        }                                                                                          \
    } while (0)

/* Where a structural byte was expected: when p is at whitespace (or a
 * comment), skips it and goes back to label; else falls through to the
 * caller's error. Compact text never gets here. */
#define WS_THEN(label)                                                                             \
    do {                                                                                           \
        if (p < r->end && ((unsigned char)*p <= ' ' || *p == '/')) {                               \
            const char *ws_ = sv__json_jr_ws_slow(r, p);                                           \
            if (!ws_) goto fail;                                                                   \
            if (ws_ != p) {                                                                        \
                p = ws_;                                                                           \
                goto label;                                                                        \
            }                                                                                      \
        }                                                                                          \
    } while (0)

#define FAIL(...)                                                                                  \
    do {                                                                                           \
        sv__json_jr_fail(r, __VA_ARGS__);                                                          \
        goto fail;                                                                                 \
    } while (0)

#define TRY(expr)                                                                                  \
    do {                                                                                           \
        if (SV_UNLIKELY(!(expr))) goto fail;                                                       \
    } while (0)

/* Room on the value stack for vs[vtop]. */
#define ROOM(at)                                                                                   \
    do {                                                                                           \
        if (SV_UNLIKELY(vtop >= r->vcap)) {                                                        \
            if (!(vs = grow_values(r, vtop, (at)))) goto fail;                                     \
        }                                                                                          \
    } while (0)

/* Closes the top frame with close_array or close_map: the container takes
 * the place of its first value (vs[f->mark], the new vs[vtop]) and the
 * frame below becomes the top. */
#define CLOSE(close, at)                                                                           \
    do {                                                                                           \
        TRY(close(r, vs, vtop, f, (at), &vs[f->mark]));                                            \
        vtop = f->mark;                                                                            \
        f = pop_frame(r);                                                                          \
    } while (0)

/* Pushes a map or array frame that predicts its first key from the frame
 * below (child_link). */
#define PUSH_CONTAINER(type, at)                                                                   \
    do {                                                                                           \
        uint16_t *link_ = child_link(r, f);                                                        \
        TRY(f = push_frame(r, (type), (at), vtop));                                                \
        f->link = link_;                                                                           \
    } while (0)

/* What can start at a byte where a value is expected. */
enum { JT_BAD, JT_STRING, JT_NUMBER, JT_TRUE, JT_FALSE, JT_NULL, JT_ARRAY, JT_OBJECT, JT_SPACE };
static const uint8_t jr_token[256] = {
    ['"'] = JT_STRING, ['-'] = JT_NUMBER, ['0'] = JT_NUMBER, ['1'] = JT_NUMBER, ['2'] = JT_NUMBER,
    ['3'] = JT_NUMBER, ['4'] = JT_NUMBER, ['5'] = JT_NUMBER, ['6'] = JT_NUMBER, ['7'] = JT_NUMBER,
    ['8'] = JT_NUMBER, ['9'] = JT_NUMBER, ['t'] = JT_TRUE,   ['f'] = JT_FALSE,  ['n'] = JT_NULL,
    ['['] = JT_ARRAY,  ['{'] = JT_OBJECT, [' '] = JT_SPACE,  ['\t'] = JT_SPACE, ['\n'] = JT_SPACE,
    ['\r'] = JT_SPACE, ['/'] = JT_SPACE,
};

/* The loop. A value is made in place at vs[vtop], the slot after the values
 * of the open containers (so it is never copied to get there), and the top
 * frame (f) decides what happens to it at have_value: in an array or a map
 * it just stays (vtop++). */
static SV_ALWAYS_INLINE bool parse_body(jr *r, const char *p, sv_value *root, const bool stream)
{
    sv_value *vs = r->vs;
    size_t vtop = r->vtop;
    jr_frame *f = &r->root; /* the top frame */
    jr_str key;
    jr_form fm;
    const char *kq, *obj;
    unsigned slot;

value:
    ROOM(p);
value_roomy: /* vs[vtop] has room */
    r->open = true;
    if (SV_UNLIKELY(p >= r->end)) {
        sv__json_jr_bad_value(r, p);
        goto fail;
    }
    switch (jr_token[(unsigned char)*p]) {
    case JT_STRING: TRY(p = string_value(r, p, &vs[vtop])); goto have_value;
    case JT_NUMBER: TRY(p = number(r, p, &vs[vtop])); goto have_value;
    case JT_TRUE:
        if (r->end - p < 4 || memcmp(p, "true", 4) != 0) goto literal;
        vs[vtop] = jr_value(jr_hdr(SV_BOOL, 0, 0, 0, 0), jr_bool_word(true));
        p += 4;
        goto have_value;
    case JT_FALSE:
        if (r->end - p < 5 || memcmp(p, "false", 5) != 0) goto literal;
        vs[vtop] = jr_value(jr_hdr(SV_BOOL, 0, 0, 0, 0), jr_bool_word(false));
        p += 5;
        goto have_value;
    case JT_NULL:
        if (r->end - p < 4 || memcmp(p, "null", 4) != 0) goto literal;
        vs[vtop] = jr_value(jr_hdr(SV_NULL, 0, 0, 0, 0), 0);
        p += 4;
        goto have_value;
    case JT_ARRAY:
        PUSH_CONTAINER(JR_FR_ARRAY, p);
        p++;
        SKIP_WS(p);
        if (p < r->end && *p == ']') {
            CLOSE(close_array, p++);
            goto have_value;
        }
        goto value;
    case JT_OBJECT: goto object;
    case JT_SPACE:
        WS_THEN(value);
        /* fall through - a '/' when comments are off */
    default: sv__json_jr_bad_value(r, p); goto fail;
    }

literal:
    sv__json_jr_bad_literal(r, p);
    goto fail;

object:
    obj = p;
    if (SV_UNLIKELY(r->ftop >= r->lim.max_depth)) {
        depth_error(r, p);
        goto fail;
    }
    p++;
#if SV_SWAR
    /* A form whose key the form cache knows: a one-key form's payload is
     * read at once (jr_leaf_fast), any other form goes to its payload. */
    if (r->end - p >= 24 && p[0] == '"' && p[1] == '$' && !r->plain) {
        const char *q;
        const jr_form_slot *fsl = jr_form_key(r, p, &q);
        if (fsl && *q == ':') {
            const char *e = jr_leaf_fast(r, q + 1 + (q[1] == ' '), &fsl->form, &vs[vtop]);
            if (e) {
                p = e;
                goto have_value;
            }
            if (fsl->form.id != JF_UNKNOWN && fsl->form.id != JF_META && fsl->form.id != JF_ELEM) {
                fm = fsl->form;
                kq = p;
                p = q + 1;
                goto form_payload;
            }
        }
    }
#endif
    SKIP_WS(p);
    if (p < r->end && *p == '}') {
        TRY(make_box(r, SV_MAP, NULL, 0, sizeof(sv_pair), p++, &vs[vtop]));
        goto have_value;
    }
    if (p >= r->end || *p != '"') FAIL(p, SV_ERR_SYNTAX, "expected a key or '}' after '{'");
    kq = p;
    if (r->end - p < 2 || p[1] == '$' || p[1] == '\\') { /* may be a form */
        TRY(p = read_key(r, p, &key));
        if (is_form_key(r, &key)) goto form;
        PUSH_CONTAINER(JR_FR_MAP, obj);
        goto key_push;
    }
    PUSH_CONTAINER(JR_FR_MAP, obj);
    goto map_key; /* the first key may be predicted */

form:
    fm = sv__json_jr_form_of(r, &key);
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
    if (p >= r->end || *p != ':') FAIL(p, SV_ERR_SYNTAX, "expected ':' after an object key");
    p++;
form_payload:
    SKIP_WS(p);
    switch (fm.id) {
    case JF_CLASS:
        TRY(f = push_frame(r, JR_FR_MAP, kq, vtop));
        f->sub = JR_MK_OBJECT;
        slot = 0;
        /* vs[vtop] has room (value:), and becomes the class */
        if (p < r->end && *p == '"') { /* a class name, usually short: inline */
#if SV_SWAR
            /* The class of the last object, from its key slot's text: the
             * `"key":` pattern without the colon (its top byte). */
            const jr_key_slot *c = &r->keys[r->last_class];
            uint64_t m0 = c->m1 ? c->m0 : c->m0 >> 8, m1 = c->m1 >> 8;
            if (c->m0 && r->end - p >= 16 && (sv__core_load64(p) & m0) == (c->p0 & m0) &&
                (sv__core_load64(p + 8) & m1) == (c->p1 & m1)) {
                vs[vtop] = jr_value(c->hdr, jr_ptr_word(c->s));
                slot = r->last_class;
                p += (c->hdr >> 32) + 2;
            } else
#endif
            {
                const char *cq = p;
                TRY(p = read_key(r, p, &key));
                TRY(sv__json_jr_key(r, &key, cq, &vs[vtop], &slot));
                r->last_class = (uint16_t)slot;
            }
        } else {
            TRY(p = sv__json_jr_class_value(r, p, &vs[vtop]));
        }
        vtop++;
        f->base = vtop;
        f->link = &r->keys[slot].next; /* objects of a class: keys in one order */
        goto map_next;
    case JF_ARRAY:
        if (p >= r->end || *p != '[') FAIL(p, SV_ERR_TYPE, "$array takes an array");
        TRY(f = push_frame(r, JR_FR_FORM, kq, vtop));
        f->sub = JF_ARRAY;
        f->at = p;
        goto value;
    case JF_MAP:
        if (p >= r->end || (*p != '[' && *p != '{'))
            FAIL(p, SV_ERR_TYPE, "$map takes an array of [key, value] pairs or an object");
        TRY(f = push_frame(r, JR_FR_FORM, kq, vtop));
        f->sub = JF_MAP;
        f->at = p;
        TRY(f = push_frame(r, *p == '[' ? JR_FR_PAIRS : JR_FR_MAP, p, vtop));
        if (*p == '{') {
            f->sub = JR_MK_PAYLOAD;
            f->link = &r->keys[0].first;
            p++;
            SKIP_WS(p);
            if (p < r->end && *p == '}') {
                CLOSE(close_map, p++);
                goto have_value;
            }
            goto map_key;
        }
        p++;
        SKIP_WS(p);
        if (p < r->end && *p == ']') {
            CLOSE(close_map, p++);
            goto have_value;
        }
        goto pair_open;
    case JF_TAG:
        TRY(f = push_frame(r, JR_FR_FORM, kq, vtop));
        f->sub = JF_TAG;
        f->tag = fm.tag;
        f->at = p;
        goto value;
    default: {
        const char *q = jr_leaf_fast(r, p, &fm, &vs[vtop]);
        if (q) {
            p = q;
            goto have_value;
        }
        TRY(p = sv__json_jr_leaf_form(r, p, fm, &vs[vtop]));
        goto have_value;
    }
    }

have_value: /* the value is vs[vtop] */
    r->open = false;
    if (f->type == JR_FR_MAP) {
        vtop++;
        goto map_next;
    }
    if (f->type == JR_FR_ARRAY) {
        if (stream && r->ftop == 1) { /* an item of the outermost array: handed on */
            r->vtop = vtop;
            TRY(r->item(r, &vs[vtop], p));
            r->shed++;
            goto arr_next;
        }
        vtop++;
        goto arr_next;
    }
    switch (f->type) {
    case JR_FR_ROOT:
        *root = vs[vtop];
        SKIP_WS(p);
        if (p != r->end) FAIL(p, SV_ERR_TRAILING, "unexpected data after the JSON value");
        return true;
    case JR_FR_OBJMETA: /* that was the $meta of a $class */
        vtop++;
        f->type = JR_FR_MAP;
        f->has_meta = 1;
        f->base = vtop;
        goto map_next;
    case JR_FR_PAIR:
        vtop++;
        SKIP_WS(p);
        if (vtop - f->base == 1) {
            if (p < r->end && *p == ',') {
                p++;
                goto value;
            }
            FAIL(p, SV_ERR_SYNTAX, "expected ',' after the key of a $map pair");
        }
        if (p >= r->end || *p != ']')
            FAIL(p, SV_ERR_SYNTAX,
                 "expected ']' after the value of a $map pair (a pair has two items)");
        p++;
        f = pop_frame(r);
        goto pairs_next;
    case JR_FR_FORM:
        if (f->sub == JF_TAG) {
            sv_value *v = &vs[vtop];
            sv_tag tag = (sv_tag)f->tag;
            sv_kind want = sv_tag_kind(tag);
            r->open = true; /* errors below are about the wrapped value */
            if (want != SV_KIND_COUNT && v->kind != want)
                FAIL(f->at, SV_ERR_TYPE, "$%s takes %s %s, not %s %s", sv_tag_name(tag),
                     sv__core_article(sv_kind_name(want)), sv_kind_name(want),
                     sv__core_article(sv_kind_name((sv_kind)v->kind)),
                     sv_kind_name((sv_kind)v->kind));
            if (v->tag != SV_TAG_NONE)
                FAIL(f->at, SV_ERR_TYPE, "a value has one tag: $%s cannot wrap a $%s value",
                     sv_tag_name(tag), sv_tag_name((sv_tag)v->tag));
            r->open = false;
            v->tag = (uint16_t)tag;
            SKIP_WS(p);
            if (p >= r->end || *p != '}')
                FAIL(p, SV_ERR_SYNTAX, "expected '}' after the $%s value (a tag form has one key)",
                     sv_tag_name(tag));
            p++;
            f = pop_frame(r); /* the value stays at vs[vtop] (vtop is the form's mark) */
            goto have_value;
        }
        if (f->phase == 0) { /* the $array or $map payload */
            vtop++;
            f->phase = 1;
            SKIP_WS(p);
            if (p < r->end && *p == ',') {
                p++;
                SKIP_WS(p);
                kq = p;
                if (p >= r->end || *p != '"')
                    FAIL(p, SV_ERR_SYNTAX, "expected \"$meta\" after ','");
                TRY(p = read_key(r, p, &key));
                if (!key_is(&key, "$meta"))
                    FAIL(kq, SV_ERR_SYNTAX, "only \"$meta\" may follow the payload of $%s",
                         f->sub == JF_ARRAY ? "array" : "map");
                f->phase = 2;
                goto map_colon;
            }
        } else { /* phase 2: the $meta value */
            sv_value *m = sv__json_jr_alloc(r, sizeof *m, p);
            if (!m) goto fail;
            *m = vs[vtop];
            vs[f->mark].as.box->meta = m;
            f->phase = 1;
            SKIP_WS(p);
        }
        if (p >= r->end || *p != '}')
            FAIL(p, SV_ERR_SYNTAX, "expected '}' to close the $%s form",
                 f->sub == JF_ARRAY ? "array" : "map");
        p++;
        vtop = f->mark; /* the payload, at vs[f->mark], is the form's value */
        f = pop_frame(r);
        goto have_value;
    }
    FAIL(p, SV_ERR_SYNTAX, "internal error: bad frame"); /* not reached */

arr_next:
    if (SV_LIKELY(p < r->end)) {
        if (*p == ',') {
            p++;
            goto value;
        }
        if (*p == ']') {
            CLOSE(close_array, p++);
            goto have_value;
        }
    }
    WS_THEN(arr_next);
    FAIL(p, SV_ERR_SYNTAX, "expected ',' or ']' after an array item");

map_next:
    if (SV_LIKELY(p < r->end)) {
        if (*p == ',') {
            p++;
            goto map_key;
        }
        if (*p == '}') {
            CLOSE(close_map, p++);
            goto have_value;
        }
    }
    WS_THEN(map_next);
    FAIL(p, SV_ERR_SYNTAX, "expected ',' or '}' after an object member");

map_key:
    /* room for the key and its value at once (the value then skips ROOM) */
    if (SV_UNLIKELY(vtop + 1 >= r->vcap) && !(vs = grow_values(r, vtop + 1, p))) goto fail;
#if SV_SWAR
    /* The key that came here last time (jr_key_slot): `"key":` as expected
     * is taken at once. */
    if (SV_LIKELY(r->end - p >= 16)) {
        unsigned s = *f->link;
        const jr_key_slot *e = &r->keys[s];
        if (SV_LIKELY((sv__core_load64(p) & e->m0) == e->p0) &&
            (!e->m1 || (sv__core_load64(p + 8) & e->m1) == e->p1)) {
            vs[vtop++] = jr_value(e->hdr, jr_ptr_word(e->s));
            f->link = &r->keys[s].next;
            p += (e->hdr >> 32) + 3; /* the quotes and the colon */
            goto value_roomy;
        }
    }
#endif
    SKIP_WS(p);
    if (p >= r->end || *p != '"') FAIL(p, SV_ERR_SYNTAX, "expected a key (a string)");
    kq = p;
    TRY(p = read_key(r, p, &key));
    if (is_form_key(r, &key)) {
        if (key_is(&key, "$meta") && f->sub == JR_MK_OBJECT && !f->has_meta && vtop == f->base) {
            f->type = JR_FR_OBJMETA;
            goto map_colon;
        }
        if (key_is(&key, "$meta") && f->sub == JR_MK_OBJECT)
            FAIL(kq, SV_ERR_SYNTAX, "\"$meta\" must come right after the \"$class\" key");
        FAIL(kq, SV_ERR_SYNTAX,
             "unexpected key \"%.*s\" (a key that starts with '$' is written '$$')",
             (int)(key.len > 40 ? 40 : key.len), key.s);
    }
key_push:
    ROOM(kq);
    TRY(key_value(r, &key, kq, &vs[vtop], &slot));
    vtop++;
    /* remember the order of keys for the prediction above */
    *f->link = (uint16_t)slot;
    f->link = &r->keys[slot].next;

map_colon:
    r->open = true;
    SKIP_WS(p);
    if (p >= r->end || *p != ':') FAIL(p, SV_ERR_SYNTAX, "expected ':' after an object key");
    p++;
    goto value;

pair_open:
    r->open = true;
    SKIP_WS(p);
    if (p >= r->end || *p != '[') {
        if (p < r->end && (*p == ']' || *p == '}')) {
            sv__json_jr_bad_value(r, p);
            goto fail;
        }
        FAIL(p, SV_ERR_TYPE, "a $map item is a [key, value] array");
    }
    TRY(f = push_frame(r, JR_FR_PAIR, p, vtop));
    p++;
    goto value;

pairs_next:
    r->open = false;
    SKIP_WS(p);
    if (p < r->end && *p == ',') {
        p++;
        goto pair_open;
    }
    if (p < r->end && *p == ']') {
        CLOSE(close_map, p++);
        goto have_value;
    }
    FAIL(p, SV_ERR_SYNTAX, "expected ',' or ']' after a $map pair");

fail:
    r->vtop = vtop;
    sv__json_jr_build_path(r, r->open);
    return false;
}

/* The loop compiled twice: building the whole tree (sv_json_decode), and
 * handing the outermost array's items on (json_transcode.c), so that the
 * tree path pays nothing for the other. */
static SV_NOINLINE bool parse_tree(jr *r, sv_value *root)
{
    return parse_body(r, r->text, root, false);
}

static SV_NOINLINE bool parse_stream(jr *r, sv_value *root)
{
    return parse_body(r, r->text, root, true);
}

bool sv__json_jr_parse(jr *r, sv_value *root, bool stream)
{
    /* Small stacks up front, so they are never NULL (NULL + 0 is undefined). */
    if (!sv__json_jr_grow(r, (void **)&r->vs, &r->vcap, sizeof(sv_value), 64, r->text) ||
        !sv__json_jr_grow(r, (void **)&r->fs, &r->fcap, sizeof(jr_frame), 16, r->text))
        return false;
    return stream ? parse_stream(r, root) : parse_tree(r, root);
}

void sv__json_jr_begin(jr *r, sv_doc *doc, const char *text, size_t len,
                       const sv_json_decode_opts *o, sv_error *err)
{
    memset(r, 0, sizeof *r);
    r->doc = doc;
    r->text = text ? text : "";
    r->end = r->text + len;
    r->err = err;
    r->lim = sv_limits_resolve(&o->limits);
    if (o->limits.max_alloc) sv_doc_set_max_alloc(doc, o->limits.max_alloc);
    r->lim.max_alloc = doc->max_alloc; /* the document's own cap when opts leave it */
    r->comments = o->allow_comments;
    r->plain = o->plain;
    r->root.type = JR_FR_ROOT;
    sv__json_jr_caches_init(r);
    sv__core_bump_init(&r->bump, doc);
}

void sv__json_jr_forget(jr *r)
{
    sv__json_jr_caches_init(r);
    r->cls = NULL;
    r->last_class = 0;
    sv__core_bump_init(&r->bump, r->doc);
}

void sv__json_jr_end(jr *r)
{
    sv__core_doc_scratch_free(r->doc, r->vs, r->vcap * sizeof(sv_value));
    sv__core_doc_scratch_free(r->doc, r->fs, r->fcap * sizeof(jr_frame));
    sv__core_doc_scratch_free(r->doc, r->sbuf, r->scap);
    sv__core_doc_scratch_free(r->doc, r->nbuf, r->ncap);
    r->vs = NULL;
    r->fs = NULL;
    r->sbuf = NULL;
    r->nbuf = NULL;
}

sv_status sv_json_decode(sv_doc *doc, const char *text, size_t len, const sv_json_decode_opts *opts,
                         sv_value *out, sv_error *err)
{
    sv_error local;
    if (!err) err = &local;
    sv_error_clear(err);
    if (out) *out = sv_null();
    if (!doc || !out || (!text && len))
        return sv_error_set(err, SV_ERR_USAGE, "json", 0,
                            "sv_json_decode needs a document, text and out");
    sv_json_decode_opts o;
    sv_status ost = sv__json_decode_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    jr r;
    sv__json_jr_begin(&r, doc, text, len, &o, err);
    bool ok = sv__json_jr_parse(&r, out, false);
    sv__json_jr_end(&r);
    if (!ok) {
        *out = sv_null();
        return err->status;
    }
    return SV_OK;
}
