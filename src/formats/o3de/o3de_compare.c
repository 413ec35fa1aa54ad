/* O3DE's JsonSerialization::Compare: a total order on JSON values used to
 * sort unordered containers. docs/formats/o3de.md, "What serval follows", Containers. */
#include <stdlib.h>
#include <string.h>

#include "core/mem.h"
#include "o3de_internal.h"

/* RapidJSON's type order: Null, False, True, Object, Array, String, Number. */
static int rank(const sv_value *v)
{
    switch (sv_kind_of(v)) {
    case SV_NULL: return 0;
    case SV_BOOL: return v->as.b ? 2 : 1;
    case SV_MAP:
    case SV_OBJECT: return 3;
    case SV_ARRAY: return 4;
    case SV_STRING: return 5;
    default: return 6;
    }
}

static int cmp_str(const sv_value *a, const sv_value *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int r = memcmp(a->as.str, b->as.str, n);
    if (r) return r < 0 ? -1 : 1;
    return a->len < b->len ? -1 : a->len > b->len;
}

/* One member: its name and value, as sv_key_at / sv_val_at give them. */
typedef struct keyed {
    const sv_value *key, *val;
} keyed;

static int by_name(const void *x, const void *y)
{
    return cmp_str(((const keyed *)x)->key, ((const keyed *)y)->key);
}

/* Objects compare by size, then member by member in name order. The two
 * name orders need scratch: on the stack for small objects, else from the
 * caller's allocator. */
#define SMALL_OBJECT 16

static int cmp_objects(o3_cmp *k, const sv_value *a, const sv_value *b)
{
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    size_t n = a->len;
    if (!n) return 0;
    keyed small[2 * SMALL_OBJECT];
    keyed *ka = small;
    if (n > SMALL_OBJECT) {
        ka = sv__core_mem_calloc(k->alloc, 2 * n, sizeof *ka);
        if (!ka) {
            k->nomem = true;
            return 0;
        }
    }
    keyed *kb = ka + n;
    for (size_t i = 0; i < n; i++) {
        ka[i] = (keyed){sv_key_at(a, i), sv_val_at(a, i)};
        kb[i] = (keyed){sv_key_at(b, i), sv_val_at(b, i)};
    }
    qsort(ka, n, sizeof *ka, by_name);
    qsort(kb, n, sizeof *kb, by_name);
    int r = 0;
    for (size_t i = 0; i < n && !r && !k->nomem; i++) {
        r = cmp_str(ka[i].key, kb[i].key);
        if (!r) r = o3_compare(k, ka[i].val, kb[i].val);
    }
    if (ka != small) sv__core_mem_free(k->alloc, ka, 2 * n, sizeof *ka);
    return k->nomem ? 0 : r;
}

int o3_compare(o3_cmp *k, const sv_value *a, const sv_value *b)
{
    int ra = rank(a), rb = rank(b);
    if (ra != rb) return ra < rb ? -1 : 1;
    switch (ra) {
    case 3: return cmp_objects(k, a, b);
    case 4: {
        if (a->len != b->len) return a->len < b->len ? -1 : 1;
        for (uint32_t i = 0; i < a->len; i++) {
            int r = o3_compare(k, sv_array_at(a, i), sv_array_at(b, i));
            if (r || k->nomem) return k->nomem ? 0 : r;
        }
        return 0;
    }
    case 5: return cmp_str(a, b);
    case 6: {
        double x = sv_get_f64(a), y = sv_get_f64(b);
        return x < y ? -1 : x > y;
    }
    default: return 0;
    }
}

int o3_compare_c(o3_ctx *c, const sv_value *a, const sv_value *b)
{
    o3_cmp k = {c->alloc, false};
    int r = o3_compare(&k, a, b);
    if (k.nomem) o3_fail(c, SV_ERR_NOMEM, "out of memory");
    return r;
}

sv_status sv_o3de_compare(const sv_alloc *alloc, const sv_value *a, const sv_value *b, int *order,
                          sv_error *err)
{
    if (order) *order = 0;
    if (!a || !b || !order)
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_compare");
    o3_cmp k = {alloc ? alloc : sv_alloc_libc(), false};
    int r = o3_compare(&k, a, b);
    if (k.nomem) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    *order = r;
    return SV_OK;
}

static void merge_sort(uint8_t *v, uint8_t *tmp, size_t n, size_t size,
                       int (*cmp)(void *, const void *, const void *), void *ctx)
{
    if (n < 2) return;
    size_t h = n / 2;
    merge_sort(v, tmp, h, size, cmp, ctx);
    merge_sort(v + h * size, tmp, n - h, size, cmp, ctx);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        /* the right one first only when strictly smaller: stable */
        if (cmp(ctx, v + j * size, v + i * size) < 0)
            memcpy(tmp + k++ * size, v + j++ * size, size);
        else
            memcpy(tmp + k++ * size, v + i++ * size, size);
    }
    while (i < h) memcpy(tmp + k++ * size, v + i++ * size, size);
    while (j < n) memcpy(tmp + k++ * size, v + j++ * size, size);
    memcpy(v, tmp, n * size);
}

bool o3_sort(void *base, size_t n, size_t size, int (*cmp)(void *, const void *, const void *),
             void *ctx, const sv_alloc *alloc)
{
    if (n < 2) return true;
    uint8_t *tmp = sv__core_mem_calloc(alloc, n, size);
    if (!tmp) return false;
    merge_sort(base, tmp, n, size, cmp, ctx);
    sv__core_mem_free(alloc, tmp, n, size);
    return true;
}

static int json_order(void *ctx, const void *a, const void *b)
{
    return o3_compare(ctx, a, b);
}

void o3_sort_json(o3_ctx *c, sv_value *items, size_t n)
{
    o3_cmp k = {c->alloc, false};
    if (!o3_sort(items, n, sizeof *items, json_order, &k, c->alloc) || k.nomem)
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
}
