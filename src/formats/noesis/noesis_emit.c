/* Encode with metadata: run the command stream over the tree and write the
 * data section (the mirror of noesis_interp.c). The commands are the source
 * of truth for the layout; the tree gives the values, field by field in
 * order, and each field's key must be the command's name, so a tree edited
 * out of step with its metadata fails here with the path of the field
 * instead of writing a file Noesis would misread. */
#include <string.h>

#include "formats/noesis/noesis_internal.h"
#include "formats/noesis/noesis_plan.h"

typedef struct emitter {
    const nsb_cmds *cs;
    sv_buf *out;
    bool big;
    const sv_value *objects; /* ARRAY of instance objects */
    const sv_value *items;   /* its items */
    uint32_t instance_count, next_instance;
    const uint32_t *components;     /* per instance: its component */
    const sv_value *const *classes; /* per component: its class name (NULL: none) */
    uint32_t max_nesting;
    sv_buf scratch;       /* UTF-16 strings */
    const char **matched; /* per name: a key text already found equal to it */
    sv_error *err;
    nsb_plans *plans;          /* bodies seen twice, replayed (noesis_plan.c); NULL: none */
    nsb_cmds_out *cmds_out;    /* the commands' file form (noesis_cmds_out.c); NULL: none */
    const nsb_plan *last_plan; /* the plan of the last instance's body; NULL: none */
} emitter;

static sv_status bad(emitter *em, sv_status st, const nsb_cmd *cmd, const char *what)
{
    return sv_error_set(em->err, st, NSB_FORMAT, 0, "%s (%s command at offset %llu)", what,
                        nsb_cmd_name(cmd->id), (unsigned long long)cmd->offset);
}

static void put16(emitter *em, uint16_t v)
{
    if (em->big)
        sv_put_u16be(em->out, v);
    else
        sv_put_u16le(em->out, v);
}
static void put32(emitter *em, uint32_t v)
{
    if (em->big)
        sv_put_u32be(em->out, v);
    else
        sv_put_u32le(em->out, v);
}
static void put64(emitter *em, uint64_t v)
{
    if (em->big)
        sv_put_u64be(em->out, v);
    else
        sv_put_u64le(em->out, v);
}

/* A Bool's byte: the one the file stored (0x7F in padding fields, say), or
 * 01 for a true stored wider than a byte (a Godot bool's u32). */
static inline uint8_t bool_byte(const sv_value *v)
{
    uint32_t b = sv_bool_stored(v);
    return b <= 0xFF ? (uint8_t)b : 1;
}

/* An integer of the tree as the command's type: any INT/UINT whose value fits. */
static bool int_fits(const sv_value *v, unsigned id, uint64_t *bits)
{
    bool is_signed = id == NSB_INT8 || id == NSB_INT16 || id == NSB_INT32 || id == NSB_INT64;
    unsigned width = (unsigned)nsb_value_min_size(id);
    if (v->kind == SV_UINT) {
        uint64_t max = width == 8 ? (is_signed ? (uint64_t)INT64_MAX : UINT64_MAX)
                                  : (UINT64_C(1) << (8 * width - (is_signed ? 1 : 0))) - 1;
        if (v->as.u > max) return false;
        *bits = v->as.u;
        return true;
    }
    if (v->kind != SV_INT) return false;
    int64_t i = v->as.i;
    if (is_signed) {
        int64_t lo = width == 8 ? INT64_MIN : -(INT64_C(1) << (8 * width - 1));
        int64_t hi = width == 8 ? INT64_MAX : (INT64_C(1) << (8 * width - 1)) - 1;
        if (i < lo || i > hi) return false;
    } else {
        if (i < 0 || (width < 8 && (uint64_t)i >> (8 * width))) return false;
    }
    *bits = (uint64_t)i;
    return true;
}

