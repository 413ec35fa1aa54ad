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
 * is built from the frames afterwards, so the success path pays nothing for
 * it; the path points into the text as written ("$" keys included, such as
 * /pos/$vector3/1), which is what a user editing the text needs. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/value_internal.h"
#include "json/json_read_internal.h"

enum { FR_ARRAY, FR_MAP, FR_PAIRS, FR_PAIR, FR_FORM };
/* FR_MAP: what the object is. */
enum { MK_PLAIN, MK_OBJECT, MK_PAYLOAD };

struct jr_frame {
    uint8_t type;     /* FR_* */
    uint8_t sub;      /* FR_MAP: MK_*; FR_FORM: JF_ARRAY, JF_MAP or JF_TAG */
    uint8_t phase;    /* FR_MAP object: 1 while in the $meta value;
                         FR_FORM: 0 payload, 1 after it, 2 in the $meta value */
    uint8_t has_meta; /* FR_MAP object */
    uint16_t tag;     /* FR_FORM tag */
    size_t mark;      /* r->vtop when the frame opened: where its values start */
    size_t base;      /* first item (after a $class's class and meta) */
    const char *at;   /* FR_FORM: where the payload starts (for kind errors) */
};

/* ---- errors ----------------------------------------------------------------------- */

bool sv_jr_fail(jr *r, const char *at, sv_status status, const char *fmt, ...)
{
    sv_error *err = r->err;
    if (err->status != SV_OK) return false;
    if (at >= r->end) {
        at = r->end;
        if (status == SV_ERR_SYNTAX || status == SV_ERR_TYPE) status = SV_ERR_TRUNCATED;
    }
    char msg[SV_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sv_error_set(err, status, "json", (uint64_t)(at - r->text), "%s", msg);
    /* Line and column (1-based, the column in bytes): lines end at LF. */
    uint64_t line = 1;
    const char *ls = r->text, *p = r->text;
    while (p < at && (p = memchr(p, '\n', (size_t)(at - p))) != NULL) {
        line++;
        ls = ++p;
    }
    uint64_t col = (uint64_t)(at - ls) + 1;
    err->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    err->column = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
    return false;
}

bool sv_jr_fail_alloc(jr *r, const char *at)
{
    sv_status st = sv_doc_status(r->doc);
    if (st == SV_ERR_LIMIT)
        return sv_jr_fail(r, at, st, "the document would allocate more than %llu bytes",
                          (unsigned long long)r->lim.max_alloc);
    return sv_jr_fail(r, at, SV_ERR_NOMEM, "out of memory");
}

/* ---- scratch memory (libc; counted against max_alloc) --------------------------------- */

static bool grow(jr *r, void **buf, size_t *cap, size_t size, size_t need, const char *at)
{
    if (need <= *cap) return true;
    size_t ncap = *cap ? *cap : (size_t)(1024 / size);
    while (ncap < need) ncap = ncap > SIZE_MAX / 4 / size ? need : ncap * 2;
    if (need > SIZE_MAX / size)
        return sv_jr_fail(r, at, SV_ERR_LIMIT, "too many values open at once");
    uint64_t others = r->scratch - (uint64_t)*cap * size;
    uint64_t budget = r->lim.max_alloc, used = sv_doc_allocated(r->doc) + others;
    if (used > budget || (uint64_t)ncap * size > budget - used) {
        ncap = need; /* no head room for doubling: try the exact size */
        if (used > budget || (uint64_t)ncap * size > budget - used)
            return sv_jr_fail(r, at, SV_ERR_LIMIT,
                              "the document would allocate more than %llu bytes",
                              (unsigned long long)budget);
    }
    void *nb = realloc(*buf, ncap * size);
    if (!nb) return sv_jr_fail(r, at, SV_ERR_NOMEM, "out of memory");
    *buf = nb;
    *cap = ncap;
    r->scratch = others + (uint64_t)ncap * size;
    return true;
}

bool sv_jr_reserve(jr *r, void **buf, size_t *cap, size_t need, const char *at)
{
    return grow(r, buf, cap, 1, need, at);
}

static inline bool push_value(jr *r, sv_value v, const char *at)
{
    if (r->vtop == r->vcap && !grow(r, (void **)&r->vs, &r->vcap, sizeof(sv_value), r->vtop + 1, at))
        return false;
    r->vs[r->vtop++] = v;
    return true;
}

static bool depth_error(jr *r, const char *at)
{
    return sv_jr_fail(r, at, SV_ERR_DEPTH, "nesting is deeper than the limit of %u levels",
                      (unsigned)r->lim.max_depth);
}

static inline jr_frame *push_frame(jr *r, int type, const char *at)
{
    if (r->ftop >= r->lim.max_depth) {
        depth_error(r, at);
        return NULL;
    }
    if (r->ftop == r->fcap && !grow(r, (void **)&r->fs, &r->fcap, sizeof(jr_frame), r->ftop + 1, at))
        return NULL;
    jr_frame *f = &r->fs[r->ftop++];
    f->type = (uint8_t)type;
    f->sub = 0;
    f->phase = 0;
    f->has_meta = 0;
    f->tag = 0;
    f->mark = f->base = r->vtop;
    f->at = at;
    return f;
}

/* ---- containers ------------------------------------------------------------------------ */

/* Closes the top frame, an FR_ARRAY. */
static bool close_array(jr *r, const char *at, sv_value *out)
{
    jr_frame *f = &r->fs[r->ftop - 1];
    sv_value v = sv__array_from(r->doc, r->vs + f->base, r->vtop - f->base);
    if (v.kind != SV_ARRAY) return sv_jr_fail_alloc(r, at);
    r->vtop = f->mark;
    r->ftop--;
    *out = v;
    return true;
}

/* Closes the top frame, an FR_MAP or FR_PAIRS: a MAP, or an OBJECT whose
 * class (and meta) sit before its pairs. */
static bool close_map(jr *r, const char *at, sv_value *out)
{
    jr_frame *f = &r->fs[r->ftop - 1];
    bool object = f->type == FR_MAP && f->sub == MK_OBJECT;
    size_t n = (r->vtop - f->base) / 2;
    sv_value v = sv__pairs_from(r->doc, object ? SV_OBJECT : SV_MAP,
                                (const sv_pair *)(const void *)(r->vs + f->base), n);
    if (v.kind == SV_NULL) return sv_jr_fail_alloc(r, at);
    if (object) {
        /* class and meta in one block */
        size_t extra = 1 + f->has_meta;
        sv_value *cm = sv_doc_alloc(r->doc, extra * sizeof(sv_value));
        if (!cm) return sv_jr_fail_alloc(r, at);
        memcpy(cm, r->vs + f->mark, extra * sizeof(sv_value));
        v.as.box->cls = cm;
        if (f->has_meta) v.as.box->meta = cm + 1;
    }
    r->vtop = f->mark;
    r->ftop--;
    *out = v;
    return true;
}

static bool empty_map(jr *r, const char *at, sv_value *out)
{
    sv_value v = sv__pairs_from(r->doc, SV_MAP, NULL, 0);
    if (v.kind != SV_MAP) return sv_jr_fail_alloc(r, at);
    *out = v;
    return true;
}

/* Pushes a map key: interned, with a doubled leading '$' made single. */
static bool push_key(jr *r, const jr_str *key, const char *at)
{
    const char *s = key->s;
    size_t n = key->len;
    if (!r->plain && n >= 2 && s[0] == '$' && s[1] == '$') {
        s++;
        n--;
    }
    sv_value k = sv_str_intern(r->doc, s, n);
    if (k.kind != SV_STRING) return sv_jr_fail_alloc(r, at);
    return push_value(r, k, at);
}

static inline bool is_form_key(const jr *r, const jr_str *k)
{
    return !r->plain && k->len && k->s[0] == '$' && (k->len == 1 || k->s[1] != '$');
}

static inline bool key_is(const jr_str *k, const char *lit)
{
    size_t n = strlen(lit);
    return k->len == n && memcmp(k->s, lit, n) == 0;
}

/* ---- values --------------------------------------------------------------------------- */

/* A number: short integers inline, the rest through json_read_number.c. */
static inline const char *number(jr *r, const char *p, sv_value *out)
{
    const char *end = r->end;
    const char *q = p + (*p == '-');
    /* Up to 18 digits always fit an int64: no overflow checks. */
    size_t avail = (size_t)(end - q);
    const char *lim = q + (avail < 18 ? avail : 18);
    const char *d = q;
    uint64_t m = 0;
    while (d < lim) {
        unsigned c = (unsigned)((unsigned char)*d - '0');
        if (c > 9) break;
        m = m * 10 + c;
        d++;
    }
    if (d > q && (*q != '0' || d == q + 1) &&
        (d == end || (*d != '.' && (*d | 0x20) != 'e' && (unsigned)((unsigned char)*d - '0') > 9))) {
        sv_value v = sv__make(SV_INT, 8, 0);
        v.as.i = *p == '-' ? -(int64_t)m : (int64_t)m;
        *out = v;
        return d;
    }
    jr_num n;
    const char *e = sv_jr_scan_number(r, p, &n);
    if (!e || !sv_jr_num_value(r, &n, out)) return NULL;
    return e;
}

static void bad_literal(jr *r, const char *p)
{
    const char *word = *p == 't' ? "true" : *p == 'f' ? "false" : "null";
    size_t n = strlen(word), avail = (size_t)(r->end - p), i = 0;
    while (i < n && i < avail && p[i] == word[i]) i++;
    sv_jr_fail(r, p + i, SV_ERR_SYNTAX, "invalid literal (expected '%s')", word);
}

static void bad_value(jr *r, const char *p)
{
    if (p >= r->end) {
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected a value");
        return;
    }
    unsigned char c = (unsigned char)*p;
    if (c == ']' || c == '}') {
        const char *b = p;
        while (b > r->text && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n' || b[-1] == '\r')) b--;
        if (b > r->text && b[-1] == ',')
            sv_jr_fail(r, p, SV_ERR_SYNTAX, "trailing comma before '%c'", c);
        else
            sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected a value before '%c'", c);
    } else if (p == r->text && r->end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "a byte order mark is not allowed (RFC 8259 section 8.1)");
    } else if (c > 0x20 && c < 0x7F) {
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected a value, not '%c'", c);
    } else {
        sv_jr_fail(r, p, SV_ERR_SYNTAX, "expected a value, not byte 0x%02x", c);
    }
}

/* ---- error paths ----------------------------------------------------------------------- */

static void path_key_text(sv_error *err, const sv_value *key, bool plain)
{
    /* The text had "$$x" for the key "$x". */
    if (!plain && key->len && key->as.str[0] == '$') {
        char buf[SV_ERROR_PATH_MAX];
        size_t n = key->len < sizeof buf - 1 ? key->len : sizeof buf - 1;
        buf[0] = '$';
        memcpy(buf + 1, key->as.str, n);
        sv_error_path_key(err, buf, n + 1);
    } else {
        sv_error_path_key(err, key->as.str, key->len);
    }
}

static void path_literal(sv_error *err, const char *a, const char *b)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%s%s", a, b);
    sv_error_path_key(err, buf, n > 0 && (size_t)n < sizeof buf ? (size_t)n : 0);
}

