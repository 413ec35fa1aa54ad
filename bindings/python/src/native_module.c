/* serval._native: the module, its two calls and the errors they raise.
 *
 *   setup(classes, make_error)         once, from serval/__init__.py
 *   loads(data, format, options_addr[, path])  -> the decoded value
 *   dumps(value, format, options_addr, lossy) -> (bytes, [(pointer, message), ...])
 *
 * options_addr is the address of an sv_options that serval/_options.py has
 * checked and keeps alive for the call. dumps hands the tree it builds to
 * sv_convert_encode, the call `serval conv` makes, so a value the format
 * cannot hold is refused, or lowered with lossy, exactly as there; the
 * lowered values come back for the caller to warn about. */
#include "native.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "serval/buf.h"

nv_state nv;

static const char *const fixed_names[NV_TAG0] = {
    "I8", "I16", "I32", "I64", "U8", "U16", "U32", "U64", "F32", "F64", "Bool",
    "UTF16", "Str", "Array", "Dict", "Map", "Object", "ObjectPairs", "Ref",
};

/* By tag, as serval/_types.py names them. A tag without a row has no class:
 * loads refuses a value with it (naming the tag) rather than guess. */
static const char *const tag_names[SV_TAG_COUNT] = {
    [SV_TAG_VECTOR2] = "Vector2", [SV_TAG_VECTOR2I] = "Vector2i", [SV_TAG_RECT2] = "Rect2",
    [SV_TAG_RECT2I] = "Rect2i", [SV_TAG_VECTOR3] = "Vector3", [SV_TAG_VECTOR3I] = "Vector3i",
    [SV_TAG_TRANSFORM2D] = "Transform2D", [SV_TAG_VECTOR4] = "Vector4",
    [SV_TAG_VECTOR4I] = "Vector4i", [SV_TAG_PLANE] = "Plane", [SV_TAG_QUATERNION] = "Quaternion",
    [SV_TAG_AABB] = "AABB", [SV_TAG_BASIS] = "Basis", [SV_TAG_TRANSFORM3D] = "Transform3D",
    [SV_TAG_PROJECTION] = "Projection", [SV_TAG_COLOR] = "Color",
    [SV_TAG_MATRIX3X3] = "Matrix3x3", [SV_TAG_MATRIX3X4] = "Matrix3x4",
    [SV_TAG_MATRIX4X4] = "Matrix4x4", [SV_TAG_EULER] = "Euler",
    [SV_TAG_PACKED_VECTOR2] = "PackedVector2", [SV_TAG_PACKED_VECTOR3] = "PackedVector3",
    [SV_TAG_PACKED_COLOR] = "PackedColor", [SV_TAG_PACKED_VECTOR4] = "PackedVector4",
    [SV_TAG_STRING_NAME] = "StringName", [SV_TAG_NODE_PATH] = "NodePath", [SV_TAG_RID] = "RID",
    [SV_TAG_CALLABLE] = "Callable", [SV_TAG_SIGNAL] = "Signal", [SV_TAG_OBJECT_ID] = "ObjectID",
    [SV_TAG_DATETIME] = "DateTime", [SV_TAG_OBJECTID] = "BsonObjectId", [SV_TAG_REGEX] = "Regex",
    [SV_TAG_TIMESTAMP] = "Timestamp", [SV_TAG_DECIMAL128] = "Decimal128",
    [SV_TAG_MINKEY] = "MinKey", [SV_TAG_MAXKEY] = "MaxKey", [SV_TAG_UUID] = "UUID",
    [SV_TAG_ENUM] = "Enum", [SV_TAG_URL] = "URL", [SV_TAG_CHAR] = "Char",
    [SV_TAG_TRANSFORM] = "Transform", [SV_TAG_COLOR_ARGB] = "ColorARGB",
    [SV_TAG_EXT_RESOURCE] = "ExtResource", [SV_TAG_SUB_RESOURCE] = "SubResource",
};

