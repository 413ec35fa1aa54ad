/* loads: libserval's value tree straight into Python objects.
 *
 * Which values are plain and which take a wrapper is the pickle writer's
 * rule (src/formats/pickle/, docs/formats/pickle.md), itself that of typed
 * JSON: a map is a dict when every key is an untagged UTF-8 string and none
 * occurs twice, else a Map of (key, value) pairs; a string that is not
 * UTF-8 is Str (its bytes); and so on. Map keys and class names are
 * interned by the document, so one Python string is made per distinct
 * address and reused for the rest of the call. */
#include "native.h"

#include <math.h>
#include <string.h>

#define KEY_SLOTS 1024

typedef struct key_slot {
    const char *s;
    uint32_t len;
    PyObject *obj; /* strong reference, dropped at the end of the call */
} key_slot;

/* Short string values: tags and enum-like texts ("a", "idle", "red") get
 * one str for the call. Up to 8 bytes they are found by their bytes
 * (BSON's point into the input, a new address each time); longer ones by
 * their address (Godot's decoder hands one address per text it met). */
#define SHORT_SLOTS 256
#define SHORT_MAX 24
#define WORD_MAX 8

typedef struct short_id {
    const char *s; /* the address (longer texts), or NULL */
    uint64_t word; /* the bytes, zero-padded (texts up to WORD_MAX) */
    uint32_t len;
} short_id;

/* A slot holds one str and the last text that missed it: a text replaces
 * the str only when it misses twice in a row, so a run of texts that never
 * repeat (names, ids) leaves a useful str in place, and does not pay for
 * dropping the reference of a str made long ago (a cache miss each). */
typedef struct short_slot {
    short_id id;
    short_id missed;
    PyObject *obj; /* strong reference, dropped at the end of the call */
} short_slot;

/* Plain ints and floats that repeat close together (an id written again
 * in a list of tags, a default health value) get one object for the
 * call: Python's ints and floats are immutable and their identity is not
 * part of their meaning, as CPython shares the ints from -5 to 256 itself.
 * One slot per hash of the value (a float by its bits, so 0.0 and -0.0
 * and each NaN keep their own object); a value that misses replaces the
 * slot's, which the result still holds, so only the reference moves. Few
 * slots: the object a miss lets go of was made a few dozen values before,
 * still in the CPU's cache (with 512, the reference count written back
 * was a cache miss of its own, 6% of a Godot loads under perf). */
#define NUM_SLOTS 64

typedef struct num_slot {
    uint64_t bits;
    PyObject *obj; /* strong reference, dropped at the end of the call */
} num_slot;

struct nv_reader {
    key_slot keys[KEY_SLOTS];
    short_slot shorts[SHORT_SLOTS];
    num_slot ints[NUM_SLOTS];
    num_slot floats[NUM_SLOTS];
    unsigned depth;
    /* whether texts longer than WORD_MAX are cached by address: not where
     * each one is told at its own place in the input (bson), so that an
     * address never comes back */
    int by_address;
};
typedef nv_reader reader;

static PyObject *value(reader *r, const sv_value *v);

static PyObject *malformed(const char *what, const sv_value *v)
{
    return nv_raise_status(SV_ERR_TYPE, "python", "", "malformed tree: %s (kind %s)", what,
                           sv_kind_name((sv_kind)v->kind));
}

double nv_f32_to_double(uint32_t bits)
{
    if ((bits & 0x7f800000u) != 0x7f800000u) {
        float f;
        memcpy(&f, &bits, 4);
        return (double)f; /* exact */
    }
    uint64_t b = (uint64_t)(bits >> 31) << 63 | UINT64_C(0x7ff0000000000000) |
                 (uint64_t)(bits & 0x007fffffu) << 29;
    double d;
    memcpy(&d, &b, 8);
    return d;
}

/* An empty instance of list or dict subclass c, made as the unpickler's
 * NEWOBJ makes it: the class's tp_new, without a call to its Python
 * __init__ (which would cost a frame per value). */
