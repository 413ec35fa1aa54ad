/* The sizing pass of the streaming BSON writer (bson_write.c).
 *
 * A BSON document starts with its own byte length. Writing into a buffer
 * that holds everything, the writer patches each length in when its
 * document closes; writing through a sink (serval/buf.h), earlier bytes are
 * gone by then. So, before writing, this pass walks the tree once and
 * records the byte length of every length-prefixed part (documents, arrays,
 * code_w_scope) in the order the writer opens them; the writer then puts
 * each length first and streams the rest. It copies nothing: a length is
 * arithmetic on keys and values.
 *
 * It mirrors write_elem's layout choices exactly; where the writer would
 * fail (a bad tree), any size will do, since the writer stops there with its
 * own error before the size matters. The writer checks every recorded size
 * against the bytes it wrote when the part closes. */
#include <string.h>

#include "core/value_internal.h"
#include "formats/bson/bson_internal.h"
#include "formats/bson/bson_sizes.h"

typedef struct bm {
    sv__bson_sizes *sz;
    bool urls;
    bool failed; /* too deep, too long or out of memory: no streaming */
} bm;

static uint64_t measure_doc(bm *m, const sv_value *v, uint32_t depth);
static uint64_t measure_array(bm *m, const sv_value *v, uint32_t depth);

static size_t index_digits(size_t i)
{
    size_t n = 1;
    while (i >= 10) {
        i /= 10;
        n++;
    }
    return n;
}

/* Reserves the next slot in writing order; filled by close_slot. */
static size_t open_slot(bm *m)
{
    sv__bson_sizes *sz = m->sz;
    if (sz->len == sz->cap) {
        size_t cap = sz->cap ? sz->cap * 2 : 256;
        uint32_t *p =
            sz->alloc->realloc(sz->alloc->ctx, sz->v, sz->cap * sizeof *p, cap * sizeof *p);
        if (!p) {
            m->failed = true;
            return SIZE_MAX;
        }
        sz->v = p;
        sz->cap = cap;
    }
    return sz->len++;
}

static void close_slot(bm *m, size_t slot, uint64_t n)
{
    if (slot == SIZE_MAX) return;
    /* over int32: the writer refuses it (without streaming, see bson_write.c) */
    if (n > INT32_MAX) m->failed = true;
    m->sz->v[slot] = (uint32_t)n;
}

static uint64_t string_size(size_t n, bool at)
{
    return 4 + (uint64_t)n + (at ? 1 : 0) + 1;
}

static const sv_value *field(const sv_value *obj, const char *name)
{
    return sv_map_get(obj, name, strlen(name));
}

static size_t field_len(const sv_value *obj, const char *name)
{
    const sv_value *f = field(obj, name);
    return sv_kind_of(f) == SV_STRING ? f->len : 0;
}

/* A bson.* object's value bytes (write_bson_object), or -1: not one. */
static int64_t measure_bson_object(bm *m, const sv_value *v, uint32_t depth)
{
    size_t cn;
    const char *cls = sv_get_str(sv_object_class(v), &cn);
    if (cn < 5 || memcmp(cls, "bson.", 5) != 0) return -1;
    if (!strcmp(cls, BSON_CLASS_BINARY)) {
        const sv_value *sub = field(v, "subtype"), *data = field(v, "data");
        uint64_t n = sv_kind_of(data) == SV_BYTES ? data->len : 0;
        bool old = (sv_kind_of(sub) == SV_INT || sv_kind_of(sub) == SV_UINT) &&
                   sv_get_uint(sub) == BSON_SUB_OLD_BINARY;
        return (int64_t)(4 + 1 + (old ? 4 : 0) + n);
    }
    if (!strcmp(cls, BSON_CLASS_UNDEFINED)) return 0;
    if (!strcmp(cls, BSON_CLASS_CODE)) return (int64_t)string_size(field_len(v, "code"), false);
    if (!strcmp(cls, BSON_CLASS_SYMBOL)) return (int64_t)string_size(field_len(v, "symbol"), false);
    if (!strcmp(cls, BSON_CLASS_DBPOINTER))
        return (int64_t)(string_size(field_len(v, "namespace"), false) + 12);
    if (!strcmp(cls, BSON_CLASS_CODE_W_SCOPE)) {
        /* its own length first, then the code, then the scope document */
        size_t slot = open_slot(m);
        uint64_t n = 4 + string_size(field_len(v, "code"), false);
        const sv_value *scope = field(v, "scope");
        if (sv_kind_of(scope) == SV_MAP) n += measure_doc(m, scope, depth + 1);
        close_slot(m, slot, n);
        return (int64_t)n;
    }
    return -1;
}

