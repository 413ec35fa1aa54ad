/* The pickle writer's state and opcode helpers (internal).
 *
 * The stream is pickle protocol 4 (PEP 3154), written with the opcodes that
 * Python's own pickler uses for the same values, cut into frames so that an
 * unpickler reading from a file takes one read per frame. Every class the
 * stream names is a global of the module given to sv_pickle_encode, looked
 * up once (STACK_GLOBAL) and then fetched from the memo (BINGET); the keys
 * of maps are memoized the same way, so a key that recurs (every object of
 * a kind has the same field names) is one Python string object, hashed
 * once, as json.loads does it. */
#ifndef SV_PICKLE_INTERNAL_H
#define SV_PICKLE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/value_internal.h"
#include "serval/pickle.h"

#define SV_PK_FORMAT "pickle"

/* Opcodes (Lib/pickletools.py names them). */
enum {
    PK_PROTO = 0x80,
    PK_FRAME = 0x95,
    PK_STOP = '.',
    PK_NONE = 'N',
    PK_NEWTRUE = 0x88,
    PK_NEWFALSE = 0x89,
    PK_BININT = 'J',
    PK_BININT1 = 'K',
    PK_BININT2 = 'M',
    PK_LONG1 = 0x8a,
    PK_BINFLOAT = 'G',
    PK_SHORT_BINUNICODE = 0x8c,
    PK_BINUNICODE = 'X',
    PK_BINUNICODE8 = 0x8d,
    PK_SHORT_BINBYTES = 'C',
    PK_BINBYTES = 'B',
    PK_BINBYTES8 = 0x8e,
    PK_EMPTY_LIST = ']',
    PK_EMPTY_DICT = '}',
    PK_EMPTY_TUPLE = ')',
    PK_MARK = '(',
    PK_APPENDS = 'e',
    PK_SETITEMS = 'u',
    PK_TUPLE1 = 0x85,
    PK_TUPLE2 = 0x86,
    PK_STACK_GLOBAL = 0x93,
    PK_MEMOIZE = 0x94,
    PK_BINGET = 'h',
    PK_LONG_BINGET = 'j',
    PK_NEWOBJ = 0x81,
    PK_REDUCE = 'R',
    PK_BUILD = 'b'
};

/* The module's classes: the fixed ones, then one per tag (the shapes and
 * the engine types), then one per element type of a packed array without
 * shape. */
enum {
    PKC_I8,
    PKC_I16,
    PKC_I32,
    PKC_I64,
    PKC_U8,
    PKC_U16,
    PKC_U32,
    PKC_U64,
    PKC_F32,
    PKC_F64,
    PKC_BOOL,
    PKC_UTF16,
    PKC_STR,
    PKC_ARRAY,
    PKC_DICT,
    PKC_MAP,
    PKC_OBJECT,
    PKC_OBJECT_PAIRS,
    PKC_REF,
    PKC_TAG0,                            /* + tag */
    PKC_ELEM0 = PKC_TAG0 + SV_TAG_COUNT, /* + element type */
    PKC_COUNT = PKC_ELEM0 + SV_ELEM_COUNT
};

/* The Python name of class c, or NULL when the module has none. */
const char *sv__pickle_pk_class_name(unsigned c);

#define SV_PK_KEY_CACHE 512
typedef struct sv_pk_key {
    const char *str; /* the key's bytes (keys are interned: one address each) */
    uint32_t len;
    uint32_t memo; /* its memo index */
} sv_pk_key;

typedef struct sv_pk {
    sv_buf *b;
    sv_error *err;
    const char *module;
    size_t module_len;
    size_t frame_at; /* offset of the open frame's FRAME opcode */
    uint32_t memo_next;
    unsigned depth;
    unsigned max_depth;          /* the options' limit, resolved */
    int64_t cls_memo[PKC_COUNT]; /* memo index of each class looked up, or -1 */
    sv_pk_key keys[SV_PK_KEY_CACHE];
    uint32_t *slots; /* scratch hash table for the duplicate key check */
    size_t slots_cap;
} sv_pk;

/* A frame is closed at the first value that starts beyond this many bytes. */
#define SV_PK_FRAME_SIZE (256 * 1024)

static inline uint8_t *sv__pickle_pk_room(sv_pk *w, size_t n)
{
    if (sv_buf_ensure(w->b, n) != SV_OK) return NULL;
    return w->b->data + w->b->len;
}

static inline void sv__pickle_pk_done(sv_pk *w, const uint8_t *p)
{
    w->b->len = (size_t)(p - w->b->data);
}

static inline uint8_t *sv__pickle_pk_le(uint8_t *p, uint64_t x, int n)
{
    for (int i = 0; i < n; i++) *p++ = (uint8_t)(x >> (8 * i));
    return p;
}

bool sv__pickle_pk_op(sv_pk *w, uint8_t op);
bool sv__pickle_pk_int(sv_pk *w, int64_t i);
bool sv__pickle_pk_uint(sv_pk *w, uint64_t u);
/* A Python float with exactly these bits. */
bool sv__pickle_pk_f64_bits(sv_pk *w, uint64_t bits);
/* The bits of a double that holds this float32 (NaN payloads kept, not
 * quieted: a signalling NaN's bits are moved by hand). */
uint64_t sv__pickle_pk_f32_as_f64(uint32_t bits);
bool sv__pickle_pk_unicode(sv_pk *w, const char *s, size_t len);
bool sv__pickle_pk_bytes(sv_pk *w, const void *s, size_t len);
/* The class c on the stack (STACK_GLOBAL the first time, then BINGET). */
sv_status sv__pickle_pk_class(sv_pk *w, unsigned c);
/* BINGET of memo index i. */
bool sv__pickle_pk_get(sv_pk *w, uint32_t i);
sv_status sv__pickle_pk_nomem(sv_pk *w);

/* Any value (pickle_write.c). */
sv_status sv__pickle_pk_value(sv_pk *w, const sv_value *v);
/* ARRAY, MAP, OBJECT (pickle_containers.c). */
sv_status sv__pickle_pk_array(sv_pk *w, const sv_value *v);
sv_status sv__pickle_pk_map(sv_pk *w, const sv_value *v);
sv_status sv__pickle_pk_object(sv_pk *w, const sv_value *v);
/* TUPLE, PACKED (pickle_numbers.c). */
sv_status sv__pickle_pk_tuple(sv_pk *w, const sv_value *v);
sv_status sv__pickle_pk_packed(sv_pk *w, const sv_value *v);
/* {'name': <top of stack>} BUILD, for the state of a wrapper: pushes the
 * key; the caller then pushes the value and calls sv__pickle_pk_state_end. */
bool sv__pickle_pk_state_begin(sv_pk *w, const char *name);
bool sv__pickle_pk_state_end(sv_pk *w);

sv_status sv__pickle_pk_malformed(sv_pk *w, const char *what, const sv_value *v);

#endif
