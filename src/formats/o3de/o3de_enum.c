/* Enums: a number, a name, or an array of names and numbers ORed together
 * on load; the exact name, else every contained flag in descending value
 * order plus the remaining bits on store. docs/formats/o3de.md, "What serval follows", Enums. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/mem.h"
#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD
#define WV SV_O3DE_WRITE_VALUE

static bool in_range(sv_prim u, bool neg, uint64_t bits)
{
    int w = sv_prim_int_width(u);
    if (sv_prim_is_signed(u)) {
        int64_t v = (int64_t)bits;
        if (!neg && bits > (uint64_t)INT64_MAX) return false;
        if (w == 8) return true;
        int64_t lim = (int64_t)1 << (w * 8 - 1);
        return v >= -lim && v < lim;
    }
    if (neg) return false;
    return w == 8 || bits < ((uint64_t)1 << (w * 8));
}

static sv_value make(sv_prim u, uint64_t bits)
{
    int w = sv_prim_int_width(u);
    sv_value v = sv_prim_is_signed(u) ? sv_int_w((int64_t)bits, w) : sv_uint_w(bits, w);
    return sv_with_tag(v, SV_TAG_ENUM);
}

/* Appends ' Available options are: "A" (1), ...' as O3DE's failure
 * messages do. */
static void options_text(const sv_schema_enum *e, char *buf, size_t cap)
{
    size_t n = (size_t)snprintf(buf, cap, " Available options are: ");
    for (uint32_t i = 0; i < e->nvalues && n < cap; i++) {
        const sv_schema_enum_value *ev = &e->values[i];
        if (sv_prim_is_signed(e->underlying))
            n += (size_t)snprintf(buf + n, cap - n, "%s\"%s\" (%lld)", i ? ", " : "", ev->name,
                                  (long long)(int64_t)ev->value);
        else
            n += (size_t)snprintf(buf + n, cap - n, "%s\"%s\" (%llu)", i ? ", " : "", ev->name,
                                  (unsigned long long)ev->value);
    }
}

static o3_res unsupported_value(o3_ctx *c, const sv_schema_enum *e, const char *what)
{
    if (!c->report) return o3_r(RF, SV_O3DE_UNSUPPORTED);
    char opts[400];
    options_text(e, opts, sizeof opts);
    return o3_report(c, o3_r(RF, SV_O3DE_UNSUPPORTED), "%s%s", what, opts);
}

/* One number or string (o3de.md, "What serval follows", Enums): integers only (1.0 is refused),
 * text first as an integer in base 0, then as a name compared case-insensitively. */
static o3_res load_one(o3_ctx *c, const sv_schema_enum *e, const sv_value *j, uint64_t *bits)
{
    sv_prim u = e->underlying;
    if (j->kind == SV_INT || j->kind == SV_UINT) {
        bool neg = j->kind == SV_INT && j->as.i < 0;
        if (!in_range(u, neg, j->as.u))
            return unsupported_value(
                c, e, "Enum value could not be read: the number does not fit the underlying type.");
        *bits = j->as.u;
        return o3_r(RF, SV_O3DE_SUCCESS);
    }
    if (j->kind == SV_STRING) {
        const char *s = j->as.str;
        char *end;
        if (sv_prim_is_signed(u)) {
            errno = 0;
            long long v = strtoll(s, &end, 0);
            if (end != s && errno != ERANGE && in_range(u, v < 0, (uint64_t)v)) {
                *bits = (uint64_t)v;
                return o3_r(RF, SV_O3DE_SUCCESS);
            }
        } else {
            errno = 0;
            long long sv = strtoll(s, &end, 0);
            if (end != s && sv >= 0) {
                errno = 0;
                unsigned long long v = strtoull(s, &end, 0);
                if (errno != ERANGE && in_range(u, false, v)) {
                    *bits = v;
                    return o3_r(RF, SV_O3DE_SUCCESS);
                }
            }
        }
        for (uint32_t i = 0; i < e->nvalues; i++) {
            const char *name = e->values[i].name;
            if (strlen(name) == j->len && strncasecmp(name, s, j->len) == 0) {
                *bits = e->values[i].value;
                return o3_r(RF, SV_O3DE_SUCCESS);
            }
        }
        return unsupported_value(c, e, "Enum value could not be read: no name matches the text.");
    }
    return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                  "Enum values within an array must either be a string or a number.");
}

