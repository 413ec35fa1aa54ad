/* serval-bench: the generated KingsIsle deep-mode stream (workloads_kingsisle.c).
 *
 * The classes are those of katsuba's fixtures (AllScalars, BitIntegers,
 * StringTypes, Inner/Outer, WithList, ListElement/NestedLists), written here
 * as a wiztype v2 type list with the hashes §2.3 gives, plus a root class
 * that holds a list of objects. The root holds a repeating mix of the
 * fixture objects, nested ones included (an Outer holds an Inner, a
 * NestedLists three ListElements), 100,000 objects in all; string lengths are
 * chosen so that the stream comes to the target size. Deep mode, stateful
 * flags (1). Deterministic: one splitmix64 stream. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <serval/buf.h>
#include <serval/kingsisle.h>

#include "harness.h"

bool bench_gen_kingsisle(size_t target_bytes, size_t objects, uint8_t **data, size_t *len,
                         sv_kingsisle_types **types, char *msg, size_t msg_size);

typedef struct prop_def {
    const char *name, *type;
    bool dynamic;
} prop_def;

typedef struct class_def {
    const char *name;
    prop_def props[16];
} class_def;

static const class_def classes[] = {
    {"class AllScalars",
     {{"m_bool", "bool", 0}, {"m_char", "char", 0}, {"m_uchar", "unsigned char", 0},
      {"m_short", "short", 0}, {"m_ushort", "unsigned short", 0}, {"m_int", "int", 0},
      {"m_uint", "unsigned int", 0}, {"m_float", "float", 0}, {"m_double", "double", 0},
      {"m_int64", "unsigned __int64", 0}}},
    {"class BitIntegers",
     {{"m_bi2", "bi2", 0}, {"m_bui2", "bui2", 0}, {"m_bi3", "bi3", 0}, {"m_bui3", "bui3", 0},
      {"m_bi4", "bi4", 0}, {"m_bui4", "bui4", 0}, {"m_bi5", "bi5", 0}, {"m_bui5", "bui5", 0},
      {"m_bi6", "bi6", 0}, {"m_bui6", "bui6", 0}, {"m_bi7", "bi7", 0}, {"m_bui7", "bui7", 0},
      {"m_s24", "s24", 0}, {"m_u24", "u24", 0}}},
    {"class StringTypes", {{"m_string", "std::string", 0}, {"m_wstring", "std::wstring", 0}}},
    {"class Inner", {{"m_value", "unsigned int", 0}, {"m_name", "std::string", 0}}},
    {"class Outer", {{"m_inner", "class Inner", 0}, {"m_count", "unsigned int", 0}}},
    {"class WithList", {{"m_values", "unsigned int", 1}, {"m_count", "unsigned int", 0}}},
    {"class ListElement", {{"m_id", "unsigned int", 0}, {"m_name", "std::string", 0}}},
    {"class NestedLists", {{"m_elements", "class ListElement", 1}, {"m_depth", "unsigned int", 0}}},
    {"class BenchRoot", {{"m_items", "class PropertyClass", 1}}},
};
#define NCLASSES (sizeof classes / sizeof classes[0])

static uint64_t rng = 0x5EEDu;
static uint64_t next(void)
{
    uint64_t z = (rng += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

static bool type_list(sv_buf *b)
{
    char line[256];
    sv_buf_append(b, "{\"version\": 2, \"classes\": {", 27);
    for (size_t i = 0; i < NCLASSES; i++) {
        const class_def *c = &classes[i];
        uint32_t h = sv_kingsisle_string_id(c->name, strlen(c->name));
        int n = snprintf(line, sizeof line, "%s\"%u\": {\"name\": \"%s\", \"hash\": %u, \"properties\": {",
                         i ? ", " : "", h, c->name, h);
        sv_buf_append(b, line, (size_t)n);
        for (int j = 0; j < 16 && c->props[j].name; j++) {
            const prop_def *p = &c->props[j];
            uint32_t ph = sv_kingsisle_property_hash(p->type, strlen(p->type), p->name, strlen(p->name));
            n = snprintf(line, sizeof line,
                         "%s\"%s\": {\"type\": \"%s\", \"id\": %d, \"flags\": 7, \"dynamic\": %s, "
                         "\"hash\": %u}",
                         j ? ", " : "", p->name, p->type, j, p->dynamic ? "true" : "false", ph);
            sv_buf_append(b, line, (size_t)n);
        }
        sv_buf_append(b, "}}", 2);
    }
    sv_buf_append(b, "}}", 2);
    return sv_buf_ok(b);
}

static sv_value text(sv_doc *doc, size_t n, bool wide)
{
    sv_value s = sv_str_uninit(doc, n);
    char *p = sv_value_buf(&s);
    for (size_t i = 0; i < n; i++) p[i] = (char)('a' + next() % 26);
    return wide ? sv_with_flags(s, SV_F_UTF16) : s;
}

static sv_value obj(sv_doc *doc, const char *cls)
{
    return sv_object(doc, sv_str_intern(doc, cls, strlen(cls)), 0);
}

static void put(sv_doc *doc, sv_value *o, const char *k, sv_value v)
{
    sv_map_append_str(doc, o, k, v);
}

/* One top-level item of kind k; *count gets the objects it holds. */
static sv_value item(sv_doc *doc, unsigned k, size_t slen, size_t *count)
{
    sv_value o;
    switch (k) {
    case 0:
        o = obj(doc, "class AllScalars");
        put(doc, &o, "m_bool", sv_bool(next() & 1));
        put(doc, &o, "m_char", sv_int_w((int8_t)next(), 1));
        put(doc, &o, "m_uchar", sv_uint_w((uint8_t)next(), 1));
        put(doc, &o, "m_short", sv_int_w((int16_t)next(), 2));
        put(doc, &o, "m_ushort", sv_uint_w((uint16_t)next(), 2));
        put(doc, &o, "m_int", sv_int_w((int32_t)next(), 4));
        put(doc, &o, "m_uint", sv_uint_w((uint32_t)next(), 4));
        put(doc, &o, "m_float", sv_f32((float)(next() % 100000) / 7.0f));
        put(doc, &o, "m_double", sv_with_flags(sv_f64((double)(next() % 1000000) / 9.0), SV_F_EXPLICIT));
        put(doc, &o, "m_int64", sv_uint_w(next(), 8));
        *count = 1;
        return o;
    case 1: {
        static const char *const f[] = {"m_bi2", "m_bui2", "m_bi3", "m_bui3", "m_bi4", "m_bui4", "m_bi5",
                                        "m_bui5", "m_bi6", "m_bui6", "m_bi7", "m_bui7"};
        o = obj(doc, "class BitIntegers");
        for (int i = 0; i < 12; i++) {
            int bits = 2 + i / 2;
            uint64_t r = next() & ((1u << bits) - 1);
            put(doc, &o, f[i], (i & 1) ? sv_uint_w(r, 1) : sv_int_w((int64_t)r - (1 << (bits - 1)), 1));
        }
        put(doc, &o, "m_s24", sv_int_w((int64_t)(next() & 0xFFFFFF) - 0x800000, 4));
        put(doc, &o, "m_u24", sv_uint_w(next() & 0xFFFFFF, 4));
        *count = 1;
        return o;
    }
    case 2:
        o = obj(doc, "class StringTypes");
        put(doc, &o, "m_string", text(doc, slen, false));
        put(doc, &o, "m_wstring", text(doc, slen, true));
        *count = 1;
        return o;
    case 3: {
        sv_value in = obj(doc, "class Inner");
        put(doc, &in, "m_value", sv_uint_w((uint32_t)next(), 4));
        put(doc, &in, "m_name", text(doc, slen, false));
        o = obj(doc, "class Outer");
        put(doc, &o, "m_inner", in);
        put(doc, &o, "m_count", sv_uint_w(1, 4));
        *count = 2;
        return o;
    }
    case 4: {
        sv_value vals = sv_array(doc, 0);
        for (int i = 0; i < 16; i++)
            sv_array_append(doc, &vals, sv_uint_w((uint32_t)next(), 4));
        o = obj(doc, "class WithList");
        put(doc, &o, "m_values", vals);
        put(doc, &o, "m_count", sv_uint_w(16, 4));
        *count = 1;
        return o;
    }
    default: {
        sv_value els = sv_array(doc, 0);
        for (int i = 0; i < 3; i++) {
            sv_value e = obj(doc, "class ListElement");
            put(doc, &e, "m_id", sv_uint_w((uint32_t)i, 4));
            put(doc, &e, "m_name", text(doc, slen / 4 + 1, false));
            sv_array_append(doc, &els, e);
        }
        o = obj(doc, "class NestedLists");
        put(doc, &o, "m_elements", els);
        put(doc, &o, "m_depth", sv_uint_w(1, 4));
        *count = 4;
        return o;
    }
    }
}

