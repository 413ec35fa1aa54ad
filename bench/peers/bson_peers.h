/* serval-bench: the BSON peers behind a C interface (bench/README.md,
 * "Resonite workloads").
 *
 * libbson (Debian's libbson-dev; compiled in when SERVAL_BENCH_LIBBSON is
 * defined): it has no tree, so "decode" is a full iteration over the same
 * bytes that reads every value (bson_iter_* into locals), and "encode"
 * builds a new document from such an iteration with the typed appends.
 *
 * Node (bench/node/peer.js, run as a child process; always compiled, it
 * reports itself unavailable when node or the bson package is missing):
 * the bson npm package's BSON.deserialize / BSON.serialize, and Node's
 * zlib.brotliDecompressSync. */
#ifndef SERVAL_BENCH_BSON_PEERS_H
#define SERVAL_BENCH_BSON_PEERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Walks every element; *elements gets their number. false: invalid BSON. */
bool bench_libbson_walk(const uint8_t *data, size_t len, size_t *elements);
/* A new document with the same elements; returns it (bson_t *) and its
 * length, NULL on failure. */
void *bench_libbson_rebuild(const uint8_t *data, size_t len, size_t *out_len);
void bench_libbson_free(void *doc);
const char *bench_libbson_version(void);

/* A running node peer. */
typedef struct bench_node bench_node;
/* Starts node on bench/node/peer.js with the job ("bson-decode",
 * "bson-encode", "brson-decode") over the bytes (written to a temporary
 * file); *count gets what the peer counted (top-level elements of the BSON
 * root, or the bytes it produced). NULL with the reason in msg. */
bench_node *bench_node_start(const char *job, const uint8_t *data, size_t len, size_t *count,
                             char *msg, size_t msg_size);
/* One timed run inside node; *out_size gets the bytes it produced (encode). */
bool bench_node_run(bench_node *n, size_t *out_size, char *msg, size_t msg_size);
void bench_node_stop(bench_node *n);
/* "node v20.x, bson 6.x" or why it is unavailable (static). */
const char *bench_node_version(void);

#endif
