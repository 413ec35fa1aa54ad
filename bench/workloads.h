/* serval-bench: the workload table.
 *
 * A workload is a name ("json.parse"), the input it works on and the
 * implementations that do the same job on it. The first implementation is
 * serval; the ratio line compares it with each of the others.
 *
 * Adding workloads = one new file + one line:
 *   1. bench/workloads_<group>.c defines
 *        const bench_workload bench_workloads_<group>[] = { {...}, {...}, {NULL} };
 *      (CMake picks up every bench/workloads_*.c by itself);
 *   2. add X(<group>) to BENCH_WORKLOAD_GROUPS below (under its format's
 *      SERVAL_WITH_ switch when it needs one). */
#ifndef SERVAL_BENCH_WORKLOADS_H
#define SERVAL_BENCH_WORKLOADS_H

#include "harness.h"

#include "serval/config.h"

/* A format's group is there only when the library was built with it. */
#if SERVAL_WITH_GODOT
#define BENCH_GROUP_GODOT(X) X(godot)
#else
#define BENCH_GROUP_GODOT(X)
#endif
#if SERVAL_WITH_RESONITE
#define BENCH_GROUP_RESONITE(X) X(resonite)
#else
#define BENCH_GROUP_RESONITE(X)
#endif
#if SERVAL_WITH_NOESIS
#define BENCH_GROUP_NOESIS(X) X(noesis)
#else
#define BENCH_GROUP_NOESIS(X)
#endif
#if SERVAL_WITH_KINGSISLE
#define BENCH_GROUP_KINGSISLE(X) X(kingsisle) X(kiwad)
#else
#define BENCH_GROUP_KINGSISLE(X)
#endif

#if SERVAL_WITH_O3DE
#define BENCH_GROUP_O3DE(X) X(o3de)
#else
#define BENCH_GROUP_O3DE(X)
#endif

#define BENCH_WORKLOAD_GROUPS(X)                                                                   \
    X(json) BENCH_GROUP_GODOT(X) BENCH_GROUP_RESONITE(X) BENCH_GROUP_NOESIS(X) X(schema)      \
        BENCH_GROUP_KINGSISLE(X) BENCH_GROUP_O3DE(X)

typedef struct bench_workload {
    const char *name; /* "group.verb"; NULL ends a group's table */
    const char *what; /* one line for --list */
    /* Builds (or returns the cached) input, in the parent, once per run of
     * the program. false = cannot run, with the reason in msg. */
    bool (*input)(const bench_opts *opts, bench_input *in, char *msg, size_t msg_size);
    const bench_impl *impls[BENCH_MAX_IMPLS]; /* serval first; NULL-terminated */
} bench_workload;

#define BENCH_DECLARE_GROUP(group) extern const bench_workload bench_workloads_##group[];
BENCH_WORKLOAD_GROUPS(BENCH_DECLARE_GROUP)
#undef BENCH_DECLARE_GROUP

#endif
