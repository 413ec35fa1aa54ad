/* The Variant decoder, packed arrays (spec §5.1): PackedByteArray with its
 * optional tail padding (spec §7), the number arrays as one copy on a
 * little-endian host, PackedStringArray elements with or without their
 * NUL, the packed vectors and colors. */
#include <string.h>

#include "core/value_internal.h"
#include "formats/godot/godot_decoder.h"

sv_status gd_dec_bytes(gd_dec *d, sv_value *out)
{
    if (!dneed(d, 4, "PackedByteArray count")) return d->rd.status;
    int32_t count = (int32_t)du32(d);
    if (count < 0 || (size_t)count > dleft(d))
        return gd_dfail_at(d, doff(d) - 4, SV_ERR_TRUNCATED,
                           "PackedByteArray of %ld bytes, %zu left (engine: ERR_INVALID_DATA)",
                           (long)count, dleft(d));
    if ((uint64_t)count > d->r->max_string)
        return gd_dfail_at(d, doff(d) - 4, SV_ERR_LIMIT,
                           "PackedByteArray of %ld bytes is over the limit of %llu", (long)count,
                           (unsigned long long)d->r->max_string);
    *out = sv_bytes(d->doc, d->rd.p, (size_t)count);
    d->rd.p += count;
    /* spec §7: the tail padding need not be present, but counts in r_len */
    size_t pad = (4 - ((uint32_t)count & 3)) & 3, have = dleft(d) < pad ? dleft(d) : pad;
    for (size_t k = 0; k < have; k++) d->odd |= d->rd.p[k] != 0;
    d->odd |= have < pad;
    d->rd.p += have;
    d->overrun = pad - have;
    return check_doc(d);
}

/* u32 count, then count items of esz bytes (ERR_FAIL_MUL_OF, then the size check). */
sv_status gd_dec_numbers(gd_dec *d, unsigned t, sv_elem elem, sv_tag shape, unsigned per,
                         sv_value *out)
{
    size_t esz = sv_elem_size(elem) * per;
    if (!dneed(d, 4, "packed array count")) return d->rd.status;
    int32_t count = (int32_t)du32(d);
    if (count < 0 || (size_t)count > (size_t)INT32_MAX / esz)
        return gd_dfail_at(d, doff(d) - 4, SV_ERR_RANGE,
                           "%s count %ld out of range (engine: ERR_INVALID_DATA)", gd_type_name(t),
                           (long)count);
    size_t n = (size_t)count * esz;
    if (n > dleft(d))
        return gd_dfail_at(d, doff(d) - 4, SV_ERR_TRUNCATED,
                           "%s of %ld items needs %zu bytes, %zu left (engine: ERR_INVALID_DATA)",
                           gd_type_name(t), (long)count, n, dleft(d));
    size_t scalars = (size_t)count * per;
    if (SV_LITTLE_ENDIAN && d->r->borrow_input && scalars &&
        (uintptr_t)d->rd.p % sv_elem_size(elem) == 0) {
        /* the input's bytes are the tree's: point at them (godot.h) */
        *out = sv__core_packed_borrowed(d->doc, elem, shape, d->rd.p, scalars);
    } else if (SV_LITTLE_ENDIAN) {
        *out = sv_packed(d->doc, elem, shape, d->rd.p, scalars);
    } else {
        *out = sv_packed(d->doc, elem, shape, NULL, scalars);
        uint8_t *dst = sv_value_buf(out);
        size_t es = sv_elem_size(elem);
        for (size_t i = 0; dst && i < scalars; i++) {
            if (es == 8) {
                uint64_t u = sv__core_load_u64le(d->rd.p + 8 * i);
                memcpy(dst + 8 * i, &u, 8);
            } else {
                uint32_t u = sv__core_load_u32le(d->rd.p + 4 * i);
                memcpy(dst + 4 * i, &u, 4);
            }
        }
    }
    d->rd.p += n;
    return check_doc(d);
}

sv_status gd_dec_strings(gd_dec *d, uint32_t hdr, sv_value *out)
{
    bool outer = d->odd;
    gd_extra_in x = {.header = hdr}; /* all-zero values are null (SV_NULL = 0) */
    x.header_odd = hdr > GD_TYPE_MASK;
    if (!dneed(d, 4, "PackedStringArray count")) return d->rd.status;
    int32_t count = (int32_t)du32(d);
    x.count = (uint32_t)count;
    x.count_odd = count < 0;
    if (count < 0) count = 0; /* the engine's loop runs zero times */
    if ((size_t)count > dleft(d) / 4)
        return gd_dfail_at(d, doff(d) - 4, SV_ERR_TRUNCATED,
                           "PackedStringArray of %ld strings needs at least %zu bytes, %zu left",
                           (long)count, (size_t)count * 4, dleft(d));
    sv_value arr = sv_array(d->doc, (size_t)count);
    sv_meta_set(d->doc, &arr, sv_str_intern(d->doc, GD_PSA_META, sizeof GD_PSA_META - 1));
    if (check_doc(d) != SV_OK) return d->rd.status;
    sv_value *items = sv_array_items(&arr);
    /* spec §4: written with a NUL terminator, read with or without one */
    for (int32_t i = 0; i < count; i++) {
        const uint8_t *at = d->rd.p;
        if (!gd_read_string(d, false, &items[i])) {
            sv_error_path_index(d->rd.err, (uint64_t)i);
            return d->rd.status;
        }
        /* canonical: the bytes, one NUL, zero padding */
        uint32_t n = sv__core_load_u32le(at); /* the length field, read already */
        if (SV_UNLIKELY(n == 0 || items[i].len != n - 1 || at[4 + n - 1] != 0 ||
                        pad_nonzero(at + 4, n, (4 - (n & 3)) & 3)) &&
            !gd_rec_add(d->doc, &x.raw, (uint32_t)i, NULL, at, (size_t)(d->rd.p - at)))
            return check_doc(d);
    }
    d->odd = outer;
    if (SV_UNLIKELY(x.header_odd || x.count_odd || x.raw.kind == SV_ARRAY) &&
        !gd_meta_extend(d->doc, &arr, &x))
        return check_doc(d);
    *out = arr;
    return check_doc(d);
}

sv_status gd_dec_packed_math(gd_dec *d, unsigned t, uint32_t hdr, sv_value *out)
{
    sv_tag shape = t == GD_PACKED_VECTOR2   ? SV_TAG_PACKED_VECTOR2
                   : t == GD_PACKED_VECTOR3 ? SV_TAG_PACKED_VECTOR3
                   : t == GD_PACKED_VECTOR4 ? SV_TAG_PACKED_VECTOR4
                                            : SV_TAG_PACKED_COLOR;
    /* spec §5.1/§6.3: vectors follow the 64-bit flag in 4.x; colors never */
    bool wide = d->godot4 && t != GD_PACKED_COLOR && (hdr & GD_FLAG_64);
    return gd_dec_numbers(d, t, wide ? SV_ELEM_F64 : SV_ELEM_F32, shape, sv_tag_scalars(shape),
                          out);
}