o3_res o3_load_enum(o3_ctx *c, const sv_schema_enum *e, const sv_value *j, const sv_value *cur,
                    sv_value *out)
{
    *out = *cur;
    sv_prim u = e->underlying;
    if (sv_prim_int_width(u) == 1 && sv_prim_is_signed(u))
        return o3_rep(c, SV_O3DE_CONVERT, SV_O3DE_UNKNOWN,
                      "Signed Underlying type with size=1 is not supported by Enum Serializer");
    uint64_t bits = 0;
    switch (sv_kind_of(j)) {
    case SV_INT:
    case SV_UINT:
    case SV_STRING: {
        if (j->kind == SV_STRING && j->len == 0)
            return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED,
                          "The enum value is empty, the default is used.");
        o3_res r = load_one(c, e, j, &bits);
        if (o3_out(r) != SV_O3DE_SUCCESS) return r;
        *out = make(u, bits);
        return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read enum value.");
    }
    case SV_ARRAY: {
        if (j->len == 0)
            return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED,
                          "No enum values given, the default is used.");
        o3_res result = sv_o3de_result_none(RF);
        const sv_value *items = sv_array_items(j);
        for (uint32_t i = 0; i < j->len; i++) {
            size_t mark = o3_path_index(c, i);
            uint64_t b = 0;
            o3_res r;
            if (items[i].kind == SV_STRING || items[i].kind == SV_INT || items[i].kind == SV_UINT) {
                r = load_one(c, e, &items[i], &b);
            } else {
                r = o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                           "Enum values within an array must either be a string or a number.");
            }
            o3_path_pop(c, mark);
            if (o3_halted(r)) return r;
            if (o3_out(r) == SV_O3DE_SUCCESS) bits |= b;
            result = o3_combine(result, r);
        }
        /* the pieces are sign-extended, so their OR is too */
        *out = make(u, bits);
        return o3_report(c, result, "Successfully read enum values from an array.");
    }
    case SV_FLOAT:
        return unsupported_value(
            c, e, "Enum value could not be read: floating point numbers are not accepted.");
    default:
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                      "Unsupported type. Enums must be read from an array, string or number");
    }
}

static sv_value bits_json(sv_prim u, uint64_t bits)
{
    return sv_prim_is_signed(u) ? sv_int((int64_t)bits) : sv_uint(bits);
}

/* o3de.md, "What serval follows", Enums: an exact name wins; else every non-zero value whose bits
 * are all set, ordered by value as unsigned, descending, duplicates dropped (the first registered
 * wins), then whatever bits remain. */
o3_res o3_store_enum(o3_ctx *c, const sv_schema_enum *e, const sv_value *v, const sv_value *def,
                     sv_value *j)
{
    sv_prim u = e->underlying;
    int w = sv_prim_int_width(u);
    if (w == 1 && sv_prim_is_signed(u)) /* as on load: O3DE has no int8 enum path */
        return o3_rep(c, SV_O3DE_CONVERT, SV_O3DE_UNKNOWN,
                      "Signed Underlying type with size=1 is not supported by Enum Serializer");
    uint64_t mask = w == 8 ? UINT64_MAX : (((uint64_t)1 << (w * 8)) - 1);
    uint64_t in = (sv_prim_is_signed(u) ? (uint64_t)sv_get_int(v) : sv_get_uint(v));
    bool is_def =
        def && (sv_prim_is_signed(u) ? sv_get_int(def) == (int64_t)in : sv_get_uint(def) == in);
    /* candidates, kept sorted descending (insertion; enums are small) */
    uint32_t ncand = 0;
    uint32_t *cand = NULL;
    for (uint32_t i = 0; i < e->nvalues; i++) {
        uint64_t val = e->values[i].value;
        if (val == in) {
            sv__core_mem_free(c->alloc, cand, e->nvalues, sizeof *cand);
            if (!c->keep_defaults && is_def)
                return o3_rep(c, WV, SV_O3DE_DEFAULTS_USED, "Enum value defaulted.");
            *j = sv_strz(c->doc, e->values[i].name);
            return o3_rep(c, WV, SV_O3DE_SUCCESS, "Enum value stored as name.");
        }
        if (val == 0 || (val & in) != val) continue;
        if (!cand) {
            cand = sv__core_mem_calloc(c->alloc, e->nvalues, sizeof *cand);
            if (!cand) {
                o3_fail(c, SV_ERR_NOMEM, "out of memory");
                return o3_r(WV, SV_O3DE_CATASTROPHIC);
            }
        }
        uint64_t uv = val & mask;
        uint32_t pos = 0;
        bool dup = false;
        while (pos < ncand) {
            uint64_t cv = e->values[cand[pos]].value & mask;
            if (cv == uv) {
                dup = true;
                break;
            }
            if (cv < uv) break;
            pos++;
        }
        if (dup) continue;
        memmove(cand + pos + 1, cand + pos, (ncand - pos) * sizeof *cand);
        cand[pos] = i;
        ncand++;
    }
    if (!c->keep_defaults && is_def) {
        sv__core_mem_free(c->alloc, cand, e->nvalues, sizeof *cand);
        return o3_rep(c, WV, SV_O3DE_DEFAULTS_USED, "Enum value defaulted.");
    }
    if (ncand == 0) {
        sv__core_mem_free(c->alloc, cand, e->nvalues, sizeof *cand);
        *j = bits_json(u, in);
        return o3_rep(c, WV, SV_O3DE_SUCCESS, "Enum value stored as a number.");
    }
    sv_value arr = sv_array(c->doc, 0);
    uint64_t rest = in;
    for (uint32_t i = 0; i < ncand; i++) {
        (void)sv_array_append(c->doc, &arr, sv_strz(c->doc, e->values[cand[i]].name));
        rest &= ~e->values[cand[i]].value;
    }
    sv__core_mem_free(c->alloc, cand, e->nvalues, sizeof *cand);
    if (rest & mask)
        (void)sv_array_append(c->doc, &arr,
                              bits_json(u, sv_prim_is_signed(u) ? rest : rest & mask));
    if (sv_doc_status(c->doc) != SV_OK) o3_fail(c, sv_doc_status(c->doc), "out of memory");
    *j = arr;
    return o3_rep(c, WV, SV_O3DE_SUCCESS, "Enum value defaulted as array");
}
