/* Paths, reporting, JSON Pointers and value equality for the patch code.
 * docs/formats/o3de.md, "JSON Patch and JSON Merge Patch"; the pointer rules are rapidjson::Pointer's (1.1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/doc_internal.h"
#include "core/mem.h"
#include "core/walk.h"
#include "o3de_patch_util.h"

void o3p_init(o3p_ctx *p, sv_doc *doc, const sv_o3de_opts *opts)
{
    memset(p, 0, sizeof *p);
    p->doc = doc;
    if (opts) {
        p->report = opts->report;
        p->report_ctx = opts->report_ctx;
    }
    sv_buf_init(&p->path, &doc->alloc);
    sv_buf_putc(&p->path, 0);
    p->path.len = 0;
}

void o3p_free(o3p_ctx *p)
{
    sv_buf_free(&p->path);
}

size_t o3p_push_key(o3p_ctx *p, const char *key, size_t len)
{
    size_t mark = p->path.len;
    sv__core_pointer_append(&p->path, key, len);
    sv_buf_putc(&p->path, 0);
    p->path.len--;
    return mark;
}

size_t o3p_push_index(o3p_ctx *p, size_t i)
{
    char num[24];
    int n = snprintf(num, sizeof num, "%zu", i);
    return o3p_push_key(p, num, (size_t)n);
}

void o3p_pop(o3p_ctx *p, size_t mark)
{
    if (!sv_buf_ok(&p->path)) return;
    p->path.len = mark;
    p->path.data[mark] = 0;
}

const char *o3p_path(const o3p_ctx *p)
{
    return sv_buf_ok(&p->path) && p->path.data ? (const char *)p->path.data : "";
}

o3_res o3p_report(o3p_ctx *p, o3_res r, const char *path, const char *msg)
{
    if (!p->report) return r;
    return p->report(p->report_ctx, msg, r, path ? path : o3p_path(p));
}

/* ---- JSON Pointer ---- */

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool o3p_pointer_parse(o3p_pointer *ptr, const char *s, size_t len, const sv_alloc *alloc)
{
    memset(ptr, 0, sizeof *ptr);
    ptr->len = len;
    ptr->alloc = alloc;
    ptr->buf = sv__core_mem_calloc(alloc, len + 1, 1);
    ptr->tok = sv__core_mem_calloc(alloc, len + 1, sizeof *ptr->tok);
    if (!ptr->buf || !ptr->tok) {
        o3p_pointer_free(ptr);
        return false;
    }
    ptr->valid = true;
    size_t i = 0;
    /* "#/a%20b": the URI fragment form, percent-decoded (RFC 6901 §6) */
    bool uri = len > 0 && s[0] == '#';
    if (uri) i = 1;
    if (i == len) return true; /* "" or "#": the root */
    if (s[i] != '/') {
        ptr->valid = false;
        return true;
    }
    char *out = ptr->buf;
    while (i < len) {
        i++; /* the '/' */
        o3p_token *t = &ptr->tok[ptr->n++];
        t->name = out;
        bool digits = true;
        while (i < len && s[i] != '/') {
            char c = s[i];
            if (uri && c == '%') {
                int h = i + 2 < len ? hex_digit(s[i + 1]) : -1;
                int l = i + 2 < len ? hex_digit(s[i + 2]) : -1;
                if (h < 0 || l < 0) {
                    ptr->valid = false;
                    return true;
                }
                c = (char)(h * 16 + l);
                i += 2;
            }
            if (c == '~') {
                char e = i + 1 < len ? s[i + 1] : 0;
                if (e == '0') {
                    c = '~';
                } else if (e == '1') {
                    c = '/';
                } else {
                    ptr->valid = false;
                    return true;
                }
                i++;
            }
            if (c < '0' || c > '9') digits = false;
            *out++ = c;
            i++;
        }
        t->len = (size_t)(out - t->name);
        *out++ = 0;
        /* rapidjson's index: digits only, no leading zero, below 2^32 - 1 */
        t->index = O3P_NO_INDEX;
        if (digits && t->len > 0 && !(t->len > 1 && t->name[0] == '0')) {
            uint64_t n = 0;
            size_t k = 0;
            for (; k < t->len && n < O3P_NO_INDEX; k++) n = n * 10 + (uint64_t)(t->name[k] - '0');
            if (k == t->len && n < O3P_NO_INDEX) t->index = (uint32_t)n;
        }
    }
    return true;
}

void o3p_pointer_free(o3p_pointer *ptr)
{
    sv__core_mem_free(ptr->alloc, ptr->buf, ptr->len + 1, 1);
    sv__core_mem_free(ptr->alloc, ptr->tok, ptr->len + 1, sizeof *ptr->tok);
    ptr->buf = NULL;
    ptr->tok = NULL;
}

sv_value *o3p_get(sv_value *root, const o3p_pointer *ptr, size_t n)
{
    sv_value *v = root;
    for (size_t i = 0; i < n && v; i++) {
        const o3p_token *t = &ptr->tok[i];
        if (sv_kind_of(v) == SV_MAP) {
            v = sv_map_get(v, t->name, t->len);
        } else if (sv_kind_of(v) == SV_ARRAY) {
            v = t->index != O3P_NO_INDEX && t->index < v->len ? sv_array_at(v, t->index) : NULL;
        } else {
            v = NULL;
        }
    }
    return v;
}

/* ---- rapidjson's operator== ---- */

static int rj_type(const sv_value *v)
{
    switch (sv_kind_of(v)) {
    case SV_BOOL: return sv_get_bool(v) ? 2 : 1;
    case SV_MAP: return 3;
    case SV_ARRAY: return 4;
    case SV_STRING: return 5;
    case SV_INT:
    case SV_UINT:
    case SV_FLOAT: return 6;
    default: return 0;
    }
}

bool o3p_rj_equal(const sv_value *a, const sv_value *b, unsigned depth)
{
    int t = rj_type(a);
    if (t != rj_type(b)) return false;
    if (depth > SV_DEFAULT_MAX_DEPTH) return false;
    switch (t) {
    case 3: {
        if (a->len != b->len) return false;
        for (uint32_t i = 0; i < a->len; i++) {
            size_t kn;
            const char *k = sv_get_str(sv_key_at(a, i), &kn);
            const sv_value *m = sv_map_get(b, k, kn);
            if (!m || !o3p_rj_equal(sv_val_at(a, i), m, depth + 1)) return false;
        }
        return true;
    }
    case 4:
        if (a->len != b->len) return false;
        for (uint32_t i = 0; i < a->len; i++)
            if (!o3p_rj_equal(sv_array_at(a, i), sv_array_at(b, i), depth + 1)) return false;
        return true;
    case 5: {
        size_t na, nb;
        const char *sa = sv_get_str(a, &na), *sb = sv_get_str(b, &nb);
        return na == nb && memcmp(sa, sb, na) == 0;
    }
    case 6:
        if (sv_kind_of(a) == SV_FLOAT || sv_kind_of(b) == SV_FLOAT) {
            double x = sv_get_f64(a), y = sv_get_f64(b);
            return x >= y && x <= y;
        }
        /* integers: rapidjson compares the 64 stored bits, which for the
         * same JSON number are the same whichever of INT/UINT holds it */
        if (sv_kind_of(a) == sv_kind_of(b)) return a->as.u == b->as.u;
        {
            const sv_value *s = sv_kind_of(a) == SV_INT ? a : b, *u = s == a ? b : a;
            return s->as.i >= 0 && (uint64_t)s->as.i == u->as.u;
        }
    default: return true;
    }
}
