/* dumps: Python objects straight into a libserval value tree.
 *
 * The tree is the one serval's typed JSON reader makes of the typed JSON
 * that serval/_typed_json.py writes for the same objects (the ctypes
 * path), so both paths encode the same bytes: a plain value is dispatched
 * on its exact type, a wrapper (serval/_types.py) on its exact class, and
 * an instance of any other subclass of a plain type is taken as that type.
 * A value the tree cannot hold raises serval.Error with its JSON Pointer;
 * an object of no known type raises TypeError, an int beyond 64 bits
 * OverflowError, as the ctypes path does. Map keys are interned in the
 * document, once per key object per call. */
#include "native.h"

#include <math.h>
#include <string.h>

#define KEY_SLOTS 512

typedef struct key_slot {
    PyObject *obj; /* strong reference while cached */
    sv_value key;
} key_slot;

typedef struct writer {
    sv_doc *doc;
    unsigned depth, max_depth;
    uint64_t max_string;
    /* a value that cannot be written: status and message, and the path
     * pieces gathered (innermost first) while the calls return */
    sv_status status;
    char message[SV_ERROR_MSG_MAX];
    PyObject *path;
    key_slot keys[KEY_SLOTS];
} writer;

static int put(writer *w, PyObject *o, sv_value *out);

static int refuse(writer *w, sv_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->message, sizeof w->message, fmt, ap);
    va_end(ap);
    w->status = st;
    return -1;
}

static int nomem(writer *w)
{
    sv_status st = sv_doc_status(w->doc);
    return refuse(w, st ? st : SV_ERR_NOMEM, "cannot allocate the tree (%llu bytes so far)",
                  (unsigned long long)sv_doc_allocated(w->doc));
}

/* On the way out of a failure under a container: the piece of the path. */
static int at_index(writer *w, Py_ssize_t i)
{
    if (w->status && w->path) {
        PyObject *p = PyUnicode_FromFormat("%zd", i);
        if (p) PyList_Append(w->path, p);
        Py_XDECREF(p);
    }
    return -1;
}

static int at_key(writer *w, PyObject *k)
{
    if (w->status && w->path && PyUnicode_Check(k)) PyList_Append(w->path, k);
    return -1;
}

static int at_name(writer *w, const char *name)
{
    if (w->status && w->path) {
        PyObject *p = PyUnicode_FromString(name);
        if (p) PyList_Append(w->path, p);
        Py_XDECREF(p);
    }
    return -1;
}

/* ---- scalars ---------------------------------------------------------------------- */

/* o as an int64 or uint64: *is_u says which; -1 with OverflowError beyond. */
static int whole(PyObject *o, int64_t *i, uint64_t *u, int *is_u)
{
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (x == -1 && PyErr_Occurred()) return -1;
    if (!overflow) {
        *i = x;
        *is_u = 0;
        return 0;
    }
    if (overflow > 0) {
        unsigned long long y = PyLong_AsUnsignedLongLong(o);
        if (!(y == (unsigned long long)-1 && PyErr_Occurred())) {
            *u = y;
            *is_u = 1;
            return 0;
        }
        PyErr_Clear();
    }
    PyObject *text = PyObject_Str(o);
    PyErr_Format(PyExc_OverflowError, "serval: %U is beyond the int64 and uint64 ranges", text);
    Py_XDECREF(text);
    return -1;
}

static int put_int(writer *w, PyObject *o, sv_value *out)
{
    int64_t i;
    uint64_t u;
    int is_u;
    (void)w;
    if (whole(o, &i, &u, &is_u)) return -1;
    *out = is_u ? sv_uint(u) : sv_int(i);
    return 0;
}

