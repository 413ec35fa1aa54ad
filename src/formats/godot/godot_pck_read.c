/* Reading Godot PCK archives (serval/godot_pck.h): finding the pack (at the
 * start, or through an executable's trailer), its header by format version,
 * and the directory, which is checked whole before the handle is returned. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/byteio.h"
#include "core/utf8.h"
#include "formats/godot/godot_crypto.h"
#include "formats/godot/godot_gdec.h"
#include "formats/godot/godot_pck_internal.h"

bool gd_pck_name_ok(const char *name, size_t len, const char **why)
{
    if (len == 0) return *why = "empty path", false;
    if (!sv__core_utf8_valid((const uint8_t *)name, len)) return *why = "path is not UTF-8", false;
    if (name[0] == '/') return *why = "absolute path", false;
    if (len >= 2 && name[1] == ':') return *why = "path with a drive prefix", false;
    if (memchr(name, '\\', len)) return *why = "backslash in the path", false;
    if (memchr(name, ':', len)) return *why = "':' in the path (a second res:// or user://)", false;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && name[i] != '/') continue;
        size_t n = i - start;
        if (n == 0) return *why = "empty path component", false;
        if (name[start] == '.' && (n == 1 || (n == 2 && name[start + 1] == '.')))
            return *why = "'.' or '..' path component (leaves the directory)", false;
        start = i + 1;
    }
    return true;
}

static sv_status fail(sv_error *err, sv_status st, uint64_t at, size_t i, const char *path,
                      const char *what)
{
    if (path) return sv_error_set(err, st, PCK_FORMAT, at, "entry %zu '%.100s': %s", i, path, what);
    return sv_error_set(err, st, PCK_FORMAT, at, "entry %zu: %s", i, what);
}

/* Where the pack starts: 0, or through the trailer "u64 size, GDPC" of an
 * executable with a pack appended. */
static sv_status locate(sv_godot_pck *p, sv_error *err)
{
    const uint8_t *d = p->data;
    size_t len = p->len;
    if (len >= 4 && !memcmp(d, "GDPC", 4)) {
        p->info.pck_start = 0;
        p->info.pck_end = len;
        return SV_OK;
    }
    if (len >= 16 && !memcmp(d + len - 4, "GDPC", 4)) {
        uint64_t size = sv__core_load_u64le(d + len - 12);
        if (size > len - 12)
            return sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, len - 12,
                                "embedded pack: the trailer's size %llu is more than the %zu "
                                "bytes before it",
                                (unsigned long long)size, len - 12);
        uint64_t start = len - 12 - size;
        if (len - start < 4 || memcmp(d + start, "GDPC", 4))
            return sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, start,
                                "embedded pack: no \"GDPC\" header where the trailer points "
                                "(offset %llu)",
                                (unsigned long long)start);
        p->info.pck_start = start;
        p->info.pck_end = len - 12;
        p->info.embedded = true;
        return SV_OK;
    }
    return sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, 0,
                        "not a PCK archive: no \"GDPC\" at the start or the end");
}

static sv_status read_header(sv_godot_pck *p, sv_error *err)
{
    const uint8_t *d = p->data;
    uint64_t s = p->info.pck_start, avail = p->info.pck_end - s;
    sv_godot_pck_info *in = &p->info;
    if (avail < 20)
        return sv_error_set(err, SV_ERR_TRUNCATED, PCK_FORMAT, p->info.pck_end,
                            "header cut off after %llu bytes", (unsigned long long)avail);
    in->format_version = sv__core_load_u32le(d + s + 4);
    in->major = sv__core_load_u32le(d + s + 8);
    in->minor = sv__core_load_u32le(d + s + 12);
    in->patch = sv__core_load_u32le(d + s + 16);
    uint32_t v = in->format_version;
    if (v < 1 || v > 3)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, PCK_FORMAT, s + 4,
                            "pack format version %u (1: Godot 3.x, 2 and 3: Godot 4.x)", v);
    uint64_t hsize = v == 1 ? 88 : v == 2 ? 100 : 104;
    if (avail < hsize)
        return sv_error_set(err, SV_ERR_TRUNCATED, PCK_FORMAT, p->info.pck_end,
                            "format %u header cut off: it needs %llu bytes, %llu are there", v,
                            (unsigned long long)hsize, (unsigned long long)avail);
    size_t res_at = v == 1 ? 20 : v == 2 ? 32 : 40;
    for (int i = 0; i < 16; i++) in->reserved[i] = sv__core_load_u32le(d + s + res_at + 4 * i);
    if (v == 1) {
        p->dir_start = s + 84;
        return SV_OK;
    }
    in->pack_flags = sv__core_load_u32le(d + s + 20);
    in->file_base = sv__core_load_u64le(d + s + 24);
    if (in->pack_flags & SV_GODOT_PCK_SPARSE_BUNDLE)
        return sv_error_set(err, SV_ERR_UNSUPPORTED, PCK_FORMAT, s + 20,
                            "sparse bundle pack (flag 4): its members are separate files beside "
                            "it");
    if (v == 2) {
        p->dir_start = s + 96;
    } else {
        in->dir_offset = sv__core_load_u64le(d + s + 32);
        if (in->dir_offset > avail - 4 || in->dir_offset < hsize)
            return sv_error_set(err, SV_ERR_RANGE, PCK_FORMAT, s + 32,
                                "directory offset %llu is outside the pack's %llu bytes (after "
                                "its %llu-byte header)",
                                (unsigned long long)in->dir_offset, (unsigned long long)avail,
                                (unsigned long long)hsize);
        p->dir_start = s + in->dir_offset;
    }
    return SV_OK;
}

