/* NoesisGUI NSDH: the real files of ../shared/samples/noesis-nsb/.
 *
 * Expected values come from the layout (docs/formats/noesis.md B.3, B.4)
 * worked by hand over the TicTacToe file and a ProgressBar excerpt, the
 * samples' README, the XAML
 * source ComboBox.xaml (element counts, strings, colors, margins, duration)
 * and the sizes read off the files' block headers with xxd. */
#include "test_noesis_util.h"

static size_t count_class(const sv_value *chunk, const char *cls)
{
    const sv_value *inst = nt_get(chunk, "instances");
    const sv_value *comps = nt_get(chunk, "components");
    const uint32_t *idx = sv_numbers(inst);
    size_t n = 0;
    for (uint32_t i = 0; i < sv_len(inst); i++) {
        size_t len = 0;
        const char *name = sv_get_str(nt_get(nt_at(comps, idx[i]), "class"), &len);
        if (len == strlen(cls) && memcmp(name, cls, len) == 0) n++;
    }
    return n;
}

static size_t count_bytes(const sv_value *blob, const void *pat, size_t n)
{
    size_t len = 0, hits = 0;
    const uint8_t *p = (const uint8_t *)sv_get_str(blob, &len);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(p + i, pat, n) == 0) hits++;
    return hits;
}

/* spec §B.3: the annotated 354-byte file, and its decoded instances. */
static void test_tictactoe(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *data = nt_sample("TicTacToe-App.v4-meta.nsb", &len);
    assert_int_equal(len, 354);
    sv_value root;
    sv_doc *doc = nt_decode(data, len, &root);
    nt_assert_str(nt_get(&root, "byte_order"), "little");
    nt_assert_uint(nt_get(&root, "version"), 2, 4);
    assert_false(sv_get_bool(nt_get(&root, "unicode")));
    assert_int_equal(sv_len(nt_get(&root, "chunks")), 1);
    sv_value *chunk = nt_at(nt_get(&root, "chunks"), 0);
    sv_value *strings = nt_get(chunk, "strings");
    assert_int_equal(sv_len(strings), 3);
    nt_assert_str(nt_at(strings, 0), "ResourceDictionary");
    nt_assert_str(nt_at(strings, 1), "TicTacToe.App");
    nt_assert_str(nt_at(strings, 2), "UIResource");
    sv_value *comps = nt_get(chunk, "components");
    const char *names[] = {"ResourceDictionary", "TicTacToe.App", "UIResource"};
    const uint64_t versions[] = {2, 0, 3};
    for (int i = 0; i < 3; i++) {
        nt_assert_str(nt_get(nt_at(comps, i), "class"), names[i]);
        nt_assert_uint(nt_get(nt_at(comps, i), "version"), 4, versions[i]);
    }
    sv_value *md = nt_get(chunk, "metadata");
    assert_int_equal(sv_len(nt_get(md, "strings")), 10); /* 99 bytes, 10 names */
    nt_assert_str(nt_at(nt_get(md, "strings"), 0), "*version");
    nt_assert_str(nt_at(nt_get(md, "strings"), 9), "NumItems");
    assert_int_equal(sv_len(nt_get(md, "commands")), 63);
    sv_value *inst = nt_get(chunk, "instances");
    assert_int_equal(sv_len(inst), 3);
    const uint32_t *iv = sv_numbers(inst);
    assert_int_equal(iv[0], 0);
    assert_int_equal(iv[1], 1);
    assert_int_equal(iv[2], 2);
    sv_value *objs = nt_get(chunk, "objects");
    assert_int_equal(sv_len(objs), 3);
    /* #0 ResourceDictionary: Ref MergedDictionaries = null; String8 Source = ""; NumItems = 0 */
    sv_value *o = nt_at(objs, 0);
    assert_string_equal(nt_class(o), "ResourceDictionary");
    assert_int_equal(sv_len(o), 3);
    nt_assert_ref(nt_get(o, "MergedDictionaries"), -1);
    nt_assert_str(nt_get(o, "Source"), "");
    nt_assert_uint(nt_get(o, "NumItems"), 4, 0);
    /* #1 TicTacToe.App: StartupUri = ""; Ref Resources = #0 */
    o = nt_at(objs, 1);
    assert_string_equal(nt_class(o), "TicTacToe.App");
    nt_assert_str(nt_get(o, "StartupUri"), "");
    nt_assert_ref(nt_get(o, "Resources"), 0);
    /* #2 UIResource (root, last): *version = 0; Root = #1; two empty arrays */
    o = nt_at(objs, 2);
    assert_string_equal(nt_class(o), "UIResource");
    nt_assert_uint(nt_get(o, "*version"), 4, 0);
    nt_assert_ref(nt_get(o, "Root"), 1);
    nt_assert_uint(nt_get(nt_get(o, "Dependencies"), "size"), 4, 0);
    nt_assert_uint(nt_get(nt_get(o, "CodeBehind"), "size"), 4, 0);
    assert_int_equal(sv_len(nt_get(o, "CodeBehind")), 1);
    sv_doc_free(doc);
    nt_round_trip(data, len);
    free(data);
}

