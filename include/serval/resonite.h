/* serval: Resonite (and Neos) data trees: .brson, .7zbson, .lz4bson, and
 * .resonitepackage archives (the layout and the tree:
 * docs/formats/resonite.md).
 *
 * A data tree file is an optional 9-byte header ("FrDT", int32 0, the
 * compression as a 7-bit varint), a compressed payload (Brotli, the 7-Zip
 * SDK's LZMA layout, or lz4net's chunk stream) and, inside, one BSON
 * document. Decoding gives an OBJECT of class "resonite.DataTree" whose
 * fields are the BSON root's keys and whose meta records the container
 * ({"framing": "header"|"legacy", "compression": "brotli"|"lzma"|"lz4"}),
 * so encoding it again with no options gives back the same framing and
 * compression (and, for Brotli at the engine's quality 9 / window 16, the
 * same bytes). */
#ifndef SERVAL_RESONITE_H
#define SERVAL_RESONITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "buf.h"
#include "error.h"
#include "registry.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The values of the header's compression field (spec A.2.1). */
typedef enum sv_resonite_compression {
    SV_RESONITE_AUTO = -1, /* reading: header or sniffing; writing: the tree's meta */
    SV_RESONITE_NONE = 0,  /* never accepted, never written (spec A.2.1) */
    SV_RESONITE_LZ4 = 1,
    SV_RESONITE_LZMA = 2,
    SV_RESONITE_BROTLI = 3
} sv_resonite_compression;

typedef enum sv_resonite_framing {
    SV_RESONITE_FRAMING_AUTO = 0, /* writing: the tree's meta, else header */
    SV_RESONITE_FRAMING_HEADER,   /* the 9-byte FrDT header */
    SV_RESONITE_FRAMING_LEGACY    /* no header: the payload alone */
} sv_resonite_framing;

/* What a file's container was. */
typedef struct sv_resonite_container {
    sv_resonite_framing framing;
    sv_resonite_compression compression;
} sv_resonite_container;

/* Versioned: fill with sv_resonite_opts_init, then set members (api.h). */
typedef struct sv_resonite_opts {
    uint32_t struct_size; /* set by sv_resonite_opts_init */
    sv_limits limits;
    /* Reading: the compression expected (a file's extension says it in
     * Resonite; AUTO: the header's, or sniffed for legacy files). A header
     * that says otherwise is an error, as in Resonite. Writing: the
     * compression to use (AUTO: the tree's meta, else Brotli). */
    sv_resonite_compression compression;
    sv_resonite_framing framing; /* writing only */
    int brotli_quality;          /* writing; 0 = 9, Resonite's */
    int brotli_window;           /* writing; 0 = 16, Resonite's */
    bool raw_strings;            /* no "@" URL convention (plain BSON strings) */
    /* Reading: extra threads the decoder may start. 0 (the default): none,
     * everything runs on the calling thread, since a library must not start
     * threads its caller did not ask for. 1: a Brotli payload of 1 MiB or
     * more is decompressed by a second thread while this one reads the BSON
     * behind it (docs/formats/resonite.md, "Threads"); the document's
     * allocator is then also called from that thread (the Brotli decoder's
     * memory), so it must be safe to call from two threads. */
    int threads;
} sv_resonite_opts;

/* The default options: everything automatic, Resonite's parameters. */
SV_API void sv_resonite_opts_init(sv_resonite_opts *o);

/* Whether sv_resonite_decode would accept data with these options, with the
 * same error when not, without building a tree (sv_bson_validate): faster,
 * and the only memory is the decompressed payload's. The allocation limit
 * does not apply; the decompressed-size, depth and string limits do. With
 * threads=1 a Brotli payload is checked while a second thread decompresses
 * it, as when decoding. */
SV_API SV_NODISCARD sv_status sv_resonite_validate(const uint8_t *data, size_t len,
                                                   const sv_resonite_opts *opts, sv_error *err);

/* File bytes to the tree described above. opts may be NULL. */
/* The tree does not borrow the input: every string, byte string and packed
 * array is copied into the document, so the input may be freed as soon as
 * the call returns. */
SV_API SV_NODISCARD sv_status sv_resonite_decode(sv_doc *doc, const uint8_t *data, size_t len,
                                                 const sv_resonite_opts *opts, sv_value *out,
                                                 sv_error *err);
