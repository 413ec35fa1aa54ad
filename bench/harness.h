/* serval-bench: the measuring harness.
 *
 * A workload (workloads.h) names an input and a list of implementations.
 * Each implementation runs in its own forked child, so that one
 * implementation's heap (what malloc keeps after a free, its fragmentation)
 * cannot flatter or penalise another, and so that a crash or a hang in an
 * implementation under development is reported instead of ending the run.
 *
 * The children are set up first (untimed: build what the steps need and check
 * the answer), then timed in rounds: in each round every child does one timed
 * step in turn (the order rotates from round to round). On a shared machine
 * the load then falls on all implementations alike, which keeps the ratios
 * steady even when the absolute figures move. Children talk to the parent
 * through two pipes each.
 *
 * Timing: CLOCK_MONOTONIC around each timed step, inside the child; N rounds
 * (default 7); the median and the minimum are kept.
 *
 * Memory, two ways (the output says which one a line shows):
 *  - "alloc": serval routes every allocation through a counting sv_alloc
 *    (bench_counting_alloc), so its peak is exact: the most bytes it held at
 *    once during the timed steps.
 *  - "rss": for the peers, whose allocations we do not route, the growth of
 *    the child's resident set: ru_maxrss during the timed steps minus the
 *    resident size at fork (which holds the input text, shared with the
 *    parent). The kernel's high-water mark is reset after the untimed setup
 *    (Linux /proc/self/clear_refs, value 5), so the verification done there
 *    does not count, but a tree built in setup and kept does.
 *  serval's lines show its rss growth too, so the two can be compared.
 *
 * Memory traffic, the same way for every implementation that runs in the
 * child: the heap's peak growth during the steps (every malloc of the
 * process counted, heap_count.h), minor page faults and the user/system CPU
 * split (getrusage around each step), per step on average. */
#ifndef SERVAL_BENCH_HARNESS_H
#define SERVAL_BENCH_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <serval/alloc.h>

#define BENCH_MAX_RUNS 101
#define BENCH_MSG_MAX 240

/* Command-line options shared by every workload. */
typedef struct bench_opts {
    int runs;       /* timed steps per measurement (--runs) */
    double size_mb; /* size of generated inputs in MB = 10^6 bytes (--size-mb) */
    bool verbose;   /* print every run's time (--verbose) */
} bench_opts;

/* The bytes a workload works on, built once in the parent and shared by the
 * children (fork gives them the same pages). text[len] is a NUL, for the
 * peers that want one; the NUL is not part of the input. */
typedef struct bench_input {
    const char *text;
    size_t len;
} bench_input;

typedef enum bench_mem {
    BENCH_MEM_ALLOC, /* peak through the counting sv_alloc (serval) */
    BENCH_MEM_RSS    /* ru_maxrss growth of the forked child (peers) */
} bench_mem;

/* State of one implementation inside its child. */
typedef struct bench_ctx {
    const bench_input *in;
    const sv_alloc *alloc; /* the counting allocator; serval passes it everywhere */
    void *state;           /* what setup builds and the steps use (a tree, say) */
    void *made;            /* what one step made, for after_step to free */
    size_t out_size;       /* bytes one step produced, for writers (0 = not shown) */
    /* A step that runs in another process (an engine timing itself) sets the
     * time it measured here; > 0 replaces the harness's own clock. */
    double self_seconds;
    /* Set by setup when the work is done by another process (Node, the
     * engine): this child's CPU time, page faults and heap then say nothing
     * about it, and are shown as not measured. */
    bool external;
    /* Set by setup, with a failure, when the peer is not installed here:
     * "not measured", neither a failed measurement nor a missed target. */
    bool unavailable;
    char msg[BENCH_MSG_MAX];
} bench_ctx;

/* One implementation of one workload. Every callback runs in the child. */
typedef struct bench_impl {
    const char *name; /* "serval", "rapidjson", "jansson" */
    bench_mem mem;
    /* Untimed, once: build what the steps need and check that the result is
     * right (this doubles as the warm-up). false = failed, reason in ctx->msg. */
    bool (*setup)(bench_ctx *ctx);
    /* The timed step. false = failed, reason in ctx->msg. */
    bool (*step)(bench_ctx *ctx);
    /* Untimed, after each step: free what the step made (ctx->made). May be NULL. */
    void (*after_step)(bench_ctx *ctx);
} bench_impl;

/* Copies the input once per step: the yardstick of formats with no peer
 * that can run here (KingsIsle, NoesisGUI). */
extern const bench_impl bench_memcpy_impl;

/* What a measurement gives back to the parent. */
typedef struct bench_result {
    bool ok;
    char msg[BENCH_MSG_MAX]; /* why it failed */
    bench_mem mem;
    int runs;
    double seconds[BENCH_MAX_RUNS];
    double median_s, min_s;
    uint64_t alloc_peak; /* bytes, BENCH_MEM_ALLOC only */
    uint64_t rss_growth; /* bytes */
    bool rss_reset;      /* the high-water mark was reset after setup */
    uint64_t out_size;   /* bytes one step produced (writers), else 0 */
    /* Memory traffic and CPU, summed over the timed steps (getrusage of the
     * child around each step; the heap figure from heap_count.h). */
    double user_s, sys_s; /* CPU time in user space and in the kernel */
    uint64_t minflt;      /* minor page faults: first touches of fresh pages */
    uint64_t heap_growth; /* most bytes malloc held at once during the steps,
                             above what it held when they began */
    bool heap_counted;    /* heap_growth is known */
    bool external;        /* the work ran in another process (bench_ctx) */
    bool unavailable;     /* the peer is not installed (bench_ctx) */
} bench_result;

/* Measures impls[0..n) (n <= BENCH_MAX_IMPLS) on in: set up every child,
 * then `runs` rounds of one timed step each; res[i] gets impls[i]'s figures.
 * Each setup and each step has BENCH_CHILD_TIMEOUT_S seconds (an alarm in the
 * child), so a hang ends as an error. Returns the number of failures (a peer
 * that is not installed, bench_ctx.unavailable, is not one). */
#define BENCH_MAX_IMPLS 8
#define BENCH_CHILD_TIMEOUT_S 300
int bench_measure(const bench_impl *const *impls, size_t n, const bench_input *in, int runs,
                  bench_result *res);

/* The counting allocator: libc underneath, plus the bytes held now and the
 * most held at once since the last reset. Process-wide (one per child). */
const sv_alloc *bench_counting_alloc(void);
uint64_t bench_alloc_current(void);
uint64_t bench_alloc_peak(void);
void bench_alloc_reset_peak(void); /* peak = current */

/* Monotonic seconds. */
double bench_now(void);

/* snprintf into ctx->msg; returns false so callbacks can `return bench_fail(...)`. */
bool bench_fail(bench_ctx *ctx, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The input's size in MB (10^6 bytes) per second at the given time. */
double bench_mb_per_s(size_t bytes, double seconds);

#endif
