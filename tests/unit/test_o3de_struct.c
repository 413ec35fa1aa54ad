/* O3DE JSON with bound C structs: load into and store from structs, and the
 * direct path (JSON tree -> struct, struct -> text, o3de_struct.c) against
 * the tree path (struct -> value -> rules -> struct, struct -> value -> JSON
 * tree -> text): for every input below both give the same struct, the same
 * result, the same reports (message, result and path, in order) and the
 * same text, compact and pretty, stripped and with defaults kept. The
 * streaming load (text -> struct without a tree, o3de_stream.c) is checked
 * the same way against reading the text and loading the tree, over those
 * inputs, more of its own and hostile ones (every truncation, deep nesting,
 * enormous numbers), and with allocation faults. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "formats/o3de/o3de_internal.h"
#include "formats/o3de/o3de_struct_internal.h"
#include "helper_alloc.h"
#include "helper_o3de.h"

typedef struct Part {
    uint32_t kind; /* enum Kind */
    char *name;
    float pos[3];
    float rot[4];
    float tint[4];
    float scale;
    double weight;
    bool on;
    int8_t small;
    uint16_t mid;
    int64_t big;
    int32_t *tags;
    size_t n_tags;
} Part;

typedef struct Holder {
    char *title;
    Part main;
    Part *parts;
    size_t n_parts;
    char **labels;
    size_t n_labels;
    float *pts;
    size_t n_pts; /* vector<vector2>: pairs of floats */
} Holder;

#define PART_FIELDS(X)                                                                             \
    X(Part, PLAIN, kind, _, "Kind")                                                                \
    X(Part, PLAIN, name, _, "string")                                                              \
    X(Part, PLAIN, pos, _, "vector3")                                                              \
    X(Part, PLAIN, rot, _, "quaternion")                                                           \
    X(Part, PLAIN, tint, _, "color")                                                               \
    X(Part, PLAIN, scale, _, "f32")                                                                \
    X(Part, PLAIN, weight, _, "f64")                                                               \
    X(Part, PLAIN, on, _, "bool")                                                                  \
    X(Part, PLAIN, small, _, "i8")                                                                 \
    X(Part, PLAIN, mid, _, "u16")                                                                  \
    X(Part, PLAIN, big, _, "i64")                                                                  \
    X(Part, COUNTED, tags, n_tags, "vector<i32>")
#define HOLDER_FIELDS(X)                                                                           \
    X(Holder, PLAIN, title, _, "string")                                                           \
    X(Holder, PLAIN, main, _, "Part")                                                              \
    X(Holder, COUNTED, parts, n_parts, "vector<Part>")                                             \
    X(Holder, COUNTED, labels, n_labels, "list<string>")                                           \
    X(Holder, COUNTED, pts, n_pts, "vector<vector2>")

static const sv_cfield part_fields[] = {PART_FIELDS(SV_CFIELD_X)};
static const sv_cfield holder_fields[] = {HOLDER_FIELDS(SV_CFIELD_X)};
static const sv_cclass part_class = SV_CCLASS(Part, NULL, part_fields);
static const sv_cclass holder_class = SV_CCLASS(Holder, NULL, holder_fields);

static sv_schema *schema;
static const sv_schema_class *holder_cls;

static int setup(void **state)
{
    (void)state;
    sv_error err;
    sv_error_clear(&err);
    schema = sv_schema_new(NULL);
    sv_schema_enum *e = NULL;
    if (sv_schema_add_enum(schema, "Kind", SV_PRIM_U32, true, &e, &err) ||
        sv_schema_enum_add(schema, e, "None", 0, &err) ||
        sv_schema_enum_add(schema, e, "A", 1, &err) ||
        sv_schema_enum_add(schema, e, "B", 2, &err) ||
        sv_schema_enum_add(schema, e, "AB", 3, &err) || sv_schema_bind(schema, &part_class, &err) ||
        sv_schema_bind(schema, &holder_class, &err) || sv_schema_finalize(schema, &err))
        return -1;
    holder_cls = sv_schema_class_by_name(schema, "Holder", 6);
    return holder_cls ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    sv_schema_free(schema);
    o3t_schema_free();
    return 0;
}

/* Every report, rendered, in order. */
typedef struct rec {
    char text[8192];
    size_t len;
} rec;

static sv_o3de_result record(void *ctx, const char *message, sv_o3de_result r, const char *path)
{
    rec *x = ctx;
    int n = snprintf(x->text + x->len, sizeof x->text - x->len, "%s|%08x|%s\n", path, (unsigned)r,
                     message);
    if (n > 0 && x->len + (size_t)n < sizeof x->text) x->len += (size_t)n;
    return r;
}

/* The struct's text through the tree path, with defaults kept (a full
 * picture of its contents). */
static void struct_text(const Holder *h, char *out, size_t cap)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    o.keep_defaults = true;
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_result r;
    assert_int_equal(o3_store_struct_tree_text(schema, holder_cls, h, 0, &b, &o, &r, &err), SV_OK);
    assert_true(b.len < cap);
    memcpy(out, b.data, b.len);
    out[b.len] = 0;
    sv_buf_free(&b);
}

static const char start_json[] =
    "{\"title\":\"start\",\"main\":{\"name\":\"m\",\"tags\":[1,2]},\"parts\":[{\"kind\":\"A\"}],"
    "\"labels\":[\"x\"],\"pts\":[[1.0,2.0]]}";

/* Loads start_json then input into a fresh struct through one path. */
static void load_with(bool direct, const char *input, bool listen, bool clear, Holder *h,
                      sv_o3de_result *res, rec *log)
{
    memset(h, 0, sizeof *h);
    memset(log, 0, sizeof *log);
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    sv_value s = o3t_json(doc, start_json), j = o3t_json(doc, input);
    sv_o3de_result r;
    assert_int_equal(o3_load_struct_tree(schema, holder_cls, &s, h, NULL, &o, &r, &err), SV_OK);
    o.clear_containers = clear;
    if (listen) {
        o.report = record;
        o.report_ctx = log;
    }
    sv_status st = direct ? sv_o3de_load_struct(schema, holder_cls, &j, h, NULL, &o, res, &err)
                          : o3_load_struct_tree(schema, holder_cls, &j, h, NULL, &o, res, &err);
    assert_int_equal(st, SV_OK);
    sv_doc_free(doc);
}

