/* Reading a caller's versioned options struct: the one reader every public
 * options struct goes through.
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
 * the middle of a member leaves that member at its default. A struct_size
 * larger than this build's struct (a newer header) is read up to this
 * build's last member; the bytes beyond it are never read, whatever they
 * hold. A struct_size that does not reach the end of the first member (0: a
 * struct never given to its init function) is SV_ERR_USAGE. A member added
 * later can start inside an older struct's tail padding; the init functions
 * clear the whole struct first, so that padding reads as zero, and a new
 * member is designed so that zero means its default.
 *
 * Nothing else in the library reads struct_size or copies a caller's options
 * struct: a format declares its table with SV_OPTS_TABLE next to its init
 * function and reads the caller's struct with sv__core_opts_read. The tables are
 * listed in core/opts_tables.h, where a unit test checks each against the
 * struct's members. */
#ifndef SERVAL_CORE_OPTS_H
#define SERVAL_CORE_OPTS_H

#include <stddef.h>
#include <stdint.h>

#include "serval/error.h"
#include "serval/registry.h"

/* The end offset of a member: the struct_size that includes it. */
#define SV_OPTS_END(type, member) (offsetof(type, member) + sizeof(((type *)0)->member))

/* One options struct: its name (for messages), its size in this build, and
 * the end offset of each member after struct_size, in order. */
typedef struct sv__opts_table {
    const char *type_name;
    size_t size;
    const size_t *ends;
    size_t n_ends;
} sv__opts_table;

/* Defines the table `name` of struct `type`; the rest are its members'
 * SV_OPTS_END, every member after struct_size, in declaration order. */
#define SV_OPTS_TABLE(name, type, ...)                                                             \
    static const size_t name##_ends_[] = {__VA_ARGS__};                                            \
    const sv__opts_table name = {#type, sizeof(type), name##_ends_,                                \
                                 sizeof(name##_ends_) / sizeof(name##_ends_[0])}

/* Copies the members of *src that fit in src->struct_size into *dst, which
 * holds the defaults (its own struct_size stays as it was). src NULL: dst
 * keeps every default. A struct_size that does not reach the end of the
 * first member is SV_ERR_USAGE, reported in err under format's name. */
sv_status sv__core_opts_read(const sv__opts_table *t, void *dst, const void *src,
                             const char *format, sv_error *err);

/* A format's registry adapter starts here: *out gets the members of opts
 * (NULL: none) that fit in its struct_size, the rest stay at their defaults. */
sv_status sv__core_options_read(sv_options *out, const sv_options *opts, const char *format,
                                sv_error *err);

/* Whether opts carries the name/value members (sv_options_get's check). */
bool sv__core_options_usable(const sv_options *opts);

#endif
