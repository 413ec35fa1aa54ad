/* Writing KingsIsle XML object files (§8): the tree of sv_kingsisle_decode
 * or sv_kingsisle_xml_decode as <Objects><Class Name=...>, one element per
 * property, lists as repeated elements, colours as AARRGGBB, tuples as
 * comma-separated numbers; tab-indented, or in the layout the root's meta
 * recorded (ki_xml_layout.h). */
#include <stdio.h>
#include <string.h>

#include "core/base64.h"
#include "formats/kingsisle/ki_internal.h"
#include "formats/kingsisle/ki_xml_layout.h"
#include "core/numconv.h"

#define KX_FORMAT "kingsisle-xml"

typedef struct kw {
    const sv_kingsisle_types *types;
    sv_buf *out;
    sv_error *err;
    sv_status st;
    unsigned depth;
    kx_layout layout; /* the gaps before tags: the root's record, else "\n" and tabs */
} kw;

static sv_status kw_fail(kw *w, sv_status st, const char *msg)
{
    if (w->st == SV_OK) w->st = sv_error_set(w->err, st, KX_FORMAT, 0, "%s", msg);
    return w->st;
}

static void put(kw *w, const char *s)
{
    sv_buf_append(w->out, s, strlen(s));
}

/* The white space before an opening (or closing) tag at level. */
static void gap(kw *w, bool close, unsigned level)
{
    kx_layout_put(&w->layout, close, level, w->out);
}

/* Text with the five XML escapes (and control characters as references). */
static void put_text(kw *w, const char *s, size_t n, bool attr)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        switch (ch) {
        case '&': put(w, "&amp;"); break;
        case '<': put(w, "&lt;"); break;
        case '>': put(w, "&gt;"); break;
        case '"': attr ? put(w, "&quot;") : sv_buf_putc(w->out, ch); break;
        default:
            if (ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r') {
                kw_fail(w, SV_ERR_RANGE, "XML 1.0 text cannot hold control characters");
                return;
            }
            if (ch == '\r' || (attr && (ch == '\n' || ch == '\t'))) {
                char ref[8];
                snprintf(ref, sizeof ref, "&#%u;", ch);
                put(w, ref);
            } else {
                sv_buf_putc(w->out, ch);
            }
        }
    }
}

static void put_number(kw *w, const sv_value *v, size_t i)
{
    char buf[SV_FMT_F64_MAX + 1];
    size_t n;
    sv_elem e = sv_elem_of(v);
    double x = sv_number_at(v, i);
    if (e == SV_ELEM_F32)
        n = sv__core_fmt_f32((float)x, buf);
    else if (e == SV_ELEM_F64)
        n = sv__core_fmt_f64(x, buf);
    else
        n = sv__core_fmt_i64((int64_t)x, buf);
    sv_buf_append(w->out, buf, n);
}

static void put_scalar(kw *w, const sv_value *v)
{
    char buf[SV_FMT_F64_MAX + 1];
    size_t n;
    switch (sv_kind_of(v)) {
    case SV_BOOL: put(w, sv_get_bool(v) ? "true" : "false"); break;
    case SV_INT: n = sv__core_fmt_i64(v->as.i, buf), sv_buf_append(w->out, buf, n); break;
    case SV_UINT: n = sv__core_fmt_u64(v->as.u, buf), sv_buf_append(w->out, buf, n); break;
    case SV_FLOAT:
        n = sv_width(v) == 4 ? sv__core_fmt_f32(v->as.f32, buf) : sv__core_fmt_f64(v->as.f64, buf);
        sv_buf_append(w->out, buf, n);
        break;
    case SV_STRING: {
        const char *s = sv_get_str(v, &n);
        put_text(w, s, n, false);
        break;
    }
    case SV_BYTES: { /* binary strings (BLOB) as base64 */
        const char *s = sv_get_str(v, &n);
        size_t m = sv__core_base64_encoded_len(n);
        if (sv_buf_ensure(w->out, m) != SV_OK) break;
        sv__core_base64_encode((const uint8_t *)s, n, (char *)w->out->data + w->out->len);
        w->out->len += m;
        break;
    }
    case SV_TUPLE:
        if (sv_tag_of(v) == SV_TAG_COLOR && sv_len(v) == 4) { /* AARRGGBB */
            snprintf(buf, sizeof buf, "%02X%02X%02X%02X", (unsigned)sv_number_at(v, 3) & 0xFF,
                     (unsigned)sv_number_at(v, 0) & 0xFF, (unsigned)sv_number_at(v, 1) & 0xFF,
                     (unsigned)sv_number_at(v, 2) & 0xFF);
            put(w, buf);
            break;
        }
        for (uint32_t i = 0; i < sv_len(v); i++) {
            if (i) sv_buf_putc(w->out, ',');
            put_number(w, v, i);
        }
        break;
    default: kw_fail(w, SV_ERR_TYPE, "a value that XML object files cannot hold"); break;
    }
}

static sv_status put_object(kw *w, const sv_value *obj, unsigned level);