static const char *const inputs[] = {
    "{}",
    "{\"title\":\"t\",\"main\":{\"kind\":[\"A\",\"B\"],\"name\":\"n\",\"pos\":[1.0,2.5,-3.0],"
    "\"rot\":[0.0,0.0,0.7071067811865476,0.7071067811865476],\"tint\":[1.0,0.5,0.25,0.125],"
    "\"scale\":2.5,\"weight\":1e-300,\"on\":true,\"small\":-128,\"mid\":65535,\"big\":-"
    "9223372036854775808,"
    "\"tags\":[-1,0,2147483647]}}",
    /* conversions: strings to numbers, numbers to strings, floats truncated */
    "{\"title\":12.5,\"main\":{\"scale\":\"1.5\",\"small\":\"0x7f\",\"mid\":3.9,\"on\":\"TRUE\","
    "\"big\":\"010\","
    "\"name\":true,\"kind\":\"2\"}}",
    /* out of range, wrong types, unknown fields, case-insensitive names */
    "{\"TITLE\":\"upper\",\"main\":{\"small\":128,\"mid\":-1,\"scale\":1e300,\"pos\":[1,2],\"rot\":"
    "\"x\","
    "\"tint\":[1,0,0],\"bogus\":1,\"tags\":{}},\"parts\":7,\"labels\":[1,true,null,\"ok\"]}",
    /* objects for vectors, colours by name, 3-channel colours */
    "{\"main\":{\"pos\":{\"X\":1.0,\"z\":3.0},\"tint\":{\"HEX\":\"FF8000\"},\"rot\":{\"yaw\":90.0}}"
    ","
    "\"parts\":[{\"tint\":[0.5,0.5,0.5]},{},{\"name\":\"p2\",\"tags\":[5]},[1],{\"rot\":{}}]}",
    /* explicit defaults for new elements and halting inside a sequence */
    "{\"pts\":[{},[0.5,0.25],[1.0]],\"labels\":[{}],\"main\":{\"tags\":[1,\"2\",[3],4]}}",
    /* enum arrays with numbers, bad enum names */
    "{\"main\":{\"kind\":[\"a\",2,\"nope\"]},\"parts\":[{\"kind\":\"Nope\"},{\"kind\":\"AB\"},{"
    "\"kind\":256}]}",
    /* strings with escapes */
    "{\"title\":\"tab\\tquote\\\"slash\\\\u\\u00e9\\u0001\",\"labels\":[\"\",\"\\n\"]}",
    /* strings of 8 bytes and more (copied eight at a time, the last bytes
     * as the eight that end the string): an escape in the first eight with
     * a clean end, an escape or a control in the last bytes, none at all */
    "{\"title\":\"ab\\\"cdefghijklmnop\",\"labels\":[\"abcdefghi\\\"k\",\"abcdefghijk\","
    "\"abcdefgh\\u0001\","
    "\"abcdefgh\",\"abcdefghijklmnop\\\\\",\"a\\tbcdefghijklmnopqrstu\"]}",
    /* integers of every length the store writes eight digits at a time */
    "{\"main\":{\"big\":1234567890123456789,\"mid\":10,\"small\":-9,"
    "\"tags\":[9,10,99,100,1234567,12345678,99999999,100000000,-100000000,-2147483648]}}",
    "{\"main\":{\"big\":10000000000000000,\"mid\":100}}",
    "{\"main\":{\"big\":-9999999999999999,\"mid\":99}}",
    "{\"main\":{\"big\":100000000,\"tags\":[1000000000,-99999999]}}",
};

static void test_direct_equals_tree(void **state)
{
    (void)state;
    assert_int_equal(o3_struct_direct(schema, holder_cls, NULL), 1);
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++) {
        for (int mode = 0; mode < 4; mode++) {
            bool listen = mode & 1, clear = (mode & 2) != 0;
            Holder a, b;
            sv_o3de_result ra, rb;
            rec la, lb;
            load_with(false, inputs[i], listen, clear, &a, &ra, &la);
            load_with(true, inputs[i], listen, clear, &b, &rb, &lb);
            if (ra != rb)
                fail_msg("input %zu mode %d: tree %08x, direct %08x", i, mode, (unsigned)ra,
                         (unsigned)rb);
            assert_string_equal(lb.text, la.text);
            static char ta[16384], tb[16384];
            struct_text(&a, ta, sizeof ta);
            struct_text(&b, tb, sizeof tb);
            assert_string_equal(tb, ta);
            /* store: the direct text against the tree's, four ways */
            for (int s = 0; s < 4; s++) {
                sv_o3de_opts o;
                sv_o3de_opts_init(&o);
                o.keep_defaults = s & 1;
                int indent = (s & 2) ? 4 : 0;
                rec sa, sb;
                memset(&sa, 0, sizeof sa);
                memset(&sb, 0, sizeof sb);
                sv_buf x, y;
                sv_buf_init(&x, NULL);
                sv_buf_init(&y, NULL);
                sv_error err;
                sv_error_clear(&err);
                sv_o3de_result qa, qb;
                o.report = listen ? record : NULL;
                o.report_ctx = &sa;
                assert_int_equal(
                    o3_store_struct_tree_text(schema, holder_cls, &a, indent, &x, &o, &qa, &err),
                    SV_OK);
                o.report_ctx = &sb;
                assert_int_equal(
                    sv_o3de_store_struct_text(schema, holder_cls, &a, indent, &y, &o, &qb, &err),
                    SV_OK);
                sv_buf_putc(&x, 0);
                sv_buf_putc(&y, 0);
                assert_string_equal((const char *)y.data, (const char *)x.data);
                assert_int_equal(qa, qb);
                assert_string_equal(sb.text, sa.text);
                sv_buf_free(&x);
                sv_buf_free(&y);
            }
            sv_struct_free(schema, holder_cls, &a, NULL);
            sv_struct_free(schema, holder_cls, &b, NULL);
        }
    }
}

/* The store's class plans at their edges, direct text against the tree's:
 * a key longer than the 32 bytes copied at once, sequences of objects and
 * of math leaves with the nesting limit at every level the walk reaches
 * (the direct walk decides per level whether it may write leaves in
 * place), with and without defaults and listeners. */
typedef struct LongKeys {
    int32_t a_field_whose_name_is_longer_than_thirty_two_bytes;
    float v[3];
} LongKeys;
typedef struct Outer {
    LongKeys *items;
    size_t n_items;
    float *vs;
    size_t n_vs;
    LongKeys one;
} Outer;
#define LONG_FIELDS(X)                                                                             \
    X(LongKeys, PLAIN, a_field_whose_name_is_longer_than_thirty_two_bytes, _, "i32")               \
    X(LongKeys, PLAIN, v, _, "vector3")
#define OUTER_FIELDS(X)                                                                            \
    X(Outer, COUNTED, items, n_items, "vector<LongKeys>")                                          \
    X(Outer, COUNTED, vs, n_vs, "vector<vector3>")                                                 \
    X(Outer, PLAIN, one, _, "LongKeys")
static const sv_cfield long_fields[] = {LONG_FIELDS(SV_CFIELD_X)};
static const sv_cfield outer_fields[] = {OUTER_FIELDS(SV_CFIELD_X)};
static const sv_cclass long_class = SV_CCLASS(LongKeys, NULL, long_fields);
static const sv_cclass outer_class = SV_CCLASS(Outer, NULL, outer_fields);

/* A schema with the classes bound, in order, and finalized (the test fails
 * when one is refused). */
static sv_schema *bound_schema(const sv_cclass *const *classes, size_t n)
{
    sv_error err;
    sv_error_clear(&err);
    sv_schema *s = sv_schema_new(NULL);
    assert_non_null(s);
    for (size_t i = 0; i < n; i++) assert_int_equal(sv_schema_bind(s, classes[i], &err), SV_OK);
    assert_int_equal(sv_schema_finalize(s, &err), SV_OK);
    return s;
}

/* The class named name in s (there: the test bound it). */
static const sv_schema_class *class_named(const sv_schema *s, const char *name)
{
    const sv_schema_class *cls = sv_schema_class_by_name(s, name, strlen(name));
    assert_non_null(cls);
    return cls;
}

/* The compact text sv_o3de_store_struct_text writes for obj (opt NULL: the
 * defaults), which must succeed: NUL-terminated in y (the caller frees
 * it), the store's result in *r. */
