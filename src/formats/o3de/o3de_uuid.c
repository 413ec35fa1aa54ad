/* UUIDs: written "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}"; read from the first
 * braced UUID anywhere in a string, dashes all present or all absent.
 * docs/formats/o3de.md, "What serval follows", UUIDs. A hand-written scanner stands in for O3DE's regular
 * expression \{[a-f0-9]{8}-?[a-f0-9]{4}-?[a-f0-9]{4}-?[a-f0-9]{4}-?[a-f0-9]{12}\}. */
#include <string.h>

#include "o3de_internal.h"

#define RF SV_O3DE_READ_FIELD
#define WV SV_O3DE_WRITE_VALUE

static int hexv(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* Tries the pattern at s[0] == '{'. Returns the match length (0: none) and
 * fills the bytes; *dashes gets which optional dashes were present. */
static size_t match_at(const char *s, size_t n, uint8_t *b, unsigned *dashes)
{
    static const int groups[5] = {8, 4, 4, 4, 12};
    size_t i = 1, nib = 0;
    *dashes = 0;
    for (int g = 0; g < 5; g++) {
        if (g > 0 && i < n && s[i] == '-') {
            *dashes |= 1u << (g - 1);
            i++;
        }
        for (int k = 0; k < groups[g]; k++, i++, nib++) {
            if (i >= n) return 0;
            int h = hexv(s[i]);
            if (h < 0) return 0;
            if (nib & 1)
                b[nib / 2] |= (uint8_t)h;
            else
                b[nib / 2] = (uint8_t)(h << 4);
        }
    }
    if (i >= n || s[i] != '}') return 0;
    return i + 1;
}

bool o3_uuid_search(const char *s, size_t n, sv_uuid *out, bool *bad)
{
    *bad = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '{') continue;
        uint8_t b[16];
        unsigned dashes;
        if (!match_at(s + i, n - i, b, &dashes)) continue;
        /* Uuid::CreateString: a dash after the first group means all four
         * must be there; none after it means none may be */
        if (dashes != 0 && dashes != 15) {
            *bad = true;
            return false;
        }
        memcpy(out->b, b, 16);
        return true;
    }
    return false;
}

static bool uuid_of_value(const sv_value *v, sv_uuid *u)
{
    size_t n;
    const char *s = sv_get_str(v, &n);
    memset(u, 0, sizeof *u);
    return n && sv_uuid_parse(s, n, u);
}

static sv_value uuid_value(o3_ctx *c, const sv_uuid *u)
{
    char text[39];
    sv_uuid_format(u, false, text);
    sv_value v = sv_str(c->doc, text, 36);
    if (v.kind != SV_STRING) o3_fail(c, SV_ERR_NOMEM, "out of memory");
    return sv_with_tag(v, SV_TAG_UUID);
}

static bool is_null(const sv_uuid *u)
{
    for (int i = 0; i < 16; i++)
        if (u->b[i]) return false;
    return true;
}

o3_res o3_load_uuid(o3_ctx *c, const sv_value *j, const sv_value *cur, sv_value *out)
{
    *out = *cur;
    sv_uuid u = {{0}};
    if (o3_is_explicit_default(j)) {
        *out = uuid_value(c, &u);
        return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, "Uuid set to null.");
    }
    if (sv_kind_of(j) != SV_STRING)
        return o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Uuids can only be read from strings.");
    bool bad;
    if (!o3_uuid_search(j->as.str, j->len, &u, &bad))
        return bad ? o3_rep(c, RF, SV_O3DE_UNSUPPORTED, "Failed to create uuid from string.")
                   : o3_rep(c, RF, SV_O3DE_UNSUPPORTED,
                            "No part of the string could be interpreted as a uuid.");
    *out = uuid_value(c, &u);
    if (is_null(&u)) return o3_rep(c, RF, SV_O3DE_DEFAULTS_USED, "Uuid is null.");
    return o3_rep(c, RF, SV_O3DE_SUCCESS, "Successfully read uuid.");
}

o3_res o3_store_uuid(o3_ctx *c, const sv_value *v, const sv_value *def, sv_value *j)
{
    sv_uuid u, d;
    uuid_of_value(v, &u);
    if (def && !c->keep_defaults) {
        uuid_of_value(def, &d);
        if (memcmp(&u, &d, sizeof u) == 0)
            return o3_rep(c, WV, SV_O3DE_DEFAULTS_USED, "Default uuid used.");
    }
    char text[39];
    sv_uuid_format(&u, true, text);
    *j = sv_str(c->doc, text, 38);
    if (j->kind != SV_STRING) o3_fail(c, SV_ERR_NOMEM, "out of memory");
    return o3_rep(c, WV, SV_O3DE_SUCCESS, "Uuid stored.");
}
