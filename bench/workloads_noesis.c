/* serval-bench: the noesis workloads (filled in by the noesis format work). */
#include "workloads.h"

const bench_workload bench_workloads_noesis[] = {
    {NULL, NULL, NULL, {NULL}},
};