static const char *stored_text(const sv_schema *s, const sv_schema_class *cls, const void *obj,
                               const sv_o3de_opts *opt, sv_buf *y, sv_o3de_result *r)
{
    sv_error err;
    sv_error_clear(&err);
    sv_buf_init(y, NULL);
    assert_int_equal(sv_o3de_store_struct_text(s, cls, obj, 0, y, opt, r, &err), SV_OK);
    sv_buf_putc(y, 0);
    return (const char *)y->data;
}

static void test_store_plan_edges(void **state)
{
    (void)state;
    sv_error err;
    sv_error_clear(&err);
    const sv_cclass *const classes[] = {&long_class, &outer_class};
    sv_schema *s = bound_schema(classes, 2);
    const sv_schema_class *cls = class_named(s, "Outer");
    LongKeys items[3] = {{0, {0, 0, 0}}, {-7, {1.5f, 0, 0}}, {12, {0.1f, 2, 3}}};
    float vs[6] = {0, 0, 0, 0.25f, -1, 1e10f};
    Outer o = {items, 3, vs, 2, {5, {0, 0, 1}}};
    /* the long key, written by the direct walk as the tree writes it */
    sv_buf b;
    sv_o3de_result r;
    assert_string_equal(
        stored_text(s, cls, &o, NULL, &b, &r),
        "{\"items\":[{},{\"a_field_whose_name_is_longer_than_thirty_two_bytes\":-7,"
        "\"v\":[1.5,0.0,0.0]},{\"a_field_whose_name_is_longer_than_thirty_two_bytes\":12,"
        "\"v\":[0.10000000149011612,2.0,3.0]}],\"vs\":[{},[0.25,-1.0,10000000000.0]],"
        "\"one\":{\"a_field_whose_name_is_longer_than_thirty_two_bytes\":5,"
        "\"v\":[0.0,0.0,1.0]}}");
    sv_buf_free(&b);
    for (uint32_t depth = 1; depth <= 5; depth++) {
        for (int mode = 0; mode < 8; mode++) {
            sv_o3de_opts opt;
            sv_o3de_opts_init(&opt);
            opt.max_depth = depth;
            opt.keep_defaults = mode & 1;
            int indent = (mode & 2) ? 2 : 0;
            rec la, lb;
            memset(&la, 0, sizeof la);
            memset(&lb, 0, sizeof lb);
            if (mode & 4) opt.report = record;
            sv_buf x, y;
            sv_buf_init(&x, NULL);
            sv_buf_init(&y, NULL);
            sv_o3de_result qa = 0, qb = 0;
            opt.report_ctx = &la;
            sv_status sa = o3_store_struct_tree_text(s, cls, &o, indent, &x, &opt, &qa, &err);
            opt.report_ctx = &lb;
            sv_status sb = sv_o3de_store_struct_text(s, cls, &o, indent, &y, &opt, &qb, &err);
            assert_int_equal(sb, sa);
            sv_buf_putc(&x, 0);
            sv_buf_putc(&y, 0);
            if (strcmp((const char *)x.data, (const char *)y.data) != 0 || qa != qb)
                fail_msg("depth %u mode %d: tree %s (%08x), direct %s (%08x)", (unsigned)depth,
                         mode, (const char *)x.data, (unsigned)qa, (const char *)y.data,
                         (unsigned)qb);
            assert_string_equal(lb.text, la.text);
            sv_buf_free(&x);
            sv_buf_free(&y);
        }
    }
    sv_schema_free(s);
}

/* The result of a plain walk that folds its leaves' results (success,
 * defaults used) with a member of the general path between them (a
 * nested object): worked by O3DE's rules, success with defaults used is
 * partial defaults whatever comes after, and all success (keep_defaults:
 * nothing compared) is success. The texts: the default member left out.
 * The same for the elements of a sequence (the element 0 as {}). */
typedef struct Inner {
    int32_t q;
} Inner;
typedef struct Odd {
    int32_t a;
    int32_t z;
    Inner in;
    int32_t b;
    float v[3];
} Odd;
#define INNER_FIELDS(X) X(Inner, PLAIN, q, _, "i32")
#define ODD_FIELDS(X)                                                                              \
    X(Odd, PLAIN, a, _, "i32")                                                                     \
    X(Odd, PLAIN, z, _, "i32")                                                                     \
    X(Odd, PLAIN, in, _, "Inner")                                                                  \
    X(Odd, PLAIN, b, _, "i32")                                                                     \
    X(Odd, PLAIN, v, _, "vector3")
typedef struct Tags {
    int32_t *xs;
    size_t n_xs;
} Tags;
#define TAGS_FIELDS(X) X(Tags, COUNTED, xs, n_xs, "vector<i32>")
static const sv_cfield tags_fields[] = {TAGS_FIELDS(SV_CFIELD_X)};
static const sv_cclass tags_class = SV_CCLASS(Tags, NULL, tags_fields);
static const sv_cfield inner_fields[] = {INNER_FIELDS(SV_CFIELD_X)};
static const sv_cfield odd_fields[] = {ODD_FIELDS(SV_CFIELD_X)};
static const sv_cclass inner_class = SV_CCLASS(Inner, NULL, inner_fields);
static const sv_cclass odd_class = SV_CCLASS(Odd, NULL, odd_fields);

static void test_store_results_mixed(void **state)
{
    (void)state;
    sv_error err;
    sv_error_clear(&err);
    const sv_cclass *const classes[] = {&inner_class, &odd_class, &tags_class};
    sv_schema *s = bound_schema(classes, 3);
    const sv_schema_class *cls = class_named(s, "Odd");
    Odd o;
    memset(&o, 0, sizeof o);
    o.a = 3; /* z stays 0, the default: left out */
    o.in.q = 5;
    o.b = -2;
    o.v[1] = 0.5f;
    for (int keep = 0; keep < 2; keep++) {
        sv_o3de_opts opt;
        sv_o3de_opts_init(&opt);
        opt.keep_defaults = keep;
        sv_buf x, y;
        sv_buf_init(&x, NULL);
        sv_buf_init(&y, NULL);
        sv_o3de_result qa = 0, qb = 0;
        assert_int_equal(o3_store_struct_tree_text(s, cls, &o, 0, &x, &opt, &qa, &err), SV_OK);
        assert_int_equal(sv_o3de_store_struct_text(s, cls, &o, 0, &y, &opt, &qb, &err), SV_OK);
        sv_buf_putc(&x, 0);
        sv_buf_putc(&y, 0);
        assert_string_equal((const char *)y.data, (const char *)x.data);
        assert_string_equal((const char *)y.data,
                            keep ? "{\"a\":3,\"z\":0,\"in\":{\"q\":5},\"b\":-2,\"v\":[0.0,0.5,0.0]}"
                                 : "{\"a\":3,\"in\":{\"q\":5},\"b\":-2,\"v\":[0.0,0.5,0.0]}");
        assert_int_equal(sv_o3de_result_task(qb), SV_O3DE_WRITE_VALUE);
        assert_int_equal(sv_o3de_result_outcome(qb),
                         keep ? SV_O3DE_SUCCESS : SV_O3DE_PARTIAL_DEFAULTS);
        assert_int_equal(sv_o3de_result_processing(qb), SV_O3DE_COMPLETED);
        assert_int_equal(qb, qa);
        sv_buf_free(&x);
        sv_buf_free(&y);
    }
    const sv_schema_class *tcls = class_named(s, "Tags");
    int32_t xs[2] = {0, 7};
    Tags t = {xs, 2};
    /* every element the default: each is {} with defaults used, which the
     * sequence's own success makes partial defaults (and the member is
     * written, not left out) */
    int32_t zeros[2] = {0, 0};
    Tags tz = {zeros, 2};
    /* both with and without keep_defaults: {} for a default element only
     * without; the result partial defaults only without */
    static const char *const want[2][2] = {{"{\"xs\":[{},{}]}", "{\"xs\":[0,0]}"},
                                           {"{\"xs\":[{},7]}", "{\"xs\":[0,7]}"}};
    const Tags *const values[2] = {&tz, &t};
    for (int v = 0; v < 2; v++) {
        for (int keep = 0; keep < 2; keep++) {
            sv_o3de_opts opt;
            sv_o3de_opts_init(&opt);
            opt.keep_defaults = keep;
            sv_buf y;
            sv_o3de_result qb = 0;
            assert_string_equal(stored_text(s, tcls, values[v], &opt, &y, &qb), want[v][keep]);
            assert_int_equal(
                qb, sv_o3de_result_make(SV_O3DE_WRITE_VALUE,
                                        keep ? SV_O3DE_SUCCESS : SV_O3DE_PARTIAL_DEFAULTS));
            sv_buf_free(&y);
        }
    }
    sv_schema_free(s);
}

