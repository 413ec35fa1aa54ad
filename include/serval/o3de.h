/* serval: O3DE JSON serialization.
 *
 * O3DE stores prefabs, settings registries and asset metadata as JSON that it
 * loads into reflected C++ types by rules well beyond plain JSON: type
 * conversions, enum names, "$type" polymorphism, omission of default values,
 * and result codes that say what was skipped or defaulted. This module
 * applies those rules, as O3DE's own serializers do, to values of schema
 * types (schema.h) and to C structs bound to a schema.
 *
 *  - sv_o3de_load applies O3DE JSON on top of a value of a schema type (start
 *    from sv_o3de_default_value to load "into a default-constructed object");
 *  - sv_o3de_store turns a value into O3DE JSON, omitting what equals the
 *    default unless keep_defaults is set;
 *  - sv_o3de_write prints JSON the way O3DE's RapidJSON writer prints it
 *    (1.1 with its 2021 Grisu2 rounding fix), so stored text matches O3DE's
 *    byte for byte;
 *  - results are O3DE's: a task, a processing state and an outcome packed in
 *    32 bits, combined as O3DE combines them, each reported through an
 *    optional callback that may change it.
 *
 * JSON values here are plain value trees: objects are MAPs with string keys,
 * integers INT/UINT, numbers written with a fraction or exponent FLOAT
 * (width 8), as sv_o3de_read makes them. docs/formats/o3de.md describes the
 * rules and where serval departs from O3DE's documentation. */
#ifndef SERVAL_O3DE_H
#define SERVAL_O3DE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api.h"
#include "buf.h"
#include "error.h"
#include "schema.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- result codes (O3DE's JsonSerializationResult) ----------------------- */

typedef enum sv_o3de_task {
    SV_O3DE_TASK_NONE = 0,
    SV_O3DE_RETRIEVE_INFO = 1,
    SV_O3DE_CREATE_DEFAULT = 2,
    SV_O3DE_CONVERT = 3,
    SV_O3DE_CLEAR = 4,
    SV_O3DE_READ_FIELD = 5,
    SV_O3DE_WRITE_VALUE = 6,
    SV_O3DE_MERGE = 7,
    SV_O3DE_CREATE_PATCH = 8,
    SV_O3DE_IMPORT = 9
} sv_o3de_task;

typedef enum sv_o3de_processing {
    SV_O3DE_COMPLETED = 1,
    SV_O3DE_ALTERED = 2,
    SV_O3DE_PARTIAL_ALTER = 3,
    SV_O3DE_HALTED = 4
} sv_o3de_processing;

typedef enum sv_o3de_outcome {
    SV_O3DE_SUCCESS = 1,
    SV_O3DE_SKIPPED = 2,
    SV_O3DE_PARTIAL_SKIP = 3,
    SV_O3DE_DEFAULTS_USED = 4,
    SV_O3DE_PARTIAL_DEFAULTS = 5,
    SV_O3DE_UNAVAILABLE = 6,
    SV_O3DE_UNSUPPORTED = 7,
    SV_O3DE_TYPE_MISMATCH = 8,
    SV_O3DE_TEST_FAILED = 9,
    SV_O3DE_MISSING = 10,
    SV_O3DE_INVALID = 11,
    SV_O3DE_UNKNOWN = 12,
    SV_O3DE_CATASTROPHIC = 13
} sv_o3de_outcome;

/* outcome << 16 | processing << 8 | task, as O3DE's ResultCode union lays it
 * out on little-endian machines. */
typedef uint32_t sv_o3de_result;

/* A result whose processing follows from the outcome, as O3DE derives it. */
SV_API sv_o3de_result sv_o3de_result_make(sv_o3de_task task, sv_o3de_outcome outcome);
/* "No work done yet" for a task: outcome and processing 0. */
SV_API sv_o3de_result sv_o3de_result_none(sv_o3de_task task);
/* O3DE's Combine: the larger code, with Success+DefaultsUsed giving
 * PartialDefaults, Success+Skipped PartialSkip and Completed+Altered
 * PartialAlter. */
