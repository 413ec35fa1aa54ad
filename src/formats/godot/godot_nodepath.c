/* NodePath as text (spec §5.3).
 *
 * On the wire a NodePath is a list of names, a list of subnames and an
 * absolute flag. serval keeps it as a string tagged node_path in Godot's own
 * text form: "/" before the names when absolute, names joined by "/", then
 * ":" before each subname ("/root:pos:x" is names [root], subnames [pos, x],
 * absolute). The split below is the exact inverse of the join, so the lists
 * come back unchanged; it differs from Godot's NodePath(String) parser only
 * on text that parser would clean up (empty components, "a//b"). Lists the
 * text cannot carry (a name holding "/" or ":", a subname holding ":", an
 * empty first name) are reported by gd_nodepath_representable. */
#include <string.h>

#include "formats/godot/godot_internal.h"

bool gd_nodepath_representable(const gd_np_part *names, uint32_t nn, const gd_np_part *subs,
                               uint32_t ns, const char **why)
{
    if (nn >= 1 && names[0].len == 0) {
        *why = "an empty first name";
        return false;
    }
    for (uint32_t i = 0; i < nn; i++) {
        if (memchr(names[i].s, '/', names[i].len) || memchr(names[i].s, ':', names[i].len)) {
            *why = "a name holding '/' or ':'";
            return false;
        }
    }
    for (uint32_t i = 0; i < ns; i++) {
        if (memchr(subs[i].s, ':', subs[i].len)) {
            *why = "a subname holding ':'";
            return false;
        }
    }
    return true;
}

size_t gd_nodepath_text_len(const gd_np_part *names, uint32_t nn, const gd_np_part *subs,
                            uint32_t ns, bool absolute)
{
    size_t n = absolute ? 1 : 0;
    for (uint32_t i = 0; i < nn; i++) n += names[i].len + (i ? 1 : 0);
    for (uint32_t i = 0; i < ns; i++) n += 1 + subs[i].len;
    return n;
}

void gd_nodepath_text(char *d, const gd_np_part *names, uint32_t nn, const gd_np_part *subs,
                      uint32_t ns, bool absolute)
{
    if (absolute) *d++ = '/';
    for (uint32_t i = 0; i < nn; i++) {
        if (i) *d++ = '/';
        memcpy(d, names[i].s, names[i].len);
        d += names[i].len;
    }
    for (uint32_t i = 0; i < ns; i++) {
        *d++ = ':';
        memcpy(d, subs[i].s, subs[i].len);
        d += subs[i].len;
    }
}

bool gd_nodepath_split(const char *s, size_t len,
                       void (*part)(void *ctx, bool sub, const char *s, size_t len), void *ctx)
{
    bool absolute = len > 0 && s[0] == '/';
    if (absolute) {
        s++;
        len--;
    }
    const char *colon = memchr(s, ':', len);
    size_t path_len = colon ? (size_t)(colon - s) : len;
    if (path_len > 0) {
        size_t start = 0;
        for (size_t i = 0; i <= path_len; i++) {
            if (i == path_len || s[i] == '/') {
                part(ctx, false, s + start, i - start);
                start = i + 1;
            }
        }
    }
    if (colon) {
        size_t start = path_len + 1;
        for (size_t i = start; i <= len; i++) {
            if (i == len || s[i] == ':') {
                part(ctx, true, s + start, i - start);
                start = i + 1;
            }
        }
    }
    return absolute;
}