/* A vector leaf's lanes, each one decisive: a -0.0 in any lane still
 * equals the default's 0.0 (operator== on values: the member is left
 * out), and an infinity in any lane has no JSON text (the store fails, as
 * the tree's writer does). */
static void test_store_vector_lanes(void **state)
{
    (void)state;
    sv_error err;
    sv_error_clear(&err);
    const sv_cclass *const classes[] = {&inner_class, &odd_class};
    sv_schema *s = bound_schema(classes, 2);
    const sv_schema_class *cls = class_named(s, "Odd");
    for (int lane = 0; lane < 3; lane++) {
        Odd o;
        memset(&o, 0, sizeof o);
        o.a = 1;
        o.v[lane] = -0.0f;
        sv_buf y;
        sv_o3de_result r = 0;
        assert_string_equal(stored_text(s, cls, &o, NULL, &y, &r), "{\"a\":1}");
        sv_buf_free(&y);
        o.v[lane] = INFINITY;
        sv_buf_init(&y, NULL);
        sv_error_clear(&err);
        assert_int_not_equal(sv_o3de_store_struct_text(s, cls, &o, 0, &y, NULL, &r, &err), SV_OK);
        sv_buf_free(&y);
        sv_buf_init(&y, NULL);
        sv_error_clear(&err);
        assert_int_not_equal(o3_store_struct_tree_text(s, cls, &o, 0, &y, NULL, &r, &err), SV_OK);
        sv_buf_free(&y);
    }
    sv_schema_free(s);
}

/* The room the plain walk makes for all of a class's members at once
 * holds only until a member that grows the buffer by itself: a string
 * whose text is much longer than the room leaves the buffer with a few
 * bytes to spare (it grows by exactly what the string needs), and the
 * members after it must make their own room again (under AddressSanitizer
 * a member that did not would write past the buffer). */
typedef struct LongText {
    char *s;
    int32_t a;
    float v[4];
} LongText;
#define LONG_TEXT_FIELDS(X)                                                                        \
    X(LongText, PLAIN, s, _, "string")                                                             \
    X(LongText, PLAIN, a, _, "i32")                                                                \
    X(LongText, PLAIN, v, _, "vector4")
static const sv_cfield long_text_fields[] = {LONG_TEXT_FIELDS(SV_CFIELD_X)};
static const sv_cclass long_text_class = SV_CCLASS(LongText, NULL, long_text_fields);

static void test_store_room_after_string(void **state)
{
    (void)state;
    sv_error err;
    sv_error_clear(&err);
    const sv_cclass *const classes[] = {&long_text_class};
    sv_schema *s = bound_schema(classes, 1);
    const sv_schema_class *cls = class_named(s, "LongText");
    enum { N = 200000 };
    char *text = malloc(N + 1);
    assert_non_null(text);
    memset(text, 'x', N);
    text[N] = 0;
    LongText o = {text, 5, {1, 2, 3, 4}};
    sv_buf y;
    sv_buf_init(&y, NULL);
    sv_o3de_result r = 0;
    assert_int_equal(sv_o3de_store_struct_text(s, cls, &o, 0, &y, NULL, &r, &err), SV_OK);
    const char head[] = "{\"s\":\"", tail[] = "\",\"a\":5,\"v\":[1.0,2.0,3.0,4.0]}";
    assert_int_equal(y.len, sizeof head - 1 + N + sizeof tail - 1);
    assert_memory_equal(y.data, head, sizeof head - 1);
    for (size_t i = 0; i < N; i++)
        if (y.data[sizeof head - 1 + i] != 'x') fail_msg("byte %zu of the string", i);
    assert_memory_equal(y.data + sizeof head - 1 + N, tail, sizeof tail - 1);
    sv_buf_free(&y);
    free(text);
    sv_schema_free(s);
}

/* Strings around the walk's two-word copy (8 to 16 bytes), each in a block
 * of its own size: every length from 1 to 20 as it is (distinct letters, so
 * that a word copied to the wrong place shows), then with one byte JSON
 * escapes at each position (a quote, a backslash, a newline, 0x1F) and
 * with a byte from 0x80 up (0xE9, written as it is), whose text is the
 * JSON escape worked from the rule (RFC 8259, uppercase hex as RapidJSON's
 * Writer) around the same letters; the members after the string follow
 * it at the right place. */
static size_t json_escape_byte(char ch, char *out)
{
    switch (ch) {
    case '"': memcpy(out, "\\\"", 2); return 2;
    case '\\': memcpy(out, "\\\\", 2); return 2;
    case '\n': memcpy(out, "\\n", 2); return 2;
    case (char)0xE9: *out = ch; return 1;         /* no escape from 0x80 up (UTF-8 as it is) */
    default: memcpy(out, "\\u001F", 6); return 6; /* 0x1F, the only other one used */
    }
}

static void test_store_short_strings(void **state)
{
    (void)state;
    const sv_cclass *const classes[] = {&long_text_class};
    sv_schema *s = bound_schema(classes, 1);
    const sv_schema_class *cls = class_named(s, "LongText");
    static const char special[] = {'"', '\\', '\n', 0x1f, (char)0xE9};
    for (size_t n = 1; n <= 20; n++) {
        for (int k = -1; k < (int)n; k++) {
            for (size_t e = 0; e < (k < 0 ? 1 : sizeof special); e++) {
                char *text = malloc(n + 1);
                assert_non_null(text);
                char want[128];
                size_t wl = 0;
                memcpy(want, "{\"s\":\"", 6);
                wl = 6;
                for (size_t i = 0; i < n; i++) {
                    text[i] = (char)('a' + i);
                    if ((int)i == k) {
                        text[i] = special[e];
                        wl += json_escape_byte(special[e], want + wl);
                    } else {
                        want[wl++] = text[i];
                    }
                }
                text[n] = 0;
                const char tail[] = "\",\"a\":5}";
                memcpy(want + wl, tail, sizeof tail);
                LongText o = {text, 5, {0, 0, 0, 0}};
                sv_buf y;
                sv_o3de_result r = 0;
                const char *got = stored_text(s, cls, &o, NULL, &y, &r);
                if (strcmp(got, want) != 0)
                    fail_msg("length %zu, escape at %d: %s, want %s", n, k, got, want);
                assert_int_equal(
                    r, sv_o3de_result_make(SV_O3DE_WRITE_VALUE, SV_O3DE_PARTIAL_DEFAULTS));
                sv_buf_free(&y);
                free(text);
            }
        }
    }
    sv_schema_free(s);
}