/* I8 ... U64: the explicit width, in range. */
static int put_int_w(writer *w, PyObject *o, const nv_class *c, sv_value *out)
{
    int64_t i;
    uint64_t u;
    int is_u;
    const char *name = nv_class_name((unsigned)(c - nv.classes));
    if (whole(o, &i, &u, &is_u)) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
        PyErr_Clear(); /* beyond 64 bits: out of the wrapper's range, as typed JSON says */
        return refuse(w, SV_ERR_RANGE, "%s does not hold a number beyond 64 bits", name);
    }
    unsigned bits = 8u * c->width;
    if (c->kind == NK_INT_W) {
        int64_t lim = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
        if (is_u || i > lim || i < -lim - 1)
            return refuse(w, SV_ERR_RANGE, "%s does not hold %s%lld", name, is_u ? "a value above " : "",
                          is_u ? (long long)INT64_MAX : (long long)i);
        *out = sv_int_w(i, (int)c->width);
    } else {
        if (!is_u) {
            if (i < 0) return refuse(w, SV_ERR_RANGE, "%s does not hold %lld", name, (long long)i);
            u = (uint64_t)i;
        }
        if (bits < 64 && (u >> bits))
            return refuse(w, SV_ERR_RANGE, "%s does not hold %llu", name, (unsigned long long)u);
        *out = sv_uint_w(u, (int)c->width);
    }
    return 0;
}

uint32_t nv_double_to_f32(double d)
{
    uint64_t b;
    memcpy(&b, &d, 8);
    if ((b & UINT64_C(0x7ff0000000000000)) == UINT64_C(0x7ff0000000000000))
        return (uint32_t)(b >> 63) << 31 | 0x7F800000u | ((uint32_t)(b >> 29) & 0x007FFFFFu);
    float f = (float)d;
    uint32_t bits;
    memcpy(&bits, &f, 4);
    return bits;
}

static int f32_of(writer *w, double d, uint32_t *bits)
{
    if (isfinite(d) && (d > 3.4028234663852886e38 || d < -3.4028234663852886e38) &&
        isinf((float)d))
        return refuse(w, SV_ERR_RANGE, "%g is beyond float32's range", d);
    *bits = nv_double_to_f32(d);
    return 0;
}

static int put_f32(writer *w, double d, sv_value *out)
{
    uint32_t bits = 0; /* refuse() is -1, but gcc -O2 cannot see it */
    if (f32_of(w, d, &bits)) return -1;
    float f;
    memcpy(&f, &bits, 4);
    *out = sv_f32(f);
    return 0;
}

static int put_text(writer *w, PyObject *o, sv_value *out)
{
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(o, &len);
    if (!s) return -1;
    if ((uint64_t)len > w->max_string)
        return refuse(w, SV_ERR_LIMIT, "a string of %zd bytes is over max_string", len);
    *out = sv_str(w->doc, s, (size_t)len);
    return out->kind == SV_STRING ? 0 : nomem(w);
}

static int put_raw(writer *w, const char *s, Py_ssize_t len, int as_string, sv_value *out)
{
    if ((uint64_t)len > w->max_string)
        return refuse(w, SV_ERR_LIMIT, "a value of %zd bytes is over max_string", len);
    *out = as_string ? sv_str(w->doc, s, (size_t)len) : sv_bytes(w->doc, s, (size_t)len);
    return out->kind != SV_NULL ? 0 : nomem(w);
}

static int put_bytes_like(writer *w, PyObject *o, int as_string, sv_value *out)
{
    if (PyBytes_Check(o)) {
        char *s;
        Py_ssize_t len;
        if (PyBytes_AsStringAndSize(o, &s, &len) < 0) return -1;
        return put_raw(w, s, len, as_string, out);
    }
    PyObject *b = PyBytes_FromObject(o); /* bytearray */
    if (!b) return -1;
    int rc = put_bytes_like(w, b, as_string, out);
    Py_DECREF(b);
    return rc;
}

static int put_utf16(writer *w, PyObject *o, sv_value *out)
{
    PyObject *b = PyUnicode_AsEncodedString(o, "utf-8", "surrogatepass");
    if (!b) return -1;
    int rc = put_bytes_like(w, b, 1, out);
    Py_DECREF(b);
    if (rc == 0) *out = sv_with_flags(*out, SV_F_UTF16);
    return rc;
}

