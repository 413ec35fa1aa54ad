/* Godot Variant binary: what the decoder, encoder and framing share.
 *
 * One core serves every profile. Internally every Variant type is named by
 * its Godot 4.x number (gd_type); a profile (godot_types_*.c) maps its wire
 * codes to and from those numbers and says which per-version rules apply.
 * Comments cite "spec §N": the numbered sections of docs/formats/godot.md,
 * "Byte layout". */
#ifndef SV_FORMATS_GODOT_INTERNAL_H
#define SV_FORMATS_GODOT_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/compiler.h"
#include "serval/godot.h"

/* spec §3.1: the 4.x enum, used as serval's internal type numbering. */
typedef enum gd_type {
    GD_NIL = 0,
    GD_BOOL,
    GD_INT,
    GD_FLOAT,
    GD_STRING,
    GD_VECTOR2,
    GD_VECTOR2I,
    GD_RECT2,
    GD_RECT2I,
    GD_VECTOR3,
    GD_VECTOR3I,
    GD_TRANSFORM2D,
    GD_VECTOR4,
    GD_VECTOR4I,
    GD_PLANE,
    GD_QUATERNION,
    GD_AABB,
    GD_BASIS,
    GD_TRANSFORM3D,
    GD_PROJECTION,
    GD_COLOR,
    GD_STRING_NAME,
    GD_NODE_PATH,
    GD_RID,
    GD_OBJECT,
    GD_CALLABLE,
    GD_SIGNAL,
    GD_DICTIONARY,
    GD_ARRAY,
    GD_PACKED_BYTE,
    GD_PACKED_INT32,
    GD_PACKED_INT64,
    GD_PACKED_FLOAT32,
    GD_PACKED_FLOAT64,
    GD_PACKED_STRING,
    GD_PACKED_VECTOR2,
    GD_PACKED_VECTOR3,
    GD_PACKED_COLOR,
    GD_PACKED_VECTOR4,
    GD_TYPE_COUNT,
    GD_NONE = 0xFF
} gd_type;

/* spec §2: header bits. */
#define GD_TYPE_MASK 0xFFu
#define GD_FLAG_64 (1u << 16)        /* INT, FLOAT, real math types (4.x) */
#define GD_FLAG_OBJECT_ID (1u << 16) /* OBJECT: encoded as instance id */
#define GD_ARRAY_KIND_SHIFT 16       /* ARRAY (4.3+): element kind, bits 16-17 */
#define GD_DICT_KEY_SHIFT 16         /* DICTIONARY (4.4+): key kind, bits 16-17 */
#define GD_DICT_VALUE_SHIFT 18       /* DICTIONARY (4.4+): value kind, bits 18-19 */

/* spec §2: container type kinds. */
enum { GD_KIND_NONE = 0, GD_KIND_BUILTIN = 1, GD_KIND_CLASS = 2, GD_KIND_SCRIPT = 3 };

/* A profile: the wire numbering of one family of engine versions. */
typedef struct gd_profile {
    const char *name;     /* the format name in errors: "godot4" */
    unsigned variant_max; /* codes >= this are ERR_INVALID_DATA (spec §7) */
    const uint8_t *to_gd; /* variant_max entries: wire code -> gd_type */
    bool godot4_rules;    /* 64-bit math flag, RID u64, strict UTF-8, typed containers */
} gd_profile;

extern const gd_profile gd_profile_godot4;
extern const gd_profile gd_profile_godot3;
extern const gd_profile gd_profile_doc;

/* What a decode met that the tree alone does not say, so that the file's
 * meta can record it (godot_file_meta.c). */
typedef struct gd_seen {
    bool full_object;  /* an Object in full (objects=full), a null one too */
    bool version_bits; /* container kind bits this 4.x version ignores */
} gd_seen;

/* The rules of one decode or encode: the profile plus the options. */
typedef struct gd_rules {
    const gd_profile *prof;
    const char *fmt;      /* for errors */
    unsigned variant_max; /* 38 for 4.0-4.2 */
    bool typed_arrays;    /* 4.3+ */
    bool typed_dicts;     /* 4.4+ */
    bool full_objects;
    bool real_double;
    uint32_t max_depth;
    uint64_t max_string; /* serval's limit on one String or PackedByteArray */
    bool bare_root;      /* a root with bytes of its own stays bare (checking a record) */
    bool borrow_input;   /* aligned packed arrays and 00-ended strings point into the input */
    gd_seen *seen;       /* decoding: filled when not NULL */
    uint8_t to_wire[GD_TYPE_COUNT]; /* gd_type -> wire code, 0xFF = none */
} gd_rules;

/* *out = the defaults (SV_GODOT4), overlaid with the members of opts (NULL:
 * none) that fit in its struct_size (core/opts.h). */
sv_status gd_opts_read(sv_godot_opts *out, const sv_godot_opts *opts, sv_error *err);
/* The rules of one run; opts is complete (gd_opts_read made it). */
void gd_rules_init(gd_rules *r, const sv_godot_opts *opts);

/* Godot 4 type names ("int", "Vector3", "PackedStringArray"), for typed
 * container meta data and messages. */
