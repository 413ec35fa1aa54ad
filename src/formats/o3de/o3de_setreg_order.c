/* Which files of a Settings Registry folder are merged, and in what order:
 * O3DE's ExtractFileDescription and IsLessThan (SettingsRegistryImpl.cpp).
 *
 * "Memory.editor.test.setreg" is the file named "Memory" specialized for
 * "editor" and "test": it takes part only when both are selected, after
 * "Memory.setreg", "Memory.editor.setreg" and "Memory.test.setreg". Tags
 * are compared by the hash O3DE compares (FNV-1a of the lower-cased text),
 * so "Editor" and "editor" are one tag, and a file's tags are put in hash
 * order before two files' tags are compared place by place. */
#include <stdlib.h>
#include <string.h>

#include "o3de_setreg.h"

uint64_t o3sr_tag_hash(const char *s, size_t len)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (c >= 'A' && c <= 'Z') c = (char)(c - 'A' + 'a');
        /* AZStd::hash_string casts each char (signed here) to size_t */
        h ^= (uint64_t)(int64_t)(signed char)c;
        h *= 1099511628211ULL;
    }
    return h;
}

bool o3sr_specs_add(o3sr_specs *s, const char *tag, const char **why)
{
    size_t len = strlen(tag);
    if (s->n >= O3SR_MAX_SPECS) {
        *why = "Too many specialization for the Settings Registry. The maximum is 15.";
        return false;
    }
    if (len > O3SR_MAX_TAG) {
        *why = "a specialization tag is longer than the MaxTagNameSize of 64";
        return false;
    }
    s->hash[s->n++] = o3sr_tag_hash(tag, len);
    return true;
}

/* Specializations::GetPriority: the tag's place, or NotFound (largest). */
static size_t priority(const o3sr_specs *s, uint64_t h)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->hash[i] == h) return i;
    return (size_t)-1;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

bool o3sr_describe(const char *name, const o3sr_specs *s, o3sr_file *out, const char **why)
{
    memset(out, 0, sizeof *out);
    out->name = name;
    /* AZ::IO::PathView: the extension starts at the last dot, unless that
     * dot begins the name (".setreg" is all stem) */
    const char *dot = strrchr(name, '.');
    if (!dot || dot == name) {
        *why = "Settings file without extension found";
        return false;
    }
    if (strcmp(dot, ".setregpatch") == 0) {
        out->patch = true;
    } else if (strcmp(dot, ".setreg") != 0) {
        *why = "not a .setreg or .setregpatch file";
        return false;
    }
    /* the stem, split at the dots; empty tokens are skipped */
    size_t stem = (size_t)(dot - name);
    for (size_t i = 0; i < stem;) {
        size_t j = i;
        while (j < stem && name[j] != '.') j++;
        if (j > i) {
            if (out->ntags == sizeof out->tags / sizeof out->tags[0]) {
                /* more tags than can be selected: one is not, or repeats */
                *why = "a specialization tag is not selected";
                return false;
            }
            out->tags[out->ntags++] = o3sr_tag_hash(name + i, j - i);
        }
        i = j + 1;
    }
    if (out->ntags == 0) {
        *why = "Settings file without name found";
        return false;
    }
    if (out->ntags > 1) {
        qsort(out->tags + 1, out->ntags - 1, sizeof out->tags[0], cmp_u64);
        for (size_t i = 2; i < out->ntags; i++) {
            if (out->tags[i] == out->tags[i - 1]) {
                *why = "One or more tags are duplicated in registry file";
                return false;
            }
        }
        for (size_t i = 1; i < out->ntags; i++) {
            if (priority(s, out->tags[i]) == (size_t)-1) {
                *why = "a specialization tag is not selected";
                return false;
            }
        }
    }
    return true;
}

/* IsLessThan without its collision report: <0, 0 (the same
 * specialization) or >0. */
static int compare(const o3sr_file *l, const o3sr_file *r, const o3sr_specs *s)
{
    if (l->tags[0] != r->tags[0]) {
        /* relative paths compared as AZ::IO::Path does: byte by byte here,
         * as the names hold no separators */
        int c = strcmp(l->name, r->name);
        return c < 0 ? -1 : c > 0;
    }
    if (l->ntags != r->ntags) return l->ntags < r->ntags ? -1 : 1;
    for (size_t i = 1; i < l->ntags; i++) {
        size_t a = priority(s, l->tags[i]), b = priority(s, r->tags[i]);
        if (a != b) return a < b ? -1 : 1;
    }
    /* Platform/NAME/Memory.editor.setreg specializes Memory.editor.setreg
     * for the platform, so it comes right after it */
    if (l->platform != r->platform) return l->platform ? 1 : -1;
    return 0;
}

bool o3sr_sort(o3sr_file *f, size_t n, const o3sr_specs *s, size_t *a, size_t *b)
{
    /* insertion sort: a folder holds at most 128 files */
    for (size_t i = 1; i < n; i++) {
        o3sr_file x = f[i];
        size_t j = i;
        while (j > 0 && compare(&x, &f[j - 1], s) < 0) {
            f[j] = f[j - 1];
            j--;
        }
        f[j] = x;
    }
    /* files that compare equal end up side by side */
    for (size_t i = 1; i < n; i++) {
        if (compare(&f[i - 1], &f[i], s) == 0) {
            *a = i - 1;
            *b = i;
            return false;
        }
    }
    return true;
}