SV_API sv_o3de_result sv_o3de_result_combine(sv_o3de_result a, sv_o3de_result b);
SV_API sv_o3de_task sv_o3de_result_task(sv_o3de_result r);
/* Completed when no work was done, as O3DE's GetProcessing. */
SV_API sv_o3de_processing sv_o3de_result_processing(sv_o3de_result r);
/* DefaultsUsed when no work was done, as O3DE's GetOutcome. */
SV_API sv_o3de_outcome sv_o3de_result_outcome(sv_o3de_result r);
/* O3DE's names: "ReadField", "Halted", "DefaultsUsed"; "" when unknown. */
SV_API const char *sv_o3de_task_name(sv_o3de_task t);
SV_API const char *sv_o3de_processing_name(sv_o3de_processing p);
SV_API const char *sv_o3de_outcome_name(sv_o3de_outcome o);
/* O3DE's AppendToString: "The operation has halted during a read field
 * operation for '/a/b' because ..." (path may be NULL or ""). */
SV_API void sv_o3de_result_describe(sv_o3de_result r, const char *path, sv_buf *out);

/* ---- options ---------------------------------------------------------------- */

/* The reporting callback: every issue with its message and path (a JSON
 * Pointer into the input on load, a dotted context path on store). What it
 * returns replaces the result: turning Halted into something else lets the
 * operation go on, returning Catastrophic stops it. */
typedef sv_o3de_result (*sv_o3de_report_fn)(void *ctx, const char *message, sv_o3de_result result,
                                            const char *path);

/* Versioned: fill with sv_o3de_opts_init, then set members (api.h). */
typedef struct sv_o3de_opts {
    uint32_t struct_size;     /* sizeof(sv_o3de_opts); set by sv_o3de_opts_init */
    bool keep_defaults;       /* store: write values equal to their default */
    bool clear_containers;    /* load: empty containers before adding to them */
    sv_o3de_report_fn report; /* may be NULL */
    void *report_ctx;
    uint32_t max_depth; /* JSON nesting walked; 0: limits.max_depth; at most 2048 */
    /* As every format's (value.h): max_depth bounds the nesting walked when
     * max_depth above is 0 (both 0: 1024); sv_o3de_load_struct_text reads
     * its text under these limits, with the nesting the walk allows. */
    sv_limits limits;
} sv_o3de_opts;

SV_API void sv_o3de_opts_init(sv_o3de_opts *opts);

/* ---- load and store values ---------------------------------------------- */

/* The default instance of type t: a class with each field's default (or
 * its type's O3DE default), 0, "", empty containers, null pointers, zero
 * vectors, identity quaternions and matrices. */
SV_API SV_NODISCARD sv_status sv_o3de_default_value(const sv_schema *s, const sv_type *t,
                                                    sv_doc *doc, sv_value *out, sv_error *err);

/* Applies json on top of *value (a natural value of type t, see schema.h),
 * replacing *value with the result (made in doc). *result gets O3DE's result
 * code. The sv_status is SV_OK unless something outside O3DE's rules failed
 * (out of memory, bad arguments); a Halted result is still SV_OK. */
SV_API SV_NODISCARD sv_status sv_o3de_load(const sv_schema *s, const sv_type *t,
                                           const sv_value *json, sv_doc *doc, sv_value *value,
                                           const sv_o3de_opts *opts, sv_o3de_result *result,
                                           sv_error *err);

/* sv_o3de_read of text then sv_o3de_load of its tree onto *value, in one:
 * the same value, result, reports and errors, without holding the text's
 * whole tree when t is a class and the text an object. The root object's
 * members are then read and loaded one at a time, and a member for a vector
 * or list one element at a time, each loaded piece copied into doc, so doc
 * ends up holding the value alone. Other texts go through the tree (then
 * doc holds it too). limits as sv_o3de_read's (NULL: the defaults).
 * consumed (may be NULL) is called with an offset once the text before it
 * will not be read again, so that a caller holding the text in a file
 * mapping may let those pages go (madvise). */
