/* JSON text as RapidJSON 1.1 writes it: Writer (compact) and PrettyWriter
 * (O3DE's files: four spaces), its string escapes and its number layout.
 * docs/formats/o3de.md, "What serval follows", Text. */
#include <stdio.h>
#include <string.h>

#include "core/numconv.h"
#include "serval/json.h"
#include "o3de_internal.h"

#define WRITE_MAX_DEPTH 4096

static void put(o3_writer *w, const char *s, size_t n)
{
    sv_buf_append(w->out, s, n);
}

void o3_write_newline(o3_writer *w, unsigned level)
{
    size_t n = (size_t)w->indent * level + 1;
    if (sv_buf_ensure(w->out, n) != SV_OK) return;
    uint8_t *p = w->out->data + w->out->len;
    p[0] = '\n';
    memset(p + 1, ' ', n - 1);
    w->out->len += n;
}

/* RapidJSON escapes '"', '\\' and the control characters (\b \t \n \f \r
 * by name, the rest as \u00XX with upper-case hex); everything else,
 * UTF-8 and '/' included, is written as it is. */
void o3_write_string(o3_writer *w, const char *s, size_t n)
{
    static const char hex[] = "0123456789ABCDEF";
    if (sv_buf_ensure(w->out, n + 2) != SV_OK) return;
    sv_buf_putc(w->out, '"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t c = (uint8_t)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        put(w, s + run, i - run);
        run = i + 1;
        char esc[6] = {'\\', 0, 0, 0, 0, 0};
        size_t len = 2;
        switch (c) {
        case '"': esc[1] = '"'; break;
        case '\\': esc[1] = '\\'; break;
        case '\b': esc[1] = 'b'; break;
        case '\t': esc[1] = 't'; break;
        case '\n': esc[1] = 'n'; break;
        case '\f': esc[1] = 'f'; break;
        case '\r': esc[1] = 'r'; break;
        default:
            esc[1] = 'u';
            esc[2] = '0';
            esc[3] = '0';
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            len = 6;
        }
        put(w, esc, len);
    }
    put(w, s + run, n - run);
    sv_buf_putc(w->out, '"');
}

static void put_number(o3_writer *w, const sv_value *v)
{
    char num[40];
    size_t n;
    if (v->kind == SV_INT) {
        n = sv__core_fmt_i64(v->as.i, num);
    } else if (v->kind == SV_UINT) {
        n = sv__core_fmt_u64(v->as.u, num);
    } else {
        double d = v->sub == 4 ? (double)v->as.f32 : v->as.f64;
        if (d != d || d - d != 0) { /* RapidJSON's Writer refuses NaN and infinities */
            if (!w->bad)
                w->st = sv_error_set(w->err, SV_ERR_RANGE, "o3de", 0,
                                     "NaN and infinity have no JSON text");
            w->bad = true;
            return;
        }
        n = o3_dtoa(d, num);
    }
    put(w, num, n);
}

void o3_write_value(o3_writer *w, const sv_value *v, unsigned level)
{
    if (level > WRITE_MAX_DEPTH) {
        if (!w->bad)
            w->st = sv_error_set(w->err, SV_ERR_DEPTH, "o3de", 0, "JSON nested too deeply");
        w->bad = true;
        return;
    }
    switch (sv_kind_of(v)) {
    case SV_NULL: put(w, "null", 4); return;
    case SV_BOOL: v->as.b ? put(w, "true", 4) : put(w, "false", 5); return;
    case SV_INT:
    case SV_UINT:
    case SV_FLOAT: put_number(w, v); return;
    case SV_STRING: o3_write_string(w, v->as.str, v->len); return;
    case SV_ARRAY: {
        sv_buf_putc(w->out, '[');
        const sv_value *items = sv_array_items(v);
        for (uint32_t i = 0; i < v->len && !w->bad; i++) {
            if (i) sv_buf_putc(w->out, ',');
            if (w->indent) o3_write_newline(w, level + 1);
            o3_write_value(w, &items[i], level + 1);
        }
        if (w->indent && v->len) o3_write_newline(w, level);
        sv_buf_putc(w->out, ']');
        return;
    }
    case SV_MAP:
    case SV_OBJECT: {
        sv_buf_putc(w->out, '{');
        const sv_value m = *v; /* a local copy: the accessors' checks leave the loop */
        for (uint32_t i = 0; i < m.len && !w->bad; i++) {
            const sv_value *key = sv_key_at(&m, i), *val = sv_val_at(&m, i);
            if (i) sv_buf_putc(w->out, ',');
            if (w->indent) o3_write_newline(w, level + 1);
            size_t kn;
            const char *k = sv_get_str(key, &kn);
            o3_write_string(w, k, kn);
            if (w->indent)
                put(w, ": ", 2);
            else
                sv_buf_putc(w->out, ':');
            o3_write_value(w, val, level + 1);
        }
        if (w->indent && v->len) o3_write_newline(w, level);
        sv_buf_putc(w->out, '}');
        return;
    }
    default:
        if (!w->bad)
            w->st = sv_error_set(w->err, SV_ERR_TYPE, "o3de", 0,
                                 "a %s value has no plain JSON text", sv_kind_name(sv_kind_of(v)));
        w->bad = true;
        return;
    }
}

sv_status sv_o3de_write(const sv_value *json, int indent, sv_buf *out, sv_error *err)
{
    if (!json || !out || indent < 0 || indent > 64) {
        return sv_error_set(err, SV_ERR_USAGE, "o3de", 0, "bad arguments to sv_o3de_write");
    }
    o3_writer w = {out, indent, err, false, SV_OK};
    o3_write_value(&w, json, 0);
    if (w.bad) return w.st;
    if (!sv_buf_ok(out)) return sv_error_set(err, SV_ERR_NOMEM, "o3de", 0, "out of memory");
    return SV_OK;
}

sv_status sv_o3de_read(sv_doc *doc, const char *text, size_t len, const sv_limits *limits,
                       sv_value *out, sv_error *err)
{
    sv_json_decode_opts o;
    sv_json_decode_opts_init(&o);
    if (limits) o.limits = *limits;
    o.allow_comments = true;
    o.plain = true;
    return sv_json_decode(doc, text, len, &o, out, err);
}
