/* The libFuzzer target of schema files (fuzz/CMakeLists.txt builds it as
 * the "schema" entry):
 *
 *   SV_FUZZ_ROUNDTRIP  0: load only (every loader, picked by content).
 *                      1: whatever loads must merge into an empty schema and
 *                      finalise again, with the same classes, every class's
 *                      zero value must be made, and its description written.
 *
 * A broken property aborts, which libFuzzer and the replay driver report as
 * a crash with the input saved. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serval/serval.h"

#ifndef SV_FUZZ_ROUNDTRIP
#define SV_FUZZ_ROUNDTRIP 0
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void fail(const char *what, const sv_error *err)
{
    fprintf(stderr, "fuzz schema: %s%s%s\n", what, err ? ": " : "", err ? err->message : "");
    abort();
}

#if SV_FUZZ_ROUNDTRIP
static void exercise(const sv_schema *s)
{
    sv_error err;
    sv_schema *m = sv_schema_new(NULL);
    if (!m) abort();
    if (sv_schema_merge(m, s, &err) != SV_OK) fail("a schema does not merge into an empty one", &err);
    if (sv_schema_finalize(m, &err) != SV_OK) fail("a merged schema does not finalise", &err);
    if (sv_schema_class_count(m) != sv_schema_class_count(s) ||
        sv_schema_enum_count(m) != sv_schema_enum_count(s))
        fail("merging changed the number of classes or enums", NULL);
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) abort();
    sv_doc_set_max_alloc(doc, UINT64_C(64) << 20);
    sv_buf b;
    sv_buf_init(&b, NULL);
    for (size_t i = 0; i < sv_schema_class_count(m); i++) {
        const sv_schema_class *c = sv_schema_class_at(m, i);
        const sv_type *t;
        if (sv_schema_parse_type(m, c->name, strlen(c->name), &t, &err) != SV_OK)
            fail("a class name does not parse as a type", &err);
        sv_value z;
        sv_status st = sv_schema_zero_value(m, t, doc, &z, &err);
        if (st != SV_OK && st != SV_ERR_NOMEM && st != SV_ERR_LIMIT && st != SV_ERR_DEPTH)
            fail("no zero value", &err);
        if (sv_schema_describe_class(m, c, &b) != SV_OK) fail("no description", NULL);
    }
    sv_buf_free(&b);
    sv_doc_free(doc);
    sv_schema_free(m);
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    sv_schema *s;
    sv_error err;
    sv_status st = sv_schema_load(NULL, data, len, "fuzz", &s, &err);
    if (st == SV_OK) {
#if SV_FUZZ_ROUNDTRIP
        exercise(s);
#endif
        sv_schema_free(s);
    } else if (s || err.status != st || err.message[0] == '\0') {
        fail("an error without a message", NULL);
    }
    return 0;
}
