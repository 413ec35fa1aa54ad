/* The Settings Registry's merge (internal), as O3DE's SettingsRegistryImpl
 * does it for a folder of .setreg and .setregpatch files: which files take
 * part and in what order (o3de_setreg_order.c), the text rules of its
 * parser (o3de_setreg_text.c), "$import" resolved in member order
 * (o3de_setreg_import.c), the merge at an anchor key (o3de_setreg_merge.c)
 * and where each merged value came from (o3de_setreg_origin.c).
 * docs/formats/o3de.md, "Settings Registry merge", has the rules. */
#ifndef SV_O3DE_SETREG_H
#define SV_O3DE_SETREG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/o3de.h"

/* O3DE's limits: Specializations::MaxCount, MaxTagNameSize and
 * SettingsRegistryImpl::MaxRegistryFolderEntries. */
#define O3SR_MAX_SPECS 15
#define O3SR_MAX_TAG 64
#define O3SR_MAX_FOLDER_FILES 128

/* The selected specializations, in priority order, as O3DE keeps them:
 * the FNV-1a hash of each lower-cased tag. */
typedef struct o3sr_specs {
    size_t n;
    uint64_t hash[O3SR_MAX_SPECS];
} o3sr_specs;

/* Appends a tag; false (with *why) when there are already 15 or it is
 * longer than 64 bytes, as Specializations::Append refuses them. */
bool o3sr_specs_add(o3sr_specs *s, const char *tag, const char **why);
/* AZStd::hash of the lower-cased text: FNV-1a over its chars (signed). */
uint64_t o3sr_tag_hash(const char *s, size_t len);

/* One registry file of a folder: its name split at the dots into the name
 * tag and the specialization tags (those sorted by hash, as O3DE sorts
 * them), whether it is a .setregpatch (a JSON Patch), and whether it came
 * from the folder's Platform/NAME subfolder (set by the caller). */
typedef struct o3sr_file {
    const char *name; /* the caller's */
    uint64_t tags[1 + O3SR_MAX_SPECS];
    size_t ntags;
    bool patch;
    bool platform;
} o3sr_file;

/* ExtractFileDescription: true when name is a registry file to merge with
 * these specializations; false, *why saying why not (not .setreg or
 * .setregpatch, duplicate tags, a tag not selected). */
bool o3sr_describe(const char *name, const o3sr_specs *s, o3sr_file *out, const char **why);

/* Sorts files as IsLessThan orders them: by name tag (then by file name),
 * fewer tags first, then by each tag's place in the specialization list,
 * then a platform file after the folder's own file of the same name.
 * Returns false when two files point to the same specialization (*a, *b
 * their places after sorting): O3DE then merges none of the folder. */
bool o3sr_sort(o3sr_file *f, size_t n, const o3sr_specs *s, size_t *a, size_t *b);

/* Blanks what RapidJSON's kParseTrailingCommasFlag lets through (a comma
 * before } or ]) and returns the length kParseStopWhenDoneFlag reads: up
 * to the end of the first value, what follows it ignored. Comments are
 * skipped as kParseCommentsFlag skips them. Byte offsets stay as they
 * were. Text that is not JSON is left for the parser to report. */
size_t o3sr_prepare_text(char *text, size_t len);

/* The 1-based line where the value at pointer (RFC 6901, "" = the root)
 * starts in JSON text; 0 when the text has no such value. */
unsigned o3sr_find_line(const char *text, size_t len, const char *pointer);
/* o3sr_find_line for n pointers at once, in one pass over the text: ptrs
 * sorted by strcmp and each given once; lines[i] gets ptrs[i]'s line (the
 * first value at that pointer) or 0. */
void o3sr_find_lines(const char *text, size_t len, const char *const *ptrs, size_t n,
                     unsigned *lines);
/* The same, with the byte range [*start, *end) the value takes. */
unsigned o3sr_find_span(const char *text, size_t len, const char *pointer, size_t *start,
                        size_t *end);

/* Loads the file at path for an import (comments allowed, as O3DE's
 * JsonSerializationUtils::ReadJsonFile reads it). */
typedef sv_status (*o3sr_load_fn)(void *ctx, const char *path, sv_doc *doc, sv_value *out,
                                  sv_error *err);

/* Each file an import read, with where its document went (a JSON Pointer
 * into the resolved document, always "" for now: O3DE merges it into the
 * object that holds the directive, whose path it does not track). */
typedef struct o3sr_imported {
    char *path;
    unsigned depth; /* 1: named by the file itself, 2: by a file it imports, ... */
} o3sr_imported;

