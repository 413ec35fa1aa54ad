/* Schemas for the serval command: loading and merging schema files (the
 * --schema option, 'serval schema check'), with their errors reported. */
#ifndef SERVAL_CLI_SCHEMA_H
#define SERVAL_CLI_SCHEMA_H

#include <stddef.h>

#include "serval/schema.h"

/* Prints a schema error for file: "serval: FILE: schema: <what> at <pointer>: <message>"
 * (the byte offset only when the JSON itself did not parse). */
void cli_schema_report(const char *file, const sv_error *err);

/* Loads one type list of any kind serval knows into a finalised schema.
 * Returns 0, or the exit code after printing the error. */
int cli_schema_load_one(const char *path, sv_schema **out);

/* Loads every file and merges them into one finalised schema (*out). With
 * each (may be NULL) called for each file loaded, for a summary. Returns 0,
 * or the highest exit code after printing each error. */
int cli_schema_load_merged(const char *const *paths, size_t count, sv_schema **out,
                           void (*each)(const char *path, const sv_schema *s));

/* Counts for a summary line. */
size_t cli_schema_field_count(const sv_schema *s);

#endif
