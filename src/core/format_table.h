/* Lookup and detection over a table of formats.
 *
 * Core knows no format: it only searches a table it is handed. The table of
 * the formats built into the library is the registry's (format_module.h,
 * filled by the formats layer from the manifest); sv_formats,
 * sv_format_find and sv_format_detect (registry.c) search it through these. */
#ifndef SERVAL_CORE_FORMAT_TABLE_H
#define SERVAL_CORE_FORMAT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "serval/registry.h"

/* The entry called name (exact, case-sensitive), or NULL. */
const sv_format *sv__core_format_table_find(const sv_format *const *table, size_t count,
                                            const char *name);

/* The entry that fits the data best: by probe score, then by the file name's
 * extension (filename may be NULL); earlier entries win full ties. NULL when
 * nothing fits. */
const sv_format *sv__core_format_table_detect(const sv_format *const *table, size_t count,
                                              const uint8_t *data, size_t len,
                                              const char *filename);

/* Every entry that fits, best first (see sv_format_detect_all). */
size_t sv__core_format_table_detect_all(const sv_format *const *table, size_t count,
                                        const uint8_t *data, size_t len, const char *filename,
                                        sv_format_candidate *out, size_t max);

#endif
