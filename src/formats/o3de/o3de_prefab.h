/* Prefab patches checked against their templates (internal).
 *
 * A .prefab's "Instances" each name a template ("Source") and carry the
 * JSON Patch ("Patches") that turns the template into the instance. O3DE
 * (Link::UpdateTarget) applies it to a copy of the template with a
 * reporter that turns each operation that halts into Skipped: the
 * operation is dropped with a warning and the rest go on. This finds those
 * operations, one by one, with the instance, the JSON Pointer and the
 * reason. docs/formats/o3de.md, "Prefab patches", has the rules. */
#ifndef SV_O3DE_PREFAB_H
#define SV_O3DE_PREFAB_H

#include <stdbool.h>
#include <stddef.h>

#include "serval/o3de.h"

typedef enum o3pf_kind {
    O3PF_FAILS,      /* the operation does not apply: O3DE skips it */
    O3PF_UNVERIFIED, /* it reaches a field the template leaves out, which
                        O3DE may fill with its default when loading */
    O3PF_NO_TEMPLATE /* the instance's template cannot be loaded */
} o3pf_kind;

typedef struct o3pf_finding {
    o3pf_kind kind;
    char *instance; /* JSON Pointer of the instance in the file */
    char *source;   /* its "Source" */
    size_t index;   /* the operation's place in "Patches" */
    char *op, *path;
    char *reason;
} o3pf_finding;

typedef struct o3pf_report {
    o3pf_finding *f;
    size_t n;
    size_t instances, patches; /* how many were looked at */
} o3pf_report;

/* Loads the template named by source (as written in "Source") into doc. A
 * status other than SV_OK: the template cannot be had (err says why). */
typedef sv_status (*o3pf_load_fn)(void *ctx, const char *source, sv_doc *doc, sv_value *out,
                                  sv_error *err);

/* Checks every instance of prefab. Nested instances of a template are
 * expanded first (their own templates with their patches, failing
 * operations skipped as O3DE skips them), up to 16 deep. SV_OK unless
 * memory ran out (or the document's allocation limit was reached). */
sv_status o3pf_check(sv_doc *doc, const sv_value *prefab, o3pf_load_fn load, void *load_ctx,
                     o3pf_report *out, sv_error *err);
void o3pf_report_free(o3pf_report *r);

#endif
