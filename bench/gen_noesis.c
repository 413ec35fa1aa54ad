/* serval-bench: the generated NSDH file with metadata (workloads_noesis.c).
 *
 * One chunk, version 4, little-endian, 8-bit, as the 303 real files with
 * metadata are (spec §B.4). The instances copy the shapes of the samples'
 * classes: DoubleAnimation as in ProgressBar.v4-meta.nsb (LocalValue groups,
 * a nullable Float32, a TimeSpan of Int64 ticks), SolidColorBrush (a
 * fixed-length PropValue array of Float32* 4), TextBlock (a String8, a
 * Margin of Float32* 4, a Ref), ItemCollection (an array of Ref* and a
 * dictionary of BeginGroup* item {String8 key, Ref val}) and, every 256
 * instances, a GLFileTexture2D with a mip chain of Buffers under a repeated
 * group, as in GLFileTexture2D.v4-meta.nsb. The root, last, is a UIResource.
 * Refs point at earlier instances. Deterministic: one splitmix64 stream. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <serval/buf.h>

#include "harness.h"

bool bench_gen_noesis(size_t target_bytes, uint8_t **data, size_t *len, size_t *instances,
                      char *msg, size_t msg_size);

enum { C_DOUBLE_ANIMATION, C_BRUSH, C_TEXT, C_ITEMS, C_TEXTURE, C_ROOT, C_COUNT };
static const char *const classes[C_COUNT] = {"DoubleAnimation", "SolidColorBrush", "TextBlock",
                                             "ItemCollection",  "GLFileTexture2D", "UIResource"};
static const uint32_t class_versions[C_COUNT] = {2, 2, 1, 0, 1, 3};

enum {
    N_VERSION,
    N_NUM_LOCAL_VALUES,
    N_LOCAL_VALUE,
    N_PROPERTY,
    N_VALUE,
    N_HAS_VALUE,
    N_TYPE,
    N_TIMESPAN,
    N_TICKS,
    N_NUM_LOCAL_EXPR,
    N_FLAGS,
    N_PROP_VALUE,
    N_VAL,
    N_TEXT,
    N_FONT_SIZE,
    N_MARGIN,
    N_FOREGROUND,
    N_ITEMS,
    N_SIZE,
    N_RESOURCES,
    N_ITEM,
    N_KEY,
    N_WIDTH,
    N_HEIGHT,
    N_DATA,
    N_ROOT,
    N_DEPENDENCIES,
    N_CODE_BEHIND,
    N_COUNT
};
static const char *const names[N_COUNT] = {"*version",     "NumLocalValues",
                                           "LocalValue",   "Property",
                                           "Value",        "HasValue",
                                           "Type",         "TimeSpan",
                                           "Ticks",        "NumLocalExpressions",
                                           "Flags",        "PropValue",
                                           "val",          "Text",
                                           "FontSize",     "Margin",
                                           "Foreground",   "Items",
                                           "size",         "Resources",
                                           "item",         "key",
                                           "Width",        "Height",
                                           "Data",         "Root",
                                           "Dependencies", "CodeBehind"};

/* Little-endian appends (the library's byte writers are internal). */
static void put_u8(sv_buf *b, uint8_t v)
{
    sv_buf_putc(b, v);
}
static void put_u32le(sv_buf *b, uint32_t v)
{
    uint8_t x[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    sv_buf_append(b, x, 4);
}
static void put_u64le(sv_buf *b, uint64_t v)
{
    put_u32le(b, (uint32_t)v);
    put_u32le(b, (uint32_t)(v >> 32));
}
static void put_f32le(sv_buf *b, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put_u32le(b, u);
}

typedef struct gen {
    sv_buf cmds, data;
    uint32_t offsets[N_COUNT];
    uint64_t rng;
} gen;

static uint64_t next(gen *g)
{
    uint64_t z = (g->rng += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static void op(gen *g, uint8_t id)
{
    put_u8(&g->cmds, id);
}
static void cmd(gen *g, uint8_t id, int name)
{
    put_u8(&g->cmds, id);
    put_u32le(&g->cmds, g->offsets[name]);
}
static void rep(gen *g, uint8_t id, uint32_t count, int name)
{
    put_u8(&g->cmds, (uint8_t)(id | 0x80));
    put_u32le(&g->cmds, count);
    put_u32le(&g->cmds, g->offsets[name]);
}
static void d32(gen *g, uint32_t v)
{
    put_u32le(&g->data, v);
}
static void df(gen *g, float f)
{
    put_f32le(&g->data, f);
}
static uint32_t ref_before(gen *g, uint32_t i)
{
    return i ? (uint32_t)(next(g) % i) : 0xFFFFFFFFu;
}
static float small_float(gen *g)
{
    return (float)(next(g) % 2048) * 0.25f;
}

/* DependencyObject header: LocalValue groups follow. */
static void local_value_property(gen *g, uint32_t i)
{
    cmd(g, 2, N_LOCAL_VALUE);
    cmd(g, 2, N_PROPERTY);
    cmd(g, 6, N_PROPERTY);
    d32(g, ref_before(g, i));
    op(g, 3);
}

static void double_animation(gen *g, uint32_t i)
{
    cmd(g, 13, N_VERSION), d32(g, 3);
    cmd(g, 13, N_NUM_LOCAL_VALUES), d32(g, 2);
    local_value_property(g, i); /* To: a nullable float */
    cmd(g, 2, N_VALUE);
    cmd(g, 15, N_HAS_VALUE), put_u8(&g->data, 1);
    cmd(g, 16, N_VALUE), df(g, small_float(g));
    op(g, 3), op(g, 3);
    local_value_property(g, i); /* Duration: a TimeSpan */
    cmd(g, 2, N_VALUE);
    cmd(g, 13, N_TYPE), d32(g, 1);
    cmd(g, 2, N_TIMESPAN);
    cmd(g, 10, N_TICKS), put_u64le(&g->data, (next(g) % 100) * 1000000u);
    op(g, 3), op(g, 3), op(g, 3);
    cmd(g, 13, N_NUM_LOCAL_EXPR), d32(g, 0);
    cmd(g, 11, N_FLAGS), put_u8(&g->data, 0);
}

static void brush(gen *g, uint32_t i)
{
    cmd(g, 13, N_VERSION), d32(g, 2);
    cmd(g, 13, N_NUM_LOCAL_VALUES), d32(g, 1);
    local_value_property(g, i);
    cmd(g, 4, N_PROP_VALUE); /* fixed length: no "size" (spec §B.4) */
    rep(g, 16, 4, N_VAL);
    for (int k = 0; k < 4; k++)
        df(g, (float)(next(g) % 256) / 255.0f);
    op(g, 5), op(g, 3);
    cmd(g, 13, N_NUM_LOCAL_EXPR), d32(g, 0);
    cmd(g, 11, N_FLAGS), put_u8(&g->data, 0);
}

static void text_block(gen *g, uint32_t i)
{
    static const char *const words[] = {"Item 1",           "Non editable:", "Editable:",
                                        "SelectionChanged", "Progress",      "Context menu entry"};
    const char *w = words[next(g) % 6];
    cmd(g, 13, N_VERSION), d32(g, 1);
    cmd(g, 20, N_TEXT), d32(g, (uint32_t)strlen(w)), sv_buf_append(&g->data, w, strlen(w));
    cmd(g, 16, N_FONT_SIZE), df(g, 10.0f + (float)(next(g) % 8));
    cmd(g, 4, N_MARGIN), rep(g, 16, 4, N_VAL);
    for (int k = 0; k < 4; k++)
        df(g, (float)(next(g) % 4) * 4.0f);
    op(g, 5);
    cmd(g, 6, N_FOREGROUND), d32(g, ref_before(g, i));
}

static void item_collection(gen *g, uint32_t i)
{
    uint32_t n = 2 + (uint32_t)(next(g) % 10), k = 1 + (uint32_t)(next(g) % 3);
    cmd(g, 13, N_VERSION), d32(g, 0);
    cmd(g, 4, N_ITEMS), cmd(g, 13, N_SIZE), d32(g, n), rep(g, 6, n, N_VAL);
    for (uint32_t j = 0; j < n; j++)
        d32(g, ref_before(g, i));
    op(g, 5);
    cmd(g, 4, N_RESOURCES), cmd(g, 13, N_SIZE), d32(g, k);
    rep(g, 2, k, N_ITEM), cmd(g, 20, N_KEY), cmd(g, 6, N_VAL), op(g, 3);
    for (uint32_t j = 0; j < k; j++) {
        char key[32];
        int len = snprintf(key, sizeof key, "Key%u", (unsigned)(next(g) % 1000));
        d32(g, (uint32_t)len), sv_buf_append(&g->data, key, (size_t)len);
        d32(g, ref_before(g, i));
    }
    op(g, 5);
}

static void texture(gen *g)
{
    cmd(g, 13, N_VERSION), d32(g, 2);
    cmd(g, 13, N_WIDTH), d32(g, 32), cmd(g, 13, N_HEIGHT), d32(g, 32);
    cmd(g, 4, N_DATA), cmd(g, 13, N_SIZE), d32(g, 6);
    rep(g, 2, 6, N_VAL), cmd(g, 13, N_WIDTH), cmd(g, 13, N_HEIGHT), cmd(g, 22, N_DATA), op(g, 3);
    for (uint32_t l = 0; l < 6; l++) {
        uint32_t side = 32u >> l, bytes = 4 * side * side;
        d32(g, side), d32(g, side), d32(g, bytes);
        for (uint32_t b = 0; b < bytes; b += 8) {
            uint64_t x = next(g);
            sv_buf_append(&g->data, &x, bytes - b < 8 ? bytes - b : 8);
        }
    }
    op(g, 5);
}

static void put_block(sv_buf *out, const void *p, size_t n)
{
    put_u64le(out, n);
    sv_buf_append(out, p, n);
}

bool bench_gen_noesis(size_t target_bytes, uint8_t **data, size_t *len, size_t *instances,
                      char *msg, size_t msg_size)
{
    gen g;
    memset(&g, 0, sizeof g);
    g.rng = UINT64_C(0x6E6F657369733031); /* "noesis01" */
    sv_buf_init(&g.cmds, NULL);
    sv_buf_init(&g.data, NULL);
    sv_buf strings, md_strings, inst, out;
    sv_buf_init(&strings, NULL);
    sv_buf_init(&md_strings, NULL);
    sv_buf_init(&inst, NULL);
    sv_buf_init(&out, NULL);
    uint32_t class_offsets[C_COUNT];
    for (int c = 0; c < C_COUNT; c++) {
        class_offsets[c] = (uint32_t)strings.len;
        sv_buf_append(&strings, classes[c], strlen(classes[c]) + 1);
    }
    for (int n = 0; n < N_COUNT; n++) {
        g.offsets[n] = (uint32_t)md_strings.len;
        sv_buf_append(&md_strings, names[n], strlen(names[n]) + 1);
    }
    uint32_t i = 0;
    while (g.cmds.len + g.data.len + inst.len < target_bytes) {
        int c = i % 256 == 255 ? C_TEXTURE : (int)(next(&g) % 4);
        op(&g, 0);
        switch (c) {
        case C_DOUBLE_ANIMATION: double_animation(&g, i); break;
        case C_BRUSH: brush(&g, i); break;
        case C_TEXT: text_block(&g, i); break;
        case C_ITEMS: item_collection(&g, i); break;
        default: texture(&g); break;
        }
        op(&g, 1);
        put_u32le(&inst, (uint32_t)c);
        i++;
    }
    /* the root, last (spec §B.3) */
    op(&g, 0);
    cmd(&g, 13, N_VERSION), d32(&g, 0);
    cmd(&g, 6, N_ROOT), d32(&g, i ? i - 1 : 0xFFFFFFFFu);
    cmd(&g, 4, N_DEPENDENCIES), cmd(&g, 13, N_SIZE), d32(&g, 0), op(&g, 5);
    cmd(&g, 4, N_CODE_BEHIND), cmd(&g, 13, N_SIZE), d32(&g, 0), op(&g, 5);
    op(&g, 1);
    put_u32le(&inst, C_ROOT);
    i++;

    sv_buf chunk;
    sv_buf_init(&chunk, NULL);
    put_block(&chunk, strings.data, strings.len);
    put_u64le(&chunk, 8u * C_COUNT);
    for (int c = 0; c < C_COUNT; c++)
        put_u32le(&chunk, class_offsets[c]), put_u32le(&chunk, class_versions[c]);
    put_u64le(&chunk, 16 + md_strings.len + g.cmds.len);
    put_block(&chunk, md_strings.data, md_strings.len);
    put_block(&chunk, g.cmds.data, g.cmds.len);
    put_block(&chunk, inst.data, inst.len);
    put_block(&chunk, g.data.data, g.data.len);
    sv_buf_append(&out, "HDSN\x04\x00\x00\x00\x01\x00\x00\x00", 12);
    put_block(&out, chunk.data, chunk.len);
    bool ok = sv_buf_ok(&out) && sv_buf_ok(&chunk) && sv_buf_ok(&g.cmds) && sv_buf_ok(&g.data);
    sv_buf_free(&chunk);
    sv_buf_free(&g.cmds);
    sv_buf_free(&g.data);
    sv_buf_free(&strings);
    sv_buf_free(&md_strings);
    sv_buf_free(&inst);
    if (!ok) {
        sv_buf_free(&out);
        snprintf(msg, msg_size, "out of memory generating the NSDH file");
        return false;
    }
    *len = out.len;
    *data = out.data; /* the caller frees with free() (libc allocator) */
    *instances = i;
    return true;
}
