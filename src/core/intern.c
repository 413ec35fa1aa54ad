/* Interned strings: one copy per document of keys, class and field names.
 * Open addressing with linear probing over (hash, length, pointer) slots; the
 * table lives outside the arena (it is resized) but counts against the
 * document's allocation limit. */
#include <string.h>

#include "core/doc_internal.h"
#include "core/hash.h"
#include "core/value_internal.h"

/* A hostile input could aim many keys at one slot run; past this many probes
 * the string is stored without interning (still correct, just not shared). */
#define INTERN_MAX_PROBES 64u

static bool intern_grow(sv_doc *doc)
{
    uint32_t old_cap = doc->intern_cap;
    uint32_t cap = old_cap ? old_cap * 2 : 256;
    if (cap < old_cap) return false;
    sv_intern_slot *slots = sv__core_doc_sys_alloc(doc, (size_t)cap * sizeof *slots);
    if (!slots) return false;
    memset(slots, 0, (size_t)cap * sizeof *slots);
    for (uint32_t i = 0; i < old_cap; i++) {
        sv_intern_slot s = doc->intern[i];
        if (!s.str) continue;
        uint32_t j = s.hash & (cap - 1);
        while (slots[j].str) j = (j + 1) & (cap - 1);
        slots[j] = s;
    }
    sv__core_doc_sys_free(doc, doc->intern, (size_t)old_cap * sizeof *doc->intern);
    doc->intern = slots;
    doc->intern_cap = cap;
    return true;
}

sv_value sv_str_intern(sv_doc *doc, const char *s, size_t len)
{
    if (!doc || len > UINT32_MAX) return sv_str(doc, s, len);
    if ((doc->intern_count + 1) * 4 > doc->intern_cap * 3 && !intern_grow(doc)) {
        return sv_null();
    }
    uint32_t hash = (uint32_t)sv__core_hash_bytes(s, len);
    uint32_t mask = doc->intern_cap - 1;
    uint32_t j = hash & mask;
    for (uint32_t probes = 0; probes < INTERN_MAX_PROBES; probes++, j = (j + 1) & mask) {
        sv_intern_slot *slot = &doc->intern[j];
        if (!slot->str) {
            sv_value v = sv_str(doc, s, len);
            if (v.kind != SV_STRING) return v;
            slot->hash = hash;
            slot->len = (uint32_t)len;
            slot->str = v.as.str;
            doc->intern_count++;
            return v;
        }
        if (slot->hash == hash && slot->len == len && memcmp(slot->str, s, len) == 0) {
            return sv__core_str_value(slot->str, (uint32_t)len);
        }
    }
    return sv_str(doc, s, len);
}
