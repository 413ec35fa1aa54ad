/* Enum values (§6.4) in one form whichever way they were read: binary
 * integers, binary names (flag 4) and XML text. A value the type list names
 * is its name, so that the same enum read from binary and from XML is the
 * same tree; a name reads back to the number for integer streams, and a
 * number is spelled out for name streams and XML. */
#include <string.h>

#include "formats/kingsisle/ki_internal.h"

/* §6.4: a name ("OPTION_C"), names joined by '|' for bit enums ("" is 0). */
bool ki_enum_parse(const ki_prop *p, const char *s, size_t n, uint32_t *out)
{
    uint32_t v = 0;
    size_t i = 0;
    if (!p->enm) return false;
    while (i < n) {
        size_t j = i;
        while (j < n && s[j] != '|') j++;
        size_t a = i, b = j;
        while (a < b && s[a] == ' ') a++;
        while (b > a && s[b - 1] == ' ') b--;
        bool found = false;
        for (uint32_t k = 0; k < p->enm->n && !found; k++) {
            const ki_enum_opt *o = &p->enm->opts[k];
            if (o->len == b - a && memcmp(o->name, s + a, b - a) == 0) {
                v |= o->value;
                found = true;
            }
        }
        if (!found && b > a) return false;
        i = j + 1;
    }
    *out = v;
    return true;
}

/* The names of an integer value, in declaration order (§6.4). */
bool ki_enum_names(const ki_prop *p, uint32_t v, sv_buf *out)
{
    if (!p->enm) return false;
    if (!p->bits_enum) {
        for (uint32_t k = 0; k < p->enm->n; k++)
            if (p->enm->opts[k].value == v) {
                sv_buf_append(out, p->enm->opts[k].name, p->enm->opts[k].len);
                return true;
            }
        return false;
    }
    uint32_t rest = v;
    for (uint32_t k = 0; k < p->enm->n; k++) {
        const ki_enum_opt *o = &p->enm->opts[k];
        if (o->value == 0 || (v & o->value) != o->value) continue;
        if (out->len) sv_buf_putc(out, '|');
        sv_buf_append(out, o->name, o->len);
        rest &= ~o->value;
    }
    return rest == 0;
}

/* A value of a bit-flag enum as its option names, written straight into
 * the document: the length first, then the names. */
static sv_value bit_names(sv_doc *doc, const ki_prop *p, uint32_t v)
{
    size_t len = 0;
    uint32_t rest = v;
    for (uint32_t k = 0; k < p->enm->n; k++) {
        const ki_enum_opt *o = &p->enm->opts[k];
        if (o->value == 0 || (v & o->value) != o->value) continue;
        len += (len ? 1 : 0) + o->len;
        rest &= ~o->value;
    }
    if (rest || !len) return sv_null(); /* bits no option has, or 0 */
    sv_value s = sv_str_uninit(doc, len);
    char *w = sv_value_buf(&s);
    if (!w) return sv_null();
    size_t at = 0;
    for (uint32_t k = 0; k < p->enm->n; k++) {
        const ki_enum_opt *o = &p->enm->opts[k];
        if (o->value == 0 || (v & o->value) != o->value) continue;
        if (at) w[at++] = '|';
        memcpy(w + at, o->name, o->len);
        at += o->len;
    }
    return s;
}

sv_value ki_enum_value(sv_doc *doc, const ki_prop *p, uint32_t v)
{
    sv_value num = sv_with_tag(sv_uint_w(v, 4), SV_TAG_ENUM);
    if (!p->enm) return num;
    sv_value name = sv_null();
    if (p->bits_enum) {
        name = bit_names(doc, p, v);
    } else {
        for (uint32_t k = 0; k < p->enm->n; k++)
            if (p->enm->opts[k].value == v && p->enm->opts[k].len) {
                name = sv_str(doc, p->enm->opts[k].name, p->enm->opts[k].len);
                break;
            }
    }
    if (sv_kind_of(&name) != SV_STRING) return num;
    /* only a name that reads back as v (two options of one value, a name
     * holding '|' or spaces would give another number, or none) */
    size_t n;
    const char *s = sv_get_str(&name, &n);
    uint32_t back;
    if (!ki_enum_parse(p, s, n, &back) || back != v) return num;
    return sv_with_tag(name, SV_TAG_ENUM);
}
