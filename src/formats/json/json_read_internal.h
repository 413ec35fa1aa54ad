/* The typed JSON reader's internals, shared by src/formats/json/json_read*.c.
 *
 * The reader is one pass over [text, end): a loop in json_read.c with an
 * explicit stack of frames (open arrays, objects and "$" forms) and a stack of
 * finished values; each closed container is copied from the value stack into
 * one arena block. The helpers take a pointer to the text and return the
 * pointer after what they consumed, or NULL after recording an error:
 *   json_read_fast.h    fast paths of the loop (included by json_read.c only):
 *                       plain decimals, form keys, one-key forms
 *   json_read_keys.c    the key cache (interning and prediction), form cache
 *   json_read_string.c  whitespace, comments, strings, UTF-8, escapes
 *   json_read_number.c  number tokens and their conversion
 *   json_read_forms.c   "$" forms that hold no arbitrary value ($i32, $bytes)
 *   json_read_packed.c  numbers in forms: tuples, packed arrays, elements
 *   json_read_memory.c  scratch stacks and the arena bump allocator
 *   json_read_errors.c  error positions, messages and JSON Pointer paths */
#ifndef SV_JSON_READ_INTERNAL_H
#define SV_JSON_READ_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/bump.h"
#include "core/compiler.h"
#include "core/key_cache.h"
#include "serval/json.h"

/* A "$" form: what its key says (json_read_forms.c). */
typedef enum jr_form_id {
    JF_UNKNOWN = 0,
    JF_INT,   /* $i8 .. $u64: elem says which */
    JF_WIDE,  /* $int, $uint: a 64-bit integer of no explicit width (elem I64 or U64) */
    JF_FLOAT, /* $f32, $f64 */
    JF_BYTES,
    JF_UTF16,
    JF_REF,
    JF_STR,    /* $str: a string that is not UTF-8, in pieces */
    JF_BOOL,   /* $bool: a bool with the value its source stored ($raw) */
    JF_PACKED, /* $u8s .. $f64s */
    JF_SHAPE,  /* a tuple or packed shape tag: $vector3, $packed_vector3 */
    JF_TAG,    /* any other tag: wraps a value */
    JF_ARRAY,
    JF_MAP,
    JF_CLASS,
    JF_META,
    JF_ELEM
} jr_form_id;

typedef struct jr_form {
    uint8_t id;    /* jr_form_id */
    uint8_t elem;  /* sv_elem: JF_INT, JF_FLOAT, JF_PACKED; JF_SHAPE: the shape's default */
    uint8_t per;   /* JF_SHAPE: numbers per item (a tuple's count) */
    uint8_t tuple; /* JF_SHAPE: 1 for a tuple, 0 for a packed shape */
    uint16_t tag;  /* sv_tag: JF_SHAPE, JF_TAG */
} jr_form;

/* An open container or form. JR_FR_OBJMETA is a $class object (a JR_FR_MAP
 * of sub JR_MK_OBJECT) while its "$meta" value is read; JR_FR_ROOT is the
 * frame below the outermost value (r->root, never on the stack). */
enum { JR_FR_ARRAY, JR_FR_MAP, JR_FR_PAIRS, JR_FR_PAIR, JR_FR_FORM, JR_FR_OBJMETA, JR_FR_ROOT };
/* JR_FR_MAP: what the object is. */
enum { JR_MK_PLAIN, JR_MK_OBJECT, JR_MK_PAYLOAD };

typedef struct jr_frame {
    uint8_t type;     /* JR_FR_* */
    uint8_t sub;      /* JR_FR_MAP: JR_MK_*; JR_FR_FORM: JF_ARRAY, JF_MAP or JF_TAG */
    uint8_t phase;    /* JR_FR_FORM: 0 payload, 1 after it, 2 in the $meta value */
    uint8_t has_meta; /* JR_FR_MAP object */
    uint16_t tag;     /* JR_FR_FORM: the tag of a JF_TAG form */
    size_t mark;      /* r->vtop when the frame opened: where its values start */
    size_t base;      /* first item (after a $class's class and meta) */
    union {
        const char *at; /* JR_FR_FORM: where the payload starts (for kind errors) */
        uint16_t *link; /* JR_FR_MAP, JR_FR_ARRAY: key prediction (see jr_key_slot): a
                           next or first field of r->keys */
    };
} jr_frame;

