/* The versions of the compression and XML libraries the library runs with,
 * as each reports its own at run time (not the headers' version): those of
 * the formats built (Resonite: Brotli, LZMA, LZ4, zlib; KingsIsle: zlib,
 * expat; Godot's compressed resources: zlib, and Brotli when built with
 * libbrotli). */
#include <stdio.h>
#include <zlib.h>

#include "compress/compress.h"
#include "serval/config.h"

#if SERVAL_HAVE_BROTLI
#include <brotli/decode.h>
#endif
#if SERVAL_WITH_RESONITE
#include <lz4.h>
#include <lzma.h>
#endif
#if SERVAL_WITH_KINGSISLE
#include <expat.h>
#endif

size_t sv__compress_versions(char *buf, size_t size)
{
    size_t n = 0;
#define APPEND(...)                                                                                \
    do {                                                                                           \
        int k = snprintf(n < size ? buf + n : NULL, n < size ? size - n : 0, __VA_ARGS__);         \
        if (k > 0) n += (size_t)k;                                                                 \
    } while (0)
#if SERVAL_HAVE_BROTLI
    uint32_t b = BrotliDecoderVersion(); /* 0xMMMmmmPPP: major<<24 | minor<<12 | patch */
    APPEND("brotli %u.%u.%u, ", b >> 24, (b >> 12) & 0xFFF, b & 0xFFF);
#endif
#if SERVAL_WITH_RESONITE
    APPEND("liblzma %s, lz4 %s, ", lzma_version_string(), LZ4_versionString());
#endif
#if SERVAL_WITH_KINGSISLE
    XML_Expat_Version e = XML_ExpatVersionInfo();
    APPEND("expat %d.%d.%d, ", e.major, e.minor, e.micro);
#endif
    APPEND("zlib %s", zlibVersion());
#undef APPEND
    return n;
}
