/* serval-bench: the jansson peer (Debian's libjansson-dev).
 *
 * json_loadb reads the same bytes serval reads; json_dumps with JSON_COMPACT
 * writes without whitespace, like serval's compact writer. jansson prints
 * reals with 17 significant digits ("%.17g"), so its output is longer. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "peers.h"

void *bench_jansson_parse(const char *text, size_t len, size_t *items, char *err, size_t err_size)
{
    json_error_t e;
    json_t *root = json_loadb(text, len, 0, &e);
    if (!root) {
        snprintf(err, err_size, "%s at line %d, column %d (byte %d)", e.text, e.line, e.column,
                 e.position);
        return NULL;
    }
    *items = json_is_array(root) ? json_array_size(root) : 0;
    return root;
}

char *bench_jansson_write(const void *doc)
{
    return json_dumps((const json_t *)doc, JSON_COMPACT);
}

/* json_dumps allocates with jansson's allocator, which is malloc unless an
 * application changes it (this one does not). */
void bench_jansson_free_text(char *text)
{
    free(text);
}

void bench_jansson_free(void *doc)
{
    json_decref((json_t *)doc);
}

const char *bench_jansson_version(void)
{
    return JANSSON_VERSION;
}
