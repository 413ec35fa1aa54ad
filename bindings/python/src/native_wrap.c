/* The wrappers loads makes most often (I32, F32, F64, ...), made without
 * the class call.
 *
 * Calling a subclass of int or float (I32(5), F32(0.5)) parses its
 * arguments, makes a plain int or float, allocates the instance and copies
 * the plain one's body into it. The classes of serval/_types.py that
 * subclass int and float add no fields (__slots__ = ()), so an instance is
 * the base type's layout under another type: this file allocates it with
 * the class's own tp_alloc and copies the body of the plain value into it
 * itself, which is the copy the class call makes, without the argument
 * tuple and the parsing around it.
 *
 * The layout is the interpreter's, not the stable ABI's, so setup() checks
 * it on the running interpreter first: each class must have its base's
 * size and no __dict__, and for a set of values the instance made here
 * must equal, print and hash as the one the class call makes. If anything
 * differs, the class keeps the class call. Ints take this path only below
 * 2**30 in magnitude (one digit, on any CPython build whose digits hold 30
 * bits, checked too); others keep the class call. */
#include "native.h"

#include <string.h>

/* Per class: bytes after the object header to copy from a plain value
 * (0: the class call), and the items to allocate. */
static Py_ssize_t body_bytes[NV_CLASS_COUNT];
static Py_ssize_t alloc_items[NV_CLASS_COUNT];
/* Per class with a `value` slot: its offset (0: set the attribute). */
static Py_ssize_t value_at[NV_CLASS_COUNT];
static allocfunc allocs[NV_CLASS_COUNT];

static Py_ssize_t type_size(PyObject *type, const char *name)
{
    PyObject *n = PyObject_GetAttrString(type, name);
    Py_ssize_t v = n && PyLong_Check(n) ? PyLong_AsSsize_t(n) : -1;
    Py_XDECREF(n);
    if (v < 0) PyErr_Clear();
    return v;
}

/* An instance of class c with plain's body, or NULL with an exception. */
static PyObject *clone_into(unsigned c, PyObject *plain)
{
    PyObject *o = allocs[c]((PyTypeObject *)nv.classes[c].cls, alloc_items[c]);
    if (!o) return NULL;
    memcpy((char *)o + sizeof(PyObject), (const char *)plain + sizeof(PyObject),
           (size_t)body_bytes[c]);
    return o;
}

/* The class call cls(arg), taking arg's reference. */
static PyObject *call1(unsigned c, PyObject *arg)
{
    if (!arg) return NULL;
    PyObject *o = PyObject_CallFunctionObjArgs(nv.classes[c].cls, arg, NULL);
    Py_DECREF(arg);
    return o;
}

PyObject *nv_wrap_float(unsigned c, double d)
{
    /* a float's body is its double (PyFloatObject): written in place, with
     * no plain float made and freed for it; setup()'s probes come this way */
    if (body_bytes[c] == (Py_ssize_t)sizeof d) {
        PyObject *o = allocs[c]((PyTypeObject *)nv.classes[c].cls, alloc_items[c]);
        if (o) memcpy((char *)o + sizeof(PyObject), &d, sizeof d);
        return o;
    }
    PyObject *plain = PyFloat_FromDouble(d);
    if (!plain || !body_bytes[c]) return call1(c, plain);
    PyObject *o = clone_into(c, plain);
    Py_DECREF(plain);
    return o;
}

PyObject *nv_wrap_long(unsigned c, PyObject *plain)
{
    if (!plain || !body_bytes[c]) return call1(c, plain);
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(plain, &overflow);
    if (overflow || v >= (1LL << 30) || v <= -(1LL << 30)) return call1(c, plain);
    PyObject *o = clone_into(c, plain);
    Py_DECREF(plain);
    return o;
}

