/* serval-bench: the Godot workloads' data (gen_godot.c), built the same way
 * by bench/godot/bench.gd inside the engine. */
#ifndef SERVAL_BENCH_GEN_GODOT_H
#define SERVAL_BENCH_GEN_GODOT_H

#include <stdbool.h>
#include <stddef.h>

#include <serval/value.h>

#define BENCH_GODOT_VEC3_COUNT 4000000u
#define BENCH_GODOT_DICT_COUNT 200000u

/* packed_vec3: a PackedVector3Array, element i = (i * 0.5, i * -0.25, i % 1000). */
sv_value bench_gen_godot_vec3(sv_doc *doc);
/* mixed_dicts: an Array of dictionaries {"id": i, "name": "entity_<i>",
 * "pos": Vector3(i, i * 0.5, -i), "hp": (i % 1000) / 8.0 for even i, else
 * i * 0.1, "tags": ["a", "bb", i]}. */
sv_value bench_gen_godot_dicts(sv_doc *doc);

#endif
