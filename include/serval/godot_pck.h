/* serval: Godot PCK archives (GDPC), the packs Godot games ship their files
 * in: standalone .pck files and packs appended to an executable.
 *
 * Pack format 1 is Godot 3.x's (entry offsets absolute in the file, paths
 * with "res://"), 2 is Godot 4.0 to 4.4's (pack flags and a file base), 3 is
 * Godot 4.5 and later's (the directory at the end). A 4.x pack may encrypt its
 * directory and members (AES-256-CFB128, FileAccessEncrypted blocks without
 * the "GDEC" magic): they are read with the 32-byte key the game was built
 * with. Everything is little-endian.
 *
 * sv_godot_pck_open checks the whole directory before it returns: the count
 * against the bytes there (before allocating), every path (cut at its first
 * NUL as the engine cuts it; after an optional "res://" it must be relative,
 * '/'-separated, UTF-8, without '.', '..' or empty components, backslashes or
 * bytes after the NUL other than NUL), no path twice, and every member's
 * data range inside the file. Member data is only read by sv_godot_pck_read. */
#ifndef SERVAL_GODOT_PCK_H
#define SERVAL_GODOT_PCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "api.h"
#include "buf.h"
#include "error.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sv_godot_pck sv_godot_pck;

/* Pack flags (header, format 2 and later) and file flags (entries). */
#define SV_GODOT_PCK_DIR_ENCRYPTED 1u
#define SV_GODOT_PCK_REL_FILEBASE 2u
#define SV_GODOT_PCK_SPARSE_BUNDLE 4u
#define SV_GODOT_PCK_FILE_ENCRYPTED 1u
#define SV_GODOT_PCK_FILE_REMOVAL 2u
#define SV_GODOT_PCK_FILE_DELTA 4u

/* One directory entry as read (pointers valid until sv_godot_pck_close). */
typedef struct sv_godot_pck_member {
    const char *path;      /* NUL-terminated: the stored path up to its first NUL */
    size_t path_len;       /* bytes, without the NUL */
    const char *name;      /* path without a leading "res://" (inside path) */
    uint32_t field_len;    /* the stored path field's length, padding included */
    uint64_t offset;       /* the entry's offset field as written */
    uint64_t data_offset;  /* absolute offset of the stored bytes in the file */
    uint64_t size;         /* plaintext size */
    uint64_t stored_len;   /* bytes in the file: size, or the encrypted block's */
    uint8_t md5[16];       /* as stored (zeros from 3.x PCKPacker) */
    uint32_t flags;        /* SV_GODOT_PCK_FILE_* (format 2 and later) */
    uint64_t entry_offset; /* where the entry begins (in the decrypted directory
                              when that is encrypted: its offset there) */
} sv_godot_pck_member;

typedef struct sv_godot_pck_info {
    uint32_t format_version; /* 1, 2 or 3 */
    uint32_t major, minor, patch;
    uint32_t pack_flags; /* SV_GODOT_PCK_*, format 2 and later */
    uint64_t file_base;  /* the header's field as written (2, 3) */
    uint64_t dir_offset; /* the header's field (3) */
    uint32_t reserved[16];
    uint64_t pck_start; /* offset of "GDPC" in the file (0: standalone) */
    uint64_t pck_end;   /* end of the pack's bytes (for embedded: before the trailer) */
    bool embedded;      /* found through the executable's trailer */
    uint32_t count;
    uint64_t file_size;
} sv_godot_pck_info;

/* Opens the pack in len bytes at data (kept alive by the caller until
 * close): a standalone pack or an executable whose last 4 bytes are "GDPC".
 * key (32 bytes, or NULL) decrypts an encrypted directory and members; an
 * encrypted directory without it is SV_ERR_REFUSED, saying a key is needed,
 * and with a wrong one SV_ERR_SYNTAX, "wrong key or damaged file". Errors
 * name "godot-pck", the byte offset and the member. */
SV_API SV_NODISCARD sv_status sv_godot_pck_open(const uint8_t *data, size_t len, const uint8_t *key,
                                                const sv_alloc *alloc, sv_godot_pck **out,
                                                sv_error *err);