/* Prepends the segments of the open frames, innermost first. open: the top
 * frame has an item (or payload) in progress. */
static void build_path(jr *r, bool open)
{
    sv_error *err = r->err;
    size_t next = r->vtop;
    for (size_t i = r->ftop; i-- > 0;) {
        const jr_frame *f = &r->fs[i];
        bool in_item = i + 1 == r->ftop ? open : true;
        switch (f->type) {
        case FR_ARRAY:
        case FR_PAIR:
            if (in_item) sv_error_path_index(err, next - f->base);
            break;
        case FR_PAIRS:
            if (in_item) sv_error_path_index(err, (next - f->base) / 2);
            break;
        case FR_MAP:
            if (f->sub == MK_OBJECT && next == f->mark)
                path_literal(err, "$class", "");
            else if (f->phase == 1)
                path_literal(err, "$meta", "");
            else if (next > f->base && ((next - f->base) & 1))
                path_key_text(err, &r->vs[next - 1], r->plain); /* a key waiting for its value */
            break;
        case FR_FORM:
            if (f->sub == JF_TAG) {
                if (in_item) path_literal(err, "$", sv_tag_name((sv_tag)f->tag));
            } else if (f->phase == 0 && in_item) {
                path_literal(err, f->sub == JF_ARRAY ? "$array" : "$map", "");
            } else if (f->phase == 2) {
                path_literal(err, "$meta", "");
            }
            break;
        }
        next = f->mark;
    }
}

