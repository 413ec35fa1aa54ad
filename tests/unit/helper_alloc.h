/* Test allocators: one that fails the Nth allocation (fault injection) and
 * counts live bytes, so a test can check that a failed run leaks nothing. */
#ifndef SV_TEST_HELPER_ALLOC_H
#define SV_TEST_HELPER_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "serval/alloc.h"

typedef struct test_alloc {
    sv_alloc alloc;      /* pass &t.alloc to serval */
    long fail_at;        /* 1-based index of the allocation to fail; 0 = never */
    long calls;          /* allocations attempted (malloc + growing realloc) */
    long failures;       /* allocations refused */
    int64_t live_bytes;  /* allocated minus freed */
    int64_t peak_bytes;
} test_alloc;

/* fail_at = 0: never fail. */
void test_alloc_init(test_alloc *t, long fail_at);

#endif
