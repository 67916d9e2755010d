/* The dataflow of --check-async (docs/CHECK_ASYNC.md): what its files
 * share. A state, at a point of a function in one iteration context, is the
 * set of async accesses that may be in flight there (facts), with the
 * equalities (aliases) and ranges known between ids; a place is what an
 * access touches (a buffer, a version of it, the bytes from its start); an
 * access is an instruction that touches a Workgroup buffer, with its
 * verdict. check_async.c runs the functions, check_async_state.c joins
 * states, check_async_place.c finds places, check_async_transfer.c and
 * check_async_edges.c move states through instructions and edges, and
 * check_async_report.c gives the verdicts. */
#ifndef GAC_CHECK_ASYNC_DATAFLOW_H
#define GAC_CHECK_ASYNC_DATAFLOW_H

#include "check_async_internal.h"
#include "gac/check_async.h"

enum { POS_CAP = 32, AGE_CAP = 8, MAX_ROUNDS = 1000, ALIAS_DEPTH = 8, PATH_MAX_BLOCKS = 12 };
/* Contexts: bit 0, the innermost loop's first iteration (0) or a later one
 * (1), or outside loops whether the copying loop left last went round;
 * bit 1, the same of the innermost enclosing loop that copies (kept through
 * loops that do not: a tile's rows and columns), or for a loop outside
 * any, whether the copying loop before it went round. */
enum { NCTX = 4, CTX_LATER = 1, CTX_OUTER_LATER = 2 };
#define PENDING UINT32_MAX
#define UNKNOWN_BUFFER (-1)
#define HELD_SOMEWHERE UINT32_MAX
#define NOT_WORKGROUP (-2)

/* A part of a flat buffer (one version): the bytes from its start that a
 * copy writes or reads, or an access may touch, as slot * stride + [lo, hi],
 * the slot an affine value of a run-time id, (base + offset) mod `mod`, or
 * base + offset itself where mod is 0 (check_async_part.c). Two parts in
 * the same value are related exactly: (t & 1) * S and ((t & 1) ^ 1) * S
 * never meet, nor t * S and (t + 1) * S, where the bytes are below S. */
#define PART_BIG (INT64_C(1) << 62) /* bytes beyond any buffer: "unbounded" */

/* Why a part is not known, or why two could not be related (the report
 * says which fact the checker lacked). */
enum part_why {
  PART_WHY_NONE,
  PART_WHY_EXTENT,   /* the copy's extent is not a constant: id, the operand */
  PART_WHY_POINTER,  /* pointer arithmetic the checker does not follow */
  PART_WHY_PRODUCT,  /* a run-time value times another, id: no constant stride */
  PART_WHY_EARLIER,  /* said in id's value of an earlier iteration */
  PART_WHY_VALUES,   /* the two parts are not affine in the same run-time value */
  PART_WHY_OVERLAP,  /* in the same value, they may still meet */
};

typedef struct ca_part {
  bool known;
  bool dense;      /* a copy: it touches every byte of [lo, hi] */
  gac_affine slot; /* base 0: no slot (lo, hi are from the buffer's start) */
  uint32_t mod;
  int64_t stride;  /* bytes per slot */
  int64_t lo, hi;  /* bytes, inclusive; within [-PART_BIG, PART_BIG] */
  uint8_t width;   /* the narrowest integer the offset went through */
  int local_id;    /* dimension + 1 of a get_local_id with no fixed work-group size the bytes depend on */
  uint8_t why;     /* why not known */
  uint32_t why_id, product; /* the id the reason names; a run-time factor without constant stride */
  const char *why_operand;  /* the copy's operand that id is ("NumLines"), or NULL */
} ca_part;

/* How a copy's part and an access's part relate, and why when not surely. */
typedef enum { PART_MAYBE, PART_DISJOINT, PART_INSIDE } part_relation;
typedef struct part_doubt {
  uint8_t why;
  uint32_t id;
  const char *operand;
  ca_part copy, access_part; /* as compared: slots said in what the state knows */
} part_doubt;

