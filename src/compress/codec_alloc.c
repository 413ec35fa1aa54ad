/* Size-prefixed blocks for the codec libraries (codec_alloc.h says why). */
#include "compress/codec_alloc.h"

#include <stdint.h>
#include <string.h>

const sv_alloc *sv__compress_codec_alloc_or_libc(const sv_alloc *a)
{
    return a ? a : sv_alloc_libc();
}

void *sv__compress_codec_malloc(const sv_alloc *a, size_t size)
{
    a = sv__compress_codec_alloc_or_libc(a);
    if (size > SIZE_MAX - SV_CODEC_HEADER) return NULL;
    size_t total = size + SV_CODEC_HEADER;
    unsigned char *p = a->malloc(a->ctx, total);
    if (!p) return NULL;
    memcpy(p, &total, sizeof total);
    return p + SV_CODEC_HEADER;
}

void sv__compress_codec_free(const sv_alloc *a, void *p)
{
    if (!p) return;
    a = sv__compress_codec_alloc_or_libc(a);
    unsigned char *block = (unsigned char *)p - SV_CODEC_HEADER;
    size_t total;
    memcpy(&total, block, sizeof total);
    a->free(a->ctx, block, total);
}