/* An enum whose values leave gaps and repeat one (the walk finds a name by
 * its value in a table): a value with an enumerator is written as the
 * first enumerator's name, the default left out, and a value with none (in
 * a gap, or past the largest) the way the tree path writes it. */
typedef struct Gap {
    uint32_t g;
    int32_t after;
    int16_t h;  /* enum Small (two bytes, signed) */
    int32_t sg; /* enum Signy (four bytes, signed) */
} Gap;
#define GAP_FIELDS(X)                                                                              \
    X(Gap, PLAIN, g, _, "Gappy")                                                                   \
    X(Gap, PLAIN, after, _, "i32")                                                                 \
    X(Gap, PLAIN, h, _, "Small")                                                                   \
    X(Gap, PLAIN, sg, _, "Signy")
static const sv_cfield gap_fields[] = {GAP_FIELDS(SV_CFIELD_X)};
static const sv_cclass gap_class = SV_CCLASS(Gap, NULL, gap_fields);

static void test_store_enum_by_value(void **state)
{
    (void)state;
    sv_error err;
    sv_error_clear(&err);
    sv_schema *s = sv_schema_new(NULL);
    assert_non_null(s);
    sv_schema_enum *e = NULL;
    assert_int_equal(sv_schema_add_enum(s, "Gappy", SV_PRIM_U32, false, &e, &err), SV_OK);
    assert_int_equal(sv_schema_enum_add(s, e, "None", 0, &err), SV_OK);
    assert_int_equal(sv_schema_enum_add(s, e, "Two", 2, &err), SV_OK);
    assert_int_equal(sv_schema_enum_add(s, e, "Deux", 2, &err), SV_OK);
    assert_int_equal(sv_schema_enum_add(s, e, "Five", 5, &err), SV_OK);
    assert_int_equal(sv_schema_add_enum(s, "Small", SV_PRIM_I16, false, &e, &err), SV_OK);
    assert_int_equal(sv_schema_enum_add(s, e, "Zero", 0, &err), SV_OK);
    assert_int_equal(sv_schema_enum_add(s, e, "Three", 3, &err), SV_OK);
    assert_int_equal(sv_schema_add_enum(s, "Signy", SV_PRIM_I32, false, &e, &err), SV_OK);
    assert_int_equal(sv_schema_enum_add(s, e, "Nil", 0, &err), SV_OK);
    assert_int_equal(sv_schema_enum_add(s, e, "Seven", 7, &err), SV_OK);
    assert_int_equal(sv_schema_bind(s, &gap_class, &err), SV_OK);
    assert_int_equal(sv_schema_finalize(s, &err), SV_OK);
    const sv_schema_class *cls = class_named(s, "Gap");
    static const struct {
        uint32_t g;
        int16_t h;
        int32_t sg;
        const char *text; /* NULL: as the tree path writes it */
    } cases[] = {{0, 0, 0, "{\"after\":1}"},
                 {2, 3, 7, "{\"g\":\"Two\",\"after\":1,\"h\":\"Three\",\"sg\":\"Seven\"}"},
                 {5, 0, 0, "{\"g\":\"Five\",\"after\":1}"},
                 {1, 1, 1, NULL},
                 {3, -1, -1, NULL},
                 {4, -3, -7, NULL},
                 {6, 64, 8, NULL},
                 {64, 2, INT32_MIN, NULL},
                 {1000, 0, 64, NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Gap o = {cases[i].g, 1, cases[i].h, cases[i].sg};
        sv_buf x, y;
        sv_buf_init(&x, NULL);
        sv_buf_init(&y, NULL);
        sv_o3de_result qa = 0, qb = 0;
        sv_status sa = o3_store_struct_tree_text(s, cls, &o, 0, &x, NULL, &qa, &err);
        sv_status sb = sv_o3de_store_struct_text(s, cls, &o, 0, &y, NULL, &qb, &err);
        assert_int_equal(sb, sa);
        sv_buf_putc(&x, 0);
        sv_buf_putc(&y, 0);
        if (cases[i].text) assert_string_equal((const char *)y.data, cases[i].text);
        if (strcmp((const char *)x.data, (const char *)y.data) != 0 || qa != qb)
            fail_msg("value %u: tree %s (%08x), direct %s (%08x)", (unsigned)cases[i].g,
                     (const char *)x.data, (unsigned)qa, (const char *)y.data, (unsigned)qb);
        sv_buf_free(&x);
        sv_buf_free(&y);
    }
    sv_schema_free(s);
}

/* What the loads give, from O3DE's rules (not from the code under test). */
static void test_load_values(void **state)
{
    (void)state;
    Holder h;
    sv_o3de_result r;
    rec log;
    load_with(true, inputs[2], false, false, &h, &r, &log);
    assert_string_equal(h.title, "12.500000"); /* a double as %f */
    assert_true(h.main.scale == 1.5f);
    assert_int_equal(h.main.small, 127); /* "0x7f": strtoll base 0 */
    assert_int_equal(h.main.mid, 3);     /* 3.9 truncated */
    assert_true(h.main.on);              /* "TRUE" */
    assert_int_equal(h.main.big, 8);     /* "010" is octal */
    assert_string_equal(h.main.name, "True");
    assert_int_equal(h.main.kind, 2);
    assert_int_equal(h.main.n_tags, 2); /* kept from the start */
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_COMPLETED);
    sv_struct_free(schema, holder_cls, &h, NULL);

    load_with(true, inputs[3], false, true, &h, &r, &log);
    assert_string_equal(h.title, "upper");
    assert_int_equal(h.main.small, 0);   /* 128 does not fit: untouched */
    assert_int_equal(h.main.mid, 0);     /* -1 into u16: untouched */
    assert_true(h.main.scale == 0.0f);   /* 1e300 into f32: untouched */
    assert_true(h.main.pos[0] == 0.0f);  /* two numbers for a vector3: untouched */
    assert_true(h.main.tint[0] == 0.0f); /* integer literals for a colour: untouched */
    assert_int_equal(h.n_parts, 1);      /* "parts": 7 is Unsupported, kept */
    /* cleared, then "1" (string from number), "True", null dropped, "ok" */
    assert_int_equal(h.n_labels, 3);
    assert_string_equal(h.labels[0], "1");
    assert_string_equal(h.labels[1], "True");
    assert_string_equal(h.labels[2], "ok");
    assert_int_equal(sv_o3de_result_outcome(r), SV_O3DE_UNSUPPORTED);
    assert_int_equal(sv_o3de_result_processing(r), SV_O3DE_PARTIAL_ALTER);
    sv_struct_free(schema, holder_cls, &h, NULL);

    /* sequences append: {} is a new zero vector2, [1.0] is too short
     * (Unsupported, dropped); [3] into an int is dropped, "2" converted */
    load_with(true, inputs[5], false, false, &h, &r, &log);
    assert_int_equal(h.n_pts, 3);
    const float pts[6] = {1.0f, 2.0f, 0.0f, 0.0f, 0.5f, 0.25f};
    assert_memory_equal(h.pts, pts, sizeof pts);
    assert_int_equal(h.main.n_tags, 5);
    const int32_t tags[5] = {1, 2, 1, 2, 4};
    assert_memory_equal(h.main.tags, tags, sizeof tags);
    /* {} as a new string: DefaultsUsed, so a default "" is added (spec
     * §10.1: loading [{}] gives one default element) */
    assert_int_equal(h.n_labels, 2);
    assert_string_equal(h.labels[0], "x");
    assert_true(h.labels[1] == NULL || h.labels[1][0] == 0);
    assert_int_equal(sv_o3de_result_outcome(r), SV_O3DE_UNSUPPORTED);
    sv_struct_free(schema, holder_cls, &h, NULL);
}

