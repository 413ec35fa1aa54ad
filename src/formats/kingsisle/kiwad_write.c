/* KIWAD archives: writing a new archive as KingsIsle's writer lays it out,
 * and rewriting an existing one with some members changed while every other
 * byte stays where it was. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compress/zlib_adapter.h"
#include "core/opts_tables.h"
#include "formats/kingsisle/kiwad_internal.h"

sv_status kiwad_store(const char *name, const uint8_t *data, size_t len, bool compress, int level,
                      sv_buf *out, sv_error *err)
{
    if (len > UINT32_MAX)
        return sv_error_set(err, SV_ERR_RANGE, KIWAD_FORMAT, SV_ERROR_NO_OFFSET,
                            "member '%.100s' has %zu bytes, more than a u32 holds", name, len);
    if (!compress)
        sv_buf_append(out, data, len);
    else if (!sv__compress_zlib_deflate(data, len, level ? level : 9, SV_ZLIB_WRAPPED, out))
        out->failed = true;
    if (!sv_buf_ok(out))
        return sv_error_set(err, SV_ERR_NOMEM, KIWAD_FORMAT, SV_ERROR_NO_OFFSET,
                            "out of memory for member '%.100s'", name);
    return SV_OK;
}

/* One table entry with its final field values. */
typedef struct plan {
    const char *name;
    size_t name_len;
    uint32_t size, csize, crc;
    uint8_t flag;
    uint64_t offset;
    const uint8_t *stored; /* stored bytes (into the original or blob) */
    size_t stored_len;
    size_t blob_at; /* where stored bytes lie in the blob, or SIZE_MAX */
    bool added;     /* repack: not in the original */
} plan;

/* Zeroed arrays from the output's allocator, so a counting or failing
 * allocator sees the writer's memory too. */
static void *zalloc(const sv_alloc *a, size_t n, size_t size)
{
    if (!n) n = 1;
    if (n > SIZE_MAX / size) return NULL;
    void *p = a->malloc(a->ctx, n * size);
    if (p) memset(p, 0, n * size);
    return p;
}

static void zfree(const sv_alloc *a, void *p, size_t n, size_t size)
{
    if (p) a->free(a->ctx, p, (n ? n : 1) * size);
}

static int plan_cmp(const void *a, const void *b)
{
    const plan *x = a, *y = b;
    return kiwad_name_cmp(x->name, x->name_len, y->name, y->name_len);
}

static size_t header_len(uint32_t version)
{
    return version >= 2 ? 14 : 13;
}

static void put_header(sv_buf *out, uint32_t version, uint8_t flags, uint32_t count)
{
    uint8_t h[14];
    memcpy(h, "KIWAD", 5);
    kiwad_put_u32(h + 5, version);
    kiwad_put_u32(h + 9, count);
    h[13] = flags;
    sv_buf_append(out, h, header_len(version));
}

static void put_entry(sv_buf *out, const plan *p)
{
    uint8_t e[KIWAD_ENTRY_FIXED];
    kiwad_put_u32(e, (uint32_t)p->offset);
    kiwad_put_u32(e + 4, p->size);
    kiwad_put_u32(e + 8, p->csize);
    e[12] = p->flag;
    kiwad_put_u32(e + 13, p->crc);
    kiwad_put_u32(e + 17, (uint32_t)(p->name_len + 1));
    sv_buf_append(out, e, sizeof e);
    sv_buf_append(out, p->name, p->name_len);
    sv_buf_putc(out, 0);
}

static sv_status check_name(const char *name, sv_error *err)
{
    const char *why;
    if (!sv_kiwad_name_ok(name, strlen(name), &why))
        return sv_error_set(err, SV_ERR_REFUSED, KIWAD_FORMAT, SV_ERROR_NO_OFFSET,
                            "member '%.100s': %s", name, why);
    return SV_OK;
}

