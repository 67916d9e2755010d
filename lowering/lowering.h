/* The lowering passes (registered in lowering/registry.c). */
#ifndef GAC_LOWERING_H
#define GAC_LOWERING_H

#include "gac/module.h"

bool gac_raise_async_copies(gac_module *m, const char *arg, gac_diag *diag);
bool gac_lower_async_copies(gac_module *m, const char *arg, gac_diag *diag);
bool gac_lower_async_queues(gac_module *m, const char *arg, gac_diag *diag);
bool gac_pipeline_loops(gac_module *m, const char *arg, gac_diag *diag);
/* lower_late.c: --lower-async-copies=opencl,strategy=late (after validation). */
bool gac_lower_late(gac_module *m, gac_diag *diag);

#endif