/* ---- keys ------------------------------------------------------------------------ */

static int put_key(writer *w, PyObject *k, sv_value *out)
{
    size_t at = (size_t)(((uintptr_t)k >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 55) & (KEY_SLOTS - 1);
    key_slot *slot = &w->keys[at];
    if (slot->obj == k) {
        *out = slot->key;
        return 0;
    }
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(k, &len);
    if (!s) return -1;
    if ((uint64_t)len > w->max_string)
        return refuse(w, SV_ERR_LIMIT, "a key of %zd bytes is over max_string", len);
    *out = sv_str_intern(w->doc, s, (size_t)len);
    if (out->kind != SV_STRING) return nomem(w);
    Py_INCREF(k); /* kept alive, so that no other object takes its address */
    Py_XDECREF(slot->obj);
    slot->obj = k;
    slot->key = *out;
    return 0;
}

/* ---- containers ---------------------------------------------------------------- */

/* Item i of seq (from as_items), a new reference. */
static PyObject *item_of(PyObject *seq, Py_ssize_t i)
{
    PyObject *x = PyList_Check(seq) ? PyList_GetItem(seq, i) : PyTuple_GetItem(seq, i);
    Py_XINCREF(x); /* kept while a value's own code may change seq */
    return x;
}

/* o itself (a new reference) when an exact list or tuple or a wrapper
 * class (Array, Vector3, F32s, ...: lists that keep list's own item
 * access), else the list PySequence_Fast makes of its items (a caller's
 * subclass is read through its own iterator, as the ctypes path reads
 * it); NULL with an exception. PySequence_Fast would copy every wrapper. */
static PyObject *as_items(PyObject *o, const char *why)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t == &PyList_Type || t == &PyTuple_Type ||
        (PyList_Check(o) && nv_class_of((PyObject *)t))) {
        Py_INCREF(o);
        return o;
    }
    return PySequence_Fast(o, why);
}

static Py_ssize_t items_len(PyObject *seq)
{
    return PyList_Check(seq) ? PyList_Size(seq) : PyTuple_Size(seq);
}

static int enter(writer *w)
{
    if (++w->depth > w->max_depth)
        return refuse(w, SV_ERR_DEPTH, "the value nests deeper than max_depth (%u)", w->max_depth);
    return 0;
}

static int put_sequence(writer *w, PyObject *o, sv_value *out)
{
    if (enter(w)) return -1;
    PyObject *seq = as_items(o, "serval: a list or tuple");
    if (!seq) return -1;
    Py_ssize_t n = items_len(seq);
    *out = sv_array(w->doc, (size_t)n);
    if (out->kind != SV_ARRAY) {
        Py_DECREF(seq);
        return nomem(w);
    }
    sv_value *items = sv_array_items(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *x = item_of(seq, i);
        int rc = x ? put(w, x, &items[i]) : -1;
        Py_XDECREF(x);
        if (rc) {
            Py_DECREF(seq);
            return at_index(w, i);
        }
    }
    Py_DECREF(seq);
    w->depth--;
    return 0;
}

/* A dict: string keys as the map's keys, or (when any key is not a str)
 * every key as a value of its own, as typed JSON's $map. */