/* The absolute file offset of an entry's data. */
static bool data_offset(const sv_godot_pck *p, uint64_t off, uint64_t *abs)
{
    const sv_godot_pck_info *in = &p->info;
    uint64_t base = 0;
    if (in->format_version >= 2) {
        base = in->file_base;
        if (in->format_version == 3 || (in->pack_flags & SV_GODOT_PCK_REL_FILEBASE)) {
            if (base > UINT64_MAX - in->pck_start) return false;
            base += in->pck_start;
        }
    }
    if (off > UINT64_MAX - base) return false;
    *abs = base + off;
    return true;
}

/* The directory entries: from the file, or from the decrypted block. */
static sv_status read_entries(sv_godot_pck *p, const uint8_t *e, size_t elen, uint64_t ebase,
                              sv_error *err)
{
    size_t count = p->count, at = 0, names_len = 0;
    size_t fixed = p->info.format_version == 1 ? 36 : 40;
    /* first pass: sizes, so names get one allocation */
    for (size_t i = 0; i < count; i++) {
        if (elen - at < 4)
            return fail(err, SV_ERR_TRUNCATED, ebase + elen, i, NULL,
                        "directory cut off before the entry");
        uint32_t pl = sv__core_load_u32le(e + at);
        if (pl > elen - at - 4 || elen - at - 4 - pl < fixed - 4)
            return fail(err, SV_ERR_TRUNCATED, ebase + at, i, NULL,
                        "directory cut off: the path length and the entry run past its end");
        names_len += (size_t)pl + 1;
        at += 4 + (size_t)pl + fixed - 4;
    }
    p->names = p->alloc->malloc(p->alloc->ctx, names_len ? names_len : 1);
    p->fields = p->alloc->malloc(p->alloc->ctx, count ? count * sizeof *p->fields : 1);
    if (!p->names || !p->fields)
        return sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory");
    p->names_len = names_len ? names_len : 1;
    at = 0;
    size_t np = 0;
    for (size_t i = 0; i < count; i++) {
        sv_godot_pck_member *m = &p->members[i];
        m->entry_offset = ebase + at;
        uint32_t pl = sv__core_load_u32le(e + at);
        const uint8_t *field = e + at + 4;
        p->fields[i] = field;
        m->field_len = pl;
        const uint8_t *nul = memchr(field, 0, pl);
        size_t n = nul ? (size_t)(nul - field) : pl;
        for (size_t k = n; k < pl; k++)
            if (field[k])
                return fail(err, SV_ERR_REFUSED, ebase + at + 4 + k, i, NULL,
                            "bytes after a NUL inside the path");
        char *name = p->names + np;
        memcpy(name, field, n);
        name[n] = 0;
        np += n + 1;
        m->path = name;
        m->path_len = n;
        m->name = strncmp(name, "res://", 6) ? name : name + 6;
        const char *why;
        if (!gd_pck_name_ok(m->name, n - (size_t)(m->name - name), &why))
            return fail(err, SV_ERR_REFUSED, ebase + at + 4, i, name, why);
        const uint8_t *q = field + pl;
        m->offset = sv__core_load_u64le(q);
        m->size = sv__core_load_u64le(q + 8);
        memcpy(m->md5, q + 16, 16);
        m->flags = p->info.format_version == 1 ? 0 : sv__core_load_u32le(q + 32);
        at += 4 + (size_t)pl + fixed - 4;
        uint64_t eat = ebase + (uint64_t)(q - e);
        if (m->flags & ~7u)
            return fail(err, SV_ERR_UNSUPPORTED, eat + 32, i, name, "unknown file flags");
        if (!data_offset(p, m->offset, &m->data_offset))
            return fail(err, SV_ERR_RANGE, eat, i, name, "data offset overflows");
        if (m->flags & SV_GODOT_PCK_FILE_REMOVAL) {
            m->stored_len = 0;
            continue;
        }
        if (m->flags & SV_GODOT_PCK_FILE_ENCRYPTED) {
            if (m->size > UINT64_MAX - 56)
                return fail(err, SV_ERR_RANGE, eat + 8, i, name, "size too large");
            m->stored_len = 40 + ((m->size + 15) & ~(uint64_t)15);
        } else {
            m->stored_len = m->size;
        }
        if (m->data_offset > p->len || m->stored_len > p->len - m->data_offset) {
            char why2[160];
            snprintf(why2, sizeof why2,
                     "data at offset %llu, %llu bytes, runs past the end of the file (%zu "
                     "bytes)",
                     (unsigned long long)m->data_offset, (unsigned long long)m->stored_len, p->len);
            return fail(err, SV_ERR_TRUNCATED, eat, i, name, why2);
        }
    }
    if (p->dir_encrypted) {
        if (elen - at > sizeof p->dir_pad)
            return sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, ebase + at,
                                "encrypted directory: %zu bytes after the last entry", elen - at);
        p->dir_pad_len = elen - at;
        if (elen > at) memcpy(p->dir_pad, e + at, elen - at);
    } else {
        p->dir_end = ebase + at;
    }
    return SV_OK;
}