/* An async access that may be in flight. */
typedef struct fact {
  const gac_inst *copy;    /* one copy (or call that may start copies) it stands for, for diagnostics */
  bool copy_in_loop;       /* that copy is in a loop: the better witness for a loop's iterations */
  int buffer;              /* UNKNOWN_BUFFER: any */
  uint32_t versions;       /* the buffer's V */
  gac_version version;     /* offset kept in [0, V) */
  bool async_read;         /* the copy reads the buffer (its Source) rather than writes it */
  bool fenced;             /* a copy fence of local memory since: ordered before later copies */
  uint32_t queue;          /* PENDING until committed */
  uint32_t group;          /* the event id naming its group now; 0 once no id names it */
  uint32_t old_group;      /* the id that named it before an OpPhi did, still valid where it dominates */
  uint8_t lo, hi;          /* groups committed to the queue after it */
  bool must;
  uint8_t must_pos;        /* with must (or must_if): on every path one is in flight at a position <= must_pos */
  /* Without must: in flight (as must says) on every path where must_if's
   * value is in [must_lo, must_hi]; 0 if none. A copy under `if (1 < n)`
   * joined with the path that skipped it (there n <= 1). */
  uint32_t must_if;
  uint64_t must_lo, must_hi;
  /* The copies it stands for are in flight only on paths where only_if's
   * value is in [only_lo, only_hi]; 0 if no such range is known. */
  uint32_t only_if;
  uint64_t only_lo, only_hi;
  uint8_t age;             /* back edges crossed since the copy */
  const gac_inst *kept_by; /* the last wait that left it in flight */
  const gac_inst *doubt;   /* what made it "may" other than a join: an untraceable wait, a call */
  /* The element of Function variable held_var (by its index mod held_len,
   * the array's length) that holds its group's event on every path where
   * it is in flight, and no other element does; held_var 0 if no element
   * holds it, HELD_SOMEWHERE if some may (stored in two, merged, said in
   * a value of an earlier iteration): then no later store makes one the
   * only one. */
  uint32_t held_var, held_len;
  gac_version held_at;
  ca_part part; /* in a flat buffer: which bytes */
} fact;

typedef struct alias {
  uint32_t id;
  gac_affine value;
} alias;

/* lo <= id <= hi (unsigned) on every path: from branches on comparisons
 * with constants, and from the pipelined body's start umin(n, S). */
typedef struct range {
  uint32_t id;
  uint64_t lo, hi;
} range;

typedef struct state {
  bool reached;
  fact *f;
  unsigned nf, cf;
  alias *a;
  unsigned na, ca;
  range *r;
  unsigned nr, cr;
} state;

typedef struct buffer {
  uint32_t root;
  uint32_t versions; /* V of a [V x T]; 1 if not multi-buffered */
  bool param;        /* a function parameter rather than a variable */
  bool written;      /* an async copy writes it */
  bool read;         /* an async copy reads it */
} buffer;

/* One element of a Function variable (a variable of one event or value is
 * its own element 0): the stores to it, when nothing else can write it. */
typedef struct slot {
  uint32_t var;
  uint64_t index;
  unsigned stores;
  const gac_inst *store;
} slot;

/* A copy's Destination only conflicts with copies reading the buffer: copies
 * into disjoint parts of one version are common (docs/CHECK_ASYNC.md). */
enum access_kind { ACCESS_READ, ACCESS_WRITE, ACCESS_COPY_WRITE, ACCESS_CALL };

typedef struct place {
  int buffer; /* or UNKNOWN_BUFFER, NOT_WORKGROUP */
  gac_version version;
  /* Pointer arithmetic from inside a version that may leave it: why (for the report). */
  bool left;
  int local_id;       /* dimension + 1 of a get_local_id with no fixed work-group size it depends on */
  bool followed;      /* the bytes below were worked out */
  uint64_t lo, hi;    /* bytes from the version's start */
  uint64_t room;      /* the version's bytes */
  ca_part part;       /* in a flat buffer: which bytes */
} place;

