/* Fuzz target for encrypted Godot files (the godot-enc format,
 * src/formats/godot/godot_gdec_*.c): a GDEC file is decoded with a fixed key
 * (the plaintext kept as bytes, so that any plaintext round-trips), and a
 * file that decodes is written back through sv_convert_encode, the function
 * 'serval conv' calls, with the same key.
 *
 * Properties checked: no crash, no leak; a failure names "godot-enc"; the
 * re-encrypted file is the input byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serval/convert.h"
#include "serval/registry.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz-godot-gdec: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    const sv_format *f = sv_format_find("godot-enc");
    if (!f) return 0;
    /* the key of tests/vectors/godot-gdec/engine3 */
    static const char *const names[] = {"key", "inner"};
    static const char *const values[] = {
        "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "bytes"};
    sv_options o;
    sv_options_init(&o);
    o.names = names;
    o.values = values;
    o.count = 2;
    o.limits.max_alloc = 64u << 20;
    sv_doc *doc = sv_doc_new(NULL);
    check(doc != NULL, "out of memory");
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    if (f->decode(doc, data, len, &o, &root, &err) != SV_OK) {
        check(err.message[0] && err.format && !strcmp(err.format, "godot-enc"),
              "an error not naming godot-enc");
        sv_doc_free(doc);
        return 0;
    }
    sv_options eo = o;
    eo.count = 1; /* the key alone: inner comes from the tree */
    sv_convert_opts co;
    sv_convert_opts_init(&co);
    co.format_options = &eo;
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error_clear(&err);
    sv_status st = sv_convert_encode(f, f, &root, &co, &b, NULL, &err);
    check(st == SV_OK, "a decoded file does not write back");
    check(b.len == len && !memcmp(b.data, data, len), "the re-encrypted file differs");
    sv_buf_free(&b);
    sv_doc_free(doc);
    return 0;
}
