/* loads of a raw Godot Variant (godot3, godot4) read here, straight from the
 * bytes into Python objects.
 *
 * The streaming path (native_stream.c) hands every value through the
 * library's item reader and a callback; for the values most files are made
 * of that costs about as much as making the Python objects. So the plain
 * shapes are read here: nil, bool, int, float, String, the math tuples and
 * packed arrays without header flags (not PackedStringArray), Array and
 * Dictionary (String keys). Each scalar is
 * made by the tree converter's own code (nv_reader_value and the pieces of
 * it in native.h) from the sv_value the library's decoder makes of the same
 * bytes, with the same rules for width and explicitness, so the objects
 * are the ones the tree gives.
 *
 * Anything else declines the whole input, which then goes to the streaming
 * path and the tree: other types, header flag bits the engine would not
 * write, a bool stored as neither 0 nor 1, padding that is not zero, text
 * that is not UTF-8, holds a NUL or starts with a BOM, a key that is not a
 * String or occurs twice, a count with the "shared" bit, any limit
 * reached, bytes after the value, options other than the limits, and an
 * input that also reads as store_var frames (the tree takes it as those).
 * Declining is never an error: the paths behind give the value or the
 * error with its offset and path. */
#include "native.h"
#include "native_keys.h"

#include <math.h>
#include <string.h>

#include "serval/godot.h"

#define FLAG_64 (1u << 16)
/* spec §3.1, §3.2: the type codes read here, and the Dictionary and Array
 * ones of each profile */
enum { T_NIL = 0, T_BOOL = 1, T_INT = 2, T_FLOAT = 3, T_STRING = 4 };
enum { DICT3 = 18, ARRAY3 = 19, DICT4 = 27, ARRAY4 = 28 };
/* godot_file_meta.h: inputs above this size are not probed for frames */
#define PROBE_MAX (UINT64_C(64) << 20)

/* The scalars of tuples and packed arrays are handed to the converter where
 * they lie in the input, which holds them little-endian: on other hosts
 * (NV_LITTLE_ENDIAN 0, native_keys.h) those types are declined. */

/* A math tuple's type: its tag, its number of scalars and whether they are
 * int32 (Vector2i ...) rather than float32. */
typedef struct shape {
    uint16_t tag;
    uint8_t scalars;
    uint8_t ints;
} shape;

static const shape shapes3[15] = {
    [5] = {SV_TAG_VECTOR2, 2, 0},       [6] = {SV_TAG_RECT2, 4, 0},
    [7] = {SV_TAG_VECTOR3, 3, 0},       [8] = {SV_TAG_TRANSFORM2D, 6, 0},
    [9] = {SV_TAG_PLANE, 4, 0},         [10] = {SV_TAG_QUATERNION, 4, 0},
    [11] = {SV_TAG_AABB, 6, 0},         [12] = {SV_TAG_BASIS, 9, 0},
    [13] = {SV_TAG_TRANSFORM3D, 12, 0}, [14] = {SV_TAG_COLOR, 4, 0},
};

static const shape shapes4[21] = {
    [5] = {SV_TAG_VECTOR2, 2, 0},      [6] = {SV_TAG_VECTOR2I, 2, 1},
    [7] = {SV_TAG_RECT2, 4, 0},        [8] = {SV_TAG_RECT2I, 4, 1},
    [9] = {SV_TAG_VECTOR3, 3, 0},      [10] = {SV_TAG_VECTOR3I, 3, 1},
    [11] = {SV_TAG_TRANSFORM2D, 6, 0}, [12] = {SV_TAG_VECTOR4, 4, 0},
    [13] = {SV_TAG_VECTOR4I, 4, 1},    [14] = {SV_TAG_PLANE, 4, 0},
    [15] = {SV_TAG_QUATERNION, 4, 0},  [16] = {SV_TAG_AABB, 6, 0},
    [17] = {SV_TAG_BASIS, 9, 0},       [18] = {SV_TAG_TRANSFORM3D, 12, 0},
    [19] = {SV_TAG_PROJECTION, 16, 0}, [20] = {SV_TAG_COLOR, 4, 0},
};

/* A packed number array's type: its element, the numbers per item and its
 * shape tag (SV_TAG_NONE for one number per item). */
