/* Fuzz target for the KIWAD archive reader (src/formats/kingsisle/kiwad_*.c,
 * docs/formats/kiwad.md): the table is opened and checked, every member is
 * looked up by name, its CRC checked and its content read under a limit,
 * and an archive that opens is repacked with every member kept.
 *
 * Properties checked: no crash, no leak (the sanitizers); a failure names
 * the format "kiwad" and says something; a member read gives exactly its
 * declared size; find gives back the member of that name; a repack keeping
 * every member reproduces the input byte for byte. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serval/kiwad.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz-kiwad: %s\n", what);
        abort();
    }
}

static void check_err(const sv_error *err)
{
    check(err->message[0] != 0, "an error without a message");
    check(err->format && !strcmp(err->format, "kiwad"), "an error not naming kiwad");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    sv_kiwad *w;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kiwad_open(data, len, NULL, &w, &err) != SV_OK) {
        check_err(&err);
        return 0;
    }
    sv_limits lim = {0};
    lim.max_decompressed = 8u << 20; /* a bomb costs little */
    size_t n = sv_kiwad_count(w);
    sv_kiwad_change *keep = calloc(n ? n : 1, sizeof *keep);
    check(keep != NULL, "out of memory");
    sv_kiwad_member m;
    for (size_t i = 0; sv_kiwad_member_at(w, i, &m); i++) {
        keep[i].keep = true;
        size_t found;
        check(sv_kiwad_find(w, m.name, &found) == SV_OK && found == i, "find lost a member");
        sv_buf out;
        sv_buf_init(&out, NULL);
        sv_error_clear(&err);
        sv_status st = sv_kiwad_read(w, i, &lim, i % 2 == 0, &out, &err);
        if (st == SV_OK)
            check(out.len == m.size, "a member read gave another size than declared");
        else
            check_err(&err);
        sv_buf_free(&out);
    }
    sv_buf re;
    sv_buf_init(&re, NULL);
    sv_error_clear(&err);
    if (sv_kiwad_repack(w, keep, NULL, 0, 9, &re, &err) == SV_OK)
        check(re.len == len && (!len || !memcmp(re.data, data, len)),
              "a repack keeping every member changed the bytes");
    else
        check(err.status == SV_ERR_NOMEM || err.status == SV_ERR_RANGE, "repack failed");
    sv_buf_free(&re);
    free(keep);
    sv_kiwad_close(w);
    return 0;
}
