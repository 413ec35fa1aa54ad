/* The load/store context: paths, reporting and the per-class field tables.
 * docs/formats/o3de.md, "Reporting" (results and their paths)
 * and "What serval follows", Load (field lookup). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/mem.h"
#include "o3de_internal.h"

sv_status o3_opts_check(const sv_o3de_opts *opts, sv_error *err)
{
    /* A struct never given to sv_o3de_opts_init has struct_size 0: refused,
     * as every versioned options struct is. */
    if (opts && opts->struct_size < offsetof(sv_o3de_opts, keep_defaults) + sizeof(bool))
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0,
                            "sv_o3de_opts.struct_size is %u, too small; fill the struct with "
                            "sv_o3de_opts_init",
                            (unsigned)opts->struct_size);
    return SV_OK;
}

sv_status o3_ctx_init(o3_ctx *c, const sv_schema *s, sv_doc *doc, const sv_o3de_opts *opts,
                      bool storing, sv_error *err)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->doc = doc;
    c->alloc = doc ? &doc->alloc : sv_alloc_libc();
    c->storing = storing;
    c->err = err;
    c->max_depth = SV_DEFAULT_MAX_DEPTH;
    sv_status ost = o3_opts_check(opts, err);
    if (ost != SV_OK) return ost;
    /* Fields past what the caller's struct_size covers keep their defaults,
     * so a program built against an older header still works. */
    if (opts && opts->struct_size >= offsetof(sv_o3de_opts, keep_defaults) + sizeof(bool))
        c->keep_defaults = opts->keep_defaults;
    if (opts && opts->struct_size >= offsetof(sv_o3de_opts, clear_containers) + sizeof(bool))
        c->clear_containers = opts->clear_containers;
    if (opts && opts->struct_size >= offsetof(sv_o3de_opts, report_ctx) + sizeof(void *)) {
        c->report = opts->report;
        c->report_ctx = opts->report_ctx;
    }
    if (opts && opts->struct_size >= offsetof(sv_o3de_opts, max_depth) + sizeof(uint32_t) &&
        opts->max_depth)
        c->max_depth = opts->max_depth < SV_MAX_DEPTH_LIMIT ? opts->max_depth : SV_MAX_DEPTH_LIMIT;
    if (s) {
        c->nclasses = sv_schema_class_count(s);
        if (c->nclasses) {
            c->classes = sv_mem_calloc(c->alloc, c->nclasses, sizeof *c->classes);
            if (!c->classes) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
        }
    }
    return SV_OK;
}

void o3_ctx_free(o3_ctx *c)
{
    for (size_t i = 0; i < c->nclasses; i++) {
        size_t n = c->classes[i].nfields;
        sv_mem_free(c->alloc, c->classes[i].crc, n, sizeof *c->classes[i].crc);
        sv_mem_free(c->alloc, (void *)c->classes[i].seen, n, sizeof *c->classes[i].seen);
    }
    sv_mem_free(c->alloc, c->classes, c->nclasses, sizeof *c->classes);
    sv_mem_free(c->alloc, c->path, c->path_cap, 1);
    c->classes = NULL;
    c->path = NULL;
}

void o3_fail(o3_ctx *c, sv_status st, const char *msg)
{
    if (c->st != SV_OK) return;
    c->st = st;
    if (c->err) {
        sv_status ignored = sv_error_set(c->err, st, "o3de", 0, "%s", msg);
        (void)ignored;
        if (c->path && c->path_len < sizeof c->err->path) {
            memcpy(c->err->path, c->path, c->path_len);
            c->err->path[c->path_len] = 0;
        }
    }
}

static bool path_room(o3_ctx *c, size_t extra)
{
    if (c->path_len + extra + 1 <= c->path_cap) return true;
    if (!sv_mem_grow(c->alloc, (void **)&c->path, &c->path_cap, c->path_len + extra + 1, 1)) {
        o3_fail(c, SV_ERR_NOMEM, "out of memory (path)");
        return false;
    }
    return true;
}

/* Paths are only kept while a callback listens: they cost a copy per node. */
size_t o3_path_key(o3_ctx *c, const char *key, size_t len)
{
    size_t mark = c->path_len;
    if (!c->report || !path_room(c, 2 * len + 1)) return mark;
    char *p = c->path + c->path_len;
    if (c->storing) {
        if (c->path_len) *p++ = '.';
        memcpy(p, key, len);
        p += len;
    } else {
        *p++ = '/';
        for (size_t i = 0; i < len; i++) {
            if (key[i] == '~') {
                *p++ = '~';
                *p++ = '0';
            } else if (key[i] == '/') {
                *p++ = '~';
                *p++ = '1';
            } else {
                *p++ = key[i];
            }
        }
    }
    c->path_len = (size_t)(p - c->path);
    c->path[c->path_len] = 0;
    return mark;
}

size_t o3_path_index(o3_ctx *c, size_t index)
{
    if (!c->report) return c->path_len; /* paths are kept only for a listener */
    char num[24];
    int n = snprintf(num, sizeof num, "%zu", index);
    return o3_path_key(c, num, (size_t)n);
}

void o3_path_pop(o3_ctx *c, size_t mark)
{
    if (!c->report || !c->path) return;
    c->path_len = mark;
    c->path[mark] = 0;
}

o3_res o3_report(o3_ctx *c, o3_res r, const char *fmt, ...)
{
    if (!c->report) return r;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *path = c->path_len ? c->path : (c->storing ? "<root>" : "");
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
    uint32_t *crc = n ? sv_mem_calloc(c->alloc, n, sizeof *crc) : NULL;
    const char **seen = n ? sv_mem_calloc(c->alloc, n, sizeof *seen) : NULL;
    if (n && (!crc || !seen)) {
        sv_mem_free(c->alloc, crc, n, sizeof *crc);
        sv_mem_free(c->alloc, (void *)seen, n, sizeof *seen);
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

bool o3_json_is_string(const sv_value *j) { return sv_kind_of(j) == SV_STRING; }