static const char *const elem_classes[SV_ELEM_COUNT] = {
    [SV_ELEM_U8] = "U8s", [SV_ELEM_I8] = "I8s", [SV_ELEM_U16] = "U16s", [SV_ELEM_I16] = "I16s",
    [SV_ELEM_U32] = "U32s", [SV_ELEM_I32] = "I32s", [SV_ELEM_U64] = "U64s", [SV_ELEM_I64] = "I64s",
    [SV_ELEM_F32] = "F32s", [SV_ELEM_F64] = "F64s",
};

const char *nv_class_name(unsigned i)
{
    if (i < NV_TAG0) return fixed_names[i];
    if (i < NV_ELEM0) return tag_names[i - NV_TAG0];
    if (i < NV_CLASS_COUNT) return elem_classes[i - NV_ELEM0];
    return NULL;
}

/* What dumps does with an instance of class i. */
static void describe(nv_class *c, unsigned i)
{
    static const unsigned char widths[8] = {1, 2, 4, 8, 1, 2, 4, 8};
    static const unsigned char fixed_kinds[NV_TAG0] = {
        NK_INT_W, NK_INT_W, NK_INT_W, NK_INT_W, NK_UINT_W, NK_UINT_W, NK_UINT_W, NK_UINT_W,
        NK_F32, NK_F64, NK_BOOL, NK_UTF16, NK_STR, NK_ARRAY, NK_DICT, NK_MAP, NK_OBJECT,
        NK_OBJECT_PAIRS, NK_REF,
    };
    if (i < NV_TAG0) {
        c->kind = fixed_kinds[i];
        if (i <= NV_U64) c->width = widths[i];
    } else if (i < NV_ELEM0) {
        sv_tag t = (sv_tag)(i - NV_TAG0);
        sv_kind k = sv_tag_kind(t);
        c->kind = k == SV_TUPLE ? NK_TUPLE : k == SV_PACKED ? NK_PACKED : NK_TAGGED;
        c->tag = (unsigned short)t;
    } else {
        c->kind = NK_NUMBERS;
        c->elem = (unsigned char)(i - NV_ELEM0);
    }
}

/* A small open table from class to entry: dumps asks it for every value
 * that is not a plain Python type. */
#define NV_CLASS_SLOTS 256
static const nv_class *class_slots[NV_CLASS_SLOTS];