static PyObject *new_empty(unsigned c)
{
    static PyObject *no_args;
    static newfunc makers[NV_CLASS_COUNT]; /* each class's tp_new, looked up once */
    if (!no_args && !(no_args = PyTuple_New(0))) return NULL;
    newfunc make = makers[c];
    if (!make) make = makers[c] = (newfunc)PyType_GetSlot((PyTypeObject *)nv.classes[c].cls, Py_tp_new);
    if (!make) {
        PyErr_SetString(PyExc_TypeError, "serval._native: a wrapper class without tp_new");
        return NULL;
    }
    return make((PyTypeObject *)nv.classes[c].cls, no_args, NULL);
}

/* Sets attribute name of o to value (taking value's reference); -1 on failure. */
static int set_attr(PyObject *o, PyObject *name, PyObject *value)
{
    if (!value) return -1;
    int rc = PyObject_SetAttr(o, name, value);
    Py_DECREF(value);
    return rc;
}

/* An instance of class c (Ref or a tagged value's class: a `value` slot)
 * holding inner, taking inner's reference: made by tp_new and the slot set,
 * without a call to the Python __init__. */
static PyObject *with_value(unsigned c, PyObject *inner)
{
    if (!inner) return NULL;
    if (nv_wrap_fast(c)) return nv_wrap_value(c, inner);
    PyObject *o = new_empty(c);
    if (o && set_attr(o, nv.s_value, inner) < 0) Py_CLEAR(o);
    else if (!o) Py_DECREF(inner);
    return o;
}

/* cls(arg) for the wrappers of ints, floats, strings and bytes, taking
 * arg's reference: the class's tp_new with a one-item tuple, as the
 * unpickler's NEWOBJ calls it, without the type call around it. */
static PyObject *wrap1(unsigned c, PyObject *arg)
{
    if (!arg) return NULL;
    PyObject *args = PyTuple_Pack(1, arg);
    Py_DECREF(arg);
    if (!args) return NULL;
    PyTypeObject *t = (PyTypeObject *)nv.classes[c].cls;
    newfunc make = (newfunc)PyType_GetSlot(t, Py_tp_new);
    PyObject *o = make ? make(t, args, NULL) : PyObject_Call((PyObject *)t, args, NULL);
    Py_DECREF(args);
    return o;
}

/* A plain str for the bytes, or NULL without an exception when they are
 * not UTF-8 (any other failure sets one). */
static PyObject *utf8_or_null(const char *s, size_t len)
{
    PyObject *o = PyUnicode_DecodeUTF8(s ? s : "", (Py_ssize_t)len, NULL);
    if (!o && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) PyErr_Clear();
    return o;
}

/* The str of an interned string (a key, a class name): from the cache when
 * its address was seen before. NULL without an exception: not UTF-8. */
static PyObject *key_str(reader *r, const char *s, uint32_t len)
{
    if (!s) return utf8_or_null("", 0);
    size_t at = (size_t)(((uintptr_t)s >> 3) * UINT64_C(0x9E3779B97F4A7C15) >> 54) & (KEY_SLOTS - 1);
    key_slot *k = &r->keys[at];
    if (k->s == s && k->len == len) {
        Py_INCREF(k->obj);
        return k->obj;
    }
    PyObject *o = utf8_or_null(s, len);
    if (!o) return NULL;
    PyUnicode_InternInPlace(&o);
    Py_XDECREF(k->obj);
    k->s = s;
    k->len = len;
    k->obj = o;
    Py_INCREF(o);
    return o;
}

/* The str of a string value of up to SHORT_MAX bytes, from the cache when
 * it was seen before; NULL without an exception: not UTF-8. */
static int same_id(const short_id *a, const short_id *b)
{
    return a->s == b->s && a->word == b->word && a->len == b->len;
}

