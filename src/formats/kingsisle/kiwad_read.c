/* KIWAD archives: opening, listing, checking and reading members.
 * Everything the table says is checked when the archive is opened, so a
 * caller that got a handle can trust every name and range in it; only the
 * members' CRCs and zlib streams wait until a member is read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compress/zlib_adapter.h"
#include "core/utf8.h"
#include "formats/kingsisle/kiwad_internal.h"

static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint32_t sv_kiwad_crc(uint32_t crc, const uint8_t *p, size_t n)
{
    /* zlib's CRC-32 complements on entry and exit; KingsIsle's starts at 0
     * and ends without the xor, so undo both. */
    return sv__compress_crc32(crc ^ 0xFFFFFFFFu, p, n) ^ 0xFFFFFFFFu;
}

bool sv_kiwad_stores_raw(const char *name)
{
    size_t n = strlen(name);
    return n >= 4 && (!strcmp(name + n - 4, ".mp3") || !strcmp(name + n - 4, ".ogg"));
}

int kiwad_name_cmp(const char *a, size_t an, const char *b, size_t bn)
{
    int c = memcmp(a, b, an < bn ? an : bn);
    return c ? c : (an > bn) - (an < bn);
}

bool sv_kiwad_name_ok(const char *name, size_t len, const char **why)
{
    if (len == 0) return *why = "empty name", false;
    if (memchr(name, 0, len)) return *why = "NUL byte inside the name", false;
    if (!sv__core_utf8_valid((const uint8_t *)name, len)) return *why = "name is not UTF-8", false;
    if (name[0] == '/' || name[0] == '\\') return *why = "absolute name", false;
    if (len >= 2 && name[1] == ':') return *why = "name with a drive prefix", false;
    if (memchr(name, '\\', len)) return *why = "backslash in the name", false;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && name[i] != '/') continue;
        size_t n = i - start;
        if (n == 0) return *why = "empty path component", false;
        if (name[start] == '.' && (n == 1 || (n == 2 && name[start + 1] == '.')))
            return *why = "'.' or '..' path component", false;
        start = i + 1;
    }
    return true;
}

static sv_status fail_member(sv_error *err, sv_status st, uint64_t at, const sv_kiwad_member *m,
                             size_t i, const char *what)
{
    return sv_error_set(err, st, KIWAD_FORMAT, at, "entry %zu '%.100s': %s", i,
                        m && m->name ? m->name : "?", what);
}

/* qsort has no context argument in C11, so the keys travel with the index. */
typedef struct sort_key {
    const char *name;
    size_t len;
    uint64_t offset;
    uint32_t index;
} sort_key;

static int by_name_cmp(const void *a, const void *b)
{
    const sort_key *x = a, *y = b;
    return kiwad_name_cmp(x->name, x->len, y->name, y->len);
}

static int by_offset_cmp(const void *a, const void *b)
{
    const sort_key *x = a, *y = b;
    return (x->offset > y->offset) - (x->offset < y->offset);
}

/* KingsIsle's writers sort the table by name and lay the data out in table
 * order, so both sorts below usually find their keys in order already: one
 * pass checks that before qsort is asked to do n log n comparisons. */
static void sort_keys(sort_key *k, size_t n, int (*cmp)(const void *, const void *))
{
    for (size_t i = 1; i < n; i++)
        if (cmp(&k[i - 1], &k[i]) > 0) {
            qsort(k, n, sizeof *k, cmp);
            return;
        }
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i]) return false;
    return true;
}

