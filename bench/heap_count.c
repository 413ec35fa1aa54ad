/* serval-bench: counts the bytes malloc holds, for every implementation.
 *
 * serval's own allocations go through the counting sv_alloc (harness.c), but
 * the peers (RapidJSON, simdjson, libbson, jansson) call malloc or operator
 * new directly. glibc lets a program replace malloc, free, calloc, realloc
 * and the aligned allocators (its manual, "Replacing malloc"); the
 * replacements here forward to glibc's own allocator (__libc_malloc and its
 * siblings, exported for exactly this) and add or subtract each block's
 * malloc_usable_size, so the count is what the heap really hands out,
 * rounding included, for the shared libraries too.
 *
 * While the process has a single thread (glibc's __libc_single_threaded)
 * the counters are plain additions; once a thread has been started (the
 * threaded .brson decoder allocates from two threads) they are atomic.
 * What counting costs is in bench/README.md ("Memory traffic").
 *
 * Compiled only with glibc and without sanitizers (they replace malloc
 * themselves); without it, bench_heap_counting() says false and the figure
 * is left out. */
#include "heap_count.h"

#ifndef BENCH_HEAP_COUNT
#define BENCH_HEAP_COUNT 0
#endif

#if BENCH_HEAP_COUNT
#include <errno.h>
#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/single_threaded.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *ptr);

static int64_t heap_current;
static int64_t heap_peak;

static void heap_grow(void *p)
{
    if (!p) return;
    if (__libc_single_threaded) {
        heap_current += (int64_t)malloc_usable_size(p);
        if (heap_current > heap_peak) heap_peak = heap_current;
        return;
    }
    int64_t now = __atomic_add_fetch(&heap_current, (int64_t)malloc_usable_size(p),
                                      __ATOMIC_RELAXED);
    int64_t peak = __atomic_load_n(&heap_peak, __ATOMIC_RELAXED);
    while (now > peak &&
           !__atomic_compare_exchange_n(&heap_peak, &peak, now, true, __ATOMIC_RELAXED,
                                        __ATOMIC_RELAXED)) {
    }
}

static void heap_sub(int64_t bytes)
{
    if (__libc_single_threaded)
        heap_current -= bytes;
    else
        __atomic_sub_fetch(&heap_current, bytes, __ATOMIC_RELAXED);
}

static void heap_shrink(void *p)
{
    if (p) heap_sub((int64_t)malloc_usable_size(p));
}

void *malloc(size_t size)
{
    void *p = __libc_malloc(size);
    heap_grow(p);
    return p;
}

void *calloc(size_t n, size_t size)
{
    void *p = __libc_calloc(n, size);
    heap_grow(p);
    return p;
}

void free(void *ptr)
{
    heap_shrink(ptr);
    __libc_free(ptr);
}

void *realloc(void *ptr, size_t size)
{
    /* The old block's size must be read before it may move or be freed. */
    size_t old = ptr ? malloc_usable_size(ptr) : 0;
    void *p = __libc_realloc(ptr, size);
    if (p || (ptr && size == 0)) {
        heap_sub((int64_t)old);
        heap_grow(p);
    }
    return p;
}

void *reallocarray(void *ptr, size_t n, size_t size)
{
    if (size && n > SIZE_MAX / size) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(ptr, n * size);
}

void *memalign(size_t align, size_t size)
{
    void *p = __libc_memalign(align, size);
    heap_grow(p);
    return p;
}

void *aligned_alloc(size_t align, size_t size)
{
    return memalign(align, size);
}

int posix_memalign(void **out, size_t align, size_t size)
{
    if (align < sizeof(void *) || (align & (align - 1)) != 0) return EINVAL;
    void *p = memalign(align, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

void *valloc(size_t size)
{
    return memalign((size_t)sysconf(_SC_PAGESIZE), size);
}

void *pvalloc(size_t size)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t rounded = (size + page - 1) / page * page;
    if (rounded < size) return NULL;
    return memalign(page, rounded ? rounded : page);
}

bool bench_heap_counting(void)
{
    return true;
}

uint64_t bench_heap_current(void)
{
    int64_t now = __atomic_load_n(&heap_current, __ATOMIC_RELAXED);
    return now > 0 ? (uint64_t)now : 0;
}

uint64_t bench_heap_peak(void)
{
    int64_t peak = __atomic_load_n(&heap_peak, __ATOMIC_RELAXED);
    return peak > 0 ? (uint64_t)peak : 0;
}

void bench_heap_reset_peak(void)
{
    __atomic_store_n(&heap_peak, __atomic_load_n(&heap_current, __ATOMIC_RELAXED),
                     __ATOMIC_RELAXED);
}

#else

bool bench_heap_counting(void)
{
    return false;
}
uint64_t bench_heap_current(void)
{
    return 0;
}
uint64_t bench_heap_peak(void)
{
    return 0;
}
void bench_heap_reset_peak(void)
{
}

#endif