/* Form keys ("$vector3", "$f32") repeat even more than keys: a cache from
 * the key's text to what sv__json_jr_form_lookup says. The key is the name after
 * the '$' and its closing quote, up to 16 bytes as two zero-padded words:
 * the quote makes the words of two different names differ, and no name can
 * match an empty slot (all zeros). */
#define JR_FORM_CACHE_BITS 6
typedef struct jr_form_slot {
    uint64_t w0, w1;
    jr_form form;
} jr_form_slot;

/* Keys go through the readers' key cache (core/key_cache.h, jr.key_cache);
 * key slot i + 1 here belongs to its slot i and holds what the JSON reader
 * adds to it: the key's value word, and predictions.
 *
 * Slots predict keys. Objects of one shape list their keys in one
 * order, so each slot remembers the slot of the key that came next after it
 * (next) and the first key of the object or array that was its value
 * (first). A frame's link points at the field that names the key expected
 * next; when the text there is exactly `"key":` (p0 and p1 under the masks
 * m0 and m1: the quotes, the key's text and the colon; m1 is 0 for keys of
 * up to 5 bytes), the key is taken with one or two loads and compares,
 * without a scan or a hash. Keys that cannot be predicted (longer than 13
 * bytes, needing escapes, or starting with '$' unless plain) get masks that
 * never match (m0 = 0, p0 = 1), and so does slot 0, which stands for "no
 * slot". */
#define JR_KEY_CACHE_BITS 8
typedef struct jr_key_slot {
    _Alignas(64) uint64_t p0; /* one slot per cache line */
    uint64_t m0, p1, m1;
    uint64_t hdr;   /* the first word of the key's STRING value (jr_hdr) */
    const char *s;  /* the document's interned copy */
    uint16_t next;  /* the slot of the key that followed this one last time */
    uint16_t first; /* the slot of the first key of this key's value */
} jr_key_slot;

typedef struct jr {
    /* first: the key predictions, 64-byte aligned, one slot per cache line */
    jr_key_slot keys[1 + (1u << JR_KEY_CACHE_BITS)]; /* [0]: no slot */
    sv_key_slot key_cache[1u << JR_KEY_CACHE_BITS];
    jr_form_slot forms[1u << JR_FORM_CACHE_BITS];
    sv_doc *doc;
    const char *text; /* start of the input: offsets are counted from here */
    const char *end;
    sv_error *err;
    sv_limits lim;
    bool comments; /* opts->allow_comments */
    bool plain;    /* opts->plain */
    bool open;     /* parse: the innermost frame has an item in progress (for error paths) */

    /* Values of containers still open (a map's pairs as key, value, ...). */
    sv_value *vs;
    size_t vtop, vcap;
    /* Open containers and forms, innermost last; ftop is the nesting depth. */
    jr_frame *fs;
    size_t ftop, fcap;
    jr_frame root; /* the frame of the outermost value: JR_FR_ROOT */
    /* Scratch: unescaped keys and form strings; numbers of a packed array. */
    char *sbuf;
    size_t scap;
    uint8_t *nbuf;
    size_t ncap;
    /* Bytes held by the four buffers above: they count toward max_alloc. */
    uint64_t scratch;
    const sv_value *cls; /* the class value last stored for an object without meta */
    uint16_t last_class; /* the key slot of the last class name read in full, or 0 */
    /* Small arena allocations: a pointer bump instead of a call. */
    sv_bump bump;
    /* Streaming (json_transcode.c): each finished item of the outermost
     * array goes to item() instead of staying on the value stack; shed
     * counts them, so that error paths still give the item's index. item
     * returns false to stop the parse (after recording why). */
    bool (*item)(struct jr *r, const sv_value *v, const char *at);
    void *item_ctx;
    size_t shed;
} jr;

/* An integer of any element width, for reading one into its own type
 * (json_read_forms.c) and storing one at its own size (json_read_packed.c). */
typedef union jr_width {
    uint8_t u8;
    int8_t i8;
    uint16_t u16;
    int16_t i16;
    uint32_t u32;
    int32_t i32;
    uint64_t u64;
    int64_t i64;
} jr_width;

/* ---- errors (json_read_errors.c) ----------------------------------------------------- */

/* Records the first error at position at (line and column are worked out from
 * the text). A SYNTAX or TYPE error at the end of the input becomes
 * SV_ERR_TRUNCATED: the input ended inside a value. Returns false. */
