/* Godot binary resources, format godot-res (internal): RSRC streams and
 * their RSCC (FileAccessCompressed) wrapping.
 *
 * The tree (docs/formats/godot-resources.md):
 *   {"$map": {"external": [{"type", "path"[, "uid"]}, ...],
 *             "internal": [{"$class": type, "$meta": {"path": "local://1"},
 *                           property: value, ...}, ...]},
 *    "$meta": {header fields, "strings": [the string table], ...}}
 * The last internal resource is the main one. References are
 * {"$ext": index} and {"$sub": id as stored}, a null Object {"$ref": null}.
 *
 * The Variant encoding inside resources is not marshalls' (godot_decode.c):
 * it has its own type ids (spec §4), so it has its own reader and writer
 * here, sharing only the NodePath text helpers of godot_nodepath.c. */
#ifndef SV_GODOT_RES_INTERNAL_H
#define SV_GODOT_RES_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/error.h"
#include "serval/registry.h"
#include "serval/value.h"

#define GR_FORMAT "godot-res"

/* Variant type ids of the resource format (spec §4.1). */
enum {
    GR_NIL = 1,
    GR_BOOL = 2,
    GR_INT = 3,
    GR_REAL = 4,
    GR_STRING = 5,
    GR_VECTOR2 = 10,
    GR_RECT2 = 11,
    GR_VECTOR3 = 12,
    GR_PLANE = 13,
    GR_QUAT = 14,
    GR_AABB = 15,
    GR_BASIS = 16,
    GR_TRANSFORM3D = 17,
    GR_TRANSFORM2D = 18,
    GR_COLOR = 20,
    GR_IMAGE = 21,
    GR_NODE_PATH = 22,
    GR_RID = 23,
    GR_OBJECT = 24,
    GR_DICTIONARY = 26,
    GR_ARRAY = 30,
    GR_BYTE_ARRAY = 31,
    GR_INT32_ARRAY = 32,
    GR_FLOAT32_ARRAY = 33,
    GR_STRING_ARRAY = 34,
    GR_VECTOR3_ARRAY = 35,
    GR_COLOR_ARRAY = 36,
    GR_VECTOR2_ARRAY = 37,
    GR_INT64 = 40,
    GR_DOUBLE = 41,
    GR_CALLABLE = 42,
    GR_SIGNAL = 43,
    GR_STRING_NAME = 44,
    GR_VECTOR2I = 45,
    GR_RECT2I = 46,
    GR_VECTOR3I = 47,
    GR_INT64_ARRAY = 48,
    GR_FLOAT64_ARRAY = 49,
    GR_VECTOR4 = 50,
    GR_VECTOR4I = 51,
    GR_PROJECTION = 52,
    GR_VECTOR4_ARRAY = 53,
};

/* OBJECT kinds (spec §4.9). */
enum { GR_OBJ_EMPTY = 0, GR_OBJ_EXT_PATH = 1, GR_OBJ_INTERNAL = 2, GR_OBJ_EXT_INDEX = 3 };

/* Header flags (spec §2.1). */
enum { GR_FLAG_NAMED_IDS = 1, GR_FLAG_UIDS = 2, GR_FLAG_REAL64 = 4, GR_FLAG_SCRIPT_CLASS = 8 };

/* The meta tag of an Array that stands for a PackedStringArray (the same
 * form godot3/godot4 use, so the typed JSON is one). */
#define GR_PSA_META "PackedStringArray"

/* A string table: the entries in order, and the first index of each text
 * through an open-addressing hash (a reference to a later duplicate is not
 * what a saver writes, and the decoder refuses it). */
typedef struct gr_strtab {
    const char **s;
    uint32_t *len;
    uint32_t count;
    uint32_t *slots; /* index + 1, 0 = free; nslots a power of two */
    uint32_t nslots;
} gr_strtab;

/* Builds the hash over s[0..count) in doc's arena. false: out of memory. */
bool gr_strtab_index(sv_doc *doc, gr_strtab *t);
/* The first index of the text, or UINT32_MAX. */
uint32_t gr_strtab_find(const gr_strtab *t, const char *s, size_t len);

/* How values are read and written: the facts of the file that change the
 * encoding of a value. */
typedef struct gr_ctx {
    bool be;             /* fields from offset 12 on are big-endian */
    bool real64;         /* header flag REAL_T_IS_DOUBLE: "real" fields are f64 */
    uint32_t ver_format; /* < 3: NodePaths have one more subname */
    unsigned max_depth;
    uint64_t max_string;
} gr_ctx;

