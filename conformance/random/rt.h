/* The random differential tester's test case: what the generator (gen.c)
 * makes from (seed, index), the emitter (emit.c) writes as OpenCL C and the
 * host model (model.c) executes to get the expected bytes. No libgac: the
 * runners build on a GPU machine with a C compiler alone. */
#ifndef GAC_RT_H
#define GAC_RT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum {
  RT_MAX_GBUF = 4,   /* in0, in1, out0, out1 */
  RT_MAX_TILE = 3,   /* local tiles */
  RT_MAX_OPS = 96,
  RT_MAX_ARGS = 100, /* kernel arguments (PoCL takes 1024 bytes of them) */
  RT_MAX_VARS = 12,  /* event variables: e0..e7, ev[0..3] */
  RT_ARRAY_VAR = 8,  /* vars from here on are ev[v - 8] */
  RT_MAX_GROUPS = 32 /* event groups (one per copy given a null event) */
};

/* The shapes of a copy: OpenCL's 1D copy, its strided copy, 2D2D, 3D3D.
 * All are a 3D copy to the model (per_line, lines, planes). */
enum { F_1D, F_STRIDED, F_2D, F_3D };

/* Numeric operands of a copy, each a literal or a kernel argument. */
enum { O_ELEM, O_PER_LINE, O_LINES, O_PLANES, O_GOFF, O_GLINE, O_GPLANE, O_LOFF, O_LLINE, O_LPLANE, O_NUM };

typedef struct rt_copy {
  uint8_t form, to_local, tile, gbuf; /* gbuf: 0..1 in, 2..3 out */
  uint32_t elem;                      /* bytes per element */
  int type;                           /* 1D forms: index into rt_types; 2D/3D: a struct typedef or -1 */
  uint64_t v[O_NUM];                  /* operand values, in elements */
  int arg[O_NUM];                     /* kernel argument of each runtime operand, else -1 */
  /* Event wiring: out = copy(..., in). in: -1 null, else a variable;
   * sel >= 0: the input is a variable set by if (cond) sel_a else sel_b. */
  int ev_out, ev_in, sel_a, sel_b, sel_cond;
  int cond;       /* >= 0: `if (c<cond>) out = copy(...)`; else unconditional */
  int alt_cond;   /* >= 0: if/else: the else branch copies from the source offset alt */
  uint64_t alt;   /* else branch's source offset (global offset or local offset) */
  int alt_arg;    /* its kernel argument when the offset is a runtime operand, else -1 */
  int helper;     /* >= 0: issued by helper function h<index>_<helper> */
  bool discard;   /* chained into its own variable, which already holds the event: `copy(..., e);`, result unused */
  bool noinline;
} rt_copy;

/* Work-item ops: fill a tile with (i * mul + add), or read a local range
 * out to an output buffer (global byte offset), optionally adding `add`. */
typedef struct rt_items {
  uint8_t tile, gbuf;
  uint32_t loff, len, goff;
  uint8_t mul, add;
} rt_items;

typedef struct rt_wait {
  int vars[RT_MAX_VARS];
  unsigned n;
  int form; /* W_EACH, W_LIST, W_ARRAY, W_HELPER_LIST, W_HELPER_ONE */
} rt_wait;
enum { W_EACH, W_LIST, W_ARRAY, W_HELPER_LIST, W_HELPER_ONE, W_NUM };

/* A software-pipelined loop (the kernel's only op): copies into dense
 * kernel-scope tiles in stage 0, an optional synchronous stage `mid` (tile
 * t2 = tile + 1), the read-out in stage `stages - 1`. */
typedef struct rt_loop {
  unsigned stages, mid; /* mid 0: none */
  unsigned ncopies;     /* 1 or 2, chained */
  uint64_t step[2];     /* source offset step per iteration, elements */
  int step_arg[2];      /* its kernel argument, or -1 */
  int trip_arg;         /* kernel argument holding the trip count */
  uint64_t trip;
  uint32_t out_per_iter;/* bytes each iteration writes to out0 */
  bool in_helper;       /* --loop-helper: the loop is in a function the kernel gives its tiles */
  bool helper_noinline; /* that function noinline (with --noinline: the GPU's) */
} rt_loop;

enum { OP_FILL, OP_COPY, OP_WAIT, OP_BARRIER, OP_READOUT, OP_LOOP };

typedef struct rt_op {
  int kind;
  union {
    rt_copy copy;
    rt_items items;
    rt_wait wait;
  } u;
} rt_op;

enum { A_BUF, A_LOCAL, A_U64, A_I32 };
typedef struct rt_arg {
  int kind;
  uint64_t value; /* A_LOCAL: bytes; A_BUF: buffer index; A_U64/A_I32: the value */
} rt_arg;

