/* godot-res: the byte-level helpers shared by the reader and the writer,
 * and the string table's lookup. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/byteio.h"
#include "core/value_internal.h"
#include "formats/godot/godot_res_internal.h"

sv_status gr_fail(gr_dec *d, size_t at, sv_status st, const char *fmt, ...)
{
    char msg[SV_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (!d->err) return st;
    /* the first error wins: sv_error_set keeps it and returns its status */
    return sv_error_set(d->err, st, GR_FORMAT, at, "%s%s", msg,
                        d->rscc ? " (offset in the decompressed RSCC stream)" : "");
}

bool gr_need(gr_dec *d, size_t n, const char *what)
{
    if (d->len - d->pos >= n) return true;
    gr_fail(d, d->pos, SV_ERR_TRUNCATED, "%s needs %zu bytes, %zu left", what, n, d->len - d->pos);
    return false;
}

uint32_t gr_u32(gr_dec *d)
{
    const uint8_t *p = d->base + d->pos;
    d->pos += 4;
    return d->c.be ? sv__core_load_u32be(p) : sv__core_load_u32le(p);
}

uint64_t gr_u64(gr_dec *d)
{
    const uint8_t *p = d->base + d->pos;
    d->pos += 8;
    return d->c.be ? sv__core_load_u64be(p) : sv__core_load_u64le(p);
}

sv_status gr_read_ustring(gr_dec *d, const char *what, sv_value *out)
{
    size_t at = d->pos;
    if (!gr_need(d, 4, what)) return d->err->status;
    uint32_t n = gr_u32(d);
    if (n == 0)
        return gr_fail(d, at, SV_ERR_UNSUPPORTED,
                       "%s of length 0 (no saver writes it; serval keeps \"\" as 01000000 00)",
                       what);
    if (n > d->c.max_string) return gr_fail(d, at, SV_ERR_LIMIT, "%s of %u bytes", what, n);
    if (!gr_need(d, n, what)) return d->err->status;
    const uint8_t *s = d->base + d->pos;
    if (s[n - 1] != 0)
        return gr_fail(d, at, SV_ERR_UNSUPPORTED, "%s does not end with its NUL byte", what);
    if (d->borrow) {
        /* the NUL after the text makes it a tree string as it lies */
        *out = sv__core_str_value((const char *)s, n - 1);
        out->flags = SV_F_BORROWED;
    } else {
        *out = sv_str(d->doc, (const char *)s, n - 1);
    }
    d->pos += n;
    if (sv_doc_status(d->doc) != SV_OK)
        return gr_fail(d, at, sv_doc_status(d->doc), "no memory for %s", what);
    return SV_OK;
}

/* ---- string table ---- */

static uint32_t hash_text(const char *s, size_t len)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < len; i++) h = (h ^ (uint8_t)s[i]) * 16777619u;
    return h;
}

bool gr_strtab_index(sv_doc *doc, gr_strtab *t)
{
    uint32_t n = 16;
    while (n < 2 * (uint64_t)t->count + 2) n <<= 1;
    t->slots = sv_doc_alloc(doc, (size_t)n * sizeof *t->slots);
    if (!t->slots) return false;
    memset(t->slots, 0, (size_t)n * sizeof *t->slots);
    t->nslots = n;
    for (uint32_t i = 0; i < t->count; i++) {
        uint32_t h = hash_text(t->s[i], t->len[i]) & (n - 1);
        for (;;) {
            uint32_t k = t->slots[h];
            if (!k) {
                t->slots[h] = i + 1;
                break;
            }
            if (t->len[k - 1] == t->len[i] && !memcmp(t->s[k - 1], t->s[i], t->len[i]))
                break; /* a duplicate: the first one stays */
            h = (h + 1) & (n - 1);
        }
    }
    return true;
}

uint32_t gr_strtab_find(const gr_strtab *t, const char *s, size_t len)
{
    if (!t->nslots) return UINT32_MAX;
    uint32_t h = hash_text(s, len) & (t->nslots - 1);
    for (;;) {
        uint32_t k = t->slots[h];
        if (!k) return UINT32_MAX;
        if (t->len[k - 1] == len && !memcmp(t->s[k - 1], s, len)) return k - 1;
        h = (h + 1) & (t->nslots - 1);
    }
}

/* ---- writing ---- */

void gr_put_large(gr_enc *e, const void *p, size_t n)
{
    const uint8_t *s = p;
    while (n) {
        size_t k = n < e->out->window ? n : e->out->window;
        sv_buf_append(e->out, s, k);
        sv_buf_release(e->out); /* nothing before is patched: the bytes are final */
        s += k;
        n -= k;
    }
}

void gr_put_u32(gr_enc *e, uint32_t v)
{
    uint8_t b[4];
    if (e->c.be)
        sv__core_store_u32be(b, v);
    else
        sv__core_store_u32le(b, v);
    gr_put(e, b, 4);
}

void gr_put_u64(gr_enc *e, uint64_t v)
{
    if (e->c.be) {
        gr_put_u32(e, (uint32_t)(v >> 32));
        gr_put_u32(e, (uint32_t)v);
    } else {
        gr_put_u32(e, (uint32_t)v);
        gr_put_u32(e, (uint32_t)(v >> 32));
    }
}

void gr_put_ustring(gr_enc *e, const char *s, size_t len)
{
    gr_put_u32(e, (uint32_t)len + 1);
    gr_put(e, s, len);
    gr_putc(e, 0);
}
