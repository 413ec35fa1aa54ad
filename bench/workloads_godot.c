/* serval-bench: the godot workloads (filled in by the godot format work). */
#include "workloads.h"

const bench_workload bench_workloads_godot[] = {
    {NULL, NULL, NULL, {NULL}},
};
