/* serval: a value tree as a Python pickle stream (write only).
 *
 * sv_pickle_encode writes a tree as a pickle (protocol 4) that Python's
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

/* Appends the pickle of v to out. module names the Python module that holds
 * the wrapper classes (NULL: "serval"). Fails (SV_ERR_TYPE, SV_ERR_RANGE,
 * SV_ERR_UTF8, SV_ERR_DEPTH) on a tree that the typed JSON writer refuses
 * too, with the JSON Pointer path of the value; on failure out is left as it
 * was. */
SV_API SV_NODISCARD sv_status sv_pickle_encode(const sv_value *v, const char *module, sv_buf *out,
                                              sv_error *err);

#ifdef __cplusplus
}
#endif
#endif
