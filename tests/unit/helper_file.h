/* Reading a test's input files: whole files and schema files, failing the
 * test (with the path) when one cannot be read. */
#ifndef SV_TEST_HELPER_FILE_H
#define SV_TEST_HELPER_FILE_H
#include <stddef.h>
#include <stdint.h>

#include "serval/schema.h"

/* The bytes of path, malloc'd with a NUL after them (text can be used as a
 * C string); *len gets their count. Paths are relative to tests/. */
char *test_read_file(const char *path, size_t *len);

/* The schema file at path, loaded (sv_schema_load) or the test fails with
 * the loader's message. */
sv_schema *test_load_schema(const char *path);

/* fn(path, data, len, ctx) for every file in dir whose name ends with one
 * of the NULL-ended suffixes, each read whole (test_read_file); returns how
 * many, or -1 when dir is not there (a test over the shared samples then
 * skips). */
int test_each_file(const char *dir, const char *const *suffixes,
                   void (*fn)(const char *path, const uint8_t *data, size_t len, void *ctx),
                   void *ctx);

/* fn(input, want, ctx) for every row "INPUT<TAB>WANT" of the text table at
 * path (lines starting with '#' and empty lines skipped, the line end
 * cut off); a row without a tab fails the test. Returns how many rows. */
int test_each_row(const char *path, void (*fn)(const char *input, const char *want, void *ctx),
                  void *ctx);

#endif
