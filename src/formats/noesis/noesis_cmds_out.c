/* Encode: the file form of the metadata commands (spec §B.4), written while
 * the emitter runs over the same stream (noesis_emit.c).
 *
 * In a little-endian file the file form is the canonical stream with each
 * desc index replaced by its string's offset: the section is reserved, then
 * each piece is a copy of the canonical bytes, patched. Each instance carries its own
 * commands (spec §B.4) and most bodies repeat an earlier one: the emitter
 * hands over each instance's body with a key saying which earlier body it
 * likely equals (its plan, noesis_plan.c), and a body whose bytes equal the
 * last body converted under that key is copied from its converted bytes
 * instead of patched command by command. The bytes are compared, so the
 * copy is right whatever the keys.
 *
 * Anything unusual (an unknown op, a desc out of range) stops the patching
 * and marks the writer bad: the caller then converts the whole stream with
 * nsb_cmds_to_file, which reports the error. */
#include "formats/noesis/noesis_internal.h"

void nsb_cmds_out_begin(nsb_cmds_out *w, const uint8_t *src, size_t len, const uint32_t *offsets,
                        uint32_t name_count, sv_buf *out)
{
    memset(w, 0, sizeof *w);
    w->src = src;
    w->len = len;
    w->offsets = offsets;
    w->name_count = name_count;
    w->out = out;
    w->at = out->len;
    /* reserved, not written: each piece is copied once, as it is converted */
    if (sv_buf_ensure(out, len) == SV_OK) out->len += len;
}

/* Whether a command of this id names a metadata string. */
static inline bool names_a_string(unsigned id)
{
    return id != NSB_BEGIN_INSTANCE && id != NSB_END_INSTANCE && id != NSB_END_GROUP &&
           id != NSB_END_ARRAY;
}

/* Patches the commands from w->done up to upto (a command boundary). */
static void patch(nsb_cmds_out *w, size_t upto)
{
    if (w->bad || !sv_buf_ok(w->out)) return;
    uint8_t *dst = w->out->data + w->at;
    const uint8_t *src = w->src;
    size_t i = w->done;
    /* a command is at most 9 bytes: one that runs past upto is copied whole */
    memcpy(dst + i, src + i, (w->len - upto > 8 ? upto + 8 : w->len) - i);
    while (i < upto) {
        const uint8_t op = src[i];
        const unsigned id = op & 0x7Fu;
        const bool repeat = (op & NSB_REPEAT) != 0;
        if (id >= NSB_CMD_COUNT || (repeat && nsb_is_end(id))) break;
        size_t k = i + 1 + (repeat ? 4 : 0);
        if (!names_a_string(id)) {
            if (k > w->len) break;
            i = k;
            continue;
        }
        if (w->len - i < 5 + (repeat ? 4u : 0u)) break;
        const uint32_t idx = sv__core_load_u32le(src + k);
        if (idx >= w->name_count) break;
        sv__core_store_u32le(dst + k, w->offsets[idx]);
        i = k + 4;
    }
    if (i < upto) {
        w->bad = true;
        i = w->len;
    }
    w->done = i;
}

void nsb_cmds_out_patch(nsb_cmds_out *w, size_t upto)
{
    if (upto > w->done) patch(w, upto);
}

void nsb_cmds_out_body(nsb_cmds_out *w, uintptr_t key, size_t start, size_t end)
{
    if (end <= w->done) return; /* a repeated instance: its body again */
    if (start != w->done) {     /* not where the emitter left it: patched */
        patch(w, end);
        return;
    }
    /* keys are pointers (their low bits alike) or small integers */
    uint64_t h = (uint64_t)key * UINT64_C(0x9E3779B97F4A7C15);
    struct nsb_cmds_out_seen *seen = &w->seen[(h >> 32) % NSB_CMDS_OUT_SEEN];
    const size_t n = end - start;
    if (seen->len == n && seen->key == key && sv_buf_ok(w->out) &&
        memcmp(w->src + seen->start, w->src + start, n) == 0) {
        uint8_t *dst = w->out->data + w->at;
        memcpy(dst + start, dst + seen->start, n);
        w->done = end;
        seen->start = start; /* the nearest copy: the likeliest in the cache */
        return;
    }
    patch(w, end);
    if (!w->bad) *seen = (struct nsb_cmds_out_seen){key, start, n};
}

bool nsb_cmds_out_end(nsb_cmds_out *w)
{
    nsb_cmds_out_upto(w, w->len);
    return !w->bad && w->done == w->len;
}