/* Compresses (or stores) entry e into blob and fills p's fields. */
static sv_status plan_new(plan *p, const sv_kiwad_entry *e, int level, sv_buf *blob, sv_error *err)
{
    memset(p, 0, sizeof *p);
    sv_status st = check_name(e->name, err);
    if (st != SV_OK) return st;
    bool raw = sv_kiwad_stores_raw(e->name);
    size_t at = blob->len;
    st = kiwad_store(e->name, e->data, e->len, !raw, level, blob, err);
    if (st != SV_OK) return st;
    p->name = e->name;
    p->name_len = strlen(e->name);
    p->size = (uint32_t)e->len;
    p->stored_len = blob->len - at;
    p->blob_at = at;
    p->flag = raw ? 0 : 1;
    p->csize = raw ? KIWAD_STORED_CSIZE : (uint32_t)p->stored_len;
    p->crc = sv_kiwad_crc(0, blob->data + at, p->stored_len);
    return SV_OK;
}

static uint64_t table_len(const plan *ps, size_t n)
{
    uint64_t t = 0;
    for (size_t i = 0; i < n; i++) t += KIWAD_ENTRY_FIXED + ps[i].name_len + 1;
    return t;
}

static sv_status too_large(sv_error *err)
{
    return sv_error_set(err, SV_ERR_RANGE, KIWAD_FORMAT, SV_ERROR_NO_OFFSET,
                        "archive too large: offsets must fit in 32 bits");
}

SV_OPTS_TABLE(sv__opts_kiwad_write, sv_kiwad_write_opts, SV_OPTS_END(sv_kiwad_write_opts, version),
              SV_OPTS_END(sv_kiwad_write_opts, flags), SV_OPTS_END(sv_kiwad_write_opts, level));

void sv_kiwad_write_opts_init(sv_kiwad_write_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->version = 2;
    o->level = 9;
}

sv_status sv_kiwad_write(const sv_kiwad_entry *entries, size_t count,
                         const sv_kiwad_write_opts *opts, sv_buf *out, sv_error *err)
{
    sv_kiwad_write_opts o;
    sv_kiwad_write_opts_init(&o);
    sv_status ost = sv__core_opts_read(&sv__opts_kiwad_write, &o, opts, KIWAD_FORMAT, err);
    if (ost != SV_OK) return ost;
    if (!o.version) o.version = 2;
    if (o.version > 2 || count > UINT32_MAX || o.level < 0 || o.level > 9)
        return sv_error_set(err, SV_ERR_USAGE, KIWAD_FORMAT, SV_ERROR_NO_OFFSET,
                            "version must be 1 or 2 and level 1..9");
    const sv_alloc *al = out->alloc;
    plan *ps = zalloc(al, count, sizeof *ps);
    if (!ps) return sv_error_set(err, SV_ERR_NOMEM, KIWAD_FORMAT, 0, "out of memory");
    sv_buf blob;
    sv_buf_init(&blob, out->alloc);
    sv_status st = SV_OK;
    for (size_t i = 0; i < count && st == SV_OK; i++)
        st = plan_new(&ps[i], &entries[i], o.level, &blob, err);
    if (st == SV_OK) {
        qsort(ps, count, sizeof *ps, plan_cmp);
        for (size_t i = 1; i < count && st == SV_OK; i++)
            if (!plan_cmp(&ps[i - 1], &ps[i]))
                st = sv_error_set(err, SV_ERR_REFUSED, KIWAD_FORMAT, SV_ERROR_NO_OFFSET,
                                  "duplicate member '%.100s'", ps[i].name);
    }
    if (st == SV_OK) {
        /* data in table order, right after the table */
        uint64_t at = header_len(o.version) + table_len(ps, count);
        for (size_t i = 0; i < count; i++) {
            ps[i].offset = at;
            at += ps[i].stored_len;
        }
        if (at - (count ? ps[count - 1].stored_len : 0) > UINT32_MAX) st = too_large(err);
    }
    if (st == SV_OK) {
        put_header(out, o.version, o.flags, (uint32_t)count);
        for (size_t i = 0; i < count; i++) put_entry(out, &ps[i]);
        for (size_t i = 0; i < count; i++)
            sv_buf_append(out, blob.data + ps[i].blob_at, ps[i].stored_len);
        if (!sv_buf_ok(out)) st = sv_error_set(err, SV_ERR_NOMEM, KIWAD_FORMAT, 0, "out of memory");
    }
    sv_buf_free(&blob);
    zfree(al, ps, count, sizeof *ps);
    return st;
}

