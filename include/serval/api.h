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
 * Options structs are versioned, all of them the same way (sv_options,
 * sv_json_decode_opts, sv_godot_opts, sv_kingsisle_opts, sv_o3de_opts,
 * sv_kiwad_write_opts, sv_pickle_opts, ...). Each begins with
 * `uint32_t struct_size` and has an init function (sv_bson_opts_init, ...)
 * that clears the whole struct, sets every default and sets struct_size to
 * sizeof the struct as the caller's header declares it. So a caller
 * declares the struct, calls its init function, then sets the members it
 * wants; it never sets struct_size itself, and a struct filled only with
 * {0} or memset is not ready. Members are only ever appended, and the
 * library reads the caller's struct by struct_size:
 *   - the size this header declares: every member;
 *   - an older (smaller) size, from a program built against an older
 *     header: the members wholly inside it; each member added since, and a
 *     member the size stops in the middle of, keeps its default;
 *   - a newer (larger) size, from a program built against a newer header:
 *     the members this library knows; the bytes beyond them are never read;
 *   - 0, or a size short of the first member (a struct never given to its
 *     init function): the call fails with SV_ERR_USAGE, naming the struct;
 *   - a NULL options pointer: every default.
 *
 * SV_DEPRECATED marks a declaration kept for one more release under its old
 * name or shape: using it is a compiler warning naming the replacement. */
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
