/* sv_visit_decode: the format's streaming decoder, where it has one. */
#include <string.h>

#include "core/visit_decode.h"
#include "serval/config.h"

sv_status sv_visit_decode(const sv_format *f, const uint8_t *data, size_t len,
                          const sv_options *opts, const sv_visitor *vis)
{
    if (!f || !f->name || !vis || (!data && len)) return SV_ERR_UNSUPPORTED;
#if SERVAL_WITH_GODOT
    if (!strcmp(f->name, "godot4") || !strcmp(f->name, "godot3"))
        return sv__godot_visit(f->name[5] == '4', data, len, opts, vis);
#endif
#if SERVAL_WITH_BSON
    if (!strcmp(f->name, "bson")) return sv__bson_visit(data, len, opts, vis);
#endif
    (void)data;
    (void)len;
    (void)opts;
    return SV_ERR_UNSUPPORTED;
}
