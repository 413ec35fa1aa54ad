/* Godot PCK archives (internal): the open pack, shared by the reader and the
 * writer's repack. */
#ifndef SV_FORMATS_GODOT_PCK_INTERNAL_H
#define SV_FORMATS_GODOT_PCK_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/godot_pck.h"

#define PCK_FORMAT "godot-pck"

struct sv_godot_pck {
    const sv_alloc *alloc;
    const uint8_t *data;
    size_t len;
    sv_godot_pck_info info;
    bool have_key;
    uint8_t key[32];
    uint64_t dir_start; /* absolute offset of the directory's file count */
    uint64_t dir_end;   /* first byte after the directory (entries or block) */
    bool dir_encrypted;
    uint8_t dir_iv[16]; /* the encrypted directory's block IV */
    uint8_t *dir_plain; /* the decrypted entries (encrypted directory) */
    size_t dir_plain_cap;
    uint8_t dir_pad[16]; /* the directory block's padding after the entries */
    size_t dir_pad_len;
    char *names; /* every path, each NUL-terminated */
    size_t names_len;
    const uint8_t **fields; /* each entry's stored path field */
    sv_godot_pck_member *members;
    size_t count;
};

/* Whether name (after any "res://") is a safe relative path; *why says
 * what is wrong when it is not. */
bool gd_pck_name_ok(const char *name, size_t len, const char **why);

#endif