typedef struct packed {
    uint8_t elem;
    uint8_t per;
    uint16_t tag;
} packed;

static const packed packed3[27] = {
    [21] = {SV_ELEM_I32, 1, SV_TAG_NONE},           [22] = {SV_ELEM_F32, 1, SV_TAG_NONE},
    [24] = {SV_ELEM_F32, 2, SV_TAG_PACKED_VECTOR2}, [25] = {SV_ELEM_F32, 3, SV_TAG_PACKED_VECTOR3},
    [26] = {SV_ELEM_F32, 4, SV_TAG_PACKED_COLOR},
};

static const packed packed4[39] = {
    [30] = {SV_ELEM_I32, 1, SV_TAG_NONE},           [31] = {SV_ELEM_I64, 1, SV_TAG_NONE},
    [32] = {SV_ELEM_F32, 1, SV_TAG_NONE},           [33] = {SV_ELEM_F64, 1, SV_TAG_NONE},
    [35] = {SV_ELEM_F32, 2, SV_TAG_PACKED_VECTOR2}, [36] = {SV_ELEM_F32, 3, SV_TAG_PACKED_VECTOR3},
    [37] = {SV_ELEM_F32, 4, SV_TAG_PACKED_COLOR},   [38] = {SV_ELEM_F32, 4, SV_TAG_PACKED_VECTOR4},
};

/* PackedByteArray's type code in each profile */
enum { BYTES3 = 20, BYTES4 = 29 };

typedef struct reader {
    const uint8_t *p, *end;
    nv_reader *conv;
    const shape *shapes;
    const packed *packs;
    unsigned shape_count, pack_count, dict_code, array_code, bytes_code;
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

static size_t left(const reader *g)
{
    return (size_t)(g->end - g->p);
}

/* The text of a String whose header was read (spec §4: u32 length, bytes,
 * zero padding to 4): into *s and *n, the read moved past it. 0: declined
 * (the decoder's error, or text whose tree string is not these bytes). The
 * caller still looks for a NUL (the decoder stops there: declined). */
static int text(reader *g, const char **s, uint32_t *n)
{
    if (left(g) < 4) return 0;
    uint32_t len = nv_load32le(g->p);
    size_t pad = (4 - (len & 3)) & 3;
    if (len > INT32_MAX || len > g->max_string || (size_t)len + pad > left(g) - 4) return 0;
    const uint8_t *b = g->p + 4;
    for (size_t i = 0; i < pad; i++)
        if (b[len + i]) return 0;
    /* the decoder skips one BOM and stops at a NUL */
    if (len >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) return 0;
    g->p = b + len + pad;
    *s = (const char *)b;
    *n = len;
    return 1;
}

static int has_nul(const char *s, uint32_t n)
{
    return n && memchr(s, 0, n) != NULL;
}

/* A text of n <= 8 bytes at s as one word, zero-padded, as memcpy into a
 * zeroed word gives it; with 8 bytes readable at s (room), one load and a
 * mask: a memcpy of n bytes is stored in pieces, and the word's load then
 * waits for them. *nul: whether the text holds a 00. */
static uint64_t short_word(const char *s, uint32_t n, int room, int *nul)
{
    uint64_t w = 0;
    if (NV_LITTLE_ENDIAN && room) {
        memcpy(&w, s, 8);
        uint64_t keep = n >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * n)) - 1;
        w &= keep;
        /* a zero byte among the first n: the bytes past them count as 0xFF */
        uint64_t y = w | ~keep;
        *nul = ((y - UINT64_C(0x0101010101010101)) & ~y & UINT64_C(0x8080808080808080)) != 0;
        return w;
    }
    memcpy(&w, s, n);
    *nul = has_nul(s, n);
    return w;
}

/* A str for s unless it is not UTF-8: then declined. */
static PyObject *utf8(reader *g, const char *s, uint32_t n)
{
    PyObject *o = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, NULL);
    if (!o && PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
        PyErr_Clear();
        return decline(g);
    }
    return o;
}

/* A Dictionary key: a String, as an interned str. at: the key's place in
 * its Dictionary. */
