/* The fuzz harness the archive readers share (fuzz_godot_pck.c,
 * fuzz_kiwad.c): the input is opened as an archive; every member is looked
 * up by name and read under a limit; an archive that opens is repacked with
 * every member kept.
 *
 * Properties checked: no crash, no leak (the sanitizers); a failure names the
 * format and says something; a member read gives exactly its stated size;
 * find gives back the member of that name; a repack that keeps every member
 * reproduces the input byte for byte, or fails as the archive allows. */
#ifndef SERVAL_FUZZ_ARCHIVE_H
#define SERVAL_FUZZ_ARCHIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/error.h"

typedef struct fuzz_archive {
    const char *format; /* the format errors name ("godot-pck", "kiwad") */
    sv_status (*open)(const uint8_t *data, size_t len, void **archive, sv_error *err);
    void (*close)(void *archive);
    /* The name find looks member i up by, and its stated size; false past
     * the last. */
    bool (*member_at)(const void *archive, size_t i, const char **name, uint64_t *size);
    sv_status (*find)(const void *archive, const char *name, size_t *index);
    sv_status (*read)(const void *archive, size_t i, sv_buf *out, sv_error *err);
    /* Repacks with every member kept. */
    sv_status (*repack_all)(const void *archive, size_t count, sv_buf *out, sv_error *err);
    /* Whether a repack may fail with this error (a writer may refuse a
     * layout it cannot reproduce). */
    bool (*repack_error_ok)(const struct fuzz_archive *ar, const sv_error *err);
} fuzz_archive;

/* Runs the harness over data; aborts with a message naming the property that
 * broke. */
void fuzz_archive_run(const fuzz_archive *ar, const uint8_t *data, size_t len);

/* The check of every error: it names ar->format and has a message. */
bool fuzz_archive_error_ok(const fuzz_archive *ar, const sv_error *err);

#endif