SV_API void sv_godot_pck_close(sv_godot_pck *p);

SV_API sv_godot_pck_info sv_godot_pck_get_info(const sv_godot_pck *p);
SV_API size_t sv_godot_pck_count(const sv_godot_pck *p);
/* Member i in directory order; false past the end. */
SV_API bool sv_godot_pck_member_at(const sv_godot_pck *p, size_t i, sv_godot_pck_member *m);
/* The index of the member whose path, with or without "res://", is name. */
SV_API sv_status sv_godot_pck_find(const sv_godot_pck *p, const char *name, size_t *index);
/* The member's stored bytes (the encrypted block when encrypted). */
SV_API const uint8_t *sv_godot_pck_stored(const sv_godot_pck *p, size_t i, size_t *len);

/* Appends member i's content to out: its bytes, or the decrypted block
 * (needs the key given to open: SV_ERR_REFUSED without). verify: check a
 * stored MD5 (all-zero MD5s, as 3.x PCKPacker writes, are not checked).
 * Refused over lim->max_alloc before any work. */
SV_API SV_NODISCARD sv_status sv_godot_pck_read(const sv_godot_pck *p, size_t i,
                                                const sv_limits *lim, bool verify, sv_buf *out,
                                                sv_error *err);

/* The MD5 of n bytes at p, as the directory stores it. */
SV_API void sv_godot_md5(const uint8_t *p, size_t n, uint8_t out[16]);

/* ---- writing ------------------------------------------------------------ */

typedef struct sv_godot_pck_entry {
    const char *name; /* '/'-separated relative path, without "res://" */
    const uint8_t *data;
    size_t len;
} sv_godot_pck_entry;

/* Versioned: fill with sv_godot_pck_write_opts_init, then set members
 * (api.h). */
typedef struct sv_godot_pck_write_opts {
    uint32_t struct_size;         /* set by sv_godot_pck_write_opts_init */
    uint32_t format_version;      /* 1, 2 or 3 */
    uint32_t major, minor, patch; /* the engine version written */
    uint32_t alignment;           /* 0: the PCKPacker default (3.x 0, 4.x 32) */
} sv_godot_pck_write_opts;

/* Defaults: format 3, engine version 0.0.0, the default alignment. */
SV_API void sv_godot_pck_write_opts_init(sv_godot_pck_write_opts *o);

/* Writes a pack as the engine's PCKPacker lays it out, entries in the order
 * given: format 1 with "res://" paths as given, MD5s zero, members after the
 * directory, each padded to alignment; format 2 (flags PACK_REL_FILEBASE)
 * with the directory after the header and the data after it; format 3 with
 * the data after the header padded to alignment and the directory at the
 * end. 4.x paths have no "res://", NUL-padded to a multiple of 4, and real
 * MD5s. Names are checked as sv_godot_pck_open checks them. */
SV_API SV_NODISCARD sv_status sv_godot_pck_write(const sv_godot_pck_entry *entries, size_t count,
                                                 const sv_godot_pck_write_opts *opts, sv_buf *out,
                                                 sv_error *err);

/* What becomes of one member of the original in sv_godot_pck_repack. */
typedef struct sv_godot_pck_change {
    bool keep;           /* true: the original stored bytes, as they are */
    const uint8_t *data; /* otherwise the new content (encrypted again with the
                            original's IV when the member was encrypted) */
    size_t len;
} sv_godot_pck_change;

/* Rewrites the pack orig with changes[i] for its member i (directory order)
 * and the members added, keeping everything else: format, header words
 * (reserved ones too), flags, directory order, path fields, data order, the
 * padding between members and after the directory. With every member kept
 * and none added the result is the original's bytes (a pack appended to an
 * executable comes with the executable and its trailer). Changed or added members move what
 * follows; the padding is then recomputed from the alignment the original
 * shows. Added members go after the others, in the directory's form. */
SV_API SV_NODISCARD sv_status sv_godot_pck_repack(const sv_godot_pck *orig,
                                                  const sv_godot_pck_change *changes,
                                                  const sv_godot_pck_entry *added, size_t nadded,
                                                  sv_buf *out, sv_error *err);

#ifdef __cplusplus
}
#endif
#endif
