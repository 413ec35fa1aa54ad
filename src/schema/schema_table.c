/* Schemas: the open-addressing hash table behind every lookup, and the
 * error helpers of the schema layer. */
#include <stdio.h>
#include <string.h>

#include "core/hash.h"
#include "schema/schema_internal.h"

uint64_t sv__schema_hash_str(const char *s, size_t len)
{
    return sv__core_hash_bytes(s, len);
}

uint64_t sv__schema_hash_u64(uint64_t v)
{
    return sv__core_hash_mix(v ^ 0x9e3779b97f4a7c15ull, 0xa0761d6478bd642full);
}

const void *sv__schema_tab_find(const sv__tab *t, uint64_t hash, sv__tab_eq eq, const void *key)
{
    if (!t->cap) return NULL;
    uint32_t mask = t->cap - 1;
    for (uint32_t j = (uint32_t)hash & mask;; j = (j + 1) & mask) {
        const sv__tab_slot *slot = &t->slots[j];
        if (!slot->item) return NULL;
        if (slot->hash == hash && eq(slot->item, key)) return slot->item;
    }
}

static bool tab_grow(sv__tab *t, const sv_alloc *a)
{
    uint32_t cap = t->cap ? t->cap * 2 : 64;
    if (cap < t->cap) return false;
    sv__tab_slot *slots = a->malloc(a->ctx, (size_t)cap * sizeof *slots);
    if (!slots) return false;
    memset(slots, 0, (size_t)cap * sizeof *slots);
    for (uint32_t i = 0; i < t->cap; i++) {
        sv__tab_slot s = t->slots[i];
        if (!s.item) continue;
        uint32_t j = (uint32_t)s.hash & (cap - 1);
        while (slots[j].item) j = (j + 1) & (cap - 1);
        slots[j] = s;
    }
    if (t->slots) a->free(a->ctx, t->slots, (size_t)t->cap * sizeof *t->slots);
    t->slots = slots;
    t->cap = cap;
    return true;
}

bool sv__schema_tab_put(sv__tab *t, const sv_alloc *a, uint64_t hash, const void *item)
{
    /* keep the load at or below one half: probe runs stay short */
    if ((t->count + 1) * 2 > t->cap && !tab_grow(t, a)) return false;
    uint32_t mask = t->cap - 1;
    uint32_t j = (uint32_t)hash & mask;
    while (t->slots[j].item) j = (j + 1) & mask;
    t->slots[j].hash = hash;
    t->slots[j].item = item;
    t->count++;
    return true;
}

void sv__schema_tab_free(sv__tab *t, const sv_alloc *a)
{
    if (t->slots) a->free(a->ctx, t->slots, (size_t)t->cap * sizeof *t->slots);
    memset(t, 0, sizeof *t);
}

sv_status sv__schema_fail(sv_error *err, sv_status st, const char *msg_fmt, ...)
{
    va_list ap;
    va_start(ap, msg_fmt);
    sv_status r = sv_error_vset(err, st, SV_SCHEMA_FORMAT, 0, -1, msg_fmt, ap);
    va_end(ap);
    return r;
}

void sv__schema_set_path(sv_error *err, const char *fmt, ...)
{
    if (!err) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->path, sizeof err->path, fmt, ap);
    va_end(ap);
}

void sv__schema_path_prefix(sv_error *err, const char *fmt, ...)
{
    if (!err) return;
    char head[SV_ERROR_PATH_MAX], old[SV_ERROR_PATH_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(head, sizeof head, fmt, ap);
    va_end(ap);
    memcpy(old, err->path, sizeof old);
    size_t h = strlen(head), o = strlen(old);
    if (h >= sizeof err->path) h = sizeof err->path - 1;
    if (o > sizeof err->path - 1 - h) o = sizeof err->path - 1 - h;
    memcpy(err->path, head, h);
    memcpy(err->path + h, old, o);
    err->path[h + o] = '\0';
}