/* ---- the parser -------------------------------------------------------------------------- */

static bool finish(jr *r, const char *p)
{
    p = sv_jr_ws(r, p);
    if (!p) return false;
    if (p != r->end) return sv_jr_fail(r, p, SV_ERR_TRAILING, "unexpected data after the JSON value");
    return true;
}

#define WS(p)                       \
    do {                            \
        (p) = sv_jr_ws(r, (p));     \
        if (!(p)) goto fail;        \
    } while (0)

/* Steps over the byte at p, then over whitespace. */
#define WS_AFTER(p)                 \
    do {                            \
        (p) = sv_jr_ws(r, (p) + 1); \
        if (!(p)) goto fail;        \
    } while (0)

#define FAIL(...)                   \
    do {                            \
        sv_jr_fail(r, __VA_ARGS__); \
        goto fail;                  \
    } while (0)

static bool parse(jr *r, const char *p, sv_value *root)
{
    const char *const end = r->end;
    jr_frame *f;
    sv_value v;
    jr_str key;
    const char *kq;
    bool open = true;

value:
    open = true;
    if (p >= end) {
        bad_value(r, p);
        goto fail;
    }
    switch (*p) {
    case '"':
        p = sv_jr_string_value(r, p, &v, false);
        if (!p) goto fail;
        goto have_value;
    case '-': case '0': case '1': case '2': case '3': case '4':
    case '5': case '6': case '7': case '8': case '9':
        p = number(r, p, &v);
        if (!p) goto fail;
        goto have_value;
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
        if (!push_frame(r, FR_ARRAY, p)) goto fail;
        WS_AFTER(p);
        if (p < end && *p == ']') {
            if (!close_array(r, p++, &v)) goto fail;
            goto have_value;
        }
        goto value;
    case '{':
        goto object;
    default:
        bad_value(r, p);
        goto fail;
    }

literal:
    bad_literal(r, p);
    goto fail;

object: {
    const char *obj = p;
    if (r->ftop >= r->lim.max_depth) {
        depth_error(r, p);
        goto fail;
    }
    WS_AFTER(p);
    if (p < end && *p == '}') {
        if (!empty_map(r, p++, &v)) goto fail;
        goto have_value;
    }
    if (p >= end || *p != '"') FAIL(p, SV_ERR_SYNTAX, "expected a key or '}' after '{'");
    kq = p;
    p = sv_jr_read_str(r, p, &key, false);
    if (!p) goto fail;
    if (is_form_key(r, &key)) goto form;
    if (!(f = push_frame(r, FR_MAP, obj))) goto fail;
    if (!push_key(r, &key, kq)) goto fail;
    goto map_colon;
}

form: {
    const char *obj = kq;
    jr_form fm = sv_jr_form_lookup(key.s + 1, key.len - 1);
    switch (fm.id) {
    case JF_UNKNOWN:
        FAIL(kq, SV_ERR_SYNTAX, "unknown form \"%.*s\" (a key that starts with '$' is written '$$')",
             (int)(key.len > 40 ? 40 : key.len), key.s);
    case JF_META:
        FAIL(kq, SV_ERR_SYNTAX, "\"$meta\" must follow a \"$array\", \"$map\" or \"$class\" key");
    case JF_ELEM:
        FAIL(kq, SV_ERR_SYNTAX, "\"$elem\" must follow the payload of a tuple or packed form");
    default:
        break;
    }
    WS(p);
    if (p >= end || *p != ':') FAIL(p, SV_ERR_SYNTAX, "expected ':' after an object key");
    WS_AFTER(p);
    switch (fm.id) {
    case JF_CLASS:
        if (!(f = push_frame(r, FR_MAP, obj))) goto fail;
        f->sub = MK_OBJECT;
        p = sv_jr_class_value(r, p, &v);
        if (!p || !push_value(r, v, p)) goto fail;
        r->fs[r->ftop - 1].base = r->vtop;
        goto map_next;
    case JF_ARRAY:
        if (p >= end || *p != '[') FAIL(p, SV_ERR_TYPE, "$array takes an array");
        if (!(f = push_frame(r, FR_FORM, obj))) goto fail;
        f->sub = JF_ARRAY;
        f->at = p;
        goto value;
    case JF_MAP:
        if (p >= end || (*p != '[' && *p != '{'))
            FAIL(p, SV_ERR_TYPE, "$map takes an array of [key, value] pairs or an object");
        if (!(f = push_frame(r, FR_FORM, obj))) goto fail;
        f->sub = JF_MAP;
        f->at = p;
        open = true;
        if (!(f = push_frame(r, *p == '[' ? FR_PAIRS : FR_MAP, p))) goto fail;
        if (*p == '{') {
            f->sub = MK_PAYLOAD;
            WS_AFTER(p);
            if (p < end && *p == '}') {
                if (!close_map(r, p++, &v)) goto fail;
                goto have_value;
            }
            goto map_key;
        }
        WS_AFTER(p);
        if (p < end && *p == ']') {
            if (!close_map(r, p++, &v)) goto fail;
            goto have_value;
        }
        goto pair_open;
    case JF_TAG:
        if (!(f = push_frame(r, FR_FORM, obj))) goto fail;
        f->sub = JF_TAG;
        f->tag = (uint16_t)fm.tag;
        f->at = p;
        goto value;
    default:
        p = sv_jr_leaf_form(r, p, fm, &v);
        if (!p) goto fail;
        goto have_value;
    }
}

have_value:
    open = false;
    if (r->ftop == 0) {
        *root = v;
        return finish(r, p);
    }
    f = &r->fs[r->ftop - 1];
    switch (f->type) {
    case FR_ARRAY:
        if (!push_value(r, v, p)) goto fail;
        WS(p);
        if (p < end) {
            if (*p == ',') {
                WS_AFTER(p);
                goto value;
            }
            if (*p == ']') {
                if (!close_array(r, p++, &v)) goto fail;
                goto have_value;
            }
        }
        FAIL(p, SV_ERR_SYNTAX, "expected ',' or ']' after an array item");
    case FR_MAP:
        if (!push_value(r, v, p)) goto fail;
        if (f->phase == 1) { /* that was the $meta of a $class */
            f->phase = 0;
            f->has_meta = 1;
            f->base = r->vtop;
        }
        goto map_next;
    case FR_PAIR:
        if (!push_value(r, v, p)) goto fail;
        WS(p);
        if (r->vtop - f->base == 1) {
            if (p < end && *p == ',') {
                WS_AFTER(p);
                goto value;
            }
            FAIL(p, SV_ERR_SYNTAX, "expected ',' after the key of a $map pair");
        }
        if (p >= end || *p != ']')
            FAIL(p, SV_ERR_SYNTAX, "expected ']' after the value of a $map pair (a pair has two items)");
        p++;
        r->ftop--;
        goto pairs_next;
    case FR_FORM:
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
            WS(p);
            if (p >= end || *p != '}')
                FAIL(p, SV_ERR_SYNTAX, "expected '}' after the $%s value (a tag form has one key)",
                     sv_tag_name(tag));
            p++;
            r->ftop--;
            goto have_value;
        }
        if (f->phase == 0) { /* the $array or $map payload */
            if (!push_value(r, v, p)) goto fail;
            f = &r->fs[r->ftop - 1];
            f->phase = 1;
            WS(p);
            if (p < end && *p == ',') {
                WS_AFTER(p);
                kq = p;
                if (p >= end || *p != '"') FAIL(p, SV_ERR_SYNTAX, "expected \"$meta\" after ','");
                p = sv_jr_read_str(r, p, &key, false);
                if (!p) goto fail;
                if (!key_is(&key, "$meta"))
                    FAIL(kq, SV_ERR_SYNTAX, "only \"$meta\" may follow the payload of $%s",
                         f->sub == JF_ARRAY ? "array" : "map");
                f->phase = 2;
                goto map_colon;
            }
        } else { /* phase 2: the $meta value */
            sv_value *m = sv_doc_alloc(r->doc, sizeof *m);
            if (!m) {
                sv_jr_fail_alloc(r, p);
                goto fail;
            }
            *m = v;
            r->vs[f->mark].as.box->meta = m;
            f->phase = 1;
            WS(p);
        }
        if (p >= end || *p != '}')
            FAIL(p, SV_ERR_SYNTAX, "expected '}' to close the $%s form",
                 f->sub == JF_ARRAY ? "array" : "map");
        p++;
        v = r->vs[f->mark];
        r->vtop = f->mark;
        r->ftop--;
        goto have_value;
    }
    FAIL(p, SV_ERR_SYNTAX, "internal error: bad frame"); /* not reached */