/* Storing a struct: what O3DE writes for these values. */
static void test_store_text(void **state)
{
    (void)state;
    int32_t tags[2] = {0, 7};
    Part parts[2];
    memset(parts, 0, sizeof parts);
    parts[1].kind = 3;
    parts[1].rot[3] = 1.0f;
    Holder h;
    memset(&h, 0, sizeof h);
    h.title = "T";
    h.main.scale = 0.1f;
    h.main.rot[3] = 1.0f; /* identity; the class default is the zero tuple */
    h.main.tint[0] = 1.0f;
    h.main.tags = tags;
    h.main.n_tags = 2;
    h.parts = parts;
    h.n_parts = 2;
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_result r;
    assert_int_equal(sv_o3de_store_struct_text(schema, holder_cls, &h, 0, &b, NULL, &r, &err),
                     SV_OK);
    sv_buf_putc(&b, 0);
    /* floats widened (0.1f), default members left out (the default
     * quaternion is the identity, so a zero one is written), an element
     * equal to its type's default as {}, enum 3 as its name, the colour's
     * alpha equal to the default's left out */
    assert_string_equal((const char *)b.data,
                        "{\"title\":\"T\",\"main\":{\"tint\":[1.0,0.0,0.0],"
                        "\"scale\":0.10000000149011612,\"tags\":[{},7]},"
                        "\"parts\":[{\"rot\":[0.0,0.0,0.0,0.0]},{\"kind\":\"AB\"}]}");
    sv_buf_free(&b);
}

/* Storing with every allocation failed in turn (the plans, the default
 * instances, the output's growth, once in the middle of a long array):
 * each run gives the text written out by hand, or stops with
 * SV_ERR_NOMEM and leaks nothing. */
static void test_store_struct_faults(void **state)
{
    (void)state;
    enum { N = 5000 }; /* 14 bytes each: the output passes 64 KiB */
    Part *parts = calloc(N, sizeof *parts);
    assert_non_null(parts);
    for (size_t i = 0; i < N; i++) {
        parts[i].kind = 3;
        parts[i].rot[3] = 1.0f; /* the identity, the default */
    }
    Holder h;
    memset(&h, 0, sizeof h);
    h.title = "T";
    h.main.rot[3] = 1.0f; /* main all default: left out */
    h.parts = parts;
    h.n_parts = N;
    size_t want_len = 22 + 14 * (size_t)N + 1;
    char *want = malloc(want_len + 1);
    assert_non_null(want);
    memcpy(want, "{\"title\":\"T\",\"parts\":[", 22);
    for (size_t i = 0; i < N; i++) memcpy(want + 22 + 14 * i, "{\"kind\":\"AB\"},", 14);
    memcpy(want + want_len - 2, "]}", 3);
    long n = 1, failed = 0;
    for (; n < 1000; n++) {
        test_alloc t;
        test_alloc_init(&t, n);
        sv_buf b;
        sv_buf_init(&b, &t.alloc);
        sv_error err;
        sv_error_clear(&err);
        sv_o3de_result r;
        sv_status st = sv_o3de_store_struct_text(schema, holder_cls, &h, 0, &b, NULL, &r, &err);
        if (t.failures == 0) {
            assert_int_equal(st, SV_OK);
            assert_int_equal(b.len, want_len);
            assert_memory_equal(b.data, want, want_len);
        } else {
            assert_int_equal(st, SV_ERR_NOMEM);
            assert_int_equal(err.status, SV_ERR_NOMEM);
            if (getenv("O3T_PRINT_FAULTS")) printf("fault %ld: %s\n", n, err.message);
            failed++;
        }
        sv_buf_free(&b);
        assert_int_equal(t.live_bytes, 0);
        if (t.failures == 0) break;
    }
    assert_true(failed >= 2); /* at least the output's first room and its growth */
    free(want);
    free(parts);
}

/* Integers at every digit count and at the limits of their widths, as C
 * prints them in decimal (the store writes short ones two digits at a time
 * and hands the long ones to the general formatter). */
static void test_store_integers(void **state)
{
    (void)state;
    static const struct {
        int8_t small;
        uint16_t mid;
        int64_t big;
        const char *text;
    } cases[] = {
        {-128, 65535, INT64_MIN, "\"small\":-128,\"mid\":65535,\"big\":-9223372036854775808"},
        {127, 1, INT64_MAX, "\"small\":127,\"mid\":1,\"big\":9223372036854775807"},
        {-1, 10, 99999999, "\"small\":-1,\"mid\":10,\"big\":99999999"},
        {9, 100, 100000000, "\"small\":9,\"mid\":100,\"big\":100000000"},
        {-10, 9999, -99999999, "\"small\":-10,\"mid\":9999,\"big\":-99999999"},
        {99, 10000, -100000000, "\"small\":99,\"mid\":10000,\"big\":-100000000"},
    };
    int32_t tags[] = {INT32_MIN, -1000000, -100001, 0, 5, 42, 307, 1000, 65536, 1234567, INT32_MAX};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Holder h;
        memset(&h, 0, sizeof h);
        h.main.rot[3] = 1.0f;
        h.main.small = cases[i].small;
        h.main.mid = cases[i].mid;
        h.main.big = cases[i].big;
        h.main.tags = tags;
        h.main.n_tags = sizeof tags / sizeof *tags;
        sv_buf b;
        sv_buf_init(&b, NULL);
        sv_error err;
        sv_error_clear(&err);
        sv_o3de_result r;
        assert_int_equal(sv_o3de_store_struct_text(schema, holder_cls, &h, 0, &b, NULL, &r, &err),
                         SV_OK);
        sv_buf_putc(&b, 0);
        char want[512];
        snprintf(want, sizeof want,
                 "{\"main\":{%s,\"tags\":[-2147483648,-1000000,-100001,{},5,42,307,1000,65536,"
                 "1234567,2147483647]}}",
                 cases[i].text);
        assert_string_equal((const char *)b.data, want);
        sv_buf_free(&b);
    }
}

/* Sequences of integers of the other widths (the walk writes i32 elements
 * inline and the rest through one loop per width and sign): the limits of
 * each and the default 0 as {}, as C prints them in decimal. */
typedef struct Widths {
    uint16_t *us;
    size_t n_us;
    int64_t *ls;
    size_t n_ls;
    int8_t *bs;
    size_t n_bs;
    uint64_t *qs;
    size_t n_qs;
} Widths;
#define WIDTHS_FIELDS(X)                                                                           \
    X(Widths, COUNTED, us, n_us, "vector<u16>")                                                    \
    X(Widths, COUNTED, ls, n_ls, "vector<i64>")                                                    \
    X(Widths, COUNTED, bs, n_bs, "vector<i8>")                                                     \
    X(Widths, COUNTED, qs, n_qs, "vector<u64>")