/* ---- repack ------------------------------------------------------------- */

typedef struct span {
    uint64_t start, end; /* the original range */
    size_t plan;         /* the plan entry whose bytes replace it */
    int64_t growth;      /* new length minus old */
} span;

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

sv_status sv_kiwad_repack(const sv_kiwad *orig, const sv_kiwad_change *changes,
                          const sv_kiwad_entry *added, size_t nadded, int level, sv_buf *out,
                          sv_error *err)
{
    size_t n = orig->info.count, total = n + nadded;
    const sv_alloc *al = out->alloc;
    plan *ps = zalloc(al, total, sizeof *ps);
    span *sp = zalloc(al, n, sizeof *sp);
    plan *adds = zalloc(al, nadded, sizeof *adds);
    sv_buf blob;
    sv_buf_init(&blob, out->alloc);
    sv_status st = SV_OK;
    if (!ps || !sp || !adds) st = sv_error_set(err, SV_ERR_NOMEM, KIWAD_FORMAT, 0, "out of memory");
    /* the added members, sorted, each with its name checked */
    for (size_t i = 0; i < nadded && st == SV_OK; i++) {
        size_t dummy;
        if (sv_kiwad_find(orig, added[i].name, &dummy) == SV_OK)
            st = sv_error_set(err, SV_ERR_USAGE, KIWAD_FORMAT, SV_ERROR_NO_OFFSET,
                              "added member '%.100s' is already in the archive", added[i].name);
        else
            st = plan_new(&adds[i], &added[i], level, &blob, err);
        adds[i].added = true;
    }
    if (st == SV_OK) qsort(adds, nadded, sizeof *adds, plan_cmp);
    for (size_t i = 1; i < nadded && st == SV_OK; i++)
        if (!plan_cmp(&adds[i - 1], &adds[i]))
            st = sv_error_set(err, SV_ERR_REFUSED, KIWAD_FORMAT, SV_ERROR_NO_OFFSET,
                              "duplicate member '%.100s'", adds[i].name);
    /* the original members in table order, each added one before the first
     * original name above it (so a sorted table stays sorted) */
    size_t k = 0, a = 0, nspan = 0;
    for (size_t i = 0; i <= n && st == SV_OK; i++) {
        sv_kiwad_member m;
        bool have = i < n && sv_kiwad_member_at(orig, i, &m);
        while (a < nadded &&
               (!have || kiwad_name_cmp(adds[a].name, adds[a].name_len, m.name, m.name_len) < 0))
            ps[k++] = adds[a++];
        if (!have) break;
        plan *p = &ps[k];
        p->name = m.name;
        p->name_len = m.name_len;
        p->flag = m.compressed_flag;
        p->offset = m.offset;
        p->blob_at = SIZE_MAX;
        if (changes[i].keep) {
            p->size = m.size;
            p->csize = m.csize;
            p->crc = m.crc;
            p->stored = sv_kiwad_stored(orig, i, &p->stored_len);
        } else if (m.offset < orig->info.table_end) {
            st = sv_error_set(err, SV_ERR_REFUSED, KIWAD_FORMAT, m.entry_offset,
                              "cannot replace '%.100s': its data lies in the header or table",
                              m.name);
            break;
        } else {
            size_t at = blob.len;
            st = kiwad_store(m.name, changes[i].data, changes[i].len, m.compressed, level, &blob,
                             err);
            if (st != SV_OK) break;
            p->size = (uint32_t)changes[i].len;
            p->stored_len = blob.len - at;
            p->blob_at = at;
            p->csize = m.compressed ? (uint32_t)p->stored_len : m.csize;
            p->crc = sv_kiwad_crc(0, blob.data + at, p->stored_len);
            sp[nspan++] = (span){m.offset, (uint64_t)m.offset + m.stored_len, k, 0};
        }
        k++;
    }
    /* A replaced range must overlap no other, so that the bytes around it
     * can be copied unchanged. */
    if (st == SV_OK) qsort(sp, nspan, sizeof *sp, span_cmp);
    for (size_t j = 0; j < nspan && st == SV_OK; j++) {
        for (size_t i = 0; i < n; i++) {
            sv_kiwad_member m;
            sv_kiwad_member_at(orig, i, &m);
            uint64_t s = m.offset, e = s + m.stored_len;
            bool same = s == sp[j].start && e == sp[j].end;
            if (!same && e > s && s < sp[j].end && e > sp[j].start) {
                st = sv_error_set(err, SV_ERR_REFUSED, KIWAD_FORMAT, m.entry_offset,
                                  "cannot replace '%.80s': its data overlaps that of '%.60s'",
                                  ps[sp[j].plan].name, m.name);
                break;
            }
        }
    }
    if (st == SV_OK) {
        /* New offsets follow from the order the data region is written in:
         * the original bytes from the table's end to the end of the file,
         * each replaced range swapped for its new bytes (spans in offset
         * order), then the added members. So an original member moves by
         * the table's growth plus the growth of every replaced range at or
         * before it. */
        uint64_t old_table = orig->info.table_end;
        int64_t shift =
            (int64_t)(header_len(orig->info.version) + table_len(ps, total)) - (int64_t)old_table;
        for (size_t j = 0; j < nspan; j++) {
            plan *p = &ps[sp[j].plan];
            p->offset = (uint64_t)((int64_t)sp[j].start + shift);
            sp[j].growth = (int64_t)p->stored_len - (int64_t)(sp[j].end - sp[j].start);
            shift += sp[j].growth;
        }
        for (size_t i = 0; i < total; i++) {
            plan *p = &ps[i];
            if (p->added || p->blob_at != SIZE_MAX) continue; /* placed elsewhere */
            int64_t s = (int64_t)(header_len(orig->info.version) + table_len(ps, total)) -
                        (int64_t)old_table;
            for (size_t j = 0; j < nspan && sp[j].start <= p->offset; j++) s += sp[j].growth;
            p->offset = (uint64_t)((int64_t)p->offset + s);
        }
        uint64_t at = (uint64_t)((int64_t)orig->len + shift);
        for (size_t i = 0; i < total; i++) {
            if (!ps[i].added) continue;
            ps[i].offset = at;
            at += ps[i].stored_len;
        }
        for (size_t i = 0; i < total && st == SV_OK; i++)
            if (ps[i].offset > UINT32_MAX) st = too_large(err);
        if (st == SV_OK) {
            put_header(out, orig->info.version,
                       (uint8_t)(orig->info.flags < 0 ? 0 : orig->info.flags), (uint32_t)total);
            for (size_t i = 0; i < total; i++) put_entry(out, &ps[i]);
            uint64_t pos = old_table;
            for (size_t j = 0; j < nspan; j++) {
                if (sp[j].start > pos)
                    sv_buf_append(out, orig->data + pos, (size_t)(sp[j].start - pos));
                const plan *p = &ps[sp[j].plan];
                sv_buf_append(out, blob.data + p->blob_at, p->stored_len);
                if (sp[j].end > pos) pos = sp[j].end;
            }
            sv_buf_append(out, orig->data + pos, (size_t)(orig->len - pos));
            for (size_t i = 0; i < total; i++)
                if (ps[i].added) sv_buf_append(out, blob.data + ps[i].blob_at, ps[i].stored_len);
            if (!sv_buf_ok(out))
                st = sv_error_set(err, SV_ERR_NOMEM, KIWAD_FORMAT, 0, "out of memory");
        }
    }
    sv_buf_free(&blob);
    zfree(al, ps, total, sizeof *ps);
    zfree(al, sp, n, sizeof *sp);
    zfree(al, adds, nadded, sizeof *adds);
    return st;
}