bool sv__json_jr_fail(jr *r, const char *at, sv_status status, const char *fmt, ...)
    SV_PRINTF(4, 5);
/* Parses the whole text into *root (json_read.c). stream: every item of an
 * outermost array goes to r->item instead (the root is then that array,
 * empty when any item was shed). */
bool sv__json_jr_parse(jr *r, sv_value *root, bool stream);
/* Readies r for text[0..len) with the options o, into doc. */
void sv__json_jr_begin(jr *r, sv_doc *doc, const char *text, size_t len,
                       const sv_json_decode_opts *o, sv_error *err);
/* Frees r's scratch stacks and buffers. */
void sv__json_jr_end(jr *r);
/* After the document was emptied (sv_doc_reset): forgets every pointer into
 * it (key predictions, the last class, the bump block). */
void sv__json_jr_forget(jr *r);

/* Records the document's allocation failure (NOMEM or LIMIT) at at. */
bool sv__json_jr_fail_alloc(jr *r, const char *at);
/* Errors for a value that cannot start at p, and for a misspelt literal. */
void sv__json_jr_bad_value(jr *r, const char *p);
void sv__json_jr_bad_literal(jr *r, const char *p);
/* After an error: prepends the JSON Pointer segments of the open frames.
 * open: the innermost frame has an item (or payload) in progress. */
void sv__json_jr_build_path(jr *r, bool open);
/* ---- memory (json_read_memory.c) -------------------------------------------------------- */

/* Makes room for need items of size bytes in a scratch buffer (libc),
 * counting it against max_alloc; *cap is in items. */
bool sv__json_jr_grow(jr *r, void **buf, size_t *cap, size_t size, size_t need, const char *at);
/* The same for a byte buffer (sbuf or nbuf). */
bool sv__json_jr_reserve(jr *r, void **buf, size_t *cap, size_t need, const char *at);

/* Arena memory for the document (8-byte aligned); NULL after recording the
 * allocation failure at at. */
void *sv__json_jr_alloc_slow(jr *r, size_t n, const char *at);

static inline void *sv__json_jr_alloc(jr *r, size_t n, const char *at)
{
    size_t m = (n + 7) & ~(size_t)7;
    if (m >= n && (size_t)(r->bump.end - r->bump.cur) >= m) {
        void *p = r->bump.cur;
        r->bump.cur += m;
        return p;
    }
    return sv__json_jr_alloc_slow(r, n, at);
}

/* Branch hints for the hot loops (SV_LIKELY, SV_UNLIKELY in
 * core/compiler.h): error and growth paths are unlikely. */

/* ---- 8 bytes at a time ---------------------------------------------------------------- */

/* SV_SWAR and sv__core_load64 (core/compiler.h). */

/* Keeps the first k bytes of w (all of them when k >= 8): a table, since
 * a shift by 64 is undefined and k is often 8. */
static inline uint64_t jr_keep(uint64_t w, size_t k)
{
    static const uint64_t masks[9] = {0,
                                      UINT64_C(0xFF),
                                      UINT64_C(0xFFFF),
                                      UINT64_C(0xFFFFFF),
                                      UINT64_C(0xFFFFFFFF),
                                      UINT64_C(0xFFFFFFFFFF),
                                      UINT64_C(0xFFFFFFFFFFFF),
                                      UINT64_C(0xFFFFFFFFFFFFFF),
                                      UINT64_C(0xFFFFFFFFFFFFFFFF)};
    return w & masks[k < 8 ? k : 8];
}

/* ---- values as two words --------------------------------------------------------------- */

/* The reader builds a value as two 64-bit words: the first holds kind,
 * flags, sub, tag and len as value.h lays them out, the second the union.
 * With GCC and Clang on a little-endian target, bit-fields fill their byte
 * from the lowest bit: kind is bits 0-3, flags bits 4-7, sub byte 1, tag
 * bytes 2-3 and len bytes 4-7 (test_json_read.c checks this against
 * sv__core_make). Two stores then make a value, where a memset and bit-field
 * stores go through the stack. Other compilers get the field stores. */
static inline uint64_t jr_hdr(unsigned kind, unsigned flags, unsigned sub, unsigned tag,
                              uint64_t len)
{
    return (uint64_t)kind | (uint64_t)flags << 4 | (uint64_t)sub << 8 | (uint64_t)tag << 16 |
           len << 32;
}