/* word: the text zero-padded when len <= WORD_MAX (else unused) */
static PyObject *short_str_word(reader *r, const char *s, uint32_t len, uint64_t word)
{
    short_id id = {NULL, 0, len};
    size_t at;
    if (len <= WORD_MAX) {
        id.word = word;
        at = (size_t)((id.word ^ len) * UINT64_C(0x9E3779B97F4A7C15) >> 56);
    } else if (r->by_address) {
        id.s = s;
        at = (size_t)(((uintptr_t)s >> 2) * UINT64_C(0x9E3779B97F4A7C15) >> 56);
    } else {
        return utf8_or_null(s, len);
    }
    short_slot *k = &r->shorts[at & (SHORT_SLOTS - 1)];
    if (k->obj && same_id(&k->id, &id)) {
        Py_INCREF(k->obj);
        return k->obj;
    }
    PyObject *o = utf8_or_null(id.s ? s : (const char *)&id.word, len);
    if (!o) return NULL;
    if (k->obj && !same_id(&k->missed, &id)) {
        k->missed = id;
        return o;
    }
    Py_XDECREF(k->obj);
    k->id = id;
    k->missed.len = UINT32_MAX; /* no text: lengths stop at SHORT_MAX */
    k->obj = o;
    Py_INCREF(o);
    return o;
}

static PyObject *short_str(reader *r, const char *s, uint32_t len)
{
    uint64_t word = 0;
    if (len <= WORD_MAX) memcpy(&word, s, len);
    return short_str_word(r, s, len, word);
}

static size_t num_at(uint64_t bits)
{
    return (size_t)((bits * UINT64_C(0x9E3779B97F4A7C15)) >> 58) & (NUM_SLOTS - 1);
}

/* The int i as a Python int, shared with an equal one made just before. */
static PyObject *shared_int(reader *r, int64_t i)
{
    if (i >= -5 && i <= 256) return PyLong_FromLongLong(i); /* CPython's own shared ints */
    num_slot *k = &r->ints[num_at((uint64_t)i)];
    if (k->obj && k->bits == (uint64_t)i) {
        Py_INCREF(k->obj);
        return k->obj;
    }
    PyObject *o = PyLong_FromLongLong(i);
    if (!o) return NULL;
    Py_XDECREF(k->obj);
    k->bits = (uint64_t)i;
    k->obj = o;
    Py_INCREF(o);
    return o;
}

/* The float d as a Python float, shared with one of the same bits made
 * just before. */
static PyObject *shared_float(reader *r, double d)
{
    uint64_t bits;
    memcpy(&bits, &d, 8);
    num_slot *k = &r->floats[num_at(bits)];
    if (k->obj && k->bits == bits) {
        Py_INCREF(k->obj);
        return k->obj;
    }
    PyObject *o = PyFloat_FromDouble(d);
    if (!o) return NULL;
    Py_XDECREF(k->obj);
    k->bits = bits;
    k->obj = o;
    Py_INCREF(o);
    return o;
}

static int plain_key(const sv_value *k)
{
    return k->kind == SV_STRING && k->tag == 0 && !(k->flags & SV_F_UTF16);
}

/* ---- numbers -------------------------------------------------------------------- */

static PyObject *from_elem(const uint8_t *d, unsigned elem)
{
    switch (elem) {
    case SV_ELEM_U8: return PyLong_FromLong(d[0]);
    case SV_ELEM_I8: return PyLong_FromLong((int8_t)d[0]);
    case SV_ELEM_U16: { uint16_t x; memcpy(&x, d, 2); return PyLong_FromLong(x); }
    case SV_ELEM_I16: { int16_t x; memcpy(&x, d, 2); return PyLong_FromLong(x); }
    case SV_ELEM_U32: { uint32_t x; memcpy(&x, d, 4); return PyLong_FromUnsignedLong(x); }
    case SV_ELEM_I32: { int32_t x; memcpy(&x, d, 4); return PyLong_FromLong(x); }
    case SV_ELEM_U64: { uint64_t x; memcpy(&x, d, 8); return PyLong_FromUnsignedLongLong(x); }
    case SV_ELEM_I64: { int64_t x; memcpy(&x, d, 8); return PyLong_FromLongLong(x); }
    case SV_ELEM_F32: { uint32_t x; memcpy(&x, d, 4); return PyFloat_FromDouble(nv_f32_to_double(x)); }
    default: { double x; memcpy(&x, d, 8); return PyFloat_FromDouble(x); }
    }
}