const char *gd_type_name(unsigned t);
/* The gd_type named name, or GD_NONE. */
unsigned gd_type_by_name(const char *name, size_t len);

/* Math types carried as tuples (spec §5.1). */
typedef struct gd_math {
    sv_tag tag;
    uint8_t scalars;
    uint8_t real; /* 1: real_t fields (f32, or f64 with the 64-bit flag in 4.x) */
    uint8_t ints; /* 1: i32 fields */
} gd_math;
/* The math description of t, or NULL when t is not a math tuple type. */
const gd_math *gd_math_of(unsigned t);
/* The gd_type of a tuple tag, or GD_NONE. */
unsigned gd_type_of_tuple_tag(sv_tag tag);

/* The meta value that marks a PackedStringArray (an SV_ARRAY of strings). */
#define GD_PSA_META "PackedStringArray"

/* ---- strings (godot_string.c) ---- */

/* Checks and normalises a string's bytes as the profile's String::parse_utf8
 * does (spec §4: BOM skipped, cut at the first NUL, invalid UTF-8 refused)
 * and stores the result in the document. Returns false with *bad_at (offset
 * of the offending byte inside s) when the bytes are refused. */
bool gd_string_make(sv_doc *doc, const char *s, size_t len, bool godot4, bool intern, sv_value *out,
                    size_t *bad_at);
/* Whether the bytes are their own string value: ASCII without a NUL (so
 * no BOM, nothing to cut, nothing to rewrite). */
bool gd_string_is_plain(const char *s, size_t len);
/* Whether a tree string can be written as-is (valid for the profile, no NUL). */
bool gd_string_writable(const char *s, size_t len, bool godot4, size_t *bad_at);

/* ---- NodePath (godot_nodepath.c) ---- */

typedef struct gd_np_part {
    const char *s;
    size_t len;
} gd_np_part;

/* Whether names/subnames survive the text form "/a/b:c:d" (spec §5.3) and
 * back; when not, *why says why. */
bool gd_nodepath_representable(const gd_np_part *names, uint32_t nn, const gd_np_part *subs,
                               uint32_t ns, const char **why);
/* The text form's length, and writing it (dst has room for that many bytes). */
size_t gd_nodepath_text_len(const gd_np_part *names, uint32_t nn, const gd_np_part *subs,
                            uint32_t ns, bool absolute);
void gd_nodepath_text(char *dst, const gd_np_part *names, uint32_t nn, const gd_np_part *subs,
                      uint32_t ns, bool absolute);
/* Splits a text form: calls part(ctx, is_subname, s, len) for every component
 * in order; returns the absolute flag. */
bool gd_nodepath_split(const char *s, size_t len,
                       void (*part)(void *ctx, bool sub, const char *s, size_t len), void *ctx);

/* ---- dictionary keys (godot_keys.c) ---- */

/* A hash over every part of a Dictionary key that decides whether two keys
 * are the same key for the engine (spec §6.4: duplicates keep the first
 * position and take the last value): keys that are the same hash alike. */
uint64_t gd_key_hash(const sv_value *v, bool godot4);
/* Removes duplicate keys of a freshly decoded map in place. false = out of
 * memory. where (NULL: not wanted) gets, for each pair of the stream, the
 * index of the entry it went to; it is filled only when a key repeats. */
bool gd_map_dedupe(sv_doc *doc, sv_value *map, bool godot4, uint32_t *where);

/* ---- the core ---- */

/* sv_godot_decode, with what it met in *seen (NULL: not wanted). */
sv_status gd_decode_framed(sv_doc *doc, const uint8_t *data, size_t len, const sv_godot_opts *opts,
                           gd_seen *seen, sv_value *out, size_t *consumed, sv_error *err);

/* The framing probe's frames_fit reading kept (godot_file_meta.c): data
 * as store_var frames with prefix byte order be, each exactly one Variant
 * filling its frame, up to the input's end, read with r into doc. 1: they
 * fit, *out an Array of the values (*frames of them, *typed holding more
 * than a nil); 0: they do not (values read stay in doc unused); -1: out
 * of memory. */
int gd_decode_frames_exact(sv_doc *doc, const gd_rules *r, const uint8_t *data, size_t len, bool be,
                           sv_value *out, size_t *frames, size_t *typed);

/* Decodes one Variant from [data, data+len); base is the start of the whole
 * input (for offsets). *used gets the engine's r_len. */
sv_status gd_decode_value(sv_doc *doc, const gd_rules *r, const uint8_t *base, const uint8_t *data,
                          size_t len, sv_value *out, size_t *used, sv_error *err);
/* How many times gd_decode_value has run in this process (for tests). */
unsigned long gd_variants_read(void);
/* Repeated-key checks of Dictionaries run so far by whole-Variant decodes. */
unsigned long gd_key_checks(void);
sv_status gd_encode_value(const gd_rules *r, const sv_value *v, sv_buf *out, sv_error *err);
/* The same; with stream, the output may be handed to out's sink as it goes
 * (serval/buf.h): for a raw Variant, whose bytes are never patched. */