static int put_dict(writer *w, PyObject *o, sv_value *out)
{
    if (enter(w)) return -1;
    Py_ssize_t n = PyDict_Size(o), pos = 0, i = 0;
    int str_keys = 1;
    PyObject *k, *x;
    while (PyDict_Next(o, &pos, &k, &x))
        if (!PyUnicode_Check(k)) {
            str_keys = 0;
            break;
        }
    *out = sv_map(w->doc, (size_t)n);
    if (out->kind != SV_MAP) return nomem(w);
    sv_pair *pairs = sv_pairs(out);
    pos = 0;
    while (i < n && PyDict_Next(o, &pos, &k, &x)) {
        Py_INCREF(k);
        Py_INCREF(x);
        int rc = str_keys ? put_key(w, k, &pairs[i].key) : put(w, k, &pairs[i].key);
        if (rc == 0) rc = put(w, x, &pairs[i].val);
        if (rc) {
            if (str_keys) at_key(w, k);
            else at_index(w, i);
        }
        Py_DECREF(k);
        Py_DECREF(x);
        if (rc) return -1;
        i++;
    }
    if (i != n) {
        PyErr_SetString(PyExc_RuntimeError, "serval: a dict changed size while it was written");
        return -1;
    }
    w->depth--;
    return 0;
}

/* (key, value) pairs from an iterable of 2-item sequences; names: keys
 * must be str (an object's fields). */