/* The library's tables of tags and element types (sv_tag_kind, ...), read
 * once into arrays here: a Vector3 asks them four times, each a call
 * through the PLT into libserval. */
static struct {
    int ready;
    unsigned char tag_kind[SV_TAG_COUNT];
    unsigned char tag_scalars[SV_TAG_COUNT];
    unsigned char tag_default_elem[SV_TAG_COUNT];
    unsigned char elem_size[SV_ELEM_COUNT];
} facts;

static void facts_init(void)
{
    if (facts.ready) return;
    for (unsigned t = 0; t < SV_TAG_COUNT; t++) {
        facts.tag_kind[t] = (unsigned char)sv_tag_kind((sv_tag)t);
        facts.tag_scalars[t] = (unsigned char)sv_tag_scalars((sv_tag)t);
        facts.tag_default_elem[t] = (unsigned char)sv_tag_default_elem((sv_tag)t);
    }
    for (unsigned e = 0; e < SV_ELEM_COUNT; e++)
        facts.elem_size[e] = (unsigned char)sv_elem_size((sv_elem)e);
    facts.ready = 1;
}

/* Appends x (taking its reference) to list; -1 on failure. */
static int append_new(PyObject *list, PyObject *x)
{
    int rc = x ? PyList_Append(list, x) : -1;
    Py_XDECREF(x);
    return rc;
}

/* Appends n numbers to list (a list or list subclass). The float element
 * types, which nearly every vector and color holds, in loops of their own
 * rather than through from_elem's switch per number. */
static int append_numbers(PyObject *list, const uint8_t *d, size_t n, unsigned elem)
{
    if (elem == SV_ELEM_F32) {
        for (size_t i = 0; i < n; i++) {
            uint32_t x;
            memcpy(&x, d + 4 * i, 4);
            if (append_new(list, PyFloat_FromDouble(nv_f32_to_double(x)))) return -1;
        }
        return 0;
    }
    if (elem == SV_ELEM_F64) {
        for (size_t i = 0; i < n; i++) {
            double x;
            memcpy(&x, d + 8 * i, 8);
            if (append_new(list, PyFloat_FromDouble(x))) return -1;
        }
        return 0;
    }
    size_t size = facts.elem_size[elem];
    for (size_t i = 0; i < n; i++)
        if (append_new(list, from_elem(d + i * size, elem))) return -1;
    return 0;
}

static PyObject *number_list(const uint8_t *d, size_t n, unsigned elem)
{
    size_t size = facts.elem_size[elem];
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (!list) return NULL;
    for (size_t i = 0; i < n; i++) {
        PyObject *x = from_elem(d + i * size, elem);
        if (!x) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, (Py_ssize_t)i, x);
    }
    return list;
}

/* An instance of class c holding n numbers (or, with k, n / k lists of k
 * numbers), its elem set when not the class's default. */
static PyObject *numbers_of(unsigned c, const uint8_t *d, size_t n, size_t k, unsigned elem,
                            unsigned def)
{
    PyObject *o = new_empty(c);
    if (!o) return NULL;
    int rc = 0;
    if (!k) {
        rc = append_numbers(o, d, n, elem);
    } else {
        size_t size = facts.elem_size[elem];
        for (size_t i = 0; rc == 0 && i < n / k; i++) {
            PyObject *item = number_list(d + i * k * size, k, elem);
            rc = item ? PyList_Append(o, item) : -1;
            Py_XDECREF(item);
        }
    }
    if (rc == 0 && elem != def) {
        Py_INCREF(nv.elem_names[elem]);
        rc = set_attr(o, nv.s_elem, nv.elem_names[elem]);
    }
    if (rc) Py_CLEAR(o);
    return o;
}