static inline sv_value jr_value(uint64_t hdr, uint64_t payload)
{
    sv_value v;
#if SV_SWAR
    memcpy(&v, &hdr, 8);
    memcpy((char *)&v + 8, &payload, 8);
#else
    memset(&v, 0, sizeof v);
    v.kind = hdr & 0xF;
    v.flags = (hdr >> 4) & 0xF;
    v.sub = (uint8_t)(hdr >> 8);
    v.tag = (uint16_t)(hdr >> 16);
    v.len = (uint32_t)(hdr >> 32);
    v.as.u = payload;
#endif
    return v;
}

/* The union word of a float32 (the other 4 bytes zero, as sv_f32 makes it)
 * and of a pointer. */
static inline uint64_t jr_f32_word(float f)
{
    union {
        uint64_t u;
        float f;
    } x;
    x.u = 0;
    x.f = f;
    return x.u;
}

static inline uint64_t jr_bool_word(bool b)
{
    union {
        uint64_t u;
        bool b;
    } x;
    x.u = 0;
    x.b = b;
    return x.u;
}

static inline uint64_t jr_ptr_word(const void *p)
{
    union {
        uint64_t u;
        const void *p;
    } x;
    x.u = 0;
    x.p = p;
    return x.u;
}

/* High bit set in each byte of w that is '"', '\\', below 0x20 or above 0x7F.
 * A borrow can only start at such a byte, so the lowest set bit is exact. */
static inline uint64_t jr_special_bytes(uint64_t w)
{
    const uint64_t ones = UINT64_C(0x0101010101010101);
    uint64_t q = w ^ (ones * '"');
    uint64_t b = w ^ (ones * '\\');
    return ((q - ones) | (b - ones) | (w - ones * 0x20) | w) & (ones * 0x80);
}

/* The length of the string whose body starts at s when it ends within 16
 * bytes and holds no escape, control or non-ASCII byte; -1 otherwise (then
 * the general scanner decides). Needs 16 bytes of input after s. */
static inline long jr_short_string(const char *s, const char *end)
{
#if SV_SWAR
    if (end - s >= 16) {
        uint64_t m = jr_special_bytes(sv__core_load64(s));
        if (m) {
            unsigned i = (unsigned)__builtin_ctzll(m) >> 3;
            return s[i] == '"' ? (long)i : -1;
        }
        m = jr_special_bytes(sv__core_load64(s + 8));
        if (m) {
            unsigned i = (unsigned)__builtin_ctzll(m) >> 3;
            return s[8 + i] == '"' ? (long)(8 + i) : -1;
        }
    }
#else
    (void)s;
    (void)end;
#endif
    return -1;
}

/* ---- digits ------------------------------------------------------------------------ */

#if SV_SWAR
/* The value of 8 digits already reduced to 0..9 per byte, the first digit in
 * the lowest byte (little-endian load). Pairs first: byte i becomes
 * 10 * d[i] + d[i+1] (at most 99, so no byte carries); then the four pairs
 * at bytes 0, 2, 4, 6 are weighted 10^6, 10^4, 10^2, 1 by two multiplies
 * whose upper halves add up to the result. */
static inline uint64_t jr_eight_digits(uint64_t t)
{
    t = t * 10 + (t >> 8);
    uint64_t a = t & UINT64_C(0x000000FF000000FF);         /* pairs 0 and 2 */
    uint64_t b = (t >> 16) & UINT64_C(0x000000FF000000FF); /* pairs 1 and 3 */
    return (a * (100 + (UINT64_C(1000000) << 32)) + b * (1 + (UINT64_C(10000) << 32))) >> 32;
}
#endif

/* Takes the digits at p into *m (m = m * 10^k + digits; it wraps past 19
 * digits, which the caller checks by counting). Returns the end of them. */
static inline const char *jr_take_digits(const char *p, const char *end, uint64_t *m)
{
    uint64_t acc = *m;
#if SV_SWAR
    static const uint64_t pow10[8] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000};
    const uint64_t zeros = UINT64_C(0x3030303030303030);
    while (end - p >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        /* High bit of each byte below '0' (borrow) or above '9' (+0x46
         * reaches 0x80); only the lowest flagged byte is exact. */
        uint64_t nd =
            ((w - zeros) | (w + UINT64_C(0x4646464646464646))) & UINT64_C(0x8080808080808080);
        if (!nd) {
            acc = acc * 100000000 + jr_eight_digits(w - zeros);
            p += 8;
            continue;
        }
        unsigned k = (unsigned)__builtin_ctzll(nd) >> 3;
        if (k) {
            /* the k digits to the top bytes: zeros in front of them */
            acc = acc * pow10[k] + jr_eight_digits((w - zeros) << (8 * (8 - k)));
            p += k;
        }
        *m = acc;
        return p;
    }