/* The worst an access met in one context, and the fact that made it so. */
typedef struct finding {
  bool evaluated;
  gac_check_verdict verdict;
  fact witness;
  gac_version seen_as, fact_as; /* both versions, resolved in the witness's state */
  gac_version as_read;          /* the access's version as its index says, in that context */
  bool meet;                    /* the witness's bytes are taken to meet the access's */
  bool inside;                  /* they surely do: the access's part is inside the copy's */
  part_doubt part;              /* in a flat buffer, why they may or may not */
} finding;

typedef struct access {
  const gac_inst *inst;
  unsigned role; /* operand index, to tell a copy's source from its destination */
  enum access_kind kind;
  int buffer;
  gac_version version;
  place where; /* why pointer arithmetic may leave the version, if it may */
  unsigned block;
  finding in[NCTX]; /* per context */
} access;

typedef struct checker {
  const gac_module *m;
  const gac_check_async_options *opt;
  gac_diag *diag;
  gac_check_async_counts *counts;
  ca_cfg cfg;
  bool kernel; /* an entry point: its Workgroup parameters are distinct allocations */
  buffer *buffers;
  unsigned nb;
  slot *slots;
  unsigned nslots;
  bool *escaped; /* by id: a Function variable whose address goes where the checker cannot follow */
  uint8_t *element_stores; /* by id: a Function variable's ELEMENT_DYNAMIC, ELEMENT_UNTRACKED stores */
  /* By function id, whether it or its callees may start copies, use a
   * Workgroup variable, or order copies (check_async_transfer.c's enum
   * holding): 0 not asked yet, 1 no, 2 maybe. */
  uint8_t *holds[3];
  uint8_t *pipe_var; /* by id: a buffer of a warp-specialised Pipe, which check_async_pipes.c checks */
  access *acc;
  unsigned nacc;
  bool any_copy;
  bool unknown_writes; /* a copy into untraced Workgroup memory, or a call that starts copies */
  const gac_inst *at; /* the instruction whose pointers place_of follows */
  const struct state *cur; /* the state there, when there is one */
  bool *loop_copies;       /* by loop: its body holds an async copy */
  uint32_t local_size[3];  /* the function's fixed work-group size, 0 where none */
  bool gave_up; /* irreducible flow or no fixpoint: nothing is proved */
  const char *gave_up_why;
} checker;

/* What checker.element_stores records of a Function variable's stores. */
enum { ELEMENT_DYNAMIC = 1, ELEMENT_UNTRACKED = 2 };

/* What the checker follows of an async copy (the set's or core
 * OpGroupAsyncCopy): where it writes, what it reads, its event. */
typedef struct copy_view {
  uint32_t destination, source, event;
} copy_view;

/* States (check_async_state.c): facts, aliases, ranges, joins. */
void ca_state_free(state *s);
void ca_state_copy(state *d, const state *s);
void ca_state_add(state *s, fact f);
void ca_state_normalize(state *s);
void ca_add_alias(state *s, uint32_t id, gac_affine v);
void ca_remove_alias(state *s, uint32_t id);
gac_version ca_resolve_version(const state *s, gac_version v);
range *ca_find_range(const state *s, uint32_t id);
void ca_drop_must(fact *f);
bool ca_must_in(const state *s, const fact *f);
bool ca_restrict_range(state *s, uint32_t id, uint64_t lo, uint64_t hi);
bool ca_exists_where(const state *st, const fact *f, uint32_t x, range *out);
bool ca_state_join(state *dst, const state *src);
bool ca_fact_names(const fact *f, uint32_t event);
void ca_rename_group(fact *f, uint32_t to);
/* p with its slot as s's aliases say it (ca_resolve_version): a constant
 * slot becomes bytes from the buffer's start (ca_part_rebase). */
void ca_part_resolve(const state *s, ca_part *p);

