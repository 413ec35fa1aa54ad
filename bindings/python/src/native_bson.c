/* loads of bson read here, straight from the bytes into Python objects.
 *
 * The streaming path (native_stream.c) reads each key and element with the
 * library's reader and hands it over through a callback; for the small
 * documents a collection is made of, that costs about as much as making
 * the Python objects. So the common element types are read here: double,
 * string, embedded document, array, ObjectId, bool, UTC datetime, null,
 * int32 and int64, in one document or a stream of them (the framing of
 * bson_format.c: a first length shorter than the input starts a stream,
 * read as a list of the documents). Each scalar is made by the tree
 * converter's own code (nv_reader_value and the pieces of it in native.h)
 * from the sv_value the library's reader makes of the same bytes, with the
 * same rules for width and explicitness, so the objects are the ones the
 * tree gives.
 *
 * Anything else declines the whole input, which then goes to the streaming
 * path and the tree: other element types, an array key that is not its
 * index, a key twice, text that is not UTF-8, a bool stored as neither 0
 * nor 1, any length or terminator the reader would refuse, any limit
 * reached, bytes after the document, and any option other than the limits.
 * Declining is never an error: the paths behind give the value or the
 * error with its offset and path. */
#include "native.h"
#include "native_keys.h"

#include <string.h>

/* BSON element types read here (bsonspec.org 1.1) */
enum {
    T_DOUBLE = 0x01,
    T_STRING = 0x02,
    T_DOCUMENT = 0x03,
    T_ARRAY = 0x04,
    T_OBJECTID = 0x07,
    T_BOOL = 0x08,
    T_DATETIME = 0x09,
    T_NULL = 0x0A,
    T_INT32 = 0x10,
    T_INT64 = 0x12
};

/* the library reader's own bound on nesting, whatever the limits say */
#define NESTING_MAX 2048u

typedef struct reader {
    const uint8_t *end; /* the input's end: loads up to it are in bounds */
    nv_reader *conv;
    uint32_t max_depth;
    uint64_t max_string;
    int declined;      /* set with no exception: the input is for the paths behind */
    nv_key_cache keys; /* keys by their bytes (native_keys.h) */
} reader;

static PyObject *decline(reader *g)
{
    g->declined = 1;
    return NULL;
}

/* Bit 7 of each byte of v that is 0 (exact for the lowest such byte). */
static uint64_t zero_bytes(uint64_t v)
{
    return (v - UINT64_C(0x0101010101010101)) & ~v & UINT64_C(0x8080808080808080);
}

static uint64_t keep_bytes(uint64_t x, size_t have)
{
    return have >= 8 ? x : x & ((UINT64_C(1) << (8 * have)) - 1);
}

/* The key at *q, which must end (00) before last, as an interned str; *q
 * moved past its 00. at: the key's place in its document. */
static PyObject *key(reader *g, const uint8_t **qp, const uint8_t *last, uint32_t at)
{
    const uint8_t *q = *qp;
    uint64_t w[3] = {0, 0, 0};
    size_t n = NV_KEY_MAX + 1;
    if (NV_LITTLE_ENDIAN && g->end - q >= 24) {
        /* the 00 and the words of a short key in three loads: the bytes
         * past the document's end are input too, and a 00 at or past last
         * is refused below */
        for (unsigned i = 0; i < 3; i++) {
            uint64_t x = nv_load64le(q + 8 * i), z = zero_bytes(x);
            if (z) {
                n = 8 * i + ((size_t)__builtin_ctzll(z) >> 3);
                w[i] = keep_bytes(x, n - 8 * i);
                break;
            }
            w[i] = x;
        }
    }
    if (n > NV_KEY_MAX) {
        const uint8_t *z = memchr(q, 0, (size_t)(last - q));
        if (!z) return decline(g);
        n = (size_t)(z - q);
        memset(w, 0, sizeof w);
        if (n <= NV_KEY_MAX) memcpy(w, q, n);
    }
    if (q + n >= last) return decline(g); /* runs into the document's own 00 */
    *qp = q + n + 1;
    nv_key_slot *k = NULL;
    if (n <= NV_KEY_MAX) {
        PyObject *hit = nv_key_cache_get(&g->keys, w, (uint32_t)n, at, &k);
        if (hit) return hit;
    }
    /* a hit is text checked when it was cached: the same bytes */
    PyObject *o = PyUnicode_DecodeUTF8((const char *)q, (Py_ssize_t)n, NULL);
    if (!o) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return NULL;
        PyErr_Clear();
        return decline(g);
    }
    PyUnicode_InternInPlace(&o);
    if (k) nv_key_cache_put(k, w, (uint32_t)n, o);
    return o;
}

