/* Typed JSON to BSON and back.
 *
 * The document is the second example of bsonspec.org's FAQ,
 *   {"BSON": ["awesome", 5.05, 1986]}
 * with 1986 an int32, as the spec's bytes have it: in serval's typed JSON a
 * plain integer is 64 bits wide, so the int32 says so ({"$i32": 1986}).
 * The program prints the BSON bytes (the spec gives them) and the JSON read
 * back from them, which must be the text it started from.
 *
 * It needs a serval built with BSON (SERVAL_WITH_BSON, on by default).
 *
 *   cc json_to_bson.c $(pkg-config --cflags --libs serval) */
#include <stdio.h>
#include <string.h>

#include <serval/serval.h>

static const char doc_json[] = "{\"BSON\":[\"awesome\",5.05,{\"$i32\":1986}]}";

static void print_hex(const sv_buf *b)
{
    for (size_t i = 0; i < b->len; i++) printf("%02x", b->data[i]);
    printf("\n");
}

int main(void)
{
    int rc = 1;
    sv_error err;
    sv_error_clear(&err);
    sv_doc *doc = sv_doc_new(NULL);
    sv_doc *again = sv_doc_new(NULL);
    sv_buf bson, json;
    sv_buf_init(&bson, NULL);
    sv_buf_init(&json, NULL);
    sv_value v, back;
    if (!doc || !again) goto done;

    if (sv_json_decode(doc, doc_json, strlen(doc_json), NULL, &v, &err) != SV_OK) goto failed;
    if (sv_bson_encode(&v, NULL, &bson, &err) != SV_OK) goto failed;
    printf("bson (%zu bytes): ", bson.len);
    print_hex(&bson);

    if (sv_bson_decode(again, bson.data, bson.len, NULL, &back, &err) != SV_OK) goto failed;
    if (sv_json_encode(&back, NULL, &json, &err) != SV_OK) goto failed;
    printf("json: %.*s\n", (int)json.len, (const char *)json.data);
    printf("same text: %s\n",
           json.len == strlen(doc_json) && memcmp(json.data, doc_json, json.len) == 0 ? "yes" : "no");
    rc = 0;
    goto done;
failed: {
    char msg[512];
    sv_error_format(&err, msg, sizeof msg);
    fprintf(stderr, "json_to_bson: %s\n", msg);
}
done:
    sv_buf_free(&json);
    sv_buf_free(&bson);
    sv_doc_free(again);
    sv_doc_free(doc);
    return rc;
}
