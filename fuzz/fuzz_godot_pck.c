/* Fuzz target for the Godot PCK reader and repack (src/formats/godot/
 * godot_pck_*.c, serval/godot_pck.h): the directory is opened and checked
 * (with a fixed key, so that encrypted directories and members are
 * decrypted too), every member is looked up and read under a limit, and a
 * pack that opens is repacked with every member kept.
 *
 * Properties checked: no crash, no leak (the sanitizers); a failure names
 * "godot-pck" and says something; a member read gives exactly its size;
 * find gives back a member of that path; a repack that keeps every member
 * either refuses the layout or reproduces the input byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serval/godot_pck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz-godot-pck: %s\n", what);
        abort();
    }
}

static void check_err(const sv_error *err)
{
    check(err->message[0] != 0, "an error without a message");
    check(err->format && !strcmp(err->format, "godot-pck"), "an error not naming godot-pck");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    /* the key of tests/vectors/godot-pck/spec4, so its seeds decrypt */
    uint8_t key[32];
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)(0x20 + i);
    sv_godot_pck *p;
    sv_error err;
    sv_error_clear(&err);
    if (sv_godot_pck_open(data, len, key, NULL, &p, &err) != SV_OK) {
        check_err(&err);
        return 0;
    }
    sv_limits lim = {0};
    lim.max_alloc = 8u << 20;
    size_t n = sv_godot_pck_count(p);
    sv_godot_pck_change *keep = calloc(n ? n : 1, sizeof *keep);
    check(keep != NULL, "out of memory");
    sv_godot_pck_member m;
    for (size_t i = 0; sv_godot_pck_member_at(p, i, &m); i++) {
        keep[i].keep = true;
        size_t found;
        check(sv_godot_pck_find(p, m.path, &found) == SV_OK && found == i, "find lost a member");
        sv_buf out;
        sv_buf_init(&out, NULL);
        sv_error_clear(&err);
        if (sv_godot_pck_read(p, i, &lim, true, &out, &err) == SV_OK)
            check(out.len == m.size, "a member read gave another size than declared");
        else
            check_err(&err);
        sv_buf_free(&out);
    }
    sv_buf re;
    sv_buf_init(&re, NULL);
    sv_error_clear(&err);
    if (sv_godot_pck_repack(p, keep, NULL, 0, &re, &err) == SV_OK)
        check(re.len == len && (!len || !memcmp(re.data, data, len)),
              "a repack keeping every member changed the bytes");
    else
        check_err(&err);
    sv_buf_free(&re);
    free(keep);
    sv_godot_pck_close(p);
    return 0;
}