#endif
    unsigned d;
    while (p < end && (d = (unsigned)((unsigned char)*p - '0')) <= 9) {
        acc = acc * 10 + d;
        p++;
    }
    *m = acc;
    return p;
}

/* ---- whitespace ------------------------------------------------------------------ */

/* Skips whitespace and (with allow_comments) comments from p, which is below
 * end or at it. Returns NULL after an error (an unterminated comment). */
const char *sv__json_jr_ws_slow(jr *r, const char *p);

static inline const char *sv__json_jr_ws(jr *r, const char *p)
{
    /* Compact text has no whitespace at all: one compare decides. */
    if (p < r->end && (unsigned char)*p > ' ' && *p != '/') return p;
    return sv__json_jr_ws_slow(r, p);
}

/* ---- strings (json_read_string.c) -------------------------------------------------- */

typedef struct jr_str {
    const char *s; /* the decoded bytes: in the input, or in r->sbuf */
    size_t len;
    bool escaped; /* s is in r->sbuf */
} jr_str;

/* Scans the string whose opening quote is at p (escapes and UTF-8 checked).
 * Returns the pointer to its closing quote; *dlen gets the decoded length and
 * *escaped whether it has any escape. wtf8: a lone surrogate escape is allowed
 * (encoded as WTF-8) instead of being an error. */
const char *sv__json_jr_scan_string(jr *r, const char *p, size_t *dlen, bool *escaped, bool wtf8);
/* Decodes the body [p, q) of a scanned string into dst (dlen bytes). */
void sv__json_jr_unescape(const char *p, const char *q, char *dst, bool wtf8);
/* Reads the string at p into out (in place when it has no escape, else into
 * r->sbuf). Returns the pointer after the closing quote, or NULL. */
const char *sv__json_jr_read_str(jr *r, const char *p, jr_str *out, bool wtf8);
/* The document's interned copy of a key or class name (at: for errors). */
bool sv__json_jr_intern(jr *r, const jr_str *k, const char *at, sv_value *out);
/* A STRING value of the string at p, copied into the arena. */
const char *sv__json_jr_string_value(jr *r, const char *p, sv_value *out, bool wtf8);
/* Length (1 to 4) of the valid UTF-8 sequence at p, 0 if invalid, -1 if the
 * input ends inside a sequence that is valid so far (RFC 3629 §4). */
int sv__json_jr_utf8_seq(const unsigned char *p, const unsigned char *end);

/* ---- numbers (json_read_number.c) ---------------------------------------------------- */

/* A scanned number token (RFC 8259 §6 grammar). */
typedef struct jr_num {
    const char *s, *e; /* the token's text */
    uint64_t mant;     /* its first 19 significant digits */
    int64_t exp10;     /* value = mant * 10^exp10 (up to the truncated digits) */
    uint64_t mag;      /* integers: the magnitude, when it fits (!big) */
    bool neg;          /* a leading '-' */
    bool is_int;       /* no fraction, no exponent */
    bool big;          /* integer magnitude above UINT64_MAX */
    bool truncated;    /* a non-zero digit beyond the 19 in mant */
} jr_num;

/* A plain decimal: -?(0|[1-9][0-9]*)(\.[0-9]+)? of at most 19 digits. */
typedef struct jr_dec {
    uint64_t m;  /* every digit, as one integer */
    unsigned nf; /* how many of them follow the point */
    bool neg;
} jr_dec;

/* Scans such a decimal at p (below end) followed by no exponent: returns
 * its end, or NULL for anything else (json_read_fast.h, jr_decimal, is the
 * fast version of this). */
const char *sv__json_jr_decimal_careful(const char *p, const char *end, jr_dec *d);
/* Scans the number at p (a '-' or a digit). Returns the pointer after it. */
const char *sv__json_jr_scan_number(jr *r, const char *p, jr_num *n);
/* The nearest double; false if the magnitude is beyond float64's range. */
bool sv__json_jr_num_f64(const jr_num *n, double *out);
/* The nearest float32, correctly rounded from the decimal (never the float
 * nearest to the nearest double); false beyond float32's range. */