typedef struct rt_case {
  uint64_t seed, index;
  unsigned local_size, groups;
  bool reqd;            /* reqd_work_group_size(local_size, 1, 1) */
  unsigned ngbuf;       /* in0 [in1] out0 [out1], as gbuf_out says */
  bool gbuf_used[RT_MAX_GBUF];
  uint32_t region[RT_MAX_GBUF]; /* bytes per work-group, multiple of 128 */
  uint32_t copy_area[RT_MAX_GBUF]; /* out buffers: [0, copy_area) for copies, the rest for read-outs */
  unsigned ntile;
  uint32_t tile_size[RT_MAX_TILE];
  bool tile_is_arg[RT_MAX_TILE]; /* a __local kernel argument, else a kernel-scope array */
  uint8_t fill_mul[RT_MAX_TILE], fill_add[RT_MAX_TILE];
  rt_op ops[RT_MAX_OPS];
  unsigned nops;
  rt_arg args[RT_MAX_ARGS];
  unsigned nargs;
  int gbuf_arg[RT_MAX_GBUF], tile_arg[RT_MAX_TILE];
  int cond_value[8]; unsigned ncond; int cond_arg[8];
  bool region_is_arg; int region_arg[RT_MAX_GBUF];
  bool has_loop;
  bool noinline_waits; /* the wait helpers are noinline */
  bool plain;          /* rt_options.plain_copies */
  rt_loop loop;
  unsigned nvars_used; /* highest event variable + 1 */
} rt_case;

/* Built-in types of OpenCL's 1D copies. */
typedef struct rt_type {
  const char *name;
  uint32_t size;
} rt_type;
extern const rt_type rt_types[];
extern const unsigned rt_num_types;

/* Generator options: which features a case may use. */
typedef struct rt_options {
  bool select_events; /* events through selects (clang-15/llvm-spirv-15 make OpSelect of events) */
  bool loops;         /* pipelined loops */
  bool reqd;          /* reqd_work_group_size on some kernels */
  bool noinline;      /* noinline helpers (PoCL 3.1 cannot link them from SPIR: README.md) */
  bool ws_typed;      /* typed 1D copies in loops with reqd_work_group_size (sm90ws refuses them) */
  bool loop_helper;   /* half the pipelined loops in a helper taking the tiles as __local pointers */
  bool plain_copies;  /* every copy as plain code between barriers, no events, no loops: on the
                         PTX path its 16-byte tile loads become cp.async (async_tile_loads.c) */
} rt_options;

void rt_generate(uint64_t seed, uint64_t index, const rt_options *opt, rt_case *c);
/* The kernel k<index> and the helper functions it calls. */
void rt_emit(const rt_case *c, FILE *out);
void rt_emit_prelude(FILE *out);

/* Buffers of a launch: the initial bytes of every global buffer (random),
 * and what each must hold afterwards (the model). */
typedef struct rt_buffers {
  size_t size[RT_MAX_GBUF];
  unsigned char *init[RT_MAX_GBUF], *want[RT_MAX_GBUF];
} rt_buffers;
void rt_model(const rt_case *c, rt_buffers *b);
void rt_buffers_free(rt_buffers *b);
/* First byte where got differs from want: false and where, else true. */
bool rt_compare(const rt_case *c, const rt_buffers *b, unsigned char *const got[RT_MAX_GBUF], unsigned *buf,
                size_t *offset);
const char *rt_gbuf_name(unsigned g);

/* Deterministic random numbers (splitmix64): the same stream on every machine. */
typedef struct rt_rng {
  uint64_t s;
} rt_rng;
static inline uint64_t rt_next(rt_rng *r) {
  uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* Uniform in [lo, hi]. */
static inline uint64_t rt_range(rt_rng *r, uint64_t lo, uint64_t hi) { return lo + rt_next(r) % (hi - lo + 1); }
static inline bool rt_chance(rt_rng *r, unsigned percent) { return rt_next(r) % 100 < percent; }


/* ---- batches and runners (driver.c) ---- */

/* A batch file starts with this line; the runners read the cases' seed,
 * indices and options from it:
 * / * gac-random seed=S first=F count=N select=0|1 loops=0|1 reqd=0|1 noinline=0|1 wstyped=0|1 loophelper=0|1
 *   plaincopies=0|1 * / */
bool rt_write_batch(const char *path, uint64_t seed, uint64_t first, unsigned count, const rt_options *opt);
bool rt_read_batch(const char *path, uint64_t *seed, uint64_t *first, unsigned *count, rt_options *opt);
/* A whole file, NUL-terminated (its size in *size if size is not NULL); NULL if unreadable. */
char *rt_read_file(const char *path, size_t *size);

/* A device: run kernel k<index> of the loaded batch on the case's buffers
 * (b->init), leaving the final bytes in got. False with a message in why. */
typedef struct rt_backend {
  void *self;
  bool (*run)(void *self, const rt_case *c, const rt_buffers *b, unsigned char *got[RT_MAX_GBUF], char *why,
              size_t why_len);
} rt_backend;

/* The runners' common options, after their own: --target NAME (in the
 * messages), --only INDEX, --from INDEX (the cases from INDEX on: the rest
 * of a batch after a case that crashed the runner), --mutate (the model is
 * made wrong in one written byte per case: every case must then fail). */
typedef struct rt_run_options {
  const char *target, *batch;
  bool only_set, mutate, quiet;
  uint64_t only, from;
  unsigned repeat; /* --repeat N: each case N times (a race shows rarely); 0 is 1 */
} rt_run_options;
/* Parses argv[i] if it is a common option (true; i advanced past its value). */
bool rt_common_option(rt_run_options *o, int argc, char **argv, int *i);
/* Runs every case of the batch (or --only) on the backend, printing each
 * failure with how to reproduce it and a summary line; returns the number
 * of failures. */
unsigned rt_drive(const rt_backend *be, const rt_run_options *o);

#endif