static PyObject *tuple_value(const sv_value *v)
{
    unsigned tag = v->tag, elem = v->sub;
    if (tag == 0 || tag >= SV_TAG_COUNT || facts.tag_kind[tag] != SV_TUPLE)
        return malformed("a tuple without a shape tag", v);
    if (elem == SV_ELEM_NONE || elem >= SV_ELEM_COUNT)
        return malformed("a tuple without an element type", v);
    if (v->len != facts.tag_scalars[tag] || !v->as.data)
        return malformed("a tuple whose count is not its shape's", v);
    if (!nv.classes[NV_TAG0 + tag].cls) return malformed("a tuple of a shape with no class", v);
    return numbers_of(NV_TAG0 + tag, v->as.data, v->len, 0, elem, facts.tag_default_elem[tag]);
}

static PyObject *packed_value(const sv_value *v)
{
    unsigned tag = v->tag, elem = v->sub;
    if (elem == SV_ELEM_NONE || elem >= SV_ELEM_COUNT)
        return malformed("a packed array without an element type", v);
    if (!v->as.data && v->len) return malformed("a packed array without storage", v);
    const uint8_t *d = v->as.data;
    if (tag == 0 || tag >= SV_TAG_COUNT || sv_tag_kind((sv_tag)tag) != SV_PACKED)
        return numbers_of(NV_ELEM0 + elem, d, v->len, 0, elem, elem);
    unsigned k = sv_tag_scalars((sv_tag)tag);
    if (v->len % k) return malformed("a packed array of part of an item", v);
    return numbers_of(NV_TAG0 + tag, d, v->len, k, elem, sv_tag_default_elem((sv_tag)tag));
}

/* ---- scalars ------------------------------------------------------------------------ */

static PyObject *int_value(const sv_value *v)
{
    static const unsigned char by_width[9] = {0, NV_I8, NV_I16, 0, NV_I32, 0, 0, 0, NV_I64};
    unsigned w = v->sub;
    if (w != 1 && w != 2 && w != 4 && w != 8) return malformed("an int of an odd width", v);
    int64_t i = v->as.i;
    if (w < 8) {
        int64_t lim = (int64_t)1 << (8 * w - 1);
        if (i < -lim || i >= lim) return malformed("an int beyond its width", v);
    }
    PyObject *o = PyLong_FromLongLong(i);
    if (w == 8 && !(v->flags & SV_F_EXPLICIT)) return o;
    return nv_wrap_long(by_width[w], o);
}

static PyObject *uint_value(const sv_value *v)
{
    static const unsigned char by_width[9] = {0, NV_U8, NV_U16, 0, NV_U32, 0, 0, 0, NV_U64};
    unsigned w = v->sub;
    if (w != 1 && w != 2 && w != 4 && w != 8) return malformed("a uint of an odd width", v);
    uint64_t u = v->as.u;
    if (w < 8 && (u >> (8 * w)) != 0) return malformed("a uint beyond its width", v);
    PyObject *o = PyLong_FromUnsignedLongLong(u);
    /* plain only above int64's range, where a Python int reads back as a uint */
    if (w == 8 && !(v->flags & SV_F_EXPLICIT) && u > (uint64_t)INT64_MAX) return o;
    return nv_wrap_long(by_width[w], o);
}

static PyObject *float_value(const sv_value *v)
{
    if (v->sub == 8) {
        uint64_t bits;
        memcpy(&bits, &v->as.f64, 8);
        int finite = (bits & UINT64_C(0x7ff0000000000000)) != UINT64_C(0x7ff0000000000000);
        if (finite && !(v->flags & SV_F_EXPLICIT)) return PyFloat_FromDouble(v->as.f64);
        return nv_wrap_float(NV_F64, v->as.f64);
    }
    if (v->sub != 4) return malformed("a float of an odd width", v);
    uint32_t bits;
    memcpy(&bits, &v->as.f32, 4);
    return nv_wrap_float(NV_F32, nv_f32_to_double(bits));
}