static void put_field(kw *w, const char *name, size_t nlen, const sv_value *v, unsigned level,
                      const ki_prop *p)
{
    gap(w, false, level);
    sv_buf_putc(w->out, '<');
    sv_buf_append(w->out, name, nlen);
    if (sv_kind_of(v) == SV_NULL) {
        put(w, "/>");
        return;
    }
    sv_buf_putc(w->out, '>');
    if (sv_kind_of(v) == SV_OBJECT) {
        put_object(w, v, level + 1);
        gap(w, true, level);
    } else if (p && p->kind == KI_ENUM && sv_kind_of(v) == SV_UINT) {
        /* §8: enums by their names when the type list has them */
        size_t at = w->out->len;
        if (!ki_enum_names(p, (uint32_t)sv_get_uint(v), w->out)) {
            w->out->len = at;
            put_scalar(w, v);
        }
    } else {
        put_scalar(w, v);
    }
    put(w, "</");
    sv_buf_append(w->out, name, nlen);
    sv_buf_putc(w->out, '>');
}

/* Whether s can be an element name as written: the names expat gave (any
 * XML name, namespaced or not ASCII) pass; hash keys (digits first), empty
 * keys and markup characters do not. */
static bool xml_name(const char *s, size_t n)
{
    if (!n || (s[0] >= '0' && s[0] <= '9') || s[0] == '-' || s[0] == '.') return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= 0x20 || c == 0x7F || strchr("<>&\"'=/!?;,()[]{}|^`~@#$%*+\\", c)) return false;
    }
    return true;
}

static sv_status put_object(kw *w, const sv_value *obj, unsigned level)
{
    if (sv_kind_of(obj) != SV_OBJECT) return kw_fail(w, SV_ERR_TYPE, "expected an object");
    if (++w->depth > 4096) return kw_fail(w, SV_ERR_DEPTH, "objects nested too deeply");
    const sv_value *cls = sv_object_class(obj);
    if (sv_kind_of(cls) != SV_STRING)
        return kw_fail(w, SV_ERR_TYPE,
                       "XML object files need class names (decode with a type list)");
    size_t n;
    const char *name = sv_get_str(cls, &n);
    gap(w, false, level);
    put(w, "<Class Name=\"");
    put_text(w, name, n, true);
    put(w, "\">");
    const ki_class *c = ki_class_by_name(w->types, name, n);
    const sv_value o = *obj; /* local: the accessors' checks leave the loop */
    for (uint32_t i = 0; i < o.len && w->st == SV_OK; i++) {
        const sv_value *val = sv_val_at(&o, i);
        size_t kl;
        const char *k = sv_get_str(sv_key_at(&o, i), &kl);
        const ki_prop *prop = c ? ki_prop_by_name(c, k, kl) : NULL;
        if (!xml_name(k, kl)) {
            sv_error_path_key(w->err, k, kl);
            return kw_fail(w, SV_ERR_TYPE,
                           "not an XML element name (a hash: decode with a type list)");
        }
        if (sv_kind_of(val) == SV_ARRAY) { /* lists repeat the element */
            for (uint32_t j = 0; j < sv_len(val); j++)
                put_field(w, k, kl, sv_array_at(val, j), level + 1, prop);
        } else {
            put_field(w, k, kl, val, level + 1, prop);
        }
        if (w->st != SV_OK) sv_error_path_key(w->err, k, kl);
    }
    gap(w, true, level);
    put(w, "</Class>");
    w->depth--;
    return w->st;
}

sv_status sv_kingsisle_xml_encode(const sv_value *v, const sv_kingsisle_opts *opts, sv_buf *out,
                                  sv_error *err)
{
    sv_kingsisle_opts o;
    sv_status ost = ki_opts_read(&o, opts, KX_FORMAT, err);
    if (ost != SV_OK) return ost;
    kw w = {o.types, out, err, SV_OK, 0, {0}};
    size_t start = out->len;
    kx_layout_init(&w.layout, out->alloc);
    if ((w.st = kx_layout_from_meta(&w.layout, v, err)) != SV_OK) {
        kx_layout_free(&w.layout);
        return w.st;
    }
    if (!w.layout.no_declaration) put(&w, KX_DECLARATION);
    gap(&w, false, 0);
    put(&w, "<Objects>");
    if (sv_kind_of(v) == SV_ARRAY) {
        for (uint32_t i = 0; i < sv_len(v) && w.st == SV_OK; i++) {
            put_object(&w, sv_array_at(v, i), 1);
            if (w.st != SV_OK) sv_error_path_index(err, i);
        }
    } else {
        put_object(&w, v, 1);
    }
    gap(&w, true, 0);
    put(&w, "</Objects>");
    kx_layout_put_end(&w.layout, out);
    kx_layout_free(&w.layout);
    if (w.st == SV_OK && !sv_buf_ok(out))
        w.st = sv_error_set(err, SV_ERR_NOMEM, KX_FORMAT, 0, "out of memory");
    if (w.st != SV_OK) out->len = start;
    return w.st;
}
