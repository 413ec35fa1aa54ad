/* A key index for the objects the Settings Registry merge builds and
 * patches: the pair index of the first member of each name, so that
 * finding a member is constant time instead of a walk over the object (a
 * registry file with 20,000 members took 9 s walking, 0.1 s indexed).
 * rapidjson's FindMember finds the first member of a name; so does this.
 * The members of one name are chained in order, so that removing the first
 * (a merge patch's null) makes the next one first without a search. */
#include <stdlib.h>
#include <string.h>

#include "o3de_internal.h"
#include "o3de_setreg.h"

/* Objects smaller than this are walked: the index would cost more. */
#define SMALL 16

static uint64_t key_hash(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ULL;
    return h;
}

static bool same_key(const sv_value *key, const char *k, size_t n)
{
    size_t pn;
    const char *ps = sv_get_str(key, &pn);
    return pn == n && memcmp(ps, k, n) == 0;
}

/* Room in next and gone for the members of map (both grow together). */
static bool members_room(o3sr_index *x, const sv_value *map)
{
    if (map->len <= x->members) return true;
    size_t room = x->members ? x->members : 64;
    while (room < map->len) room *= 2;
    uint32_t *next = realloc(x->next, room * sizeof *next);
    if (!next) return false;
    x->next = next;
    uint8_t *gone = realloc(x->gone, room);
    if (!gone) return false;
    memset(gone + x->members, 0, room - x->members);
    x->gone = gone;
    x->members = room;
    return true;
}

/* The bucket of the name k: its own, or the empty one where it would go. */
static o3sr_bucket *bucket_of(o3sr_index *x, const sv_value *map, const char *k, size_t n)
{
    size_t mask = x->cap - 1;
    for (size_t s = (size_t)key_hash(k, n) & mask;; s = (s + 1) & mask) {
        o3sr_bucket *b = &x->slot[s];
        if (!b->key || same_key(sv_key_at(map, b->key - 1), k, n)) return b;
    }
}

/* Links member i in after the members of its name already in. */
static void put(o3sr_index *x, const sv_value *map, uint32_t i)
{
    size_t n;
    const char *k = sv_get_str(sv_key_at(map, i), &n);
    o3sr_bucket *b = bucket_of(x, map, k, n);
    x->next[i] = 0;
    if (!b->key) {
        b->key = i + 1;
        x->used++;
    }
    if (b->head)
        x->next[b->tail - 1] = i + 1;
    else
        b->head = i + 1;
    b->tail = i + 1;
}

static bool build(o3sr_index *x, const sv_value *map)
{
    size_t cap = 64;
    while (cap < 2 * (size_t)map->len + 16) cap *= 2;
    free(x->slot);
    x->slot = calloc(cap, sizeof *x->slot);
    x->cap = x->slot ? cap : 0;
    x->used = 0;
    x->stale = false;
    if (!x->slot || !members_room(x, map)) return false;
    for (uint32_t i = 0; i < map->len; i++)
        if (!x->gone[i]) put(x, map, i);
    return true;
}

sv_value *o3sr_index_get(o3sr_index *x, sv_value *map, const char *k, size_t n, bool *nomem)
{
    if (sv_kind_of(map) != SV_MAP) return NULL;
    if (map->len < SMALL && !x->slot) return sv_map_get(map, k, n);
    if ((!x->slot || x->stale || 2 * (size_t)map->len + 16 > x->cap) && !build(x, map)) {
        *nomem = true;
        return NULL;
    }
    const o3sr_bucket *b = bucket_of(x, map, k, n);
    return b->head ? sv_val_at(map, b->head - 1) : NULL;
}

void o3sr_index_added(o3sr_index *x, const sv_value *map)
{
    if (!x->slot) return;
    if (!members_room(x, map)) {
        x->stale = true; /* the next lookup rebuilds, or reports the memory */
        return;
    }
    if (x->stale) return;
    if (2 * (size_t)map->len + 16 > x->cap) {
        x->stale = true; /* rebuilt larger on the next lookup */
        return;
    }
    put(x, map, map->len - 1);
}

bool o3sr_index_remove_first(o3sr_index *x, sv_value *map, const char *k, size_t n)
{
    if (!x->slot) { /* a small object, walked: remove at once */
        const sv_value *v = sv_map_get(map, k, n);
        if (v) (void)o3_map_remove_at(map, o3_field_index(map, v));
        return true;
    }
    bool nomem = false;
    if (!o3sr_index_get(x, map, k, n, &nomem)) return !nomem; /* (brings the index up to date) */
    o3sr_bucket *b = bucket_of(x, map, k, n);
    uint32_t i = b->head - 1;
    x->gone[i] = 1;
    x->any_gone = true;
    b->head = x->next[i];
    if (!b->head) b->tail = 0;
    return true;
}

void o3sr_index_compact(o3sr_index *x, sv_value *map)
{
    if (!x->any_gone) return;
    sv_pair *pairs = sv_kind_of(map) == SV_MAP ? sv_pairs(map) : NULL;
    if (!pairs) return; /* (a MAP of a JSON tree always holds its pairs) */
    uint32_t kept = 0;
    for (uint32_t i = 0; i < map->len; i++)
        if (!x->gone[i]) pairs[kept++] = pairs[i];
    map->len = kept;
    memset(x->gone, 0, x->members);
    x->any_gone = false;
    x->stale = true;
}

void o3sr_index_free(o3sr_index *x)
{
    free(x->slot);
    free(x->next);
    free(x->gone);
    memset(x, 0, sizeof *x);
}