static PyObject *string_value(reader *r, const sv_value *v)
{
    if (!v->as.str && v->len) return malformed("a string without storage", v);
    const char *s = v->as.str ? v->as.str : "";
    if (v->flags & SV_F_UTF16) {
        PyObject *o = PyUnicode_DecodeUTF8(s, (Py_ssize_t)v->len, "surrogatepass");
        if (!o) {
            PyErr_Clear();
            return nv_raise_status(SV_ERR_UTF8, "python", "", "malformed tree: a string from "
                                   "UTF-16 that is not WTF-8");
        }
        return wrap1(NV_UTF16, o);
    }
    PyObject *o = v->as.str && v->len <= SHORT_MAX ? short_str(r, s, v->len)
                                                   : utf8_or_null(s, v->len);
    if (o || PyErr_Occurred()) return o;
    /* not UTF-8 (a Godot 3 string with a lone surrogate, a stray byte): its bytes */
    return wrap1(NV_STR, PyBytes_FromStringAndSize(s, (Py_ssize_t)v->len));
}

/* ---- containers ---------------------------------------------------------------- */

static int enter(reader *r, const sv_value *v)
{
    if (++r->depth > SV_MAX_DEPTH_LIMIT) {
        nv_raise_status(SV_ERR_DEPTH, "python", "", "the tree nests deeper than %u containers",
                        SV_MAX_DEPTH_LIMIT);
        return 0;
    }
    if (v->len > (v->as.box ? v->as.box->cap : 0)) {
        malformed("more items than room", v);
        return 0;
    }
    return 1;
}

/* Instance of class c with first's items (a list or dict) and the
 * container's meta data as its meta; with neither class nor meta asked
 * for (always false and no meta), first itself. */
static PyObject *with_meta(reader *r, unsigned c, PyObject *first, const sv_value *v, int always)
{
    const sv_value *meta = v->as.box ? v->as.box->meta : NULL;
    if (!first || (!meta && !always)) return first;
    PyObject *o = new_empty(c);
    int rc = o ? (PyDict_Check(first) ? PyDict_Update(o, first)
                                      : PyList_SetSlice(o, 0, 0, first)) : -1;
    Py_DECREF(first);
    if (rc == 0 && meta) rc = set_attr(o, nv.s_meta, value(r, meta));
    if (rc) Py_CLEAR(o);
    return o;
}

static PyObject *array_value(reader *r, const sv_value *v)
{
    if (!enter(r, v)) return NULL;
    const sv_value *items = sv_array_items(v);
    PyObject *list = PyList_New((Py_ssize_t)v->len);
    for (uint32_t i = 0; list && i < v->len; i++) {
        PyObject *x = value(r, &items[i]);
        if (!x) Py_CLEAR(list);
        else PyList_SetItem(list, (Py_ssize_t)i, x);
    }
    r->depth--;
    return with_meta(r, NV_ARRAY, list, v, 0);
}

/* A MAP or an OBJECT: always so where the reader calls it (value() switches
 * on the kind); said once before a loop over sv_key_at / sv_val_at on a
 * local copy, it lets the compiler drop their kind check from the loop
 * (their range check goes with the loop's bound, the copy's len). */
static inline int is_fields(const sv_value *m)
{
    return m->kind == SV_MAP || m->kind == SV_OBJECT;
}

/* The fields of map (a MAP or an OBJECT) as a list of (key, value) tuples;
 * keys_as_str: the keys are field names, else values. Fields are read
 * through sv_key_at / sv_val_at (a compact object keeps its names in a
 * shared shape, not beside the values) on a local copy of the map value,
 * so that the accessors' checks leave the loop. */
static PyObject *pair_list(reader *r, const sv_value *map, int keys_as_str)
{
    const sv_value m = *map;
    if (!is_fields(&m)) return malformed("fields of a value that is no map", map);
    PyObject *list = PyList_New((Py_ssize_t)m.len);
    for (uint32_t i = 0; list && i < m.len; i++) {
        const sv_value *key = sv_key_at(&m, i);
        PyObject *k = keys_as_str ? key_str(r, key->as.str, key->len) : value(r, key);
        PyObject *x = k ? value(r, sv_val_at(&m, i)) : NULL;
        PyObject *t = x ? PyTuple_Pack(2, k, x) : NULL;
        Py_XDECREF(k);
        Py_XDECREF(x);
        if (!t) Py_CLEAR(list);
        else PyList_SetItem(list, (Py_ssize_t)i, t);
    }
    return list;
}

