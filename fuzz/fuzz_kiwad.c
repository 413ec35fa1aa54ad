/* Fuzz target for the KIWAD archive reader (src/formats/kingsisle/kiwad_*.c,
 * docs/formats/kiwad.md), through the archive harness (fuzz_archive.h): the
 * table is opened and checked; members are read under a decompression limit,
 * every other one with its CRC checked; a repack keeping every member may
 * fail only for want of memory or a size out of range. */
#include <stdlib.h>

#include "fuzz_archive.h"
#include "serval/kiwad.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static sv_status wad_open(const uint8_t *data, size_t len, void **archive, sv_error *err)
{
    sv_kiwad *w = NULL;
    sv_status st = sv_kiwad_open(data, len, NULL, &w, err);
    *archive = w;
    return st;
}

static void wad_close(void *archive)
{
    sv_kiwad_close(archive);
}

static bool wad_member_at(const void *archive, size_t i, const char **name, uint64_t *size)
{
    sv_kiwad_member m;
    if (!sv_kiwad_member_at(archive, i, &m)) return false;
    *name = m.name;
    *size = m.size;
    return true;
}

static sv_status wad_find(const void *archive, const char *name, size_t *index)
{
    return sv_kiwad_find(archive, name, index);
}

static sv_status wad_read(const void *archive, size_t i, sv_buf *out, sv_error *err)
{
    sv_limits lim = {0};
    lim.max_decompressed = 8u << 20; /* a bomb costs little */
    return sv_kiwad_read(archive, i, &lim, i % 2 == 0, out, err);
}

static sv_status wad_repack_all(const void *archive, size_t count, sv_buf *out, sv_error *err)
{
    sv_kiwad_change *keep = calloc(count ? count : 1, sizeof *keep);
    if (!keep) abort();
    for (size_t i = 0; i < count; i++) keep[i].keep = true;
    sv_status st = sv_kiwad_repack(archive, keep, NULL, 0, 9, out, err);
    free(keep);
    return st;
}

static bool wad_repack_error_ok(const fuzz_archive *ar, const sv_error *err)
{
    (void)ar;
    return err->status == SV_ERR_NOMEM || err->status == SV_ERR_RANGE;
}

static const fuzz_archive wad = {
    .format = "kiwad",
    .open = wad_open,
    .close = wad_close,
    .member_at = wad_member_at,
    .find = wad_find,
    .read = wad_read,
    .repack_all = wad_repack_all,
    .repack_error_ok = wad_repack_error_ok,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    fuzz_archive_run(&wad, data, len);
    return 0;
}