/* A string element (int32 length with its 00, the bytes, 00) at *q within
 * last, as bson_read.c's read_string_bytes checks it. */
static PyObject *string(reader *g, const uint8_t **qp, const uint8_t *last)
{
    const uint8_t *q = *qp;
    if (last - q < 4) return decline(g);
    uint32_t len = nv_load32le(q);
    if (len == 0 || len > INT32_MAX || (size_t)(last - q - 4) < len || len - 1 > g->max_string ||
        q[4 + len - 1] != 0)
        return decline(g);
    const char *s = (const char *)q + 4;
    uint32_t n = len - 1;
    *qp = q + 4 + len;
    PyObject *o;
    if (NV_LITTLE_ENDIAN && n <= 8 && g->end - (const uint8_t *)s >= 8) {
        /* the word the converter keys short texts by, in one load (the
         * bytes after the text are input too) */
        o = nv_reader_short_text(g->conv, s, n, keep_bytes(nv_load64le((const uint8_t *)s), n));
    } else {
        o = nv_reader_text(g->conv, s, n);
    }
    /* NULL without an exception: not UTF-8, the reader's error */
    return o || PyErr_Occurred() ? o : decline(g);
}

/* The 24 lower-case hex digits of an ObjectId, as the reader keeps it. */
static PyObject *object_id(reader *g, const uint8_t *q, unsigned depth)
{
    /* the two digits of each byte value, made once: one load and one store
     * a byte rather than two of each */
    static char pairs[256][2];
    if (!pairs[255][0])
        for (unsigned b = 0; b < 256; b++) {
            pairs[b][0] = "0123456789abcdef"[b >> 4];
            pairs[b][1] = "0123456789abcdef"[b & 15];
        }
    char text[25];
    for (unsigned i = 0; i < 12; i++) memcpy(text + 2 * i, pairs[q[i]], 2);
    text[24] = 0;
    sv_value v;
    memset(&v, 0, sizeof v);
    v.kind = SV_STRING;
    v.tag = SV_TAG_OBJECTID;
    v.len = 24;
    v.as.str = text;
    return nv_reader_value(g->conv, &v, depth);
}

/* Whether a double holds a whole number (or -0.0), NaN or an infinity: the
 * reader marks those explicit (bson_read.c's whole_double). */
static int whole_double(uint64_t u)
{
    unsigned exp = (unsigned)(u >> 52) & 0x7FF;
    if (exp == 0x7FF) return 1;
    if (exp >= 1023 + 52) return 1;
    if (exp < 1023) return (u << 1) == 0;
    return (u & ((UINT64_C(1) << (1075 - exp)) - 1)) == 0;
}

static PyObject *document(reader *g, const uint8_t *p, const uint8_t *limit, unsigned depth,
                          int is_array);

/* The value of an element of type at *q within last, *q moved past it. */
static PyObject *element(reader *g, unsigned type, const uint8_t **qp, const uint8_t *last,
                         unsigned depth)
{
    const uint8_t *q = *qp;
    size_t room = (size_t)(last - q);
    sv_value v;
    switch (type) {
    case T_DOUBLE: {
        if (room < 8) return decline(g);
        uint64_t bits = nv_load64le(q);
        *qp = q + 8;
        double d;
        memcpy(&d, &bits, 8);
        if (!whole_double(bits)) return nv_reader_float(g->conv, d);
        v = sv_with_flags(sv_f64(d), SV_F_EXPLICIT);
        return nv_reader_value(g->conv, &v, depth);
    }
    case T_STRING: return string(g, qp, last);
    case T_DOCUMENT:
    case T_ARRAY: {
        const uint8_t *p = q;
        PyObject *o = document(g, p, last, depth + 1, type == T_ARRAY);
        if (o) *qp = p + nv_load32le(p);
        return o;
    }
    case T_OBJECTID:
        if (room < 12) return decline(g);
        *qp = q + 12;
        return object_id(g, q, depth);
    case T_BOOL:
        if (room < 1 || *q > 1) return decline(g);
        *qp = q + 1;
        return PyBool_FromLong(*q);
    case T_NULL: Py_RETURN_NONE;
    case T_INT32:
        if (room < 4) return decline(g);
        *qp = q + 4;
        v = sv_int_w((int32_t)nv_load32le(q), 4);
        return nv_reader_value(g->conv, &v, depth);
    case T_INT64:
        if (room < 8) return decline(g);
        *qp = q + 8;
        return nv_reader_int(g->conv, (int64_t)nv_load64le(q));
    case T_DATETIME:
        if (room < 8) return decline(g);
        *qp = q + 8;
        v = sv_with_tag(sv_int((int64_t)nv_load64le(q)), SV_TAG_DATETIME);
        return nv_reader_value(g->conv, &v, depth);
    default: return decline(g);
    }
}

