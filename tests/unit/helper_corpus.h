/* Test inputs gathered from folders: the test vectors of every format, the
 * engines' samples (when ../shared/samples is there) and the fuzzers' saved
 * regression inputs. The generic tests (fault injection, resource bounds)
 * run every registered format over every input it decodes. */
#ifndef SV_TEST_HELPER_CORPUS_H
#define SV_TEST_HELPER_CORPUS_H
#include <stddef.h>
#include <stdint.h>

typedef struct corpus_file {
    char *path;
    uint8_t *data;
    size_t len;
} corpus_file;

typedef struct corpus {
    corpus_file *files;
    size_t count, cap;
    int samples_present; /* whether the shared samples folder was found */
} corpus;

/* Reads every regular file up to max_len bytes under the folders, relative
 * to the tests/ folder: vectors/, ../../shared/samples/ and
 * ../fuzz/regressions/. Prints a line when the samples are absent. */
void corpus_load_default(corpus *c, size_t max_len);
void corpus_free(corpus *c);

/* cmocka group fixtures: load test_corpus (files up to 4 MiB) and free it. */
extern corpus test_corpus;
int test_corpus_setup(void **state);
int test_corpus_teardown(void **state);

#endif
