/* A program outside the serval tree, built against the installed library,
 * to prove that the headers, pkg-config file and CMake package work. */
#include <serval/serval.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    sv_error_clear(&err);
    const char *text = "{\"hp\":{\"$f32\":0.5}}";
    if (sv_json_decode(doc, text, strlen(text), NULL, &v, &err) != SV_OK) return 1;
    sv_buf out;
    sv_buf_init(&out, NULL);
    if (sv_json_encode(&v, NULL, &out, &err) != SV_OK) return 1;
    int same = out.len == strlen(text) && memcmp(out.data, text, out.len) == 0;
    printf("%.*s\n", (int)out.len, (const char *)out.data);
    sv_buf_free(&out);
    sv_doc_free(doc);
    return same ? 0 : 1;
}
