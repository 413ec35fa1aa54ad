/* The typed JSON reader: its key and form caches (json_read_internal.h says
 * what the slots hold).
 *
 * Both are small direct-mapped tables that live for one parse. The key cache
 * stands in front of the document's intern table (sv_str_intern) and also
 * predicts keys (json_read.c, map_key); the form cache remembers what a "$"
 * key names (sv__json_jr_form_lookup), for the general path and for the main
 * loop's check of a form's key (jr_form_key). */
#include <string.h>

#include "core/value_internal.h"
#include "formats/json/json_read_fast.h"
#include "formats/json/json_read_internal.h"

/* Key slots whose text can never be predicted: (w & 0) ^ 1 is never 0. */
static void key_unpredictable(jr_key_slot *slot)
{
    slot->p0 = 1;
    slot->m0 = 0;
    slot->p1 = 0;
    slot->m1 = 0;
}

void sv__json_jr_caches_init(jr *r)
{
    for (size_t i = 0; i < sizeof r->keys / sizeof r->keys[0]; i++) {
        jr_key_slot *slot = &r->keys[i];
        memset(slot, 0, sizeof *slot);
        key_unpredictable(slot);
    }
    sv__core_key_cache_init(r->key_cache, sizeof r->key_cache / sizeof r->key_cache[0]);
    memset(r->forms, 0, sizeof r->forms); /* no name's words are all zero */
}

/* The text `"key":` of the slot's key as two masked words: the key is
 * written as it is when it needs no escape, and a key that starts with '$'
 * is written '$$' or is a form (unless plain), so those are never predicted;
 * neither are keys longer than 13 bytes (the text must fit 16 bytes). */
static void key_patterns(const jr *r, jr_key_slot *slot, size_t n)
{
    const char *s = slot->s;
    key_unpredictable(slot);
    if (n > 13 || (n && s[0] == '$' && !r->plain)) return;
    char t[16] = {0};
    t[0] = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\' || c < 0x20) return;
        t[1 + i] = (char)c;
    }
    t[n + 1] = '"';
    t[n + 2] = ':';
    uint64_t w0, w1;
    memcpy(&w0, t, 8);
    memcpy(&w1, t + 8, 8);
    slot->m0 = jr_keep(~UINT64_C(0), n + 3);
    slot->m1 = n + 3 > 8 ? jr_keep(~UINT64_C(0), n + 3 - 8) : 0;
    slot->p0 = w0 & slot->m0;
    slot->p1 = w1 & slot->m1;
}

bool sv__json_jr_key(jr *r, const jr_str *k, const char *at, sv_value *out, unsigned *slot_out)
{
    const char *s = k->s;
    size_t n = k->len;
    *slot_out = 0;
    if (!k->escaped) {
        /* Keys read in place: whole loads when 16 bytes are there. */
        const uint8_t *u = (const uint8_t *)s;
        uint64_t a, b;
        sv__core_key_words(u, n, r->end - s >= 16, &a, &b);
        const uint32_t mask = (1u << JR_KEY_CACHE_BITS) - 1;
        uint32_t h = sv__core_key_hash(a, b, n, mask);
        const sv_key_slot *hit = sv__core_key_find(r->key_cache, h, a, b, u, n);
        if (hit) {
            unsigned i = 1 + (unsigned)(hit - r->key_cache); /* slot 0 is "none" */
            *slot_out = i;
            *out = jr_value(r->keys[i].hdr, jr_ptr_word(hit->str));
            return true;
        }
        sv_value v = sv_str_intern(r->doc, s, n);
        if (v.kind != SV_STRING) return sv__json_jr_fail_alloc(r, at);
        unsigned i =
            1 + (unsigned)(sv__core_key_put(r->key_cache, h, a, b, v.as.str, n) - r->key_cache);
        jr_key_slot *slot = &r->keys[i];
        *slot_out = i;
        slot->s = v.as.str;
        slot->hdr = jr_hdr(SV_STRING, 0, 0, 0, n);
        slot->next = slot->first = 0;
        key_patterns(r, slot, n);
        *out = v;
        return true;
    }
    sv_value v = sv_str_intern(r->doc, s, n);
    if (v.kind != SV_STRING) return sv__json_jr_fail_alloc(r, at);
    *out = v;
    return true;
}

bool sv__json_jr_intern(jr *r, const jr_str *k, const char *at, sv_value *out)
{
    unsigned slot;
    return sv__json_jr_key(r, k, at, out, &slot);
}

jr_form sv__json_jr_form_of(jr *r, const jr_str *key)
{
    const char *s = key->s + 1;
    size_t n = key->len - 1;
#if SV_SWAR
    /* An unescaped key is read in place: its closing quote follows it. */
    if (!key->escaped && n >= 1 && n <= 15 && r->end - s >= 16) {
        uint64_t w0, w1;
        jr_form_slot *slot = jr_form_slot_of(r, s, (unsigned)n, &w0, &w1);
        if (slot->w0 == w0 && slot->w1 == w1) return slot->form;
        jr_form f = sv__json_jr_form_lookup(s, n);
        slot->w0 = w0;
        slot->w1 = w1;
        slot->form = f;
        return f;
    }
#endif
    return sv__json_jr_form_lookup(s, n);
}
