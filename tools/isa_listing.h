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

/* What an instruction does to the scalar facts that decide the uniform
 * branches of the structurizer's flow blocks (isa_vmcnt.c): SGPR pairs
 * set to 0, -1 or exec, exec saved and restored, and vcc computed from a
 * pair and exec. */
typedef enum isa_scalar {
  ISA_S_NONE,
  ISA_S_SET_ZERO,     /* s_mov_b64 s[a:a+1], 0 */
  ISA_S_SET_ONES,     /* s_mov_b64 s[a:a+1], -1 */
  ISA_S_COPY_EXEC,    /* s_mov_b64 s[a:a+1], exec */
  ISA_S_SAVE_EXEC,    /* s_and_saveexec_b64 s[a:a+1], x: the pair := exec, exec changed (an if's entry) */
  ISA_S_ELSE_EXEC,    /* s_andn2_saveexec_b64 / s_or_saveexec_b64 s[a:a+1], s[b:b+1] (sreg2 = b): an else */
  ISA_S_RESTORE_EXEC, /* s_or_b64 exec, exec, s[a:a+1] */
  ISA_S_SET_EXEC,     /* s_mov_b64 exec, s[a:a+1] */
  ISA_S_GROW,         /* s_or_b64 s[a:a+1], x, s[a:a+1] (either order): a loop's mask of lanes done */
  ISA_S_ELSE_MASK,    /* s_xor_b64 s[a:a+1], exec, s[a:a+1] (either order): an if's saved mask becomes
                         its else's lanes (maybe none) */
  ISA_S_EXEC_ANDN2,   /* s_andn2_b64 exec, exec, s[a:a+1]: the lanes done leave exec */
  ISA_S_VCC_AND,      /* s_and_b64 vcc, exec, s[a:a+1] */
  ISA_S_VCC_ANDN2,    /* s_andn2_b64 vcc, exec, s[a:a+1] */
} isa_scalar;

typedef enum isa_on { ISA_ON_OTHER, ISA_ON_VCCZ, ISA_ON_VCCNZ, ISA_ON_EXECZ, ISA_ON_EXECNZ } isa_on;

typedef struct isa_inst {
  uint64_t addr;
  isa_kind kind;
  unsigned vmcnt;  /* ISA_WAIT: 64 where it has no vmcnt field (waits for no load) */
  uint64_t target; /* ISA_BRANCH, ISA_CBRANCH */
  isa_mark mark;   /* the marker at this address, if any */
  uint32_t queue, n;
  isa_scalar sop;  /* and sreg: the pair's first SGPR (sreg2: a second pair's) */
  uint8_t sreg, sreg2;
  isa_on on;       /* ISA_CBRANCH: the condition, where the facts may decide it */
  bool writes_exec; /* other than as sop says */
  uint64_t names[2]; /* the SGPRs s0..s127 it names otherwise (vcc: s106, s107), as if it wrote them */
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
