#include "helper_alloc.h"

#include <pthread.h>
#include <stdlib.h>

/* The .brson pipeline (sv_resonite_opts.threads = 1) calls the allocator
 * from its second thread too (the Brotli decoder's memory), so the counts
 * are kept under a lock. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

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
    void *p = NULL;
    pthread_mutex_lock(&lock);
    if (!should_fail(t)) {
        p = malloc(size);
        if (p) account(t, (int64_t)size);
    }
    pthread_mutex_unlock(&lock);
    return p;
}

static void *ta_realloc(void *ctx, void *ptr, size_t old_size, size_t new_size)
{
    test_alloc *t = ctx;
    void *p = NULL;
    pthread_mutex_lock(&lock);
    if (!should_fail(t)) {
        p = realloc(ptr, new_size);
        if (p) account(t, (int64_t)new_size - (int64_t)old_size);
    }
    pthread_mutex_unlock(&lock);
    return p;
}

static void ta_free(void *ctx, void *ptr, size_t size)
{
    test_alloc *t = ctx;
    if (!ptr) return;
    pthread_mutex_lock(&lock);
    account(t, -(int64_t)size);
    free(ptr);
    pthread_mutex_unlock(&lock);
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
