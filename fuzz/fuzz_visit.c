/* Fuzz target for the streaming decoders (sv_visit_decode, serval/visit.h)
 * of godot4, godot3 and bson, against their tree decoders.
 *
 * Each input goes to every one of the three formats. The visitor builds a
 * tree from the events, declining a Dictionary key that is not a string or
 * that repeats, as the Python module's visitor does. Properties checked: no
 * crash, no leak; when the streaming decoder takes the input, the format's
 * tree decode (the registry's, as `serval dump` reads) takes it too and
 * gives a tree equal to the one the events built (sv_equal: kinds, widths,
 * flags, tags, meta, order, contents). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serval/registry.h"
#include "serval/value.h"
#include "serval/visit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

#define MAX_FRAMES (SV_MAX_DEPTH_LIMIT + 2)

typedef struct builder {
    sv_doc *doc;
    sv_value stack[MAX_FRAMES];
    sv_value keys[MAX_FRAMES]; /* a Dictionary's pending key */
    bool has_key[MAX_FRAMES];
    unsigned depth;
    sv_value root;
    bool have_root;
} builder;

static void check(int ok, const char *format, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz-visit %s: %s\n", format, what);
        abort();
    }
}

static int place(builder *b, sv_value v)
{
    if (!b->depth) {
        b->root = v;
        b->have_root = true;
        return 0;
    }
    unsigned top = b->depth - 1;
    sv_value *c = &b->stack[top];
    if (c->kind == SV_ARRAY) return sv_array_append(b->doc, c, v) == SV_OK ? 0 : -1;
    if (!b->has_key[top]) return -1;
    b->has_key[top] = false;
    return sv_map_append(b->doc, c, b->keys[top], v) == SV_OK ? 0 : -1;
}

static int begin(builder *b, sv_value c)
{
    if (b->depth == MAX_FRAMES || (c.kind != SV_ARRAY && c.kind != SV_MAP)) return -1;
    b->has_key[b->depth] = false;
    b->stack[b->depth++] = c;
    return 0;
}

static int on_array(void *ctx, uint32_t count)
{
    (void)count;
    builder *b = ctx;
    return begin(b, sv_array(b->doc, 0));
}

static int on_map(void *ctx, uint32_t count)
{
    (void)count;
    builder *b = ctx;
    return begin(b, sv_map(b->doc, 0));
}

static int on_value(void *ctx, const sv_value *v, bool key)
{
    builder *b = ctx;
    sv_value copy = sv_copy(b->doc, v); /* the event's value lives for the call only */
    if (!key) return place(b, copy);
    if (!b->depth) return -1;
    unsigned top = b->depth - 1;
    if (b->stack[top].kind != SV_MAP || b->has_key[top] || v->kind != SV_STRING || v->tag ||
        (v->flags & SV_F_UTF16))
        return -1;
    if (sv_map_get(&b->stack[top], sv_get_str(&copy, NULL), copy.len)) return -1; /* repeats */
    b->keys[top] = copy;
    b->has_key[top] = true;
    return 0;
}

static int on_end(void *ctx)
{
    builder *b = ctx;
    if (!b->depth) return -1;
    sv_value c = b->stack[--b->depth];
    return place(b, c);
}

static void one(const char *name, const uint8_t *data, size_t len)
{
    const sv_format *f = sv_format_find(name);
    if (!f) return;
    sv_options o;
    sv_options_init(&o);
    o.limits.max_alloc = UINT64_C(64) << 20;
    builder *b = calloc(1, sizeof *b);
    check(b != NULL, name, "out of memory");
    b->doc = sv_doc_new(NULL);
    check(b->doc != NULL, name, "out of memory");
    sv_visitor vis = {b, on_array, on_map, on_value, on_end};
    if (sv_visit_decode(f, data, len, &o, &vis) == SV_OK) {
        check(b->have_root && !b->depth, name, "the events do not close");
        sv_doc *tree_doc = sv_doc_new(NULL);
        check(tree_doc != NULL, name, "out of memory");
        sv_value tree;
        sv_error err;
        sv_error_clear(&err);
        check(f->decode(tree_doc, data, len, &o, &tree, &err) == SV_OK, name,
              "streamed an input the tree decoder refuses");
        check(sv_equal(&tree, &b->root), name, "the events describe another tree");
        sv_doc_free(tree_doc);
    }
    sv_doc_free(b->doc);
    free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    one("godot4", data, len);
    one("godot3", data, len);
    one("bson", data, len);
    return 0;
}