static sv_status emit_one(emitter *em, const nsb_cmd *cmd, const sv_value *v)
{
    uint64_t bits = 0;
    switch (cmd->id) {
    case NSB_REF:
        if (v->kind != SV_REF) return bad(em, SV_ERR_TYPE, cmd, "expected a reference");
        if (v->flags & SV_F_NULLREF) {
            put32(em, NSB_NULL_REF);
        } else if (v->as.u >= em->instance_count) {
            return bad(em, SV_ERR_RANGE, cmd, "the reference is not an instance index");
        } else {
            put32(em, (uint32_t)v->as.u);
        }
        return SV_OK;
    case NSB_INT8:
    case NSB_UINT8:
    case NSB_CHAR8:
        if (!int_fits(v, cmd->id == NSB_CHAR8 ? NSB_UINT8 : cmd->id, &bits)) break;
        sv__core_put_u8(em->out, (uint8_t)bits);
        return SV_OK;
    case NSB_INT16:
    case NSB_UINT16:
    case NSB_CHAR16:
        if (!int_fits(v, cmd->id == NSB_CHAR16 ? NSB_UINT16 : cmd->id, &bits)) break;
        put16(em, (uint16_t)bits);
        return SV_OK;
    case NSB_INT32:
    case NSB_UINT32:
        if (cmd->id == NSB_UINT32 && v->kind == SV_STRING && v->tag == SV_TAG_COLOR_ARGB) {
            uint32_t argb;
            if (!nsb_color_parse(v, &argb))
                return bad(em, SV_ERR_TYPE, cmd, "a colour must be \"#AARRGGBB\"");
            put32(em, argb);
            return SV_OK;
        }
        if (!int_fits(v, cmd->id, &bits)) break;
        put32(em, (uint32_t)bits);
        return SV_OK;
    case NSB_INT64:
    case NSB_UINT64:
        if (!int_fits(v, cmd->id, &bits)) break;
        put64(em, bits);
        return SV_OK;
    case NSB_BOOL:
        if (v->kind != SV_BOOL) break;
        sv__core_put_u8(em->out, bool_byte(v));
        return SV_OK;
    case NSB_FLOAT32: {
        if (v->kind != SV_FLOAT) break;
        float f = v->sub == 4 ? v->as.f32 : (float)v->as.f64;
        uint32_t u;
        memcpy(&u, &f, 4);
        put32(em, u);
        return SV_OK;
    }
    case NSB_FLOAT64: {
        if (v->kind != SV_FLOAT) break;
        double d = v->sub == 4 ? (double)v->as.f32 : v->as.f64;
        uint64_t u;
        memcpy(&u, &d, 8);
        put64(em, u);
        return SV_OK;
    }
    case NSB_STRING8:
    case NSB_BUFFER:
        if (v->kind != SV_STRING && v->kind != SV_BYTES) break;
        put32(em, v->len);
        sv_buf_append(em->out, v->as.bytes, v->len);
        return SV_OK;
    case NSB_STRING16:
        if (v->kind != SV_STRING) break;
        em->scratch.len = 0;
        if (!sv__core_wtf8_to_utf16(&em->scratch, v->as.bytes, v->len, em->big))
            return bad(em, SV_ERR_UTF8, cmd, "the string is not WTF-8");
        if (!sv_buf_ok(&em->scratch)) return bad(em, SV_ERR_NOMEM, cmd, "out of memory");
        put32(em, (uint32_t)(em->scratch.len / 2));
        sv_buf_append(em->out, em->scratch.data, em->scratch.len);
        return SV_OK;
    default: break;
    }
    return sv_error_set(em->err, SV_ERR_TYPE, NSB_FORMAT, 0,
                        "a %s value cannot be written as %s (command at byte %llu)%s",
                        sv_kind_name(sv_kind_of(v)), nsb_cmd_name(cmd->id),
                        (unsigned long long)cmd->offset,
                        (v->kind == SV_INT || v->kind == SV_UINT) ? ": out of range" : "");
}

static bool host_is_big(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 0;
}

static sv_status count_mismatch(emitter *em, const nsb_cmd *cmd, uint32_t have)
{
    return sv_error_set(em->err, SV_ERR_TYPE, NSB_FORMAT, 0,
                        "%s repeats %u times (command at byte %llu), the tree has %u values",
                        nsb_cmd_name(cmd->id), cmd->count, (unsigned long long)cmd->offset, have);
}

