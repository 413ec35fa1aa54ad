/* The typed JSON writer (docs/json.md): the entry point, the dispatch on a
 * value's kind and tag ({"$tag": value} forms), and the small kinds (null,
 * bool, refs, string values). Containers are in json_write_containers.c,
 * numbers in json_write_num.c, strings and bytes in json_write_str.c.
 *
 * sv__json_jw_value writes any value by itself, through sv__jw_by_kind. The
 * container loops write their common items inline (json_write_containers.c)
 * and call here, or straight into sv__jw_by_kind, for the rest. A failure
 * unwinds with the JSON Pointer path of the failing value: each container
 * level prepends its own segment. */
#include "core/article.h"
#include "core/error_record.h"
#include "core/mem.h"
#include "formats/json/json_opts.h"
#include "formats/json/json_write_internal.h"

#define LIT(s) s, sizeof(s) - 1

_Static_assert(sizeof("{\"$packed_vector4\":") <= SV_JW_OPEN_MAX, "tag names fit");
const sv_jw_tag sv__jw_tags[SV_TAG_COUNT] = {
#define SV_X_TAG(id, name, kind, scalars, elem)                                                    \
    {"{\"$" name "\":", sizeof("{\"$" name "\":") - 1, kind, scalars, elem},
    SV_TAG_LIST(SV_X_TAG)
#undef SV_X_TAG
};

/* Room of a large output is handed to the writer this much at a time, each
 * piece faulted in with one call (sv__core_mem_populate) instead of one page fault
 * per 4 KiB as the stores reach it: those faults were a third of the time
 * of writing a 50 MB document. */
#define JW_ROOM_STEP ((size_t)2 << 20)

bool sv__json_jw_grow(sv_jw *w, size_t n)
{
    sv_buf *b = w->buf;
    size_t len = (size_t)(w->p - b->data), open = (size_t)(w->end - b->data);
    b->len = len;
    if (b->cap - len < n) {
        /* Large steps: ask for at least as much again as the buffer holds,
         * so a large output is copied by realloc a few times only. */
        size_t want = b->cap > 65536 ? b->cap : 65536;
        if (want < n) want = n;
        if (sv_buf_ensure(b, want) != SV_OK) {
            sv__core_error_record(w->err, SV_ERR_NOMEM, SV_JW_FORMAT, 0,
                                  "cannot grow the output beyond %zu bytes", b->len);
            return false;
        }
    }
    size_t upto = b->cap;
    if (b->cap >= 2 * JW_ROOM_STEP) {
        /* the next step of room (at least the n bytes asked for) */
        upto = (open > len ? open : len) + JW_ROOM_STEP;
        if (upto < len + n) upto = len + n;
        if (upto > b->cap) upto = b->cap;
        sv__core_mem_populate(b->data + (open > len ? open : len), b->data + upto);
    }
    w->p = b->data + len;
    w->end = b->data + upto;
    return true;
}

sv_status sv__json_jw_release(sv_jw *w)
{
    sv_buf *b = w->buf;
    size_t len = (size_t)(w->p - b->data);
    if (len < b->window) return SV_OK;
    b->len = len;
    sv_buf_release(b);
    if (!sv_buf_ok(b))
        return sv_error_set(w->err, sv_buf_status(b), SV_JW_FORMAT, 0,
                            "the output could not be written after %llu bytes",
                            (unsigned long long)b->flushed);
    /* the window starts again at data, with all of its room */
    w->p = b->data + b->len;
    w->end = b->data + b->cap;
    return SV_OK;
}

sv_status sv__json_jw_malformed(sv_jw *w, const char *what, const sv_value *v)
{
    return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0, "malformed tree: %s (kind %s)", what,
                        sv_kind_name((sv_kind)v->kind));
}

/* ---- the small kinds and the dispatch ------------------------------------------ */

static sv_status write_ref(sv_jw *w, const sv_value *v)
{
    if (!sv__json_jw_need(w, SV_FMT_INT_MAX + 14)) return SV_ERR_NOMEM;
    if (!w->plain) sv__json_jw_put_key_lit(w, LIT("{\"$ref\":"));
    if (v->flags & SV_F_NULLREF)
        sv__json_jw_put(w, "null", 4);
    else
        w->p += sv__json_jw_fmt_u64_q(v->as.u, w->p, !w->plain);
    if (!w->plain) *w->p++ = '}';
    return SV_OK;
}

