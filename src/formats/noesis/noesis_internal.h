/* NoesisGUI NSDH files: what the pieces of src/formats/noesis/ share (internal).
 *
 * The pieces, one job each:
 *   noesis_strings.c  NUL-terminated string lists (chunk strings, metadata strings)
 *   noesis_commands.c the metadata command stream: reading one command, skipping a body
 *   noesis_interp.c   decode: run the commands over the data section, build the tree
 *   noesis_emit.c     encode: run the commands over the tree, write the data section
 *   noesis_cmds_out.c encode: the commands' file form, written as the emitter goes
 *   noesis_plan.c     decode and encode: repeated instance bodies compiled once, replayed
 *   noesis_view.c     decode: property names as keys, colours as "#AARRGGBB"
 *   noesis_decode.c   header and chunk framing -> tree
 *   noesis_encode.c   tree -> header and chunk framing
 *   noesis_format.c   the registry entry, probe and options
 *
 * Comments cite "spec §B.n": the sections B.2 to B.7 of
 * docs/formats/noesis.md. */
#ifndef SV_FORMATS_NOESIS_INTERNAL_H
#define SV_FORMATS_NOESIS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/byteio.h"
#include "core/utf16.h"
#include "core/utf8.h"
#include "serval/buf.h"
#include "serval/error.h"
#include "serval/noesis.h"
#include "serval/registry.h"
#include "serval/value.h"

#define NSB_FORMAT "noesis"

/* spec §B.2: the signature 0x4E534448 in the file's byte order. */
#define NSB_SIGNATURE UINT32_C(0x4E534448)
#define NSB_VERSION_MIN 2
#define NSB_VERSION_MAX 5
#define NSB_VERSION_DEFAULT 5 /* spec §B.7 writer 1 */

/* spec §B.4: command ids (bits 0..6 of the op byte); 0x80 is the repeat bit. */
enum {
    NSB_BEGIN_INSTANCE = 0,
    NSB_END_INSTANCE = 1,
    NSB_BEGIN_GROUP = 2,
    NSB_END_GROUP = 3,
    NSB_BEGIN_ARRAY = 4,
    NSB_END_ARRAY = 5,
    NSB_REF = 6,
    NSB_INT8 = 7,
    NSB_INT16 = 8,
    NSB_INT32 = 9,
    NSB_INT64 = 10,
    NSB_UINT8 = 11,
    NSB_UINT16 = 12,
    NSB_UINT32 = 13,
    NSB_UINT64 = 14,
    NSB_BOOL = 15,
    NSB_FLOAT32 = 16,
    NSB_FLOAT64 = 17,
    NSB_CHAR8 = 18,
    NSB_CHAR16 = 19,
    NSB_STRING8 = 20,
    NSB_STRING16 = 21,
    NSB_BUFFER = 22,
    NSB_CMD_COUNT
};
#define NSB_REPEAT 0x80u
#define NSB_NULL_REF UINT32_C(0xFFFFFFFF)

/* The name of a command id ("BeginGroup"), "?" when unknown. */
const char *nsb_cmd_name(unsigned id);

/* ---- string lists (noesis_strings.c) ---- */

/* A string list as read: the entries (STRING, or BYTES when an 8-bit entry
 * is not UTF-8; STRING flagged UTF16 in unicode files) and the byte offset of
 * each entry, for resolving classId and Desc offsets. */
typedef struct nsb_strlist {
    const uint8_t *bytes; /* the list in the file (or in the encoder's buffer) */
    size_t size;
    bool unicode, big;
    uint32_t count;
    uint32_t *starts;   /* count entries, ascending */
    uint32_t *index_of; /* optional: per byte offset, the entry starting there or UINT32_MAX */
    sv_value *entries;  /* count entries (decoder only) */
} nsb_strlist;

/* Splits and checks a list (must be empty or end with a terminator). With
 * make_values, entries[] are made in doc. Errors name base_offset + i. */
sv_status nsb_strlist_read(sv_doc *doc, nsb_strlist *sl, const uint8_t *bytes, size_t size,
                           bool unicode, bool big, bool make_values, uint64_t base_offset,
                           sv_error *err);
