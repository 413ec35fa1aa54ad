/* The versions of the compression and archive libraries the library runs
 * with, as each reports its own at run time (not the headers' version). */
#include <brotli/decode.h>
#include <lz4.h>
#include <lzma.h>
#include <stdio.h>
#include <zip.h>

#include "compress/compress.h"

size_t sv__compress_versions(char *buf, size_t size)
{
    uint32_t b = BrotliDecoderVersion(); /* 0xMMMmmmPPP: major<<24 | minor<<12 | patch */
    int n = snprintf(buf, size, "brotli %u.%u.%u, liblzma %s, lz4 %s, libzip %s", b >> 24,
                     (b >> 12) & 0xFFF, b & 0xFFF, lzma_version_string(), LZ4_versionString(),
                     zip_libzip_version());
    return n < 0 ? 0 : (size_t)n;
}
