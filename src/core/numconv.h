/* Number <-> text conversion for the typed JSON (internal).
 *
 * Formatting is shortest round-trip: the fewest significant digits that read
 * back to the same bits, the closest such digits to the exact value when
 * several qualify. Layout rules: docs/json.md, "Numbers".
 *
 * Parsing is correctly rounded (round-half-even), as strtod/strtof in the C
 * locale are, but without locale and much faster on common inputs. */
#ifndef SV_CORE_NUMCONV_H
#define SV_CORE_NUMCONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room that out must have for each sv_fmt_* function. The text itself is
 * shorter (at most 25 characters for a double, 24 for a float, 20 for an
 * integer) and not NUL-terminated; but sv__core_fmt_f64 and sv__core_fmt_f32 write with
 * fixed-size stores and may leave scratch bytes past the returned length,
 * anywhere up to out + SV_FMT_F64_MAX / SV_FMT_F32_MAX. So a caller must
 * provide that much room even where the text is short, and must not keep
 * data it needs in those bytes (writing numbers one after another is fine:
 * each call overwrites the previous one's scratch). sv__core_fmt_u64 and sv__core_fmt_i64
 * write exactly the text. */
#define SV_FMT_F64_MAX 32
#define SV_FMT_F32_MAX 24
#define SV_FMT_INT_MAX 21

/* Finite values only (the caller handles NaN and infinities). Return the
 * number of characters of the text at out (see the room needed above). */
size_t sv__core_fmt_f64(double d, char *out);
size_t sv__core_fmt_f32(float f, char *out);
/* n finite floats stored one after another (4 bytes each, native order) at
 * data, as sv__core_fmt_f32 writes them, separated by ',' (sep 1) or ", "
 * (sep 2). Room: n * (SV_FMT_F32_MAX + 2); the same scratch rule. */
size_t sv__core_fmt_f32s(const void *data, size_t n, size_t sep, char *out);
size_t sv__core_fmt_u64(uint64_t u, char *out);
size_t sv__core_fmt_i64(int64_t i, char *out);

/* Parses text[0..len) which must match the JSON number grammar
 * (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?) into the nearest double /
 * float. Overflow gives +-infinity and returns false; so does any text that is
 * not a JSON number. Underflow gives +-0 or a subnormal and returns true. */
bool sv__core_parse_f64(const char *text, size_t len, double *out);
bool sv__core_parse_f32(const char *text, size_t len, float *out);

/* The core of sv__core_parse_f64 for callers that scanned the digits themselves:
 * value = (negative ? -1 : 1) * mantissa * 10^exp10, where mantissa holds the
 * first 19 significant digits and truncated says that nonzero digits
 * followed them.
 *   - true: *out is the correctly rounded double; underflow gives +-0 or a
 *     subnormal, as in sv__core_parse_f64. mantissa 0 gives +-0 for any exp10.
 *   - false with *out = +-infinity: the value overflows (it rounds to a
 *     magnitude of 2^1024 or more, whatever the dropped digits); nothing more
 *     to do, the same result as sv__core_parse_f64's.
 *   - false with *out finite: undecided from these alone (the truncation
 *     matters, or a rare hard case); *out then holds no result, call
 *     sv__core_parse_f64 on the text. */
bool sv__core_decimal_to_f64(uint64_t mantissa, int64_t exp10, bool negative, bool truncated,
                             double *out);
#endif
