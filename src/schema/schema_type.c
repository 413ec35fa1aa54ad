/* Schemas: primitive and generic type names, UUID text, and the parser of
 * type expressions ("map<string,vector<Item>>"), interned per schema. */
#include <string.h>

#include "schema/schema_internal.h"

static const char *const prim_names[] = {
#define SV_X_PRIM(id, name) name,
    SV_PRIM_LIST(SV_X_PRIM)
#undef SV_X_PRIM
};

static const struct {
    const char *name;
    int params;
} gen_rows[] = {
#define SV_X_GEN(id, name, params) {name, params},
    SV_GENERIC_LIST(SV_X_GEN)
#undef SV_X_GEN
};

const char *sv_prim_name(sv_prim p)
{
    return (unsigned)p < SV_PRIM_COUNT ? prim_names[p] : "";
}
const char *sv_generic_name(sv_generic g)
{
    return (unsigned)g < SV_GEN_COUNT ? gen_rows[g].name : "";
}

sv_prim sv_prim_by_name(const char *name, size_t len)
{
    for (int p = 0; p < SV_PRIM_COUNT; p++)
        if (strlen(prim_names[p]) == len && memcmp(prim_names[p], name, len) == 0)
            return (sv_prim)p;
    return SV_PRIM_COUNT;
}

sv_generic sv_generic_by_name(const char *name, size_t len)
{
    for (int g = 0; g < SV_GEN_COUNT; g++)
        if (strlen(gen_rows[g].name) == len && memcmp(gen_rows[g].name, name, len) == 0)
            return (sv_generic)g;
    return SV_GEN_COUNT;
}

int sv_prim_int_width(sv_prim p)
{
    return sv__schema_prim_int_width(p);
}

bool sv_prim_is_signed(sv_prim p)
{
    return sv__schema_prim_is_signed(p);
}

sv_tag sv__schema_prim_tag(sv_prim p)
{
    switch (p) {
    case SV_PRIM_VECTOR2: return SV_TAG_VECTOR2;
    case SV_PRIM_VECTOR3: return SV_TAG_VECTOR3;
    case SV_PRIM_VECTOR4: return SV_TAG_VECTOR4;
    case SV_PRIM_QUATERNION: return SV_TAG_QUATERNION;
    case SV_PRIM_COLOR: return SV_TAG_COLOR;
    case SV_PRIM_MATRIX3X3: return SV_TAG_MATRIX3X3;
    case SV_PRIM_MATRIX3X4: return SV_TAG_MATRIX3X4;
    case SV_PRIM_MATRIX4X4: return SV_TAG_MATRIX4X4;
    case SV_PRIM_TRANSFORM: return SV_TAG_TRANSFORM;
    default: return SV_TAG_NONE;
    }
}

unsigned sv__schema_prim_scalars(sv_prim p)
{
    return sv_tag_scalars(sv__schema_prim_tag(p));
}

/* ---- UUIDs -------------------------------------------------------------- */

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

bool sv_uuid_parse(const char *text, size_t len, sv_uuid *out)
{
    if (!text) return false;
    if (len == 38 && text[0] == '{' && text[37] == '}') {
        text++;
        len = 36;
    }
    if (len != 36) return false;
    sv_uuid u;
    size_t k = 0;
    for (size_t i = 0; i < 36; i++) {
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (text[i] != '-') return false;
            continue;
        }
        int hi = hexval(text[i]), lo = hexval(text[i + 1]);
        if (hi < 0 || lo < 0) return false;
        u.b[k++] = (uint8_t)(hi << 4 | lo);
        i++;
    }
    *out = u;
    return true;
}

void sv_uuid_format(const sv_uuid *u, bool braces, char buf[39])
{
    const char *digits = braces ? "0123456789ABCDEF" : "0123456789abcdef";
    size_t o = 0;
    if (braces) buf[o++] = '{';
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) buf[o++] = '-';
        buf[o++] = digits[u->b[i] >> 4];
        buf[o++] = digits[u->b[i] & 15];
    }
    if (braces) buf[o++] = '}';
    buf[o] = '\0';
}

/* ---- the parser ------------------------------------------------------------
 * type   := name | generic '<' type (',' type)* '>' | 'array' '<' type ',' N '>'
 * name   := any run of characters other than '<', '>', ',' and controls,
 *           spaces around it dropped ("class Foo" is one name).
 * The canonical text has no spaces except inside names. */

typedef struct tparser {
    sv_schema *s;
    const char *p, *start, *end;
    sv_error *err;
    sv_buf canon; /* canonical text of the type being built, scratch */
} tparser;

static bool interned_text_eq(const void *item, const void *key)
{
    const sv_type *t = item;
    const char *const *k = key; /* {text, (char *)len} */
    size_t len = (size_t)(uintptr_t)k[1];
    return strlen(t->text) == len && memcmp(t->text, k[0], len) == 0;
}

