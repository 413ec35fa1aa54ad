/* serval: KingsIsle KIWAD archives (.wad), the files Wizard101 and Pirate101
 * ship their game data in.
 *
 * An archive is "KIWAD", a u32 version, a u32 member count, a flags byte
 * (version 2 and later only), a file table (per member: offset, size,
 * compressed size, compressed flag, CRC, name) and the members' bytes, each
 * stored raw or as one zlib stream. Everything is little-endian.
 *
 * sv_kiwad_open reads the table from memory and checks all of it before it
 * returns (a version above 2 is read as version 2, which every known reader
 * does; info.version says which it was): the count against the file size
 * (before allocating), every name
 * (relative, '/'-separated, UTF-8, no '.', '..' or empty component, no
 * backslash, no NUL, no duplicate, no name that is also a directory of
 * another), every data range against the file size, and that no two
 * non-empty ranges overlap. Member data is inflated only by sv_kiwad_read,
 * which keeps the output to the declared size and the caller's limits. */
#ifndef SERVAL_KIWAD_H
#define SERVAL_KIWAD_H

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

typedef struct sv_kiwad sv_kiwad;

/* One file-table entry, as read (pointers into the archive's memory or the
 * handle; valid until sv_kiwad_close). */
typedef struct sv_kiwad_member {
    const char *name;        /* NUL-terminated UTF-8 path */
    size_t name_len;         /* bytes, without the NUL */
    uint32_t offset;         /* absolute offset of the stored bytes */
    uint32_t size;           /* uncompressed size */
    uint32_t csize;          /* the compressed-size field as written */
    uint8_t compressed_flag; /* the flag byte as written; non-zero: zlib */
    bool compressed;
    uint32_t crc;          /* the table's CRC of the stored bytes */
    uint32_t stored_len;   /* compressed ? csize : size */
    bool unpatched;        /* a placeholder: all-zero data, CRC mismatch */
    uint64_t entry_offset; /* where its table entry begins */
} sv_kiwad_member;

typedef struct sv_kiwad_info {
    uint32_t version;
    int flags;          /* the flags byte, or -1 (version 1: none) */
    uint32_t count;     /* members */
    uint64_t table_end; /* first byte after the file table */
    uint64_t file_size;
} sv_kiwad_info;

/* Opens an archive of len bytes at data, which must outlive the handle.
 * alloc NULL: libc. Errors name "kiwad", the byte offset and the member. */
SV_API SV_NODISCARD sv_status sv_kiwad_open(const uint8_t *data, size_t len, const sv_alloc *alloc,
                                            sv_kiwad **out, sv_error *err);
SV_API void sv_kiwad_close(sv_kiwad *w);

SV_API sv_kiwad_info sv_kiwad_get_info(const sv_kiwad *w);
SV_API size_t sv_kiwad_count(const sv_kiwad *w);
/* Member i in table order; false past the end. */
SV_API bool sv_kiwad_member_at(const sv_kiwad *w, size_t i, sv_kiwad_member *m);
/* The table index of the member called name (exact bytes); SV_ERR_NOT_FOUND. */
SV_API sv_status sv_kiwad_find(const sv_kiwad *w, const char *name, size_t *index);
/* The member's bytes as stored (the zlib stream when compressed). */
SV_API const uint8_t *sv_kiwad_stored(const sv_kiwad *w, size_t i, size_t *len);

/* Checks member i's CRC; SV_ERR_SYNTAX (with both values) on a mismatch. */
SV_API SV_NODISCARD sv_status sv_kiwad_verify(const sv_kiwad *w, size_t i, sv_error *err);

/* Appends member i's content to out: the stored bytes, or the inflated
 * stream, which must give exactly the declared size (refused before any
 * work when that is over lim->max_decompressed or max_alloc). verify: check
 * the CRC first. An unpatched member is SV_ERR_REFUSED (it has no content). */
SV_API SV_NODISCARD sv_status sv_kiwad_read(const sv_kiwad *w, size_t i, const sv_limits *lim,
                                            bool verify, sv_buf *out, sv_error *err);

/* KingsIsle's CRC-32 (reflected 0x04C11DB7, initial 0, no final xor),
 * continuing from crc (0 to start): "123456789" gives 0x2DFD2D88. */
SV_API uint32_t sv_kiwad_crc(uint32_t crc, const uint8_t *p, size_t n);

/* Whether the game's writers store name raw instead of compressing it
 * (names ending in ".mp3" or ".ogg", case-sensitive). */
SV_API bool sv_kiwad_stores_raw(const char *name);

/* Whether name is safe as a member name (the checks sv_kiwad_open makes of
 * each name on its own); *why says what is wrong when not. */
SV_API bool sv_kiwad_name_ok(const char *name, size_t len, const char **why);

/* ---- writing ------------------------------------------------------------ */

/* A member to write. */
typedef struct sv_kiwad_entry {
    const char *name; /* '/'-separated relative path */
    const uint8_t *data;
    size_t len;
} sv_kiwad_entry;

/* Versioned: fill with sv_kiwad_write_opts_init, then set members
 * (api.h). */
typedef struct sv_kiwad_write_opts {
    uint32_t struct_size; /* set by sv_kiwad_write_opts_init */
    uint32_t version;     /* 1 or 2 (0: 2) */
    uint8_t flags;        /* written when version >= 2 (Root.wad has 1) */
    int level;            /* zlib level 1..9 (0: 9) */
} sv_kiwad_write_opts;

/* Defaults: version 2, flags 0, level 9. */
SV_API void sv_kiwad_write_opts_init(sv_kiwad_write_opts *o);

/* Writes an archive as KingsIsle's writer lays it out: table sorted by the
 * names' bytes, data in table order right after it, every member zlib
 * compressed at the level (also when that makes it larger) except .mp3 and
 * .ogg, which are stored with compressed size 0xFFFFFFFF. Names are checked
 * as sv_kiwad_open checks them; sizes and offsets must fit in 32 bits.
 * opts may be NULL (the defaults). */
SV_API SV_NODISCARD sv_status sv_kiwad_write(const sv_kiwad_entry *entries, size_t count,
                                             const sv_kiwad_write_opts *opts, sv_buf *out,
                                             sv_error *err);

/* What becomes of one member of the original in sv_kiwad_repack. */
typedef struct sv_kiwad_change {
    bool keep;           /* true: the original stored bytes, as they are */
    const uint8_t *data; /* otherwise: the new content (compressed as before) */
    size_t len;
} sv_kiwad_change;

/* Rewrites the archive orig with changes[i] for its member i (table order)
 * and the members added (names not in orig), reproducing everything else
 * byte for byte: version, flags, table order, each entry's flag byte and
 * stored compressed-size field, the data order, gaps and trailing bytes.
 * A changed member is compressed as its original was (zlib at level, 0: 9,
 * or stored); its range must overlap no other. Added members are placed in
 * the table before the first original name above theirs, their data after
 * everything, compressed as sv_kiwad_write does. With every member kept and
 * none added the result is orig's bytes. */
SV_API SV_NODISCARD sv_status sv_kiwad_repack(const sv_kiwad *orig, const sv_kiwad_change *changes,
                                              const sv_kiwad_entry *added, size_t nadded, int level,
                                              sv_buf *out, sv_error *err);

#ifdef __cplusplus
}
#endif
#endif
