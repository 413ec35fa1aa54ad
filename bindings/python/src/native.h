/* serval._native: the CPython extension under serval.loads and serval.dumps.
 *
 * loads walks libserval's value tree straight into Python objects, dumps
 * walks Python objects straight into a tree; no text and no pickle in
 * between. The mapping is the one of docs/formats/pickle.md (that of
 * serval's typed JSON): plain Python values where typed JSON is plain, and
 * the wrapper classes of serval/_types.py where it has a "$" form. The
 * Python package hands this module its classes once (setup()), checks the
 * options and keeps the ctypes sv_options they live in. */
#ifndef SERVAL_PY_NATIVE_H
#define SERVAL_PY_NATIVE_H

#ifndef SERVAL_PY_FULL_API
#define Py_LIMITED_API 0x030A0000
#endif
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "serval/convert.h"
#include "serval/error.h"
#include "serval/registry.h"
#include "serval/value.h"

/* The wrapper classes, by index: the fixed ones, then one per tag, then one
 * per element type (the packed arrays without shape). */
enum {
    NV_I8, NV_I16, NV_I32, NV_I64, NV_U8, NV_U16, NV_U32, NV_U64, NV_F32, NV_F64, NV_BOOL,
    NV_UTF16, NV_STR, NV_ARRAY, NV_DICT, NV_MAP, NV_OBJECT, NV_OBJECT_PAIRS, NV_REF,
    NV_TAG0,
    NV_ELEM0 = NV_TAG0 + SV_TAG_COUNT,
    NV_CLASS_COUNT = NV_ELEM0 + SV_ELEM_COUNT
};

/* Kinds of wrapper, for dumps' dispatch on a value's exact class. */
enum {
    NK_NONE = 0, NK_INT_W, NK_UINT_W, NK_F32, NK_F64, NK_BOOL, NK_UTF16, NK_STR, NK_ARRAY,
    NK_DICT, NK_MAP, NK_OBJECT, NK_OBJECT_PAIRS, NK_REF, NK_TAGGED, NK_TUPLE, NK_PACKED,
    NK_NUMBERS
};

typedef struct nv_class {
    PyObject *cls;        /* the class (a strong reference), or NULL */
    unsigned char kind;   /* NK_* */
    unsigned char width;  /* NK_INT_W / NK_UINT_W: bytes */
    unsigned short tag;   /* NK_TAGGED / NK_TUPLE / NK_PACKED: sv_tag */
    unsigned char elem;   /* NK_NUMBERS: sv_elem */
} nv_class;

typedef struct nv_state {
    nv_class classes[NV_CLASS_COUNT];
    PyObject *make_error; /* Python callable: (status, message, format, offset, bit, path, text) */
    PyObject *s_meta, *s_elem, *s_cls, *s_value; /* attribute names, interned */
    PyObject *elem_names[SV_ELEM_COUNT];         /* "u8" ... "f64" */
    int ready;
} nv_state;

extern nv_state nv;

/* The class name of index i in serval/_types.py (NULL: none). */
const char *nv_class_name(unsigned i);
/* The class entry whose class is exactly type, or NULL. */
const nv_class *nv_class_of(PyObject *type);

/* Raises serval.Error for err (a libserval failure). Returns NULL. */
PyObject *nv_raise(const sv_error *err);
/* Raises serval.Error with status, format name, message and path. */
PyObject *nv_raise_status(sv_status st, const char *format, const char *path, const char *fmt, ...);

/* Pauses Python's cyclic garbage collector (returns whether it ran) and
 * resumes it when it ran; the exception set, if any, stays set. */
int nv_gc_pause(void);
void nv_gc_resume(int was_on);

/* The tree of v as Python objects (new reference), or NULL with an
 * exception set. */
PyObject *nv_to_python(const sv_value *v);

/* The converter behind nv_to_python, for values that come one at a time
 * (native_stream.c): it keeps the str made for each interned key. */
