/* What the files of --check-async share: the control-flow graph with its
 * dominators and loops, and small helpers (docs/CHECK_ASYNC.md). */
#ifndef GAC_CHECK_ASYNC_INTERNAL_H
#define GAC_CHECK_ASYNC_INTERNAL_H

#include "gac/builder.h"
#include "gac/cfg.h"
#include "gac/known.h"

/* A natural loop, with its counter when it has one: k = OpPhi(init from
 * outside, k + 1 from every latch), and its exit test when one is
 * recognised: a branch in the header or the single latch on
 * `x < n`, `x != n` (stay when true) or `x >= n`, `x == n` (leave when
 * true), x = k + exit_offset, n defined outside the loop. */
typedef struct ca_loop {
  unsigned header;
  bool *body;            /* [num_blocks] */
  unsigned body_size;
  uint32_t k, k_next, init;
  bool has_exit_test;
  unsigned exit_block, exit_target; /* the test's block and the successor that leaves */
  uint32_t bound, compare;          /* n and the comparison's opcode */
  int64_t exit_offset;
  /* init = umin(bound, cap) with the test k < bound in the header (a
   * pipelined body that starts at min(S, n)): the body runs only if
   * cap < bound, so there k = cap in the first iteration and k >= cap. */
  bool init_is_min;
  uint64_t cap;
} ca_loop;

typedef struct ca_cfg {
  const gac_module *m;
  gac_function *f;
  unsigned n;
  gac_block **blocks;   /* in function order */
  uint32_t *index_of;   /* label id -> block index + 1, [bound] */
  unsigned **succ, *num_succ;
  gac_cfg g;              /* its blocks are indexed by position in rpo */
  unsigned *rpo, num_rpo; /* reachable blocks, reverse post-order */
  unsigned *rpo_number;   /* block -> position in rpo, UINT32_MAX if unreachable */
  int *loop_of;           /* innermost loop, -1 if none */
  ca_loop *loops;
  unsigned num_loops;
  bool irreducible;       /* a cycle that is not a natural loop */
} ca_cfg;

void ca_cfg_build(ca_cfg *c, const gac_module *m, gac_function *f);

/* Warp-specialised functions (check_async_pipes.c): verdicts for the
 * accesses to the Pipes' buffers from the handshakes; marks those buffers
 * in pipe_var (by id). False if f is not warp-specialised. */
struct gac_check_async_options;
struct gac_check_async_counts;
bool ca_check_pipes(const gac_module *m, gac_function *f, const struct gac_check_async_options *opt, gac_diag *diag,
                    struct gac_check_async_counts *counts, uint8_t *pipe_var);
void ca_cfg_free(ca_cfg *c);
/* The block index of inst, or -1. */
int ca_block_of(const ca_cfg *c, const gac_inst *inst);
bool ca_dominates(const ca_cfg *c, unsigned a, unsigned b);
bool ca_in_loop(const ca_cfg *c, int loop, unsigned block);
/* The innermost loop holding loop l (its header in a larger body), or -1. */
int ca_parent_loop(const ca_cfg *g, int l);
/* True if id is defined by an instruction inside loop. */
bool ca_defined_in_loop(const ca_cfg *c, int loop, uint32_t id);
/* Blocks of a shortest path from a to b (at most max) through no block
 * avoid[] marks other than a and b (avoid may be NULL), their count; 0 if none. */
unsigned ca_path(const ca_cfg *c, unsigned a, unsigned b, const bool *avoid, unsigned *out, unsigned max);

/* The largest lower bound on n that the branches leading to `block` imply
 * (edges into blocks that have no other predecessor and dominate it), by
 * unsigned or by signed comparisons with constants; false if none. */
bool ca_guard_at_least(const ca_cfg *c, unsigned block, uint32_t n, bool is_signed, uint64_t *min);
/* A lower bound of loop counter id in `block`: its constant start, or cap
 * past the header of a loop whose start is umin(bound, cap). */
bool ca_counter_at_least(const ca_cfg *c, unsigned block, uint32_t id, uint64_t *min);


/* Unsigned value ranges (check_async_range.c). */
typedef struct ca_interval {
  uint64_t lo, hi;
} ca_interval;

typedef struct ca_ranges {
  const ca_cfg *c;
  unsigned block; /* where the values are used: its guards bound them */
  /* What the point knows of id from its paths' branches, if anything. */
  bool (*known)(void *user, uint32_t id, ca_interval *out);
  void *user;
  uint32_t local_size[3]; /* the kernel's fixed work-group size; 0: not fixed */
  int unbounded_local_id; /* set to dimension + 1 when a range met get_local_id without a fixed size */
  unsigned steps;         /* definitions followed so far */
} ca_ranges;

ca_interval ca_value_range(ca_ranges *r, uint32_t id);
ca_interval ca_value_range_at(ca_ranges *r, uint32_t id, unsigned depth);
/* off (bytes) moved by an access chain's indices from its `first` in-operand
 * on, into *type (updated to the element reached); false if not followed. */
bool ca_chain_offset(ca_ranges *r, const gac_inst *chain, unsigned first, uint32_t *type, ca_interval *off);
/* off moved by an OpPtrAccessChain's Element over elements of `type`. */
bool ca_element_offset(ca_ranges *r, uint32_t element, uint32_t type, ca_interval *off);
/* "%name" from OpName, else "%id". */
void ca_name(const gac_module *m, uint32_t id, char *buf, size_t size);

#endif
