/* RFC 8259 conformance of the JSON reader: a table of texts that must be
 * accepted (y_) or rejected (n_) with a given status, in the style of the
 * JSONTestSuite file names (the cases are written here, not copied).
 *
 * Where RFC 8259 leaves a choice to the implementation, the table follows
 * docs/json.md "Reading": a number beyond float64's range is rejected (RANGE),
 * one that underflows is accepted; a byte order mark is rejected; a lone
 * surrogate escape is rejected outside {"$utf16": ...}. Statuses: the input
 * ending inside a value is TRUNCATED, invalid UTF-8 inside a string is UTF8,
 * anything after the value is TRAILING, everything else SYNTAX.
 *
 * Each text is copied into a buffer of exactly its length, so under ASan a
 * read past the end fails the test. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "serval/serval.h"

typedef struct conf_case {
    const char *name;
    const char *text;
    size_t len;
    sv_status want; /* SV_OK: accept */
} conf_case;

#define Y(name, lit)                                                                               \
    {                                                                                              \
        name, lit, sizeof(lit) - 1, SV_OK                                                          \
    }
#define N(name, lit, st)                                                                           \
    {                                                                                              \
        name, lit, sizeof(lit) - 1, st                                                             \
    }

static const conf_case cases[] = {
    /* ---- structure ---- */
    Y("y_array_empty", "[]"),
    Y("y_array_ws_inside", " [ ] "),
    Y("y_array_nested", "[[[[[[[[[[]]]]]]]]]]"),
    Y("y_array_mixed", "[1,\"a\",true,false,null,[],{}]"),
    Y("y_array_of_empty_strings", "[\"\",\"\"]"),
    Y("y_object_empty", "{}"),
    Y("y_object_empty_key", "{\"\":0}"),
    Y("y_object_nested", "{\"a\":{\"b\":{}},\"c\":[]}"),
    Y("y_object_duplicate_keys", "{\"a\":1,\"a\":2}"),
    Y("y_object_ws_everywhere", " { \"a\" : 1 , \"b\" : [ 2 ] } "),
    Y("y_top_string", "\"s\""),
    Y("y_top_int", "123"),
    Y("y_top_negative_real", "-1.5"),
    Y("y_top_true", "true"),
    Y("y_top_false", "false"),
    Y("y_top_null", "null"),
    Y("y_top_with_ws", " \t\r\n[1]\n\r\t "),
    N("n_array_unclosed", "[1", SV_ERR_TRUNCATED),
    N("n_array_unclosed_empty", "[", SV_ERR_TRUNCATED),
    N("n_array_unclosed_after_comma", "[1,", SV_ERR_TRUNCATED),
    N("n_array_trailing_comma", "[1,]", SV_ERR_SYNTAX),
    N("n_array_leading_comma", "[,1]", SV_ERR_SYNTAX),
    N("n_array_double_comma", "[1,,2]", SV_ERR_SYNTAX),
    N("n_array_comma_only", "[,]", SV_ERR_SYNTAX),
    N("n_array_missing_comma", "[1 2]", SV_ERR_SYNTAX),
    N("n_array_closed_by_brace", "[1}", SV_ERR_SYNTAX),
    N("n_array_colon", "[1:2]", SV_ERR_SYNTAX),
    N("n_object_unclosed", "{\"a\":1", SV_ERR_TRUNCATED),
    N("n_object_unclosed_empty", "{", SV_ERR_TRUNCATED),
    N("n_object_no_value", "{\"a\":", SV_ERR_TRUNCATED),
    N("n_object_key_only", "{\"a\"", SV_ERR_TRUNCATED),
    N("n_object_trailing_comma", "{\"a\":1,}", SV_ERR_SYNTAX),
    N("n_object_comma_only", "{,}", SV_ERR_SYNTAX),
    N("n_object_double_comma", "{\"a\":1,,\"b\":2}", SV_ERR_SYNTAX),
    N("n_object_missing_colon", "{\"a\" 1}", SV_ERR_SYNTAX),
    N("n_object_double_colon", "{\"a\"::1}", SV_ERR_SYNTAX),
    N("n_object_missing_value", "{\"a\":}", SV_ERR_SYNTAX),
    N("n_object_unquoted_key", "{a:1}", SV_ERR_SYNTAX),
    N("n_object_number_key", "{1:1}", SV_ERR_SYNTAX),
    N("n_object_single_quotes", "{'a':1}", SV_ERR_SYNTAX),
    N("n_object_closed_by_bracket", "{\"a\":1]", SV_ERR_SYNTAX),
    N("n_object_missing_comma", "{\"a\":1 \"b\":2}", SV_ERR_SYNTAX),
    N("n_string_single_quotes", "['a']", SV_ERR_SYNTAX),
    N("n_empty", "", SV_ERR_TRUNCATED),
    N("n_only_spaces", " ", SV_ERR_TRUNCATED),
    N("n_only_ws", "\n\t\r ", SV_ERR_TRUNCATED),
    N("n_trailing_garbage", "[1]x", SV_ERR_TRAILING),
    N("n_two_values", "1 2", SV_ERR_TRAILING),
    N("n_two_arrays", "[] []", SV_ERR_TRAILING),
    N("n_extra_close", "{}}", SV_ERR_TRAILING),
    N("n_extra_close_array", "[]]", SV_ERR_TRAILING),
    N("n_comment_after", "[1]//c", SV_ERR_TRAILING),
    N("n_comment_before", "/*c*/[1]", SV_ERR_SYNTAX),
    N("n_comment_inside", "{\"a\":1 /*x*/}", SV_ERR_SYNTAX),

    /* ---- literals ---- */
    N("n_lit_True", "True", SV_ERR_SYNTAX),
    N("n_lit_tRue", "tRue", SV_ERR_SYNTAX),
    N("n_lit_nul", "nul", SV_ERR_TRUNCATED),
    N("n_lit_nul_in_array", "[nul]", SV_ERR_SYNTAX),
    N("n_lit_nulll", "nulll", SV_ERR_TRAILING),
    N("n_lit_truefalse", "[truefalse]", SV_ERR_SYNTAX),
    N("n_lit_fals", "[fals", SV_ERR_TRUNCATED),
    N("n_lit_None", "None", SV_ERR_SYNTAX),
    N("n_lit_undefined", "[undefined]", SV_ERR_SYNTAX),

    /* ---- whitespace: only space, tab, CR, LF ---- */
    N("n_ws_formfeed", "\f[1]", SV_ERR_SYNTAX),
    N("n_ws_vtab", "[\v1]", SV_ERR_SYNTAX),
    N("n_ws_nbsp",
      "[\xc2\xa0"
      "1]",
      SV_ERR_SYNTAX),
    N("n_ws_u2028", "[1\xe2\x80\xa8]", SV_ERR_SYNTAX),
    N("n_ws_ideographic_space", "\xe3\x80\x80[]", SV_ERR_SYNTAX),
    N("n_bom", "\xef\xbb\xbf[]", SV_ERR_SYNTAX),
    N("n_bom_string", "\xef\xbb\xbf\"x\"", SV_ERR_SYNTAX),
    N("n_bom_utf16", "\xfe\xff[]", SV_ERR_SYNTAX),

    /* ---- NUL bytes ---- */
    N("n_nul_alone", "\0", SV_ERR_SYNTAX),
    N("n_nul_after_value", "[1]\0", SV_ERR_TRAILING),
    N("n_nul_in_array", "[\0]", SV_ERR_SYNTAX),
    N("n_nul_in_string", "\"a\0b\"", SV_ERR_SYNTAX),
    N("n_nul_in_key", "{\"a\0\":1}", SV_ERR_SYNTAX),
    Y("y_nul_escaped", "\"a\\u0000b\""),

    /* ---- numbers (RFC 8259 §6) ---- */
    Y("y_number_0", "[0]"),
    Y("y_number_neg_0", "[-0]"),
    Y("y_number_neg_0_real", "[-0.0]"),
    Y("y_number_neg_0_exp", "[-0.0e-0]"),
    Y("y_number_0e0", "[0e0]"),
    Y("y_number_0E_plus1", "[0E+1]"),
    Y("y_number_1e1", "[1e1]"),
    Y("y_number_1E1", "[1E1]"),
    Y("y_number_1e_plus1", "[1e+1]"),
    Y("y_number_1e_minus1", "[1e-1]"),
    Y("y_number_exp_leading_zeros", "[1e007]"),
    Y("y_number_real", "[123.456]"),
    Y("y_number_real_exp", "[-123.456e-78]"),
    Y("y_number_int_exp", "[123e45]"),
    Y("y_number_frac_leading_zeros", "[0.000001]"),
    Y("y_number_many_digits", "[3.141592653589793238462643383279502884197169399375105820974944]"),
    Y("y_number_int64_min", "[-9223372036854775808]"),
    Y("y_number_uint64_max", "[18446744073709551615]"),
    Y("y_number_above_uint64", "[100000000000000000000]"),
    Y("y_number_below_int64", "[-9223372036854775809]"),
    Y("y_number_underflow", "[1e-400]"),
    Y("y_number_underflow_neg", "[-1e-400]"),
    Y("y_number_max_double", "[1.7976931348623157e308]"),
    Y("y_number_zero_huge_exp", "[0e99999999999999999999]"),
    Y("y_number_tiny_exp", "[1e-99999999999999999999]"),
    Y("y_number_top_level_0", "0"),
    N("n_number_leading_zero", "[01]", SV_ERR_SYNTAX),
    N("n_number_leading_zero_top", "01", SV_ERR_SYNTAX),
    N("n_number_neg_leading_zero", "[-01]", SV_ERR_SYNTAX),
    N("n_number_leading_zeros_real", "[00.5]", SV_ERR_SYNTAX),
    N("n_number_minus_alone", "-", SV_ERR_TRUNCATED),
    N("n_number_minus_in_array", "[-]", SV_ERR_SYNTAX),
    N("n_number_minus_space", "[- 1]", SV_ERR_SYNTAX),
    N("n_number_minus_minus", "[--1]", SV_ERR_SYNTAX),
    N("n_number_plus", "[+1]", SV_ERR_SYNTAX),
    N("n_number_dot_end", "1.", SV_ERR_TRUNCATED),
    N("n_number_dot_end_in_array", "[1.]", SV_ERR_SYNTAX),
    N("n_number_dot_start", "[.1]", SV_ERR_SYNTAX),
    N("n_number_neg_dot", "[-.1]", SV_ERR_SYNTAX),
    N("n_number_dot_e", "[1.e1]", SV_ERR_SYNTAX),
    N("n_number_e_end", "1e", SV_ERR_TRUNCATED),
    N("n_number_e_sign_end", "1e+", SV_ERR_TRUNCATED),
    N("n_number_e_in_array", "[1e]", SV_ERR_SYNTAX),
    N("n_number_E_minus_in_array", "[1E-]", SV_ERR_SYNTAX),
    N("n_number_e_alone", "[e1]", SV_ERR_SYNTAX),
    N("n_number_exp_frac", "[1e1.5]", SV_ERR_SYNTAX),
    N("n_number_double_dot", "[1.2.3]", SV_ERR_SYNTAX),
    N("n_number_hex", "[0x1]", SV_ERR_SYNTAX),
    N("n_number_hex_top", "0x1", SV_ERR_TRAILING),
    N("n_number_space_in_digits", "[1 000]", SV_ERR_SYNTAX),
    N("n_number_NaN", "[NaN]", SV_ERR_SYNTAX),
    N("n_number_Infinity", "[Infinity]", SV_ERR_SYNTAX),
    N("n_number_minus_Infinity", "[-Infinity]", SV_ERR_SYNTAX),
    N("n_number_inf", "[inf]", SV_ERR_SYNTAX),
    N("n_number_fullwidth_digit", "[\xef\xbc\x91]", SV_ERR_SYNTAX),
    N("n_number_huge_exp", "[1e400]", SV_ERR_RANGE),
    N("n_number_huge_neg", "[-1e400]", SV_ERR_RANGE),
    N("n_number_huge_exp_digits", "[1e99999999999999999999]", SV_ERR_RANGE),
    N("n_number_just_above_max", "[1.8e308]", SV_ERR_RANGE),

    /* ---- escapes ---- */
    Y("y_escape_all", "\"\\\"\\\\\\/\\b\\f\\n\\r\\t\""),
    Y("y_escape_u_lower", "\"\\u00e9\""),
    Y("y_escape_u_upper", "\"\\u00E9\""),
    Y("y_escape_u_ffff", "\"\\uffff\""),
    Y("y_escape_pair_first", "\"\\ud800\\udc00\""),
    Y("y_escape_pair_last", "\"\\udbff\\udfff\""),
    Y("y_escape_pair_upper", "\"\\uD834\\uDD1E\""),
    Y("y_escape_in_key", "{\"\\n\":1}"),
    Y("y_escape_slash", "\"\\/\""),
    N("n_escape_x", "\"\\x41\"", SV_ERR_SYNTAX),
    N("n_escape_U", "\"\\U0041\"", SV_ERR_SYNTAX),
    N("n_escape_a", "\"\\a\"", SV_ERR_SYNTAX),
    N("n_escape_quote", "\"\\'\"", SV_ERR_SYNTAX),
    N("n_escape_space", "\"\\ \"", SV_ERR_SYNTAX),
    N("n_escape_0", "\"\\0\"", SV_ERR_SYNTAX),
    N("n_escape_bad_hex", "\"\\u00G0\"", SV_ERR_SYNTAX),
    N("n_escape_short", "\"\\u00\"", SV_ERR_SYNTAX),
    N("n_escape_short_in_array", "[\"\\u12\"]", SV_ERR_SYNTAX),
    N("n_escape_u_no_digits", "[\"\\u\"]", SV_ERR_SYNTAX),
    N("n_escape_backslash_at_end", "\"\\", SV_ERR_TRUNCATED),
    N("n_escape_escaped_quote_at_end", "\"\\\"", SV_ERR_TRUNCATED),
    N("n_escape_u_at_end", "\"\\u00", SV_ERR_TRUNCATED),
    N("n_escape_raw_byte", "\"\\\xc3\xa9\"", SV_ERR_SYNTAX),
    N("n_surrogate_lone_high", "\"\\ud800\"", SV_ERR_UTF8),
    N("n_surrogate_lone_low", "\"\\udc00\"", SV_ERR_UTF8),
    N("n_surrogate_lone_low_last", "\"\\udfff\"", SV_ERR_UTF8),
    N("n_surrogate_high_high", "\"\\ud800\\ud800\"", SV_ERR_UTF8),
    N("n_surrogate_low_high", "\"\\udc00\\ud800\"", SV_ERR_UTF8),
    N("n_surrogate_high_ascii", "\"\\ud800a\"", SV_ERR_UTF8),
    N("n_surrogate_high_other_escape", "\"\\ud800\\n\"", SV_ERR_UTF8),
    N("n_surrogate_high_nonsurrogate", "\"\\ud800\\u0041\"", SV_ERR_UTF8),
    N("n_surrogate_high_bad_hex", "\"\\ud800\\uZZZZ\"", SV_ERR_UTF8),
    N("n_surrogate_in_key", "{\"\\udc00\":1}", SV_ERR_UTF8),

    /* ---- control characters must be escaped ---- */
    N("n_ctrl_tab", "\"\t\"", SV_ERR_SYNTAX),
    N("n_ctrl_newline", "\"a\nb\"", SV_ERR_SYNTAX),
    N("n_ctrl_cr", "[\"\r\"]", SV_ERR_SYNTAX),
    N("n_ctrl_1f", "\"\x1f\"", SV_ERR_SYNTAX),
    N("n_ctrl_01_in_long", "\"0123456789abcdef\x01\"", SV_ERR_SYNTAX),
    Y("y_del_raw", "\"\x7f\""),

    /* ---- UTF-8 (RFC 3629 §4) ---- */
    Y("y_utf8_2_min", "\"\xc2\x80\""),
    Y("y_utf8_2_max", "\"\xdf\xbf\""),
    Y("y_utf8_3_min", "\"\xe0\xa0\x80\""),
    Y("y_utf8_before_surrogates", "\"\xed\x9f\xbf\""),
    Y("y_utf8_after_surrogates", "\"\xee\x80\x80\""),
    Y("y_utf8_3_max", "\"\xef\xbf\xbf\""),
    Y("y_utf8_noncharacter", "\"\xef\xbf\xbe\""),
    Y("y_utf8_4_min", "\"\xf0\x90\x80\x80\""),
    Y("y_utf8_4_max", "\"\xf4\x8f\xbf\xbf\""),
    Y("y_utf8_mixed_long",
      "\"abcdefgh\xc3\xa9ijklmnop\xe6\x97\xa5\xe6\x9c\xac qrstuvw\xf0\x9f\x90\x89\""),
    Y("y_utf8_key", "{\"\xc3\xa9t\xc3\xa9\":1}"),
    N("n_utf8_overlong_2_c0", "\"\xc0\xaf\"", SV_ERR_UTF8),
    N("n_utf8_overlong_2_c1", "\"\xc1\xbf\"", SV_ERR_UTF8),
    N("n_utf8_overlong_nul", "\"\xc0\x80\"", SV_ERR_UTF8),
    N("n_utf8_overlong_3", "\"\xe0\x80\xaf\"", SV_ERR_UTF8),
    N("n_utf8_overlong_3_max", "\"\xe0\x9f\xbf\"", SV_ERR_UTF8),
    N("n_utf8_overlong_4", "\"\xf0\x80\x80\xaf\"", SV_ERR_UTF8),
    N("n_utf8_overlong_4_max", "\"\xf0\x8f\xbf\xbf\"", SV_ERR_UTF8),
    N("n_utf8_surrogate_first", "\"\xed\xa0\x80\"", SV_ERR_UTF8),
    N("n_utf8_surrogate_last", "\"\xed\xbf\xbf\"", SV_ERR_UTF8),
    N("n_utf8_surrogate_pair_cesu", "\"\xed\xa0\x80\xed\xb0\x80\"", SV_ERR_UTF8),
    N("n_utf8_above_10ffff", "\"\xf4\x90\x80\x80\"", SV_ERR_UTF8),
    N("n_utf8_f5", "\"\xf5\x80\x80\x80\"", SV_ERR_UTF8),
    N("n_utf8_f7", "\"\xf7\xbf\xbf\xbf\"", SV_ERR_UTF8),
    N("n_utf8_5_bytes", "\"\xf8\x88\x80\x80\x80\"", SV_ERR_UTF8),
    N("n_utf8_6_bytes", "\"\xfc\x84\x80\x80\x80\x80\"", SV_ERR_UTF8),
    N("n_utf8_fe", "\"\xfe\"", SV_ERR_UTF8),
    N("n_utf8_ff", "\"\xff\"", SV_ERR_UTF8),
    N("n_utf8_stray_80", "\"\x80\"", SV_ERR_UTF8),
    N("n_utf8_stray_bf", "\"\xbf\"", SV_ERR_UTF8),
    N("n_utf8_stray_middle",
      "\"a\x80"
      "b\"",
      SV_ERR_UTF8),
    N("n_utf8_stray_after_valid", "\"\xc3\xa9\xa9\"", SV_ERR_UTF8),
    N("n_utf8_cut_2", "\"\xc3\"", SV_ERR_UTF8),
    N("n_utf8_cut_3_of_1", "\"\xe6\"", SV_ERR_UTF8),
    N("n_utf8_cut_3_of_2", "\"\xe6\x97\"", SV_ERR_UTF8),
    N("n_utf8_cut_4_of_3", "\"\xf0\x9f\x98\"", SV_ERR_UTF8),
    N("n_utf8_lead_then_ascii",
      "\"\xc3"
      "a\"",
      SV_ERR_UTF8),
    N("n_utf8_cut_in_long",
      "\"abcdefghijklmnop\xe6\x97"
      "abcdefgh\"",
      SV_ERR_UTF8),
    N("n_utf8_in_key", "{\"\xff\":1}", SV_ERR_UTF8),
    N("n_utf8_end_of_input_2", "\"\xc3", SV_ERR_TRUNCATED),
    N("n_utf8_end_of_input_4", "\"\xf0\x9f\x98", SV_ERR_TRUNCATED),
    N("n_utf8_outside_string", "[\xff]", SV_ERR_SYNTAX),
    N("n_utf8_valid_outside_string", "\xc3\xa9", SV_ERR_SYNTAX),

    /* ---- strings ---- */
    N("n_string_unclosed", "\"abc", SV_ERR_TRUNCATED),
    N("n_string_unclosed_long", "[\"0123456789abcdefghij", SV_ERR_TRUNCATED),
    N("n_string_unclosed_key", "{\"abc", SV_ERR_TRUNCATED),
};

