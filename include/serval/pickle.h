/* serval: a value tree as a Python pickle stream (write only).
 *
 * sv_pickle_write writes a tree as a pickle (protocol 4) that Python's
 * pickle module turns straight into Python objects: the values of
 * bindings/python/ (the `serval` module), built in C at the speed of
 * pickle's own C unpickler, with no text format in between. Plain values
 * become plain Python values (None, bool, int, float, str, bytes, list,
 * dict); a value that Python would lose the engine type of becomes one of
 * the module's typed wrappers (serval.F32, serval.Vector3, serval.StringName,
 * ...), named in the stream as globals of the module. The mapping follows
 * the typed JSON one for one (docs/json.md); docs/formats/pickle.md lists it.
 *
 * There is no pickle reader: a pickle can run arbitrary code when loaded,
 * so serval never takes one as input. The Python module loads only the
 * bytes this function wrote, through an unpickler that resolves no global
 * but the module's own wrapper classes. */
#ifndef SERVAL_PICKLE_H
#define SERVAL_PICKLE_H

#include "api.h"
#include "buf.h"
#include "error.h"
#include "value.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Versioned: fill with sv_pickle_opts_init, then set members (api.h). */
typedef struct sv_pickle_opts {
    uint32_t struct_size; /* set by sv_pickle_opts_init */
    /* max_depth: containers nested (0: SV_MAX_DEPTH_LIMIT, the deepest tree
     * a decoder makes; more is taken as that). The other limits do not
     * apply: the writer allocates only the output and a scratch table the
     * size of the largest map. */
    sv_limits limits;
    /* The Python module that holds the wrapper classes (NULL: "serval"). */
    const char *module;
} sv_pickle_opts;

/* Defaults: the default limits, module "serval". */
SV_API void sv_pickle_opts_init(sv_pickle_opts *o);

/* Appends the pickle of v to out. opts may be NULL. Fails (SV_ERR_TYPE,
 * SV_ERR_RANGE, SV_ERR_UTF8, SV_ERR_DEPTH) on a tree that the typed JSON
 * writer refuses too, with the JSON Pointer path of the value; on failure
 * out is left as it was. */
SV_API SV_NODISCARD sv_status sv_pickle_write(const sv_value *v, const sv_pickle_opts *opts,
                                              sv_buf *out, sv_error *err);

/* Deprecated: sv_pickle_write with opts.module = module and the other
 * options at their defaults. Kept for callers of the first release. */
SV_API SV_NODISCARD sv_status sv_pickle_encode(const sv_value *v, const char *module, sv_buf *out,
                                               sv_error *err);

#ifdef __cplusplus
}
#endif
#endif
