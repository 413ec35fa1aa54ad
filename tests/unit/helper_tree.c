#include "helper_tree.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

sv_doc *test_doc;

int test_doc_setup(void **state)
{
    (void)state;
    test_doc = sv_doc_new(NULL);
    return test_doc ? 0 : -1;
}

int test_doc_teardown(void **state)
{
    (void)state;
    sv_doc_free(test_doc);
    test_doc = NULL;
    return 0;
}

sv_value tree_arr(int n, ...)
{
    sv_value a = sv_array(test_doc, 0);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(sv_array_append(test_doc, &a, va_arg(ap, sv_value)), SV_OK);
    va_end(ap);
    return a;
}

sv_value tree_map(int n, ...)
{
    sv_value m = sv_map(test_doc, 0);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        sv_value k = va_arg(ap, sv_value);
        sv_value v = va_arg(ap, sv_value);
        assert_int_equal(sv_map_append(test_doc, &m, k, v), SV_OK);
    }
    va_end(ap);
    return m;
}

sv_value tree_obj(sv_value cls, int n, ...)
{
    sv_value o = sv_object(test_doc, cls, 0);
    assert_int_equal(o.kind, SV_OBJECT);
    va_list ap;
    va_start(ap, n);
    for (int i = 0; i < n; i++) {
        const char *k = va_arg(ap, const char *);
        sv_value v = va_arg(ap, sv_value);
        assert_int_equal(sv_map_append_str(test_doc, &o, k, v), SV_OK);
    }
    va_end(ap);
    return o;
}
