/* serval-bench: the target table (targets.h). The machine class the targets
 * are set for is a 2-core VM, where first touches of fresh memory are
 * expensive; bench/README.md says how to read a miss. */
#include "targets.h"

const bench_target bench_targets[] = {
    {"json.write", BENCH_TARGET_RATIO, "rapidjson", 3.0},
    {"godot.dicts.decode", BENCH_TARGET_RATIO, "godot3.2.3", 10.0},
    {"godot.dicts.encode", BENCH_TARGET_RATIO, "godot3.2.3", 10.0},
    /* libbson only iterates the bytes (it builds no tree): a floor. */
    {"resonite.bson-decode", BENCH_TARGET_RATIO, "libbson", 1.0},
    {"noesis.decode", BENCH_TARGET_MBPS, NULL, 500.0},
    {"noesis.encode", BENCH_TARGET_MBPS, NULL, 500.0},
    {"kingsisle.encode", BENCH_TARGET_MBPS, NULL, 1000.0},
    {"o3de.store", BENCH_TARGET_RATIO, "rapidjson", 2.0},
};

const size_t bench_target_count = sizeof bench_targets / sizeof bench_targets[0];