map_next:
    WS(p);
    if (p < end && *p == ',') {
        WS_AFTER(p);
        goto map_key;
    }
    if (p < end && *p == '}') {
        if (!close_map(r, p++, &v)) goto fail;
        goto have_value;
    }
    FAIL(p, SV_ERR_SYNTAX, "expected ',' or '}' after an object member");

map_key:
    if (p >= end || *p != '"') FAIL(p, SV_ERR_SYNTAX, "expected a key (a string)");
    kq = p;
    p = sv_jr_read_str(r, p, &key, false);
    if (!p) goto fail;
    if (is_form_key(r, &key)) {
        f = &r->fs[r->ftop - 1];
        if (key_is(&key, "$meta") && f->sub == MK_OBJECT && !f->has_meta && r->vtop == f->base) {
            f->phase = 1;
            goto map_colon;
        }
        if (key_is(&key, "$meta") && f->sub == MK_OBJECT)
            FAIL(kq, SV_ERR_SYNTAX, "\"$meta\" must come right after the \"$class\" key");
        FAIL(kq, SV_ERR_SYNTAX, "unexpected key \"%.*s\" (a key that starts with '$' is written '$$')",
             (int)(key.len > 40 ? 40 : key.len), key.s);
    }
    if (!push_key(r, &key, kq)) goto fail;

