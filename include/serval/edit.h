/* serval: editing a tree in place and JSON Pointer paths.
 *
 * A value found with sv_get_path, sv_array_at or sv_map_get points into its
 * parent's storage; the calls below change the tree through such a pointer
 * (or through the root value you hold), so the parent sees the change. A
 * container that grows may move its items: keep using the sv_value * these
 * calls were given, not a copy of the value made before the call.
 *
 *   sv_value root;   // sv_file_decode is in serval/file.h (included here too)
 *   if (sv_file_decode(doc, "save.bin", sv_format_find("godot3"), NULL, &root, &err) == SV_OK) ...
 *   sv_value *gold = sv_get_path(doc, &root, "/player/gold");
 *   *gold = sv_int(9999);                                 // or:
 *   sv_set_path(doc, &root, "/player/gold", sv_int(9999));
 */
#ifndef SERVAL_EDIT_H
#define SERVAL_EDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "api.h"
#include "error.h"
#include "value.h"
/* sv_file_decode moved to file.h; included for one release so that code
 * which found it here still builds. */
#include "file.h"

#ifdef __cplusplus
extern "C" {
#endif

/* MAP or OBJECT: replaces the value of the first pair whose key is the
 * string key, keeping its place, or appends the pair (the key interned)
 * when there is none. SV_ERR_TYPE when container is neither; SV_ERR_NOMEM
 * or SV_ERR_LIMIT when growing it fails. sv_object_set is the same call,
 * named for objects (their keys are field names). */
SV_API SV_NODISCARD sv_status sv_map_set(sv_doc *doc, sv_value *map, const char *key, sv_value val);
SV_API SV_NODISCARD sv_status sv_object_set(sv_doc *doc, sv_value *obj, const char *field,
                                            sv_value val);

/* ARRAY: replaces item i. SV_ERR_TYPE for other kinds, SV_ERR_RANGE when i
 * is not below the length (use sv_array_append to append). */
SV_API SV_NODISCARD sv_status sv_array_set(sv_value *arr, size_t i, sv_value val);

/* MAP or OBJECT: removes the first pair whose key is the string key; the
 * pairs after it move up. SV_ERR_TYPE when map is neither (or NULL) or key
 * is NULL, SV_ERR_NOT_FOUND when no pair has the key, SV_ERR_USAGE on a
 * compact object (its field names are shared with other objects and this
 * call has no document to copy them into: sv_object_expand it first, or
 * remove through sv_remove_path, which does). */
SV_API SV_NODISCARD sv_status sv_map_remove_key(sv_value *map, const char *key);
/* ARRAY: removes item i; the items after it move up. SV_ERR_TYPE for other
 * kinds, SV_ERR_RANGE when i is not below the length. */
SV_API SV_NODISCARD sv_status sv_array_remove_at(sv_value *arr, size_t i);

/* Deprecated names, kept for one release: true when something was removed. */
SV_API bool sv_map_remove(sv_value *map, const char *key)
    SV_DEPRECATED("use sv_map_remove_key, which returns sv_status");
SV_API bool sv_array_remove(sv_value *arr, size_t i)
    SV_DEPRECATED("use sv_array_remove_at, which returns sv_status");

/* The value at a JSON Pointer (RFC 6901) under root, e.g. "/player/gold" or
 * "/inventory/0"; "" is root itself. A token names a string key of a MAP or
 * OBJECT (the first pair with it), an index of an ARRAY, or, for a MAP whose
 * keys are integers (a Godot Dictionary {1: "sword"}), the integer key
 * written in decimal. "~1" stands for "/" and "~0" for "~". root NULL means
 * the document's root. NULL when nothing is there. */
SV_API sv_value *sv_get_path(sv_doc *doc, sv_value *root, const char *pointer);

/* Sets the value at pointer: the parent (which must exist) gets val in place
 * of the old value, or, when the parent is a MAP or OBJECT without the key,
 * a new pair. An ARRAY parent takes an index below its length, or "-" to
 * append. SV_ERR_NOT_FOUND when the parent does not exist, SV_ERR_TYPE when
 * it is not a container, SV_ERR_RANGE for a bad index. */
SV_API SV_NODISCARD sv_status sv_set_path(sv_doc *doc, sv_value *root, const char *pointer,
                                          sv_value val);

/* Removes the value at pointer from its parent (sv_map_remove_key or
 * sv_array_remove_at). SV_ERR_NOT_FOUND when there is nothing to remove. */
SV_API SV_NODISCARD sv_status sv_remove_path(sv_doc *doc, sv_value *root, const char *pointer);

#ifdef __cplusplus
}
#endif
#endif