static const sv_type *type_find(const sv_schema *s, const char *text, size_t len)
{
    const char *key[2] = {text, (const char *)(uintptr_t)len};
    return sv__schema_tab_find(&s->types, sv__schema_hash_str(text, len), interned_text_eq, key);
}

static sv_status syntax(tparser *tp, const char *msg)
{
    return sv__schema_fail(tp->err, SV_ERR_SYNTAX, "type '%.*s': %s at offset %u",
                           (int)(tp->end - tp->start > 80 ? 80 : tp->end - tp->start), tp->start,
                           msg, (unsigned)(tp->p - tp->start));
}

static void skip_ws(tparser *tp)
{
    while (tp->p < tp->end && (*tp->p == ' ' || *tp->p == '\t')) tp->p++;
}

/* Interns a finished type whose canonical text is text[0..len). */
static sv_status type_intern(tparser *tp, sv_type *proto, const char *text, size_t len,
                             const sv_type **out)
{
    const sv_type *found = type_find(tp->s, text, len);
    if (found) {
        *out = found;
        return SV_OK;
    }
    sv_type *t = sv__schema_zalloc(tp->s, sizeof *t);
    const char *itext = sv__schema_intern(tp->s, text, len);
    if (!t || !itext) return sv__schema_fail(tp->err, SV_ERR_NOMEM, "out of memory");
    *t = *proto;
    t->text = itext;
    if (!sv__schema_tab_put(&tp->s->types, &tp->s->alloc, sv__schema_hash_str(itext, len), t))
        return sv__schema_fail(tp->err, SV_ERR_NOMEM, "out of memory");
    *out = t;
    return SV_OK;
}

static sv_status parse_type(tparser *tp, unsigned depth, const sv_type **out);

static sv_status parse_params(tparser *tp, unsigned depth, sv_generic g, sv_type *proto)
{
    const sv_type *params[64];
    uint32_t n = 0;
    for (;;) {
        skip_ws(tp);
        if (g == SV_GEN_ARRAY && n == 1) {
            /* the length N */
            uint64_t v = 0;
            const char *d = tp->p;
            while (tp->p < tp->end && *tp->p >= '0' && *tp->p <= '9') {
                v = v * 10 + (uint64_t)(*tp->p - '0');
                if (v > SV_TYPE_MAX_ARRAY_LEN) return syntax(tp, "array length out of range");
                tp->p++;
            }
            if (tp->p == d) return syntax(tp, "expected an array length");
            proto->array_len = (uint32_t)v;
            skip_ws(tp);
            if (tp->p >= tp->end || *tp->p != '>') return syntax(tp, "expected '>'");
            tp->p++;
            break;
        }
        if (n == 64) return syntax(tp, "too many type parameters");
        const sv_type *pt;
        sv_status st = parse_type(tp, depth + 1, &pt);
        if (st) return st;
        params[n++] = pt;
        skip_ws(tp);
        if (tp->p >= tp->end) return syntax(tp, "expected '>'");
        if (*tp->p == '>') {
            if (g == SV_GEN_ARRAY) return syntax(tp, "array takes a type and a length");
            tp->p++;
            break;
        }
        if (*tp->p != ',') return syntax(tp, "expected ',' or '>'");
        tp->p++;
    }
    int want = gen_rows[g].params;
    if (g == SV_GEN_ARRAY) {
        if (n != 1) return syntax(tp, "array takes a type and a length");
    } else if (want >= 0 && (uint32_t)want != n) {
        return sv__schema_fail(tp->err, SV_ERR_SYNTAX, "type '%.*s': %s takes %d type parameter%s",
                               (int)(tp->end - tp->start > 80 ? 80 : tp->end - tp->start),
                               tp->start, gen_rows[g].name, want, want == 1 ? "" : "s");
    }
    const sv_type **copy = sv__schema_zalloc(tp->s, n * sizeof *copy);
    if (!copy) return sv__schema_fail(tp->err, SV_ERR_NOMEM, "out of memory");
    memcpy(copy, params, n * sizeof *copy);
    proto->params = copy;
    proto->nparams = n;
    return SV_OK;
}

