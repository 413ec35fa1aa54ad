/* The version of the library as built (serval/version.h is generated). */
#include "serval/version.h"

const char *sv_version(void)
{
    return SERVAL_VERSION_STRING;
}

unsigned sv_version_number(void)
{
    return SERVAL_VERSION_NUMBER;
}