/* The file table: header, then count entries back to back. */
static sv_status read_table(sv_kiwad *w, sv_error *err)
{
    const uint8_t *d = w->data;
    size_t n = w->len;
    if (memcmp(d, "KIWAD", n < 5 ? n : 5) != 0)
        return sv_error_set(err, SV_ERR_SYNTAX, KIWAD_FORMAT, 0,
                            "not a KIWAD archive (no \"KIWAD\" magic)");
    if (n < 13)
        return sv_error_set(err, SV_ERR_TRUNCATED, KIWAD_FORMAT, n,
                            "the header ends after %zu of its 13 bytes", n);
    w->info.version = rd32(d + 5);
    w->info.count = rd32(d + 9);
    w->info.flags = -1;
    w->info.file_size = n;
    size_t pos = 13;
    if (w->info.version >= 2) {
        if (n < 14)
            return sv_error_set(err, SV_ERR_TRUNCATED, KIWAD_FORMAT, 13,
                                "version %u header ends before its flags byte", w->info.version);
        w->info.flags = d[13];
        pos = 14;
    }
    /* Every known reader takes "version >= 2" to mean "flags byte
     * present" and nothing else changes, so a later version is read with
     * version 2's layout (the caller sees info.version and may warn or
     * refuse). Version 0 was never written: refused. */
    if (w->info.version == 0)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, KIWAD_FORMAT, 5, "version 0 (known: 1 and 2)");
    /* Every entry takes 21 bytes at least: a count the file cannot hold is
     * refused before anything is allocated for it. */
    if (w->info.count > (n - pos) / KIWAD_ENTRY_FIXED)
        return sv_error_set(err, SV_ERR_TRUNCATED, KIWAD_FORMAT, 9,
                            "truncated table: %u entries need at least %llu bytes, %zu left",
                            w->info.count, (unsigned long long)w->info.count * KIWAD_ENTRY_FIXED,
                            n - pos);
    size_t count = w->info.count;
    if (count) {
        w->members = w->alloc->malloc(w->alloc->ctx, count * sizeof *w->members);
        w->by_name = w->alloc->malloc(w->alloc->ctx, count * sizeof *w->by_name);
        if (!w->members || !w->by_name)
            return sv_error_set(err, SV_ERR_NOMEM, KIWAD_FORMAT, 9, "out of memory for %zu entries",
                                count);
    }
    for (size_t i = 0; i < count; i++) {
        sv_kiwad_member *m = &w->members[i];
        memset(m, 0, sizeof *m);
        m->entry_offset = pos;
        if (n - pos < KIWAD_ENTRY_FIXED)
            return fail_member(err, SV_ERR_TRUNCATED, pos, NULL, i, "truncated table");
        const uint8_t *e = d + pos;
        m->offset = rd32(e);
        m->size = rd32(e + 4);
        m->csize = rd32(e + 8);
        m->compressed_flag = e[12];
        m->compressed = e[12] != 0;
        m->crc = rd32(e + 13);
        uint32_t name_len = rd32(e + 17);
        pos += KIWAD_ENTRY_FIXED;
        if (name_len > n - pos)
            return fail_member(err, SV_ERR_TRUNCATED, pos - 4, NULL, i,
                               "truncated table: name runs past the end of the file");
        const char *name = (const char *)d + pos;
        if (name_len < 2 || name[name_len - 1] != 0)
            return fail_member(err, SV_ERR_SYNTAX, pos, NULL, i,
                               name_len < 2 ? "empty name" : "name lacks its NUL terminator");
        m->name = name;
        m->name_len = name_len - 1;
        const char *why;
        if (!sv_kiwad_name_ok(name, m->name_len, &why))
            return fail_member(err, SV_ERR_REFUSED, pos, NULL, i, why);
        pos += name_len;
        m->stored_len = m->compressed ? m->csize : m->size;
        w->by_name[i] = (uint32_t)i;
    }
    w->info.table_end = pos;
    return SV_OK;
}

/* Data ranges in the file; unpatched members; overlaps. */
static sv_status check_data(sv_kiwad *w, sv_error *err)
{
    size_t count = w->info.count;
    for (size_t i = 0; i < count; i++) {
        sv_kiwad_member *m = &w->members[i];
        uint64_t end = (uint64_t)m->offset + m->stored_len;
        if (end > w->len) {
            char why[120];
            snprintf(why, sizeof why, "data %u..%llu past the end of the file (%zu bytes)",
                     m->offset, (unsigned long long)end, w->len);
            return fail_member(err, SV_ERR_TRUNCATED, m->entry_offset, m, i, why);
        }
        /* All-zero bytes always have KingsIsle CRC 0 (the register starts
         * at 0), so a zero range whose table CRC is not 0 cannot match: an
         * unpatched placeholder. Only an all-zero range is scanned whole. */
        m->unpatched = m->crc != 0 && all_zero(w->data + m->offset, m->stored_len);
    }
    /* Two members on one range would let a small archive inflate the same
     * stream many times over; empty and unpatched ranges may be shared. */
    size_t bytes = count ? count * sizeof(sort_key) : 1;
    sort_key *order = w->alloc->malloc(w->alloc->ctx, bytes);
    if (!order) return sv_error_set(err, SV_ERR_NOMEM, KIWAD_FORMAT, 0, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < count; i++)
        if (w->members[i].stored_len && !w->members[i].unpatched)
            order[k++] = (sort_key){NULL, 0, w->members[i].offset, (uint32_t)i};
    sort_keys(order, k, by_offset_cmp);
    sv_status st = SV_OK;
    for (size_t j = 1; j < k && st == SV_OK; j++) {
        const sv_kiwad_member *a = &w->members[order[j - 1].index];
        const sv_kiwad_member *b = &w->members[order[j].index];
        if ((uint64_t)a->offset + a->stored_len > b->offset) {
            char why[SV_ERROR_MSG_MAX];
            snprintf(why, sizeof why, "data at %u overlaps that of '%.60s'", b->offset, a->name);
            st = fail_member(err, SV_ERR_REFUSED, b->entry_offset, b, order[j].index, why);
        }
    }
    w->alloc->free(w->alloc->ctx, order, bytes);
    return st;
}

