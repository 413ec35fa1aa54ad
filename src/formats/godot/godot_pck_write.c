/* Writing Godot PCK archives (serval/godot_pck.h): a new pack as PCKPacker
 * lays it out, and repack, which keeps an original's layout. */
#include <stdlib.h>
#include <string.h>

#include "core/opts_tables.h"
#include "formats/godot/godot_crypto.h"
#include "formats/godot/godot_gdec.h"
#include "formats/godot/godot_pck_internal.h"
#include "formats/godot/godot_pck_layout.h"

/* The path fields, one buffer: "res://name" (format 1, as 3.x PCKPacker
 * stores it) or name NUL-padded to a multiple of 4 (4.x). */
static sv_status make_field(sv_buf *fields, const char *name, bool res_prefix, bool pad4,
                            size_t *at, uint32_t *len, sv_error *err)
{
    size_t n = strlen(name);
    const char *why;
    if (!gd_pck_name_ok(name, n, &why))
        return sv_error_set(err, SV_ERR_REFUSED, PCK_FORMAT, 0, "member '%.100s': %s", name, why);
    *at = fields->len;
    if (res_prefix) sv_buf_append(fields, "res://", 6);
    sv_buf_append(fields, name, n);
    size_t flen = fields->len - *at;
    if (pad4)
        while (flen % 4) sv_buf_putc(fields, 0), flen++;
    if (flen > UINT32_MAX) return sv_error_set(err, SV_ERR_RANGE, PCK_FORMAT, 0, "path too long");
    *len = (uint32_t)flen;
    return sv_buf_ok(fields) ? SV_OK
                             : sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory");
}

SV_OPTS_TABLE(sv__opts_godot_pck_write, sv_godot_pck_write_opts,
              SV_OPTS_END(sv_godot_pck_write_opts, format_version),
              SV_OPTS_END(sv_godot_pck_write_opts, major),
              SV_OPTS_END(sv_godot_pck_write_opts, minor),
              SV_OPTS_END(sv_godot_pck_write_opts, patch),
              SV_OPTS_END(sv_godot_pck_write_opts, alignment));

void sv_godot_pck_write_opts_init(sv_godot_pck_write_opts *o)
{
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->format_version = 3;
}

sv_status sv_godot_pck_write(const sv_godot_pck_entry *entries, size_t count,
                             const sv_godot_pck_write_opts *opts, sv_buf *out, sv_error *err)
{
    sv_godot_pck_write_opts o;
    sv_godot_pck_write_opts_init(&o);
    sv_status ost = sv__core_opts_read(&sv__opts_godot_pck_write, &o, opts, PCK_FORMAT, err);
    if (ost != SV_OK) return ost;
    uint32_t v = o.format_version;
    if (v < 1 || v > 3)
        return sv_error_set(err, SV_ERR_USAGE, PCK_FORMAT, 0, "pack format version %u (1, 2 or 3)",
                            v);
    if (count > UINT32_MAX)
        return sv_error_set(err, SV_ERR_RANGE, PCK_FORMAT, 0, "too many members");
    if (o.alignment > (1u << 20))
        return sv_error_set(err, SV_ERR_USAGE, PCK_FORMAT, 0, "alignment %u is over 1 MiB",
                            o.alignment);
    pck_layout l;
    memset(&l, 0, sizeof l);
    l.version = v;
    l.major = o.major;
    l.minor = o.minor;
    l.patch = o.patch;
    l.alignment = o.alignment ? o.alignment : (v == 1 ? 0 : 32);
    l.pack_flags = v == 3 ? SV_GODOT_PCK_REL_FILEBASE : 0;
    l.count = count;
    pck_out_member *m = calloc(count ? count : 1, sizeof *m);
    size_t *order = calloc(count ? count : 1, sizeof *order);
    size_t *at = calloc(count ? count : 1, sizeof *at);
    sv_buf fields;
    sv_buf_init(&fields, NULL);
    sv_status st = (!m || !order || !at)
                       ? sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory")
                       : SV_OK;
    for (size_t i = 0; st == SV_OK && i < count; i++) {
        st = make_field(&fields, entries[i].name, v == 1, v >= 2, &at[i], &m[i].field_len, err);
        m[i].size = entries[i].len;
        m[i].stored = entries[i].data;
        m[i].stored_len = entries[i].len;
        if (v >= 2) gd_md5(entries[i].data, entries[i].len, m[i].md5); /* 3.x: zeros */
        order[i] = i;
    }
    for (size_t i = 0; st == SV_OK && i < count; i++) m[i].field = fields.data + at[i];
    l.m = m;
    l.dir_order = order;
    if (st == SV_OK) st = gd_pck_emit(&l, out, err);
    sv_buf_free(&fields);
    free(m);
    free(order);
    free(at);
    return st;
}

