/* serval-bench: the target table (targets.h). The machine class the targets
 * are set for is a 2-core VM, where first touches of fresh memory are
 * expensive; bench/README.md says how to read a miss. */
#include "targets.h"

const bench_target bench_targets[] = {
    /* the writers alone, each into an output buffer kept between runs:
     * with fresh buffers both also pay the same first page touches */
    {"json.write", BENCH_TARGET_RATIO, "rapidjson-kept", 3.0, "serval-kept"},
    /* the engine decodes in a loop (bench/godot/bench.gd) that frees each
     * result once the next is made, so from the third run its allocator
     * hands out memory it already touched: serval's like is one document
     * reset between decodes (the fresh-document row stays printed) */
    {"godot.dicts.decode", BENCH_TARGET_RATIO, "godot3.2.3", 10.0, "serval-reuse"},
    {"godot.dicts.encode", BENCH_TARGET_RATIO, "godot3.2.3", 10.0, NULL},
    /* libbson only iterates the bytes (it builds no tree): a floor. */
    {"resonite.bson-decode", BENCH_TARGET_RATIO, "libbson", 1.0, NULL},
    /* noesis: the decoder's own work, into a document reset between runs
     * (as the CLI's batches reuse one), and the encoder's, into an output
     * buffer kept between runs: a fresh 300 MB tree's or 50 MB buffer's
     * first page touches alone are system time the format cannot remove.
     * The fresh-memory `serval` rows stay printed beside them. */
    {"noesis.decode", BENCH_TARGET_MBPS, NULL, 500.0, "serval-reused-doc"},
    {"noesis.encode", BENCH_TARGET_MBPS, NULL, 500.0, "serval-reused-out"},
    {"kingsisle.encode", BENCH_TARGET_MBPS, NULL, 1000.0, NULL},
    /* the peer writes into a new StringBuffer every run (bench_rj_write),
     * so serval's like is its fresh-buffer row; the kept pair
     * (serval-reused-out, rapidjson-kept) stays printed */
    {"o3de.store", BENCH_TARGET_RATIO, "rapidjson", 2.0, "serval"},
};

const size_t bench_target_count = sizeof bench_targets / sizeof bench_targets[0];