/* spec §B.4, "Decoded excerpt (ProgressBar.v4-meta.nsb)": instance #6. */
static void test_progressbar(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *data = nt_sample("ProgressBar.v4-meta.nsb", &len);
    sv_value root;
    sv_doc *doc = nt_decode(data, len, &root);
    sv_value *chunk = nt_at(nt_get(&root, "chunks"), 0);
    sv_value *objs = nt_get(chunk, "objects");
    assert_int_equal(sv_len(objs), 53);
    assert_int_equal(sv_len(nt_get(chunk, "components")), 21);
    sv_value *o = nt_at(objs, 6);
    assert_string_equal(nt_class(o), "DoubleAnimation");
    nt_assert_uint(nt_get(o, "*version"), 4, 3);
    nt_assert_uint(nt_get(o, "NumLocalValues"), 4, 3);
    /* three LocalValue groups, each keyed by the Name of the
     * DependencyPropertySerializer its ref points at (instances 0, 1, 2:
     * DoubleAnimation.To, Timeline.Duration, Storyboard.TargetProperty) */
    nt_assert_str(nt_get(nt_at(objs, 0), "Name"), "To");
    nt_assert_str(nt_get(nt_at(objs, 1), "Name"), "Duration");
    nt_assert_str(nt_get(nt_at(objs, 2), "Name"), "TargetProperty");
    sv_value *lv = nt_get(o, "To");
    nt_assert_ref(nt_get(nt_get(lv, "Property"), "Property"), 0);
    sv_value *val = nt_get(lv, "Value");
    assert_int_equal(sv_kind_of(nt_get(val, "HasValue")), SV_BOOL);
    assert_true(sv_get_bool(nt_get(val, "HasValue")));
    sv_value *f = nt_get(val, "Value");
    assert_int_equal(sv_kind_of(f), SV_FLOAT);
    assert_int_equal(sv_width(f), 4);
    assert_true(f->as.f32 == 100.0f);
    lv = nt_get(o, "Duration");
    nt_assert_ref(nt_get(nt_get(lv, "Property"), "Property"), 1);
    nt_assert_uint(nt_get(nt_get(lv, "Value"), "Type"), 4, 1);
    sv_value *ticks = nt_get(nt_get(nt_get(lv, "Value"), "TimeSpan"), "Ticks");
    assert_int_equal(sv_kind_of(ticks), SV_INT);
    assert_int_equal(sv_width(ticks), 8);
    assert_int_equal(sv_get_int(ticks), 20000000);
    lv = nt_get(o, "TargetProperty");
    nt_assert_ref(nt_get(nt_get(lv, "Property"), "Property"), 2);
    nt_assert_ref(nt_get(lv, "Value"), 3);
    nt_assert_uint(nt_get(o, "NumLocalExpressions"), 4, 0);
    nt_assert_uint(nt_get(o, "Flags"), 1, 0);
    /* the root is the last instance (spec §B.3, v3+) */
    assert_string_equal(nt_class(nt_at(objs, 52)), "UIResource");
    sv_doc_free(doc);
    nt_round_trip(data, len);
    free(data);
}

