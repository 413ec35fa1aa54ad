/* .resonitepackage archives (spec resonite A.6.6): a zip of R-Main.record
 * (JSON), Assets/<sha256> (the main data tree, FrDT + Brotli, and raw asset
 * files) and Metadata/<sha256>.bitmap, read from memory with serval's own
 * zip reader (compress/zip.h), which checks sizes against the input and the
 * caller's limit before allocating and every member's CRC-32. */
#include <string.h>

#include "compress/zip.h"
#include "formats/resonite/resonite_internal.h"

#define PKG_FORMAT "resonitepackage"

struct sv_resonite_package {
    sv_zip zip;
};

sv_status sv_resonite_package_open(const uint8_t *data, size_t len, const sv_alloc *alloc,
                                   sv_resonite_package **out, sv_error *err)
{
    *out = NULL;
    const sv_alloc *a = alloc ? alloc : sv_alloc_libc();
    sv_resonite_package *p = a->malloc(a->ctx, sizeof *p);
    if (!p) return sv_error_set(err, SV_ERR_NOMEM, PKG_FORMAT, 0, "out of memory");
    sv_status st = sv__compress_zip_open(&p->zip, data, len, a, PKG_FORMAT, err);
    if (st != SV_OK) {
        a->free(a->ctx, p, sizeof *p);
        return st;
    }
    *out = p;
    return SV_OK;
}

void sv_resonite_package_close(sv_resonite_package *p)
{
    if (!p) return;
    const sv_alloc *a = p->zip.alloc;
    sv__compress_zip_close(&p->zip);
    a->free(a->ctx, p, sizeof *p);
}

size_t sv_resonite_package_count(const sv_resonite_package *p)
{
    return p ? p->zip.count : 0;
}

sv_status sv_resonite_package_find(const sv_resonite_package *p, const char *name, size_t *index)
{
    if (!p || !name || !index) return SV_ERR_USAGE;
    return sv__compress_zip_find(&p->zip, name, index);
}

sv_status sv_resonite_package_member(sv_resonite_package *p, size_t i, sv_resonite_member *m,
                                     sv_error *err)
{
    memset(m, 0, sizeof *m);
    if (!p || i >= p->zip.count)
        return sv_error_set(err, SV_ERR_NOT_FOUND, PKG_FORMAT, 0, "no member %zu", i);
    const sv_zip_entry *e = &p->zip.entries[i];
    m->name = e->name;
    m->size = e->usize;
    m->csize = e->csize;
    uint8_t head[4];
    size_t got;
    sv_error herr;
    sv_error_clear(&herr);
    sv_status st = sv__compress_zip_head(&p->zip, i, head, sizeof head, &got, &herr);
    /* a member that cannot be read is no data tree; sv_resonite_package_read
     * says why. Only running out of memory is this call's failure. */
    if (st == SV_ERR_NOMEM) {
        if (err) *err = herr;
        return st;
    }
    m->is_data_tree = st == SV_OK && got == 4 && memcmp(head, "FrDT", 4) == 0;
    return SV_OK;
}

sv_status sv_resonite_package_read(sv_resonite_package *p, size_t i, uint64_t max_size, sv_buf *out,
                                   sv_error *err)
{
    if (!max_size) max_size = SV_DEFAULT_MAX_DECOMPRESSED;
    if (!p || i >= p->zip.count)
        return sv_error_set(err, SV_ERR_NOT_FOUND, PKG_FORMAT, 0, "no member %zu", i);
    return sv__compress_zip_read(&p->zip, i, max_size, out, err);
}

sv_status sv_resonite_package_write(const sv_resonite_entry *entries, size_t count, sv_buf *out,
                                    sv_error *err)
{
    sv_zip_writer w;
    sv__compress_zip_writer_init(&w, out, 0, PKG_FORMAT);
    sv_status st = SV_OK;
    for (size_t i = 0; i < count && st == SV_OK; i++) {
        const sv_resonite_entry *e = &entries[i];
        bool tree = e->len >= 4 && memcmp(e->data, "FrDT", 4) == 0;
        st = sv__compress_zip_writer_add(&w, e->name, e->data, e->len,
                                         tree ? SV_ZIP_STORED : SV_ZIP_DEFLATED, -1, err);
    }
    if (st == SV_OK) st = sv__compress_zip_writer_finish(&w, err);
    sv__compress_zip_writer_free(&w);
    return st;
}
