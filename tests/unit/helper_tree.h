/* A document shared by the tests of one program, and builders that make
 * trees in it in one expression: tree_arr(2, sv_int(1), sv_int(2)). */
#ifndef SV_TEST_HELPER_TREE_H
#define SV_TEST_HELPER_TREE_H
#include "serval/serval.h"

/* Made by test_doc_setup, freed by test_doc_teardown (cmocka group fixtures). */
extern sv_doc *test_doc;
int test_doc_setup(void **state);
int test_doc_teardown(void **state);

/* An array of n sv_value items. */
sv_value tree_arr(int n, ...);
/* A map of n (sv_value key, sv_value value) pairs. */
sv_value tree_map(int n, ...);
/* An object of class cls with n (const char *name, sv_value value) fields. */
sv_value tree_obj(sv_value cls, int n, ...);

#endif