static PyObject *key(reader *g, uint32_t at)
{
    const char *s;
    uint32_t n;
    if (left(g) < 4 || nv_load32le(g->p) != T_STRING) return decline(g);
    g->p += 4;
    if (!text(g, &s, &n)) return decline(g);
    nv_key_slot *k = NULL;
    uint64_t w[3] = {0, 0, 0};
    if (n <= NV_KEY_MAX) {
        /* three loads and masks where 24 bytes are there to read: a memcpy
         * of n bytes into w is stored in pieces that the 8-byte loads of
         * the hash then wait for (a quarter of this file's time) */
        if (g->end - (const uint8_t *)s >= 24) {
            for (unsigned i = 0; i < 3; i++) {
                uint32_t have = n > 8 * i ? n - 8 * i : 0;
                uint64_t x = nv_load64le((const uint8_t *)s + 8 * i);
                w[i] = have >= 8 ? x : x & ((UINT64_C(1) << (8 * have)) - 1);
            }
        } else {
            memcpy(w, s, n);
        }
        PyObject *hit = nv_key_cache_get(&g->keys, w, n, at, &k);
        if (hit) return hit;
    }
    /* a hit is text checked when it was cached: the same bytes */
    if (has_nul(s, n)) return decline(g);
    PyObject *o = utf8(g, s, n);
    if (!o) return NULL;
    PyUnicode_InternInPlace(&o);
    if (k) nv_key_cache_put(k, w, n, o);
    return o;
}

static PyObject *item(reader *g, unsigned depth);

static PyObject *array(reader *g, unsigned depth)
{
    /* the count's "shared" bit is kept in the tree's meta; more items than
     * the bytes left can hold is the decoder's error */
    if (left(g) < 4) return decline(g);
    uint32_t count = nv_load32le(g->p);
    g->p += 4;
    if ((count & 0x80000000u) || count > left(g) / 4) return decline(g);
    PyObject *list = PyList_New((Py_ssize_t)count);
    for (uint32_t i = 0; list && i < count; i++) {
        PyObject *x = item(g, depth + 1);
        if (!x)
            Py_CLEAR(list);
        else
            PyList_SetItem(list, (Py_ssize_t)i, x);
    }
    return list;
}

static PyObject *dict(reader *g, unsigned depth)
{
    if (left(g) < 4) return decline(g);
    uint32_t count = nv_load32le(g->p);
    g->p += 4;
    if ((count & 0x80000000u) || count > left(g) / 8) return decline(g);
    PyObject *d = PyDict_New();
    for (uint32_t i = 0; d && i < count; i++) {
        PyObject *k = depth + 1 > g->max_depth ? decline(g) : key(g, i);
        PyObject *x = k ? item(g, depth + 1) : NULL;
        if (!x || PyDict_SetItem(d, k, x) < 0) Py_CLEAR(d);
        Py_XDECREF(k);
        Py_XDECREF(x);
    }
    /* a key twice: the tree's Dictionary is a Map of pairs, not a dict */
    if (d && PyDict_Size(d) != (Py_ssize_t)count) {
        Py_DECREF(d);
        return decline(g);
    }
    return d;
}

/* A math tuple of shape sh whose header was read: the decoder's sv_value,
 * its scalars left in the input. */
static PyObject *tuple(reader *g, const shape *sh, unsigned depth)
{
    size_t bytes = (size_t)sh->scalars * 4;
    if (left(g) < bytes) return decline(g);
    sv_value v;
    memset(&v, 0, sizeof v);
    v.kind = SV_TUPLE;
    v.sub = sh->ints ? SV_ELEM_I32 : SV_ELEM_F32;
    v.tag = sh->tag;
    v.len = sh->scalars;
    v.as.data = g->p;
    g->p += bytes;
    return nv_reader_value(g->conv, &v, depth);
}

/* PackedByteArray (spec §5.1, §7): i32 count, the bytes, zero padding to 4
 * (the decoder keeps other padding, or none, in the tree's records). */