static const sv_cfield widths_fields[] = {WIDTHS_FIELDS(SV_CFIELD_X)};
static const sv_cclass widths_class = SV_CCLASS(Widths, NULL, widths_fields);

static void test_store_integer_sequences(void **state)
{
    (void)state;
    const sv_cclass *const classes[] = {&widths_class};
    sv_schema *s = bound_schema(classes, 1);
    const sv_schema_class *cls = class_named(s, "Widths");
    uint16_t us[] = {0, 1, 65535};
    int64_t ls[] = {INT64_MIN, -1, 0, INT64_MAX};
    int8_t bs[] = {-128, 0, 127};
    uint64_t qs[] = {UINT64_MAX, 0, 100000000};
    Widths o = {us, 3, ls, 4, bs, 3, qs, 3};
    sv_buf y;
    sv_o3de_result r = 0;
    assert_string_equal(stored_text(s, cls, &o, NULL, &y, &r),
                        "{\"us\":[{},1,65535],\"ls\":[-9223372036854775808,-1,{},"
                        "9223372036854775807],\"bs\":[-128,{},127],"
                        "\"qs\":[18446744073709551615,{},100000000]}");
    assert_int_equal(r, sv_o3de_result_make(SV_O3DE_WRITE_VALUE, SV_O3DE_PARTIAL_DEFAULTS));
    sv_buf_free(&y);
    sv_schema_free(s);
}

/* Allocation failures while loading into a struct: SV_ERR_NOMEM with
 * nothing left allocated (the struct freed and zeroed), or the same struct
 * as without faults. */
static void test_load_struct_faults(void **state)
{
    (void)state;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value j = o3t_json(doc, inputs[1]);
    sv_value j2 = o3t_json(doc, inputs[4]);
    static char want[16384], got[16384];
    Holder h;
    memset(&h, 0, sizeof h);
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_result r;
    assert_int_equal(sv_o3de_load_struct(schema, holder_cls, &j, &h, NULL, NULL, &r, &err), SV_OK);
    assert_int_equal(sv_o3de_load_struct(schema, holder_cls, &j2, &h, NULL, NULL, &r, &err), SV_OK);
    struct_text(&h, want, sizeof want);
    sv_struct_free(schema, holder_cls, &h, NULL);
    long n = 1;
    for (; n < 10000; n++) {
        test_alloc t;
        test_alloc_init(&t, n);
        memset(&h, 0, sizeof h);
        sv_status st = sv_o3de_load_struct(schema, holder_cls, &j, &h, &t.alloc, NULL, &r, &err);
        if (st == SV_OK)
            st = sv_o3de_load_struct(schema, holder_cls, &j2, &h, &t.alloc, NULL, &r, &err);
        if (st != SV_OK) {
            assert_int_equal(st, SV_ERR_NOMEM);
        } else {
            struct_text(&h, got, sizeof got);
            assert_string_equal(got, want);
        }
        sv_struct_free(schema, holder_cls, &h, &t.alloc);
        assert_int_equal(t.live_bytes, 0);
        if (t.failures == 0) break;
    }
    assert_true(n > 5);
    sv_doc_free(doc);
}

/* ---- the streaming load ---- */

/* Whether the streaming load alone takes text (it gives up on the rest). */
static bool streams(const char *text, size_t len)
{
    Holder h;
    memset(&h, 0, sizeof h);
    sv_doc *doc = sv_doc_new(NULL);
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    o3_ctx c;
    assert_int_equal(o3_ctx_init(&c, schema, doc, &o, false, &err), SV_OK);
    o3_res r;
    bool ok = o3_load_struct_stream(&c, holder_cls, text, len, &h, NULL, &r);
    o3_ctx_free(&c);
    sv_doc_free(doc);
    if (!ok) {
        /* given up: the struct is all zero again */
        static const Holder zero;
        assert_memory_equal(&h, &zero, sizeof h);
    }
    sv_struct_free(schema, holder_cls, &h, NULL);
    return ok;
}

/* sv_o3de_load_struct_text against sv_o3de_read + the tree path's load,
 * into a zeroed struct: the same status, error text, result, reports and
 * struct. */
static void text_equals_tree(const char *text, size_t len, bool listen, bool clear)
{
    Holder a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    rec la, lb;
    memset(&la, 0, sizeof la);
    memset(&lb, 0, sizeof lb);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    o.clear_containers = clear;
    o.report = listen ? record : NULL;
    sv_error ea, eb;
    sv_error_clear(&ea);
    sv_error_clear(&eb);
    sv_o3de_result ra = 0, rb = 0;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value j;
    o.report_ctx = &la;
    sv_status sa = sv_o3de_read(doc, text, len, NULL, &j, &ea);
    if (sa == SV_OK) sa = o3_load_struct_tree(schema, holder_cls, &j, &a, NULL, &o, &ra, &ea);
    sv_doc_free(doc);
    o.report_ctx = &lb;
    sv_status sb = sv_o3de_load_struct_text(schema, holder_cls, text, len, &b, NULL, &o, &rb, &eb);
    if (sa != sb) fail_msg("%.*s: tree status %d, text %d", (int)len, text, (int)sa, (int)sb);
    if (sa == SV_OK) {
        if (ra != rb)
            fail_msg("%.*s: tree %08x, text %08x", (int)len, text, (unsigned)ra, (unsigned)rb);
        static char ta[1 << 18], tb[1 << 18];
        struct_text(&a, ta, sizeof ta);
        struct_text(&b, tb, sizeof tb);
        assert_string_equal(tb, ta);
    } else {
        char ma[512], mb[512];
        sv_error_format(&ea, ma, sizeof ma);
        sv_error_format(&eb, mb, sizeof mb);
        assert_string_equal(mb, ma);
    }
    assert_string_equal(lb.text, la.text);
    sv_struct_free(schema, holder_cls, &a, NULL);
    sv_struct_free(schema, holder_cls, &b, NULL);
}

/* Inputs the streaming load takes itself (plain shapes, whitespace, every
 * kind of number token, unknown members of any shape, duplicates). */
static const char *const stream_inputs[] = {
    " {\n\t\"title\" : \"a b\" ,\r\n \"main\" : { \"pos\" : [ 1 , -2.5 , 3e2 ] } } \n",
    "{\"main\":{\"scale\":1.5e-3,\"weight\":-0.0039192382246255878,\"big\":12345678901234567890,"
    "\"mid\":1E2,\"small\":-0,\"pos\":[0.1234567890123456789012,1e-45,-3.4028234663852886e38]}}",
    "{\"main\":{\"weight\":123456789012345678901234567890,\"big\":-9223372036854775809,"
    "\"scale\":1e-400,\"tags\":[1,2.5,-3]}}",
    "{\"zzz\":{\"a\":[1,{\"b\":[[],{}]},\"s\",true,false,null]},\"$type\":\"Holder\",\"title\":"
    "\"x\","
    "\"title\":\"y\",\"Title\":\"z\"}",
    "{\"parts\":[{\"name\":\"a\",\"tags\":[1,2,3]},{},{\"kind\":\"B\",\"pos\":[1,2,3],\"rot\":[0,0,"
    "0,1]}],"
    "\"pts\":[[1,2],[3.5,4.5],{}],\"labels\":[\"p\",\"q\",5]}",
    "{\"parts\":[],\"labels\":[],\"pts\":[],\"main\":{}}",
    "{\"parts\":[7,{\"on\":true}],\"main\":{\"tags\":[\"1\",{},[2]]}}",
    "{\"main\":{\"pos\":[1,2,3,4],\"rot\":[1,2],\"tint\":[1.0,0.5,0.25],\"kind\":[\"A\",\"B\"]}}",
    "[1,2]",
    "\"text\"",
    "{}",
};