SV_API SV_NODISCARD sv_status sv_o3de_load_text(
    const sv_schema *s, const sv_type *t, const char *text, size_t len, const sv_limits *limits,
    sv_doc *doc, sv_value *value, const sv_o3de_opts *opts, sv_o3de_result *result,
    void (*consumed)(void *ctx, size_t upto), void *consumed_ctx, sv_error *err);

/* Makes the O3DE JSON of value (type t) in doc. def is the default to strip
 * against: NULL = t's default instance for classes, nothing for other root
 * types (O3DE writes those whole). As in O3DE, passing def turns
 * keep_defaults off. When nothing was written *json is {} . */
SV_API SV_NODISCARD sv_status sv_o3de_store(const sv_schema *s, const sv_type *t,
                                            const sv_value *value, const sv_value *def, sv_doc *doc,
                                            sv_value *json, const sv_o3de_opts *opts,
                                            sv_o3de_result *result, sv_error *err);

/* The same for a C struct of class c bound with sv_schema_bind. Load fills
 * *st (which must hold a struct made by sv_value_to_struct or be all zero:
 * it is read as the starting value, then replaced; free it with
 * sv_struct_free and the same alloc). */
SV_API SV_NODISCARD sv_status sv_o3de_load_struct(const sv_schema *s, const sv_schema_class *c,
                                                  const sv_value *json, void *st,
                                                  const sv_alloc *alloc, const sv_o3de_opts *opts,
                                                  sv_o3de_result *result, sv_error *err);
SV_API SV_NODISCARD sv_status sv_o3de_store_struct(const sv_schema *s, const sv_schema_class *c,
                                                   const void *st, sv_doc *doc, sv_value *json,
                                                   const sv_o3de_opts *opts, sv_o3de_result *result,
                                                   sv_error *err);

/* Reads O3DE JSON text (as sv_o3de_read) and loads it into the C struct
 * *st of class c (as sv_o3de_load_struct), with the same results, reports
 * and errors. When *st is all zero, no callback listens and the class is
 * one sv_o3de_store_struct_text takes directly, plain text goes straight
 * into the struct without a tree in between; anything else (comments,
 * escapes, unusual numbers, errors) is read through the tree. */
SV_API SV_NODISCARD sv_status sv_o3de_load_struct_text(const sv_schema *s, const sv_schema_class *c,
                                                       const char *text, size_t len, void *st,
                                                       const sv_alloc *alloc,
                                                       const sv_o3de_opts *opts,
                                                       sv_o3de_result *result, sv_error *err);

/* Stores a bound C struct straight to O3DE JSON text (appended to out),
 * compact (indent 0) or pretty with indent spaces: the text sv_o3de_write
 * prints for what sv_o3de_store_struct makes, without that tree in between
 * when every type the class holds has a plain C form (see
 * docs/formats/o3de.md); other classes take the tree path. sv_o3de_load_struct
 * likewise loads such classes straight into the struct. */
SV_API SV_NODISCARD sv_status sv_o3de_store_struct_text(const sv_schema *s,
                                                        const sv_schema_class *c, const void *st,
                                                        int indent, sv_buf *out,
                                                        const sv_o3de_opts *opts,
                                                        sv_o3de_result *result, sv_error *err);

/* ---- "$type" ------------------------------------------------------------- */

/* Resolves "$type" text as O3DE does: a braced UUID anywhere in the text,
 * else the whitespace-trimmed name compared case-insensitively; base (may
 * be NULL) breaks ties between classes of the same name. *out is NULL with
 * a Unknown result when nothing or several classes match. */
SV_API sv_o3de_result sv_o3de_resolve_type(const sv_schema *s, const char *text, size_t len,
                                           const sv_schema_class *base,
                                           const sv_schema_class **out);

/* ---- JSON text ----------------------------------------------------------- */

/* Reads JSON text (comments allowed, as O3DE's file reader allows them) into
 * a plain value tree in doc. */
SV_API SV_NODISCARD sv_status sv_o3de_read(sv_doc *doc, const char *text, size_t len,
                                           const sv_limits *limits, sv_value *out, sv_error *err);