/* Index of the entry starting at byte offset off, or -1. */
int64_t nsb_strlist_find_start(const nsb_strlist *sl, uint64_t off);
/* Appends the list form of an ARRAY of entries to out; when offsets is not
 * NULL, the byte offset of each entry is appended to it as a host u32. */
sv_status nsb_strlist_write(const sv_value *arr, bool unicode, bool big, sv_buf *out,
                            sv_buf *offsets, sv_error *err);
/* Whether entry value v has the same text as the entry at index i. */
bool nsb_strlist_entry_equal(const sv_value *a, const sv_value *b);

/* ---- commands (noesis_commands.c) ---- */

/* The tree keeps the command stream in a canonical form that does not
 * depend on the file's byte order or string width: the same bytes (op,
 * [count], [desc]) with count and desc little-endian and desc the INDEX of
 * a metadata string instead of its byte offset. So a tree can be written
 * big-endian or unicode and every offset follows. The decoder converts the
 * file's stream (nsb_cmds_from_file), the encoder converts back
 * (nsb_cmds_to_file); both run over the canonical form. */
typedef struct nsb_cmd {
    uint8_t id;
    bool repeat;
    uint32_t count;  /* 1 when not repeated */
    uint32_t desc;   /* metadata string index; UINT32_MAX if none */
    uint64_t offset; /* offset of the op byte (file offset when decoding) */
} nsb_cmd;

typedef struct nsb_cmds {
    const uint8_t *begin, *end; /* canonical stream */
    uint64_t offset0;           /* offset reported for begin (its file offset) */
    const sv_value *names;      /* metadata string entries */
    uint32_t name_count;
    sv_doc *doc;    /* decoder: where keys are interned; NULL when encoding */
    sv_value *keys; /* decoder: per name, the interned key (made lazily) */
    sv_error *err;
} nsb_cmds;

/* Converts the file's stream (byte order big) into canonical bytes at dst
 * (same length), checking ids, repeat bits and that every desc is the
 * offset of a string of names. file_offset is the stream's offset. */
sv_status nsb_cmds_from_file(const uint8_t *src, size_t len, bool big, const nsb_strlist *names,
                             uint64_t file_offset, uint8_t *dst, sv_error *err);
/* Appends the file form of a canonical stream; offsets[i] is the byte
 * offset of name i in the list written. */
sv_status nsb_cmds_to_file(const uint8_t *src, size_t len, bool big, const uint32_t *offsets,
                           uint32_t name_count, sv_buf *out, sv_error *err);

/* Reads the canonical command at *pos (checks the id, the repeat bit, the
 * desc range) and advances *pos. */
sv_status nsb_cmd_read(const nsb_cmds *cs, const uint8_t **pos, nsb_cmd *cmd);
/* Whether cmd may stand inside parent (NULL = the top of the stream);
 * an End must close its own kind of Begin. */
sv_status nsb_cmd_check_place(const nsb_cmds *cs, const nsb_cmd *cmd, const nsb_cmd *parent);
/* The command at *pos at the top of the stream (checked to be a
 * BeginInstance there): nsb_cmd_read and nsb_cmd_check_place, with the
 * common case, one plain BeginInstance (no count, no name), made inline. */
static inline sv_status nsb_cmd_read_top(const nsb_cmds *cs, const uint8_t **pos, nsb_cmd *cmd)
{
    const uint8_t *p = *pos;
    if (p < cs->end && p[0] == NSB_BEGIN_INSTANCE) {
        cmd->id = NSB_BEGIN_INSTANCE;
        cmd->repeat = false;
        cmd->count = 1;
        cmd->desc = UINT32_MAX;
        cmd->offset = cs->offset0 + (uint64_t)(p - cs->begin);
        *pos = p + 1;
        return SV_OK;
    }
    sv_status st = nsb_cmd_read(cs, pos, cmd);
    return st == SV_OK ? nsb_cmd_check_place(cs, cmd, NULL) : st;
}
/* From just after a Begin command at *pos, skips to just after its End
 * (checking every command on the way and the nesting depth). */
