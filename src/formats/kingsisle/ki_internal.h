/* KingsIsle ObjectProperty: the shared internals (type list, codec state).
 * Section numbers (§) are those of docs/formats/kingsisle.md, "Section
 * numbers in the sources", which says what each covers. */
#ifndef SV_KI_INTERNAL_H
#define SV_KI_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/bitio.h"
#include "serval/kingsisle.h"

#define KI_FORMAT "kingsisle"
#define KI_BIND_MAGIC 0x644E4942u /* "BINd" little-endian, §4.4 */

/* How a value is encoded (§6.1). */
typedef enum ki_kind {
    KI_BOOL = 0,
    KI_I8,
    KI_U8,
    KI_I16,
    KI_U16,
    KI_WCHAR,
    KI_I32,
    KI_U32,
    KI_F32,
    KI_F64,
    KI_I64,
    KI_U64,
    KI_BITS_S, /* biN, s24: bits says N */
    KI_BITS_U, /* buiN, u24 */
    KI_STR,
    KI_WSTR,
    KI_COLOR,     /* B,G,R,A bytes */
    KI_VEC3,      /* 3 x f32 */
    KI_EULER,     /* 3 x f32: pitch, yaw, roll */
    KI_QUAT,      /* 4 x f32 */
    KI_MAT3,      /* 9 x f32 */
    KI_SIZE_I,    /* 2 x i32 */
    KI_POINT_I,   /* 2 x i32 */
    KI_POINT_F,   /* 2 x f32 */
    KI_POINT_U8,  /* 2 x u8 */
    KI_POINT_U32, /* 2 x u32 */
    KI_RECT_I,    /* 4 x i32 */
    KI_RECT_F,    /* 4 x f32 */
    KI_ENUM,
    KI_OBJECT,
    KI_OPAQUE, /* a type with no known encoding (class SerializedBuffer, ...) */
    KI_KIND_COUNT
} ki_kind;

typedef struct ki_enum_opt {
    const char *name;
    uint32_t len;
    uint32_t value;
} ki_enum_opt;

typedef struct ki_enum {
    const char *name;
    const ki_enum_opt *opts; /* declaration order, without __DEFAULT/__BASECLASS */
    uint32_t n;
} ki_enum;

typedef struct ki_prop {
    const char *name;
    const char *type; /* as the list spells it */
    uint32_t name_len;
    uint32_t hash, id, flags;
    uint32_t gidx; /* index among all properties of the list (key cache) */
    uint8_t kind;  /* ki_kind */
    uint8_t bits;  /* KI_BITS_S/U: width */
    bool dynamic;
    bool bits_enum; /* a bit-flag enum (BITS flag) */
    const ki_enum *enm;
} ki_prop;

typedef struct ki_class {
    const char *name;
    uint32_t name_len;
    uint32_t hash;
    uint32_t index; /* in the list's classes: indexes the decoder's shapes */
    uint32_t nprops;
    ki_prop *props; /* sorted by id */
    /* open addressing: prop index + 1, 0 = empty. Each table holds the
     * first property (in id order) of each hash or name only, so that a
     * list repeating one name many times costs no more than distinct names
     * (a lookup finds that first property, as a scan in id order would). */
    uint32_t *by_hash;
    uint32_t *by_name;
    uint32_t hcap; /* power of two, for both */
} ki_class;

struct sv_kingsisle_types {
    sv_doc *arena; /* owns every string and array below */
    const sv_alloc *alloc;
    ki_class **classes; /* in the order added (replaced in place) */
    uint32_t nclasses, cap;
    uint32_t *by_hash; /* class index + 1 */
    uint32_t *by_name;
    uint32_t tcap;
    uint32_t total_props;
};

/* ---- hashes (ki_hash.c) ---- */
uint32_t ki_string_id(const uint8_t *s, size_t n);
uint32_t ki_djb2(const uint8_t *s, size_t n);

/* ---- type lists (ki_types.c) ---- */

/* The encoding of a type string (leaf types of §6.1; anything else that is
 * not an enum is an object). *bits gets the width of bit integers. */
ki_kind ki_kind_of_type(const char *type, size_t len, uint8_t *bits);
/* A property under construction, before ki_types_add_class. */
typedef struct ki_prop_src {
    const char *name;
    size_t name_len;
    const char *type;
    size_t type_len;
    uint32_t hash, id, flags;
    bool has_hash, dynamic;
    const ki_enum_opt *opts; /* may be NULL */
    uint32_t nopts;
    uint8_t force_kind;   /* ki_kind + 1 when not read from the type string; 0 = read it */
    bool force_bits_enum; /* with force_kind KI_ENUM + 1: a bit-flag enum */
} ki_prop_src;
/* Adds (or replaces, by hash) a class with its properties; sorts them by id.
 * Copies everything into the list's arena. */