/* Appends the text of a plain JSON tree as O3DE's RapidJSON writes it: compact
 * (indent 0) or pretty with indent spaces (O3DE's files: 4). Doubles are
 * printed by Grisu2 with RapidJSON's layout (42.0, 0.10000000149011612). */
SV_API SV_NODISCARD sv_status sv_o3de_write(const sv_value *json, int indent, sv_buf *out,
                                            sv_error *err);

/* Writes a double as O3DE's RapidJSON Writer does (Grisu2 digits, not always
 * the shortest: 0.1 + 0.2 is 0.30000000000000004); buf needs 32 bytes.
 * Returns the length. Finite values only. */
SV_API size_t sv_o3de_format_double(double d, char *buf);

/* O3DE's JsonSerialization::Compare: *order gets <0, 0 or >0. Comparing
 * large objects needs scratch memory, taken from alloc (NULL: libc);
 * SV_ERR_NOMEM when it fails. */
SV_API SV_NODISCARD sv_status sv_o3de_compare(const sv_alloc *alloc, const sv_value *a,
                                              const sv_value *b, int *order, sv_error *err);

/* ---- the file wrapper ------------------------------------------------------ */

/* {"Type":"JsonSerialization","Version":1,"ClassName":name,"ClassData":data}.
 * unwrap returns false when json is not such a wrapper. */
SV_API bool sv_o3de_unwrap(const sv_value *json, const char **class_name, size_t *name_len,
                           const sv_value **class_data);
SV_API SV_NODISCARD sv_status sv_o3de_wrap(sv_doc *doc, const char *class_name,
                                           const sv_value *class_data, sv_value *out);

/* ---- JSON Patch (RFC 6902) and JSON Merge Patch (RFC 7386) ----------------- */

typedef enum sv_o3de_patch_kind {
    SV_O3DE_JSON_PATCH = 0,
    SV_O3DE_MERGE_PATCH = 1
} sv_o3de_patch_kind;

/* Applies patch to *target in place (results made in doc), with O3DE's
 * results and messages (task Merge). opts: only report is used. */
SV_API SV_NODISCARD sv_status sv_o3de_apply_patch(sv_doc *doc, sv_value *target,
                                                  const sv_value *patch, sv_o3de_patch_kind kind,
                                                  const sv_o3de_opts *opts, sv_o3de_result *result,
                                                  sv_error *err);
/* Makes the patch that turns source into target (task CreatePatch). */
SV_API SV_NODISCARD sv_status sv_o3de_create_patch(sv_doc *doc, const sv_value *source,
                                                   const sv_value *target, sv_o3de_patch_kind kind,
                                                   sv_value *patch, const sv_o3de_opts *opts,
                                                   sv_o3de_result *result, sv_error *err);

/* ---- "$import" (O3DE's JsonImporter) -------------------------------------- */

/* An object holding "$import" is replaced by the JSON document it names:
 *   {"$import": "object.json"}
 *   {"$import": {"filename": "object.json", "patch": {...}}}
 * the second form then applies its patch as a JSON Merge Patch (when it is a
 * non-empty object or array). Members beside "$import" are dropped with the
 * object, as O3DE drops them. A name is joined to the directory of the file
 * holding the directive (an absolute name stands alone); imports inside an
 * imported document resolve against that document's own path, before its
 * patch applies. docs/formats/o3de.md has the rules and messages.
 *
 * Each file is loaded and its own imports resolved once per call, however
 * many directives name it (by its key from identify, else its resolved
 * path): directives without a patch then share that one resolved tree,
 * which is read-only (sv_copy a part before changing it in place); a
 * directive with a patch gets its own copy of what the patch changes. */

/* Loads the document at path (the resolved name) into doc. A status other
 * than SV_OK fails the import (Catastrophic), err's message as the reason.
 * The library itself never opens files: this callback decides what a name
 * may reach. */
typedef sv_status (*sv_o3de_import_fn)(void *ctx, const char *path, sv_doc *doc, sv_value *out,
                                       sv_error *err);

/* Names the file at path (the resolved name) so that one file reached by
 * several names is loaded once: writes a NUL-terminated key of at most
 * size bytes (size is SV_O3DE_IMPORT_KEY_MAX), such as the device and inode
 * number. Called before load, with load_ctx; a status other than SV_OK
 * fails the import as a failed load does, before anything is read. */