/* The tree (a resonite.DataTree object or any map) to file bytes. */
SV_API SV_NODISCARD sv_status sv_resonite_encode(const sv_value *v, const sv_resonite_opts *opts,
                                                 sv_buf *out, sv_error *err);

/* The container layer alone: file bytes to the BSON bytes inside (appended
 * to bson), and back. info may be NULL. */
SV_API SV_NODISCARD sv_status sv_resonite_unwrap(const uint8_t *data, size_t len,
                                                 const sv_resonite_opts *opts, sv_buf *bson,
                                                 sv_resonite_container *info, sv_error *err);
SV_API SV_NODISCARD sv_status sv_resonite_wrap(const uint8_t *bson, size_t len,
                                               const sv_resonite_container *c,
                                               const sv_resonite_opts *opts, sv_buf *out,
                                               sv_error *err);

/* "brotli", "lzma", "lz4" (and "none"); AUTO/unknown give "". */
SV_API const char *sv_resonite_compression_name(sv_resonite_compression c);
/* Parses those names (also "7zbson", "brson", "lz4bson"); false if unknown. */
SV_API bool sv_resonite_compression_parse(const char *name, sv_resonite_compression *out);

/* A readable view of a decoded tree: one line per slot, indented by depth,
 * with its name, active flag and components (type names resolved through
 * the Types table), then the Assets list. */
SV_API SV_NODISCARD sv_status sv_resonite_tree_print(const sv_value *root, sv_buf *out,
                                                     sv_error *err);

/* The registry entry ("resonite"): options "compression", "framing",
 * "quality", "window", "raw-strings", "threads". */
SV_API extern const sv_format sv_format_resonite;

/* ---- .resonitepackage (a zip: R-Main.record, Assets/<sha256>, ...) ---------- */

typedef struct sv_resonite_member {
    const char *name;  /* as stored in the zip */
    uint64_t size;     /* uncompressed bytes */
    uint64_t csize;    /* stored bytes */
    bool is_data_tree; /* starts with the FrDT magic */
} sv_resonite_member;

typedef struct sv_resonite_package sv_resonite_package;

/* Opens a package held in memory (data must outlive the package). The
 * package's memory, and the inflater's while members are read, comes from
 * alloc (NULL: libc). Stored and deflated members are read; zip64,
 * encrypted and multi-disk archives are refused (SV_ERR_UNSUPPORTED). */
SV_API SV_NODISCARD sv_status sv_resonite_package_open(const uint8_t *data, size_t len,
                                                       const sv_alloc *alloc,
                                                       sv_resonite_package **out, sv_error *err);
SV_API void sv_resonite_package_close(sv_resonite_package *p);
SV_API size_t sv_resonite_package_count(const sv_resonite_package *p);
/* Member i; the strings live as long as the package. */
SV_API SV_NODISCARD sv_status sv_resonite_package_member(sv_resonite_package *p, size_t i,
                                                         sv_resonite_member *m, sv_error *err);
/* The bytes of member i, appended to out; at most max_size bytes (0: the
 * default decompressed-size limit, SV_ERR_LIMIT beyond it); the CRC-32 is
 * checked. */
SV_API SV_NODISCARD sv_status sv_resonite_package_read(sv_resonite_package *p, size_t i,
                                                       uint64_t max_size, sv_buf *out,
                                                       sv_error *err);
/* The index of the member called name in *index: SV_OK, or
 * SV_ERR_NOT_FOUND when there is none. */
SV_API SV_NODISCARD sv_status sv_resonite_package_find(const sv_resonite_package *p,
                                                       const char *name, size_t *index);

/* One member to write: its name in the zip and its bytes. */
typedef struct sv_resonite_entry {
    const char *name;
    const uint8_t *data;
    size_t len;
} sv_resonite_entry;

/* A package of the count entries, in that order, appended to out as a zip.
 * Data trees (FrDT) are stored, as they are compressed already; every other
 * member is deflated. Every member gets the date 1980-01-01 00:00, so that
 * the same entries give the same bytes. */
SV_API SV_NODISCARD sv_status sv_resonite_package_write(const sv_resonite_entry *entries,
                                                        size_t count, sv_buf *out, sv_error *err);

#ifdef __cplusplus
}
#endif
#endif