sv_status nsb_cmd_skip_body(const nsb_cmds *cs, const uint8_t **pos, const nsb_cmd *begin,
                            uint32_t depth, uint32_t max_depth);
/* The End id that closes a Begin id. */
static inline unsigned nsb_end_of(unsigned begin_id)
{
    return begin_id + 1;
}
static inline bool nsb_is_begin(unsigned id)
{
    return id == NSB_BEGIN_INSTANCE || id == NSB_BEGIN_GROUP || id == NSB_BEGIN_ARRAY;
}
static inline bool nsb_is_end(unsigned id)
{
    return id == NSB_END_INSTANCE || id == NSB_END_GROUP || id == NSB_END_ARRAY;
}
/* Decoder: the interned field key of a command's name (must be UTF-8). */
sv_status nsb_cmd_key(const nsb_cmds *cs, const nsb_cmd *cmd, sv_value *key);

/* Bytes of data one execution of a value command takes at least (strings
 * and buffers: their u32 length); 0 for Begin/End ids. */
static inline size_t nsb_value_min_size(unsigned id)
{
    static const uint8_t size[NSB_CMD_COUNT] = {0, 0, 0, 0, 0, 0, 4, 1, 2, 4, 8, 1,
                                                2, 4, 8, 1, 4, 8, 1, 2, 4, 4, 4};
    return id < NSB_CMD_COUNT ? size[id] : 0;
}

/* ---- interpreter (noesis_interp.c) and emitter (noesis_emit.c) ---- */

typedef struct nsb_interp_in {
    const uint8_t *file; /* the whole input, for offsets */
    const nsb_cmds *cmds;
    const uint8_t *data; /* data section */
    size_t data_size;
    const uint32_t *instances; /* instance list: component index per instance */
    uint32_t instance_count;
    const sv_value *classes; /* per component: the class value for objects */
    bool big;                /* the file's byte order */
    uint32_t max_depth;
    uint64_t max_string;
    uint64_t max_alloc; /* bounds the scratch table of instance Names */
    /* Transcoding (noesis_transcode.c): when each is set, no ARRAY of
     * objects and no table of Names is made (*objects is null); each
     * instance n is handed to each as soon as it is complete, with its
     * BeginInstance command and the body after it, its values made in the
     * document values, which each may empty (sv_doc_reset): the keys and
     * the interpreter's tables are in the decode's own document. */
    sv_status (*each)(void *ctx, uint32_t n, const nsb_cmd *begin, const uint8_t *body,
                      const sv_value *obj);
    void *each_ctx;
    sv_doc *values;
} nsb_interp_in;

/* Decodes the data section into an ARRAY of instance objects. *names is
 * set to NULL when no instance has a field "Name" holding a non-empty
 * UTF-8 STRING, else to a scratch array (nsb_names_size bytes, freed by
 * the caller with sv__core_doc_scratch_free) where instance i's entry is
 * that value or null: what nsb_view_apply resolves a local-value group's
 * ref to. */
sv_status nsb_interp_run(sv_doc *doc, const nsb_interp_in *in, sv_value *objects, sv_value **names);
/* The element type of a packed-array command (NSB_INT8 ... NSB_FLOAT64),
 * SV_ELEM_NONE for any other command. */
static inline sv_elem nsb_packed_elem(unsigned id)
{
    switch (id) {
    case NSB_INT8: return SV_ELEM_I8;
    case NSB_INT16: return SV_ELEM_I16;
    case NSB_INT32: return SV_ELEM_I32;
    case NSB_INT64: return SV_ELEM_I64;
    case NSB_UINT8: return SV_ELEM_U8;
    case NSB_UINT16: return SV_ELEM_U16;
    case NSB_UINT32: return SV_ELEM_U32;
    case NSB_UINT64: return SV_ELEM_U64;
    case NSB_FLOAT32: return SV_ELEM_F32;
    case NSB_FLOAT64: return SV_ELEM_F64;
    default: return SV_ELEM_NONE;
    }
}