static bool build(sv_kingsisle_types *t, size_t objects, size_t slen, sv_buf *out, char *msg,
                  size_t msg_size)
{
    rng = 0x5EEDu;
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return snprintf(msg, msg_size, "out of memory"), false;
    sv_value items = sv_array(doc, 0);
    size_t made = 1; /* the root */
    static const size_t holds[6] = {1, 1, 1, 2, 1, 4}; /* objects per item kind */
    for (unsigned k = 0; made < objects; k = (k + 1) % 6) {
        size_t c;
        unsigned kind = holds[k] <= objects - made ? k : 0; /* end on exactly `objects` */
        sv_array_append(doc, &items, item(doc, kind, slen, &c));
        made += c;
    }
    sv_value root = obj(doc, "class BenchRoot");
    put(doc, &root, "m_items", items);
    sv_kingsisle_opts o;
    sv_kingsisle_opts_init(&o);
    o.flags = SV_KI_STATEFUL_FLAGS;
    o.types = t;
    sv_error err;
    sv_error_clear(&err);
    bool ok = sv_doc_status(doc) == SV_OK && sv_kingsisle_encode(&root, &o, out, &err) == SV_OK;
    if (!ok) snprintf(msg, msg_size, "generating the stream: %s", err.message);
    sv_doc_free(doc);
    return ok;
}