#define SV_O3DE_IMPORT_KEY_MAX 128
typedef sv_status (*sv_o3de_import_id_fn)(void *ctx, const char *path, char *key, size_t size,
                                          sv_error *err);

/* Versioned: fill with sv_o3de_import_opts_init, then set members (api.h). */
typedef struct sv_o3de_import_opts {
    uint32_t struct_size;   /* sizeof(sv_o3de_import_opts); set by the init function */
    sv_o3de_import_fn load; /* required */
    void *load_ctx;
    const char *path;         /* the resolved document's own path; NULL or "": names
                                 stand as written (relative to the caller's directory) */
    bool nested;              /* resolve imports inside imported documents (default true) */
    uint32_t max_chain;       /* imports nested in imports; 0 = 32, at most 256 */
    uint32_t max_imports;     /* files loaded in one call; 0 = 1024 */
    uint32_t max_depth;       /* JSON nesting walked, imports included; 0 = 1024; max 2048 */
    sv_o3de_report_fn report; /* may be NULL */
    void *report_ctx;
    sv_o3de_import_id_fn identify; /* may be NULL: a file is named by its resolved path */
} sv_o3de_import_opts;

SV_API void sv_o3de_import_opts_init(sv_o3de_import_opts *opts);

/* What resolving found: the directives of the resolved document itself
 * (where, as a JSON Pointer to the object that held "$import", and the name
 * as written), which restoring puts back, and every file loaded, nested
 * imports included (each once). */
typedef struct sv_o3de_imports sv_o3de_imports;

/* alloc NULL = libc. NULL when out of memory. */
SV_API sv_o3de_imports *sv_o3de_imports_new(const sv_alloc *alloc);
SV_API void sv_o3de_imports_free(sv_o3de_imports *im);
SV_API size_t sv_o3de_imports_count(const sv_o3de_imports *im);
/* The i-th directive; false when i is out of range. resolved may be NULL
 * for a directive added with sv_o3de_imports_add. */
SV_API bool sv_o3de_imports_at(const sv_o3de_imports *im, size_t i, const char **pointer,
                               const char **name, const char **resolved);
SV_API size_t sv_o3de_imports_file_count(const sv_o3de_imports *im);
SV_API const char *sv_o3de_imports_file_at(const sv_o3de_imports *im, size_t i);
/* Adds a directive that restoring will put at pointer (O3DE's
 * AddImportDirective); one already present is not added twice. */
SV_API SV_NODISCARD sv_status sv_o3de_imports_add(sv_o3de_imports *im, const char *pointer,
                                                  const char *name);

/* Replaces every "$import" in *json (made in doc) as O3DE's ResolveImports
 * does, recording into found (may be NULL). *result is Import/Success, or
 * the Catastrophic result of a failed load, a cycle ("'a.json' was already
 * imported in this chain. This indicates a cyclic dependency.") or a
 * limit (one of them: the tree the imports expand to, counted as if each
 * directive had its own copy, must stay within the document's allocation
 * limit); *json may then be partly resolved. SV_OK unless memory ran out
 * (SV_ERR_LIMIT: the document's allocation limit was reached) or the
 * arguments are wrong. */
SV_API SV_NODISCARD sv_status sv_o3de_resolve_imports(sv_doc *doc, sv_value *json,
                                                      const sv_o3de_import_opts *opts,
                                                      sv_o3de_imports *found,
                                                      sv_o3de_result *result, sv_error *err);

/* O3DE's RestoreImports: at each directive of found, in order, the value
 * becomes {"$import": name} again, or {"$import": {"filename": name, "patch":
 * P}} when it differs from the named document (P its JSON Merge Patch). */
SV_API SV_NODISCARD sv_status sv_o3de_restore_imports(sv_doc *doc, sv_value *json,
                                                      const sv_o3de_import_opts *opts,
                                                      const sv_o3de_imports *found,
                                                      sv_o3de_result *result, sv_error *err);

#ifdef __cplusplus
}
#endif
#endif