static size_t class_home(PyObject *type)
{
    return (size_t)(((uintptr_t)type >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 56) &
           (NV_CLASS_SLOTS - 1);
}

const nv_class *nv_class_of(PyObject *type)
{
    for (size_t at = class_home(type);; at = (at + 1) & (NV_CLASS_SLOTS - 1)) {
        const nv_class *c = class_slots[at];
        if (!c) return NULL;
        if (c->cls == type) return c;
    }
}

static PyObject *setup(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *classes, *make_error;
    if (!PyArg_ParseTuple(args, "OO", &classes, &make_error)) return NULL;
    if (!PyDict_Check(classes) || !PyCallable_Check(make_error)) {
        PyErr_SetString(PyExc_TypeError, "setup(classes: dict, make_error: callable)");
        return NULL;
    }
    if (nv.ready) Py_RETURN_NONE;
    for (unsigned i = 0; i < NV_CLASS_COUNT; i++) {
        const char *name = nv_class_name(i);
        if (!name) continue;
        PyObject *cls = PyDict_GetItemString(classes, name); /* borrowed */
        if (!cls) {
            PyErr_Format(PyExc_ImportError, "serval._native: the module has no class %s", name);
            return NULL;
        }
        Py_INCREF(cls);
        nv.classes[i].cls = cls;
        describe(&nv.classes[i], i);
        size_t at = class_home(cls);
        while (class_slots[at]) at = (at + 1) & (NV_CLASS_SLOTS - 1);
        class_slots[at] = &nv.classes[i];
    }
    Py_INCREF(make_error);
    nv.make_error = make_error;
    nv.s_meta = PyUnicode_InternFromString("meta");
    nv.s_elem = PyUnicode_InternFromString("elem");
    nv.s_cls = PyUnicode_InternFromString("cls");
    nv.s_value = PyUnicode_InternFromString("value");
    for (unsigned e = 1; e < SV_ELEM_COUNT; e++)
        nv.elem_names[e] = PyUnicode_InternFromString(sv_elem_name((sv_elem)e));
    if (!nv.s_meta || !nv.s_elem || !nv.s_cls || !nv.s_value) return NULL;
    nv.ready = 1;
    nv_wrap_setup();
    Py_RETURN_NONE;
}

/* ---- errors ------------------------------------------------------------------- */

static PyObject *raise_fields(const char *status, const char *message, const char *format,
                              unsigned long long offset, int bit, const char *path,
                              const char *text)
{
    PyObject *exc = PyObject_CallFunction(nv.make_error, "sssKiss", status, message, format,
                                          offset, bit, path, text);
    if (!exc) return NULL;
    PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
    Py_DECREF(exc);
    return NULL;
}

PyObject *nv_raise(const sv_error *err)
{
    char text[1024];
    sv_error_format(err, text, sizeof text);
    const char *status = sv_status_name(err->status);
    char number[32];
    if (!status) {
        snprintf(number, sizeof number, "%d", (int)err->status);
        status = number;
    }
    return raise_fields(status, err->message, err->format ? err->format : "",
                        (unsigned long long)err->byte_offset, err->bit_offset, err->path, text);
}

PyObject *nv_raise_status(sv_status st, const char *format, const char *path, const char *fmt, ...)
{
    sv_error err;
    sv_error_clear(&err);
    va_list ap;
    va_start(ap, fmt);
    sv_status set = sv_error_vset(&err, st, format, SV_ERROR_NO_OFFSET, -1, fmt, ap);
    (void)set;
    va_end(ap);
    if (path) snprintf(err.path, sizeof err.path, "%s", path);
    return nv_raise(&err);
}

/* ---- the collector ------------------------------------------------------------- */

/* PyGC_Disable and PyGC_Enable (3.10's C API, in the stable ABI): what
 * gc.disable() and gc.enable() do, without a call through Python. */
int nv_gc_pause(void)
{
    return PyGC_Disable();
}

void nv_gc_resume(int was_on)
{
    if (was_on == 1) PyGC_Enable();
}

/* ---- loads and dumps ------------------------------------------------------------------ */

static const sv_format *find_format(const char *name)
{
    const sv_format *f = sv_format_find(name);
    if (!f) nv_raise_status(SV_ERR_NOT_FOUND, "", "", "no format named '%s'", name);
    return f;
}

static int ready(void)
{
    if (nv.ready) return 1;
    PyErr_SetString(PyExc_RuntimeError, "serval._native: setup() was not called");
    return 0;
}

/* loads' optional last argument: which path (the tests compare them). Any
 * takes the first that does not decline of: direct (godot3, godot4 and bson
 * read here, native_godot.c and native_bson.c), stream (sv_visit_decode),
 * tree. Direct and stream alone give NotImplemented where they decline. */
enum { LOADS_ANY = 0, LOADS_TREE = 1, LOADS_STREAM = 2, LOADS_DIRECT = 3 };

static PyObject *loads(PyObject *self, PyObject *args)
{
    (void)self;
    const char *data, *name;
    Py_ssize_t len;
    unsigned long long opts_addr;
    int path = LOADS_ANY;
    if (!PyArg_ParseTuple(args, "y#sK|i", &data, &len, &name, &opts_addr, &path) || !ready())
        return NULL;
    const sv_options *opts = (const sv_options *)(uintptr_t)opts_addr;
    const sv_format *f = find_format(name);
    if (!f) return NULL;
    if (!f->decode)
        return nv_raise_status(SV_ERR_USAGE, "", "", "format %s cannot be read", name);
    int godot4 = !strcmp(f->name, "godot4");
    int bson = !strcmp(f->name, "bson");
    if ((path == LOADS_ANY || path == LOADS_DIRECT) &&
        (bson || godot4 || !strcmp(f->name, "godot3"))) {
        int gc_was = nv_gc_pause();
        if (gc_was < 0) return NULL;
        int declined = 0;
        PyObject *out =
            bson ? nv_bson_loads((const uint8_t *)data, (size_t)len, opts, &declined)
                 : nv_godot_loads(godot4, (const uint8_t *)data, (size_t)len, opts, &declined);
        nv_gc_resume(gc_was);
        if (out || !declined) return out;
    }
    if (path == LOADS_DIRECT) Py_RETURN_NOTIMPLEMENTED;
    if (path != LOADS_TREE) {
        /* straight from the bytes where the format streams the input; what
         * it declines (and every error) is read into a tree below */
        int gc_was = nv_gc_pause();
        if (gc_was < 0) return NULL;
        int declined = 0;
        PyObject *out = nv_stream_loads(f, (const uint8_t *)data, (size_t)len, opts, &declined);
        nv_gc_resume(gc_was);
        if (out || !declined) return out;
        if (path == LOADS_STREAM) Py_RETURN_NOTIMPLEMENTED;
    }
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return PyErr_NoMemory();
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    PyObject *out = NULL;
    sv_status st;
    Py_BEGIN_ALLOW_THREADS
    st = f->decode(doc, (const uint8_t *)data, (size_t)len, opts, &root, &err);
    Py_END_ALLOW_THREADS
    if (st) {
        nv_raise(&err);
    } else {
        /* the objects made form a tree, never a cycle: the collector would
         * only walk the growing tree again and again */
        int gc_was = nv_gc_pause();
        if (gc_was >= 0) {
            out = nv_to_python(&root);
            nv_gc_resume(gc_was);
        }
    }
    sv_doc_free(doc);
    return out;
}

typedef struct lowered {
    PyObject *list;
    int failed;
} lowered;

static void report(void *ctx, const sv_convert_change *ch)
{
    lowered *l = (lowered *)ctx;
    if (ch->refused || l->failed) return;
    PyObject *t = Py_BuildValue("(ss)", ch->pointer ? ch->pointer : "",
                                ch->message ? ch->message : "");
    if (!t || PyList_Append(l->list, t) < 0) {
        l->failed = 1;
        PyErr_Clear();
    }
    Py_XDECREF(t);
}

/* dumps' tree document, kept between calls: sv_doc_reset hands its chunks
 * (up to SCRATCH_KEEP bytes) to the next call, which then writes into
 * memory it has touched before instead of faulting in fresh pages (a
 * quarter of a large dumps' time was the kernel zeroing them). Taken by one
 * call at a time: a call that finds it taken (another thread, while this
 * one has let go of the GIL) makes a document of its own. */
#define SCRATCH_KEEP (UINT64_C(64) << 20)
static sv_doc *scratch_doc;

static sv_doc *doc_take(void)
{
    sv_doc *doc = scratch_doc;
    scratch_doc = NULL;
    if (doc) return doc;
    doc = sv_doc_new(NULL);
    if (doc && sv_doc_set_reset_keep(doc, SCRATCH_KEEP) != SV_OK) {
        sv_doc_free(doc);
        doc = NULL;
    }
    return doc;
}

static void doc_give_back(sv_doc *doc)
{
    if (scratch_doc) {
        sv_doc_free(doc);
        return;
    }
    sv_doc_reset(doc);
    scratch_doc = doc;
}

/* The output buffer likewise: its room (up to SCRATCH_KEEP bytes) is kept
 * for the next call, emptied. */
static sv_buf scratch_buf;
static int scratch_buf_held;

static void buf_take(sv_buf *b)
{
    if (scratch_buf_held) {
        *b = scratch_buf;
        scratch_buf_held = 0;
        b->len = 0;
        return;
    }
    sv_buf_init(b, NULL);
}

static void buf_give_back(sv_buf *b)
{
    if (scratch_buf_held || b->failed || b->cap > SCRATCH_KEEP) {
        sv_buf_free(b);
        return;
    }
    scratch_buf = *b;
    scratch_buf.len = 0;
    scratch_buf_held = 1;
}

static PyObject *dumps(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *value;
    const char *name;
    unsigned long long opts_addr;
    int lossy;
    if (!PyArg_ParseTuple(args, "OsKp", &value, &name, &opts_addr, &lossy) || !ready())
        return NULL;
    const sv_options *opts = (const sv_options *)(uintptr_t)opts_addr;
    const sv_format *f = find_format(name);
    if (!f) return NULL;
    if (!f->encode)
        return nv_raise_status(SV_ERR_USAGE, "", "", "format %s cannot be written", name);
    sv_limits lim = sv_limits_resolve(&opts->limits);
    sv_doc *doc = doc_take();
    if (!doc) return PyErr_NoMemory();
    sv_doc_set_max_alloc(doc, opts->limits.max_alloc);
    PyObject *result = NULL;
    lowered changes = {PyList_New(0), 0};
    sv_buf buf;
    buf_take(&buf);
    sv_value root;
    int gc_was = changes.list ? nv_gc_pause() : -1;
    if (gc_was >= 0) {
        unsigned depth = lim.max_depth > SV_MAX_DEPTH_LIMIT ? SV_MAX_DEPTH_LIMIT : lim.max_depth;
        int rc = nv_from_python(doc, value, depth, lim.max_string, &root);
        nv_gc_resume(gc_was);
        if (rc == 0) {
            sv_convert_opts co;
            sv_convert_opts_init(&co);
            co.lossy = lossy != 0;
            co.format_options = opts;
            if (lossy) {
                co.report = report;
                co.report_ctx = &changes;
            }
            sv_error err;
            sv_error_clear(&err);
            sv_status st;
            if (lossy) { /* report() makes Python objects: it needs the GIL */
                st = sv_convert_encode(NULL, f, &root, &co, &buf, NULL, &err);
            } else {
                Py_BEGIN_ALLOW_THREADS
                st = sv_convert_encode(NULL, f, &root, &co, &buf, NULL, &err);
                Py_END_ALLOW_THREADS
            }
            if (st)
                nv_raise(&err);
            else if (changes.failed)
                PyErr_NoMemory();
            else
                result = Py_BuildValue("(y#O)", buf.data ? (const char *)buf.data : "",
                                       (Py_ssize_t)buf.len, changes.list);
        }
    }
    buf_give_back(&buf);
    doc_give_back(doc);
    Py_XDECREF(changes.list);
    return result;
}

/* The names of the classes loads makes without the class call
 * (native_wrap.c), for the tests that compare both ways of making them. */
static PyObject *fast_wrappers(PyObject *self, PyObject *args)
{
    (void)self;
    (void)args;
    PyObject *out = PyList_New(0);
    for (unsigned i = 0; out && i < NV_CLASS_COUNT; i++) {
        if (!nv_wrap_fast(i)) continue;
        PyObject *name = PyUnicode_FromString(nv_class_name(i));
        if (!name || PyList_Append(out, name) < 0) Py_CLEAR(out);
        Py_XDECREF(name);
    }
    return out;
}

static PyMethodDef methods[] = {
    {"fast_wrappers", fast_wrappers, METH_NOARGS,
     "fast_wrappers() -> the wrapper class names loads makes without calling the class"},
    {"setup", setup, METH_VARARGS, "setup(classes, make_error): the wrapper classes and Error"},
    {"loads", loads, METH_VARARGS,
     "loads(data, format, options_address[, path]) -> value; path 0: straight from the bytes "
     "where the format allows, else through a tree; 1: through a tree; 2: straight from the "
     "bytes, NotImplemented where the format declines"},
    {"dumps", dumps, METH_VARARGS,
     "dumps(value, format, options_address, lossy) -> (bytes, [(pointer, message)])"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "serval._native",
    "libserval's value tree to Python objects and back, for serval.loads and serval.dumps",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void);
PyMODINIT_FUNC PyInit__native(void)
{
    return PyModule_Create(&module);
}
