/* Reading a caller's versioned options struct.
 *
 * Every public options struct begins with `uint32_t struct_size`, which its
 * sv_<x>_opts_init sets to sizeof the struct as the caller's header declared
 * it. A program built against an older header passes a shorter struct; one
 * built against a newer header passes a longer one. The library copies the
 * members that lie wholly inside struct_size over its defaults and ignores
 * the rest, so members are only ever appended, never moved or removed.
 *
 * Members are copied whole, from a table of their end offsets (SV_OPTS_END),
 * never as a raw prefix of struct_size bytes: a struct_size that stops in
 * the middle of a member leaves that member at its default. A member added
 * later can start inside an older struct's tail padding; the init functions
 * clear the whole struct first, so that padding reads as zero, and a new
 * member is designed so that zero means its default. */
#ifndef SERVAL_CORE_OPTS_H
#define SERVAL_CORE_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "serval/error.h"
#include "serval/registry.h"

/* The end offset of a member: the struct_size that includes it. */
#define SV_OPTS_END(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

/* Copies the members of *src that fit in src->struct_size into *dst, which
 * holds the defaults (its own struct_size stays sizeof the struct). ends
 * lists each member's SV_OPTS_END after struct_size, in order. src NULL:
 * dst keeps every default. A struct_size that does not reach the end of the
 * first member (0, say: a struct not made by its init function) is
 * SV_ERR_USAGE, reported in err under format's name. */
sv_status sv__opts_read(void *dst, const void *src, const size_t *ends, size_t n_ends,
                        const char *type_name, const char *format, sv_error *err);

#define SV_OPTS_READ(dst, src, ends, type_name, format, err)                                       \
    sv__opts_read((dst), (src), (ends), sizeof(ends) / sizeof((ends)[0]), (type_name), (format),   \
                  (err))

/* A format's registry adapter starts here: *out gets the members of opts
 * (NULL: none) that fit in its struct_size, the rest stay at their defaults. */
sv_status sv__options_read(sv_options *out, const sv_options *opts, const char *format,
                           sv_error *err);

/* Whether opts carries the name/value members (sv_options_get's check). */
bool sv__options_usable(const sv_options *opts);

#endif