/* The bytes of a packed or tuple array written as a BSON array
 * (write_numbers). */
static uint64_t measure_numbers(bm *m, const sv_value *v)
{
    size_t slot = open_slot(m);
    sv_elem e = (sv_elem)v->sub;
    uint64_t each = e == SV_ELEM_F32 || e == SV_ELEM_F64   ? 8
                    : e <= SV_ELEM_I32 && e != SV_ELEM_U32 ? 4
                                                           : 8;
    uint64_t n = 4 + 1;
    for (size_t i = 0; i < v->len; i++) n += 2 + index_digits(i) + each;
    close_slot(m, slot, n);
    return n;
}

/* The bytes of v's value (after its type byte and key). */
static uint64_t measure_value(bm *m, const sv_value *v, uint32_t depth)
{
    switch ((sv_kind)v->kind) {
    case SV_NULL: return 0;
    case SV_BOOL: return 1;
    case SV_INT: return v->tag == SV_TAG_DATETIME || v->sub == 8 ? 8 : 4;
    case SV_UINT:
        if (v->tag == SV_TAG_TIMESTAMP) return 8;
        return v->sub <= 4 && v->as.u <= INT32_MAX ? 4 : 8;
    case SV_FLOAT: return 8;
    case SV_STRING:
        if (v->tag == SV_TAG_OBJECTID) return 12;
        if (v->tag == SV_TAG_UUID) return 4 + 1 + 16;
        if (m->urls && v->tag == SV_TAG_URL) return string_size(v->len, true);
        return string_size(v->len, m->urls && v->len > 1 && v->as.str[0] == '@');
    case SV_BYTES:
        if (v->tag == SV_TAG_DECIMAL128) return 16;
        return 4 + 1 + (uint64_t)v->len;
    case SV_ARRAY:
        if (v->tag == SV_TAG_REGEX) {
            const sv_value *p = sv_array_at(v, 0), *o = sv_array_at(v, 1);
            return (uint64_t)sv_len(p) + 1 + sv_len(o) + 1;
        }
        return measure_array(m, v, depth + 1);
    case SV_MAP: return measure_doc(m, v, depth + 1);
    case SV_OBJECT: {
        int64_t n = measure_bson_object(m, v, depth);
        return n >= 0 ? (uint64_t)n : measure_doc(m, v, depth + 1);
    }
    case SV_TUPLE:
    case SV_PACKED: return measure_numbers(m, v);
    default: return 0;
    }
}

static uint64_t measure_array(bm *m, const sv_value *v, uint32_t depth)
{
    if (depth > BSON_MAX_NESTING) {
        m->failed = true;
        return 0;
    }
    size_t slot = open_slot(m);
    const sv_value *keys = sv_meta(v);
    if (keys && (sv_kind_of(keys) != SV_ARRAY || keys->len != v->len)) keys = NULL;
    const sv_value *items = sv_array_items(v);
    uint64_t n = 4 + 1;
    for (size_t i = 0; i < v->len && !m->failed; i++) {
        size_t kn = keys ? sv_len(sv_array_at(keys, i)) : index_digits(i);
        n += 2 + kn + measure_value(m, &items[i], depth);
    }
    close_slot(m, slot, n);
    return n;
}

static uint64_t measure_doc(bm *m, const sv_value *v, uint32_t depth)
{
    if (depth > BSON_MAX_NESTING) {
        m->failed = true;
        return 0;
    }
    size_t slot = open_slot(m);
    uint64_t n = 4 + 1;
    const sv_value doc = *v; /* local: the accessors' checks leave the loop */
    for (size_t i = 0; i < doc.len && !m->failed; i++)
        n += 2 + (uint64_t)sv_key_at(&doc, i)->len + measure_value(m, sv_val_at(&doc, i), depth);
    close_slot(m, slot, n);
    return n;
}

bool sv__bson_measure(const sv_value *root, bool urls, sv__bson_sizes *sz, uint64_t *total)
{
    bm m = {sz, urls, false};
    sz->len = 0;
    *total = measure_doc(&m, root, 1);
    return !m.failed;
}

void sv__bson_sizes_free(sv__bson_sizes *sz)
{
    if (sz->v) sz->alloc->free(sz->alloc->ctx, sz->v, sz->cap * sizeof *sz->v);
    sz->v = NULL;
    sz->len = sz->cap = 0;
}