typedef struct nv_reader nv_reader;
/* NULL with MemoryError set. by_address: a string value's address may come
 * back for the same text (a tree's, Godot's decoder), so it may be cached
 * by it. */
nv_reader *nv_reader_new(int by_address);
void nv_reader_free(nv_reader *r);
/* v (and what it holds) as Python objects, depth containers deep; NULL
 * with an exception set. */
PyObject *nv_reader_value(nv_reader *r, const sv_value *v, unsigned depth);
/* The str of a map key that a dict can hold (an untagged UTF-8 string), or
 * NULL: with no exception when the key is not one. */
PyObject *nv_reader_key(nv_reader *r, const sv_value *k);

/* What value() makes of the untagged, not explicit int i and finite float
 * d (shared with an equal one made just before), and of the text s that
 * is a plain string value (a str, or NULL without an exception when it is
 * not UTF-8): the pieces the direct Godot reader (native_godot.c) shares
 * with this converter, and native_bson.c too, so that its objects are the
 * ones the tree gives. */
PyObject *nv_reader_int(nv_reader *r, int64_t i);
PyObject *nv_reader_float(nv_reader *r, double d);
PyObject *nv_reader_text(nv_reader *r, const char *s, uint32_t len);
/* The same for a text of at most 8 bytes, given as word too (its bytes,
 * zero-padded, as a little-endian load gives them). */
PyObject *nv_reader_short_text(nv_reader *r, const char *s, uint32_t len, uint64_t word);

/* loads of godot3 and godot4 (godot4: which) read here, straight from the
 * bytes into Python objects, for the values most files are made of
 * (native_godot.c). *declined (no exception) where the input holds anything
 * else, or anything the tree would keep more of than a plain object says;
 * the caller then takes the streaming path. NULL with an exception set on a
 * Python failure. */
PyObject *nv_godot_loads(int godot4, const uint8_t *data, size_t len, const sv_options *opts,
                         int *declined);

/* loads of bson read here the same way, for the common element types of
 * one document or a stream of them (native_bson.c); *declined as for
 * nv_godot_loads. */
PyObject *nv_bson_loads(const uint8_t *data, size_t len, const sv_options *opts, int *declined);

/* loads by sv_visit_decode (serval/visit.h): the objects made straight from
 * the events, without a tree. *declined (no exception) when the format
 * declined the input or a Dictionary needs another class than dict (a key
 * twice, a key that is not a string): the caller then decodes into a tree.
 * NULL with an exception set on a Python failure. */
PyObject *nv_stream_loads(const sv_format *f, const uint8_t *data, size_t len,
                          const sv_options *opts, int *declined);

/* The Python value o as a tree in doc, into *out; max_depth bounds the
 * nesting, max_string the bytes of one string. Returns 0, or -1 with an
 * exception set (serval.Error naming the value's path where it is the
 * value that cannot be written). */
int nv_from_python(sv_doc *doc, PyObject *o, unsigned max_depth, uint64_t max_string,
                   sv_value *out);

/* Instances of wrapper class c made without the class call where
 * nv_wrap_setup() found, once, that this interpreter allows it
 * (native_wrap.c): of a float; of plain (an exact int, its reference
 * taken); holding inner (Ref and the tagged classes, its reference taken).
 * NULL with an exception set. */
void nv_wrap_setup(void);
int nv_wrap_fast(unsigned c);
PyObject *nv_wrap_float(unsigned c, double d);
PyObject *nv_wrap_long(unsigned c, PyObject *plain);
PyObject *nv_wrap_value(unsigned c, PyObject *inner);

/* The float32 of bits as the double Python holds it: the same value, and
 * for NaN and infinities the sign and payload moved to the top of the
 * double's mantissa (docs/formats/pickle.md), and back. */
double nv_f32_to_double(uint32_t bits);
uint32_t nv_double_to_f32(double d);

#endif