/* Values (check_async_value.c): operands, slots of Function arrays,
 * stored events, the copies, a realloc that aborts when out of memory. */
void *ca_xrealloc(void *p, size_t n);
uint32_t ca_in_operand(const gac_inst *i, unsigned k);
unsigned ca_num_in_operands(const gac_inst *i);
uint32_t ca_storage_class_of(const gac_module *m, uint32_t pointer);
bool ca_is_function_variable(const gac_module *m, uint32_t id);
bool ca_element_of(const checker *c, uint32_t ptr, uint32_t *var, uint32_t *index);
bool ca_slot_of(const checker *c, uint32_t ptr, uint32_t *var, uint64_t *index);
slot *ca_find_slot(checker *c, uint32_t var, uint64_t index, bool add);
uint32_t ca_slot_value(const checker *c, uint32_t var, uint64_t index, const gac_inst *at);
uint32_t ca_stored_value(const checker *c, uint32_t ptr, const gac_inst *at);
bool ca_is_null_event(const gac_module *m, uint32_t id);
bool ca_copy_of(const gac_module *m, const gac_inst *i, copy_view *v);
uint32_t ca_resolve_value(const checker *c, uint32_t id, const gac_inst *at);
bool ca_is_copy(const gac_module *m, const gac_inst *i);
uint32_t ca_copy_offset(const gac_module *m, const gac_inst *copy, bool source);

/* What instructions touch (check_async_place.c): places; whether a fact's
 * copy and an access are at the same offset. */
ca_ranges ca_ranges_at(const checker *c);
bool ca_version_lower_bound(void *user, uint32_t id, uint64_t *min);
place ca_place_of(checker *c, uint32_t ptr, const gac_inst *at);
bool ca_offsets_meet(const checker *c, const fact *f, const gac_inst *i, unsigned role);

/* Parts of flat buffers (check_async_part.c). */
ca_part ca_pointer_part(checker *c, ca_ranges *r, const gac_inst *const *steps, unsigned n, uint32_t root,
                        uint64_t size);
ca_part ca_copy_part(checker *c, ca_ranges *r, const gac_inst *copy, bool source, ca_part pointer);
bool ca_same_part(const ca_part *a, const ca_part *b);
void ca_canonical_part(ca_part *p);
void ca_part_forget(const ca_cfg *g, ca_part *p, int loop, bool back_edge);
/* p with its slot at `to` (the value it resolves to): a constant slot
 * becomes bytes from the buffer's start. */
void ca_part_rebase(ca_part *p, gac_affine to);
/* How an access's part (mine) stands to a copy's, both resolved
 * (ca_part_resolve) where both are known. */
part_relation ca_part_relate(checker *c, ca_ranges *r, ca_part copy, ca_part mine, part_doubt *doubt);
void ca_part_format(const checker *c, const ca_part *p, char *out, size_t size);

/* Transfer through instructions (check_async_transfer.c). */
bool ca_call_starts_copies(checker *c, const gac_inst *call);
gac_version ca_canonical_index(gac_version v, uint32_t len);
void ca_transfer_call(checker *c, state *s, const gac_inst *i, bool eval, unsigned ctx, unsigned block);
void ca_transfer_inst(checker *c, state *s, const gac_inst *i, bool eval, unsigned ctx, unsigned block);

/* Edges and blocks (check_async_edges.c). */
bool ca_propagate_edge(checker *c, state *states, const state *out, unsigned b, unsigned ctx, unsigned s);
void ca_transfer_block(checker *c, state *s, unsigned b, bool eval, unsigned ctx);

/* Verdicts (check_async_report.c). */
void ca_evaluate_access(checker *c, const state *s, const gac_inst *i, unsigned role, enum access_kind kind,
                        uint32_t ptr, unsigned ctx, unsigned block);
void ca_evaluate_place(checker *c, const state *s, const gac_inst *i, unsigned role, enum access_kind kind,
                       place p, unsigned ctx, unsigned block);
void ca_report_access(checker *c, const access *a);

#endif
