/* serval-bench: the peer libraries behind a C interface.
 *
 * Each peer parses text into its own tree (a handle), writes a tree back to
 * compact text, and frees both. Writing returns the output buffer instead of
 * freeing it, so that releasing a large buffer happens outside the timer for
 * every implementation alike (serval's sv_buf is freed the same way).
 *
 * A peer is compiled only when its library was found at configure time:
 * SERVAL_BENCH_RAPIDJSON, SERVAL_BENCH_SIMDJSON and SERVAL_BENCH_JANSSON say
 * which are present. */
#ifndef SERVAL_BENCH_PEERS_H
#define SERVAL_BENCH_PEERS_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* RapidJSON (peers/rapidjson_peer.cpp): a Document parsed with full-precision
 * numbers, written with Writer<StringBuffer>. text[len] must be a NUL.
 * parse returns NULL on failure with the reason in err; *items gets the
 * number of items of a top-level array (0 otherwise). */
void *bench_rj_parse(const char *text, size_t len, size_t *items, char *err, size_t err_size);
/* Returns the StringBuffer (NULL on failure) and its size in *size. */
void *bench_rj_write(const void *doc, size_t *size);
void bench_rj_free_text(void *buffer);
/* An empty StringBuffer, and a write into one that was written before: its
 * memory is kept (the kept-buffer rows of json.write). */
void *bench_rj_text_new(void);
bool bench_rj_write_into(const void *doc, void *buffer, size_t *size);
void bench_rj_free(void *doc);
const char *bench_rj_version(void);

/* simdjson (peers/simdjson_peer.cpp), DOM API. It reads past the end of its
 * input, so the text is first copied once, untimed, into a padded buffer
 * (bench_sj_pad); bench_sj_parse parses that with a new dom::parser and
 * returns the parser and its root (NULL on failure, reason in err); *items
 * as for RapidJSON. */
void *bench_sj_pad(const char *text, size_t len);
void bench_sj_free_pad(void *padded);
void *bench_sj_parse(const void *padded, size_t *items, char *err, size_t err_size);
void bench_sj_free(void *doc);
const char *bench_sj_version(void);

/* jansson (peers/jansson_peer.c): json_loadb, json_dumps(JSON_COMPACT). */
void *bench_jansson_parse(const char *text, size_t len, size_t *items, char *err, size_t err_size);
/* Returns the NUL-terminated text (NULL on failure); its length is strlen. */
char *bench_jansson_write(const void *doc);
void bench_jansson_free_text(char *text);
void bench_jansson_free(void *doc);
const char *bench_jansson_version(void);

#ifdef __cplusplus
}
#endif
#endif
