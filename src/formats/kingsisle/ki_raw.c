/* Values kept as raw bits: the properties of deep-mode objects that no type
 * list describes (§5.3: a reader skips them by their size). They become
 * {"bits": N, "data": bytes}, the N bits in stream order, LSB first, the
 * last byte's unused high bits zero; written back bit for bit. */
#include <string.h>

#include "formats/kingsisle/ki_internal.h"

sv_status ki_read_raw(ki_dec *d, uint64_t nbits, sv_value *out)
{
    if (nbits > d->br.bit_len - d->br.pos)
        return ki_dec_fail(d, SV_ERR_TRUNCATED, "%llu raw bits, only %llu left",
                           (unsigned long long)nbits,
                           (unsigned long long)(d->br.bit_len - d->br.pos));
    uint64_t nbytes = (nbits + 7) / 8;
    if (nbytes > d->max_string)
        return ki_dec_fail(d, SV_ERR_LIMIT, "%llu raw bits are over the string limit",
                           (unsigned long long)nbits);
    sv_value data = sv_bytes_uninit(d->doc, (size_t)nbytes);
    if (sv_doc_status(d->doc) != SV_OK)
        return ki_dec_fail(d, sv_doc_status(d->doc), "out of memory (or over max_alloc)");
    uint8_t *p = sv_value_buf(&data);
    if ((d->br.pos & 7) == 0) { /* the usual case: a value right after its hash */
        memcpy(p, d->br.data + (d->br.pos >> 3), (size_t)(nbits / 8));
        if (nbits & 7)
            p[nbits / 8] = d->br.data[(d->br.pos >> 3) + nbits / 8] & ((1u << (nbits & 7)) - 1);
        d->br.pos += nbits;
    } else {
        for (uint64_t i = 0; i < nbits / 8; i++) p[i] = (uint8_t)sv__core_br_read(&d->br, 8);
        if (nbits & 7) p[nbits / 8] = (uint8_t)sv__core_br_read(&d->br, (unsigned)(nbits & 7));
    }
    sv_value m = sv_map(d->doc, 2);
    sv_pair *pr = sv_pairs(&m);
    if (!pr) return ki_dec_fail(d, SV_ERR_NOMEM, "out of memory (or over max_alloc)");
    pr[0].key = sv_str_intern(d->doc, "bits", 4);
    pr[0].val = sv_int((int64_t)nbits); /* a plain JSON number */
    pr[1].key = sv_str_intern(d->doc, "data", 4);
    pr[1].val = data;
    *out = m;
    return sv_doc_status(d->doc)
               ? ki_dec_fail(d, sv_doc_status(d->doc), "out of memory (or over max_alloc)")
               : SV_OK;
}