static PyObject *byte_array(reader *g, unsigned depth)
{
    if (left(g) < 4) return decline(g);
    uint32_t count = nv_load32le(g->p);
    g->p += 4;
    size_t pad = (4 - (count & 3)) & 3;
    if (count > INT32_MAX || count > g->max_string || (size_t)count + pad > left(g))
        return decline(g);
    for (size_t i = 0; i < pad; i++)
        if (g->p[count + i]) return decline(g);
    sv_value v;
    memset(&v, 0, sizeof v);
    v.kind = SV_BYTES;
    v.len = count;
    v.as.bytes = g->p;
    g->p += count + pad;
    return nv_reader_value(g->conv, &v, depth);
}

/* A packed number array: i32 count, then count items of pk->per numbers. */
static PyObject *numbers(reader *g, const packed *pk, unsigned depth)
{
    if (left(g) < 4) return decline(g);
    uint32_t count = nv_load32le(g->p);
    g->p += 4;
    size_t item = (size_t)(pk->elem == SV_ELEM_I64 || pk->elem == SV_ELEM_F64 ? 8 : 4) * pk->per;
    /* the engine's ERR_FAIL_MUL_OF: count * item must fit int32 */
    if ((size_t)count > (size_t)INT32_MAX / item || (size_t)count > left(g) / item)
        return decline(g);
    sv_value v;
    memset(&v, 0, sizeof v);
    v.kind = SV_PACKED;
    v.sub = pk->elem;
    v.tag = pk->tag;
    v.len = count * pk->per;
    v.as.data = g->p;
    g->p += (size_t)count * item;
    return nv_reader_value(g->conv, &v, depth);
}

/* float32 and float64 as the decoder keeps them (godot_decode.c, spec
 * §6.2): a width the float would not be written in again, and any value
 * whose plain form reads back otherwise, is explicit and takes a wrapper. */
static PyObject *float32(reader *g, unsigned depth)
{
    uint32_t u = nv_load32le(g->p);
    g->p += 4;
    float f;
    memcpy(&f, &u, 4);
    if (isfinite(f) && f != truncf(f)) return nv_reader_float(g->conv, (double)f);
    sv_value v = sv_f32(f);
    return nv_reader_value(g->conv, &v, depth);
}

static PyObject *float64(reader *g, unsigned depth)
{
    uint64_t u = nv_load64le(g->p);
    g->p += 8;
    double d;
    memcpy(&d, &u, 8);
    if (!((double)(float)d == d || isnan(d) || (isfinite(d) && d == trunc(d))))
        return nv_reader_float(g->conv, d);
    sv_value v = sv_f64(d);
    v.flags |= SV_F_EXPLICIT;
    return nv_reader_value(g->conv, &v, depth);
}

static PyObject *int64(reader *g, unsigned depth)
{
    int64_t i = (int64_t)nv_load64le(g->p);
    g->p += 8;
    /* spec §6.1: 64 bits only outside int32; the width is kept when not */
    if (i < INT32_MIN || i > INT32_MAX) return nv_reader_int(g->conv, i);
    sv_value v = sv_int_w(i, 8);
    return nv_reader_value(g->conv, &v, depth);
}

static PyObject *item(reader *g, unsigned depth)
{
    if (depth > g->max_depth || left(g) < 4) return decline(g);
    uint32_t hdr = nv_load32le(g->p);
    g->p += 4;
    switch (hdr) {
    case T_NIL: Py_RETURN_NONE;
    case T_BOOL: {
        if (left(g) < 4 || nv_load32le(g->p) > 1) return decline(g);
        uint32_t b = nv_load32le(g->p);
        g->p += 4;
        return PyBool_FromLong((long)b);
    }
    case T_INT:
        if (left(g) < 4) return decline(g);
        g->p += 4;
        return nv_reader_int(g->conv, (int32_t)nv_load32le(g->p - 4));
    case T_INT | FLAG_64: return left(g) < 8 ? decline(g) : int64(g, depth);
    case T_FLOAT: return left(g) < 4 ? decline(g) : float32(g, depth);
    case T_FLOAT | FLAG_64: return left(g) < 8 ? decline(g) : float64(g, depth);
    case T_STRING: {
        const char *s;
        uint32_t n;
        if (!text(g, &s, &n)) return decline(g);
        PyObject *o;
        if (n <= 8) {
            int nul;
            uint64_t w = short_word(s, n, g->end - (const uint8_t *)s >= 8, &nul);
            if (nul) return decline(g);
            o = nv_reader_short_text(g->conv, s, n, w);
        } else {
            if (has_nul(s, n)) return decline(g);
            o = nv_reader_text(g->conv, s, n);
        }
        return o || PyErr_Occurred() ? o : decline(g);
    }
    default: break;
    }
    /* nv_stream_loads' builder stops there, and the tree converter too */
    if ((hdr == g->array_code || hdr == g->dict_code) && depth >= SV_MAX_DEPTH_LIMIT)
        return decline(g);
    if (hdr == g->array_code) return array(g, depth);
    if (hdr == g->dict_code) return dict(g, depth);
    if (hdr == g->bytes_code) return byte_array(g, depth);
    if (!NV_LITTLE_ENDIAN) return decline(g);
    if (hdr < g->shape_count && g->shapes[hdr].scalars) return tuple(g, &g->shapes[hdr], depth);
    if (hdr < g->pack_count && g->packs[hdr].per) return numbers(g, &g->packs[hdr], depth);
    return decline(g);
}