sv_status ki_types_add_class(sv_kingsisle_types *t, const char *name, size_t name_len,
                             uint32_t hash, const ki_prop_src *props, size_t nprops,
                             const char *source, sv_error *err);
const ki_class *ki_class_by_hash(const sv_kingsisle_types *t, uint32_t hash);
const ki_class *ki_class_by_name(const sv_kingsisle_types *t, const char *name, size_t len);
const ki_prop *ki_prop_by_hash(const ki_class *c, uint32_t hash);
const ki_prop *ki_prop_by_name(const ki_class *c, const char *name, size_t len);
/* Copies bytes into the list's arena (NUL-terminated); NULL on failure. */
char *ki_types_strdup(sv_kingsisle_types *t, const char *s, size_t n);

/* ---- type list readers ---- */
sv_status ki_load_wiztype(sv_kingsisle_types *t, const uint8_t *data, size_t len,
                          const char *source, sv_error *err);
sv_status ki_load_classlist_xml(sv_kingsisle_types *t, const uint8_t *data, size_t len,
                                const char *source, sv_error *err);

/* The schema loader for type lists (ki_schema.c), listed in the schema layer's table. */
typedef struct sv_schema_loader sv_schema_loader;
extern const sv_schema_loader sv_schema_loader_kingsisle;

/* ---- codec state ---- */

/* Non-zero padding bits of one object: pairs (ordinal of the alignment point
 * that skipped bits, the bits), kept in a scratch stack while decoding. */
typedef struct ki_u32s {
    uint32_t *v;
    size_t n, cap;
    const sv_alloc *alloc;
    bool failed;
} ki_u32s;

/* Where the decoder is, for a warning's JSON Pointer: one frame per open
 * object, the field being read and, inside a list, the element. */
typedef struct ki_frame {
    const char *key;
    size_t key_len;
    int64_t index; /* -1: not in a list */
} ki_frame;

typedef struct ki_dec {
    sv_bitreader br;
    sv_doc *doc;
    const sv_kingsisle_types *types;
    uint32_t flags, mask;
    bool shallow, skip_deprecated;
    uint32_t depth, max_depth;
    uint64_t max_string;
    uint32_t pad_count; /* alignment points with padding in the current object */
    ki_u32s pads;       /* scratch: (ordinal, bits) pairs of open objects */
    sv_value *keys;     /* interned property names, by ki_prop.gidx */
    sv_pair *fields;    /* scratch: the fields of open objects */
    size_t nfields, fields_cap;
    /* By ki_class.index (NULL without a type list): the shape of the
     * class's compact objects in this document, made from the first object
     * of the class whose fields are all the class's properties; NULL until
     * then. An object whose field list is that shape's is built compact. */
    const sv_shape **shapes;
    bool all_known;     /* the object being read holds no unknown or absent property */
    uint64_t base;      /* offset of the bit stream in the input (errors) */
    uint32_t len_count; /* compact length prefixes read in the current object */
    ki_u32s longs;      /* scratch: ordinals of prefixes in the 31-bit form that fit 7 bits */
    bool skip_unknown;  /* skip_unknown_types: unknown classes read as null */
    void (*warn)(void *ctx, const sv_error *w);
    void *warn_ctx;
    ki_frame *frames; /* by depth, only kept when warn is set */
    size_t frames_cap;
} ki_dec;

typedef struct ki_enc {
    sv_bitwriter bw;
    sv_buf *out;
    const sv_kingsisle_types *types;
    uint32_t flags, mask;
    bool shallow, skip_deprecated;
    uint32_t depth;
    /* padding of the current object, from its meta */
    const uint32_t *pads;
    size_t npads, pad_next;
    uint32_t pad_count;
    /* compact length prefixes of the current object that go in the 31-bit
     * form though they fit 7 bits, from its meta */
    const uint32_t *longs;
    size_t nlongs, long_next;
    uint32_t len_count;
    sv_error *err;
    sv_status status;
    /* Deep sizes (of objects and properties, in the order their size fields
     * are written) for an output that streams through a sink, where nothing
     * written may be patched later: a first pass (sizing) encodes into a
     * scratch buffer that discards its bytes and records each size; the
     * second (forward) writes each size before its content, checks it once
     * the content is written and releases the bytes as it goes. Neither:
     * sizes are patched in the output (ki_write.c), through the sink when
     * it took them already (one that can patch: buf_seekable.h). */
    uint32_t *sizes;
    size_t nsizes, sizes_cap, size_next;
    bool sizing, forward;
    /* whether bytes go to the sink as they are written (sv_buf_release):
     * sizing, forward, or into a sink that can patch */
    bool streams;
    /* What a class name and a (class, field key) pair were last found to
     * be, by the address of the key's text: a decoded tree's keys and class
     * names are interned, so each is hashed and compared once per encode,
     * not once per object (ki_write.c). All zero: empty. */
    struct ki_class_slot {
        const char *name;
        size_t len;
        const ki_class *cls;
    } class_cache[64]; /* indexed by a 6-bit hash */
    struct ki_prop_slot {
        const char *key;
        size_t len;
        const ki_class *cls;
        const ki_prop *prop;
    } prop_cache[256]; /* indexed by an 8-bit hash */
    /* The properties of a compact object's fields, found once per shape
     * and class (its keys are the shape's): w_deep then looks no key up.
     * props has room for cap; freed by ki_enc_free_shapes. */
    struct ki_shape_slot {
        const sv_shape *shape;
        const ki_class *cls;
        const ki_prop **props;
        uint32_t cap;
        bool ok;       /* every key is a property of cls */
    } shape_cache[32]; /* indexed by a 5-bit hash */
} ki_enc;

