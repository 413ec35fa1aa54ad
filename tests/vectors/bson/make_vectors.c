/* Writes the BSON test vectors of tests/vectors/bson/ with libbson (Debian's
 * libbson-dev), the oracle for test_bson.c: the bytes come from MongoDB's
 * own encoder, the values test_bson.c expects are the ones written here.
 * Not part of the build; regenerate with
 *
 *   cc -o /tmp/mk tests/vectors/bson/make_vectors.c $(pkg-config --cflags --libs libbson-1.0)
 *   (cd tests/vectors/bson && /tmp/mk)
 */
#include <bson/bson.h>
#include <math.h>
#include <stdio.h>

static void save(const char *name, const bson_t *b)
{
    FILE *f = fopen(name, "wb");
    if (!f || fwrite(bson_get_data(b), 1, b->len, f) != b->len || fclose(f) != 0) {
        perror(name);
        exit(1);
    }
}

int main(void)
{
    bson_oid_t oid;
    bson_oid_init_from_string(&oid, "5f1e2d3c4b5a69788796a5b4");
    uint8_t uuid[16], bin[3] = {1, 2, 3};
    for (int i = 0; i < 16; i++)
        uuid[i] = (uint8_t)i;
    bson_decimal128_t dec;
    bson_decimal128_from_string("1.5", &dec);

    /* all_types.bson: one element of every type, in type order */
    bson_t b = BSON_INITIALIZER, sub, arr, scope;
    BSON_APPEND_DOUBLE(&b, "double", 1.5);
    BSON_APPEND_UTF8(&b, "string", "h\xc3\xa9llo");
    BSON_APPEND_DOCUMENT_BEGIN(&b, "doc", &sub);
    BSON_APPEND_INT32(&sub, "a", 1);
    bson_append_document_end(&b, &sub);
    BSON_APPEND_ARRAY_BEGIN(&b, "array", &arr);
    BSON_APPEND_INT32(&arr, "0", 1);
    BSON_APPEND_UTF8(&arr, "1", "two");
    bson_append_array_end(&b, &arr);
    BSON_APPEND_BINARY(&b, "bin0", BSON_SUBTYPE_BINARY, bin, 3);
    BSON_APPEND_BINARY(&b, "bin2", BSON_SUBTYPE_BINARY_DEPRECATED, bin, 3);
    BSON_APPEND_BINARY(&b, "uuid", BSON_SUBTYPE_UUID, uuid, 16);
    BSON_APPEND_BINARY(&b, "bin80", BSON_SUBTYPE_USER, (const uint8_t *)"xyz", 3);
    BSON_APPEND_UNDEFINED(&b, "undef");
    BSON_APPEND_OID(&b, "oid", &oid);
    BSON_APPEND_BOOL(&b, "t", true);
    BSON_APPEND_BOOL(&b, "f", false);
    BSON_APPEND_DATE_TIME(&b, "date", 1700000000000LL);
    BSON_APPEND_NULL(&b, "null");
    BSON_APPEND_REGEX(&b, "regex", "^a.*b$", "im");
    BSON_APPEND_DBPOINTER(&b, "dbptr", "db.coll", &oid);
    BSON_APPEND_CODE(&b, "code", "function(){}");
    BSON_APPEND_SYMBOL(&b, "symbol", "sym");
    bson_init(&scope);
    BSON_APPEND_INT32(&scope, "x", 1);
    BSON_APPEND_CODE_WITH_SCOPE(&b, "codews", "x=1", &scope);
    BSON_APPEND_INT32(&b, "int32", -5);
    BSON_APPEND_TIMESTAMP(&b, "ts", 1700000000u, 7u);
    BSON_APPEND_INT64(&b, "int64", -9000000000LL);
    BSON_APPEND_DECIMAL128(&b, "dec", &dec);
    BSON_APPEND_MINKEY(&b, "min");
    BSON_APPEND_MAXKEY(&b, "max");
    save("all_types.bson", &b);
    bson_destroy(&scope);
    bson_destroy(&b);

    /* doubles.bson: the doubles a reader must pass through bit for bit */
    bson_init(&b);
    BSON_APPEND_DOUBLE(&b, "nan", NAN);
    BSON_APPEND_DOUBLE(&b, "inf", INFINITY);
    BSON_APPEND_DOUBLE(&b, "ninf", -INFINITY);
    BSON_APPEND_DOUBLE(&b, "nzero", -0.0);
    BSON_APPEND_DOUBLE(&b, "f32", (double)0.42f); /* 0.41999998688697815, spec resonite A.4 */
    save("doubles.bson", &b);
    bson_destroy(&b);

    /* nesting.bson: empty containers, a matrix (arrays of arrays), 11 items
     * (a two-digit key) */
    bson_init(&b);
    BSON_APPEND_DOCUMENT_BEGIN(&b, "e", &sub);
    bson_append_document_end(&b, &sub);
    BSON_APPEND_ARRAY_BEGIN(&b, "ea", &arr);
    bson_append_array_end(&b, &arr);
    BSON_APPEND_ARRAY_BEGIN(&b, "m", &arr);
    for (int r = 0; r < 2; r++) {
        bson_t row;
        char k[4];
        snprintf(k, sizeof k, "%d", r);
        BSON_APPEND_ARRAY_BEGIN(&arr, k, &row);
        BSON_APPEND_DOUBLE(&row, "0", 2 * r + 1.0);
        BSON_APPEND_DOUBLE(&row, "1", 2 * r + 2.0);
        bson_append_array_end(&arr, &row);
    }
    bson_append_array_end(&b, &arr);
    BSON_APPEND_ARRAY_BEGIN(&b, "eleven", &arr);
    for (int i = 0; i < 11; i++) {
        char k[4];
        snprintf(k, sizeof k, "%d", i);
        BSON_APPEND_INT64(&arr, k, i);
    }
    bson_append_array_end(&b, &arr);
    save("nesting.bson", &b);
    bson_destroy(&b);

    /* array_keys.bson: an array whose keys are not 0, 1 (valid BSON that
     * Newtonsoft's reader accepts, spec resonite A.4) */
    bson_init(&b);
    BSON_APPEND_ARRAY_BEGIN(&b, "a", &arr);
    BSON_APPEND_INT32(&arr, "x", 1);
    BSON_APPEND_INT32(&arr, "5", 2);
    bson_append_array_end(&b, &arr);
    save("array_keys.bson", &b);
    bson_destroy(&b);

    /* urls.bson: Resonite strings (spec resonite A.5): a URL, an escaped
     * string, a lone "@", a plain string */
    bson_init(&b);
    BSON_APPEND_UTF8(&b, "url", "@packdb:///30a0bc21");
    BSON_APPEND_UTF8(&b, "escaped", "@@mention");
    BSON_APPEND_UTF8(&b, "at", "@");
    BSON_APPEND_UTF8(&b, "plain", "Slot");
    BSON_APPEND_UTF8(&b, "atat", "@@");
    save("urls.bson", &b);
    bson_destroy(&b);
    return 0;
}