/* README: repeat flag on BeginGroup and the Buffer command (id 22). A 32x32
 * texture with 6 mip levels: Data = {size 6, val = 6 x {Width, Height, Data}},
 * each level half the size, 4 bytes a texel; data section 5560 bytes. */
static void test_texture(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *data = nt_sample("GLFileTexture2D.v4-meta.nsb", &len);
    sv_value root;
    sv_doc *doc = nt_decode(data, len, &root);
    sv_value *chunk = nt_at(nt_get(&root, "chunks"), 0);
    nt_assert_str(nt_get(nt_at(nt_get(chunk, "components"), 0), "class"), "GLFileTexture2D");
    nt_assert_uint(nt_get(nt_at(nt_get(chunk, "components"), 0), "version"), 4, 1);
    sv_value *o = nt_at(nt_get(chunk, "objects"), 0);
    assert_string_equal(nt_class(o), "GLFileTexture2D");
    nt_assert_uint(nt_get(o, "Width"), 4, 32);
    nt_assert_uint(nt_get(o, "Height"), 4, 32);
    nt_assert_uint(nt_get(o, "Levels"), 4, 6);
    sv_value *d = nt_get(o, "Data");
    nt_assert_uint(nt_get(d, "size"), 4, 6);
    sv_value *levels = nt_get(d, "val");
    assert_int_equal(sv_kind_of(levels), SV_ARRAY); /* BeginGroup* val, count 6 */
    assert_int_equal(sv_len(levels), 6);
    size_t texels = 0;
    for (uint32_t i = 0; i < 6; i++) {
        sv_value *lvl = nt_at(levels, i);
        nt_assert_uint(nt_get(lvl, "Width"), 4, 32u >> i);
        nt_assert_uint(nt_get(lvl, "Height"), 4, 32u >> i);
        sv_value *px = nt_get(lvl, "Data");
        assert_int_equal(sv_kind_of(px), SV_BYTES);
        assert_int_equal(sv_len(px), 4u * (32u >> i) * (32u >> i));
        texels += sv_len(px);
    }
    /* 6 u32 fields + size + 6 x (Width, Height, buffer length) + texels */
    assert_int_equal(24 + 4 + 6 * 12 + texels, 5560);
    sv_doc_free(doc);
    nt_round_trip(data, len);
    free(data);
}

static void test_contextmenu(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *data = nt_sample("ContextMenu.v4-meta.nsb", &len);
    sv_value root;
    sv_doc *doc = nt_decode(data, len, &root);
    sv_value *chunk = nt_at(nt_get(&root, "chunks"), 0);
    sv_value *comps = nt_get(chunk, "components");
    assert_int_equal(sv_len(comps), 16);
    nt_assert_str(nt_get(nt_at(comps, 0), "class"), "DependencyPropertySerializer");
    nt_assert_str(nt_get(nt_at(comps, 15), "class"), "UIResource");
    nt_assert_uint(nt_get(nt_at(comps, 15), "version"), 4, 3);
    assert_int_equal(sv_len(nt_get(chunk, "objects")), 61);
    assert_int_equal(sv_len(nt_get(nt_get(chunk, "metadata"), "commands")), 2385);
    assert_int_equal(count_class(chunk, "UIResource"), 1);
    assert_string_equal(nt_class(nt_at(nt_get(chunk, "objects"), 60)), "UIResource");
    /* The brushes: their Color local value (ref 33 names SolidColorBrush.Color)
     * holds the u32 0xFF333333, dark grey, written as a colour string. */
    sv_value *objs = nt_get(chunk, "objects");
    nt_assert_str(nt_get(nt_at(objs, 33), "Name"), "Color");
    nt_assert_str(nt_get(nt_at(objs, 33), "Owner"), "SolidColorBrush");
    sv_value *brush = nt_at(objs, 39);
    assert_string_equal(nt_class(brush), "SolidColorBrush");
    sv_value *color = nt_get(nt_get(nt_get(brush, "Color"), "Value"), "color");
    nt_assert_str(color, "#FF333333");
    assert_int_equal(sv_tag_of(color), SV_TAG_COLOR_ARGB);
    nt_assert_str(nt_get(nt_get(nt_get(nt_at(objs, 42), "Color"), "Value"), "color"), "#FF808080");
    sv_doc_free(doc);
    nt_round_trip(data, len);
    free(data);
}

