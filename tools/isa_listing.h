/* An AMDGCN kernel as llvm-objdump-19 -d lists it, reduced to what the
 * vmcnt check needs: per instruction its address, its class, a branch
 * target, a wait's vmcnt. */
#ifndef GAC_TOOLS_ISA_LISTING_H
#define GAC_TOOLS_ISA_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum isa_kind {
  ISA_OTHER,
  ISA_DMA,        /* an LDS-direct load: global_load_lds_*, global/buffer_load_* ... lds */
  ISA_LOAD,       /* global_load_*, buffer_load_*: counted in vmcnt, retired in order */
  ISA_VMEM,       /* other vector memory (stores, atomics, flat, scratch): counted, order not relied on */
  ISA_WAIT,       /* s_waitcnt with a vmcnt field */
  ISA_BARRIER,    /* s_barrier */
  ISA_LDS_READ,   /* ds_read*, ds_load*, ds_*_rtn_* */
  ISA_BRANCH,     /* s_branch */
  ISA_CBRANCH,    /* s_cbranch_* (both ways) */
  ISA_END,        /* s_endpgm */
  ISA_INDIRECT,   /* s_setpc_b64, s_swappc_b64, s_cbranch_join, ...: control flow not followed */
} isa_kind;

/* gac's markers (lowering/amdgcn/amdgcn_builtins.c): local symbols at the
 * instruction they mark, __gac_c<q>_<uid> (a commit to queue q, on an
 * s_nop 0), __gac_w<q>_<n>_<uid> (a wait for all but q's n newest groups,
 * on its s_waitcnt), __gac_wall_<uid> (a wait for all); q `x`: any;
 * __gac_pp_<uid>, __gac_ppx_<uid>: a ping-pong loop's entry and exit (the
 * halves of the work-group run a barrier apart between them). */
typedef enum isa_mark {
  ISA_MARK_NONE, ISA_MARK_COMMIT, ISA_MARK_WAIT, ISA_MARK_WAIT_ALL, ISA_MARK_PINGPONG, ISA_MARK_PINGPONG_END,
  ISA_MARK_BAD
} isa_mark;
#define ISA_ANY_QUEUE UINT32_MAX

typedef struct isa_inst {
  uint64_t addr;
  isa_kind kind;
  unsigned vmcnt;  /* ISA_WAIT: 64 where it has no vmcnt field (waits for no load) */
  uint64_t target; /* ISA_BRANCH, ISA_CBRANCH */
  isa_mark mark;   /* the marker at this address, if any */
  uint32_t queue, n;
  char text[80];   /* mnemonic and operands, for diagnostics */
  char label[48];  /* the marker's name */
} isa_inst;

typedef struct isa_kernel {
  char name[128];
  isa_inst *insts;
  size_t n, cap;
} isa_kernel;

/* Splits the listing into functions; *kernels is malloc'd (free with
 * isa_kernels_free). False on a line it cannot read, with a message. */
bool isa_listing_parse(const char *text, isa_kernel **kernels, size_t *n, char *err, size_t err_size);
void isa_kernels_free(isa_kernel *kernels, size_t n);
/* The index of the instruction at addr, or SIZE_MAX. */
size_t isa_find(const isa_kernel *k, uint64_t addr);

#endif