typedef struct o3sr_import_ctx {
    sv_doc *doc;
    o3sr_load_fn load;
    void *load_ctx;
    unsigned max_chain;   /* imports nested in imports (32) */
    unsigned max_imports; /* files loaded for one document (1024) */
    unsigned max_depth;   /* JSON nesting walked (1024) */
    sv_buf *messages;     /* what O3DE's importer reports, one line each */
    /* filled in */
    o3sr_imported *files;
    size_t nfiles;
    sv_status st; /* a hard failure: out of memory or the allocation limit */
    sv_error *err;
} o3sr_import_ctx;

/* JsonImportResolver::ResolveImportsInOrder for the document of the file
 * at path: each "$import" merges its file into the object holding it where
 * it stands, so members before it are overridden by the import and members
 * after it override the import. *out gets the result. Returns the import
 * result (Import/Success, or Catastrophic with a line in messages);
 * c->st is set on a hard failure. Free c->files with o3sr_import_free. */
sv_o3de_result o3sr_resolve_in_order(o3sr_import_ctx *c, const char *path, const sv_value *src,
                                     sv_value *out);
void o3sr_import_free(o3sr_import_ctx *c);

/* MergeSettingsJsonDocument: merges doc (imports resolved) into *registry
 * under anchor ("" = the root), as a JSON Merge Patch or a JSON Patch.
 * Returns true when the merge completed; false with a line in messages
 * (an invalid anchor, a non-object root merged at the root, a patch that
 * did not complete). Hard failures go to *st. */
bool o3sr_merge_document(sv_doc *d, sv_value *registry, const sv_value *doc, bool json_patch,
                         const char *anchor, sv_buf *messages, sv_status *st, sv_error *err);

/* The first member of each name in an object, by hash (o3de_setreg_index.c).
 * Zero-initialise; after appending a pair call _added; after replacing the
 * object's members wholesale set stale. Removing the first member of a name
 * (_remove_first) leaves it in place, marked, so that nothing moves and the
 * index stays valid: _compact takes the marked members out in one pass at
 * the end (a merge patch of many nulls would otherwise move the members and
 * rebuild the index once per null: quadratic). */
typedef struct o3sr_bucket {
    uint32_t key;  /* a member of the bucket's name + 1 (its key is compared); 0 = empty */
    uint32_t head; /* the first member of that name not removed + 1; 0 = none left */
    uint32_t tail; /* the last + 1 (appends of the name link after it) */
} o3sr_bucket;
typedef struct o3sr_index {
    o3sr_bucket *slot;
    size_t cap, used;
    uint32_t *next; /* per member: the next member of its name + 1; 0 = the last */
    uint8_t *gone;  /* per member: removed, until _compact */
    size_t members; /* room in next and gone */
    bool stale, any_gone;
} o3sr_index;
/* The value of the first member named k, or NULL (*nomem set when the
 * index could not be made). */
sv_value *o3sr_index_get(o3sr_index *x, sv_value *map, const char *k, size_t n, bool *nomem);
void o3sr_index_added(o3sr_index *x, const sv_value *map);
/* Removes the first member named k (there must be one): at once in a small
 * object the index does not cover, else marked for _compact. False when
 * out of memory. */
bool o3sr_index_remove_first(o3sr_index *x, sv_value *map, const char *k, size_t n);
/* Takes the members _remove_first marked out of map; the index is stale after. */
void o3sr_index_compact(o3sr_index *x, sv_value *map);
void o3sr_index_free(o3sr_index *x);

/* JSON Merge Patch (RFC 7386) as O3DE's JsonMerger applies it, with the
 * members found through an index: each patch member in order, an object
 * merged into the first target member of its name (made an object when it
 * is not), null removing that member, anything else replacing it or added
 * at the end. false: out of memory or nested deeper than 1024. */
bool o3sr_merge_patch(sv_doc *d, sv_value *target, const sv_value *patch, unsigned depth);

/* Where each value of the merged registry came from: every leaf (a scalar
 * or an empty object or array) with the merge step that last set it. */
typedef struct o3sr_leaf {
    char *pointer;
    size_t step;
    const sv_value *value; /* in the tree last given (valid while it is unchanged) */
} o3sr_leaf;
typedef struct o3sr_origins {
    o3sr_leaf *leaf;
    size_t n;
} o3sr_origins;

/* After merge step `step` turned before into after: a leaf that is new or
 * whose value changed gets step, the others keep theirs. false: out of
 * memory or nested deeper than 1024. Also lists the leaves of any tree
 * (before NULL, o empty): every leaf with its value, sorted by pointer. */
bool o3sr_origins_update(o3sr_origins *o, const sv_value *before, const sv_value *after,
                         size_t step);
void o3sr_origins_free(o3sr_origins *o);

#endif