static sv_status emit_repeated(emitter *em, const nsb_cmd *cmd, const sv_value *v)
{
    sv_elem elem = nsb_packed_elem(cmd->id);
    if (v->kind == SV_PACKED && elem != SV_ELEM_NONE && v->sub == elem) {
        if (v->len != cmd->count) return count_mismatch(em, cmd, v->len);
        size_t size = sv_elem_size(elem);
        const uint8_t *src = sv_numbers(v);
        if (em->big == host_is_big()) {
            sv_buf_append(em->out, src, (size_t)v->len * size);
        } else if (sv_buf_ensure(em->out, (size_t)v->len * size) == SV_OK) {
            uint8_t *d = em->out->data + em->out->len;
            for (uint32_t i = 0; i < v->len; i++)
                for (size_t k = 0; k < size; k++) d[i * size + k] = src[i * size + size - 1 - k];
            em->out->len += (size_t)v->len * size;
        }
        return SV_OK;
    }
    if (v->kind != SV_ARRAY)
        return bad(em, SV_ERR_TYPE, cmd,
                   elem != SV_ELEM_NONE ? "a repeated number needs a packed array or an array"
                                        : "a repeated value needs an array");
    if (v->len != cmd->count) return count_mismatch(em, cmd, v->len);
    const sv_value *items = sv_array_items(v);
    for (uint32_t i = 0; i < v->len; i++) {
        sv_status st = emit_one(em, cmd, &items[i]);
        if (st != SV_OK) {
            sv_error_path_index(em->err, i);
            return st;
        }
    }
    return SV_OK;
}

static sv_status emit_body(emitter *em, const uint8_t **pos, const nsb_cmd *begin,
                           const sv_value *container, uint32_t nesting);

static sv_status emit_begin(emitter *em, const uint8_t **pos, const nsb_cmd *cmd, const sv_value *v,
                            uint32_t nesting)
{
    if (!cmd->repeat) {
        if (v->kind != SV_MAP) return bad(em, SV_ERR_TYPE, cmd, "a group or array must be a map");
        return emit_body(em, pos, cmd, v, nesting + 1);
    }
    if (v->kind != SV_ARRAY)
        return bad(em, SV_ERR_TYPE, cmd, "a repeated group or array must be an array of maps");
    if (v->len != cmd->count) return count_mismatch(em, cmd, v->len);
    if (cmd->count == 0) return nsb_cmd_skip_body(em->cs, pos, cmd, nesting + 1, em->max_nesting);
    const uint8_t *start = *pos;
    const sv_value *items = sv_array_items(v);
    for (uint32_t i = 0; i < v->len; i++) {
        *pos = start;
        sv_status st = items[i].kind == SV_MAP
                           ? emit_body(em, pos, cmd, &items[i], nesting + 1)
                           : bad(em, SV_ERR_TYPE, cmd, "a repeated group must hold maps");
        if (st != SV_OK) {
            sv_error_path_index(em->err, i);
            return st;
        }
    }
    return SV_OK;
}

/* A key the decoder gave a local-value group instead of the command's
 * name: the Name of the property its ref points at (noesis_view.c). */
static bool property_key(const emitter *em, const sv_value *key, const sv_value *val)
{
    /* an instance at a time (nsb_emit_instance): the interpreter's own
     * keys, never a property's */
    if (!em->objects) return false;
    const sv_value *name = nsb_local_value_name(val, em->objects);
    return name && key->kind == SV_STRING && key->len == name->len &&
           memcmp(key->as.str, name->as.str, name->len) == 0;
}

/* A repeated local-value group the decoder split into one field per
 * element, each keyed by its property: the count fields from field first. */
static sv_status emit_split(emitter *em, const uint8_t **pos, const nsb_cmd *cmd,
                            const sv_value *container, uint32_t first, uint32_t nesting)
{
    uint32_t left = container->len - first;
    if (cmd->count == 0 || left < cmd->count)
        return count_mismatch(em, cmd, cmd->count == 0 ? 1 : left);
    const uint8_t *start = *pos;
    for (uint32_t i = 0; i < cmd->count; i++) {
        const sv_value *key = sv_key_at(container, first + i);
        const sv_value *val = sv_val_at(container, first + i);
        *pos = start;
        sv_status st = val->kind == SV_MAP && property_key(em, key, val)
                           ? emit_body(em, pos, cmd, val, nesting + 1)
                           : bad(em, SV_ERR_TYPE, cmd,
                                 "a repeated group split into fields needs one field per "
                                 "repetition, each named after the property its ref points at");
        if (st != SV_OK) {
            if (key->kind == SV_STRING) sv_error_path_key(em->err, key->as.str, key->len);
            return st;
        }
    }
    return SV_OK;
}

