/* What the extension's own readers of raw bytes (native_godot.c,
 * native_bson.c) share: little-endian loads, and map keys cached by their
 * bytes as interned str.
 *
 * The input spells each key anew in every map (a Godot Dictionary, a BSON
 * document), so the tree converter's cache by address would never hit.
 * Maps of one array or collection mostly spell the same keys in the same
 * order: the slot that held the key at a place last time is tried first,
 * without the hash; then the two ways of the key's pair of slots, so that
 * two keys sharing a pair ("name" and "tags" do in the bench) do not push
 * each other out at every map. Only keys of up to NV_KEY_MAX bytes are
 * cached, as three zero-padded words. Static inline: this is each
 * reader's hottest path, taken once per key. */
#ifndef SERVAL_PY_NATIVE_KEYS_H
#define SERVAL_PY_NATIVE_KEYS_H

#include "native.h"

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define NV_LITTLE_ENDIAN 1
#else
#define NV_LITTLE_ENDIAN 0
#endif

static inline uint32_t nv_load32le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t nv_load64le(const uint8_t *p)
{
    return (uint64_t)nv_load32le(p) | (uint64_t)nv_load32le(p + 4) << 32;
}

#define NV_KEY_SLOTS 256
#define NV_KEY_MAX 24
#define NV_KEY_PLACES 32

typedef struct nv_key_slot {
    uint64_t w[3]; /* the text, zero-padded */
    uint32_t len;
    PyObject *obj; /* interned str (strong), or NULL */
} nv_key_slot;

typedef struct nv_key_cache {
    nv_key_slot keys[NV_KEY_SLOTS];
    nv_key_slot *by_place[NV_KEY_PLACES]; /* the slot of the key last met at each place */
} nv_key_cache;

static inline int nv_key_same(const nv_key_slot *k, uint32_t n, const uint64_t w[3])
{
    return k->obj && k->len == n && k->w[0] == w[0] && k->w[1] == w[1] && k->w[2] == w[2];
}

/* The cached str of the key of n <= NV_KEY_MAX bytes spelled by w, met at
 * place at of its map, with a new reference; or NULL (no exception) and
 * *fill the slot that nv_key_cache_put then fills with the str made. */
static inline PyObject *nv_key_cache_get(nv_key_cache *c, const uint64_t w[3], uint32_t n,
                                         uint32_t at, nv_key_slot **fill)
{
    nv_key_slot **seen = at < NV_KEY_PLACES ? &c->by_place[at] : NULL;
    if (seen && *seen && nv_key_same(*seen, n, w)) {
        Py_INCREF((*seen)->obj);
        return (*seen)->obj;
    }
    uint64_t h = (w[0] ^ (w[1] * UINT64_C(0xC2B2AE3D27D4EB4F)) ^ (w[2] * 31) ^ n) *
                 UINT64_C(0x9E3779B97F4A7C15);
    nv_key_slot *pair = &c->keys[(size_t)(h >> 56) & (NV_KEY_SLOTS - 2)];
    for (nv_key_slot *k = pair; k < pair + 2; k++)
        if (nv_key_same(k, n, w)) {
            if (seen) *seen = k;
            Py_INCREF(k->obj);
            return k->obj;
        }
    /* an empty way, else the second: the first keeps the older key */
    nv_key_slot *k = pair->obj ? pair + 1 : pair;
    if (seen) *seen = k;
    *fill = k;
    return NULL;
}

/* Keeps o (a reference of its own) in the slot nv_key_cache_get gave. */
static inline void nv_key_cache_put(nv_key_slot *k, const uint64_t w[3], uint32_t n, PyObject *o)
{
    Py_XDECREF(k->obj);
    memcpy(k->w, w, sizeof k->w);
    k->len = n;
    k->obj = o;
    Py_INCREF(o);
}

/* Drops the cache's references (the cache itself is its owner's). */
static inline void nv_key_cache_clear(nv_key_cache *c)
{
    for (size_t i = 0; i < NV_KEY_SLOTS; i++) Py_CLEAR(c->keys[i].obj);
}

#endif