static int put_pairs(writer *w, PyObject *o, int names, sv_value *out, int is_object,
                     sv_value cls)
{
    PyObject *seq = PySequence_Fast(o, "serval: a list of pairs");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Size(seq);
    *out = is_object ? sv_object(w->doc, cls, (size_t)n) : sv_map(w->doc, (size_t)n);
    if (out->kind == SV_NULL) {
        Py_DECREF(seq);
        return nomem(w);
    }
    sv_pair *pairs = sv_pairs(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *p = PySequence_GetItem(seq, i);
        PyObject *kv = p ? PySequence_Fast(p, "serval: a pair must be a (key, value) sequence") : NULL;
        Py_XDECREF(p);
        int rc = -1;
        if (kv && PySequence_Size(kv) != 2) {
            refuse(w, SV_ERR_TYPE, "a pair holds %zd items, not 2", PySequence_Size(kv));
        } else if (kv) {
            PyObject *k = PySequence_GetItem(kv, 0), *x = PySequence_GetItem(kv, 1);
            if (k && x) {
                if (names && !PyUnicode_Check(k))
                    PyErr_SetString(PyExc_TypeError, "serval: a field name must be a str");
                else
                    rc = names ? put_key(w, k, &pairs[i].key) : put(w, k, &pairs[i].key);
                if (rc == 0) rc = put(w, x, &pairs[i].val);
            }
            Py_XDECREF(k);
            Py_XDECREF(x);
        }
        Py_XDECREF(kv);
        if (rc) {
            Py_DECREF(seq);
            return at_index(w, i);
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* The container's meta attribute, set on *out when not None. */
static int put_meta(writer *w, PyObject *o, sv_value *out)
{
    PyObject *meta = PyObject_GetAttr(o, nv.s_meta);
    if (!meta) return -1;
    int rc = 0;
    if (meta != Py_None) {
        sv_value m;
        rc = put(w, meta, &m);
        if (rc) at_name(w, "$meta");
        else if (sv_meta_set(w->doc, out, m) != SV_OK)
            rc = nomem(w);
    }
    Py_DECREF(meta);
    return rc;
}

/* An Object's fields: the dict it is, names as keys. */
static int put_fields(writer *w, PyObject *o, sv_value cls, sv_value *out)
{
    Py_ssize_t n = PyDict_Size(o), pos = 0, i = 0;
    PyObject *k, *x;
    *out = sv_object(w->doc, cls, (size_t)n);
    if (out->kind != SV_OBJECT) return nomem(w);
    sv_pair *pairs = sv_pairs(out);
    while (i < n && PyDict_Next(o, &pos, &k, &x)) {
        if (!PyUnicode_Check(k)) {
            PyErr_SetString(PyExc_TypeError, "serval: a field name must be a str");
            return -1;
        }
        Py_INCREF(k);
        Py_INCREF(x);
        int rc = put_key(w, k, &pairs[i].key);
        if (rc == 0) rc = put(w, x, &pairs[i].val);
        if (rc) at_key(w, k);
        Py_DECREF(k);
        Py_DECREF(x);
        if (rc) return -1;
        i++;
    }
    if (i != n) {
        PyErr_SetString(PyExc_RuntimeError, "serval: an object changed size while it was written");
        return -1;
    }
    return 0;
}

static int put_object(writer *w, PyObject *o, int pairs_form, sv_value *out)
{
    if (enter(w)) return -1;
    PyObject *cls = PyObject_GetAttr(o, nv.s_cls);
    if (!cls) return -1;
    sv_value c;
    int rc = 0;
    if (PyUnicode_Check(cls)) {
        rc = put_key(w, cls, &c);
    } else if (PyLong_Check(cls) && !PyBool_Check(cls)) {
        unsigned long long h = PyLong_AsUnsignedLongLong(cls);
        if (h == (unsigned long long)-1 && PyErr_Occurred()) {
            PyErr_Clear();
            rc = refuse(w, SV_ERR_RANGE, "a class hash must be a uint64");
        }
        c = sv_uint(h);
    } else {
        rc = refuse(w, SV_ERR_TYPE, "$class takes a name or a hash");
    }
    Py_DECREF(cls);
    if (rc) return at_name(w, "$class");
    rc = pairs_form ? put_pairs(w, o, 1, out, 1, c) : put_fields(w, o, c, out);
    if (rc) return -1;
    if (put_meta(w, o, out)) return -1;
    w->depth--;
    return 0;
}

/* ---- numbers of tuples and packed arrays --------------------------------------------- */

static int put_number(writer *w, PyObject *x, unsigned elem, uint8_t *d)
{
    if (elem == SV_ELEM_F32 || elem == SV_ELEM_F64) {
        double v = PyFloat_AsDouble(x);
        if (v == -1.0 && PyErr_Occurred()) return -1;
        if (elem == SV_ELEM_F64) {
            memcpy(d, &v, 8);
            return 0;
        }
        uint32_t bits = 0; /* as in put_f32 */
        if (f32_of(w, v, &bits)) return -1;
        memcpy(d, &bits, 4);
        return 0;
    }
    PyObject *n = PyNumber_Long(x); /* int(x), as the ctypes path takes it */
    if (!n) return -1;
    int64_t i;
    uint64_t u;
    int is_u;
    int rc = whole(n, &i, &u, &is_u);
    Py_DECREF(n);
    if (rc) return -1;
    static const unsigned char size[SV_ELEM_COUNT] = {0, 1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
    int is_signed = elem == SV_ELEM_I8 || elem == SV_ELEM_I16 || elem == SV_ELEM_I32 ||
                    elem == SV_ELEM_I64;
    unsigned bits = 8u * size[elem];
    if (is_signed) {
        int64_t lim = bits == 64 ? INT64_MAX : ((int64_t)1 << (bits - 1)) - 1;
        if (is_u || i > lim || i < -lim - 1)
            return refuse(w, SV_ERR_RANGE, "a number out of the range of %s", sv_elem_name((sv_elem)elem));
        u = (uint64_t)i;
    } else {
        if (!is_u) {
            if (i < 0)
                return refuse(w, SV_ERR_RANGE, "a number out of the range of %s", sv_elem_name((sv_elem)elem));
            u = (uint64_t)i;
        }
        if (bits < 64 && (u >> bits))
            return refuse(w, SV_ERR_RANGE, "a number out of the range of %s", sv_elem_name((sv_elem)elem));
    }
    for (unsigned b = 0; b < bits / 8; b++) /* little-endian hosts: the scalar's bytes */
        d[b] = (uint8_t)(u >> (8 * b));
    return 0;
}

/* count numbers of o (a sequence) into d. */
static int put_numbers(writer *w, PyObject *o, unsigned elem, size_t count, uint8_t *d)
{
    PyObject *seq = as_items(o, "serval: numbers must be a sequence");
    if (!seq) return -1;
    size_t size = sv_elem_size((sv_elem)elem);
    for (size_t i = 0; i < count; i++) {
        PyObject *x = item_of(seq, (Py_ssize_t)i);
        int rc = x ? put_number(w, x, elem, d + i * size) : -1;
        Py_XDECREF(x);
        if (rc) {
            Py_DECREF(seq);
            return at_index(w, (Py_ssize_t)i);
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* The elem attribute of a tuple or packed array, as an element type. */
static int elem_of(writer *w, PyObject *o, unsigned *elem)
{
    PyObject *e = PyObject_GetAttr(o, nv.s_elem);
    if (!e) return -1;
    for (unsigned i = 1; i < SV_ELEM_COUNT; i++)
        if (e == nv.elem_names[i]) { /* the class's own "f32": the interned name */
            Py_DECREF(e);
            *elem = i;
            return 0;
        }
    Py_ssize_t len = 0;
    const char *s = PyUnicode_Check(e) ? PyUnicode_AsUTF8AndSize(e, &len) : NULL;
    *elem = s ? sv_elem_by_name(s, (size_t)len) : SV_ELEM_NONE;
    Py_DECREF(e);
    if (!s && PyErr_Occurred()) return -1;
    if (*elem == SV_ELEM_NONE) return refuse(w, SV_ERR_TYPE, "$elem names no element type");
    return 0;
}

static int put_tuple(writer *w, PyObject *o, const nv_class *c, sv_value *out)
{
    unsigned elem;
    if (elem_of(w, o, &elem)) return at_name(w, "$elem");
    unsigned k = sv_tag_scalars((sv_tag)c->tag);
    Py_ssize_t n = PyObject_Length(o);
    if (n < 0) return -1;
    if ((size_t)n != k)
        return refuse(w, SV_ERR_SYNTAX, "$%s takes %u numbers, not %zd", sv_tag_name((sv_tag)c->tag), k, n);
    *out = sv_tuple(w->doc, (sv_tag)c->tag, (sv_elem)elem, NULL);
    if (out->kind != SV_TUPLE) return nomem(w);
    return put_numbers(w, o, elem, k, (uint8_t *)sv_value_buf(out));
}

static int put_packed(writer *w, PyObject *o, unsigned tag, unsigned elem, sv_value *out)
{
    Py_ssize_t n = PyObject_Length(o);
    if (n < 0) return -1;
    unsigned k = tag ? sv_tag_scalars((sv_tag)tag) : 1;
    *out = sv_packed(w->doc, (sv_elem)elem, (sv_tag)tag, NULL, (size_t)n * k);
    if (out->kind != SV_PACKED) return nomem(w);
    uint8_t *d = (uint8_t *)sv_value_buf(out);
    if (!tag) return put_numbers(w, o, elem, (size_t)n, d);
    size_t size = sv_elem_size((sv_elem)elem);
    PyObject *seq = as_items(o, "serval: a packed array must be a sequence");
    if (!seq) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = item_of(seq, i);
        Py_ssize_t m = item ? PyObject_Length(item) : -1;
        int rc = -1;
        if (m >= 0 && (size_t)m != k)
            refuse(w, SV_ERR_SYNTAX, "an item of $%s takes %u numbers, not %zd",
                   sv_tag_name((sv_tag)tag), k, m);
        else if (m >= 0)
            rc = put_numbers(w, item, elem, k, d + (size_t)i * k * size);
        Py_XDECREF(item);
        if (rc) {
            Py_DECREF(seq);
            return at_index(w, i);
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* ---- dispatch --------------------------------------------------------------------------- */

static int put_wrapper(writer *w, PyObject *o, const nv_class *c, sv_value *out)
{
    switch (c->kind) {
    case NK_INT_W:
    case NK_UINT_W: return put_int_w(w, o, c, out);
    case NK_F32: {
        double d = PyFloat_AsDouble(o);
        if (d == -1.0 && PyErr_Occurred()) return -1;
        return put_f32(w, d, out);
    }
    case NK_F64: {
        double d = PyFloat_AsDouble(o);
        if (d == -1.0 && PyErr_Occurred()) return -1;
        *out = sv_with_flags(sv_f64(d), SV_F_EXPLICIT);
        return 0;
    }
    case NK_BOOL: {
        int64_t i;
        uint64_t u;
        int is_u;
        if (whole(o, &i, &u, &is_u)) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return -1;
            PyErr_Clear();
            return refuse(w, SV_ERR_RANGE, "$raw takes a uint32");
        }
        /* typed JSON's {"$bool": bool(v), "$raw": int(v)}: 0 is false */
        if (is_u || i < 0 || i > (int64_t)UINT32_MAX)
            return refuse(w, SV_ERR_RANGE, "$raw %lld is not a uint32", (long long)i);
        *out = i ? sv_bool_raw((uint32_t)i) : sv_bool(false);
        return 0;
    }
    case NK_UTF16: return put_utf16(w, o, out);
    case NK_STR: return put_bytes_like(w, o, 1, out);
    case NK_REF: {
        PyObject *v = PyObject_GetAttr(o, nv.s_value);
        if (!v) return -1;
        int rc = 0;
        if (v == Py_None) {
            *out = sv_ref_null();
        } else {
            PyObject *n = PyNumber_Long(v);
            int64_t i;
            uint64_t u;
            int is_u;
            rc = n ? whole(n, &i, &u, &is_u) : -1;
            Py_XDECREF(n);
            if (rc == 0 && !is_u && i < 0) rc = refuse(w, SV_ERR_RANGE, "a $ref is a uint64");
            if (rc == 0) *out = sv_ref(is_u ? u : (uint64_t)i);
        }
        Py_DECREF(v);
        return rc;
    }
    case NK_ARRAY:
        if (put_sequence(w, o, out)) return -1;
        return put_meta(w, o, out);
    case NK_DICT:
        if (put_dict(w, o, out)) return -1;
        return put_meta(w, o, out);
    case NK_MAP:
        if (enter(w) || put_pairs(w, o, 0, out, 0, sv_null())) return -1;
        w->depth--;
        return put_meta(w, o, out);
    case NK_OBJECT: return put_object(w, o, 0, out);
    case NK_OBJECT_PAIRS: return put_object(w, o, 1, out);
    case NK_TAGGED: {
        PyObject *v = PyObject_GetAttr(o, nv.s_value);
        if (!v) return -1;
        int rc = put(w, v, out);
        Py_DECREF(v);
        if (rc) return -1;
        sv_kind want = sv_tag_kind((sv_tag)c->tag);
        if (want != SV_KIND_COUNT && out->kind != want)
            return refuse(w, SV_ERR_TYPE, "$%s takes a %s, not a %s", sv_tag_name((sv_tag)c->tag),
                          sv_kind_name(want), sv_kind_name((sv_kind)out->kind));
        if (out->tag != SV_TAG_NONE)
            return refuse(w, SV_ERR_TYPE, "a value has one tag: $%s cannot wrap a $%s value",
                          sv_tag_name((sv_tag)c->tag), sv_tag_name((sv_tag)out->tag));
        *out = sv_with_tag(*out, (sv_tag)c->tag);
        return 0;
    }
    case NK_TUPLE: return put_tuple(w, o, c, out);
    case NK_PACKED: {
        unsigned elem;
        if (elem_of(w, o, &elem)) return at_name(w, "$elem");
        return put_packed(w, o, c->tag, elem, out);
    }
    case NK_NUMBERS: return put_packed(w, o, 0, c->elem, out);
    default: break;
    }
    PyErr_SetString(PyExc_TypeError, "serval: no tree form for this wrapper");
    return -1;
}

static int put_subclass(writer *w, PyObject *o, sv_value *out)
{
    /* subclasses of plain types made by the caller, taken as those types
     * (in the order the ctypes path tries them) */
    if (PyBool_Check(o)) {
        *out = sv_bool(o == Py_True);
        return 0;
    }
    if (PyLong_Check(o)) return put_int(w, o, out);
    if (PyFloat_Check(o)) {
        double d = PyFloat_AsDouble(o);
        *out = isfinite(d) ? sv_f64(d) : sv_with_flags(sv_f64(d), SV_F_EXPLICIT);
        return 0;
    }
    if (PyUnicode_Check(o)) return put_text(w, o, out);
    if (PyBytes_Check(o) || PyByteArray_Check(o)) return put_bytes_like(w, o, 0, out);
    if (PyDict_Check(o)) return put_dict(w, o, out);
    if (PyList_Check(o) || PyTuple_Check(o)) return put_sequence(w, o, out);
    PyObject *name = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__name__");
    PyErr_Format(PyExc_TypeError, "serval: cannot write a %U", name);
    Py_XDECREF(name);
    return -1;
}

static int put(writer *w, PyObject *o, sv_value *out)
{
    PyTypeObject *t = Py_TYPE(o);
    if (t == &PyUnicode_Type) return put_text(w, o, out);
    if (t == &PyLong_Type) return put_int(w, o, out);
    if (t == &PyFloat_Type) {
        double d = PyFloat_AsDouble(o);
        /* NaN and infinities: typed JSON's {"$f64": "nan"}, an explicit float64 */
        *out = isfinite(d) ? sv_f64(d) : sv_with_flags(sv_f64(d), SV_F_EXPLICIT);
        return 0;
    }
    if (t == &PyDict_Type) return put_dict(w, o, out);
    if (t == &PyList_Type || t == &PyTuple_Type) return put_sequence(w, o, out);
    if (o == Py_None) {
        *out = sv_null();
        return 0;
    }
    if (t == &PyBool_Type) {
        *out = sv_bool(o == Py_True);
        return 0;
    }
    if (t == &PyBytes_Type || t == &PyByteArray_Type) return put_bytes_like(w, o, 0, out);
    const nv_class *c = nv_class_of((PyObject *)t);
    if (c) return put_wrapper(w, o, c, out);
    return put_subclass(w, o, out);
}

/* "/a/0/b~1c": the pieces (innermost first) as a JSON Pointer. */
static PyObject *pointer(PyObject *pieces)
{
    PyObject *out = PyUnicode_FromString("");
    for (Py_ssize_t i = PyList_Size(pieces) - 1; out && i >= 0; i--) {
        PyObject *p = PyList_GetItem(pieces, i);
        PyObject *t1 = PyObject_CallMethod(p, "replace", "ss", "~", "~0");
        PyObject *t2 = t1 ? PyObject_CallMethod(t1, "replace", "ss", "/", "~1") : NULL;
        PyObject *next = t2 ? PyUnicode_FromFormat("%U/%U", out, t2) : NULL;
        Py_XDECREF(t1);
        Py_XDECREF(t2);
        Py_DECREF(out);
        out = next;
    }
    return out;
}

int nv_from_python(sv_doc *doc, PyObject *o, unsigned max_depth, uint64_t max_string,
                   sv_value *out)
{
    writer *w = (writer *)PyMem_Calloc(1, sizeof *w);
    if (!w) {
        PyErr_NoMemory();
        return -1;
    }
    w->doc = doc;
    w->max_depth = max_depth;
    w->max_string = max_string;
    w->path = PyList_New(0);
    int rc = w->path ? put(w, o, out) : -1;
    if (rc && w->status && !PyErr_Occurred()) {
        PyObject *p = pointer(w->path);
        const char *path = p ? PyUnicode_AsUTF8AndSize(p, NULL) : NULL;
        if (path) nv_raise_status(w->status, "python", path, "%s", w->message);
        Py_XDECREF(p);
    }
    for (size_t i = 0; i < KEY_SLOTS; i++)
        Py_XDECREF(w->keys[i].obj);
    Py_XDECREF(w->path);
    PyMem_Free(w);
    return rc;
}