/* A field's key is the command's name, or the name and "#k" for a name
 * used again in the same container (noesis_interp.c, field_key). */
static bool key_matches(const sv_value *key, const uint8_t *name, size_t n)
{
    if (key->kind != SV_STRING || key->len < n || (n && memcmp(key->as.bytes, name, n) != 0))
        return false;
    if (key->len == n) return true;
    const char *k = key->as.str + n;
    size_t rest = key->len - n;
    if (rest < 2 || k[0] != '#' || k[1] < '1' || k[1] > '9') return false;
    for (size_t i = 1; i < rest; i++)
        if (k[i] < '0' || k[i] > '9') return false;
    return true;
}

static sv_status emit_body(emitter *em, const uint8_t **pos, const nsb_cmd *begin,
                           const sv_value *container, uint32_t nesting)
{
    if (nesting > em->max_nesting)
        return bad(em, SV_ERR_DEPTH, begin, "Begin commands nested too deep");
    uint32_t field = 0;
    /* a local copy: the checks of sv_key_at / sv_val_at leave the loop */
    const sv_value c = *container;
    const nsb_cmds *const cs = em->cs;
    const bool fast = !em->big;
    const char **const matched = em->matched;
    for (;;) {
        nsb_cmd cmd;
        sv_status st = SV_OK;
        const uint8_t *p = *pos;
        /* The fast path: a number, ref or bool command without the repeat
         * bit, in a little-endian file, whose field has a key already found
         * equal to the command's name and a value of the kind the decoder
         * makes for it, written with one reserve. Anything else takes the
         * general way below (which also reports every error). */
        if (fast && field < c.len && cs->end - p >= 5 && p[0] >= NSB_REF && p[0] < NSB_CMD_COUNT) {
            const uint32_t desc = sv__core_load_u32le(p + 1);
            const sv_value *key = sv_key_at(&c, field);
            const sv_value *v = sv_val_at(&c, field);
            if (desc < cs->name_count && key->kind == SV_STRING && key->as.str == matched[desc] &&
                sv_buf_ensure(em->out, 8) == SV_OK) {
                uint8_t *o = em->out->data + em->out->len;
                size_t n = 0;
                switch (p[0]) {
                case NSB_REF:
                    if (v->kind != SV_REF) break;
                    if (v->flags & SV_F_NULLREF)
                        sv__core_store_u32le(o, NSB_NULL_REF), n = 4;
                    else if (v->as.u < em->instance_count)
                        sv__core_store_u32le(o, (uint32_t)v->as.u), n = 4;
                    break;
                case NSB_UINT32:
                    if (v->kind == SV_UINT && v->as.u <= UINT32_MAX)
                        sv__core_store_u32le(o, (uint32_t)v->as.u), n = 4;
                    break;
                case NSB_FLOAT32:
                    if (v->kind == SV_FLOAT && v->sub == 4) memcpy(o, &v->as.f32, 4), n = 4;
                    break;
                case NSB_UINT8:
                    if (v->kind == SV_UINT && v->as.u <= UINT8_MAX) o[0] = (uint8_t)v->as.u, n = 1;
                    break;
                case NSB_BOOL:
                    if (v->kind == SV_BOOL) o[0] = bool_byte(v), n = 1;
                    break;
                case NSB_INT64:
                    if (v->kind == SV_INT) sv__core_store_u64le(o, (uint64_t)v->as.i), n = 8;
                    break;
                default: break;
                }
                if (n) {
                    em->out->len += n;
                    field++;
                    *pos = p + 5;
                    continue;
                }
            }
        }
        if (p < cs->end && p[0] == nsb_end_of(begin->id)) {
            cmd.id = p[0];
            cmd.offset = (uint64_t)(p - cs->begin);
            *pos = p + 1;
        } else if (cs->end - p >= 5 && p[0] < NSB_CMD_COUNT && p[0] >= NSB_BEGIN_GROUP &&
                   p[0] != NSB_END_GROUP && p[0] != NSB_END_ARRAY &&
                   sv__core_load_u32le(p + 1) < cs->name_count) {
            /* the common case: a command with a desc and no repeat bit */
            cmd.id = p[0];
            cmd.repeat = false;
            cmd.count = 1;
            cmd.desc = sv__core_load_u32le(p + 1);
            cmd.offset = (uint64_t)(p - cs->begin);
            *pos = p + 5;
        } else {
            st = nsb_cmd_read(em->cs, pos, &cmd);
            if (st == SV_OK) st = nsb_cmd_check_place(em->cs, &cmd, begin);
            if (st != SV_OK) return st;
        }
        if (nsb_is_end(cmd.id)) {
            if (field == c.len) return SV_OK;
            const sv_value *k = sv_key_at(&c, field);
            sv_status fail = sv_error_set(
                em->err, SV_ERR_TYPE, NSB_FORMAT, 0,
                "the field is not described by the metadata (%s at byte %llu ends "
                "the %s)",
                nsb_cmd_name(cmd.id), (unsigned long long)cmd.offset, nsb_cmd_name(begin->id));
            if (k->kind == SV_STRING) sv_error_path_key(em->err, k->as.str, k->len);
            return fail;
        }
        const sv_value *nv = &em->cs->names[cmd.desc];
        const uint8_t *name = nv->as.bytes;
        size_t name_len = nv->len;
        if (field >= c.len) {
            sv_status fail = sv_error_set(em->err, SV_ERR_TYPE, NSB_FORMAT, 0,
                                          "missing field for %s (command at byte %llu)",
                                          nsb_cmd_name(cmd.id), (unsigned long long)cmd.offset);
            sv_error_path_key(em->err, (const char *)name, name_len);
            return fail;
        }
        const sv_value *key = sv_key_at(&c, field);
        const sv_value *val = sv_val_at(&c, field);
        field++;
        if (nsb_is_begin(cmd.id) && cmd.repeat && val->kind == SV_MAP) {
            /* one field per repetition (noesis_view.c) */
            st = emit_split(em, pos, &cmd, &c, field - 1, nesting);
            if (st != SV_OK) return st;
            field += cmd.count - 1;
            continue;
        }
        /* Keys of a decoded tree are interned: once one key text matched a
         * name, the same text matches without comparing. A property key is
         * checked every time and never remembered as the command's name. */
        if (key->kind == SV_STRING && key->as.str == em->matched[cmd.desc]) {
        } else if (key_matches(key, name, name_len)) {
            em->matched[cmd.desc] = key->as.str;
        } else if (nsb_is_begin(cmd.id) && property_key(em, key, val)) {
        } else {
            const sv_value *prop =
                nsb_is_begin(cmd.id) && em->objects ? nsb_local_value_name(val, em->objects) : NULL;
            sv_status fail =
                prop ? sv_error_set(em->err, SV_ERR_TYPE, NSB_FORMAT, 0,
                                    "the key must be \"%.*s\" (the metadata's name) or \"%.*s\" "
                                    "(the property the ref points at) (%s at byte %llu)",
                                    (int)(name_len > 60 ? 60 : name_len), (const char *)name,
                                    (int)(prop->len > 60 ? 60 : prop->len), prop->as.str,
                                    nsb_cmd_name(cmd.id), (unsigned long long)cmd.offset)
                     : sv_error_set(em->err, SV_ERR_TYPE, NSB_FORMAT, 0,
                                    "the metadata names this field \"%.*s\" (%s at byte %llu)",
                                    (int)(name_len > 60 ? 60 : name_len), (const char *)name,
                                    nsb_cmd_name(cmd.id), (unsigned long long)cmd.offset);
            if (key->kind == SV_STRING)
                sv_error_path_key(em->err, key->as.str, key->len);
            else
                sv_error_path_index(em->err, field - 1);
            return fail;
        }
        if (nsb_is_begin(cmd.id))
            st = emit_begin(em, pos, &cmd, val, nesting);
        else if (cmd.repeat)
            st = emit_repeated(em, &cmd, val);
        else
            st = emit_one(em, &cmd, val);
        if (st != SV_OK) {
            sv_error_path_key(em->err, key->as.str, key->len);
            return st;
        }
    }
}

