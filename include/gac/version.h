/* Which gac this is: its release version and the commit it was built from. */
#ifndef GAC_VERSION_H
#define GAC_VERSION_H

/* "0.1.0": the project's version (CMakeLists.txt's project()). */
const char *gac_release(void);
/* The git commit the build was configured from, 12 hex digits, with
 * "-modified" when the work tree had changes then; GAC_COMMIT's value for a
 * build outside git (a source package); "unknown" when neither says. */
const char *gac_commit(void);
/* What a tool's --version prints after its name: "0.1.0 (commit 0123456789ab)". */
const char *gac_version_text(void);

#endif
