/* Schemas from hostile files: every allocation failure, every truncation
 * and byte change of a schema file ends in a clean error (no crash, no
 * leak; run under ASan), and the depth bounds hold. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "serval/serval.h"

static const char example[] =
    "{\"serval_schema\": 1,\n"
    " \"enums\": [{\"name\": \"Element\", \"underlying\": \"u8\", \"bits\": false,\n"
    "            \"values\": [[\"Fire\", 0], [\"Ice\", 1], [\"Storm\", 2]]}],\n"
    " \"classes\": [{\"name\": \"Item\", \"uuid\": \"{E5B8A6A2-0F7B-4D7F-9C7E-2B5D7C1A9F01}\",\n"
    "              \"fields\": [{\"name\": \"id\", \"type\": \"u32\"}]},\n"
    "             {\"name\": \"Weapon\", \"bases\": [\"Item\"], \"hash\": 1534054483, \"version\": "
    "2,\n"
    "              \"fields\": [{\"name\": \"damage\", \"type\": \"f32\", \"default\": 1.5},\n"
    "                         {\"name\": \"element\", \"type\": \"Element\", \"default\": "
    "\"Ice\"},\n"
    "                         {\"name\": \"tags\", \"type\": \"vector<string>\", \"default\": "
    "[\"a\"]},\n"
    "                         {\"name\": \"stats\", \"type\": \"map<string,i32>\", \"flags\": 7, "
    "\"hash\": 221725407, \"id\": 3},\n"
    "                         {\"name\": \"owner\", \"type\": \"ptr<Item>\", \"default\": {\"id\": "
    "4}}]}]}\n";

static void test_allocation_failures(void **state)
{
    (void)state;
    long n;
    for (n = 1;; n++) {
        test_alloc ta;
        test_alloc_init(&ta, n);
        sv_schema *s;
        sv_error err;
        sv_status st =
            sv_schema_load(&ta.alloc, (const uint8_t *)example, sizeof example - 1, "x", &s, &err);
        if (st == SV_OK) {
            assert_int_equal(sv_schema_class_count(s), 2);
            sv_schema_free(s);
            assert_int_equal(ta.live_bytes, 0);
            break;
        }
        assert_int_equal(st, SV_ERR_NOMEM);
        assert_null(s);
        assert_int_equal(ta.live_bytes, 0);
    }
    assert_true(n > 10);
}

/* Every prefix and every single-byte change: an error or a schema, nothing else. */
static void test_mutations(void **state)
{
    (void)state;
    size_t len = sizeof example - 1;
    char *buf = malloc(len);
    assert_non_null(buf);
    size_t ok = 0, refused = 0;
    static const char subs[] = {'"', '{', '}', '[', ']', ',', ':',
                                '<', '>', '0', '9', 'x', ' ', '\\'};
    for (size_t i = 0; i <= len; i++) {
        for (size_t k = 0; k <= sizeof subs; k++) {
            size_t n = len;
            memcpy(buf, example, len);
            if (k == sizeof subs) {
                n = i; /* a truncation */
            } else {
                if (i == len) continue;
                buf[i] = subs[k];
            }
            sv_schema *s;
            sv_error err;
            sv_status st = sv_schema_load(NULL, (const uint8_t *)buf, n, "m", &s, &err);
            if (st == SV_OK) {
                ok++;
                sv_schema_free(s);
            } else {
                refused++;
                assert_null(s);
                assert_true(err.message[0] != '\0');
            }
        }
    }
    free(buf);
    assert_true(ok > 0);
    assert_true(refused > ok);
}

static sv_status load(const char *text, sv_error *err)
{
    sv_schema *s;
    sv_status st = sv_schema_load(NULL, (const uint8_t *)text, strlen(text), "h", &s, err);
    sv_schema_free(s);
    return st;
}

static void test_depth_bounds(void **state)
{
    (void)state;
    sv_error err;
    /* a type expression nested 100 deep */
    char type[1200] = "";
    for (int i = 0; i < 100; i++)
        strcat(type, "vector<");
    strcat(type, "u8");
    for (int i = 0; i < 100; i++)
        strcat(type, ">");
    char text[1600];
    snprintf(
        text, sizeof text,
        "{\"serval_schema\": 1, \"classes\": [{\"name\": \"A\", \"fields\": [{\"name\": \"x\", "
        "\"type\": \"%s\"}]}]}",
        type);
    assert_int_equal(load(text, &err), SV_ERR_SYNTAX);
    assert_string_equal(err.path, "/classes/0/fields/0/type");
    assert_non_null(strstr(err.message, "type nested too deeply"));

    /* a chain of 300 bases */
    size_t cap = 64 * 1024, len = 0;
    char *chain = malloc(cap);
    assert_non_null(chain);
    len += (size_t)snprintf(chain + len, cap - len, "{\"serval_schema\": 1, \"classes\": [");
    len += (size_t)snprintf(chain + len, cap - len, "{\"name\": \"C0\"}");
    for (int i = 1; i < 300; i++)
        len += (size_t)snprintf(chain + len, cap - len,
                                ",{\"name\": \"C%d\", \"bases\": [\"C%d\"]}", i, i - 1);
    snprintf(chain + len, cap - len, "]}");
    assert_int_equal(load(chain, &err), SV_ERR_LIMIT);
    assert_string_equal(err.message, "class 'C257': bases nest deeper than 256");
    assert_string_equal(err.path, "/classes/257/bases/0");
    free(chain);

    /* a default that refers to itself without end */
    assert_int_equal(load("{\"serval_schema\": 1, \"classes\": [{\"name\": \"A\", \"fields\": "
                          "[{\"name\": \"next\", \"type\": \"ptr<A>\", \"default\": {}}]}]}",
                          &err),
                     SV_ERR_DEPTH);
    assert_string_equal(err.message, "value nests deeper than 1024");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allocation_failures),
        cmocka_unit_test(test_mutations),
        cmocka_unit_test(test_depth_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