typedef struct span {
    uint64_t start, len;
    size_t index;
} span;

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

static int name_cmp(const void *a, const void *b)
{
    const sv_godot_pck_member *x = *(const sv_godot_pck_member *const *)a;
    const sv_godot_pck_member *y = *(const sv_godot_pck_member *const *)b;
    return strcmp(x->name, y->name);
}

/* No path twice, no two non-empty data ranges overlapping. */
static sv_status check_unique(sv_godot_pck *p, sv_error *err)
{
    size_t n = p->count;
    if (n < 2) return SV_OK;
    size_t bytes = n * (sizeof(span) > sizeof(void *) ? sizeof(span) : sizeof(void *));
    void *tmp = p->alloc->malloc(p->alloc->ctx, bytes);
    if (!tmp) return sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory");
    sv_status st = SV_OK;
    const sv_godot_pck_member **byname = tmp;
    for (size_t i = 0; i < n; i++) byname[i] = &p->members[i];
    qsort(byname, n, sizeof *byname, name_cmp);
    for (size_t i = 1; i < n && st == SV_OK; i++)
        if (!strcmp(byname[i]->name, byname[i - 1]->name))
            st =
                sv_error_set(err, SV_ERR_REFUSED, PCK_FORMAT, byname[i]->entry_offset,
                             "entry '%.100s': the path is in the directory twice", byname[i]->path);
    span *sp = tmp;
    size_t k = 0;
    for (size_t i = 0; i < n && st == SV_OK; i++)
        if (p->members[i].stored_len)
            sp[k++] = (span){p->members[i].data_offset, p->members[i].stored_len, i};
    if (st == SV_OK) qsort(sp, k, sizeof *sp, span_cmp);
    for (size_t i = 1; i < k && st == SV_OK; i++)
        if (sp[i].start < sp[i - 1].start + sp[i - 1].len)
            st = sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, p->members[sp[i].index].entry_offset,
                              "entry %zu '%.100s': its data overlaps that of '%.100s'", sp[i].index,
                              p->members[sp[i].index].path, p->members[sp[i - 1].index].path);
    p->alloc->free(p->alloc->ctx, tmp, bytes);
    return st;
}

