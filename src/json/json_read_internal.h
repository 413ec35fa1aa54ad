/* The typed JSON reader's internals, shared by src/json/json_read*.c.
 *
 * The reader is one pass over [text, end): a loop in json_read.c with an
 * explicit stack of frames (open arrays, objects and "$" forms) and a stack of
 * finished values; each closed container is copied from the value stack into
 * one arena block. Strings (json_read_string.c), numbers (json_read_number.c)
 * and the "$" forms that hold no arbitrary values (json_read_forms.c: scalars,
 * bytes, tuples, packed arrays) are parsed by helpers that take a pointer to
 * the text and return the pointer after what they consumed, or NULL after
 * recording an error in r->err. */
#ifndef SV_JSON_READ_INTERNAL_H
#define SV_JSON_READ_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "serval/json.h"

typedef struct jr_frame jr_frame;

typedef struct jr {
    sv_doc *doc;
    const char *text; /* start of the input: offsets are counted from here */
    const char *end;
    sv_error *err;
    sv_limits lim;
    bool comments; /* opts->allow_comments */
    bool plain;    /* opts->plain */

    /* Values of containers still open (a map's pairs as key, value, ...). */
    sv_value *vs;
    size_t vtop, vcap;
    /* Open containers and forms, innermost last; ftop is the nesting depth. */
    jr_frame *fs;
    size_t ftop, fcap;
    /* Scratch: unescaped keys and form strings; numbers of a packed array. */
    char *sbuf;
    size_t scap;
    uint8_t *nbuf;
    size_t ncap;
    /* Bytes held by the four buffers above: they count toward max_alloc. */
    uint64_t scratch;
} jr;

/* ---- errors (json_read.c) ----------------------------------------------------- */

/* Records the first error at position at (line and column are worked out from
 * the text). A SYNTAX or TYPE error at the end of the input becomes
 * SV_ERR_TRUNCATED: the input ended inside a value. Returns false. */
bool sv_jr_fail(jr *r, const char *at, sv_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/* Records the document's allocation failure (NOMEM or LIMIT) at at. */
bool sv_jr_fail_alloc(jr *r, const char *at);
/* Makes room for need bytes in a scratch buffer (sbuf or nbuf), counting it
 * against max_alloc. */
bool sv_jr_reserve(jr *r, void **buf, size_t *cap, size_t need, const char *at);

/* ---- whitespace ------------------------------------------------------------------ */

/* Skips whitespace and (with allow_comments) comments from p, which is below
 * end or at it. Returns NULL after an error (an unterminated comment). */
const char *sv_jr_ws_slow(jr *r, const char *p);

static inline const char *sv_jr_ws(jr *r, const char *p)
{
    /* Compact text has no whitespace at all: one compare decides. */
    if (p < r->end && (unsigned char)*p > ' ' && *p != '/') return p;
    return sv_jr_ws_slow(r, p);
}

/* ---- strings (json_read_string.c) -------------------------------------------------- */

typedef struct jr_str {
    const char *s; /* the decoded bytes: in the input, or in r->sbuf */
    size_t len;
} jr_str;

/* Scans the string whose opening quote is at p (escapes and UTF-8 checked).
 * Returns the pointer to its closing quote; *dlen gets the decoded length and
 * *escaped whether it has any escape. wtf8: a lone surrogate escape is allowed
 * (encoded as WTF-8) instead of being an error. */
const char *sv_jr_scan_string(jr *r, const char *p, size_t *dlen, bool *escaped, bool wtf8);
/* Decodes the body [p, q) of a scanned string into dst (dlen bytes). */
void sv_jr_unescape(const char *p, const char *q, char *dst, bool wtf8);
/* Reads the string at p into out (in place when it has no escape, else into
 * r->sbuf). Returns the pointer after the closing quote, or NULL. */
const char *sv_jr_read_str(jr *r, const char *p, jr_str *out, bool wtf8);
/* A STRING value of the string at p, copied into the arena. */
const char *sv_jr_string_value(jr *r, const char *p, sv_value *out, bool wtf8);
/* Length (1 to 4) of the valid UTF-8 sequence at p, 0 if invalid, -1 if the
 * input ends inside a sequence that is valid so far (RFC 3629 §4). */
int sv_jr_utf8_seq(const unsigned char *p, const unsigned char *end);

/* ---- numbers (json_read_number.c) ---------------------------------------------------- */

/* A scanned number token (RFC 8259 §6 grammar). */
typedef struct jr_num {
    const char *s, *e;  /* the token's text */
    uint64_t mant;      /* its first 19 significant digits */
    int64_t exp10;      /* value = mant * 10^exp10 (up to the truncated digits) */
    uint64_t mag;       /* integers: the magnitude, when it fits (!big) */
    bool neg;           /* a leading '-' */
    bool is_int;        /* no fraction, no exponent */
    bool big;           /* integer magnitude above UINT64_MAX */
    bool truncated;     /* a non-zero digit beyond the 19 in mant */
} jr_num;

/* Scans the number at p (a '-' or a digit). Returns the pointer after it. */
const char *sv_jr_scan_number(jr *r, const char *p, jr_num *n);
/* The nearest double; false if the magnitude is beyond float64's range. */
bool sv_jr_num_f64(const jr_num *n, double *out);
/* The plain-JSON value of a number: int, uint or float64 (docs/json.md). */
bool sv_jr_num_value(jr *r, const jr_num *n, sv_value *out);

/* ---- "$" forms (json_read_forms.c) ---------------------------------------------------- */

typedef enum jr_form_id {
    JF_UNKNOWN = 0,
    JF_INT,    /* $i8 .. $u64: elem says which */
    JF_FLOAT,  /* $f32, $f64 */
    JF_BYTES,
    JF_UTF16,
    JF_REF,
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
    jr_form_id id;
    sv_elem elem; /* JF_INT, JF_FLOAT, JF_PACKED */
    sv_tag tag;   /* JF_SHAPE, JF_TAG */
} jr_form;

/* Which form the key name (without its leading '$') names. */
jr_form sv_jr_form_lookup(const char *name, size_t len);

/* Parses a form that holds no arbitrary value (JF_INT .. JF_SHAPE) from its
 * payload at p (after the ':' and whitespace) to its closing '}' included. */
const char *sv_jr_leaf_form(jr *r, const char *p, jr_form form, sv_value *out);
/* The class of a $class form: a string (interned) or an unsigned integer. */
const char *sv_jr_class_value(jr *r, const char *p, sv_value *out);

#endif
