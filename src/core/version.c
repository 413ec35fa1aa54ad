/* The version of the library as built (serval/version.h is generated), how
 * it was built, and the versions of the libraries it uses. */
#include "serval/version.h"

#include "serval/config.h"
#if SERVAL_WITH_RESONITE || SERVAL_WITH_KINGSISLE
#include "compress/compress.h"
#endif

#ifndef SERVAL_BUILD_TYPE
#define SERVAL_BUILD_TYPE "unknown build type"
#endif

#if defined(__clang__)
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "an unknown compiler"
#endif

#if SERVAL_WITH_GODOT
#define FMT_GODOT " godot"
#else
#define FMT_GODOT ""
#endif
#if SERVAL_WITH_BSON
#define FMT_BSON " bson"
#else
#define FMT_BSON ""
#endif
#if SERVAL_WITH_RESONITE
#define FMT_RESONITE " resonite"
#else
#define FMT_RESONITE ""
#endif
#if SERVAL_WITH_NOESIS
#define FMT_NOESIS " noesis"
#else
#define FMT_NOESIS ""
#endif
#if SERVAL_WITH_KINGSISLE
#define FMT_KINGSISLE " kingsisle kingsisle-xml"
#else
#define FMT_KINGSISLE ""
#endif
#if SERVAL_WITH_O3DE
#define FMT_O3DE " o3de"
#else
#define FMT_O3DE ""
#endif

const char *sv_version(void)
{
    return SERVAL_VERSION_STRING;
}

unsigned sv_version_number(void)
{
    return SERVAL_VERSION_NUMBER;
}

const char *sv_build_info(void)
{
    return COMPILER ", " SERVAL_BUILD_TYPE ", formats json" FMT_GODOT FMT_BSON FMT_RESONITE
        FMT_NOESIS FMT_KINGSISLE FMT_O3DE;
}

size_t sv_dependency_versions(char *buf, size_t size)
{
#if SERVAL_WITH_RESONITE || SERVAL_WITH_KINGSISLE
    return sv__compress_versions(buf, size);
#else
    if (size) buf[0] = '\0';
    return 0;
#endif
}