/* A dict of the fields of map, or NULL: with no exception when a key is not
 * an untagged UTF-8 string or occurs twice (a dict cannot hold the map). */
static PyObject *pair_dict(reader *r, const sv_value *map)
{
    const sv_value m = *map;
    if (!is_fields(&m)) return NULL;
    for (uint32_t i = 0; i < m.len; i++)
        if (!plain_key(sv_key_at(&m, i))) return NULL;
    PyObject *d = PyDict_New();
    for (uint32_t i = 0; d && i < m.len; i++) {
        const sv_value *key = sv_key_at(&m, i);
        PyObject *k = key_str(r, key->as.str, key->len);
        if (!k) {
            Py_CLEAR(d);
            break;
        }
        PyObject *x = value(r, sv_val_at(&m, i));
        if (!x || PyDict_SetItem(d, k, x) < 0) Py_CLEAR(d);
        Py_DECREF(k);
        Py_XDECREF(x);
    }
    if (d && PyDict_Size(d) != (Py_ssize_t)m.len) Py_CLEAR(d); /* a key twice */
    return d;
}

static PyObject *map_value(reader *r, const sv_value *v)
{
    if (!enter(r, v)) return NULL;
    PyObject *o = pair_dict(r, v);
    if (o) {
        r->depth--;
        return with_meta(r, NV_DICT, o, v, 0);
    }
    if (PyErr_Occurred()) return NULL;
    o = pair_list(r, v, 0);
    r->depth--;
    return with_meta(r, NV_MAP, o, v, 1);
}

static PyObject *object_value(reader *r, const sv_value *v)
{
    if (!enter(r, v)) return NULL;
    /* sv_object_class, not box->cls: a compact object's class is its shape's */
    const sv_value *cls = sv_object_class(v);
    PyObject *name = NULL;
    if (cls && cls->kind == SV_UINT)
        name = PyLong_FromUnsignedLongLong(cls->as.u);
    else if (cls && plain_key(cls))
        name = key_str(r, cls->as.str, cls->len);
    if (!name) {
        if (PyErr_Occurred()) return NULL;
        return malformed("an object's class must be a UTF-8 string or a uint hash", v);
    }
    const sv_value m = *v;
    for (uint32_t i = 0; i < m.len; i++)
        if (!plain_key(sv_key_at(&m, i))) {
            Py_DECREF(name);
            return malformed("an object's field names must be untagged UTF-8 strings", v);
        }
    unsigned c = NV_OBJECT;
    PyObject *fields = pair_dict(r, v);
    if (!fields && !PyErr_Occurred()) {
        c = NV_OBJECT_PAIRS; /* a field name twice, or one that is not UTF-8 */
        fields = pair_list(r, v, 1);
        if (!fields && !PyErr_Occurred())
            malformed("an object's field names must be untagged UTF-8 strings", v);
    }
    PyObject *o = fields ? new_empty(c) : NULL;
    int rc = o ? (c == NV_OBJECT ? PyDict_Update(o, fields) : PyList_SetSlice(o, 0, 0, fields)) : -1;
    Py_XDECREF(fields);
    Py_INCREF(name);
    if (rc == 0) rc = set_attr(o, nv.s_cls, name);
    const sv_value *meta = sv_meta(v);
    if (rc == 0 && meta) rc = set_attr(o, nv.s_meta, value(r, meta));
    Py_DECREF(name);
    if (rc) Py_CLEAR(o);
    r->depth--;
    return o;
}

static PyObject *ref_value(const sv_value *v)
{
    if (v->flags & SV_F_NULLREF) {
        Py_INCREF(Py_None);
        return with_value(NV_REF, Py_None);
    }
    return with_value(NV_REF, PyLong_FromUnsignedLongLong(v->as.u));
}