/* ---- repack ------------------------------------------------------------- */

static uint64_t pad_to(uint64_t pos, uint64_t a)
{
    return a > 1 ? (a - pos % a) % a : 0;
}

typedef struct by_pos {
    uint64_t pos, len;
    size_t index;
} by_pos;

/* Data order; at one position, empty members first (they take no room, so
 * the member with data there must come last to keep its place). */
static int by_pos_cmp(const void *a, const void *b)
{
    const by_pos *x = a, *y = b;
    if (x->pos != y->pos) return x->pos < y->pos ? -1 : 1;
    if ((x->len == 0) != (y->len == 0)) return x->len == 0 ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* The largest power of two (up to 64 KiB) that every gap of the original
 * is the padding to. PCKPacker takes any alignment above 0 (4.x:
 * pck_start(path, 48) pads to multiples of 48), so when no power of two
 * explains the gaps, the alignment is the greatest common divisor of the
 * aligned positions (each end plus its gap), provided it is more than the
 * largest gap and within the 1 MiB a new pack allows. 1 when only
 * back-to-back members fit: all gaps zero never suggests an alignment. */
static uint64_t infer_alignment(const pck_layout *l, const uint64_t *ends, const uint64_t *gaps,
                                size_t n)
{
    for (uint64_t a = 65536; a > 1; a /= 2) {
        bool fits = true;
        for (size_t i = 0; i < n && fits; i++) fits = pad_to(ends[i], a) == gaps[i];
        if (fits) return a;
    }
    (void)l;
    uint64_t g = 0, max_gap = 0;
    for (size_t i = 0; i < n; i++) {
        if (gaps[i] > max_gap) max_gap = gaps[i];
        /* a gap the size of a file cannot be padding; also keeps the sum in range */
        if (gaps[i] > (1u << 20) || ends[i] > UINT64_MAX - gaps[i]) return 1;
        g = gcd64(g, ends[i] + gaps[i]);
    }
    return max_gap > 0 && g > max_gap && g <= (1u << 20) ? g : 1;
}

sv_status sv_godot_pck_repack(const sv_godot_pck *o, const sv_godot_pck_change *changes,
                              const sv_godot_pck_entry *added, size_t nadded, sv_buf *out,
                              sv_error *err)
{
    const sv_godot_pck_info *in = &o->info;
    uint64_t ps = in->pck_start;
    size_t n = o->count, total = n + nadded;
    if (total > UINT32_MAX)
        return sv_error_set(err, SV_ERR_RANGE, PCK_FORMAT, 0, "too many members");
    pck_layout l;
    memset(&l, 0, sizeof l);
    l.version = in->format_version;
    l.major = in->major;
    l.minor = in->minor;
    l.patch = in->patch;
    l.pack_flags = in->pack_flags;
    memcpy(l.reserved, in->reserved, sizeof l.reserved);
    l.count = total;
    l.dir_encrypted = o->dir_encrypted;
    l.key = o->key;
    memcpy(l.dir_iv, o->dir_iv, 16);
    l.dir_pad = o->dir_pad;
    l.dir_pad_len = o->dir_pad_len;
    pck_out_member *m = calloc(total ? total : 1, sizeof *m);
    size_t *order = calloc(total ? total : 1, sizeof *order);
    by_pos *bp = calloc(n ? n : 1, sizeof *bp);
    uint64_t *ends = calloc(n + 2, sizeof *ends), *gaps = calloc(n + 2, sizeof *gaps);
    size_t *fat = calloc(nadded ? nadded : 1, sizeof *fat);
    sv_buf enc, fields;
    sv_buf_init(&enc, NULL);
    sv_buf_init(&fields, NULL);
    size_t *enc_at = calloc(n ? n : 1, sizeof *enc_at);
    sv_status st = (!m || !order || !bp || !ends || !gaps || !fat || !enc_at)
                       ? sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory")
                       : SV_OK;
    /* the original's data order and gaps */
    for (size_t i = 0; st == SV_OK && i < n; i++) {
        /* the reader reads an empty member anywhere in the file; a copy
         * keeps data in the pack's order, so it must be inside the pack */
        if (o->members[i].data_offset < ps) {
            st = sv_error_set(err, SV_ERR_UNSUPPORTED, PCK_FORMAT, o->members[i].entry_offset,
                              "repack: member '%.100s' has its data before the start of the pack",
                              o->members[i].path);
            break;
        }
        bp[i] = (by_pos){o->members[i].data_offset - ps, o->members[i].stored_len, i};
    }
    if (st == SV_OK) qsort(bp, n, sizeof *bp, by_pos_cmp);
    /* the reader accepts a directory offset that points before the pack
     * (it only reads there); the layout below subtracts, so refuse it */
    if (st == SV_OK && (o->dir_start < ps || o->dir_end < o->dir_start ||
                        in->pck_end < o->dir_end || (l.version == 3 && o->dir_start - ps < 104)))
        st =
            sv_error_set(err, SV_ERR_UNSUPPORTED, PCK_FORMAT, o->dir_start,
                         "repack: the directory is not between the header and the end of the pack");
    uint64_t dir_rel = o->dir_start - ps, dir_end_rel = o->dir_end - ps;
    uint64_t end_rel = in->pck_end - ps;
    uint64_t data_start = l.version == 3 ? 104 : dir_end_rel;
    uint64_t data_end = l.version == 3 ? dir_rel : end_rel;
    size_t ng = 0;
    uint64_t first = n ? bp[0].pos : data_start;
    if (st == SV_OK && (first < data_start || first > data_end))
        st = sv_error_set(err, SV_ERR_UNSUPPORTED, PCK_FORMAT, first + ps,
                          "repack: member data before the end of the directory or after it "
                          "starts is not a layout this writer keeps");
    if (st == SV_OK) {
        l.head_gap = o->data + ps + data_start;
        l.head_gap_len = first - data_start;
        l.head_gap_kept = true;
        ends[ng] = data_start;
        gaps[ng++] = first - data_start;
        l.fb_delta = 0;
        l.fb_fixed = !n;
        l.fb_value = in->file_base;
        if (l.version >= 2) {
            uint64_t fb = in->file_base;
            bool rel = l.version == 3 || (l.pack_flags & SV_GODOT_PCK_REL_FILEBASE);
            if (!rel) fb = fb >= ps ? fb - ps : 0; /* absolute in the original */
            l.fb_delta = first >= fb ? first - fb : 0;
        }
    }
    for (size_t k = 0; st == SV_OK && k < n; k++) {
        const sv_godot_pck_member *om = &o->members[bp[k].index];
        uint64_t next = k + 1 < n ? bp[k + 1].pos : data_end;
        /* compared without forming pos + stored_len: an offset below the
         * pack start wraps pos near 2^64, and the sum would wrap back */
        if (bp[k].pos > next || om->stored_len > next - bp[k].pos) {
            st = sv_error_set(err, SV_ERR_UNSUPPORTED, PCK_FORMAT, om->entry_offset,
                              "repack: member '%.100s' runs into what follows it", om->path);
            break;
        }
        uint64_t end = bp[k].pos + om->stored_len;
        pck_out_member *d = &m[k];
        d->field = o->fields[bp[k].index];
        d->field_len = om->field_len;
        d->size = om->size;
        memcpy(d->md5, om->md5, 16);
        d->flags = om->flags;
        d->stored = o->data + om->data_offset;
        d->stored_len = om->stored_len;
        d->gap = o->data + ps + end;
        d->gap_len = next - end;
        d->gap_kept = true;
        ends[ng] = end;
        gaps[ng++] = next - end;
        order[bp[k].index] = k;
    }
    if (st == SV_OK && l.version == 3) {
        /* the gap before the directory is the last member's; without
         * members it is all that is between the header and the directory */
        l.dir_gap_kept = true;
        l.dir_gap = n ? NULL : o->data + ps + data_start;
        l.dir_gap_len = n ? 0 : dir_rel - data_start;
        if (!n) l.head_gap_len = 0, ng = 0;
        l.tail = o->data + o->dir_end;
        l.tail_len = in->pck_end - o->dir_end;
    } else if (st == SV_OK && n) {
        /* formats 1, 2: what follows the last member is its gap; keep
         * it as the tail instead, so added members go before it */
        l.tail = m[n - 1].gap;
        l.tail_len = m[n - 1].gap_len;
        m[n - 1].gap_len = 0;
        ng--; /* not a padding */
    } else if (st == SV_OK) {
        l.tail = o->data + ps + data_start;
        l.tail_len = end_rel - data_start;
        l.head_gap_len = 0;
        ng = 0;
    }
    l.alignment = infer_alignment(&l, ends, gaps, ng);
    /* changes: the new content, encrypted again with the member's IV */
    for (size_t k = 0; st == SV_OK && k < n; k++) {
        size_t i = bp[k].index;
        pck_out_member *d = &m[k];
        if (changes && !changes[i].keep) {
            const sv_godot_pck_member *om = &o->members[i];
            static const uint8_t zero[16];
            bool had_md5 = memcmp(om->md5, zero, 16) != 0;
            d->size = changes[i].len;
            if (had_md5)
                gd_md5(changes[i].data, changes[i].len, d->md5);
            else
                memset(d->md5, 0, 16);
            if (om->flags & SV_GODOT_PCK_FILE_ENCRYPTED) {
                if (!o->have_key) {
                    st = sv_error_set(err, SV_ERR_REFUSED, PCK_FORMAT, om->data_offset,
                                      "member '%.100s' is encrypted: a key is needed", om->path);
                    break;
                }
                enc_at[k] = enc.len;
                st = gd_gdec_encrypt(4, false, 0, o->key, o->data + om->data_offset + 24,
                                     changes[i].data, changes[i].len, NULL, 0, PCK_FORMAT, &enc,
                                     err);
                d->stored_len = enc.len - enc_at[k];
                d->stored = NULL; /* set once enc stops moving */
            } else {
                d->stored = changes[i].data;
                d->stored_len = changes[i].len;
            }
        }
    }
    for (size_t k = 0; st == SV_OK && k < n; k++)
        if (changes && !changes[bp[k].index].keep && !m[k].stored)
            m[k].stored = enc.data + enc_at[k];
    /* a member that changed size, and everything after it, gets the
     * alignment's padding; a gap the alignment does not explain is kept */
    if (st == SV_OK) {
        bool shift = false;
        for (size_t k = 0; k < n; k++) {
            const sv_godot_pck_member *om = &o->members[bp[k].index];
            if (m[k].stored_len != om->stored_len) shift = true;
            if (shift && l.alignment > 1) m[k].gap_kept = false;
        }
        if (shift && l.version == 3 && l.alignment > 1) l.dir_gap_kept = false;
    }
    /* added members: after the others, paths in the original's form */
    bool res_prefix = n ? strncmp(o->members[0].path, "res://", 6) == 0 : l.version == 1;
    bool pad4 = l.version >= 2 || (n && o->members[0].field_len % 4 == 0 &&
                                   o->members[0].field_len > o->members[0].path_len);
    for (size_t j = 0; st == SV_OK && j < nadded; j++) {
        pck_out_member *d = &m[n + j];
        st = make_field(&fields, added[j].name, res_prefix, pad4, &fat[j], &d->field_len, err);
        d->size = added[j].len;
        d->stored = added[j].data;
        d->stored_len = added[j].len;
        if (l.version >= 2) gd_md5(added[j].data, added[j].len, d->md5);
        order[n + j] = n + j;
        if (l.version == 3 && l.alignment > 1) l.dir_gap_kept = false;
    }
    for (size_t j = 0; st == SV_OK && j < nadded; j++) m[n + j].field = fields.data + fat[j];
    if (st == SV_OK && nadded && n) {
        /* the last original member's gap now leads to a member */
        if (l.alignment > 1) m[n - 1].gap_kept = false;
    }
    /* dir_order: directory position -> data-order index */
    size_t *dir_order = calloc(total ? total : 1, sizeof *dir_order);
    if (st == SV_OK && !dir_order)
        st = sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory");
    for (size_t i = 0; st == SV_OK && i < total; i++) dir_order[i] = order[i];
    l.m = m;
    l.dir_order = dir_order;
    /* a pack appended to an executable: the executable before it, the
     * trailer (u64 pack size, "GDPC") after */
    size_t start = out->len;
    if (st == SV_OK && in->embedded) {
        l.base = ps;
        sv_buf_append(out, o->data, (size_t)ps);
    }
    if (st == SV_OK) st = gd_pck_emit(&l, out, err);
    if (st == SV_OK && in->embedded) {
        uint64_t size = out->len - start - ps;
        uint8_t t[12];
        for (int i = 0; i < 8; i++) t[i] = (uint8_t)(size >> (8 * i));
        memcpy(t + 8, "GDPC", 4);
        sv_buf_append(out, t, 12);
        if (!sv_buf_ok(out)) st = sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory");
    }
    free(dir_order);
    free(m);
    free(order);
    free(bp);
    free(ends);
    free(gaps);
    free(fat);
    free(enc_at);
    sv_buf_free(&enc);
    sv_buf_free(&fields);
    return st;
}
