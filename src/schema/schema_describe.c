/* Schemas: a readable description of a class and its full field list (for
 * `serval schema show`). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "serval/json.h"
#include "schema/schema_internal.h"

static void put(sv_buf *out, const char *s) { sv_buf_append(out, s, strlen(s)); }

static void putf_u32(sv_buf *out, const char *label, uint32_t v)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%s%" PRIu32, label, v);
    put(out, buf);
}

sv_status sv_schema_describe_class(const sv_schema *s, const sv_schema_class *c, sv_buf *out)
{
    if (!s || !c || !out) return SV_ERR_USAGE;
    put(out, "class ");
    put(out, c->name);
    put(out, "\n");
    if (c->source[0]) {
        put(out, "  source: ");
        put(out, c->source);
        put(out, "\n");
    }
    if (c->has_hash) putf_u32(out, "  hash: ", c->hash), put(out, "\n");
    if (c->has_uuid) {
        char u[39];
        sv_uuid_format(&c->uuid, true, u);
        put(out, "  uuid: ");
        put(out, u);
        put(out, "\n");
    }
    if (c->has_version) putf_u32(out, "  version: ", c->version), put(out, "\n");
    if (c->nbases) {
        put(out, "  bases:");
        for (uint32_t i = 0; i < c->nbases; i++) {
            put(out, i ? ", " : " ");
            put(out, c->bases[i]->name);
        }
        put(out, "\n");
    }
    size_t n;
    const sv_schema_field *const *all = sv_schema_class_fields(c, &n);
    char buf[64];
    snprintf(buf, sizeof buf, "  fields (%zu):\n", n);
    put(out, buf);
    for (size_t i = 0; i < n; i++) {
        const sv_schema_field *f = all[i];
        put(out, "    ");
        put(out, f->name);
        put(out, ": ");
        put(out, f->type->text);
        if (f->owner != c) {
            put(out, "  (from ");
            put(out, f->owner->name);
            put(out, ")");
        }
        if (f->flags) putf_u32(out, "  flags=", f->flags);
        if (f->has_hash) putf_u32(out, "  hash=", f->hash);
        if (f->has_id) putf_u32(out, "  id=", f->id);
        if (f->def) {
            put(out, "  default=");
            sv_error err;
            sv_status st = sv_json_encode(f->def, NULL, out, &err);
            if (st) return st;
        }
        put(out, "\n");
    }
    return sv_buf_ok(out) ? SV_OK : SV_ERR_NOMEM;
}