static sv_status parse_type(tparser *tp, unsigned depth, const sv_type **out)
{
    if (depth > SV_TYPE_MAX_DEPTH) return syntax(tp, "type nested too deeply");
    skip_ws(tp);
    const char *nb = tp->p;
    while (tp->p < tp->end && *tp->p != '<' && *tp->p != '>' && *tp->p != ',' &&
           (unsigned char)*tp->p >= 0x20)
        tp->p++;
    const char *ne = tp->p;
    while (ne > nb && (ne[-1] == ' ' || ne[-1] == '\t')) ne--;
    if (ne == nb) return syntax(tp, "expected a type name");
    if (tp->p < tp->end && (unsigned char)*tp->p < 0x20) return syntax(tp, "control character");
    size_t nlen = (size_t)(ne - nb);
    sv_type proto;
    memset(&proto, 0, sizeof proto);
    if (tp->p < tp->end && *tp->p == '<') {
        sv_generic g = sv_generic_by_name(nb, nlen);
        if (g == SV_GEN_COUNT)
            return sv__schema_fail(tp->err, SV_ERR_SYNTAX, "type '%.*s': unknown generic '%.*s'",
                                   (int)(tp->end - tp->start > 80 ? 80 : tp->end - tp->start),
                                   tp->start, (int)(nlen > 60 ? 60 : nlen), nb);
        tp->p++;
        proto.kind = SV_TYPE_GENERIC;
        proto.gen = g;
        proto.name = gen_rows[g].name;
        sv_status st = parse_params(tp, depth, g, &proto);
        if (st) return st;
        /* canonical text: name<p1,p2> or array<T,N> */
        size_t mark = tp->canon.len;
        sv_buf_append(&tp->canon, gen_rows[g].name, strlen(gen_rows[g].name));
        sv_buf_putc(&tp->canon, '<');
        for (uint32_t i = 0; i < proto.nparams; i++) {
            if (i) sv_buf_putc(&tp->canon, ',');
            sv_buf_append(&tp->canon, proto.params[i]->text, strlen(proto.params[i]->text));
        }
        if (g == SV_GEN_ARRAY) {
            char num[16];
            int k = 0;
            uint32_t v = proto.array_len;
            char rev[16];
            do rev[k++] = (char)('0' + v % 10);
            while ((v /= 10) != 0);
            for (int i = 0; i < k; i++) num[i] = rev[k - 1 - i];
            sv_buf_putc(&tp->canon, ',');
            sv_buf_append(&tp->canon, num, (size_t)k);
        }
        sv_buf_putc(&tp->canon, '>');
        if (!sv_buf_ok(&tp->canon)) return sv__schema_fail(tp->err, SV_ERR_NOMEM, "out of memory");
        st =
            type_intern(tp, &proto, (const char *)tp->canon.data + mark, tp->canon.len - mark, out);
        tp->canon.len = mark;
        return st;
    }
    if (sv_generic_by_name(nb, nlen) != SV_GEN_COUNT)
        return sv__schema_fail(tp->err, SV_ERR_SYNTAX, "type '%.*s': '%.*s' needs type parameters",
                               (int)(tp->end - tp->start > 80 ? 80 : tp->end - tp->start),
                               tp->start, (int)nlen, nb);
    sv_prim p = sv_prim_by_name(nb, nlen);
    if (p != SV_PRIM_COUNT) {
        proto.kind = SV_TYPE_PRIM;
        proto.prim = p;
        proto.name = prim_names[p];
    } else {
        proto.kind = SV_TYPE_NAME;
        proto.name = sv__schema_intern(tp->s, nb, nlen);
        if (!proto.name) return sv__schema_fail(tp->err, SV_ERR_NOMEM, "out of memory");
    }
    return type_intern(tp, &proto, nb, nlen, out);
}

sv_status sv_schema_parse_type(sv_schema *s, const char *text, size_t len, const sv_type **out,
                               sv_error *err)
{
    if (!s || !out || (!text && len)) return sv__schema_fail(err, SV_ERR_USAGE, "no type given");
    *out = NULL;
    /* most expressions are already canonical: one lookup, no parse */
    const sv_type *t = type_find(s, text, len);
    if (!t) {
        tparser tp = {s, text, text, text + len, err, {0}};
        sv_buf_init(&tp.canon, &s->alloc);
        sv_status st = parse_type(&tp, 0, &t);
        if (!st) {
            skip_ws(&tp);
            if (tp.p != tp.end)
                st = syntax(&tp, *tp.p == '>' ? "unbalanced '>'" : "unexpected text");
        }
        sv_buf_free(&tp.canon);
        if (st) return st;
    }
    if (s->final) {
        sv_status st = sv__schema_type_resolve(s, t, err);
        if (st) return st;
    }
    *out = t;
    return SV_OK;
}

sv_status sv__schema_type_resolve(sv_schema *s, const sv_type *t, sv_error *err)
{
    if (t->kind == SV_TYPE_GENERIC) {
        for (uint32_t i = 0; i < t->nparams; i++) {
            sv_status st = sv__schema_type_resolve(s, t->params[i], err);
            if (st) return st;
        }
        return SV_OK;
    }
    if (t->kind != SV_TYPE_NAME) return SV_OK;
    sv_type *m = (sv_type *)t; /* interned in this schema: resolving fills it in */
    size_t len = strlen(t->name);
    const sv_schema_class *c = sv_schema_class_by_name(s, t->name, len);
    if (c) {
        m->kind = SV_TYPE_CLASS;
        m->cls = c;
        return SV_OK;
    }
    const sv_schema_enum *e = sv_schema_enum_by_name(s, t->name, len);
    if (e) {
        m->kind = SV_TYPE_ENUM;
        m->enm = e;
        return SV_OK;
    }
    return sv__schema_fail(err, SV_ERR_NOT_FOUND, "unknown type '%s'", t->name);
}
