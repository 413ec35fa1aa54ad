/* The fuzz harness the archive readers share (fuzz_archive.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_archive.h"

static void check(const fuzz_archive *ar, bool ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz-%s: %s\n", ar->format, what);
        abort();
    }
}

bool fuzz_archive_error_ok(const fuzz_archive *ar, const sv_error *err)
{
    check(ar, err->message[0] != 0, "an error without a message");
    check(ar, err->format && !strcmp(err->format, ar->format), "an error not naming the format");
    return true;
}

void fuzz_archive_run(const fuzz_archive *ar, const uint8_t *data, size_t len)
{
    void *archive;
    sv_error err;
    sv_error_clear(&err);
    if (ar->open(data, len, &archive, &err) != SV_OK) {
        fuzz_archive_error_ok(ar, &err);
        return;
    }
    const char *name;
    uint64_t size;
    size_t count = 0;
    for (size_t i = 0; ar->member_at(archive, i, &name, &size); i++, count++) {
        size_t found;
        check(ar, ar->find(archive, name, &found) == SV_OK && found == i, "find lost a member");
        sv_buf out;
        sv_buf_init(&out, NULL);
        sv_error_clear(&err);
        if (ar->read(archive, i, &out, &err) == SV_OK)
            check(ar, out.len == size, "a member read gave another size than declared");
        else
            fuzz_archive_error_ok(ar, &err);
        sv_buf_free(&out);
    }
    sv_buf re;
    sv_buf_init(&re, NULL);
    sv_error_clear(&err);
    if (ar->repack_all(archive, count, &re, &err) == SV_OK)
        check(ar, re.len == len && (!len || !memcmp(re.data, data, len)),
              "a repack keeping every member changed the bytes");
    else
        check(ar, ar->repack_error_ok(ar, &err), "repack failed");
    sv_buf_free(&re);
    ar->close(archive);
}
