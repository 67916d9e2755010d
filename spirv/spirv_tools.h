/* SPIRV-Tools' C API. libspirv.h defines `const uint32_t kDefaultMaxIdBound`
 * at file scope, which in C has external linkage and so is defined again by
 * every translation unit that includes it; making it weak lets them link. */
#ifndef GAC_SPIRV_TOOLS_H
#define GAC_SPIRV_TOOLS_H

#define kDefaultMaxIdBound __attribute__((weak)) kDefaultMaxIdBound
#include <spirv-tools/libspirv.h>
#undef kDefaultMaxIdBound

#endif
