/* The copies a wait on events (OpGroupWaitEvents) waits for: one analysis
 * that every target's waits ask (counted_waits.c).
 *
 * The model. OpenCL: a copy given a non-null event returns that same
 * event, so the copies chained onto one event form one group, and a wait
 * on any event of the chain waits for all of them, also for copies
 * chained on after the waited value was made (the chain is by identity,
 * not by order). So the analysis asks which event values may be the same
 * event, flow-insensitively, by union-find over ids:
 *  - events: a copy's result and its Event operand, an OpPhi, OpSelect,
 *    OpCopyObject or composite and its operands, a call's arguments and
 *    the callee's parameters, a returned value and the call's result, a
 *    load and every value stored where it loads from;
 *  - pointers that may address the same memory: access chains, casts,
 *    phis and selects of pointers and their operands, call arguments and
 *    parameters, the two sides of an OpCopyMemory.
 * A class is unknown where a value comes from where the analysis does not
 * look: a parameter of a function that no one calls, a call of a
 * declaration, a pointer made from an integer or loaded from memory, a
 * pointer stored to memory or passed to a declaration (anything may then
 * be stored through it). A wait on an unknown class may wait for any copy.
 *
 * A wait's events are the values stored to its list's memory; or only
 * the last one stored, where the wait is for one event and the last store
 * to that memory before the wait is in the wait's block and stores
 * exactly its list (nothing between may change it). */
#ifndef GAC_WAIT_COPIES_H
#define GAC_WAIT_COPIES_H

#include <stdbool.h>

#include "gac/module.h"

typedef struct gac_wait_copies gac_wait_copies;

/* The classes of m's event and pointer values, as m is now: analyse
 * before rewriting waits or copies. */
gac_wait_copies *gac_wait_copies_analyze(gac_module *m);
void gac_wait_copies_free(gac_wait_copies *a);

/* A question a target asks of one copy (OpGroupAsyncCopy or a copy of the
 * GroupAsyncCopies set): whether a wait for it needs more than a barrier. */
typedef bool (*gac_copy_predicate)(const gac_module *m, const gac_inst *copy, void *user);

/* Whether OpGroupWaitEvents `wait` may wait for a copy that `needs` says
 * yes for; true where its events are unknown (the safe answer). */
bool gac_wait_may_wait_for(const gac_wait_copies *a, const gac_inst *wait, gac_copy_predicate needs, void *user);

#endif