/* ComboBox.xaml compiled for NoesisGUI 1.2 (v5, no metadata; spec §B.5). */
static void test_combobox_v5(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *data = nt_sample("ComboBox.v5.xaml.nsb", &len);
    sv_value root;
    sv_doc *doc = nt_decode(data, len, &root);
    nt_assert_uint(nt_get(&root, "version"), 2, 5);
    sv_value *chunk = nt_at(nt_get(&root, "chunks"), 0);
    assert_int_equal(sv_kind_of(nt_get(chunk, "metadata")), SV_NULL);
    assert_null(sv_map_getz(chunk, "objects"));
    sv_value *blob = nt_get(chunk, "data");
    assert_int_equal(sv_len(blob), 1878);
    assert_int_equal(sv_len(nt_get(chunk, "components")), 39);
    assert_int_equal(sv_len(nt_get(chunk, "instances")), 84);
    /* element counts of ComboBox.xaml */
    assert_int_equal(count_class(chunk, "ComboBox"), 2);
    assert_int_equal(count_class(chunk, "Button"), 2);
    assert_int_equal(count_class(chunk, "ComboBoxItem"), 6);
    assert_int_equal(count_class(chunk, "TextBlock"), 3);
    assert_int_equal(count_class(chunk, "Rectangle"), 2);
    assert_int_equal(count_class(chunk, "Grid"), 3);
    assert_int_equal(count_class(chunk, "StackPanel"), 2);
    assert_int_equal(count_class(chunk, "RowDefinition"), 2);
    assert_int_equal(count_class(chunk, "GroupBox"), 1);
    assert_int_equal(count_class(chunk, "DoubleAnimation"), 1);
    assert_int_equal(count_class(chunk, "UIResource"), 1);
    /* v5 lists base classes too (spec §B.3) */
    assert_int_equal(count_class(chunk, "FrameworkElement"), 0);
    sv_value *comps = nt_get(chunk, "components");
    bool has_base = false;
    for (uint32_t i = 0; i < sv_len(comps); i++)
        if (strcmp(sv_get_str(nt_get(nt_at(comps, i), "class"), NULL), "FrameworkElement") == 0)
            has_base = true;
    assert_true(has_base);
    /* the root is last */
    const uint32_t *iv = sv_numbers(nt_get(chunk, "instances"));
    nt_assert_str(nt_get(nt_at(comps, iv[83]), "class"), "UIResource");
    /* the string list also holds property names (v5 interning, spec §B.5) */
    sv_value *strings = nt_get(chunk, "strings");
    bool has_selected_index = false;
    for (uint32_t i = 0; i < sv_len(strings); i++)
        if (strcmp(sv_get_str(nt_at(strings, i), NULL), "SelectedIndex") == 0)
            has_selected_index = true;
    assert_true(has_selected_index);
    /* values of the XAML in the data (spec §B.5 encodings) */
    assert_int_equal(count_bytes(blob, "\x06\0\0\0Item 1", 10), 2);
    assert_int_equal(count_bytes(blob, "\x06\0\0\0Item 4", 10), 2);
    assert_int_equal(count_bytes(blob, "\x00\x00\xFF\xFF", 4) >= 1, 1); /* Red */
    assert_int_equal(count_bytes(blob, "\x2F\xFF\xAD\xFF", 4), 1);      /* GreenYellow */
    assert_int_equal(count_bytes(blob, "\xFF\x90\x1E\xFF", 4), 1);      /* DodgerBlue */
    /* Margin="0,4,0,0" as four f32, Duration 0:0:0.5 as type 1 + 5 000 000 ticks */
    assert_int_equal(count_bytes(blob, "\0\0\0\0\0\0\x80\x40\0\0\0\0\0\0\0\0", 16), 2);
    assert_int_equal(count_bytes(blob, "\x01\0\0\0\x40\x4B\x4C\0\0\0\0\0", 12), 1);
    sv_doc_free(doc);
    nt_round_trip(data, len);
    free(data);
}

