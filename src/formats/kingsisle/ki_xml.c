/* XML object files (placeholder until the reader lands). */
#include "formats/kingsisle/ki_internal.h"

sv_status sv_kingsisle_xml_decode(sv_doc *doc, const uint8_t *data, size_t len,
                                  const sv_kingsisle_opts *opts, sv_value *out, sv_error *err)
{
    return sv_error_set(err, SV_ERR_UNSUPPORTED, "kingsisle-xml", 0, "not yet");
}

sv_status sv_kingsisle_xml_encode(const sv_value *v, const sv_kingsisle_opts *opts, sv_buf *out,
                                  sv_error *err)
{
    return sv_error_set(err, SV_ERR_UNSUPPORTED, "kingsisle-xml", 0, "not yet");
}