static PyObject *untagged(reader *r, const sv_value *v)
{
    switch (v->kind) {
    case SV_NULL: Py_RETURN_NONE;
    case SV_BOOL:
        if (v->len) {
            if (!v->as.b) return malformed("a false bool with a stored value", v);
            return wrap1(NV_BOOL, PyLong_FromUnsignedLong(v->len));
        }
        return PyBool_FromLong(v->as.b);
    case SV_INT: return int_value(v);
    case SV_UINT: return uint_value(v);
    case SV_FLOAT: return float_value(v);
    case SV_STRING: return string_value(r, v);
    case SV_BYTES:
        if (!v->as.bytes && v->len) return malformed("bytes without storage", v);
        return PyBytes_FromStringAndSize((const char *)v->as.bytes, (Py_ssize_t)v->len);
    case SV_ARRAY: return array_value(r, v);
    case SV_MAP: return map_value(r, v);
    case SV_OBJECT: return object_value(r, v);
    case SV_TUPLE: return tuple_value(v);
    case SV_PACKED: return packed_value(v);
    case SV_REF: return ref_value(v);
    default: return malformed("an unknown kind", v);
    }
}

static PyObject *value(reader *r, const sv_value *v)
{
    unsigned tag = v->tag, kind = v->kind;
    if (tag == 0) {
        /* the plain numbers most trees are made of, without the calls below */
        if (kind == SV_INT && v->sub == 8 && !(v->flags & SV_F_EXPLICIT))
            return shared_int(r, v->as.i);
        if (kind == SV_FLOAT && v->sub == 8 && !(v->flags & SV_F_EXPLICIT) && isfinite(v->as.f64))
            return shared_float(r, v->as.f64);
        if (kind == SV_STRING) return string_value(r, v);
        return untagged(r, v);
    }
    if (tag >= SV_TAG_COUNT) return malformed("an unknown tag", v);
    sv_kind tkind = (sv_kind)facts.tag_kind[tag];
    /* a shape is part of the tuple's or packed array's own class */
    if (kind == SV_TUPLE || (kind == SV_PACKED && tkind == SV_PACKED)) return untagged(r, v);
    if (tkind != SV_KIND_COUNT && tkind != (sv_kind)kind)
        return malformed("a tag on a kind it does not apply to", v);
    if (!nv.classes[NV_TAG0 + tag].cls) return malformed("a tag with no Python class", v);
    sv_value inner = *v;
    inner.tag = 0;
    return with_value(NV_TAG0 + tag, untagged(r, &inner));
}

nv_reader *nv_reader_new(int by_address)
{
    facts_init();
    reader *r = (reader *)PyMem_Calloc(1, sizeof *r);
    if (!r) PyErr_NoMemory();
    else r->by_address = by_address;
    return r;
}

void nv_reader_free(nv_reader *r)
{
    if (!r) return;
    for (size_t i = 0; i < KEY_SLOTS; i++)
        Py_XDECREF(r->keys[i].obj);
    for (size_t i = 0; i < SHORT_SLOTS; i++)
        Py_XDECREF(r->shorts[i].obj);
    for (size_t i = 0; i < NUM_SLOTS; i++) {
        Py_XDECREF(r->ints[i].obj);
        Py_XDECREF(r->floats[i].obj);
    }
    PyMem_Free(r);
}

PyObject *nv_reader_value(nv_reader *r, const sv_value *v, unsigned depth)
{
    r->depth = depth;
    return value(r, v);
}

PyObject *nv_reader_key(nv_reader *r, const sv_value *k)
{
    return plain_key(k) ? key_str(r, k->as.str, k->len) : NULL;
}

PyObject *nv_reader_int(nv_reader *r, int64_t i)
{
    return shared_int(r, i);
}

PyObject *nv_reader_float(nv_reader *r, double d)
{
    return shared_float(r, d);
}

PyObject *nv_reader_text(nv_reader *r, const char *s, uint32_t len)
{
    return len <= SHORT_MAX ? short_str(r, s, len) : utf8_or_null(s, len);
}

PyObject *nv_reader_short_text(nv_reader *r, const char *s, uint32_t len, uint64_t word)
{
    return short_str_word(r, s, len, word);
}

PyObject *nv_to_python(const sv_value *v)
{
    reader *r = nv_reader_new(1);
    if (!r) return NULL;
    PyObject *o = value(r, v);
    nv_reader_free(r);
    return o;
}
