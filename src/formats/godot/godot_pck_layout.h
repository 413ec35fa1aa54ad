/* The byte layout of a PCK archive to write (internal): one description
 * both the plain writer (sv_godot_pck_write) and repack fill, and one
 * function that writes it. Positions are relative to the pack's start. */
#ifndef SV_FORMATS_GODOT_PCK_LAYOUT_H
#define SV_FORMATS_GODOT_PCK_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "serval/buf.h"
#include "serval/error.h"

typedef struct pck_out_member {
    const uint8_t *field; /* the stored path field */
    uint32_t field_len;
    uint64_t size;
    uint8_t md5[16];
    uint32_t flags;
    const uint8_t *stored; /* the bytes in the pack */
    uint64_t stored_len;
    const uint8_t *gap; /* the padding after it: these bytes (NULL: zeros) */
    uint64_t gap_len;
    bool gap_kept; /* gap_len as given, else padding to the alignment */
    uint64_t pos;  /* computed */
} pck_out_member;

typedef struct pck_layout {
    uint32_t version, major, minor, patch, pack_flags;
    uint32_t reserved[16];
    uint64_t alignment; /* 0 or 1: none */
    /* the padding before the first member (after the directory in 1 and 2,
     * after the header in 3), kept or to the alignment */
    const uint8_t *head_gap;
    uint64_t head_gap_len;
    bool head_gap_kept;
    /* format 3: the padding between the last member and the directory */
    const uint8_t *dir_gap;
    uint64_t dir_gap_len;
    bool dir_gap_kept;
    uint64_t fb_delta; /* file_base is this far before the first member */
    bool fb_fixed;     /* no members: file_base is fb_value as it was */
    uint64_t fb_value;
    uint64_t base;       /* where the pack starts in the file written (appended to
                             an executable): added to format 1's offsets and to
                             an absolute format 2 file_base */
    const uint8_t *tail; /* bytes after everything */
    uint64_t tail_len;
    pck_out_member *m; /* in data order */
    size_t count;
    const size_t *dir_order; /* directory position k holds m[dir_order[k]] */
    /* an encrypted directory: the key, the IV and the block's padding */
    bool dir_encrypted;
    const uint8_t *key;
    uint8_t dir_iv[16];
    const uint8_t *dir_pad;
    size_t dir_pad_len;
} pck_layout;

sv_status gd_pck_emit(const pck_layout *l, sv_buf *out, sv_error *err);

#endif
