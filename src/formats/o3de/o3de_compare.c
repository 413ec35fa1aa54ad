/* O3DE's JsonSerialization::Compare: a total order on JSON values used to
 * sort unordered containers. spec o3de-json §10.3. */
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

typedef struct keyed {
    const sv_pair *p;
} keyed;

static int by_name(const void *x, const void *y)
{
    return cmp_str(&((const keyed *)x)->p->key, &((const keyed *)y)->p->key);
}

static int cmp_objects(const sv_value *a, const sv_value *b)
{
    if (a->len != b->len) return a->len < b->len ? -1 : 1;
    size_t n = a->len;
    if (!n) return 0;
    keyed *ka = malloc(2 * n * sizeof *ka);
    if (!ka) return 0;
    keyed *kb = ka + n;
    for (size_t i = 0; i < n; i++) {
        ka[i].p = &sv_pairs(a)[i];
        kb[i].p = &sv_pairs(b)[i];
    }
    qsort(ka, n, sizeof *ka, by_name);
    qsort(kb, n, sizeof *kb, by_name);
    int r = 0;
    for (size_t i = 0; i < n && !r; i++) {
        r = cmp_str(&ka[i].p->key, &kb[i].p->key);
        if (!r) r = sv_o3de_compare(&ka[i].p->val, &kb[i].p->val);
    }
    free(ka);
    return r;
}

int sv_o3de_compare(const sv_value *a, const sv_value *b)
{
    int ra = rank(a), rb = rank(b);
    if (ra != rb) return ra < rb ? -1 : 1;
    switch (ra) {
    case 3: return cmp_objects(a, b);
    case 4: {
        if (a->len != b->len) return a->len < b->len ? -1 : 1;
        for (uint32_t i = 0; i < a->len; i++) {
            int r = sv_o3de_compare(sv_array_at(a, i), sv_array_at(b, i));
            if (r) return r;
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

static void merge_sort(sv_value *v, sv_value *tmp, size_t n)
{
    if (n < 2) return;
    size_t h = n / 2;
    merge_sort(v, tmp, h);
    merge_sort(v + h, tmp, n - h);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) tmp[k++] = sv_o3de_compare(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
    while (i < h) tmp[k++] = v[i++];
    while (j < n) tmp[k++] = v[j++];
    memcpy(v, tmp, n * sizeof *v);
}

void o3_sort_json(o3_ctx *c, sv_value *items, size_t n)
{
    if (n < 2) return;
    sv_value *tmp = sv_mem_calloc(c->alloc, n, sizeof *tmp);
    if (!tmp) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory");
        return;
    }
    merge_sort(items, tmp, n);
    sv_mem_free(c->alloc, tmp, n, sizeof *tmp);
}
