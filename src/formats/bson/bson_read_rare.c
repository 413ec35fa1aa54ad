/* The BSON element types no Resonite file holds (spec resonite A.4: only
 * 01 02 03 04 08 0A 10 12 occur): binary with its subtypes, ObjectId,
 * undefined, regex, DBPointer, code, symbol, code with scope, timestamp,
 * decimal128, min and max keys. Each becomes a small object or a tagged
 * value (bson.h). Off the hot path: the whole containing document is
 * waited for first when the input is streaming. */
#include <string.h>

#include "formats/bson/bson_reader.h"

/* A cstring (regex pattern and options) within last. */
static const uint8_t *read_cstring(br *r, const uint8_t *q, const uint8_t *last, sv_value *out)
{
    const uint8_t *z = memchr(q, 0, (size_t)(last - q));
    if (!z)
        return sv__bson_br_fail(r, q, SV_ERR_TRUNCATED,
                                "a cstring runs past the end of its document");
    if ((uint64_t)(z - q) > r->max_string)
        return sv__bson_br_fail(r, q, SV_ERR_LIMIT, "a cstring of %zu bytes is over the limit",
                                (size_t)(z - q));
    if (!sv__core_utf8_valid(q, (size_t)(z - q)))
        return sv__bson_br_fail(r, q, SV_ERR_UTF8, "the cstring is not valid UTF-8");
    if (!copy_blob(r, SV_STRING, q, (size_t)(z - q), out)) return sv__bson_br_fail_alloc(r, q);
    return z + 1;
}

/* An OBJECT of class cls with the given fields. */
static bool make_object(br *r, const char *cls, const char *const *names, const sv_value *vals,
                        size_t n, sv_value *out)
{
    if (r->check) {
        *out = sv_null(); /* checking: nothing is made */
        return true;
    }
    sv_pair pairs[2];
    for (size_t i = 0; i < n; i++) {
        pairs[i].key = sv_str_intern(r->doc, names[i], strlen(names[i]));
        pairs[i].val = vals[i];
        if (pairs[i].key.kind != SV_STRING) return false;
    }
    sv_value c = sv_str_intern(r->doc, cls, strlen(cls));
    sv_value *cp = sv_doc_alloc(r->doc, sizeof *cp);
    if (c.kind != SV_STRING || !cp) return false;
    *cp = c;
    sv_value o = sv__core_pairs_from(r->doc, SV_OBJECT, pairs, n);
    if (o.kind != SV_OBJECT) return false;
    o.as.box->cls = cp;
    *out = o;
    return true;
}

static const uint8_t *read_binary(br *r, const uint8_t *q, const uint8_t *last, sv_value *out)
{
    if (!need(r, q, last, 5, "a binary header")) return NULL;
    uint32_t len = sv__core_load_u32le(q);
    unsigned sub = q[4];
    if (len > INT32_MAX)
        return sv__bson_br_fail(r, q, SV_ERR_SYNTAX, "binary length %d is negative", (int32_t)len);
    if (!need(r, q + 5, last, len, "binary data")) return NULL;
    if (len > r->max_string)
        return sv__bson_br_fail(r, q, SV_ERR_LIMIT, "a binary of %u bytes is over the limit", len);
    const uint8_t *d = q + 5, *next = q + 5 + len;
    if (sub == BSON_SUB_GENERIC) {
        if (!copy_blob(r, SV_BYTES, d, len, out)) return sv__bson_br_fail_alloc(r, q);
        return next;
    }
    if (sub == BSON_SUB_UUID && len == 16) {
        char text[36];
        sv__bson_uuid_text(d, text);
        if (!copy_blob(r, SV_STRING, (const uint8_t *)text, 36, out))
            return sv__bson_br_fail_alloc(r, q);
        out->tag = SV_TAG_UUID;
        return next;
    }
    if (sub == BSON_SUB_OLD_BINARY) {
        /* bsonspec: subtype 2 holds an int32 length of the bytes that follow
         * it; libbson refuses one that disagrees, and so do we (the tree keeps
         * the inner bytes, the writer puts the length back). */
        if (len < 4 || sv__core_load_u32le(d) != len - 4)
            return sv__bson_br_fail(r, d, SV_ERR_SYNTAX,
                                    "binary subtype 2: the inner length does not equal the outer "
                                    "length minus 4");
        d += 4;
        len -= 4;
    }
    sv_value vals[2];
    vals[0] = sv_uint_w(sub, 1);
    if (!copy_blob(r, SV_BYTES, d, len, &vals[1])) return sv__bson_br_fail_alloc(r, q);
    static const char *const names[2] = {"subtype", "data"};
    if (!make_object(r, BSON_CLASS_BINARY, names, vals, 2, out))
        return sv__bson_br_fail_alloc(r, q);
    return next;
}

static const uint8_t *read_objectid(br *r, const uint8_t *q, const uint8_t *last, sv_value *out)
{
    if (!need(r, q, last, 12, "an ObjectId")) return NULL;
    char text[24];
    sv__bson_hex(q, 12, text);
    if (!copy_blob(r, SV_STRING, (const uint8_t *)text, 24, out))
        return sv__bson_br_fail_alloc(r, q);
    out->tag = SV_TAG_OBJECTID;
    return q + 12;
}

