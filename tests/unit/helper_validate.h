/* Test helpers shared by test_validate.c and test_resonite_validate.c: a
 * format's check without a tree (sv_format.validate) against its decoder. */
#ifndef SERVAL_TEST_HELPER_VALIDATE_H
#define SERVAL_TEST_HELPER_VALIDATE_H

#include <stddef.h>
#include <stdint.h>

#include "serval/serval.h"

/* Decodes and checks an exact-size copy of data (so ASan sees any
 * overread): both must accept it, or both refuse it with the same status,
 * format, byte and bit offset, path and message; fails the test otherwise.
 * Counts the input in *accepted or *refused. what names it in a failure. */
void validate_same(const sv_format *f, const uint8_t *data, size_t len, const sv_options *o,
                   const char *what, size_t *accepted, size_t *refused);

/* The options each format is tried with: none, and for Resonite the
 * second thread too. Returns how many of sets[] it filled. */
size_t validate_option_sets(const sv_format *f, sv_options sets[2]);

#endif
