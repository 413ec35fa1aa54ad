/* The member table of every public options struct (core/opts.h), one per
 * struct, each defined with SV_OPTS_TABLE next to the struct's init
 * function. Listed here so that one unit test can check every table against
 * its struct's members; a format left out of the build leaves its tables
 * undefined, and nothing refers to them. */
#ifndef SERVAL_CORE_OPTS_TABLES_H
#define SERVAL_CORE_OPTS_TABLES_H

#include "core/opts.h"

extern const sv__opts_table sv__opts_options;         /* sv_options (registry.h) */
extern const sv__opts_table sv__opts_json_decode;     /* sv_json_decode_opts */
extern const sv__opts_table sv__opts_json_encode;     /* sv_json_encode_opts */
extern const sv__opts_table sv__opts_convert;         /* sv_convert_opts */
extern const sv__opts_table sv__opts_godot;           /* sv_godot_opts */
extern const sv__opts_table sv__opts_godot_pck_write; /* sv_godot_pck_write_opts */
extern const sv__opts_table sv__opts_bson;            /* sv_bson_opts */
extern const sv__opts_table sv__opts_resonite;        /* sv_resonite_opts */
extern const sv__opts_table sv__opts_noesis;          /* sv_noesis_opts */
extern const sv__opts_table sv__opts_kingsisle;       /* sv_kingsisle_opts (binary and XML) */
extern const sv__opts_table sv__opts_kiwad_write;     /* sv_kiwad_write_opts */
extern const sv__opts_table sv__opts_o3de;            /* sv_o3de_opts */
extern const sv__opts_table sv__opts_o3de_import;     /* sv_o3de_import_opts */
extern const sv__opts_table sv__opts_pickle;          /* sv_pickle_opts */

#endif
