/* The waits of the AMDGCN target (docs/AMDGCN.md), written for the counted
 * waits (counted_waits.c: the counts). What a wave can wait for is a
 * number of its memory instructions, not groups: `s_waitcnt vmcnt(X)`
 * leaves at most X of them in flight, and they complete in order. So each
 * commit weighs the LDS-direct loads the wave issued since the one before
 * (lower_amdgcn_dma_per_wave: a lower bound, 0 when unknown; a join keeps
 * the smaller), and X is the weight of the commits newer than q's (N+1)-th
 * plus the loads issued since the newest: at least the loads in flight
 * that may stay so. Other loads and stores in flight only make the wait
 * stricter. Commits become their marker (__gac_amdgcn_commit(q, K), K the
 * loads that do nothing an empty group is padded with: buffer loads
 * through a null descriptor, out of range, no memory access but counted in
 * vmcnt), waits __gac_amdgcn_wait_vm(X, q, N) and a barrier: the markers
 * say what the source waits for, and gac-isa-check checks X against the
 * machine code's loads. */
#include "amdgcn_lowering.h"

_Static_assert(GAC_AMDGCN_ANY == LOWER_WAIT_ANY, "a marker's ANY is the counted waits' ANY");

/* Ping-pong's calls first, so that the counts know them. */
static void begin(gac_lowering *L, bool *tighten) {
  if (amdgcn_state(L)->pingpong)
    gac_foreach_function(f, L->m) lower_amdgcn_pingpong(L, f, tighten);
}

/* A commit is its marker, and an empty group's padding. */
static void commit(gac_lowering *L, gac_builder *b, const lower_wait *w) {
  gac_module *m = L->m;
  uint32_t uint = gac_type_int(m, 32, 0), types[2] = {uint, uint};
  uint32_t args[2] = {gac_constant_int(m, uint, w->queue), gac_constant_int(m, uint, w->count)};
  lower_call(L, b, GAC_AMDGCN_COMMIT, 2, types, args);
}

/* s_waitcnt vmcnt(count) with the marker of what it waits for (queue, In
 * Flight n; GAC_AMDGCN_ANY: all), which gac-isa-check checks the count
 * against. */
static void wait(gac_lowering *L, gac_builder *b, uint32_t count, uint32_t queue, uint32_t n) {
  gac_module *m = L->m;
  /* vmcnt(63), the field's largest value, leaves in flight all a wave can
   * have, so it waits for nothing; where the groups newer than the one
   * waited for weigh 63 or more, 62 waits for one load more, not less */
  if (count > 62)
    count = 62;
  uint32_t uint = gac_type_int(m, 32, 0), types[3] = {uint, uint, uint};
  uint32_t args[3] = {gac_constant_int(m, uint, count)};
  if (n == GAC_AMDGCN_ANY) /* a runtime In Flight: the lowering waits for all */
    queue = GAC_AMDGCN_ANY;
  args[1] = gac_constant_int(m, uint, queue);
  args[2] = gac_constant_int(m, uint, n);
  lower_call(L, b, GAC_AMDGCN_WAIT_VM, 3, types, args);
}

static void wait_all(gac_lowering *L, gac_builder *b) { wait(L, b, 0, GAC_AMDGCN_ANY, GAC_AMDGCN_ANY); }

/* OpenCL's barrier through libclc also waits for vmcnt, which would drain
 * the loads left in flight on purpose. */
static void barrier(gac_lowering *L, gac_builder *b) { lower_call(L, b, GAC_AMDGCN_BARRIER, 0, NULL, NULL); }

const lower_wait_emitter lower_amdgcn_waits = {
    .issued = lower_amdgcn_dma_per_wave,
    .begin = begin,
    .commit = commit,
    .wait = wait,
    .wait_all = wait_all,
    .barrier = barrier,
};
