/* serval-bench: the generated typed-JSON document.
 *
 * A realistic serval dump: one array of "Entity" objects (ids, names with the
 * occasional escape or non-ASCII character, Vector3 positions, float32 and
 * float64 numbers, tags, a u8, a stats map, bytes, references) and, every
 * BENCH_JSON_MESH_EVERY entities, a packed {"$f32s": [...]} of a few thousand
 * numbers. Each entity is built as a value tree and written with
 * sv_json_encode (compact), so the text is serval's canonical output; the
 * entities are joined with ',' inside '[' ']', exactly as the writer lays out
 * an array. Entities are appended until the text reaches the target size.
 *
 * Deterministic: every choice comes from one splitmix64 stream with a fixed
 * seed, and floats are made from it with correctly rounded IEEE-754
 * arithmetic only (no libm), so the same size gives the same bytes on every
 * run, compiler and machine. */
#ifndef SERVAL_BENCH_GEN_JSON_H
#define SERVAL_BENCH_GEN_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BENCH_JSON_SEED UINT64_C(0x73657276616c3031) /* "serval01" */
#define BENCH_JSON_MESH_EVERY 20000u                 /* entities per packed array */

typedef struct bench_json_doc {
    char *text; /* malloc'd; text[len] is a NUL (not part of the document) */
    size_t len;
    size_t entities;      /* items of the top-level array */
    size_t packed_arrays; /* {"$f32s": ...} among them */
    double seconds;       /* time taken to generate */
} bench_json_doc;

/* Generates the document for a target size in bytes (the result is at most
 * one entity longer). false on failure, with the reason in msg. */
bool bench_gen_json(size_t target_bytes, bench_json_doc *out, char *msg, size_t msg_size);
void bench_json_doc_free(bench_json_doc *doc);

#endif
