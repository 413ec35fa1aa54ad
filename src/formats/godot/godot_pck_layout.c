/* Writing a PCK archive from its layout (godot_pck_layout.h). The directory
 * has a fixed size whatever the offsets, so positions are found first, then
 * the bytes are written in one pass. */
#include <string.h>

#include "formats/godot/godot_gdec.h"
#include "formats/godot/godot_pck_internal.h"
#include "formats/godot/godot_pck_layout.h"

static void put32(sv_buf *b, uint32_t v)
{
    uint8_t t[4];
    for (int i = 0; i < 4; i++) t[i] = (uint8_t)(v >> (8 * i));
    sv_buf_append(b, t, 4);
}

static void put64(sv_buf *b, uint64_t v)
{
    uint8_t t[8];
    for (int i = 0; i < 8; i++) t[i] = (uint8_t)(v >> (8 * i));
    sv_buf_append(b, t, 8);
}

static void zeros(sv_buf *b, uint64_t n)
{
    static const uint8_t z[256];
    while (n) {
        size_t k = n > sizeof z ? sizeof z : (size_t)n;
        sv_buf_append(b, z, k);
        n -= k;
    }
}

static uint64_t pad_to(uint64_t pos, uint64_t a)
{
    return a > 1 ? (a - pos % a) % a : 0;
}

static uint64_t gap_of(bool kept, uint64_t len, uint64_t pos, uint64_t a)
{
    return kept ? len : pad_to(pos, a);
}

static void gap_bytes(sv_buf *b, bool kept, const uint8_t *bytes, uint64_t n)
{
    if (kept && bytes)
        sv_buf_append(b, bytes, (size_t)n);
    else
        zeros(b, n);
}

/* The entries (without the count), as they are or will be encrypted. */
static void entries(const pck_layout *l, uint64_t file_base, sv_buf *b)
{
    for (size_t k = 0; k < l->count; k++) {
        const pck_out_member *m = &l->m[l->dir_order[k]];
        put32(b, m->field_len);
        sv_buf_append(b, m->field, m->field_len);
        put64(b, l->version == 1 ? l->base + m->pos : m->pos - file_base);
        put64(b, m->size);
        sv_buf_append(b, m->md5, 16);
        if (l->version >= 2) put32(b, m->flags);
    }
}

sv_status gd_pck_emit(const pck_layout *l, sv_buf *out, sv_error *err)
{
    uint64_t hsize = l->version == 1 ? 88 : l->version == 2 ? 100 : 104; /* count included */
    uint64_t dir_len = 4;
    for (size_t i = 0; i < l->count; i++)
        dir_len += 4 + (uint64_t)l->m[i].field_len + (l->version == 1 ? 32 : 36);
    if (l->dir_encrypted) {
        uint64_t plain = dir_len - 4;
        dir_len = 4 + 40 + ((plain + 15) & ~(uint64_t)15);
    }
    /* positions */
    uint64_t pos = l->version == 3 ? 104 : hsize - 4 + dir_len;
    uint64_t head = gap_of(l->head_gap_kept, l->head_gap_len, pos, l->alignment);
    pos += head;
    uint64_t first = pos;
    for (size_t i = 0; i < l->count; i++) {
        pck_out_member *m = &l->m[i];
        m->pos = pos;
        pos += m->stored_len;
        pos += gap_of(m->gap_kept, m->gap_len, pos, l->alignment);
    }
    uint64_t file_base = first - l->fb_delta;
    uint64_t dir_gap = 0, dir_at = 0;
    if (l->version == 3) {
        dir_gap = gap_of(l->dir_gap_kept, l->dir_gap_len, pos, l->alignment);
        dir_at = pos + dir_gap;
    }
    size_t start = out->len;
    /* header */
    sv_buf_append(out, "GDPC", 4);
    put32(out, l->version);
    put32(out, l->major);
    put32(out, l->minor);
    put32(out, l->patch);
    if (l->version >= 2) {
        put32(out, l->pack_flags);
        bool rel = l->version == 3 || (l->pack_flags & SV_GODOT_PCK_REL_FILEBASE);
        put64(out, l->fb_fixed ? l->fb_value : rel ? file_base : l->base + file_base);
        if (l->version == 3) put64(out, dir_at);
    }
    for (int i = 0; i < 16; i++) put32(out, l->reserved[i]);
    sv_buf dir;
    sv_buf_init(&dir, NULL);
    entries(l, file_base, &dir);
    sv_status st = SV_OK;
    if (!sv_buf_ok(&dir)) st = sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory");
    sv_buf block;
    sv_buf_init(&block, NULL);
    if (st == SV_OK && l->dir_encrypted) {
        size_t pad_len = (16 - dir.len % 16) % 16;
        const uint8_t *pad = l->dir_pad && l->dir_pad_len == pad_len ? l->dir_pad : NULL;
        st = gd_gdec_encrypt(4, false, 0, l->key, l->dir_iv, dir.data, dir.len, pad, pad_len,
                             PCK_FORMAT, &block, err);
    }
    const sv_buf *dirb = l->dir_encrypted ? &block : &dir;
    if (st == SV_OK && l->version != 3) {
        put32(out, (uint32_t)l->count);
        sv_buf_append(out, dirb->data, dirb->len);
    }
    if (st == SV_OK) {
        gap_bytes(out, l->head_gap_kept, l->head_gap, head);
        for (size_t i = 0; i < l->count; i++) {
            const pck_out_member *m = &l->m[i];
            sv_buf_append(out, m->stored, (size_t)m->stored_len);
            uint64_t here = out->len - start;
            gap_bytes(out, m->gap_kept, m->gap,
                      gap_of(m->gap_kept, m->gap_len, here, l->alignment));
        }
        if (l->version == 3) {
            gap_bytes(out, l->dir_gap_kept, l->dir_gap, dir_gap);
            put32(out, (uint32_t)l->count);
            sv_buf_append(out, dirb->data, dirb->len);
        }
        if (l->tail_len) sv_buf_append(out, l->tail, (size_t)l->tail_len);
    }
    sv_buf_free(&dir);
    sv_buf_free(&block);
    if (st == SV_OK && !sv_buf_ok(out))
        st = sv_error_set(err, SV_ERR_NOMEM, PCK_FORMAT, 0, "out of memory");
    return st;
}