bool bench_gen_kingsisle(size_t target_bytes, size_t objects, uint8_t **data, size_t *len,
                         sv_kingsisle_types **types, char *msg, size_t msg_size)
{
    sv_buf tl;
    sv_buf_init(&tl, NULL);
    sv_kingsisle_types *t = sv_kingsisle_types_new(NULL);
    sv_error err;
    if (!t || !type_list(&tl) || sv_kingsisle_types_add(t, tl.data, tl.len, "bench", &err) != SV_OK) {
        snprintf(msg, msg_size, "the type list: %s", t ? err.message : "out of memory");
        sv_buf_free(&tl);
        sv_kingsisle_types_free(t);
        return false;
    }
    sv_buf_free(&tl);
    /* one run at a short string length, then the length that fills the target:
     * per 6 items, StringTypes has 3 bytes per char, Inner 1, NestedLists 3/4 */
    sv_buf out;
    sv_buf_init(&out, NULL);
    size_t slen = 8;
    if (!build(t, objects, slen, &out, msg, msg_size)) goto fail;
    size_t groups = objects / 10; /* 10 objects per round of the 6 kinds */
    if (target_bytes > out.len && groups) {
        slen += (size_t)((double)(target_bytes - out.len) / ((double)groups * 4.75));
        out.len = 0;
        if (!build(t, objects, slen, &out, msg, msg_size)) goto fail;
    }
    *len = out.len;
    *data = sv_buf_take(&out, len, &(size_t){0});
    *types = t;
    return true;
fail:
    sv_buf_free(&out);
    sv_kingsisle_types_free(t);
    return false;
}

/* The wiztype type list of the generated stream, for serval conv --schema
 * (serval-bench --save-types). */
bool bench_kingsisle_type_list(sv_buf *out);
bool bench_kingsisle_type_list(sv_buf *out)
{
    return type_list(out);
}
