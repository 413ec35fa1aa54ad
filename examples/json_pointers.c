/* Walk a value tree and print the JSON Pointer (RFC 6901) of every value.
 *
 * The document is the example of RFC 6901, section 5, whose keys hold the
 * characters a pointer must escape ("/" as "~1", "~" as "~0") and a few it
 * must not. Every scalar is printed as typed JSON after its pointer; the
 * pointers and values must be the RFC's.
 *
 *   cc json_pointers.c $(pkg-config --cflags --libs serval) */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include <serval/serval.h>

static const char rfc6901_doc[] = "{\"foo\": [\"bar\", \"baz\"], \"\": 0, \"a/b\": 1, \"c%d\": 2, "
                                  "\"e^f\": 3, \"g|h\": 4, \"i\\\\j\": 5, \"k\\\"l\": 6, \" \": 7, "
                                  "\"m~n\": 8}";

typedef struct walk_state {
    sv_buf text; /* scratch for one value's JSON */
    sv_error err;
    bool failed;
} walk_state;

static bool print_value(void *ctx, const sv_value *v, unsigned depth, const char *path)
{
    walk_state *st = ctx;
    (void)depth;
    sv_kind kind = sv_kind_of(v);
    if (kind == SV_ARRAY || kind == SV_MAP) {
        printf("'%s' %s of %u\n", path, sv_kind_name(kind), (unsigned)sv_len(v));
        return true;
    }
    st->text.len = 0;
    if (sv_json_encode(v, NULL, &st->text, &st->err) != SV_OK) {
        st->failed = true;
        return false; /* stops the walk */
    }
    printf("'%s' %.*s\n", path, (int)st->text.len, (const char *)st->text.data);
    return true;
}

int main(void)
{
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return 1;
    walk_state st = {.failed = false};
    sv_error_clear(&st.err);
    sv_buf_init(&st.text, NULL);
    sv_value root;
    int rc = 0;
    if (sv_json_decode(doc, rfc6901_doc, strlen(rfc6901_doc), NULL, &root, &st.err) != SV_OK)
        st.failed = true;
    else
        sv_visit(&root, true, print_value, &st);
    if (st.failed) {
        char msg[512];
        sv_error_format(&st.err, msg, sizeof msg);
        fprintf(stderr, "json_pointers: %s\n", msg);
        rc = 1;
    }
    sv_buf_free(&st.text);
    sv_doc_free(doc);
    return rc;
}
