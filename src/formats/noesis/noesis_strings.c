/* String lists: the chunk's string list and the metadata strings (spec §B.3).
 * Strings are back to back, each ended by a terminator (00, or 00 00 in
 * unicode files, spec §B.6 [inferred]); classId and Desc are BYTE offsets
 * into the list. The tree keeps the entries in order, so the offsets follow
 * from the entries' lengths and need not be stored. */
#include <string.h>

#include "formats/noesis/noesis_internal.h"

static sv_status list_error(sv_error *err, sv_status st, uint64_t off, const char *msg)
{
    return sv_error_set(err, st, NSB_FORMAT, off, "%s", msg);
}

/* The value of one entry: UTF-8 text as a STRING, other 8-bit text as BYTES
 * (so no byte is lost), UTF-16 text as a STRING flagged UTF16. */
static sv_value entry_value(sv_doc *doc, const uint8_t *p, size_t n, bool unicode, bool big)
{
    if (!unicode)
        return sv__core_utf8_valid(p, n) ? sv_str(doc, (const char *)p, n) : sv_bytes(doc, p, n);
    size_t len = sv__core_utf16_wtf8_len(p, n / 2, big);
    sv_value v = sv_str_uninit(doc, len);
    if (v.kind != SV_STRING) return v;
    sv__core_utf16_to_wtf8(p, n / 2, big, sv_value_buf(&v));
    return sv_with_flags(v, SV_F_UTF16);
}

sv_status nsb_strlist_read(sv_doc *doc, nsb_strlist *sl, const uint8_t *bytes, size_t size,
                           bool unicode, bool big, bool make_values, uint64_t base_offset,
                           sv_error *err)
{
    memset(sl, 0, sizeof *sl);
    sl->bytes = bytes;
    sl->size = size;
    sl->unicode = unicode;
    sl->big = big;
    size_t unit = unicode ? 2 : 1;
    if (size % unit)
        return list_error(err, SV_ERR_SYNTAX, base_offset,
                          "a unicode string list must have an even size");
    if (size == 0) return SV_OK;
    for (size_t k = 0; k < unit; k++)
        if (bytes[size - unit + k] != 0)
            return list_error(err, SV_ERR_SYNTAX, base_offset + size - unit,
                              "the string list does not end with a terminator");
    /* Count first, so the tables are allocated once and at their size. */
    size_t count = 0;
    for (size_t i = 0; i < size; i += unit)
        if (bytes[i] == 0 && (!unicode || bytes[i + 1] == 0)) count++;
    if (count > UINT32_MAX)
        return list_error(err, SV_ERR_LIMIT, base_offset, "too many strings in a list");
    sl->count = (uint32_t)count;
    sl->starts = sv_doc_alloc(doc, count * sizeof *sl->starts);
    if (make_values) sl->entries = sv_doc_alloc(doc, count * sizeof *sl->entries);
    if (!sl->starts || (make_values && !sl->entries))
        return sv_error_set(err, sv_doc_status(doc) ? sv_doc_status(doc) : SV_ERR_NOMEM, NSB_FORMAT,
                            base_offset, "out of memory for a string list");
    size_t start = 0, n = 0;
    for (size_t i = 0; i < size; i += unit) {
        if (bytes[i] != 0 || (unicode && bytes[i + 1] != 0)) continue;
        sl->starts[n] = (uint32_t)start;
        if (make_values) {
            sl->entries[n] = entry_value(doc, bytes + start, i - start, unicode, big);
            if (sl->entries[n].kind == SV_NULL)
                return sv_error_set(err, sv_doc_status(doc) ? sv_doc_status(doc) : SV_ERR_NOMEM,
                                    NSB_FORMAT, base_offset + start, "out of memory for a string");
        }
        n++;
        start = i + unit;
    }
    return SV_OK;
}

int64_t nsb_strlist_find_start(const nsb_strlist *sl, uint64_t off)
{
    uint32_t lo = 0, hi = sl->count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (sl->starts[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return (lo < sl->count && sl->starts[lo] == off) ? (int64_t)lo : -1;
}

bool nsb_strlist_entry_equal(const sv_value *a, const sv_value *b)
{
    sv_kind ka = sv_kind_of(a), kb = sv_kind_of(b);
    if ((ka != SV_STRING && ka != SV_BYTES) || (kb != SV_STRING && kb != SV_BYTES)) return false;
    return a->len == b->len && (a->len == 0 || memcmp(a->as.bytes, b->as.bytes, a->len) == 0);
}

sv_status nsb_strlist_write(const sv_value *arr, bool unicode, bool big, sv_buf *out,
                            sv_buf *offsets, sv_error *err)
{
    size_t list_start = out->len;
    if (sv_kind_of(arr) != SV_ARRAY)
        return sv_error_set(err, SV_ERR_TYPE, NSB_FORMAT, 0, "a string list must be an array");
    const sv_value *items = sv_array_items(arr);
    for (uint32_t i = 0; i < arr->len; i++) {
        const sv_value *e = &items[i];
        sv_kind k = sv_kind_of(e);
        bool ok = k == SV_STRING || (k == SV_BYTES && !unicode);
        if (ok && e->len && memchr(e->as.bytes, 0, e->len)) ok = false;
        uint64_t at = out->len - list_start;
        if (at > UINT32_MAX)
            return sv_error_set(err, SV_ERR_LIMIT, NSB_FORMAT, 0,
                                "a string list longer than 4 GiB cannot be addressed");
        if (offsets) {
            uint32_t at32 = (uint32_t)at;
            sv_buf_append(offsets, &at32, sizeof at32);
        }
        if (ok && !unicode) {
            sv_buf_append(out, e->as.bytes, e->len);
            sv__core_put_u8(out, 0);
        } else if (ok) {
            ok = sv__core_wtf8_to_utf16(out, e->as.bytes, e->len, big);
            sv_put_u16le(out, 0);
        }
        if (!ok) {
            sv_status st = sv_error_set(err, SV_ERR_TYPE, NSB_FORMAT, 0,
                                        "a string list entry must be a string without NUL%s",
                                        unicode ? " (WTF-8, for a unicode file)" : " or bytes");
            sv_error_path_index(err, i);
            return st;
        }
    }
    return SV_OK;
}
