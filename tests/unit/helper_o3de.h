/* Shared fixture of the O3DE JSON tests: a schema with the classes of
 * O3DE's own serialization tests (TestCases_Classes.h, TestCases_Pointers.h,
 * TestCases_Enum.cpp), and load/store helpers that compare O3DE's exact
 * text and result. */
#ifndef SERVAL_TEST_HELPER_O3DE_H
#define SERVAL_TEST_HELPER_O3DE_H

#include <stdbool.h>
#include <stddef.h>

#include "serval/serval.h"
#include "serval/o3de.h"

/* The schema of O3DE's test classes (finalised, shared by a test program). */
sv_schema *o3t_schema(void);
void o3t_schema_free(void);
const sv_type *o3t_type(const char *text);

/* Loads json_in into the default of type (or into start_json loaded first
 * with keep-defaults semantics), then stores the result with keep_defaults
 * and compares the compact text with expected_value. Checks the load's
 * outcome and processing. */
void o3t_load_case(const char *type, const char *start_json, const char *json_in,
                   const char *expected_value, sv_o3de_outcome outcome,
                   sv_o3de_processing processing, bool clear_containers);

/* Loads json_in into type's default, stores it stripped and kept, and
 * compares both texts (NULL skips one). */
void o3t_store_case(const char *type, const char *json_in, const char *stripped,
                    const char *kept);

/* Parses O3DE JSON text (comments allowed) into doc. */
sv_value o3t_json(sv_doc *doc, const char *text);
/* The compact RapidJSON text of a plain JSON tree (static buffer). */
const char *o3t_text(const sv_value *v);

#endif