/* ki_write.c: frees what the shape cache holds (allocated with alloc). */
void ki_enc_free_shapes(ki_enc *e, const sv_alloc *alloc);

/* ki_enum.c: an enum's value as the tree holds it, from binary or XML alike:
 * its name (names joined by '|' for bit-flag enums) tagged enum when the
 * type list names it and the name reads back as v, else the number (u32
 * tagged enum). */
sv_value ki_enum_value(sv_doc *doc, const ki_prop *p, uint32_t v);
/* The value of a name ("B", "A|C", "" = 0); false when a part is not an
 * option of p. */
bool ki_enum_parse(const ki_prop *p, const char *s, size_t n, uint32_t *out);

/* ki_read.c / ki_write.c */
sv_status ki_read_object(ki_dec *d, sv_value *out);
sv_status ki_write_object(ki_enc *e, const sv_value *v);
void ki_write_tail(ki_enc *e, uint32_t bits);
/* The names of an enum value (declaration order, '|' between bit flags);
 * false when the value has none. */
bool ki_enum_names(const ki_prop *p, uint32_t v, sv_buf *out);
void ki_dec_align(ki_dec *d);
sv_status ki_dec_fail(ki_dec *d, sv_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
sv_status ki_enc_fail(ki_enc *e, sv_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* ki_raw.c: schema-less values, {"bits": N, "data": bytes} */
sv_status ki_read_raw(ki_dec *d, uint64_t nbits, sv_value *out);
sv_status ki_write_raw(ki_enc *e, const sv_value *v);

/* Meta keys of objects and of the root. */
#define KI_META_PADDING "padding"
#define KI_META_LONG_LENGTHS "long_lengths"
#define KI_META_TAIL "tail_padding"
#define KI_META_FLAGS "flags"
#define KI_META_MARKER "marker"
#define KI_META_ZLIB "zlib"
#define KI_META_MANUAL_ZLIB "manual_zlib"
#define KI_META_BIND "bind"
#define KI_META_MODE "mode"
/* The options the bytes were read with, where not the defaults (the root). */
#define KI_META_SHALLOW "shallow"
#define KI_META_COMPRESS "compress"
#define KI_META_OPTION_FLAGS "option_flags" /* "flags" is the stored word */
#define KI_META_PROPERTY_MASK "property_mask"
#define KI_META_SKIP_DEPRECATED "skip_deprecated"
#define KI_META_SKIP_UNKNOWN_TYPES "skip_unknown_types" /* decode only: never read back */

/* ki_opts.c: *out = the defaults, overlaid with the members of opts (NULL:
 * none) that fit in its struct_size (core/opts.h). SV_ERR_USAGE, named
 * format, for one too small (0: never given to sv_kingsisle_opts_init). */
sv_status ki_opts_read(sv_kingsisle_opts *out, const sv_kingsisle_opts *opts, const char *format,
                       sv_error *err);

/* ki_stream_opts.c: the options an encode uses. Each option the caller did
 * not choose (its SV_KI_OPT_* bit clear in o->given and its value the
 * default) is taken from the root's meta when it is recorded there; a stored
 * flags word ("flags") means stateful flags. A recorded value of the wrong
 * kind is an error naming its meta key. */
sv_status ki_opts_from_meta(sv_kingsisle_opts *o, const sv_value *meta, sv_error *err);

/* The property key of a hash with no name: its decimal digits. */
size_t ki_hash_key(uint32_t hash, char buf[11]);
/* Parses a key of decimal digits (a hash); false when it is a name. */
bool ki_parse_hash_key(const char *s, size_t n, uint32_t *hash);

#endif