static sv_status write_string_value(sv_jw *w, const sv_value *v)
{
    if (!v->as.str && v->len) return sv__json_jw_malformed(w, "a string without storage", v);
    bool utf16 = (v->flags & SV_F_UTF16) != 0;
    if (!utf16 || w->plain) {
        /* Text that is not UTF-8 (a Godot 3 string with a lone surrogate,
         * say) takes the $str form; it is rare, so the ordinary string is
         * tried first and rewound on failure. */
        size_t at = (size_t)(w->p - w->buf->data);
        sv_status st = sv__json_jw_string(w, v->as.str, v->len, utf16 ? SV_JW_STR_WTF8 : 0);
        if (st != SV_ERR_UTF8 || utf16) return st;
        w->p = w->buf->data + at;
        sv_error_clear(w->err);
        return sv__json_jw_string_pieces(w, v->as.str, v->len);
    }
    if (!sv__json_jw_need(w, 12)) return SV_ERR_NOMEM;
    sv__json_jw_put_key_lit(w, LIT("{\"$utf16\":"));
    /* UTF-8 text is the usual case; a lone surrogate (WTF-8) is written as
     * an integer piece: {"$utf16": {"$str": ["a", 55296]}}. */
    size_t at = (size_t)(w->p - w->buf->data);
    sv_status st = sv__json_jw_string(w, v->as.str, v->len, 0);
    if (st == SV_ERR_UTF8) {
        w->p = w->buf->data + at;
        sv_error_clear(w->err);
        if (sv__json_jw_text_ok(v->as.str, v->len, true))
            st = sv__json_jw_string_pieces(w, v->as.str, v->len);
        else /* not WTF-8: the error names the bad byte */
            st = sv__json_jw_string_any(w, v->as.str, v->len, SV_JW_STR_WTF8);
    }
    if (st) return st;
    if (!sv__json_jw_need(w, 1)) return SV_ERR_NOMEM;
    *w->p++ = '}';
    return SV_OK;
}

static sv_status write_null(sv_jw *w, const sv_value *v)
{
    (void)v;
    if (!sv__json_jw_need(w, 4)) return SV_ERR_NOMEM;
    sv__json_jw_put(w, "null", 4);
    return SV_OK;
}

/* A bool whose source stored neither 0 nor 1 keeps that value (sv_bool_raw):
 * {"$bool": true, "$raw": 127}, one line also when pretty. */
static sv_status write_bool(sv_jw *w, const sv_value *v)
{
    if (!sv__json_jw_need(w, SV_FMT_INT_MAX + 32)) return SV_ERR_NOMEM;
    if (v->len && !w->plain) {
        if (!v->as.b) return sv__json_jw_malformed(w, "a false bool with a stored value", v);
        if (w->pretty)
            sv__json_jw_put(w, LIT("{\"$bool\": true, \"$raw\": "));
        else
            sv__json_jw_put(w, LIT("{\"$bool\":true,\"$raw\":"));
        w->p += sv__json_jw_fmt_u64(v->len, w->p);
        *w->p++ = '}';
        return SV_OK;
    }
    if (v->as.b)
        sv__json_jw_put(w, "true", 4);
    else
        sv__json_jw_put(w, "false", 5);
    return SV_OK;
}

static sv_status unknown_kind(sv_jw *w, const sv_value *v)
{
    return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0, "malformed tree: unknown kind %u",
                        (unsigned)v->kind);
}

/* (the kind is a 4-bit field: every value indexes a row) */
const sv_jw_writer sv__jw_by_kind[16] = {
    [SV_NULL] = write_null,
    [SV_BOOL] = write_bool,
    [SV_INT] = sv__json_jw_int,
    [SV_UINT] = sv__json_jw_uint,
    [SV_FLOAT] = sv__json_jw_float,
    [SV_STRING] = write_string_value,
    [SV_BYTES] = sv__json_jw_bytes,
    [SV_ARRAY] = sv__json_jw_array,
    [SV_MAP] = sv__json_jw_map,
    [SV_OBJECT] = sv__json_jw_object,
    [SV_TUPLE] = sv__json_jw_tuple,
    [SV_PACKED] = sv__json_jw_packed,
    [SV_REF] = write_ref,
    [SV_KIND_COUNT] = unknown_kind,
    [SV_KIND_COUNT + 1] = unknown_kind,
    [SV_KIND_COUNT + 2] = unknown_kind,
};