static sv_status read_directory(sv_godot_pck *p, sv_error *err)
{
    const uint8_t *d = p->data;
    uint64_t at = p->dir_start, end = p->info.pck_end;
    if (end - at < 4 || at > end)
        return sv_error_set(err, SV_ERR_TRUNCATED, PCK_FORMAT, end, "directory cut off");
    uint32_t count = sv__core_load_u32le(d + at);
    at += 4;
    p->info.count = count;
    size_t fixed = p->info.format_version == 1 ? 36 : 40;
    p->dir_encrypted =
        p->info.format_version >= 2 && (p->info.pack_flags & SV_GODOT_PCK_DIR_ENCRYPTED);
    const uint8_t *e = d + at;
    size_t elen = (size_t)(end - at);
    uint64_t ebase = at;
    if (p->dir_encrypted) {
        gd_gdec g;
        sv_status st = gd_gdec_parse(d + at, elen, false, 4, PCK_FORMAT, at, &g, err);
        if (st != SV_OK) return st;
        if (!p->have_key)
            return sv_error_set(err, SV_ERR_REFUSED, PCK_FORMAT, at,
                                "the directory is encrypted: a key is needed (--key HEX, 64 hex "
                                "digits)");
        memcpy(p->dir_iv, g.iv, 16);
        if (count > g.length / fixed)
            return sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, at - 4,
                                "file count %u is more than the %llu-byte encrypted directory "
                                "holds",
                                count, (unsigned long long)g.length);
        sv_buf b;
        sv_buf_init(&b, p->alloc);
        st = gd_gdec_decrypt(&g, p->key, 0, PCK_FORMAT, at, &b, err);
        if (st != SV_OK) {
            sv_buf_free(&b);
            return st;
        }
        p->dir_plain = b.data;
        p->dir_plain_cap = b.cap;
        e = b.data;
        elen = (size_t)b.len;
        /* entries must fill exactly length; the rest is the padding */
        p->dir_end = at + g.total;
        ebase = 0;
    } else if (count > elen / fixed) {
        return sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, at - 4,
                            "file count %u is more than the %zu bytes after it can hold (%zu "
                            "bytes an entry at least)",
                            count, elen, fixed);
    }
    p->count = count;
    p->members = p->alloc->malloc(p->alloc->ctx, count ? count * sizeof *p->members : 1);
    if (!p->members) return sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory");
    memset(p->members, 0, count ? count * sizeof *p->members : 1);
    sv_status st = read_entries(p, e, elen, ebase, err);
    if (st == SV_OK && p->dir_encrypted) {
        gd_gdec g;
        (void)gd_gdec_parse(d + at, (size_t)(end - at), false, 4, PCK_FORMAT, at, &g, err);
        if (elen - p->dir_pad_len != g.length)
            st = sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, at,
                              "encrypted directory: its entries take %zu bytes, its length "
                              "says %llu",
                              elen - p->dir_pad_len, (unsigned long long)g.length);
    }
    if (st == SV_OK) st = check_unique(p, err);
    return st;
}

sv_status sv_godot_pck_open(const uint8_t *data, size_t len, const uint8_t *key,
                            const sv_alloc *alloc, sv_godot_pck **out, sv_error *err)
{
    *out = NULL;
    const sv_alloc *a = alloc ? alloc : sv_alloc_libc();
    sv_godot_pck *p = a->malloc(a->ctx, sizeof *p);
    if (!p) return sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory");
    memset(p, 0, sizeof *p);
    p->alloc = a;
    p->data = data;
    p->len = len;
    p->info.file_size = len;
    if (key) {
        p->have_key = true;
        memcpy(p->key, key, 32);
    }
    sv_status st = locate(p, err);
    if (st == SV_OK) st = read_header(p, err);
    if (st == SV_OK) st = read_directory(p, err);
    if (st != SV_OK) {
        sv_godot_pck_close(p);
        return st;
    }
    *out = p;
    return SV_OK;
}

void sv_godot_pck_close(sv_godot_pck *p)
{
    if (!p) return;
    const sv_alloc *a = p->alloc;
    if (p->dir_plain) a->free(a->ctx, p->dir_plain, p->dir_plain_cap);
    if (p->names) a->free(a->ctx, p->names, p->names_len);
    if (p->fields) a->free(a->ctx, (void *)p->fields, p->count ? p->count * sizeof *p->fields : 1);
    if (p->members) a->free(a->ctx, p->members, p->count ? p->count * sizeof *p->members : 1);
    memset(p->key, 0, sizeof p->key);
    a->free(a->ctx, p, sizeof *p);
}

