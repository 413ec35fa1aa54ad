/* A program that embeds serval built with JSON and Godot only.
 *
 * The umbrella header must compile with the formats left out and say which
 * are there; the registry must list exactly the four formats built; and a
 * Godot 4 blob must decode to the expected tree and encode back to the same
 * bytes. The blob is the typed-array case of Godot's own unit tests
 * (tests/core/io/test_marshalls.h): Array[int] holding 0xf123456789abcdef. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <serval/serval.h>

#if !SERVAL_WITH_JSON || !SERVAL_WITH_GODOT
#error "JSON and Godot were asked for"
#endif
#if SERVAL_WITH_BSON || SERVAL_WITH_RESONITE || SERVAL_WITH_NOESIS || SERVAL_WITH_O3DE
#error "BSON, Resonite, Noesis and O3DE were left out"
#endif
#if defined(SERVAL_BSON_H) || defined(SERVAL_RESONITE_H) || defined(SERVAL_NOESIS_H) || \
    defined(SERVAL_O3DE_H)
#error "serval.h included the header of a format left out"
#endif

static const uint8_t typed_array[] = {0x1c, 0x00, 0x01, 0x00, 0x02, 0x00, 0x00, 0x00,
                                      0x01, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01, 0x00,
                                      0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0xf1};
static const char expected_json[] = "{\"$array\":[{\"$int\":\"-1070935975390360081\"}],\"$meta\":{\"type\":\"int\"}}";

int main(void)
{
    size_t n = 0;
    const sv_format *const *all = sv_formats(&n);
    char names[128] = "";
    for (size_t i = 0; i < n; i++) {
        if (i) strcat(names, " ");
        if (strlen(names) + strlen(all[i]->name) + 2 > sizeof names) return 1;
        strcat(names, all[i]->name);
    }
    printf("formats: %s\n", names);
    if (strcmp(names, "json godot4 godot3 godot-doc godot-res godot-enc godot-project") != 0) return 1;

    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return 1;
    sv_error err;
    sv_error_clear(&err);
    sv_godot_opts opts;
    sv_godot_opts_init(&opts, SV_GODOT4);
    sv_value v;
    size_t used = 0;
    sv_buf json, bytes;
    sv_buf_init(&json, NULL);
    sv_buf_init(&bytes, NULL);
    int ok = sv_godot_decode(doc, typed_array, sizeof typed_array, &opts, &v, &used, &err) == SV_OK &&
             used == sizeof typed_array && sv_json_encode(&v, NULL, &json, &err) == SV_OK &&
             sv_godot_encode(&v, &opts, &bytes, &err) == SV_OK;
    if (!ok) {
        char msg[512];
        sv_error_format(&err, msg, sizeof msg);
        fprintf(stderr, "embedder: %s\n", msg);
    } else {
        printf("json: %.*s\n", (int)json.len, (const char *)json.data);
        ok = json.len == strlen(expected_json) && memcmp(json.data, expected_json, json.len) == 0 &&
             bytes.len == sizeof typed_array && memcmp(bytes.data, typed_array, bytes.len) == 0;
        printf("same bytes back: %s\n", ok ? "yes" : "no");
    }
    sv_buf_free(&bytes);
    sv_buf_free(&json);
    sv_doc_free(doc);
    return ok ? 0 : 1;
}
