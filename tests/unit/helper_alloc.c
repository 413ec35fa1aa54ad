#include "helper_alloc.h"

#include <stdlib.h>

static int should_fail(test_alloc *t)
{
    t->calls++;
    if (t->fail_at > 0 && t->calls >= t->fail_at) {
        t->failures++;
        return 1;
    }
    return 0;
}

static void account(test_alloc *t, int64_t delta)
{
    t->live_bytes += delta;
    if (t->live_bytes > t->peak_bytes) t->peak_bytes = t->live_bytes;
}

static void *ta_malloc(void *ctx, size_t size)
{
    test_alloc *t = ctx;
    if (should_fail(t)) return NULL;
    void *p = malloc(size);
    if (p) account(t, (int64_t)size);
    return p;
}

static void *ta_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    test_alloc *t = ctx;
    if (should_fail(t)) return NULL;
    void *p = realloc(ptr, new_size);
    if (p) account(t, (int64_t)new_size - (int64_t)old_size);
    return p;
}

static void ta_free(void *ctx, void *ptr, size_t size)
{
    test_alloc *t = ctx;
    if (!ptr) return;
    account(t, -(int64_t)size);
    free(ptr);
}

void test_alloc_init(test_alloc *t, long fail_at)
{
    t->alloc.malloc = ta_malloc;
    t->alloc.realloc = ta_realloc;
    t->alloc.free = ta_free;
    t->alloc.ctx = t;
    t->fail_at = fail_at;
    t->calls = 0;
    t->failures = 0;
    t->live_bytes = 0;
    t->peak_bytes = 0;
}
