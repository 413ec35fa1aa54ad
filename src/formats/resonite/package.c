/* .resonitepackage archives through Debian's libzip (spec resonite A.6.6):
 * a zip of R-Main.record (JSON), Assets/<sha256> (the main data tree, FrDT
 * + Brotli, and raw asset files) and Metadata/<sha256>.bitmap. The archive
 * is read from memory; member sizes from the central directory are not
 * trusted: reading stops at the caller's limit whatever they say. */
#include <stdlib.h>
#include <string.h>
#include <zip.h>

#include "formats/resonite/resonite_internal.h"

#define PKG_FORMAT "resonitepackage"

struct sv_resonite_package {
    zip_t *zip;
    size_t count;
};

sv_status sv_resonite_package_open(const uint8_t *data, size_t len, sv_resonite_package **out,
                                   sv_error *err)
{
    *out = NULL;
    zip_error_t ze;
    zip_error_init(&ze);
    zip_source_t *src = zip_source_buffer_create(data, len, 0, &ze);
    if (!src) {
        zip_error_fini(&ze);
        return sv_error_set(err, SV_ERR_NOMEM, PKG_FORMAT, 0, "out of memory");
    }
    zip_t *z = zip_open_from_source(src, ZIP_RDONLY | ZIP_CHECKCONS, &ze);
    if (!z) {
        sv_status st = sv_error_set(err, SV_ERR_SYNTAX, PKG_FORMAT, 0, "not a readable zip: %s",
                                    zip_error_strerror(&ze));
        zip_source_free(src);
        zip_error_fini(&ze);
        return st;
    }
    zip_error_fini(&ze);
    sv_resonite_package *p = calloc(1, sizeof *p);
    if (!p) {
        zip_discard(z);
        return sv_error_set(err, SV_ERR_NOMEM, PKG_FORMAT, 0, "out of memory");
    }
    zip_int64_t n = zip_get_num_entries(z, 0);
    p->zip = z;
    p->count = n > 0 ? (size_t)n : 0;
    *out = p;
    return SV_OK;
}

void sv_resonite_package_close(sv_resonite_package *p)
{
    if (!p) return;
    zip_discard(p->zip);
    free(p);
}

size_t sv_resonite_package_count(const sv_resonite_package *p)
{
    return p ? p->count : 0;
}

long sv_resonite_package_find(const sv_resonite_package *p, const char *name)
{
    if (!p || !name) return -1;
    zip_int64_t i = zip_name_locate(p->zip, name, 0);
    return i < 0 ? -1 : (long)i;
}

sv_status sv_resonite_package_member(sv_resonite_package *p, size_t i, sv_resonite_member *m,
                                     sv_error *err)
{
    memset(m, 0, sizeof *m);
    zip_stat_t st;
    zip_stat_init(&st);
    if (i >= p->count || zip_stat_index(p->zip, (zip_uint64_t)i, 0, &st) != 0)
        return sv_error_set(err, SV_ERR_NOT_FOUND, PKG_FORMAT, 0, "no member %zu", i);
    m->name = (st.valid & ZIP_STAT_NAME) ? st.name : "";
    m->size = (st.valid & ZIP_STAT_SIZE) ? st.size : 0;
    m->csize = (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0;
    zip_file_t *f = zip_fopen_index(p->zip, (zip_uint64_t)i, 0);
    if (f) {
        uint8_t head[4];
        m->is_data_tree = zip_fread(f, head, 4) == 4 && memcmp(head, "FrDT", 4) == 0;
        zip_fclose(f);
    }
    return SV_OK;
}

sv_status sv_resonite_package_read(sv_resonite_package *p, size_t i, uint64_t max_size, sv_buf *out,
                                   sv_error *err)
{
    if (!max_size) max_size = SV_DEFAULT_MAX_DECOMPRESSED;
    if (!p || i >= p->count)
        return sv_error_set(err, SV_ERR_NOT_FOUND, PKG_FORMAT, 0, "no member %zu", i);
    zip_file_t *f = zip_fopen_index(p->zip, (zip_uint64_t)i, 0);
    if (!f)
        return sv_error_set(err, SV_ERR_SYNTAX, PKG_FORMAT, 0, "cannot open member %zu: %s", i,
                            zip_strerror(p->zip));
    sv_status st = SV_OK;
    uint64_t total = 0;
    for (;;) {
        size_t room = 64 * 1024;
        if (!sv_buf_reserve(out, room)) {
            st = sv_error_set(err, SV_ERR_NOMEM, PKG_FORMAT, 0, "out of memory");
            break;
        }
        zip_int64_t n = zip_fread(f, out->data + out->len, room);
        if (n < 0) {
            st = sv_error_set(err, SV_ERR_SYNTAX, PKG_FORMAT, 0, "member %zu: %s", i,
                              zip_file_strerror(f));
            break;
        }
        if (n == 0) break;
        total += (uint64_t)n;
        if (total > max_size) {
            st = sv_error_set(err, SV_ERR_LIMIT, PKG_FORMAT, 0,
                              "member %zu is larger than the limit of %llu bytes", i,
                              (unsigned long long)max_size);
            break;
        }
        out->len += (size_t)n;
    }
    zip_fclose(f);
    return st;
}
