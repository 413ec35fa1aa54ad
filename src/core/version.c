/* The version of the library as built (serval/version.h is generated), how
 * it was built, and the versions of the libraries it uses. */
#include "serval/version.h"

#include "core/format_module.h"

#ifndef SERVAL_BUILD_TYPE
#define SERVAL_BUILD_TYPE "unknown build type"
#endif
/* The formats built, from the manifest (CMake passes the list). */
#ifndef SERVAL_BUILD_FORMATS
#define SERVAL_BUILD_FORMATS "json"
#endif

#if defined(__clang__)
#define COMPILER "clang " __clang_version__
#elif defined(__GNUC__)
#define COMPILER "gcc " __VERSION__
#else
#define COMPILER "an unknown compiler"
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
    return COMPILER ", " SERVAL_BUILD_TYPE ", formats " SERVAL_BUILD_FORMATS;
}

/* The libraries are the formats' business: the registry says whom to ask. */
size_t sv_dependency_versions(char *buf, size_t size)
{
    if (sv__builtin_registry.dependency_versions)
        return sv__builtin_registry.dependency_versions(buf, size);
    if (size) buf[0] = '\0';
    return 0;
}