static void test_combobox_v4(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *data = nt_sample("ComboBox.v4.xaml.nsb", &len);
    sv_value root;
    sv_doc *doc = nt_decode(data, len, &root);
    nt_assert_uint(nt_get(&root, "version"), 2, 4);
    sv_value *chunk = nt_at(nt_get(&root, "chunks"), 0);
    assert_int_equal(sv_kind_of(nt_get(chunk, "metadata")), SV_NULL);
    assert_int_equal(sv_len(nt_get(chunk, "data")), 2767);
    assert_int_equal(sv_len(nt_get(chunk, "instances")), 84);
    assert_int_equal(count_class(chunk, "ComboBox"), 2);
    assert_int_equal(count_class(chunk, "ComboBoxItem"), 6);
    assert_int_equal(count_class(chunk, "UIResource"), 1);
    /* v4 lists only the concrete classes (spec §B.3) */
    assert_int_equal(sv_len(nt_get(chunk, "components")), 27);
    sv_doc_free(doc);
    nt_round_trip(data, len);
    free(data);
}

/* The raw option keeps the data of a metadata file as bytes, and still
 * writes the same file. */
static void test_raw_option(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *data = nt_sample("ProgressBar.v4-meta.nsb", &len);
    sv_doc *doc = sv_doc_new(NULL);
    sv_noesis_opts o;
    sv_noesis_opts_init(&o);
    o.raw = true;
    sv_value root;
    sv_error err;
    sv_error_clear(&err);
    assert_int_equal(sv_noesis_decode(doc, data, len, &o, &root, &err), SV_OK);
    sv_value *chunk = nt_at(nt_get(&root, "chunks"), 0);
    assert_null(sv_map_getz(chunk, "objects"));
    assert_int_equal(sv_len(nt_get(chunk, "data")), 1700);
    sv_buf out = nt_encode(&root, NULL);
    nt_assert_same_bytes(data, len, &out);
    sv_buf_free(&out);
    sv_doc_free(doc);
    free(data);
}

/* Through the registry: detected by content and by extension. */
static void test_registry(void **state)
{
    (void)state;
    size_t len = 0;
    uint8_t *data = nt_sample("TicTacToe-App.v4-meta.nsb", &len);
    const sv_format *f = sv_format_find("noesis");
    assert_non_null(f);
    assert_ptr_equal(sv_format_detect(data, len, NULL), f);
    assert_ptr_equal(sv_format_detect(data, len, "x.bin"), f);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tictactoe),   cmocka_unit_test(test_progressbar),
        cmocka_unit_test(test_texture),     cmocka_unit_test(test_contextmenu),
        cmocka_unit_test(test_combobox_v5), cmocka_unit_test(test_combobox_v4),
        cmocka_unit_test(test_raw_option),  cmocka_unit_test(test_registry),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
