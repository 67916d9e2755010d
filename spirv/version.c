/* Which gac this is (gac/version.h). GAC_RELEASE and GAC_COMMIT come from
 * CMake, on this file alone, so that a new commit recompiles nothing else. */
#include "gac/version.h"

#ifndef GAC_RELEASE
#define GAC_RELEASE "unknown"
#endif
#ifndef GAC_COMMIT
#define GAC_COMMIT "unknown"
#endif

const char *gac_release(void) { return GAC_RELEASE; }

const char *gac_commit(void) { return GAC_COMMIT; }

const char *gac_version_text(void) { return GAC_RELEASE " (commit " GAC_COMMIT ")"; }