PyObject *nv_wrap_value(unsigned c, PyObject *inner)
{
    if (!inner) return NULL;
    if (!value_at[c]) {
        PyObject *o = PyObject_CallFunctionObjArgs(nv.classes[c].cls, inner, NULL);
        Py_DECREF(inner);
        return o;
    }
    PyObject *o = allocs[c]((PyTypeObject *)nv.classes[c].cls, 0);
    if (!o) {
        Py_DECREF(inner);
        return NULL;
    }
    memcpy((char *)o + value_at[c], &inner, sizeof inner); /* the reference moves in */
    return o;
}

/* Whether the instance made here and the class call agree on value v. */
static int agrees(unsigned c, PyObject *v)
{
    Py_INCREF(v);
    PyObject *slow = call1(c, v);
    PyObject *fast = PyFloat_Check(v) ? nv_wrap_float(c, PyFloat_AsDouble(v))
                                      : (Py_INCREF(v), nv_wrap_long(c, v));
    int ok = 0;
    if (slow && fast && Py_TYPE(fast) == Py_TYPE(slow) &&
        PyObject_RichCompareBool(fast, slow, Py_EQ) == 1 &&
        PyObject_RichCompareBool(fast, v, Py_EQ) == 1 &&
        PyObject_Hash(fast) == PyObject_Hash(slow)) {
        PyObject *r1 = PyObject_Repr(fast), *r2 = PyObject_Repr(slow);
        ok = r1 && r2 && PyUnicode_Compare(r1, r2) == 0;
        Py_XDECREF(r1);
        Py_XDECREF(r2);
    }
    Py_XDECREF(slow);
    Py_XDECREF(fast);
    PyErr_Clear();
    return ok;
}

/* Turns the path on for class c (a subclass of base) when the running
 * interpreter lays it out as this file expects. */
static void check_class(unsigned c, PyObject *base, Py_ssize_t items, PyObject *const *probes,
                        size_t n)
{
    PyObject *cls = nv.classes[c].cls;
    Py_ssize_t basic = type_size(base, "__basicsize__"), item = type_size(base, "__itemsize__");
    if (!cls || basic <= (Py_ssize_t)sizeof(PyObject) || item < 0) return;
    if (type_size(cls, "__basicsize__") != basic || type_size(cls, "__itemsize__") != item ||
        type_size(cls, "__dictoffset__") != 0 || type_size(cls, "__weakrefoffset__") != 0)
        return;
    if (!(allocs[c] = (allocfunc)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc))) return;
    body_bytes[c] = basic + items * item - (Py_ssize_t)sizeof(PyObject);
    alloc_items[c] = items;
    for (size_t i = 0; i < n; i++)
        if (!probes[i] || !agrees(c, probes[i])) {
            body_bytes[c] = 0;
            return;
        }
}

/* Whether value_at[c] makes the instance the class call makes of v. */
static int same_as_call(unsigned c, PyObject *v)
{
    Py_INCREF(v);
    PyObject *fast = nv_wrap_value(c, v);
    PyObject *slow = PyObject_CallFunctionObjArgs(nv.classes[c].cls, v, NULL);
    PyObject *back = fast ? PyObject_GetAttrString(fast, "value") : NULL;
    int ok = fast && slow && back == v && Py_TYPE(fast) == Py_TYPE(slow) &&
             PyObject_RichCompareBool(fast, slow, Py_EQ) == 1 &&
             PyObject_Hash(fast) == PyObject_Hash(slow);
    if (ok) {
        PyObject *r1 = PyObject_Repr(fast), *r2 = PyObject_Repr(slow);
        ok = r1 && r2 && PyUnicode_Compare(r1, r2) == 0;
        Py_XDECREF(r1);
        Py_XDECREF(r2);
    }
    Py_XDECREF(back);
    Py_XDECREF(fast);
    Py_XDECREF(slow);
    PyErr_Clear();
    return ok;
}