/* Duplicate names, and a name that is also another's directory ("a" and
 * "a/b"): extracting either would lose a member. */
static sv_status check_names(sv_kiwad *w, sv_error *err)
{
    size_t count = w->info.count;
    size_t bytes = count ? count * sizeof(sort_key) : 1;
    sort_key *keys = w->alloc->malloc(w->alloc->ctx, bytes);
    if (!keys) return sv_error_set(err, SV_ERR_NOMEM, KIWAD_FORMAT, 0, "out of memory");
    for (size_t i = 0; i < count; i++)
        keys[i] = (sort_key){w->members[i].name, w->members[i].name_len, 0, (uint32_t)i};
    sort_keys(keys, count, by_name_cmp);
    for (size_t i = 0; i < count; i++) w->by_name[i] = keys[i].index;
    w->alloc->free(w->alloc->ctx, keys, bytes);
    for (size_t j = 1; j < count; j++) {
        const sv_kiwad_member *a = &w->members[w->by_name[j - 1]];
        const sv_kiwad_member *b = &w->members[w->by_name[j]];
        if (a->name_len == b->name_len && !memcmp(a->name, b->name, a->name_len))
            return fail_member(err, SV_ERR_REFUSED, b->entry_offset, b, w->by_name[j],
                               "duplicate name");
    }
    /* In name order, the names under one directory "d/" come one after the
     * other, so only the first of them needs d looked up: a '/' inside the
     * prefix a name shares with the one before it was looked up for that
     * one. An archive of n members in a few directories costs n lookups of
     * the common prefix, not one binary search per '/' of every name. */
    for (size_t j = 0; j < count; j++) {
        size_t i = w->by_name[j];
        const sv_kiwad_member *m = &w->members[i];
        size_t from = 0;
        if (j) {
            const sv_kiwad_member *prev = &w->members[w->by_name[j - 1]];
            size_t lim = prev->name_len < m->name_len ? prev->name_len : m->name_len;
            while (from < lim && prev->name[from] == m->name[from]) from++;
        }
        for (size_t p = from; p < m->name_len; p++) {
            if (m->name[p] != '/') continue;
            /* is m->name[0..p) itself a member? */
            size_t lo = 0, hi = count;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                const sv_kiwad_member *x = &w->members[w->by_name[mid]];
                int c = kiwad_name_cmp(x->name, x->name_len, m->name, p);
                if (c == 0) {
                    char why[SV_ERROR_MSG_MAX];
                    snprintf(why, sizeof why, "member '%.60s' is also its directory", x->name);
                    return fail_member(err, SV_ERR_REFUSED, m->entry_offset, m, i, why);
                }
                if (c < 0)
                    lo = mid + 1;
                else
                    hi = mid;
            }
        }
    }
    return SV_OK;
}

sv_status sv_kiwad_open(const uint8_t *data, size_t len, const sv_alloc *alloc, sv_kiwad **out,
                        sv_error *err)
{
    *out = NULL;
    const sv_alloc *a = alloc ? alloc : sv_alloc_libc();
    sv_kiwad *w = a->malloc(a->ctx, sizeof *w);
    if (!w) return sv_error_set(err, SV_ERR_NOMEM, KIWAD_FORMAT, 0, "out of memory");
    memset(w, 0, sizeof *w);
    w->alloc = a;
    w->data = data;
    w->len = len;
    sv_status st = read_table(w, err);
    if (st == SV_OK) st = check_data(w, err);
    if (st == SV_OK) st = check_names(w, err);
    if (st != SV_OK) {
        if (!w->members) w->info.count = 0; /* nothing allocated to free */
        sv_kiwad_close(w);
        return st;
    }
    *out = w;
    return SV_OK;
}

