/* UTF-8 validation (RFC 3629): no overlong forms, no surrogates, nothing
 * above U+10FFFF. For the binary formats whose strings must be UTF-8 (BSON,
 * Noesis); the JSON reader has its own, fused with its string scanning, and
 * Godot its own, because Godot 3 accepts what RFC 3629 refuses. */
#ifndef SV_CORE_UTF8_H
#define SV_CORE_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

bool sv__core_utf8_valid(const uint8_t *s, size_t n);

#endif