/* A 64-bit hash of n bytes, 8 at a time, from seed: finds earlier command
 * runs and instance bodies that may be equal (a byte comparison settles
 * it). */
#define NSB_HASH_SEED UINT64_C(0x9E3779B97F4A7C15)
static inline uint64_t nsb_hash_bytes(const uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t h = seed;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        h = (h ^ w) * UINT64_C(0xBF58476D1CE4E5B9);
        h ^= h >> 29;
    }
    for (; i < n; i++) h = (h ^ p[i]) * UINT64_C(0x94D049BB133111EB);
    return h ^ (h >> 31);
}

static inline size_t nsb_names_size(uint32_t instance_count)
{
    return ((size_t)instance_count + 1) * sizeof(sv_value);
}

/* The file form of a little-endian command stream, written into an output
 * buffer without a sink as the emitter goes (noesis_cmds_out.c):
 * nsb_cmds_out_begin reserves the section in out, which is then written,
 * the canonical bytes with their descs patched: up to each instance's body (upto), then the body
 * (body: key, a hint naming bodies likely equal, such as the plan that
 * wrote it), then the rest (end). end: false
 * when a command could not be converted or out failed; the caller then
 * converts with nsb_cmds_to_file, which reports why. */
#define NSB_CMDS_OUT_SEEN 256u
typedef struct nsb_cmds_out {
    sv_buf *out;
    size_t at; /* where the section starts in out */
    const uint8_t *src;
    size_t len, done; /* canonical bytes, and how many are converted */
    const uint32_t *offsets;
    uint32_t name_count;
    bool bad;
    struct nsb_cmds_out_seen {
        uintptr_t key;
        size_t start, len; /* the last body converted under key */
    } seen[NSB_CMDS_OUT_SEEN];
} nsb_cmds_out;
void nsb_cmds_out_begin(nsb_cmds_out *w, const uint8_t *src, size_t len, const uint32_t *offsets,
                        uint32_t name_count, sv_buf *out);
void nsb_cmds_out_patch(nsb_cmds_out *w, size_t upto);
static inline void nsb_cmds_out_upto(nsb_cmds_out *w, size_t upto)
{
    /* between two instances: most often one plain BeginInstance, no desc */
    if (upto == w->done + 1 && w->src[w->done] == NSB_BEGIN_INSTANCE && sv_buf_ok(w->out))
        w->out->data[w->at + w->done++] = NSB_BEGIN_INSTANCE;
    else if (upto > w->done)
        nsb_cmds_out_patch(w, upto);
}
void nsb_cmds_out_body(nsb_cmds_out *w, uintptr_t key, size_t start, size_t end);
bool nsb_cmds_out_end(nsb_cmds_out *w);

/* Writes the data section of objects (an ARRAY of instance objects) by
 * running the commands over it. Each object must be an OBJECT of its
 * component's class: components[i] is instance i's component index and
 * classes[c] the "class" value of component c (NULL: none); checked as
 * each object is written, when its memory is read anyway. cmds_out (NULL:
 * none) is handed each instance's body as it is written. */
sv_status nsb_emit_run(const nsb_cmds *cmds, const sv_value *objects, uint32_t instance_count,
                       const uint32_t *components, const sv_value *const *classes, bool big,
                       nsb_cmds_out *cmds_out, sv_buf *out, sv_error *err);

/* The same an instance at a time, as the instances are decoded
 * (noesis_transcode.c): nsb_emitter_instance writes instance n (the next
 * one) from the body after its BeginInstance command begin; the keys must
 * be the commands' names (no property keys: the decoder's view is not
 * applied), refs are checked against instance_count. nsb_emitter_end makes
 * the final checks of nsb_emit_run when st is SV_OK, frees the emitter and
 * returns the status. NULL (err set) when out of memory. */
typedef struct nsb_emitter nsb_emitter;
nsb_emitter *nsb_emitter_new(const nsb_cmds *cmds, uint32_t instance_count,
                             const uint32_t *components, const sv_value *const *classes, bool big,
                             sv_buf *out, sv_error *err);
