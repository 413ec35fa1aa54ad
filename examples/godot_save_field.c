/* Read one field out of a Godot save blob.
 *
 * The bytes below are what Godot 3.2.3's var2bytes() returns for
 *   {"id": 7, "name": "entity_7", "pos": Vector3(1, 2, 3), "hp": 0.75,
 *    "tags": ["a", "bb", 7]}
 * (a dictionary of the kind a game stores with File.store_var). The program
 * decodes them with the godot3 profile, prints a few fields and the whole
 * value as serval's typed JSON.
 *
 *   cc godot_save_field.c $(pkg-config --cflags --libs serval) */
#include <stdint.h>
#include <stdio.h>

#include <serval/serval.h>

static const uint8_t save_blob[] = {
    0x12, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, /* Dictionary, 5 pairs */
    0x04, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x69, 0x64, 0x00, 0x00, /* "id" */
    0x02, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,                         /* int 7 */
    0x04, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x6e, 0x61, 0x6d, 0x65, /* "name" */
    0x04, 0x00, 0x00, 0x00, 0x08, 0x00, 0x00, 0x00, 0x65, 0x6e, 0x74, 0x69,
    0x74, 0x79, 0x5f, 0x37,                                                 /* "entity_7" */
    0x04, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x70, 0x6f, 0x73, 0x00, /* "pos" */
    0x07, 0x00, 0x00, 0x00, 0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0x40,
    0x00, 0x00, 0x40, 0x40,                                                 /* Vector3(1, 2, 3) */
    0x04, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x68, 0x70, 0x00, 0x00, /* "hp" */
    0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x40, 0x3f,                         /* float 0.75 */
    0x04, 0x00, 0x00, 0x00, 0x04, 0x00, 0x00, 0x00, 0x74, 0x61, 0x67, 0x73, /* "tags" */
    0x13, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00,                         /* Array, 3 items */
    0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x61, 0x00, 0x00, 0x00, /* "a" */
    0x04, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x62, 0x62, 0x00, 0x00, /* "bb" */
    0x02, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00,                         /* int 7 */
};

static int fail(const char *what, const sv_error *err)
{
    char msg[512];
    sv_error_format(err, msg, sizeof msg);
    fprintf(stderr, "godot_save_field: %s: %s\n", what, msg);
    return 1;
}

int main(void)
{
    sv_doc *doc = sv_doc_new(NULL); /* owns every value decoded into it */
    if (!doc) return 1;
    sv_error err;
    sv_error_clear(&err);
    sv_godot_opts opts;
    sv_godot_opts_init(&opts, SV_GODOT3);
    sv_value root;
    size_t used = 0;
    if (sv_godot_decode(doc, save_blob, sizeof save_blob, &opts, &root, &used, &err) != SV_OK) {
        int rc = fail("decode", &err);
        sv_doc_free(doc);
        return rc;
    }

    /* A Dictionary with string keys is a map; Vector3 is a tuple of 3 numbers. */
    size_t name_len = 0;
    const char *name = sv_get_str(sv_map_getz(&root, "name"), &name_len);
    const sv_value *pos = sv_map_getz(&root, "pos");
    printf("read %zu of %zu bytes\n", used, sizeof save_blob);
    printf("name = %.*s\n", (int)name_len, name ? name : "");
    printf("pos.y = %g (a %s)\n", sv_number_at(pos, 1), sv_tag_name(sv_tag_of(pos)));
    printf("hp = %g\n", sv_get_f64(sv_map_getz(&root, "hp")));
    printf("tags: %u items\n", (unsigned)sv_len(sv_map_getz(&root, "tags")));

    sv_buf json;
    sv_buf_init(&json, NULL);
    if (sv_json_encode(&root, NULL, &json, &err) != SV_OK) {
        int rc = fail("to JSON", &err);
        sv_buf_free(&json);
        sv_doc_free(doc);
        return rc;
    }
    printf("%.*s\n", (int)json.len, (const char *)json.data);
    sv_buf_free(&json);
    sv_doc_free(doc);
    return 0;
}