sv_godot_pck_info sv_godot_pck_get_info(const sv_godot_pck *p)
{
    return p->info;
}
size_t sv_godot_pck_count(const sv_godot_pck *p)
{
    return p->count;
}

bool sv_godot_pck_member_at(const sv_godot_pck *p, size_t i, sv_godot_pck_member *m)
{
    if (i >= p->count) return false;
    *m = p->members[i];
    return true;
}

sv_status sv_godot_pck_find(const sv_godot_pck *p, const char *name, size_t *index)
{
    const char *n = strncmp(name, "res://", 6) ? name : name + 6;
    for (size_t i = 0; i < p->count; i++)
        if (!strcmp(p->members[i].name, n)) {
            *index = i;
            return SV_OK;
        }
    return SV_ERR_NOT_FOUND;
}

const uint8_t *sv_godot_pck_stored(const sv_godot_pck *p, size_t i, size_t *len)
{
    if (i >= p->count) return NULL;
    *len = (size_t)p->members[i].stored_len;
    return p->data + p->members[i].data_offset;
}

sv_status sv_godot_pck_read(const sv_godot_pck *p, size_t i, const sv_limits *lim, bool verify,
                            sv_buf *out, sv_error *err)
{
    if (i >= p->count) return sv_error_set(err, SV_ERR_USAGE, PCK_FORMAT, 0, "no member %zu", i);
    const sv_godot_pck_member *m = &p->members[i];
    if (m->flags & SV_GODOT_PCK_FILE_REMOVAL) /* its size is not backed by any bytes */
        return sv_error_set(err, SV_ERR_REFUSED, PCK_FORMAT, m->entry_offset,
                            "member '%.100s' is a removal entry (a patch deletes this path): it "
                            "has no content",
                            m->path);
    sv_limits l = sv_limits_resolve(lim);
    if (m->stored_len > l.max_alloc)
        return sv_error_set(err, SV_ERR_LIMIT, PCK_FORMAT, m->data_offset,
                            "member '%.100s': %llu bytes are over --max-alloc (%llu)", m->path,
                            (unsigned long long)m->stored_len, (unsigned long long)l.max_alloc);
    const uint8_t *s = p->data + m->data_offset;
    if (m->flags & SV_GODOT_PCK_FILE_ENCRYPTED) {
        if (!p->have_key)
            return sv_error_set(err, SV_ERR_REFUSED, PCK_FORMAT, m->data_offset,
                                "member '%.100s' is encrypted: a key is needed (--key HEX, 64 "
                                "hex digits)",
                                m->path);
        gd_gdec g;
        sv_status st =
            gd_gdec_parse(s, (size_t)m->stored_len, false, 4, PCK_FORMAT, m->data_offset, &g, err);
        if (st != SV_OK) return st;
        if (g.length != m->size)
            return sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, m->data_offset + 16,
                                "member '%.100s': the encrypted block holds %llu bytes, the "
                                "directory says %llu",
                                m->path, (unsigned long long)g.length, (unsigned long long)m->size);
        size_t before = out->len;
        st = gd_gdec_decrypt(&g, p->key, l.max_alloc, PCK_FORMAT, m->data_offset, out, err);
        if (st != SV_OK) return st;
        out->len = before + (size_t)m->size; /* the padding is not content */
        if (verify && memcmp(g.md5, m->md5, 16)) {
            static const uint8_t zero[16];
            if (memcmp(m->md5, zero, 16))
                return sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, m->entry_offset,
                                    "member '%.100s': MD5 mismatch between the directory and "
                                    "the encrypted block",
                                    m->path);
        }
        return SV_OK;
    }
    size_t before = out->len;
    sv_buf_append(out, s, (size_t)m->size);
    if (!sv_buf_ok(out)) return sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory");
    static const uint8_t zero[16];
    if (verify && memcmp(m->md5, zero, 16)) {
        uint8_t md5[16];
        gd_md5(m->size ? out->data + before : NULL, (size_t)m->size, md5);
        if (memcmp(md5, m->md5, 16))
            return sv_error_set(err, SV_ERR_SYNTAX, PCK_FORMAT, m->data_offset,
                                "member '%.100s': its MD5 does not match the directory's "
                                "(damaged file)",
                                m->path);
    }
    return SV_OK;
}

void sv_godot_md5(const uint8_t *p, size_t n, uint8_t out[16])
{
    gd_md5(p, n, out);
}
