/* loads of godot3 and godot4 read here, straight from the bytes into Python
 * objects: no library decoder, no events, no tree.
 *
 * Most of what a large Godot Variant holds is a few plain shapes: Arrays,
 * Dictionaries with string keys, ints, floats, ASCII strings, Vector2 and
 * Vector3. This reader takes only those, in exactly the bytes the engine's
 * encoder writes for them (spec: Godot Variant binary), and makes each value
 * the sv_value the tree decoder would make of those bytes, which goes
 * through the tree converter's own code (nv_reader_value) so that the
 * objects are the very ones nv_to_python makes; Arrays and Dictionaries are
 * made here at their final size.
 *
 * Everything else declines, before or after some objects were made (they
 * are dropped): any other type, a header with flag bits (typed containers,
 * a 64-bit Vector), a bool other than 0 or 1, a 64-bit int within int32 (its
 * width kept by the tree), a string that is not all ASCII without NUL or
 * has padding that is not zero, a key that is not such a string or that
 * repeats, a count with the "shared" bit, any value past the end of the
 * input, bytes left after the value, an input that also reads as store_var
 * frames, any option but the limits, and whatever goes past a limit. The
 * caller then reads the input the streaming decoder's way or into a tree,
 * which gives the value, or the error with its offset and path. */
#include "native.h"

#include <math.h>
#include <string.h>

/* Godot's type codes for the shapes read here (spec §3.1): 3.x, 4.x. */
typedef struct gd_codes {
    uint32_t vector2, vector3, dictionary, array;
} gd_codes;

static const gd_codes codes3 = {5, 7, 18, 19};
static const gd_codes codes4 = {5, 9, 27, 28};

enum { T_NIL = 0, T_BOOL = 1, T_INT = 2, T_FLOAT = 3, T_STRING = 4 };
#define FLAG_64 (UINT32_C(1) << 16)

/* Dictionary keys: one interned str per distinct text for the call, found
 * by its bytes (each key of the input is at its own place). */
#define KEYS 2048
#define KEY_MAX 64

typedef struct key_entry {
    const uint8_t *s; /* the first occurrence, in the input */
    uint64_t head;    /* its first eight bytes (fewer: zero after the text) */
    uint32_t len;
    PyObject *obj;    /* strong reference */
} key_entry;

typedef struct gr {
    const uint8_t *p, *end;
    const gd_codes *c;
    nv_reader *r;
    uint32_t max_depth;
    uint64_t max_string;
    int declined; /* no exception: the caller reads the input another way */
    key_entry keys[KEYS];
} gr;

