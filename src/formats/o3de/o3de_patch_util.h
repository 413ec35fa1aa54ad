/* What applying and creating patches share (internal): a JSON Pointer path
 * that is always kept (created patches carry it), the reporting callback,
 * RapidJSON's Pointer tokens and its operator== on values.
 * docs/formats/o3de.md, "JSON Patch and JSON Merge Patch". */
#ifndef SV_O3DE_PATCH_UTIL_H
#define SV_O3DE_PATCH_UTIL_H

#include "serval/buf.h"
#include "o3de_internal.h"

typedef struct o3p_ctx {
    sv_doc *doc;
    sv_o3de_report_fn report;
    void *report_ctx;
    sv_buf path; /* JSON Pointer of the current element, NUL-terminated */
    unsigned depth;
    bool too_deep;
    bool nomem; /* a scratch allocation failed: the call fails with SV_ERR_NOMEM */
} o3p_ctx;

/* opts is NULL (no reporting) or complete (o3_opts_read made it). */
void o3p_init(o3p_ctx *p, sv_doc *doc, const sv_o3de_opts *opts);
void o3p_free(o3p_ctx *p);
/* Push a member name (escaped ~0 ~1) or an index; pop back to the mark. */
size_t o3p_push_key(o3p_ctx *p, const char *key, size_t len);
size_t o3p_push_index(o3p_ctx *p, size_t i);
void o3p_pop(o3p_ctx *p, size_t mark);
const char *o3p_path(const o3p_ctx *p);
/* Reports r at path (NULL: the current element path); returns what the
 * callback makes of it. */
o3_res o3p_report(o3p_ctx *p, o3_res r, const char *path, const char *msg);

/* A parsed JSON Pointer, as rapidjson::Pointer parses one: tokens with their
 * unescaped names and an index (O3P_NO_INDEX when the token is not a
 * decimal without leading zeros that fits in 32 bits). */
#define O3P_NO_INDEX 0xFFFFFFFFu
typedef struct o3p_token {
    const char *name; /* in the pointer's own buffer, NUL-terminated */
    size_t len;
    uint32_t index;
} o3p_token;
typedef struct o3p_pointer {
    o3p_token *tok;
    size_t n;
    char *buf;
    size_t len;            /* the text's length: buf holds len + 1 bytes, tok len + 1 tokens */
    const sv_alloc *alloc; /* buf's and tok's */
    bool valid;
} o3p_pointer;
/* Parses s into ptr, its memory from alloc (the document's); false: out of memory. */
bool o3p_pointer_parse(o3p_pointer *ptr, const char *s, size_t len, const sv_alloc *alloc);
void o3p_pointer_free(o3p_pointer *ptr);
/* The value the first n tokens point at in *root, or NULL. */
sv_value *o3p_get(sv_value *root, const o3p_pointer *ptr, size_t n);

/* rapidjson::GenericValue::operator==: same JSON type, numbers equal as
 * doubles when either is a double, objects of the same size whose every
 * member is found (first of that name) with an equal value. */
bool o3p_rj_equal(const sv_value *a, const sv_value *b, unsigned depth);

#endif