/* Inputs it gives up on, each for the tree path to read. */
static const char *const tree_inputs[] = {
    "{\"title\":\"caf\\u00e9\"}",       /* an escape */
    "{\"t\\u0069tle\":\"x\"}",          /* an escaped key */
    "{\"title\":\"caf\xc3\xa9\"}",      /* UTF-8 */
    "{/* c */\"title\":\"x\"}",         /* a comment */
    "{\"main\":{\"pos\":{\"x\":1.0}}}", /* an object for a vector */
    "{\"title\":\"x\"} x",              /* something after the value */
    "{\"title\":\"x\",}",               /* a trailing comma: an error */
    "{\"main\":{\"scale\":1e400}}",     /* beyond float64: an error */
    "{\"main\":{\"scale\":01}}",        /* a leading zero: an error */
    "{\"main\":{\"scale\":-}}",
    "{\"title\":tru}",
    "",
};

static void test_stream_equals_tree(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof stream_inputs / sizeof *stream_inputs; i++) {
        const char *t = stream_inputs[i];
        if (!streams(t, strlen(t))) fail_msg("not streamed: %s", t);
        for (int mode = 0; mode < 4; mode++)
            text_equals_tree(t, strlen(t), mode & 1, (mode & 2) != 0);
    }
    for (size_t i = 0; i < sizeof tree_inputs / sizeof *tree_inputs; i++) {
        const char *t = tree_inputs[i];
        if (streams(t, strlen(t))) fail_msg("streamed: %s", t);
        for (int mode = 0; mode < 4; mode++)
            text_equals_tree(t, strlen(t), mode & 1, (mode & 2) != 0);
    }
    /* the direct path's inputs too (escapes among them) */
    for (size_t i = 0; i < sizeof inputs / sizeof *inputs; i++)
        for (int mode = 0; mode < 4; mode++)
            text_equals_tree(inputs[i], strlen(inputs[i]), mode & 1, mode & 2);
}

/* Every prefix of every input: an error (or, for a prefix that is a whole
 * value, a load) the same as the tree path's, nothing leaked (ASan). */
static void test_stream_truncated(void **state)
{
    (void)state;
    const char *const *sets[2] = {stream_inputs, inputs};
    size_t counts[2] = {sizeof stream_inputs / sizeof *stream_inputs,
                        sizeof inputs / sizeof *inputs};
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < counts[k]; i++) {
            size_t n = strlen(sets[k][i]);
            char *copy = malloc(n + 1);
            assert_non_null(copy);
            for (size_t cut = 0; cut <= n; cut++) {
                /* a copy of just the prefix, so that reading past it shows */
                char *t = malloc(cut ? cut : 1);
                assert_non_null(t);
                memcpy(t, sets[k][i], cut);
                text_equals_tree(t, cut, false, false);
                free(t);
            }
            free(copy);
        }
}

/* Deep nesting (in an unknown member, in sequences), enormous numbers and
 * long strings. */
static void test_stream_hostile(void **state)
{
    (void)state;
    size_t depth[] = {150, 199, 200, 201, 1023, 1024, 1025, 5000};
    for (size_t d = 0; d < sizeof depth / sizeof *depth; d++) {
        size_t n = depth[d];
        char *t = malloc(2 * n + 64);
        assert_non_null(t);
        size_t len = (size_t)sprintf(t, "{\"unknown\":");
        for (size_t i = 0; i < n; i++) t[len++] = '[';
        for (size_t i = 0; i < n; i++) t[len++] = ']';
        t[len++] = '}';
        text_equals_tree(t, len, false, false);
        text_equals_tree(t, len - n / 2 - 1, false, false);
        /* sequences of parts holding sequences */
        len = (size_t)sprintf(t, "{\"parts\":[{\"tags\":");
        for (size_t i = 0; i < n; i++) t[len++] = '[';
        for (size_t i = 0; i < n; i++) t[len++] = ']';
        len += (size_t)sprintf(t + len, "}]}");
        text_equals_tree(t, len, false, false);
        free(t);
    }
    size_t big = 100000;
    char *t = malloc(big + 64);
    assert_non_null(t);
    const char *heads[] = {"{\"main\":{\"big\":", "{\"main\":{\"weight\":0.",
                           "{\"main\":{\"scale\":-1", "{\"title\":\""};
    for (size_t h = 0; h < 4; h++) {
        size_t len = (size_t)sprintf(t, "%s", heads[h]);
        memset(t + len, h == 3 ? 'a' : '7', big);
        len += big;
        len += (size_t)sprintf(t + len, h == 3 ? "\"}" : (h == 2 ? "e-99999999999}}" : "}}"));
        text_equals_tree(t, len, false, false);
        /* 10^100000 is beyond float64: the reader's error, from the tree */
        assert_true(streams(t, len) == (h != 0));
    }
    free(t);
}

/* Allocation faults while streaming: an error or the same struct, and
 * nothing left allocated. */
static void test_stream_faults(void **state)
{
    (void)state;
    const char *text = stream_inputs[4];
    static char want[16384], got[16384];
    Holder h;
    memset(&h, 0, sizeof h);
    sv_error err;
    sv_error_clear(&err);
    sv_o3de_result r;
    assert_int_equal(
        sv_o3de_load_struct_text(schema, holder_cls, text, strlen(text), &h, NULL, NULL, &r, &err),
        SV_OK);
    struct_text(&h, want, sizeof want);
    sv_struct_free(schema, holder_cls, &h, NULL);
    long n = 1;
    for (; n < 10000; n++) {
        test_alloc t;
        test_alloc_init(&t, n);
        memset(&h, 0, sizeof h);
        sv_status st = sv_o3de_load_struct_text(schema, holder_cls, text, strlen(text), &h,
                                                &t.alloc, NULL, &r, &err);
        if (st != SV_OK) {
            assert_int_equal(st, SV_ERR_NOMEM);
        } else {
            struct_text(&h, got, sizeof got);
            assert_string_equal(got, want);
        }
        sv_struct_free(schema, holder_cls, &h, &t.alloc);
        assert_int_equal(t.live_bytes, 0);
        if (t.failures == 0) break;
    }
    assert_true(n > 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direct_equals_tree),
        cmocka_unit_test(test_load_values),
        cmocka_unit_test(test_store_text),
        cmocka_unit_test(test_store_plan_edges),
        cmocka_unit_test(test_store_results_mixed),
        cmocka_unit_test(test_store_vector_lanes),
        cmocka_unit_test(test_store_room_after_string),
        cmocka_unit_test(test_store_short_strings),
        cmocka_unit_test(test_store_enum_by_value),
        cmocka_unit_test(test_store_integers),
        cmocka_unit_test(test_store_integer_sequences),
        cmocka_unit_test(test_load_struct_faults),
        cmocka_unit_test(test_store_struct_faults),
        cmocka_unit_test(test_stream_equals_tree),
        cmocka_unit_test(test_stream_truncated),
        cmocka_unit_test(test_stream_hostile),
        cmocka_unit_test(test_stream_faults),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