void sv_kiwad_close(sv_kiwad *w)
{
    if (!w) return;
    const sv_alloc *a = w->alloc;
    size_t n = w->info.count;
    if (w->members) a->free(a->ctx, w->members, n * sizeof *w->members);
    if (w->by_name) a->free(a->ctx, w->by_name, n * sizeof *w->by_name);
    a->free(a->ctx, w, sizeof *w);
}

sv_kiwad_info sv_kiwad_get_info(const sv_kiwad *w)
{
    return w->info;
}
size_t sv_kiwad_count(const sv_kiwad *w)
{
    return w->info.count;
}

bool sv_kiwad_member_at(const sv_kiwad *w, size_t i, sv_kiwad_member *m)
{
    if (i >= w->info.count) return false;
    *m = w->members[i];
    return true;
}

sv_status sv_kiwad_find(const sv_kiwad *w, const char *name, size_t *index)
{
    size_t len = strlen(name), lo = 0, hi = w->info.count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const sv_kiwad_member *x = &w->members[w->by_name[mid]];
        int c = kiwad_name_cmp(x->name, x->name_len, name, len);
        if (c == 0) {
            *index = w->by_name[mid];
            return SV_OK;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return SV_ERR_NOT_FOUND;
}

const uint8_t *sv_kiwad_stored(const sv_kiwad *w, size_t i, size_t *len)
{
    const sv_kiwad_member *m = &w->members[i];
    *len = m->stored_len;
    return w->data + m->offset;
}

sv_status sv_kiwad_verify(const sv_kiwad *w, size_t i, sv_error *err)
{
    const sv_kiwad_member *m = &w->members[i];
    uint32_t c = sv_kiwad_crc(0, w->data + m->offset, m->stored_len);
    if (c == m->crc) return SV_OK;
    char why[80];
    snprintf(why, sizeof why, "CRC mismatch: table says %08X, data at %u has %08X", m->crc,
             m->offset, c);
    return fail_member(err, SV_ERR_SYNTAX, m->entry_offset + 13, m, i, why);
}

sv_status sv_kiwad_read(const sv_kiwad *w, size_t i, const sv_limits *lim, bool verify, sv_buf *out,
                        sv_error *err)
{
    if (i >= w->info.count)
        return sv_error_set(err, SV_ERR_NOT_FOUND, KIWAD_FORMAT, SV_ERROR_NO_OFFSET, "no entry %zu",
                            i);
    const sv_kiwad_member *m = &w->members[i];
    if (m->unpatched)
        return fail_member(err, SV_ERR_REFUSED, m->entry_offset, m, i,
                           "unpatched (its data is all zero: not downloaded yet)");
    if (verify) {
        sv_status st = sv_kiwad_verify(w, i, err);
        if (st != SV_OK) return st;
    }
    sv_limits l = sv_limits_resolve(lim);
    uint64_t cap = l.max_decompressed < l.max_alloc ? l.max_decompressed : l.max_alloc;
    if (m->size > cap) {
        char why[100];
        snprintf(why, sizeof why, "declared size %u is over the limit of %llu bytes", m->size,
                 (unsigned long long)cap);
        return fail_member(err, SV_ERR_LIMIT, m->entry_offset + 4, m, i, why);
    }
    const uint8_t *p = w->data + m->offset;
    if (!m->compressed) {
        sv_buf_append(out, p, m->size);
        return sv_buf_ok(out) ? SV_OK
                              : fail_member(err, SV_ERR_NOMEM, m->offset, m, i, "out of memory");
    }
    sv_status st = sv__compress_zlib_inflate_exact(p, m->stored_len, SV_ZLIB_WRAPPED, m->size, cap,
                                                   KIWAD_FORMAT, m->offset, out, err);
    if (st != SV_OK) {
        char seg[SV_ERROR_MSG_MAX];
        snprintf(seg, sizeof seg, "%s", m->name);
        sv_error_path_key(err, seg, strlen(seg));
    }
    return st;
}