sv_status gd_encode_value_ex(const gd_rules *r, const sv_value *v, bool stream, sv_buf *out,
                             sv_error *err);
/* The encoder one item of an outermost container at a time, with the state
 * an encode keeps across items (godot_transcode.c): open, put each item
 * (rec: the bytes its container's record keeps for it, or NULL; depth 1),
 * forget what it knows by address when the tree's document is emptied,
 * close (finish: the end of the output, gd_rec_finish). */
typedef struct gd_item_enc gd_item_enc;
gd_item_enc *gd_item_enc_open(const gd_rules *r, bool stream, sv_buf *out, sv_error *err);
sv_status gd_item_enc_put(gd_item_enc *w, const sv_value *v, const sv_value *rec, unsigned depth);
void gd_item_enc_forget(gd_item_enc *w);
void gd_item_enc_close(gd_item_enc *w, bool finish);

/* ---- bytes kept beyond the value (godot_records.c) ---- */

/* The header bits the decoder interprets for type t (beyond the type code). */
uint32_t gd_header_used(const gd_rules *r, unsigned t);
/* Whether an Array is a PackedStringArray (meta "PackedStringArray", or a
 * meta map whose "packed" entry says so). */
bool gd_is_psa(const sv_value *v);

/* Decoding: what a container's meta gets beyond its value. */
typedef struct gd_extra_in {
    bool header_odd, count_odd;
    uint32_t header, count;
    sv_value raw;    /* the records, an array, or null */
    sv_value dups;   /* a Dictionary's repeated pairs, an array, or null */
    sv_value blocks; /* typed-container names kept as read, an array, or null */
} gd_extra_in;
/* Appends [which, bytes] for a container type block's string. */
bool gd_block_add(sv_doc *doc, sv_value *list, const char *which, const uint8_t *p, size_t n);
/* Appends the record [index, bytes] (part NULL) or [index, part, bytes]. */
bool gd_rec_add(sv_doc *doc, sv_value *list, uint32_t index, const char *part, const uint8_t *p,
                size_t n);
/* Adds x to the meta of container c (nothing when x is empty). */
bool gd_meta_extend(sv_doc *doc, sv_value *c, const gd_extra_in *x);
/* A Dictionary whose stream repeated a key: the records that give the
 * stream back (the pairs the tree dropped, "dups", and the first value of
 * each repeated key) replace x->raw. off: where each stream pair's key and
 * value start (2 per pair, from pairs), end: the end of the last pair,
 * where: the entry each pair went to (gd_map_dedupe). */
bool gd_dups_records(sv_doc *doc, gd_extra_in *x, const uint8_t *pairs, const uint32_t *off,
                     size_t end, const uint32_t *where, uint32_t count);
/* Makes root value v, read from p[0..n), the one item of a "root" Array. */
bool gd_root_wrap(sv_doc *doc, sv_value *v, const uint8_t *p, size_t n);

/* Encoding: a container's meta, read once. */
typedef struct gd_extra {
    const sv_value *type, *key, *value, *packed, *raw, *dups, *blocks;
    uint32_t raw_at, header, count, entries;
    bool has_header, has_count, root;
} gd_extra;
bool gd_extra_read(const sv_value *meta, gd_extra *x, const char **why);
/* The bytes kept for the type block which ("type", "key", "value"), or NULL. */
const sv_value *gd_extra_block(const gd_extra *x, const char *which);
/* The bytes recorded for item index (part -1), or its key (0) or value (1). */
const sv_value *gd_extra_record(gd_extra *x, uint32_t index, int part);

typedef struct gd_rec_ctx {
    sv_doc *scratch;   /* records are decoded here to be checked */
    uint64_t trim_end; /* an output position (sv_buf_pos) */
    size_t trim;
} gd_rec_ctx;
/* Writes the recorded bytes rec for v when they decode to v: 1 written,
 * 0 not (write v), -1 out of memory. string: rec is a string as a
 * PackedStringArray element or a type block holds it (length, bytes,
 * padding), else a Variant. */
int gd_rec_emit(gd_rec_ctx *c, const gd_rules *r, const sv_value *rec, const sv_value *v,
                bool string, sv_buf *out);
/* Whether out[start..) decodes to a Dictionary with v's pairs: 1 yes, 0 no,
 * -1 out of memory. */
int gd_rec_check_map(gd_rec_ctx *c, const gd_rules *r, size_t start, const sv_value *v,
                     sv_buf *out);
/* At the end of an encode: a PackedByteArray record that ends the output
 * loses the padding its source did not have. */
void gd_rec_finish(gd_rec_ctx *c, sv_buf *out);
void gd_rec_ctx_free(gd_rec_ctx *c);

/* Options from name=value pairs (godot_options.c). */
sv_status gd_opts_from_registry(sv_godot_profile profile, const sv_options *o, bool encode,
                                sv_godot_opts *out, sv_error *err);
/* The godot4_minor of a version text "4.N" (2 for 4.0-4.2, 3, 4 for 4.4 and
 * later), or 0 when the text is no 4.x version. */
int gd_version_minor(const char *v);

/* Little-endian host (SV_LITTLE_ENDIAN): packed arrays are one memcpy. */

#endif