static uint32_t u32_at(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t u64_at(const uint8_t *p)
{
    return (uint64_t)u32_at(p) | (uint64_t)u32_at(p + 4) << 32;
}

static PyObject *decline(gr *g)
{
    g->declined = 1;
    return NULL;
}

/* The text of a string at g->p (after its header): its length and bytes,
 * or NULL (declined) unless it is n ASCII bytes without NUL, zero padding,
 * within max_string. */
static const uint8_t *plain_text(gr *g, uint32_t *len)
{
    if (g->end - g->p < 4) return NULL;
    uint32_t n = u32_at(g->p);
    size_t pad = (4 - (n & 3)) & 3;
    if (n > INT32_MAX || n > g->max_string || (size_t)(g->end - g->p - 4) < (size_t)n + pad)
        return NULL;
    const uint8_t *s = g->p + 4;
    /* text and padding fill whole 4-byte words: in each, no text byte may
     * be 00 or have its top bit set, and every padding byte must be 00 */
    size_t words = ((size_t)n + pad) / 4;
    for (size_t i = 0; i < words; i++) {
        uint32_t w;
        memcpy(&w, s + 4 * i, 4);
        if (i + 1 == words && pad) {
            uint32_t text = UINT32_MAX >> (8 * pad); /* the low bytes, in memory order */
            if (w & ~text) return NULL;
            w |= UINT32_C(0x01010101) & ~text; /* padding as a harmless byte */
        }
        if ((w | ((w - UINT32_C(0x01010101)) & ~w)) & UINT32_C(0x80808080)) return NULL;
    }
    g->p = s + n + pad;
    *len = n;
    return s;
}

/* From the first and last eight bytes (fewer: head alone) and the length:
 * keys that share both are told apart by the comparison after. */
static size_t key_hash(const uint8_t *s, uint32_t n, uint64_t head)
{
    uint64_t tail = 0;
    if (n > 8) memcpy(&tail, s + n - 8, 8);
    uint64_t h = (head * UINT64_C(0x9E3779B97F4A7C15)) ^ (tail * UINT64_C(0xC2B2AE3D27D4EB4F)) ^ n;
    h *= UINT64_C(0xFF51AFD7ED558CCD);
    return (size_t)(h >> 40) & (KEYS - 1);
}

/* The str of a Dictionary key (new reference), or NULL: declined, or with
 * an exception. */
static PyObject *read_key(gr *g)
{
    if (g->end - g->p < 4 || u32_at(g->p) != T_STRING) return decline(g);
    g->p += 4;
    uint32_t n;
    const uint8_t *s = plain_text(g, &n);
    if (!s) return decline(g);
    key_entry *k = NULL;
    uint64_t head = 0;
    if (n <= KEY_MAX) {
        memcpy(&head, s, n < 8 ? n : 8);
        k = &g->keys[key_hash(s, n, head)];
        if (k->obj && k->len == n && k->head == head && (n <= 8 || memcmp(k->s, s, n) == 0)) {
            Py_INCREF(k->obj);
            return k->obj;
        }
    }
    /* the tree interns keys; its converter makes interned strs of them */
    PyObject *o = PyUnicode_FromStringAndSize((const char *)s, (Py_ssize_t)n);
    if (!o) return NULL;
    PyUnicode_InternInPlace(&o);
    if (k) {
        Py_XDECREF(k->obj);
        k->s = s;
        k->head = head;
        k->len = n;
        k->obj = o;
        Py_INCREF(o);
    }
    return o;
}

static PyObject *read_item(gr *g, unsigned depth);

/* An Array's or Dictionary's count (after its header), or declined: the
 * "shared" bit (kept in the tree's meta) or more items than bytes left. */
static int read_count(gr *g, size_t min_item, uint32_t *count)
{
    if (g->end - g->p < 4) return 0;
    uint32_t n = u32_at(g->p);
    if ((n & 0x80000000u) || n > (size_t)(g->end - g->p - 4) / min_item) return 0;
    g->p += 4;
    *count = n;
    return 1;
}

static PyObject *read_array(gr *g, unsigned depth)
{
    uint32_t n;
    if (!read_count(g, 4, &n)) return decline(g);
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (uint32_t i = 0; list && i < n; i++) {
        PyObject *x = read_item(g, depth + 1);
        if (!x) Py_CLEAR(list);
        else PyList_SetItem(list, (Py_ssize_t)i, x);
    }
    return list;
}

static PyObject *read_dict(gr *g, unsigned depth)
{
    uint32_t n;
    if (!read_count(g, 8, &n)) return decline(g);
    PyObject *d = PyDict_New();
    for (uint32_t i = 0; d && i < n; i++) {
        if (depth + 1 > g->max_depth) {
            Py_CLEAR(d);
            return decline(g);
        }
        PyObject *k = read_key(g);
        PyObject *x = k ? read_item(g, depth + 1) : NULL;
        if (!x || PyDict_SetItem(d, k, x) < 0) Py_CLEAR(d);
        Py_XDECREF(k);
        Py_XDECREF(x);
    }
    /* a key twice: the tree keeps both pairs (a Map), a dict cannot */
    if (d && PyDict_Size(d) != (Py_ssize_t)n) {
        Py_CLEAR(d);
        return decline(g);
    }
    return d;
}

/* A Vector2 or Vector3 of float32 (no flag: 3.x and 4.x alike), as the
 * tuple the tree holds, pointing into the input. */
static PyObject *read_vector(gr *g, unsigned tag, uint32_t scalars, unsigned depth)
{
    if ((size_t)(g->end - g->p) < 4u * scalars) return decline(g);
    sv_value v;
    memset(&v, 0, sizeof v);
    v.kind = SV_TUPLE;
    v.sub = SV_ELEM_F32;
    v.tag = (uint16_t)tag;
    v.len = scalars;
    v.as.data = g->p;
    g->p += 4u * scalars;
    return nv_reader_value(g->r, &v, depth);
}

static PyObject *read_item(gr *g, unsigned depth)
{
    if (depth > g->max_depth || g->end - g->p < 4) return decline(g);
    uint32_t hdr = u32_at(g->p);
    g->p += 4;
    size_t left = (size_t)(g->end - g->p);
    sv_value v;
    switch (hdr) {
    case T_NIL: Py_RETURN_NONE;
    case T_BOOL: {
        if (left < 4) return decline(g);
        uint32_t b = u32_at(g->p);
        if (b > 1) return decline(g); /* the tree keeps the stored value */
        g->p += 4;
        return PyBool_FromLong((long)b);
    }
    case T_INT: {
        if (left < 4) return decline(g);
        int32_t i = (int32_t)u32_at(g->p); /* sign-extended: a plain int */
        g->p += 4;
        return nv_reader_int(g->r, i);
    }
    case T_INT | FLAG_64: {
        if (left < 8) return decline(g);
        int64_t i = (int64_t)u64_at(g->p);
        /* the engine writes 64 bits only outside int32: the tree keeps the
         * width of one that is inside */
        if (i >= INT32_MIN && i <= INT32_MAX) return decline(g);
        g->p += 8;
        return nv_reader_int(g->r, i);
    }
    case T_FLOAT: {
        if (left < 4) return decline(g);
        uint32_t u = u32_at(g->p);
        float f;
        memcpy(&f, &u, 4);
        g->p += 4;
        /* the tree decoder's rule: a finite value with a fraction is a plain
         * float; whole and non-finite values keep the f32 width explicitly */
        if (isfinite(f) && f != truncf(f)) return nv_reader_float(g->r, (double)f);
        v = sv_f32(f);
        return nv_reader_value(g->r, &v, depth);
    }
    case T_FLOAT | FLAG_64: {
        if (left < 8) return decline(g);
        uint64_t u = u64_at(g->p);
        double d;
        memcpy(&d, &u, 8);
        g->p += 8;
        /* the width is explicit where the engine would not have chosen it
         * (f32 would do), for NaN and for whole values (as the tree's) */
        if (!((double)(float)d == d || isnan(d) || (isfinite(d) && d == trunc(d))))
            return nv_reader_float(g->r, d); /* finite: inf is caught by f32 */
        v = sv_with_flags(sv_f64(d), SV_F_EXPLICIT);
        return nv_reader_value(g->r, &v, depth);
    }
    case T_STRING: {
        uint32_t n;
        const uint8_t *s = plain_text(g, &n);
        if (!s) return decline(g);
        return nv_reader_text(g->r, (const char *)s, n); /* ASCII: UTF-8 */
    }
    default: break;
    }
    if (hdr == g->c->array) return read_array(g, depth);
    if (hdr == g->c->dictionary) return read_dict(g, depth);
    if (hdr == g->c->vector3) return read_vector(g, SV_TAG_VECTOR3, 3, depth);
    if (hdr == g->c->vector2) return read_vector(g, SV_TAG_VECTOR2, 2, depth);
    return decline(g);
}

/* Whether data[0..len) is also whole store_var frames (a u32 length, then
 * that many bytes, to the end), little- or big-endian: the tree decoder
 * then reads frames. This answers yes to a superset of the inputs its own
 * probe takes as frames (it also asks each frame to be one Variant), so a
 * yes only sends the input the tree's way. Inputs above 64 MiB are not
 * probed for frames by the tree decoder either. */
static int may_be_frames(const uint8_t *data, size_t len)
{
    if (len > (UINT64_C(64) << 20)) return 0;
    for (int big = 0; big <= 1; big++) {
        size_t at = 0;
        while (at < len) {
            if (len - at < 8) break;
            const uint8_t *p = data + at;
            uint32_t size = big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
                                      (uint32_t)p[2] << 8 | (uint32_t)p[3]
                                : u32_at(p);
            if (size > len - at - 4) break;
            at += 4 + (size_t)size;
        }
        if (at == len) return 1;
    }
    return 0;
}

PyObject *nv_godot_loads(const sv_format *f, const uint8_t *data, size_t len,
                         const sv_options *opts, int *declined)
{
    *declined = 1;
    int godot4 = strcmp(f->name, "godot4") == 0;
    if (!godot4 && strcmp(f->name, "godot3") != 0) return NULL;
    /* options change what the bytes mean or how they are framed */
    if (opts && (opts->count || opts->schema)) return NULL;
    /* one raw Variant fills the input in whole words; one that starts 00
     * is not taken as raw by the tree decoder's probe */
    if (len < 4 || (len & 3) || data[0] == 0 || may_be_frames(data, len)) return NULL;
    sv_limits lim = sv_limits_resolve(opts ? &opts->limits : NULL);
    /* the tree of n bytes takes a few times n: below max_alloc / 16 it
     * cannot reach the cap (as the streaming decoder judges it) */
    if (len > lim.max_alloc / 16) return NULL;
    gr *g = (gr *)PyMem_Calloc(1, sizeof *g);
    if (!g) return PyErr_NoMemory();
    g->p = data;
    g->end = data + len;
    g->c = godot4 ? &codes4 : &codes3;
    g->max_depth = lim.max_depth < SV_MAX_DEPTH_LIMIT ? lim.max_depth : SV_MAX_DEPTH_LIMIT;
    g->max_string = lim.max_string;
    PyObject *out = NULL;
    /* each string at its own place in the input: not cached by address */
    if ((g->r = nv_reader_new(0))) out = read_item(g, 0);
    if (out && g->p != g->end) {
        Py_CLEAR(out); /* bytes after the value: the tree's to judge */
        g->declined = 1;
    }
    *declined = !out && g->declined && !PyErr_Occurred();
    nv_reader_free(g->r);
    for (size_t i = 0; i < KEYS; i++) Py_XDECREF(g->keys[i].obj);
    PyMem_Free(g);
    return out;
}
