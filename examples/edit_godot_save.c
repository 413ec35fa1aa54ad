/* Edit a Godot 3 save game: raise the player's gold, give a title, drop an
 * item from the inventory, and write the save back.
 *
 *   edit_godot_save player.godot3 edited.godot3
 *
 * player.godot3 (in examples/) is what Godot 3.2.3 writes with
 * File.store_var(save): a length prefix, then a Dictionary. The program
 * prints the paths it changes, and the edited save as the game will read it.
 *
 *   cc edit_godot_save.c $(pkg-config --cflags --libs serval) */
#include <stdio.h>

#include <serval/serval.h>

static int fail(const char *what, const sv_error *err)
{
    char msg[512];
    sv_error_format(err, msg, sizeof msg);
    fprintf(stderr, "edit_godot_save: %s: %s\n", what, msg);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: edit_godot_save IN OUT\n");
        return 2;
    }
    /* store_var's framing: a 4-byte length before the value. */
    const char *names[] = {"framing"}, *values[] = {"prefixed"};
    sv_options opts;
    sv_options_init(&opts);
    opts.names = names;
    opts.values = values;
    opts.count = 1;
    const sv_format *godot3 = sv_format_find("godot3");

    sv_doc *doc = sv_doc_new(NULL);
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    if (sv_file_decode(doc, argv[1], godot3, &opts, &root, &err) != SV_OK) return fail(argv[1], &err);

    sv_value *gold = sv_get_path(doc, &root, "/player/gold");
    printf("gold was %lld\n", (long long)sv_get_int(gold));
    /* A Godot int is a 32-bit Variant unless it needs 64 bits. */
    if (sv_set_path(doc, &root, "/player/gold", sv_int_w(9999, 4)) != SV_OK ||
        sv_map_set(doc, sv_get_path(doc, &root, "/player"), "title", sv_strz(doc, "Hero")) != SV_OK ||
        sv_remove_path(doc, &root, "/player/inventory/1") != SV_OK) {
        fprintf(stderr, "edit_godot_save: an edit failed\n");
        return 1;
    }
    printf("gold is %lld, title %s, %u items\n",
           (long long)sv_get_int(sv_get_path(doc, &root, "/player/gold")),
           sv_get_str(sv_get_path(doc, &root, "/player/title"), NULL),
           (unsigned)sv_len(sv_get_path(doc, &root, "/player/inventory")));

    sv_buf out;
    sv_buf_init(&out, NULL);
    if (godot3->encode(&root, &opts, &out, &err) != SV_OK) return fail("encode", &err);
    FILE *f = fopen(argv[2], "wb");
    if (!f || fwrite(out.data, 1, out.len, f) != out.len || fclose(f) != 0) {
        fprintf(stderr, "edit_godot_save: cannot write %s\n", argv[2]);
        return 1;
    }
    printf("wrote %zu bytes\n", out.len);
    sv_buf_free(&out);
    sv_doc_free(doc);

    /* Read the new save back, as the game would, and show it. */
    doc = sv_doc_new(NULL);
    if (sv_file_decode(doc, argv[2], godot3, &opts, &root, &err) != SV_OK) return fail(argv[2], &err);
    sv_json_encode_opts jo;
    sv_json_encode_opts_init(&jo);
    jo.indent = 2;
    sv_buf_init(&out, NULL);
    if (sv_json_encode(sv_get_path(doc, &root, "/player"), &jo, &out, &err) != SV_OK)
        return fail("json", &err);
    printf("%.*s\n", (int)out.len, (const char *)out.data);
    sv_buf_free(&out);
    sv_doc_free(doc);
    return 0;
}
