/* serval: the markers every public declaration carries.
 *
 * SV_API marks a function (or object) that libserval exports. The library is
 * built with hidden visibility, so anything without SV_API stays internal to
 * it, as zstd does with ZSTDLIB_API. A program that links the static library
 * sees the same declarations; SV_API then changes nothing.
 *
 * SV_NODISCARD marks a function whose sv_status result must be looked at:
 * ignoring a failure is a compiler warning.
 *
 * SV_DEPRECATED(msg) marks a name kept for one more release: using it is a
 * compiler warning that says what replaces it. */
#ifndef SERVAL_API_H
#define SERVAL_API_H

#if defined(_WIN32) && defined(SERVAL_SHARED_BUILD)
#define SV_API __declspec(dllexport)
#elif defined(_WIN32) && defined(SERVAL_SHARED)
#define SV_API __declspec(dllimport)
#elif defined(__GNUC__) || defined(__clang__)
#define SV_API __attribute__((visibility("default")))
#else
#define SV_API
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SV_NODISCARD __attribute__((warn_unused_result))
#else
#define SV_NODISCARD
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SV_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define SV_DEPRECATED(msg)
#endif

#endif
