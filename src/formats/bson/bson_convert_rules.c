/* What BSON and Resonite data trees (BSON inside a container) write exactly,
 * and the nearest BSON of what they do not.
 *
 * bson_write.c writes any tree it can: a tuple or packed array as an array
 * of numbers, an object as a document without its class, a tag BSON has no
 * type for as the plain value. Each of those drops a type, so each is
 * judged here: exact are the values the BSON reader gives back as they
 * were (its kinds, and the tags datetime, timestamp, objectid, uuid,
 * decimal128, regex, minkey and maxkey; url in Resonite), plus numbers that
 * a wider BSON number holds. */
#include <stdio.h>
#include <string.h>

#include "convert/convert_internal.h"
#include "core/article.h"
#include "core/format_module.h"
#include "formats/bson/bson_internal.h"

typedef struct bson_cv {
    bool resonite; /* the container meta and a resonite.DataTree root */
    bool urls;     /* url strings ("@...") unless -O raw-strings */
} bson_cv;

/* Root meta: a Resonite file's container is kept for Resonite (its encoder
 * reads it); any other format's file data is dropped without a word. */
static bool keep_resonite_meta(const sv_pair *e, const void *state)
{
    const bson_cv *b = state;
    if (!cv_is_file_key(&e->key)) return true;
    if (!b->resonite) return false;
    size_t kn;
    const char *k = sv_get_str(&e->key, &kn);
    const char *v = sv_get_str(&e->val, NULL);
    if (kn == 7 && !memcmp(k, "framing", 7)) return !strcmp(v, "header") || !strcmp(v, "legacy");
    if (kn == 11 && !memcmp(k, "compression", 11))
        return !strcmp(v, "brotli") || !strcmp(v, "lzma") || !strcmp(v, "lz4");
    return false;
}

static bool is_file_meta_only(const sv_value *meta)
{
    for (uint32_t i = 0; i < sv_len(meta); i++)
        if (!cv_is_file_key(sv_key_at(meta, i))) return false;
    return true;
}

/* An array's meta is BSON's when it lists one string key per item. */
static bool bson_array_keys(const sv_value *v)
{
    const sv_value *keys = sv_meta(v);
    if (sv_kind_of(keys) != SV_ARRAY || keys->len != v->len) return false;
    for (uint32_t i = 0; i < keys->len; i++)
        if (sv_kind_of(sv_array_at(keys, i)) != SV_STRING) return false;
    return true;
}

static bool judge_key(const sv_value *v, sv_doc *doc, cv_judgement *j)
{
    char text[32];
    int n;
    if (sv_kind_of(v) == SV_STRING && sv_tag_of(v) == SV_TAG_NONE && !memchr(v->as.str, 0, v->len))
        return true; /* the common case, before any text is made */
    cv_describe(v, j->what, sizeof j->what);
    switch (sv_kind_of(v)) {
    case SV_STRING:
        if (memchr(v->as.str, 0, v->len)) {
            cv_refuse(j, "a key cannot hold a NUL byte");
        } else if (sv_tag_of(v) != SV_TAG_NONE) {
            cv_lower(j, cv_untagged(*v), "a string key");
        }
        snprintf(j->what + strlen(j->what), sizeof j->what - strlen(j->what), " key");
        return true;
    case SV_INT: n = snprintf(text, sizeof text, "%lld", (long long)v->as.i); break;
    case SV_UINT: n = snprintf(text, sizeof text, "%llu", (unsigned long long)v->as.u); break;
    case SV_BOOL: n = snprintf(text, sizeof text, "%s", v->as.b ? "true" : "false"); break;
    default:
        snprintf(j->what + strlen(j->what), sizeof j->what - strlen(j->what), " key");
        cv_refuse(j, "a document key is a string");
        return true;
    }
    const char *kn = sv_kind_name(sv_kind_of(v));
    snprintf(j->what, sizeof j->what, "%s %s key %s", kn[0] == 'u' ? "a" : sv__core_article(kn), kn,
             text);
    sv_value s = sv_str(doc, text, (size_t)n);
    if (s.kind != SV_STRING) return false;
    cv_lower(j, s, "the string key \"%s\"", text);
    return true;
}