static void test_table(void **state)
{
    (void)state;
    size_t failures = 0;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const conf_case *c = &cases[i];
        char *buf = malloc(c->len ? c->len : 1);
        assert_non_null(buf);
        memcpy(buf, c->text, c->len);
        sv_doc *doc = sv_doc_new(NULL);
        assert_non_null(doc);
        sv_value v;
        sv_error err;
        sv_status st = sv_json_decode(doc, buf, c->len, NULL, &v, &err);
        bool ok = st == c->want;
        if (st != SV_OK) {
            /* every rejection says where */
            ok = ok && err.byte_offset <= c->len && err.line >= 1 && err.column >= 1 &&
                 err.message[0] != '\0' && strcmp(err.format, "json") == 0;
        }
        if (!ok) {
            char msg[512];
            sv_error_format(&err, msg, sizeof msg);
            print_error("%s: want %s, got %s (%s)\n", c->name, sv_status_name(c->want),
                        sv_status_name(st), msg);
            failures++;
        }
        sv_doc_free(doc);
        free(buf);
    }
    assert_int_equal(failures, 0);
}

/* Names follow the convention: y_ accepts, n_ rejects. */
static void test_table_names(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const conf_case *c = &cases[i];
        assert_true((c->name[0] == 'y') == (c->want == SV_OK));
        for (size_t j = 0; j < i; j++)
            assert_string_not_equal(c->name, cases[j].name);
    }
}

/* Each accepted text is also accepted with the plain option (no "$" keys in
 * the table) and with comments allowed. */
static void test_accepts_with_options(void **state)
{
    (void)state;
    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    o.plain = true;
    o.allow_comments = true;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const conf_case *c = &cases[i];
        if (c->want != SV_OK) continue;
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_error err;
        assert_int_equal(sv_json_decode(doc, c->text, c->len, &o, &v, &err), SV_OK);
        sv_doc_free(doc);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_table_names),
        cmocka_unit_test(test_accepts_with_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
