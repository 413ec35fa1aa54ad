/* Fuzz target for the Godot PCK reader and repack (src/formats/godot/
 * godot_pck_*.c, serval/godot_pck.h), through the archive harness
 * (fuzz_archive.h): the directory is opened and checked with a fixed key, so
 * that encrypted directories and members are decrypted too; members are read
 * with their MD5 checked, under an allocation limit; a repack may refuse the
 * layout, with an error naming godot-pck. */
#include <stdlib.h>

#include "fuzz_archive.h"
#include "serval/godot_pck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static sv_status pck_open(const uint8_t *data, size_t len, void **archive, sv_error *err)
{
    /* the key of tests/vectors/godot-pck/spec4, so its seeds decrypt */
    uint8_t key[32];
    for (int i = 0; i < 32; i++) key[i] = (uint8_t)(0x20 + i);
    sv_godot_pck *p = NULL;
    sv_status st = sv_godot_pck_open(data, len, key, NULL, &p, err);
    *archive = p;
    return st;
}

static void pck_close(void *archive)
{
    sv_godot_pck_close(archive);
}

static bool pck_member_at(const void *archive, size_t i, const char **name, uint64_t *size)
{
    sv_godot_pck_member m;
    if (!sv_godot_pck_member_at(archive, i, &m)) return false;
    *name = m.path;
    *size = m.size;
    return true;
}

static sv_status pck_find(const void *archive, const char *name, size_t *index)
{
    return sv_godot_pck_find(archive, name, index);
}

static sv_status pck_read(const void *archive, size_t i, sv_buf *out, sv_error *err)
{
    sv_limits lim = {0};
    lim.max_alloc = 8u << 20;
    return sv_godot_pck_read(archive, i, &lim, true, out, err);
}

static sv_status pck_repack_all(const void *archive, size_t count, sv_buf *out, sv_error *err)
{
    sv_godot_pck_change *keep = calloc(count ? count : 1, sizeof *keep);
    if (!keep) abort();
    for (size_t i = 0; i < count; i++) keep[i].keep = true;
    sv_status st = sv_godot_pck_repack(archive, keep, NULL, 0, out, err);
    free(keep);
    return st;
}

static const fuzz_archive pck = {
    .format = "godot-pck",
    .open = pck_open,
    .close = pck_close,
    .member_at = pck_member_at,
    .find = pck_find,
    .read = pck_read,
    .repack_all = pck_repack_all,
    .repack_error_ok = fuzz_archive_error_ok,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    fuzz_archive_run(&pck, data, len);
    return 0;
}
