/* loads without a tree: the events of sv_visit_decode (serval/visit.h)
 * made into Python objects as they come.
 *
 * Values other than Arrays and Dictionaries come as the sv_value the tree
 * would hold and go through the tree converter's own code (nv_reader_value,
 * native_to_py.c), so they become the very objects nv_to_python makes. An
 * Array becomes a list; a Dictionary a dict, as nv_to_python makes it when
 * every key is an untagged UTF-8 string and none repeats. Any other
 * Dictionary is declined, and the caller reads the input into a tree. */
#include "native.h"

#include <string.h>

#include "serval/visit.h"

typedef struct frame {
    PyObject *obj;   /* list or dict */
    PyObject *key;   /* a dict's pending key (strong), or NULL */
    uint32_t count;  /* items the container declared, or SV_VISIT_COUNT_UNKNOWN */
    uint32_t at;     /* items placed so far */
    int map;
} frame;

typedef struct builder {
    nv_reader *r;    /* made at the first value: a declined input needs none */
    frame *stack;    /* grown as the nesting deepens */
    unsigned depth;  /* frames in use */
    unsigned cap;    /* frames allocated */
    PyObject *root;
    int failed;      /* a Python exception is set */
    int by_address;  /* for nv_reader_new */
} builder;

/* Puts o (taking its reference) where the next item of the innermost
 * container goes, or makes it the root. */
static int place(builder *b, PyObject *o)
{
    if (!o) {
        b->failed = 1;
        return -1;
    }
    if (!b->depth) {
        b->root = o;
        return 0;
    }
    frame *f = &b->stack[b->depth - 1];
    if (f->count != SV_VISIT_COUNT_UNKNOWN && f->at >= f->count) {
        Py_DECREF(o); /* more items than declared: never from the decoder */
        return -1;
    }
    if (!f->map) {
        if (f->count != SV_VISIT_COUNT_UNKNOWN) {
            PyList_SetItem(f->obj, (Py_ssize_t)f->at++, o);
            return 0;
        }
        int rc = PyList_Append(f->obj, o);
        Py_DECREF(o);
        f->at++;
        if (rc < 0) b->failed = 1;
        return rc;
    }
    int rc = PyDict_SetItem(f->obj, f->key, o);
    Py_DECREF(o);
    Py_CLEAR(f->key);
    f->at++;
    if (rc < 0) b->failed = 1;
    return rc;
}

static int begin(builder *b, PyObject *obj, uint32_t count, int map)
{
    if (!obj) {
        b->failed = 1;
        return -1;
    }
    if (b->depth >= SV_MAX_DEPTH_LIMIT) { /* nv_to_python's own limit: its error */
        Py_DECREF(obj);
        return -1;
    }
    if (b->depth == b->cap) {
        unsigned cap = b->cap ? 2 * b->cap : 16;
        frame *grown = (frame *)PyMem_Realloc(b->stack, cap * sizeof *grown);
        if (!grown) {
            Py_DECREF(obj);
            PyErr_NoMemory();
            b->failed = 1;
            return -1;
        }
        b->stack = grown;
        b->cap = cap;
    }
    frame *f = &b->stack[b->depth++];
    f->obj = obj;
    f->key = NULL;
    f->count = count;
    f->at = 0;
    f->map = map;
    return 0;
}

static int on_array(void *ctx, uint32_t count)
{
    Py_ssize_t n = count == SV_VISIT_COUNT_UNKNOWN ? 0 : (Py_ssize_t)count;
    return begin((builder *)ctx, PyList_New(n), count, 0);
}

static int on_map(void *ctx, uint32_t count)
{
    return begin((builder *)ctx, PyDict_New(), count, 1);
}

static int on_value(void *ctx, const sv_value *v, bool key)
{
    builder *b = (builder *)ctx;
    if (!b->r && !(b->r = nv_reader_new(b->by_address))) {
        b->failed = 1;
        return -1;
    }
    if (key) {
        frame *f = b->depth ? &b->stack[b->depth - 1] : NULL;
        if (!f || !f->map || f->key) return -1;
        f->key = nv_reader_key(b->r, v);
        if (!f->key && PyErr_Occurred()) b->failed = 1;
        return f->key ? 0 : -1;
    }
    return place(b, nv_reader_value(b->r, v, b->depth));
}

static int on_end(void *ctx)
{
    builder *b = (builder *)ctx;
    if (!b->depth) return -1;
    frame *f = &b->stack[--b->depth];
    PyObject *obj = f->obj;
    f->obj = NULL;
    Py_CLEAR(f->key);
    /* a key twice: the tree's Dictionary is a Map of pairs, not a dict */
    if ((f->count != SV_VISIT_COUNT_UNKNOWN && f->at != f->count) ||
        (f->map && PyDict_Size(obj) != (Py_ssize_t)f->at)) {
        Py_DECREF(obj);
        return -1;
    }
    return place(b, obj);
}

PyObject *nv_stream_loads(const sv_format *f, const uint8_t *data, size_t len,
                          const sv_options *opts, int *declined)
{
    *declined = 0;
    builder b = {0};
    /* bson's strings point into the input, each at its own address */
    b.by_address = strcmp(f->name, "bson") != 0;
    PyObject *out = NULL;
    sv_visitor vis = {&b, on_array, on_map, on_value, on_end};
    sv_status st = sv_visit_decode(f, data, len, opts, &vis);
    if (st == SV_OK && b.root && !b.depth) {
        out = b.root;
        b.root = NULL;
    } else if (!b.failed) {
        *declined = 1;
    }
    while (b.depth) {
        frame *fr = &b.stack[--b.depth];
        Py_XDECREF(fr->obj);
        Py_XDECREF(fr->key);
    }
    Py_XDECREF(b.root);
    PyMem_Free(b.stack);
    nv_reader_free(b.r);
    if (!out && !*declined && !PyErr_Occurred()) *declined = 1;
    return out;
}