static bool judge(const cv_rules *r, sv_doc *doc, const sv_value *v, cv_role role, cv_judgement *j)
{
    const bson_cv *b = r->state;
    sv_kind k = sv_kind_of(v);
    sv_tag tag = sv_tag_of(v);
    if (role == CV_KEY) return judge_key(v, doc, j);
    if (role == CV_ROOT) {
        if (k == SV_ARRAY && !b->resonite && !sv_meta(v) && tag == SV_TAG_NONE &&
            r->root_array_is_stream)
            return true; /* a stream of documents, each judged as a root */
        if (k != SV_MAP && k != SV_OBJECT) {
            cv_refuse(j, "the root of a document is a map");
            return true;
        }
        if (!b->resonite && cv_is_container_root(v)) {
            sv_value m = cv_container_without_meta(doc, v, SV_MAP);
            if (m.kind != SV_MAP || (sv_meta(v) && sv_meta_set(doc, &m, *sv_meta(v)) != SV_OK))
                return false;
            cv_lower(j, m, "a document");
            j->silent = true;
            return true;
        }
        size_t dropped;
        sv_value c = cv_filter_meta(doc, v, keep_resonite_meta, b, &dropped);
        if (c.kind != k) return false;
        if (dropped) {
            cv_lower(j, c, "the same without another format's file data");
            j->silent = true;
            return true;
        }
        if (b->resonite && cv_is_container_root(v)) return true;
    }
    switch (k) {
    case SV_NULL:
        if (tag != SV_TAG_NONE && tag != SV_TAG_MINKEY && tag != SV_TAG_MAXKEY)
            cv_lower(j, cv_untagged(*v), "null");
        return true;
    case SV_BOOL:
        if (tag != SV_TAG_NONE) {
            cv_lower(j, cv_untagged(*v), "a bool");
        } else if (v->len) {
            snprintf(j->what, sizeof j->what, "a bool stored as %u", (unsigned)v->len);
            cv_lower(j, sv_bool(true), "true");
        }
        return true;
    case SV_INT:
        if (tag != SV_TAG_NONE && tag != SV_TAG_DATETIME) cv_lower(j, cv_untagged(*v), "an int");
        return true;
    case SV_UINT:
        if (v->as.u > (uint64_t)INT64_MAX && tag != SV_TAG_TIMESTAMP) {
            cv_refuse(j, "%llu is above int64", (unsigned long long)v->as.u);
            return true;
        }
        if (tag != SV_TAG_NONE && tag != SV_TAG_TIMESTAMP) cv_lower(j, cv_untagged(*v), "an int");
        return true;
    case SV_FLOAT:
        if (tag != SV_TAG_NONE) cv_lower(j, cv_untagged(*v), "a double");
        return true;
    case SV_STRING: {
        uint8_t id[16];
        if (tag == SV_TAG_NONE) return true;
        if (tag == SV_TAG_OBJECTID) {
            if (v->len != 24 || !sv__bson_unhex(v->as.str, 12, id))
                cv_refuse(j, "an objectid is 24 hex digits");
            return true;
        }
        if (tag == SV_TAG_UUID) {
            if (!sv__bson_uuid_parse(v->as.str, v->len, id))
                cv_refuse(j, "a uuid is 8-4-4-4-12 hex digits");
            return true;
        }
        if (tag == SV_TAG_URL && b->urls) {
            if (v->len == 0 || (v->as.str[0] == '@' && v->len != 1))
                cv_refuse(j, "a URL cannot be empty or start with '@'");
            return true;
        }
        cv_lower(j, cv_untagged(*v), "a string");
        return true;
    }
    case SV_BYTES:
        if (tag == SV_TAG_NONE) return true;
        if (tag == SV_TAG_DECIMAL128) {
            if (v->len != 16) cv_refuse(j, "a decimal128 is 16 bytes");
            return true;
        }
        cv_lower(j, cv_untagged(*v), "a binary");
        return true;
    case SV_ARRAY: {
        if (tag == SV_TAG_REGEX) return true; /* its shape is the encoder's to check */
        if (tag != SV_TAG_NONE) {
            cv_lower(j, cv_untagged(*v), "an array");
            return true;
        }
        const sv_value *meta = sv_meta(v);
        if (!meta || bson_array_keys(v)) return true;
        sv_value c = cv_container_without_meta(doc, v, SV_ARRAY);
        if (c.kind != SV_ARRAY) return false;
        if (cv_describe_by_formats(v, j->what, sizeof j->what))
            ; /* another format's own name for it ("a PackedStringArray") */
        else if (sv_kind_of(meta) == SV_MAP && sv_map_getz(meta, "type"))
            snprintf(j->what, sizeof j->what, "a typed array");
        cv_lower(j, c, "an array");
        return true;
    }
    case SV_MAP: {
        const sv_value *meta = sv_meta(v);
        if (tag == SV_TAG_NONE && (!meta || (role == CV_ROOT && is_file_meta_only(meta))))
            return true;
        sv_value c = cv_container_without_meta(doc, v, SV_MAP);
        if (c.kind != SV_MAP) return false;
        if (meta && sv_map_getz(meta, "key")) snprintf(j->what, sizeof j->what, "a typed map");
        cv_lower(j, c, "a document");
        return true;
    }
    case SV_OBJECT: {
        const sv_value *cls = sv_object_class(v);
        size_t n;
        const char *name = sv_get_str(cls, &n);
        if (sv_kind_of(cls) == SV_STRING && n > 5 && !memcmp(name, "bson.", 5)) return true;
        sv_value c = cv_container_without_meta(doc, v, SV_MAP);
        if (c.kind != SV_MAP) return false;
        cv_lower(j, c, "a document (the class dropped)");
        return true;
    }
    case SV_TUPLE: {
        sv_value a = cv_numbers_as_array(doc, v, 0);
        if (a.kind != SV_ARRAY) return false;
        cv_lower(j, a, "an array of %u number%s", (unsigned)v->len, cv_plural(v->len));
        return true;
    }
    case SV_PACKED: {
        for (size_t i = 0; i < v->len && sv_elem_of(v) == SV_ELEM_U64; i++) {
            sv_value s = cv_scalar(v, i);
            if (s.as.u > (uint64_t)INT64_MAX) {
                cv_refuse(j, "item %zu is above int64", i);
                return true;
            }
        }
        unsigned per = sv_tag_scalars(tag);
        sv_value a = cv_numbers_as_array(doc, v, per);
        if (a.kind != SV_ARRAY) return false;
        if (per > 1)
            cv_lower(j, a, "an array of %u array%s of %u numbers", (unsigned)(v->len / per),
                     cv_plural(v->len / per), per);
        else
            cv_lower(j, a, "an array of %u number%s", (unsigned)v->len, cv_plural(v->len));
        return true;
    }
    case SV_REF:
        if (v->flags & SV_F_NULLREF)
            cv_lower(j, sv_null(), "null");
        else if (v->as.u <= (uint64_t)INT64_MAX)
            cv_lower(j, sv_int((int64_t)v->as.u), "an int64");
        else
            cv_refuse(j, NULL);
        return true;
    default: cv_refuse(j, NULL); return true;
    }
}

sv_status bson_convert_rules_for(bool resonite, const sv_options *opts, cv_rules *r, void *state,
                                 size_t state_size)
{
    if (state_size < sizeof(bson_cv)) return SV_ERR_NOMEM;
    bson_cv *b = state;
    /* -O raw-strings: Resonite strings written as they are, no URLs */
    b->resonite = resonite;
    b->urls = resonite ? !sv_options_flag(opts, "raw-strings", false)
                       : sv_options_flag(opts, "resonite-urls", false);
    r->root_array_is_stream = !resonite;
    r->format = resonite ? "resonite" : "bson";
    r->noun = resonite ? "Resonite form" : "BSON form";
    r->judge = judge;
    r->state = b;
    return SV_OK;
}

static sv_status bson_convert_rules(const char *name, const sv_options *opts, cv_rules *r,
                                    void *state, size_t state_size, sv_error *err)
{
    (void)err;
    if (strcmp(name, "bson") != 0) return SV_ERR_NOT_FOUND;
    return bson_convert_rules_for(false, opts, r, state, state_size);
}

const sv_format_hooks sv_format_hooks_bson = {.convert_rules = bson_convert_rules};
