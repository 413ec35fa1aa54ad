/* The load/store context: paths, reporting and the per-class field tables.
 * docs/formats/o3de.md, "Reporting" (results and their paths)
 * and "What serval follows", Load (field lookup). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/mem.h"
#include "core/walk.h"
#include "o3de_internal.h"

sv_status o3_ctx_init(o3_ctx *c, const sv_schema *s, sv_doc *doc, const sv_o3de_opts *opts,
                      bool storing, sv_error *err)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->doc = doc;
    c->alloc = doc ? &doc->alloc : sv_alloc_libc();
    sv__core_path_init(&c->path, c->alloc);
    sv_buf_init(&c->dotted, c->alloc);
    c->storing = storing;
    c->err = err;
    sv_o3de_opts o;
    sv_status ost = o3_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    c->keep_defaults = o.keep_defaults;
    c->clear_containers = o.clear_containers;
    c->report = o.report;
    c->report_ctx = o.report_ctx;
    c->max_depth = o3_opts_max_depth(&o);
    if (s) {
        c->nclasses = sv_schema_class_count(s);
        if (c->nclasses) {
            c->classes = sv__core_mem_calloc(c->alloc, c->nclasses, sizeof *c->classes);
            if (!c->classes) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
        }
    }
    return SV_OK;
}

void o3_ctx_free(o3_ctx *c)
{
    for (size_t i = 0; i < c->nclasses; i++) {
        size_t n = c->classes[i].nfields;
        sv__core_mem_free(c->alloc, c->classes[i].crc, n, sizeof *c->classes[i].crc);
        sv__core_mem_free(c->alloc, (void *)c->classes[i].seen, n, sizeof *c->classes[i].seen);
    }
    sv__core_mem_free(c->alloc, c->classes, c->nclasses, sizeof *c->classes);
    sv__core_path_free(&c->path);
    sv_buf_free(&c->dotted);
    c->classes = NULL;
}

/* The current path: a JSON Pointer when loading, "a.b.0" (O3DE's
 * context path) when storing; NULL when out of memory. */
static const char *path_text(o3_ctx *c)
{
    if (!c->storing) return sv__core_path_render(&c->path);
    sv_buf *b = &c->dotted;
    b->len = 0;
    for (size_t i = 0; i < c->path.depth; i++) {
        const sv_path_seg *seg = &c->path.seg[i];
        if (i) sv_buf_putc(b, '.');
        if (seg->key) {
            sv_buf_append(b, seg->key, seg->len);
        } else {
            char num[24];
            int n = snprintf(num, sizeof num, "%llu", (unsigned long long)seg->index);
            sv_buf_append(b, num, (size_t)n);
        }
    }
    sv_buf_putc(b, 0);
    if (!sv_buf_ok(b)) {
        b->failed = false;
        return NULL;
    }
    return (const char *)b->data;
}

void o3_fail(o3_ctx *c, sv_status st, const char *msg)
{
    if (c->st != SV_OK) return;
    c->st = st;
    if (c->err) {
        sv_status ignored = sv_error_set(c->err, st, "o3de", 0, "%s", msg);
        (void)ignored;
        const char *path = c->report && c->path.depth ? path_text(c) : NULL;
        size_t len = path ? strlen(path) : 0;
        if (path && len < sizeof c->err->path) memcpy(c->err->path, path, len + 1);
    }
}

/* Paths are only kept while a callback listens: most loads never print one. */
size_t o3_path_key(o3_ctx *c, const char *key, size_t len)
{
    size_t mark = c->path.depth;
    if (c->report && !sv__core_path_push_key(&c->path, key, len))
        o3_fail(c, SV_ERR_NOMEM, "out of memory (path)");
    return mark;
}

size_t o3_path_index(o3_ctx *c, size_t index)
{
    size_t mark = c->path.depth;
    if (c->report && !sv__core_path_push_index(&c->path, index))
        o3_fail(c, SV_ERR_NOMEM, "out of memory (path)");
    return mark;
}

void o3_path_pop(o3_ctx *c, size_t mark)
{
    while (c->path.depth > mark) sv__core_path_pop(&c->path);
}

o3_res o3_report(o3_ctx *c, o3_res r, const char *fmt, ...)
{
    if (!c->report) return r;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *path = c->path.depth ? path_text(c) : (c->storing ? "<root>" : "");
    if (!path) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory (path)");
        return r;
    }
    return c->report(c->report_ctx, msg, r, path);
}

/* zlib's CRC-32 over the lower-cased ASCII bytes, as AZ::Crc32(string_view)
 * hashes names (o3de.md, "What serval follows", Load). */
static uint32_t crc_table[256];
static bool crc_ready;

static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t v = i;
        for (int k = 0; k < 8; k++) v = (v & 1) ? 0xEDB88320u ^ (v >> 1) : v >> 1;
        crc_table[i] = v;
    }
    crc_ready = true;
}

uint32_t o3_crc32_lower(const char *s, size_t n)
{
    if (!crc_ready) crc_init();
    uint32_t crc = 0xffffffffu;
    for (size_t i = 0; i < n; i++) {
        uint8_t b = (uint8_t)s[i];
        if (b >= 'A' && b <= 'Z') b = (uint8_t)(b + 32);
        crc = crc_table[(crc ^ b) & 0xff] ^ (crc >> 8);
    }
    return crc ^ 0xffffffffu;
}

const o3_class_info *o3_class(o3_ctx *c, const sv_schema_class *cls)
{
    static const o3_class_info empty = {true, NULL, 0, NULL, NULL};
    if (!cls || cls->index >= c->nclasses) return &empty;
    o3_class_info *ci = &c->classes[cls->index];
    if (ci->ready) return ci;
    size_t n = 0;
    const sv_schema_field *const *f = sv_schema_class_fields(cls, &n);
    uint32_t *crc = n ? sv__core_mem_calloc(c->alloc, n, sizeof *crc) : NULL;
    const char **seen = n ? sv__core_mem_calloc(c->alloc, n, sizeof *seen) : NULL;
    if (n && (!crc || !seen)) {
        sv__core_mem_free(c->alloc, crc, n, sizeof *crc);
        sv__core_mem_free(c->alloc, (void *)seen, n, sizeof *seen);
        o3_fail(c, SV_ERR_NOMEM, "out of memory (field table)");
        return &empty;
    }
    for (size_t i = 0; i < n; i++) crc[i] = o3_crc32_lower(f[i]->name, strlen(f[i]->name));
    ci->fields = f;
    ci->nfields = n;
    ci->crc = crc;
    ci->seen = seen;
    ci->ready = true;
    return ci;
}

sv_value o3_empty_object(o3_ctx *c)
{
    sv_value v = sv_map(c->doc, 0);
    if (v.kind != SV_MAP) o3_fail(c, SV_ERR_NOMEM, "out of memory");
    return v;
}

bool o3_json_is_number(const sv_value *j)
{
    sv_kind k = sv_kind_of(j);
    return k == SV_INT || k == SV_UINT || k == SV_FLOAT;
}

bool o3_json_is_string(const sv_value *j)
{
    return sv_kind_of(j) == SV_STRING;
}