/* Whether object obj (instance n) names its component's class, as the
 * decoder made it: the class name, or the component index when the name is
 * not UTF-8. */
static bool of_its_class(const emitter *em, uint32_t n, const sv_value *obj)
{
    const sv_value *cls = sv_object_class(obj); /* a compact object: its shape's */
    uint32_t comp = em->components[n];
    const sv_value *want = em->classes[comp];
    if (!cls || !want) return false;
    if (cls->kind == SV_UINT) return cls->as.u == comp;
    return cls->kind == SV_STRING && ((cls->as.str == want->as.str && cls->len == want->len) ||
                                      nsb_strlist_entry_equal(cls, want));
}

/* Instance n from the body after its BeginInstance cmd at *pos. */
static sv_status emit_instance(emitter *em, const uint8_t **pos, const nsb_cmd *cmd, uint32_t n,
                               const sv_value *obj)
{
    sv_status st = obj->kind != SV_OBJECT
                       ? bad(em, SV_ERR_TYPE, cmd, "an instance must be an object")
                   : !of_its_class(em, n, obj)
                       ? sv_error_set(em->err, SV_ERR_TYPE, NSB_FORMAT, 0,
                                      "instance %u must be an object of its component's class", n)
                       : SV_OK;
    nsb_plan *plan =
        st == SV_OK && em->plans ? nsb_plans_find(em->plans, *pos, em->components[n]) : NULL;
    if (st == SV_OK && em->plans && nsb_plans_nomem(em->plans))
        st = sv_error_set(em->err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
    else if (plan && nsb_plan_emit(plan, obj, em->instance_count, em->out))
        *pos += nsb_plan_body_len(plan);
    else if (st == SV_OK)
        st = emit_body(em, pos, cmd, obj, 1); /* also every error a plan declines on */
    if (st != SV_OK) {
        sv_error_path_index(em->err, n);
        return st;
    }
    em->next_instance = n + 1;
    em->last_plan = plan;
    /* an instance's bytes are final: a streamed output may take them */
    sv_buf_release(em->out);
    return SV_OK;
}

static sv_status emit_instances(emitter *em, const uint8_t **pos, const nsb_cmd *cmd)
{
    if (cmd->count == 0) return nsb_cmd_skip_body(em->cs, pos, cmd, 1, em->max_nesting);
    const uint8_t *start = *pos;
    const uint32_t first = em->next_instance;
    for (uint32_t i = 0; i < cmd->count; i++) {
        uint32_t n = em->next_instance;
        if (n >= em->instance_count)
            return bad(em, SV_ERR_TYPE, cmd,
                       "the commands describe more instances than the tree has");
        *pos = start;
        sv_status st = emit_instance(em, pos, cmd, n, &em->items[n]);
        if (st != SV_OK) return st;
    }
    if (em->cmds_out) {
        /* the commands before the body (its BeginInstance), then the body,
         * likely the same bytes as the last one its plan wrote, or else as
         * the last one of its component */
        const size_t at = (size_t)(start - em->cs->begin);
        nsb_cmds_out_upto(em->cmds_out, at);
        nsb_cmds_out_body(em->cmds_out,
                          em->last_plan ? (uintptr_t)em->last_plan : em->components[first], at,
                          (size_t)(*pos - em->cs->begin));
    }
    return SV_OK;
}

struct nsb_emitter {
    emitter em;
    sv_buf matched;
    sv_doc *plan_doc; /* the plans and their keys */
};

static sv_status emitter_open(struct nsb_emitter *e, const nsb_cmds *cs, const sv_value *objects,
                              uint32_t instance_count, const uint32_t *components,
                              const sv_value *const *classes, bool big, sv_buf *out, sv_error *err)
{
    emitter *em = &e->em;
    memset(em, 0, sizeof *em);
    em->cs = cs;
    em->out = out;
    em->big = big;
    em->objects = objects;
    em->items = objects ? sv_array_items(objects) : NULL;
    em->instance_count = instance_count;
    em->components = components;
    em->classes = classes;
    /* The tree bounds the recursion over maps; this bounds skipping the body
     * of a repeat of count 0, which has no tree under it. */
    em->max_nesting = 4096;
    em->err = err;
    sv_buf_init(&em->scratch, out->alloc);
    sv_buf_init(&e->matched, out->alloc);
    if (sv_buf_ensure(&e->matched, ((size_t)cs->name_count + 1) * sizeof(const char *)) == SV_OK)
        memset(e->matched.data, 0, ((size_t)cs->name_count + 1) * sizeof(const char *));
    em->matched = (const char **)(void *)e->matched.data;
    /* Plans write little-endian values from the host's: both must be
     * little-endian (every real file is). */
    e->plan_doc = NULL;
    bool plans_ok = true;
    if (!big && !host_is_big()) {
        e->plan_doc = sv_doc_new(out->alloc);
        em->plans =
            e->plan_doc ? nsb_plans_new(e->plan_doc, cs, em->max_nesting, false, UINT64_MAX) : NULL;
        plans_ok = em->plans != NULL;
    }
    return sv_buf_ok(&e->matched) && plans_ok
               ? SV_OK
               : sv_error_set(err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
}

/* The checks after the last instance; frees what emitter_open took. */
static sv_status emitter_close(struct nsb_emitter *e, sv_status st)
{
    emitter *em = &e->em;
    if (st == SV_OK && em->next_instance != em->instance_count)
        st = sv_error_set(em->err, SV_ERR_TYPE, NSB_FORMAT, 0,
                          "the commands describe %u instances, the tree has %u", em->next_instance,
                          em->instance_count);
    if (st == SV_OK && !sv_buf_ok(em->out))
        st = nsb_output_failed(em->out, em->err);
    else if (st == SV_OK && !sv_buf_ok(&em->scratch))
        st = sv_error_set(em->err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory writing the data");
    sv_buf_free(&em->scratch);
    sv_buf_free(&e->matched);
    nsb_plans_free(em->plans);
    sv_doc_free(e->plan_doc);
    return st;
}

sv_status nsb_emit_run(const nsb_cmds *cs, const sv_value *objects, uint32_t instance_count,
                       const uint32_t *components, const sv_value *const *classes, bool big,
                       nsb_cmds_out *cmds_out, sv_buf *out, sv_error *err)
{
    struct nsb_emitter e;
    sv_status st =
        emitter_open(&e, cs, objects, instance_count, components, classes, big, out, err);
    e.em.cmds_out = cmds_out;
    const uint8_t *pos = cs->begin;
    while (st == SV_OK && pos < cs->end) {
        nsb_cmd cmd;
        st = nsb_cmd_read_top(cs, &pos, &cmd);
        if (st == SV_OK) st = emit_instances(&e.em, &pos, &cmd);
    }
    return emitter_close(&e, st);
}

nsb_emitter *nsb_emitter_new(const nsb_cmds *cs, uint32_t instance_count,
                             const uint32_t *components, const sv_value *const *classes, bool big,
                             sv_buf *out, sv_error *err)
{
    const sv_alloc *a = out->alloc ? out->alloc : sv_alloc_libc();
    nsb_emitter *e = a->malloc(a->ctx, sizeof *e);
    if (!e) {
        (void)!sv_error_set(err, SV_ERR_NOMEM, NSB_FORMAT, 0, "out of memory");
        return NULL;
    }
    if (emitter_open(e, cs, NULL, instance_count, components, classes, big, out, err) != SV_OK) {
        (void)!emitter_close(e, SV_ERR_NOMEM);
        a->free(a->ctx, e, sizeof *e);
        return NULL;
    }
    return e;
}

sv_status nsb_emitter_instance(nsb_emitter *e, const uint8_t *body, const nsb_cmd *begin,
                               uint32_t n, const sv_value *obj)
{
    if (n != e->em.next_instance || n >= e->em.instance_count)
        return bad(&e->em, SV_ERR_TYPE, begin,
                   "the commands describe more instances than the tree has");
    return emit_instance(&e->em, &body, begin, n, obj);
}

sv_status nsb_emitter_end(nsb_emitter *e, sv_status st)
{
    const sv_alloc *a = e->em.out->alloc ? e->em.out->alloc : sv_alloc_libc();
    st = emitter_close(e, st);
    a->free(a->ctx, e, sizeof *e);
    return st;
}