/* Whether data is also one or more length-prefixed Variants (store_var
 * frames, lengths in byte order be), each exactly filling its frame, that
 * end at the input's end: the probe then takes the input for frames
 * (godot_format.c), and so does the tree decoder. The lengths are walked
 * first, so that an input they do not fit costs no decode. */
static int frames_fit(int godot4, const uint8_t *data, size_t len, int be)
{
    size_t at = 0;
    while (at < len) {
        if (len - at < 8) return 0;
        const uint8_t *q = data + at;
        uint32_t size =
            be ? (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3]
               : nv_load32le(q);
        if (size > len - at - 4 || size < 4 || (size & 3)) return 0;
        at += 4 + (size_t)size;
    }
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return 1; /* unknown: the paths behind find out */
    sv_godot_opts o;
    sv_godot_opts_init(&o, godot4 ? SV_GODOT4 : SV_GODOT3);
    o.borrow_input = true;
    int fit = 1;
    for (at = 0; fit && at < len;) {
        const uint8_t *q = data + at;
        uint32_t size =
            be ? (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3]
               : nv_load32le(q);
        sv_value v;
        size_t used = 0;
        fit = sv_godot_decode(doc, q + 4, size, &o, &v, &used, NULL) == SV_OK && used == size;
        at += 4 + (size_t)size;
    }
    sv_doc_free(doc);
    return fit;
}

PyObject *nv_godot_loads(int godot4, const uint8_t *data, size_t len, const sv_options *opts,
                         int *declined)
{
    *declined = 1;
    /* any option but the limits changes what the bytes mean or how the file
     * is framed; a raw Variant fills the input in whole words, and one
     * starting 00 is not taken for raw */
    if (opts && (opts->count || opts->schema)) return NULL;
    if (len < 4 || (len & 3) || data[0] == 0) return NULL;
    sv_limits given;
    memset(&given, 0, sizeof given);
    if (opts) given = opts->limits;
    sv_limits lim = sv_limits_resolve(&given);
    /* as the streaming decoder: a tree that could reach max_alloc is the
     * tree decoder's to refuse */
    if (len > lim.max_alloc / 16) return NULL;
    if (len <= PROBE_MAX && (frames_fit(godot4, data, len, 0) || frames_fit(godot4, data, len, 1)))
        return NULL;
    reader *g = (reader *)PyMem_Calloc(1, sizeof *g);
    if (!g) return PyErr_NoMemory();
    g->conv = nv_reader_new(0); /* every text is at its own address in the input */
    PyObject *out = NULL;
    if (g->conv) {
        g->p = data;
        g->end = data + len;
        g->shapes = godot4 ? shapes4 : shapes3;
        g->shape_count = godot4 ? 21 : 15;
        g->packs = godot4 ? packed4 : packed3;
        g->pack_count = godot4 ? 39 : 27;
        g->bytes_code = godot4 ? BYTES4 : BYTES3;
        g->dict_code = godot4 ? DICT4 : DICT3;
        g->array_code = godot4 ? ARRAY4 : ARRAY3;
        g->max_depth = lim.max_depth;
        g->max_string = lim.max_string;
        out = item(g, 0);
        if (out && g->p != g->end) {
            Py_CLEAR(out);
            g->declined = 1;
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
