/* serval-bench: the bytes malloc holds in this process, whoever asked
 * (heap_count.c replaces malloc and its siblings to count them). */
#ifndef SERVAL_BENCH_HEAP_COUNT_H
#define SERVAL_BENCH_HEAP_COUNT_H

#include <stdbool.h>
#include <stdint.h>

/* false when the build could not replace malloc (no glibc, or sanitizers):
 * the other three then return 0 and the figure is not shown. */
bool bench_heap_counting(void);
uint64_t bench_heap_current(void);
uint64_t bench_heap_peak(void); /* the most held at once since the last reset */
void bench_heap_reset_peak(void); /* peak = current */

#endif