/* The types no Resonite file has: each is a small object or tagged value. */
const uint8_t *sv__bson_br_read_rare(br *r, unsigned type, const uint8_t *q, const uint8_t *last,
                                     uint32_t depth, sv_value *out)
{
    sv_value vals[2];
    const uint8_t *next;
    /* rare types: simply wait for the whole document */
    if (!ENSURE(r, last)) return sv__bson_br_fail_stream(r, r->avail);
    switch (type) {
    case BSON_BINARY: return read_binary(r, q, last, out);
    case BSON_OBJECTID: return read_objectid(r, q, last, out);
    case BSON_UNDEFINED:
        if (!make_object(r, BSON_CLASS_UNDEFINED, NULL, NULL, 0, out))
            return sv__bson_br_fail_alloc(r, q);
        return q;
    case BSON_REGEX: {
        if (!(next = read_cstring(r, q, last, &vals[0]))) return NULL;
        if (!(next = read_cstring(r, next, last, &vals[1]))) return NULL;
        if (r->check) return next;
        sv_value a = sv__core_array_from(r->doc, vals, 2);
        if (a.kind != SV_ARRAY) return sv__bson_br_fail_alloc(r, q);
        a.tag = SV_TAG_REGEX;
        *out = a;
        return next;
    }
    case BSON_DBPOINTER: {
        const uint8_t *s = NULL;
        size_t n = 0;
        if (!(next = read_string_bytes(r, q, last, true, &s, &n))) return NULL;
        if (!copy_blob(r, SV_STRING, s, n, &vals[0])) return sv__bson_br_fail_alloc(r, q);
        if (!(next = read_objectid(r, next, last, &vals[1]))) return NULL;
        static const char *const names[2] = {"namespace", "id"};
        if (!make_object(r, BSON_CLASS_DBPOINTER, names, vals, 2, out))
            return sv__bson_br_fail_alloc(r, q);
        return next;
    }
    case BSON_CODE:
    case BSON_SYMBOL: {
        const uint8_t *s = NULL;
        size_t n = 0;
        if (!(next = read_string_bytes(r, q, last, true, &s, &n))) return NULL;
        if (!copy_blob(r, SV_STRING, s, n, &vals[0])) return sv__bson_br_fail_alloc(r, q);
        const char *name = type == BSON_CODE ? "code" : "symbol";
        if (!make_object(r, type == BSON_CODE ? BSON_CLASS_CODE : BSON_CLASS_SYMBOL, &name, vals, 1,
                         out))
            return sv__bson_br_fail_alloc(r, q);
        return next;
    }
    case BSON_CODE_W_SCOPE: {
        if (!need(r, q, last, 4, "a code_w_scope length")) return NULL;
        uint32_t total = sv__core_load_u32le(q);
        if (total < 14 || total > (size_t)(last - q))
            return sv__bson_br_fail(r, q, SV_ERR_SYNTAX, "code_w_scope length %u does not fit",
                                    total);
        const uint8_t *end = q + total, *s = NULL;
        size_t n = 0;
        if (!(next = read_string_bytes(r, q + 4, end, true, &s, &n))) return NULL;
        if (!copy_blob(r, SV_STRING, s, n, &vals[0])) return sv__bson_br_fail_alloc(r, q);
        if (!(next = sv__bson_br_read_doc(r, next, end, depth + 1, false, &vals[1]))) return NULL;
        if (next != end)
            return sv__bson_br_fail(r, next, SV_ERR_SYNTAX,
                                    "code_w_scope says %u bytes, its parts take %zu", total,
                                    (size_t)(next - q));
        static const char *const names[2] = {"code", "scope"};
        if (!make_object(r, BSON_CLASS_CODE_W_SCOPE, names, vals, 2, out))
            return sv__bson_br_fail_alloc(r, q);
        return next;
    }
    case BSON_TIMESTAMP:
        if (!need(r, q, last, 8, "a timestamp")) return NULL;
        *out = sv_with_tag(sv_uint_w(sv__core_load_u64le(q), 8), SV_TAG_TIMESTAMP);
        return q + 8;
    case BSON_DECIMAL128:
        if (!need(r, q, last, 16, "a decimal128")) return NULL;
        if (!copy_blob(r, SV_BYTES, q, 16, out)) return sv__bson_br_fail_alloc(r, q);
        out->tag = SV_TAG_DECIMAL128;
        return q + 16;
    case BSON_MINKEY: *out = sv_with_tag(sv_null(), SV_TAG_MINKEY); return q;
    case BSON_MAXKEY: *out = sv_with_tag(sv_null(), SV_TAG_MAXKEY); return q;
    default:
        return sv__bson_br_fail(r, q - 1, SV_ERR_SYNTAX, "unknown BSON element type 0x%02x", type);
    }
    (void)depth;
}