static sv_status write_untagged(sv_jw *w, const sv_value *v)
{
    return sv__jw_by_kind[v->kind](w, v);
}

sv_status sv__json_jw_value(sv_jw *w, const sv_value *v)
{
    unsigned tag = v->tag;
    if (tag == 0) return write_untagged(w, v);
    if (tag >= SV_TAG_COUNT)
        return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0, "malformed tree: unknown tag %u",
                            tag);
    const sv_jw_tag *t = &sv__jw_tags[tag];
    unsigned kind = v->kind;
    /* a shape is part of the tuple's or packed array's own form */
    if (kind == SV_TUPLE || (kind == SV_PACKED && t->kind == SV_PACKED))
        return write_untagged(w, v);
    if (t->kind != SV_KIND_COUNT && t->kind != kind)
        return sv_error_set(w->err, SV_ERR_TYPE, SV_JW_FORMAT, 0,
                            "malformed tree: tag %s does not apply to %s %s",
                            sv_tag_name((sv_tag)tag), sv__core_article(sv_kind_name((sv_kind)kind)),
                            sv_kind_name((sv_kind)kind));
    if (w->plain) return write_untagged(w, v);
    /* {"$tag": value}: the value starts on the form's line, at its level */
    if (!sv__json_jw_need(w, SV_JW_OPEN_MAX + 1)) return SV_ERR_NOMEM;
    memcpy(w->p, t->open, SV_JW_OPEN_MAX);
    w->p += t->open_len;
    if (w->pretty) *w->p++ = ' ';
    sv_status st = write_untagged(w, v);
    if (st) return st;
    if (!sv__json_jw_need(w, 1)) return SV_ERR_NOMEM;
    *w->p++ = '}';
    return SV_OK;
}

/* ---- entry point ------------------------------------------------------------ */

void sv__json_jw_forget(sv_jw *w)
{
    /* an empty slot: its address is no key's (the keys table is the
     * writer's own), and its head no value's with that address */
    for (size_t i = 0; i < SV_JW_KEY_CACHE; i++) {
        w->keys[i].str = (const char *)w->keys;
        w->keys[i].head = 0;
    }
    w->cls_words[0] = 0;
    w->cls_words[1] = (uint64_t)(uintptr_t)w->keys;
}

sv_status sv__json_jw_begin(sv_jw *w, const sv_json_encode_opts *opts, sv_buf *out, sv_error *err)
{
    if (!sv_buf_ok(out) || sv_buf_ensure(out, 4096) != SV_OK)
        return sv_error_set(err, SV_ERR_NOMEM, SV_JW_FORMAT, 0, "cannot allocate the output");
    sv_json_encode_opts o;
    sv_status ost = sv__json_encode_opts_read(&o, opts, err);
    if (ost != SV_OK) return ost;
    w->buf = out;
    w->err = err;
    w->p = out->data + out->len;
    w->end = out->data + out->cap;
    w->indent = o.indent > 0 ? (size_t)o.indent : 0;
    w->ind = 0;
    w->depth = 0;
    w->pretty = w->indent > 0;
    w->plain = o.plain;
    sv__json_jw_forget(w);
    /* object keys: kind STRING, and in typed mode no tag and no UTF16 flag */
    w->mask_string = sv__json_jw_head_of(0xF, SV_F_UTF16, 0, 0xFFFF);
    w->key_want = sv__json_jw_head_of(SV_STRING, 0, 0, 0);
    w->key_mask = w->plain ? sv__json_jw_head_of(0xF, 0, 0, 0) : w->mask_string;
    return SV_OK;
}

sv_status sv_json_encode(const sv_value *v, const sv_json_encode_opts *opts, sv_buf *out,
                         sv_error *err)
{
    sv_error_clear(err);
    if (!v || !out)
        return sv_error_set(err, SV_ERR_USAGE, SV_JW_FORMAT, 0, "no value or no output buffer");
    sv_jw w;
    sv_status st = sv__json_jw_begin(&w, opts, out, err);
    if (st != SV_OK) return st;
    size_t start = out->len;
    uint64_t flushed = out->flushed;
    st = sv__json_jw_value(&w, v);
    /* on failure the buffer is left as it was (less any growth), unless a
     * sink took part of the output already: the caller discards it then */
    out->len = st == SV_OK || out->flushed != flushed ? (size_t)(w.p - out->data) : start;
    return st;
}
