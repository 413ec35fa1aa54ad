/* The sizing pass of the streaming BSON writer (bson_measure.c), internal. */
#ifndef SV_FORMATS_BSON_SIZES_H
#define SV_FORMATS_BSON_SIZES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/alloc.h"
#include "serval/value.h"

/* The byte length of every length-prefixed part of a document (documents,
 * arrays, code_w_scope), in the order the writer opens them. */
typedef struct sv__bson_sizes {
    const sv_alloc *alloc;
    uint32_t *v;
    size_t len, cap;
} sv__bson_sizes;

/* Fills sz for the document root (a MAP or OBJECT) and sets *total to its
 * bytes. false: it cannot be streamed (nesting over the writer's limit, a
 * part over INT32_MAX bytes, or no memory for sz): the writer then writes
 * the whole output into its buffer, as without a sink, and reports what is
 * wrong. urls: sv_bson_opts.resonite_urls. */
bool sv__bson_measure(const sv_value *root, bool urls, sv__bson_sizes *sz, uint64_t *total);
void sv__bson_sizes_free(sv__bson_sizes *sz);

#endif
