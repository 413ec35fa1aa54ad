/* serval-bench: the speed targets of the in-process workloads, checked
 * after a run (main.c prints "met", "MISSED" or "not measured" per row and
 * exits 1 on a miss). The whole-process targets (conv against jq, peak RSS)
 * are in bench/whole_process.sh, which checks them the same way. */
#ifndef SERVAL_BENCH_TARGETS_H
#define SERVAL_BENCH_TARGETS_H

#include <stddef.h>

typedef enum bench_target_kind {
    BENCH_TARGET_RATIO, /* peer median time / serval median time >= min */
    BENCH_TARGET_MBPS   /* serval's input MB (10^6 bytes) per second >= min */
} bench_target_kind;

typedef struct bench_target {
    const char *workload; /* a name from --list */
    bench_target_kind kind;
    const char *peer; /* the impl name compared with (RATIO only) */
    double min;
    /* the serval impl compared (RATIO only); NULL = the workload's first */
    const char *self;
} bench_target;

extern const bench_target bench_targets[];
extern const size_t bench_target_count;

#endif