/* The array key at q within last must be its index i (bson_visit.c: any
 * other is kept in the tree's meta); the byte after its 00, or NULL. */
static const uint8_t *index_key(const uint8_t *q, const uint8_t *last, uint32_t i)
{
    char text[12];
    int n = 0;
    do text[n++] = (char)('0' + i % 10);
    while ((i /= 10) != 0);
    if (last - q <= n || q[n] != 0) return NULL;
    for (int k = 0; k < n; k++)
        if (q[k] != (uint8_t)text[n - 1 - k]) return NULL;
    return q + n + 1;
}

/* The document or array at p within limit, checked as the reader checks
 * it (bson_visit.c's visit_doc) before anything is read from it. depth: the
 * reader's (1 for a document of the input). */
static PyObject *document(reader *g, const uint8_t *p, const uint8_t *limit, unsigned depth,
                          int is_array)
{
    if (limit - p < 4) return decline(g);
    uint32_t n = nv_load32le(p);
    /* the converter's nesting bound counts the stream's list too */
    if (n < 5 || n > INT32_MAX || n > (size_t)(limit - p) || depth > g->max_depth ||
        depth + 1 >= SV_MAX_DEPTH_LIMIT)
        return decline(g);
    const uint8_t *last = p + n - 1;
    if (*last != 0) return decline(g);
    PyObject *o = is_array ? PyList_New(0) : PyDict_New();
    const uint8_t *q = p + 4;
    uint32_t i = 0;
    for (; o && q < last; i++) {
        unsigned type = *q++;
        PyObject *k = NULL, *x = NULL;
        if (is_array) {
            q = index_key(q, last, i);
            if (!q) {
                Py_DECREF(o);
                return decline(g);
            }
        } else if (!(k = key(g, &q, last, i))) {
            Py_CLEAR(o);
            break;
        }
        x = element(g, type, &q, last, depth);
        if (!x || (is_array ? PyList_Append(o, x) : PyDict_SetItem(o, k, x)) < 0) Py_CLEAR(o);
        Py_XDECREF(k);
        Py_XDECREF(x);
    }
    /* a key twice: the tree's map is a Map of pairs, not a dict */
    if (o && !is_array && PyDict_Size(o) != (Py_ssize_t)i) {
        Py_DECREF(o);
        return decline(g);
    }
    return o;
}

PyObject *nv_bson_loads(const uint8_t *data, size_t len, const sv_options *opts, int *declined)
{
    *declined = 1;
    /* any option but the limits (stream, resonite-urls) changes the tree */
    if (opts && (opts->count || opts->schema)) return NULL;
    if (len < 4) return NULL;
    sv_limits given;
    memset(&given, 0, sizeof given);
    if (opts) given = opts->limits;
    sv_limits lim = sv_limits_resolve(&given);
    /* as the streaming decoder: a tree that could reach max_alloc is the
     * tree decoder's to refuse */
    if (len > lim.max_alloc / 32) return NULL;
    reader *g = (reader *)PyMem_Calloc(1, sizeof *g);
    if (!g) return PyErr_NoMemory();
    g->conv = nv_reader_new(0); /* every text is at its own address in the input */
    PyObject *out = NULL;
    if (g->conv) {
        const uint8_t *end = data + len;
        g->end = end;
        g->max_depth = lim.max_depth < NESTING_MAX ? lim.max_depth : NESTING_MAX;
        g->max_string = lim.max_string;
        if (nv_load32le(data) < len) {
            /* a stream: the documents one after the other, as a list */
            out = PyList_New(0);
            for (const uint8_t *p = data; out && p < end;) {
                size_t n = end - p >= 4 ? nv_load32le(p) : 0;
                PyObject *d =
                    n >= 5 && n <= (size_t)(end - p) ? document(g, p, p + n, 1, 0) : decline(g);
                if (!d || PyList_Append(out, d) < 0) Py_CLEAR(out);
                Py_XDECREF(d);
                p += n;
            }
        } else {
            /* one document, filling the input (its length is at least len) */
            out = document(g, data, end, 1, 0);
        }
        *declined = !out && g->declined && !PyErr_Occurred();
    } else {
        *declined = 0;
    }
    nv_key_cache_clear(&g->keys);
    nv_reader_free(g->conv);
    PyMem_Free(g);
    return out;
}