/* A reader over the RSRC stream: offsets are the stream's (an RSRC file's
 * own, or the decompressed stream of an RSCC file). */
typedef struct gr_dec {
    gr_ctx c;
    sv_doc *doc;
    const uint8_t *base;
    size_t len;
    size_t pos;
    bool rscc; /* errors say "in the decompressed stream" */
    /* strings, byte arrays and (on a little-endian host, in a little-endian
     * file) packed number arrays point into base instead of being copied
     * (SV_F_BORROWED): the caller's borrow_input says base outlives the tree
     * (an RSCC plaintext lives in the document anyway). Packed arrays then sit wherever
     * the file puts them, often at 2 mod 4 (Godot 3 does not pad strings). */
    bool borrow;
    gr_strtab strings;
    /* per string table entry: its interned text once a property name used
     * it (checked then), else NULL */
    const char **names;
    sv_error *err;
} gr_dec;

/* Records an error at offset at of the stream. Returns the status. */
sv_status gr_fail(gr_dec *d, size_t at, sv_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

bool gr_need(gr_dec *d, size_t n, const char *what);
uint32_t gr_u32(gr_dec *d); /* in the file's byte order; call gr_need first */
uint64_t gr_u64(gr_dec *d);
/* A ustring (u32 length with its NUL, the bytes, the NUL): the text without
 * the NUL. A length of 0 or a last byte other than NUL (no saver writes
 * them) is refused: the tree could not give those bytes back. */
sv_status gr_read_ustring(gr_dec *d, const char *what, sv_value *out);

/* One Variant (spec §4) into *out. */
sv_status gr_read_variant(gr_dec *d, unsigned depth, sv_value *out);

/* A writer: the file's facts, the string table and the output. With
 * measure set it writes nothing and counts the bytes it would write: the
 * stream's writer sizes every body first, so that the offset table before
 * them is final when written and each byte can go to the output's sink as
 * soon as it is written (the output is never held whole). */
typedef struct gr_enc {
    gr_ctx c;
    sv_buf *out;
    const gr_strtab *strings;
    sv_error *err;
    bool measure;
    uint64_t measured; /* bytes counted while measure is set */
} gr_enc;

/* n bytes of output; large runs go out in window-sized pieces, each handed
 * to the sink (when out has one) before the next is copied. */
void gr_put_large(gr_enc *e, const void *p, size_t n);
static inline void gr_put(gr_enc *e, const void *p, size_t n)
{
    if (e->measure)
        e->measured += n;
    else if (e->out->sink && n > e->out->window)
        gr_put_large(e, p, n);
    else
        sv_buf_append(e->out, p, n);
}
static inline void gr_putc(gr_enc *e, uint8_t c)
{
    if (e->measure)
        e->measured++;
    else
        sv_buf_putc(e->out, c);
}

void gr_put_u32(gr_enc *e, uint32_t v);
void gr_put_u64(gr_enc *e, uint64_t v);
void gr_put_ustring(gr_enc *e, const char *s, size_t len);
sv_status gr_write_variant(gr_enc *e, const sv_value *v, unsigned depth);

/* Whole streams. */
sv_status gr_decode_stream(sv_doc *doc, const uint8_t *data, size_t len, bool rscc,
                           const sv_options *opts, sv_value *out, sv_error *err);
/* Appends the stream (from the big_endian word on) to out; base: the output
 * position (sv_buf_pos) of the stream's offset 0 (4 before it after an
 * "RSRC" magic). Every byte is final when written: with a sink, out hands
 * the output over as it goes. */
sv_status gr_encode_stream(const sv_value *root, sv_buf *out, uint64_t base, sv_error *err);

/* RSCC (spec §6): the plaintext of data into *plain (allocated in doc), and
 * the container's facts into *meta (mode, block_size, the compressed blocks). */
sv_status gr_rscc_open(sv_doc *doc, const uint8_t *data, size_t len, const sv_options *opts,
                       const uint8_t **plain, size_t *plain_len, sv_value *meta, sv_error *err);
/* Wraps plain into an RSCC container as meta says, copying every stored
 * block whose plaintext is unchanged and compressing the others. */
sv_status gr_rscc_write(const uint8_t *plain, size_t plain_len, const sv_value *meta, sv_buf *out,
                        sv_error *err);

#endif