sv_status nsb_emitter_instance(nsb_emitter *e, const uint8_t *body, const nsb_cmd *begin,
                               uint32_t n, const sv_value *obj);
sv_status nsb_emitter_end(nsb_emitter *e, sv_status st);

/* ---- the searchable view (noesis_view.c) ---- */

/* Renames local-value groups after their property, in the decoded objects,
 * names[] from nsb_interp_run ("color" UInt32 fields are written as {"$color_argb": "#AARRGGBB"} by
 * the interpreter). */
sv_status nsb_view_apply(sv_doc *doc, sv_value *objects, const sv_value *names, sv_error *err);
/* The Name (a UTF-8 STRING) of the property a local-value group
 * {Property: {Property: <ref>}, Value: ...} sets, looked up in objects; NULL
 * when group has another shape or the ref names no such instance. */
const sv_value *nsb_local_value_name(const sv_value *group, const sv_value *objects);
/* Whether v can name a property: a non-empty UTF-8 STRING. */
bool nsb_is_name(const sv_value *v);
/* A STRING tagged color_argb of the form "#AARRGGBB" (hex digits in either
 * case) as the u32 0xAARRGGBB. */
bool nsb_color_parse(const sv_value *v, uint32_t *argb);

/* The error of an output buffer that failed: out of memory, or its sink's
 * error (a full disk) when it has a sink (buf.h). */
static inline sv_status nsb_output_failed(const sv_buf *out, sv_error *err)
{
    sv_status st = sv_buf_status(out);
    if (st == SV_OK || st == SV_ERR_NOMEM)
        return sv_error_set(err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
    return sv_error_set(err, st, NSB_FORMAT, 0, "the output could not be written");
}

/* ---- framing ---- */

/* opts: complete options (sv_noesis_decode / _encode read the caller's). */
sv_status nsb_decode(sv_doc *doc, const uint8_t *data, size_t len, const sv_noesis_opts *opts,
                     sv_value *out, sv_error *err);
sv_status nsb_encode(const sv_value *v, const sv_noesis_opts *opts, sv_buf *out, sv_error *err);

/* The decode of nsb_decode, each chunk written to out as nsb_encode would
 * write it (with opts) as soon as it is read, each instance as soon as it
 * is made, its values in the document values (emptied every MiB or so); no
 * tree is kept. The errors are nsb_decode's, in the same order. */
typedef struct nsb_stream {
    const sv_noesis_opts *opts; /* the encoder's */
    sv_buf *out;
    sv_doc *values;
} nsb_stream;
sv_status nsb_decode_stream(sv_doc *doc, const uint8_t *data, size_t len,
                            const sv_noesis_opts *opts, const nsb_stream *stream, sv_error *err);
/* "name=value" options (the registry's) as sv_noesis_opts. */
sv_status nsb_registry_opts(const sv_options *opts, sv_noesis_opts *out, sv_error *err);

/* ---- transcoding (noesis_transcode.c): the encoder's pieces ---- */

/* What writes a chunk's data section in place of its "objects": size bytes,
 * announced before they are written and checked after. */
typedef struct nsb_feed {
    uint64_t size;
    sv_status (*write)(void *ctx, const nsb_cmds *cmds, const uint32_t *components,
                       const sv_value *const *classes, uint32_t instance_count, bool big,
                       sv_buf *out, sv_error *err);
    void *ctx;
} nsb_feed;
/* The main header nsb_encode writes for a tree of this byte order, unicode
 * flag, version (opts->version, when set, instead) and chunk count. */
void nsb_encode_header(const sv_noesis_opts *opts, bool big, bool unicode, unsigned version,
                       uint32_t chunks, sv_buf *out);
/* One chunk as nsb_encode writes it; a chunk with metadata but neither
 * "objects" nor "data" takes its data section from feed. Errors carry the
 * path inside the chunk. */
sv_status nsb_encode_chunk(bool big, bool unicode, const sv_value *chunk, const nsb_feed *feed,
                           sv_buf *out, sv_error *err);

#endif
