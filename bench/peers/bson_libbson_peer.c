/* serval-bench: libbson as a peer of the BSON workloads (bson_peers.h). */
#include <string.h>

#include <bson/bson.h>

#include "bson_peers.h"

/* Reads every value into a sink the compiler cannot drop, so the iteration
 * does the work a reader must do. */
static volatile uint64_t sink;

static bool walk(bson_iter_t *it, size_t *n)
{
    while (bson_iter_next(it)) {
        (*n)++;
        uint32_t len;
        switch (bson_iter_type(it)) {
        case BSON_TYPE_DOUBLE: {
            /* The bits, not a conversion: a negative or huge double has no
             * uint64_t value (undefined behaviour, caught by UBSan). */
            double d = bson_iter_double(it);
            uint64_t bits;
            memcpy(&bits, &d, sizeof bits);
            sink += bits;
            break;
        }
        case BSON_TYPE_UTF8: sink += (uint64_t)(uintptr_t)bson_iter_utf8(it, &len) + len; break;
        case BSON_TYPE_INT32: sink += (uint64_t)bson_iter_int32(it); break;
        case BSON_TYPE_INT64: sink += (uint64_t)bson_iter_int64(it); break;
        case BSON_TYPE_BOOL: sink += bson_iter_bool(it); break;
        case BSON_TYPE_DOCUMENT:
        case BSON_TYPE_ARRAY: {
            bson_iter_t child;
            if (!bson_iter_recurse(it, &child) || !walk(&child, n)) return false;
            break;
        }
        default: sink += bson_iter_type(it); break;
        }
    }
    /* a stop on bad data leaves an error offset */
    return it->err_off == 0;
}

bool bench_libbson_walk(const uint8_t *data, size_t len, size_t *elements)
{
    bson_t b;
    bson_iter_t it;
    *elements = 0;
    if (!bson_init_static(&b, data, len) || !bson_iter_init(&it, &b)) return false;
    return walk(&it, elements);
}

static bool rebuild(bson_iter_t *it, bson_t *out)
{
    while (bson_iter_next(it)) {
        const char *key = bson_iter_key(it);
        uint32_t klen = bson_iter_key_len(it), len;
        bool ok = true;
        switch (bson_iter_type(it)) {
        case BSON_TYPE_DOUBLE:
            ok = bson_append_double(out, key, (int)klen, bson_iter_double(it));
            break;
        case BSON_TYPE_UTF8: {
            const char *s = bson_iter_utf8(it, &len);
            ok = bson_append_utf8(out, key, (int)klen, s, (int)len);
            break;
        }
        case BSON_TYPE_INT32:
            ok = bson_append_int32(out, key, (int)klen, bson_iter_int32(it));
            break;
        case BSON_TYPE_INT64:
            ok = bson_append_int64(out, key, (int)klen, bson_iter_int64(it));
            break;
        case BSON_TYPE_BOOL: ok = bson_append_bool(out, key, (int)klen, bson_iter_bool(it)); break;
        case BSON_TYPE_NULL: ok = bson_append_null(out, key, (int)klen); break;
        case BSON_TYPE_DOCUMENT:
        case BSON_TYPE_ARRAY: {
            bson_iter_t child;
            bson_t sub;
            bool arr = bson_iter_type(it) == BSON_TYPE_ARRAY;
            ok = bson_iter_recurse(it, &child) &&
                 (arr ? bson_append_array_begin(out, key, (int)klen, &sub)
                      : bson_append_document_begin(out, key, (int)klen, &sub)) &&
                 rebuild(&child, &sub) &&
                 (arr ? bson_append_array_end(out, &sub) : bson_append_document_end(out, &sub));
            break;
        }
        default: ok = bson_append_iter(out, key, (int)klen, it); break;
        }
        if (!ok) return false;
    }
    return true;
}

void *bench_libbson_rebuild(const uint8_t *data, size_t len, size_t *out_len)
{
    bson_t src;
    bson_iter_t it;
    if (!bson_init_static(&src, data, len) || !bson_iter_init(&it, &src)) return NULL;
    bson_t *out = bson_new();
    if (!rebuild(&it, out)) {
        bson_destroy(out);
        return NULL;
    }
    *out_len = out->len;
    return out;
}

void bench_libbson_free(void *doc)
{
    bson_destroy(doc);
}

const char *bench_libbson_version(void)
{
    return bson_get_version();
}