map_colon:
    open = true;
    WS(p);
    if (p >= end || *p != ':') FAIL(p, SV_ERR_SYNTAX, "expected ':' after an object key");
    WS_AFTER(p);
    goto value;

pair_open:
    open = true;
    if (p >= end || *p != '[') {
        if (p < end && (*p == ']' || *p == '}')) {
            bad_value(r, p);
            goto fail;
        }
        FAIL(p, SV_ERR_TYPE, "a $map item is a [key, value] array");
    }
    if (!push_frame(r, FR_PAIR, p)) goto fail;
    WS_AFTER(p);
    goto value;

pairs_next:
    open = false;
    WS(p);
    if (p < end && *p == ',') {
        WS_AFTER(p);
        goto pair_open;
    }
    if (p < end && *p == ']') {
        if (!close_map(r, p++, &v)) goto fail;
        goto have_value;
    }
    FAIL(p, SV_ERR_SYNTAX, "expected ',' or ']' after a $map pair");

fail:
    build_path(r, open);
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
        return sv_error_set(err, SV_ERR_USAGE, "json", 0, "sv_json_read needs a document, text and out");
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

    /* Small stacks up front, so they are never NULL (NULL + 0 is undefined). */
    bool ok = grow(&r, (void **)&r.vs, &r.vcap, sizeof(sv_value), 64, r.text) &&
              grow(&r, (void **)&r.fs, &r.fcap, sizeof(jr_frame), 16, r.text);
    const char *p = ok ? sv_jr_ws(&r, r.text) : NULL;
    ok = p && parse(&r, p, out);
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