bool sv__json_jr_num_f32(const jr_num *n, float *out);
/* The plain-JSON value of a number: int, uint or float64 (docs/json.md). */
bool sv__json_jr_num_value(jr *r, const jr_num *n, sv_value *out);

/* ---- the key and form caches (json_read_keys.c) --------------------------------------- */

/* The document's interned copy of a key or class name k through the key
 * cache (at: for errors); *slot gets the cache slot used, or 0. */
bool sv__json_jr_key(jr *r, const jr_str *k, const char *at, sv_value *out, unsigned *slot);
/* The form named by a "$" key (the key with its '$'), through the form cache. */
jr_form sv__json_jr_form_of(jr *r, const jr_str *key);
/* Empties both caches (at the start of a parse). */
void sv__json_jr_caches_init(jr *r);

/* ---- "$" forms (json_read_forms.c) ---------------------------------------------------- */

/* Which form the key name (without its leading '$') names. */
jr_form sv__json_jr_form_lookup(const char *name, size_t len);

/* Parses a form that holds no arbitrary value (JF_INT .. JF_SHAPE) from its
 * payload at p (after the ':' and whitespace) to its closing '}' included. */
const char *sv__json_jr_leaf_form(jr *r, const char *p, jr_form form, sv_value *out);
/* The class of a $class form: a string (interned) or an unsigned integer. */
const char *sv__json_jr_class_value(jr *r, const char *p, sv_value *out);

/* An error for a payload of the wrong kind at p ("$i32 takes an integer,
 * not a string"); SYNTAX when p does not start a value at all. false. */
bool sv__json_jr_type_error(jr *r, const char *p, const char *name, const char *want);

/* ---- numbers in forms (json_read_packed.c) ------------------------------------------------- */

/* One number (or special float string: "nan", "inf", "-inf", "nan:0x...")
 * at p for element type e, stored at dst. Syntax errors always fail. A value
 * that does not suit e fails with an error if report; otherwise it sets
 * *bad, and once *bad is set nothing more is converted. name: the form, for
 * messages. */
const char *sv__json_jr_element(jr *r, const char *p, sv_elem e, void *dst, bool report, bool *bad,
                                const char *name);
/* The payload of a shape form ($vector3: a tuple; $packed_vector3: a packed
 * array) and its optional "$elem", up to (not including) the closing '}'. */
const char *sv__json_jr_shape_form(jr *r, const char *p, sv_tag tag, const char *name,
                                   sv_value *out);
/* The payload of $u8s .. $f64s. */
const char *sv__json_jr_packed_form(jr *r, const char *p, sv_elem e, const char *name,
                                    sv_value *out);

/* ---- small shared helpers ------------------------------------------------------------------ */

static inline bool sv__json_jr_is_number_start(const char *p, const char *end)
{
    return p < end && (*p == '-' || (unsigned)((unsigned char)*p - '0') <= 9);
}

static inline bool sv__json_jr_str_is(const jr_str *s, const char *lit)
{
    size_t n = strlen(lit);
    return s->len == n && memcmp(s->s, lit, n) == 0;
}

/* Prepends a form's key ("$vector3") to the error path. */
static inline void sv__json_jr_path_name(jr *r, const char *name)
{
    sv_error_path_key(r->err, name, strlen(name));
}

static inline bool sv__json_jr_elem_signed(sv_elem e)
{
    return e == SV_ELEM_I8 || e == SV_ELEM_I16 || e == SV_ELEM_I32 || e == SV_ELEM_I64;
}

/* Whether the integer token n fits element type e. */
static inline bool sv__json_jr_int_fits(const jr_num *n, sv_elem e)
{
    if (n->big) return false;
    unsigned bits = (unsigned)sv_elem_size(e) * 8;
    uint64_t umax = bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
    if (!sv__json_jr_elem_signed(e)) return n->neg ? n->mag == 0 : n->mag <= umax;
    uint64_t smax = umax >> 1;
    return n->neg ? n->mag <= smax + 1 : n->mag <= smax;
}

/* The signed value of an integer token that fits an int64. */
static inline int64_t sv__json_jr_int_of(const jr_num *n)
{
    if (!n->neg) return (int64_t)n->mag;
    return n->mag > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)n->mag;
}

#endif
