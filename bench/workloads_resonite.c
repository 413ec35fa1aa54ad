/* serval-bench: the resonite workloads (filled in by the resonite format work). */
#include "workloads.h"

const bench_workload bench_workloads_resonite[] = {
    {NULL, NULL, NULL, {NULL}},
};