/* Finds the offset of class c's `value` slot on this interpreter. */
static void find_value_slot(unsigned c)
{
    PyObject *cls = nv.classes[c].cls;
    Py_ssize_t basic = type_size(cls, "__basicsize__");
    if (!cls || type_size(cls, "__itemsize__") != 0 || type_size(cls, "__dictoffset__") != 0 ||
        basic < (Py_ssize_t)(sizeof(PyObject) + sizeof(PyObject *)) ||
        !(allocs[c] = (allocfunc)PyType_GetSlot((PyTypeObject *)cls, Py_tp_alloc)))
        return;
    PyObject *marker = PyLong_FromLong(987654321); /* an object of its own, not a cached one */
    PyObject *o = marker ? PyObject_CallFunctionObjArgs(cls, marker, NULL) : NULL;
    Py_ssize_t found = 0, hits = 0;
    for (Py_ssize_t at = (Py_ssize_t)sizeof(PyObject);
         o && at + (Py_ssize_t)sizeof(PyObject *) <= basic; at += (Py_ssize_t)sizeof(PyObject *)) {
        PyObject *p;
        memcpy(&p, (char *)o + at, sizeof p);
        if (p == marker) {
            found = at;
            hits++;
        }
    }
    Py_XDECREF(o);
    PyErr_Clear();
    value_at[c] = hits == 1 ? found : 0;
    PyObject *probes[] = {marker, Py_None, PyUnicode_FromString("jump"), PyLong_FromLong(7)};
    for (size_t i = 0; i < sizeof probes / sizeof probes[0]; i++)
        if (value_at[c] && (!probes[i] || !same_as_call(c, probes[i]))) value_at[c] = 0;
    Py_XDECREF(probes[0]);
    Py_XDECREF(probes[2]);
    Py_XDECREF(probes[3]);
    PyErr_Clear();
}

void nv_wrap_setup(void)
{
    find_value_slot(NV_REF);
    for (unsigned c = NV_TAG0; c < NV_ELEM0; c++)
        if (nv.classes[c].cls && nv.classes[c].kind == NK_TAGGED) find_value_slot(c);
    static const long long ints[] = {0,
                                     1,
                                     -1,
                                     5,
                                     -5,
                                     127,
                                     -128,
                                     255,
                                     256,
                                     257,
                                     65535,
                                     -32768,
                                     1000003,
                                     (1LL << 29) + 7,
                                     (1LL << 30) - 1,
                                     -(1LL << 30) + 1};
    static const double floats[] = {0.0, -0.0, 1.5, -2.25, 0.1, 1e300, 3.4028234663852886e38};
    enum { NI = sizeof ints / sizeof ints[0], NF = sizeof floats / sizeof floats[0] };
    PyObject *probes[NI > NF ? NI : NF];
    /* one 30-bit digit per int below 2**30: the item count allocated */
    PyObject *info = PyObject_GetAttrString(PyImport_AddModule("sys"), "int_info");
    PyObject *bits = info ? PyObject_GetAttrString(info, "bits_per_digit") : NULL;
    int digits30 = bits && PyLong_Check(bits) && PyLong_AsLong(bits) == 30;
    Py_XDECREF(bits);
    Py_XDECREF(info);
    PyErr_Clear();
    if (digits30) {
        for (size_t i = 0; i < NI; i++) probes[i] = PyLong_FromLongLong(ints[i]);
        for (unsigned c = NV_I8; c <= NV_U64; c++)
            check_class(c, (PyObject *)&PyLong_Type, 1, probes, NI);
        for (size_t i = 0; i < NI; i++) Py_XDECREF(probes[i]);
    }
    for (size_t i = 0; i < NF; i++) probes[i] = PyFloat_FromDouble(floats[i]);
    check_class(NV_F32, (PyObject *)&PyFloat_Type, 0, probes, NF);
    check_class(NV_F64, (PyObject *)&PyFloat_Type, 0, probes, NF);
    for (size_t i = 0; i < NF; i++) Py_XDECREF(probes[i]);
    PyErr_Clear();
}

int nv_wrap_fast(unsigned c)
{
    return c < NV_CLASS_COUNT && (body_bytes[c] != 0 || value_at[c] != 0);
}
