/* The human view of a data tree (sv_resonite_tree_print): the slot
 * hierarchy of spec resonite A.6.2 with names, and each component's type
 * resolved through the Types table (A.6.1), short form: "[FrooxEngine]
 * FrooxEngine.DynamicValueVariable<[FrooxEngine]FrooxEngine.Slot>" is
 * shown as "DynamicValueVariable<Slot>". Works on any tree (from JSON too):
 * what is missing or of the wrong kind prints as "?", nothing fails. */
#include <stdio.h>
#include <string.h>

#include "formats/resonite/resonite_internal.h"

#define TREE_MAX_DEPTH 2048u

typedef struct tp {
    sv_buf *out;
    const sv_value *types;
    size_t slots, components, assets;
} tp;

static void puts_buf(sv_buf *b, const char *s)
{
    sv_buf_append(b, s, strlen(s));
}

static void indent(sv_buf *b, unsigned depth)
{
    for (unsigned i = 0; i < depth; i++) sv_buf_append(b, "  ", 2);
}

/* A name in double quotes, with ", \ and control characters escaped. */
static void put_quoted(sv_buf *b, const char *s, size_t n)
{
    sv_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') {
            sv_buf_putc(b, '\\');
            sv_buf_putc(b, c);
        } else if (c < 0x20 || c == 0x7F) {
            char esc[8];
            snprintf(esc, sizeof esc, "\\x%02x", c);
            puts_buf(b, esc);
        } else {
            sv_buf_putc(b, c);
        }
    }
    sv_buf_putc(b, '"');
}

/* "[Asm]A.B.C<[Asm]D.E>+F" -> "C<E>+F": assembly brackets dropped, each
 * dotted name cut to its last part. */
static void put_short_type(sv_buf *b, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        char c = s[i];
        if (c == '[') {
            while (i < n && s[i] != ']') i++;
            i++;
        } else if (c == '<' || c == '>' || c == ',' || c == '+' || c == '?' || c == ' ') {
            sv_buf_putc(b, (uint8_t)c);
            i++;
        } else {
            size_t start = i, last = i;
            while (i < n && s[i] != '[' && s[i] != '<' && s[i] != '>' && s[i] != ',' &&
                   s[i] != '+' && s[i] != '?' && s[i] != ' ') {
                if (s[i] == '.') last = i + 1;
                i++;
            }
            sv_buf_append(b, s + last, i - last);
            (void)start;
        }
    }
}

/* {ID, Data: x} -> x (spec A.6.2 fields), else NULL. */
static const sv_value *field_data(const sv_value *slot, const char *name)
{
    return sv_map_getz(sv_map_getz(slot, name), "Data");
}

static void put_type(tp *t, const sv_value *type)
{
    sv_kind k = sv_kind_of(type);
    if (k == SV_INT || k == SV_UINT) {
        int64_t i = sv_get_int(type);
        const sv_value *name = i >= 0 ? sv_array_at(t->types, (size_t)i) : NULL;
        if (sv_kind_of(name) == SV_STRING) {
            size_t n;
            const char *s = sv_get_str(name, &n);
            put_short_type(t->out, s, n);
            return;
        }
        char num[40];
        snprintf(num, sizeof num, "<type #%lld?>", (long long)i);
        puts_buf(t->out, num);
        return;
    }
    puts_buf(t->out, "<type ?>");
}

static void print_components(tp *t, const sv_value *list, unsigned depth, const char *what)
{
    size_t n = sv_len(list);
    for (size_t i = 0; i < n && sv_kind_of(list) == SV_ARRAY; i++) {
        const sv_value *c = sv_array_at(list, i);
        indent(t->out, depth);
        puts_buf(t->out, what);
        put_type(t, sv_map_getz(c, "Type"));
        const sv_value *en = field_data(sv_map_getz(c, "Data"), "Enabled");
        if (sv_kind_of(en) == SV_BOOL && !sv_get_bool(en)) puts_buf(t->out, " (disabled)");
        sv_buf_putc(t->out, '\n');
        if (what[0] == 'a')
            t->assets++;
        else
            t->components++;
    }
}

static void print_slot(tp *t, const sv_value *slot, unsigned depth)
{
    t->slots++;
    indent(t->out, depth);
    puts_buf(t->out, "slot ");
    const sv_value *name = field_data(slot, "Name");
    if (sv_kind_of(name) == SV_STRING) {
        size_t n;
        const char *s = sv_get_str(name, &n);
        put_quoted(t->out, s, n);
    } else {
        puts_buf(t->out, "(no name)");
    }
    const sv_value *active = field_data(slot, "Active");
    if (sv_kind_of(active) == SV_BOOL && !sv_get_bool(active)) puts_buf(t->out, " (inactive)");
    const sv_value *tag = field_data(slot, "Tag");
    if (sv_kind_of(tag) == SV_STRING && sv_len(tag)) {
        size_t n;
        const char *s = sv_get_str(tag, &n);
        puts_buf(t->out, " tag ");
        put_quoted(t->out, s, n);
    }
    sv_buf_putc(t->out, '\n');
    if (depth >= TREE_MAX_DEPTH) {
        indent(t->out, depth + 1);
        puts_buf(t->out, "...\n");
        return;
    }
    print_components(t, field_data(slot, "Components"), depth + 1, "component ");
    const sv_value *kids = sv_map_getz(slot, "Children");
    for (size_t i = 0; sv_kind_of(kids) == SV_ARRAY && i < sv_len(kids); i++)
        print_slot(t, sv_array_at(kids, i), depth + 1);
}

sv_status sv_resonite_tree_print(const sv_value *root, sv_buf *out, sv_error *err)
{
    sv_kind k = sv_kind_of(root);
    if (k != SV_MAP && k != SV_OBJECT)
        return sv_error_set(err, SV_ERR_TYPE, RESONITE_FORMAT, 0,
                            "not a data tree (the root is a %s)", sv_kind_name(k));
    tp t = {out, sv_map_getz(root, "Types"), 0, 0, 0};
    const sv_value *ver = sv_map_getz(root, "VersionNumber");
    puts_buf(out, "version ");
    if (sv_kind_of(ver) == SV_STRING)
        puts_buf(out, sv_get_str(ver, NULL));
    else
        puts_buf(out, "?");
    const sv_value *meta = sv_meta(root);
    if (meta) {
        puts_buf(out, ", ");
        puts_buf(out, sv_get_str(sv_map_getz(meta, "compression"), NULL));
        puts_buf(out, strcmp(sv_get_str(sv_map_getz(meta, "framing"), NULL), "legacy") == 0
                          ? " without header"
                          : " with FrDT header");
    }
    char line[96];
    snprintf(line, sizeof line, ", %u types\n", (unsigned)sv_len(t.types));
    puts_buf(out, line);
    const sv_value *obj = sv_map_getz(root, "Object");
    if (sv_kind_of(obj) == SV_MAP)
        print_slot(&t, obj, 0);
    else
        puts_buf(out, "(no Object slot)\n");
    const sv_value *assets = sv_map_getz(root, "Assets");
    if (sv_kind_of(assets) == SV_ARRAY) {
        snprintf(line, sizeof line, "assets (%u)\n", (unsigned)sv_len(assets));
        puts_buf(out, line);
        print_components(&t, assets, 1, "asset ");
    }
    snprintf(line, sizeof line, "%zu slots, %zu components, %zu assets\n", t.slots, t.components,
             t.assets);
    puts_buf(out, line);
    if (!sv_buf_ok(out))
        return sv_error_set(err, SV_ERR_NOMEM, RESONITE_FORMAT, 0, "out of memory");
    return SV_OK;
}
