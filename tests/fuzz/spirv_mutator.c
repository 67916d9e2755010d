/* Structure-aware mutation of SPIR-V for libFuzzer (README.md,
 * "Structure-aware mutation"): LLVMFuzzerCustomMutator and
 * LLVMFuzzerCustomCrossOver, linked into every target.
 *
 * Byte mutations almost never give a module that reads and validates, so
 * the passes see few inputs. Here an input is split into instructions
 * (word counts), and when gac's reader takes it, each operand is known as an
 * id, a literal or a string (the reader's own classification: no second
 * grammar here). A mutation then works on instructions: delete, duplicate
 * (with a fresh result id), move, replace an id by another defined id (of the
 * same type, or any), change a literal, step an opcode or ExtInst number,
 * swap the operands of an OpExtInst, grow or shrink an instruction, and, in
 * the crossover, insert instructions from another input with their ids
 * mapped to this one's. Fresh ids come from the header's bound, which is
 * raised with them, so most mutants still read. One mutation in eight, and
 * every input that is not SPIR-V-shaped, goes to libFuzzer's byte mutator.
 *
 * GAC_FUZZ_MUTATOR=bytes makes both entry points give libFuzzer's own byte
 * mutations only (the crossover included), for comparing the two. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "fuzz_common.h"
#include "gac/module.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed);

typedef struct rng {
  uint64_t s;
} rng;

static uint32_t below(rng *r, uint32_t n) {
  /* splitmix64 */
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return n ? (uint32_t)(z % n) : 0;
}

enum { OP_ID = 1, OP_LITERAL = 2 };

typedef struct minst {
  uint32_t offset;   /* first word */
  uint32_t num_words;
  uint32_t opcode;
  uint32_t result_id, type_id;
  uint32_t result_word; /* where result_id is, from the first word; 0 if none */
  uint32_t function;    /* 1 + index of the function holding it; 0 at module scope */
  uint32_t first_op, num_ops; /* into mmod.ops */
} minst;

typedef struct mop {
  uint32_t word; /* absolute word index */
  uint32_t kind; /* OP_ID or OP_LITERAL */
} mop;

/* A module as host-order words and its instructions. */
typedef struct mmod {
  uint32_t *w;
  size_t n, cap;
  bool big_endian;
  bool exact; /* operand kinds from gac's reader; else guessed */
  minst *insts;
  size_t num_insts;
  mop *ops;
  size_t num_ops;
  uint32_t *defs; /* result ids, in order */
  size_t num_defs;
  size_t insts_cap, ops_cap, defs_cap;
} mmod;

static void mmod_free(mmod *m) {
  free(m->w);
  free(m->insts);
  free(m->ops);
  free(m->defs);
  memset(m, 0, sizeof *m);
}

static void *grow(void *p, size_t *cap, size_t need, size_t elem) {
  if (need <= *cap)
    return p;
  size_t c = *cap ? *cap : 16;
  while (c < need)
    c *= 2;
  p = realloc(p, c * elem);
  if (!p)
    abort();
  *cap = c;
  return p;
}

static void add_op(mmod *m, minst *in, uint32_t word, uint32_t kind) {
  m->ops = grow(m->ops, &m->ops_cap, m->num_ops + 1, sizeof(mop));
  m->ops[m->num_ops++] = (mop){word, kind};
  in->num_ops++;
}

static minst *inst_at(mmod *m, size_t offset) {
  size_t lo = 0, hi = m->num_insts;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (m->insts[mid].offset < offset)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < m->num_insts && m->insts[lo].offset == offset ? &m->insts[lo] : NULL;
}

typedef struct classify_ctx {
  mmod *m;
  bool ok;
} classify_ctx;

/* The reader's instructions are the input's, in order (it takes only the
 * logical layout), each with its word offset: give them their operands. */
static void classify(gac_inst *inst, void *user) {
  classify_ctx *c = user;
  minst *in = inst_at(c->m, inst->offset);
  if (!in || in->num_ops || in->num_words != inst->num_words) {
    c->ok = false;
    return;
  }
  in->result_id = inst->result_id;
  in->type_id = inst->type_id;
  in->first_op = (uint32_t)c->m->num_ops;
  for (unsigned i = 0; i < inst->num_operands; i++) {
    const gac_operand *o = &inst->operands[i];
    if (o->kind == GAC_OPERAND_RESULT_ID)
      in->result_word = o->offset;
    else if (o->kind == GAC_OPERAND_ID)
      add_op(c->m, in, in->offset + o->offset, OP_ID);
    else if (o->kind == GAC_OPERAND_LITERAL)
      for (unsigned k = 0; k < o->num_words; k++)
        add_op(c->m, in, in->offset + o->offset + k, OP_LITERAL);
  }
}

/* Indexes m->w: instructions, operands, defined ids. False if the words
 * are not a header and at least one instruction. */
static bool mmod_index(mmod *m) {
  m->num_insts = m->num_ops = m->num_defs = 0;
  if (m->n < 6)
    return false;
  uint32_t functions = 0;
  bool in_function = false;
  for (size_t i = 5; i < m->n;) {
    uint32_t wc = m->w[i] >> 16;
    if (wc == 0 || wc > m->n - i)
      break; /* the rest is a tail no mutation touches */
    m->insts = grow(m->insts, &m->insts_cap, m->num_insts + 1, sizeof(minst));
    uint32_t op = m->w[i] & 0xFFFF;
    functions += op == SpvOpFunction;
    m->insts[m->num_insts++] =
        (minst){.offset = (uint32_t)i, .num_words = wc, .opcode = op, .function = in_function || op == SpvOpFunction ? functions : 0};
    in_function = (in_function || op == SpvOpFunction) && op != SpvOpFunctionEnd;
    i += wc;
  }
  if (!m->num_insts)
    return false;
  gac_diag d;
  gac_diag_init(&d);
  gac_module *g = gac_module_read(m->w, m->n, &d);
  gac_diag_free(&d);
  m->exact = false;
  if (g) {
    classify_ctx c = {m, true};
    gac_module_visit(g, classify, &c);
    gac_module_destroy(g);
    m->exact = c.ok;
  }
  if (!m->exact) {
    /* Guess: a word below the bound that some instruction could define is an id. */
    m->num_ops = 0;
    for (size_t k = 0; k < m->num_insts; k++) {
      minst *in = &m->insts[k];
      in->num_ops = 0;
      in->first_op = (uint32_t)m->num_ops;
      in->result_id = in->type_id = in->result_word = 0;
      for (uint32_t j = 1; j < in->num_words; j++) {
        uint32_t v = m->w[in->offset + j];
        add_op(m, in, in->offset + j, v && v < m->w[3] ? OP_ID : OP_LITERAL);
      }
    }
  }
  for (size_t k = 0; k < m->num_insts; k++)
    if (m->insts[k].result_id) {
      m->defs = grow(m->defs, &m->defs_cap, m->num_defs + 1, sizeof(uint32_t));
      m->defs[m->num_defs++] = m->insts[k].result_id;
    }
  return true;
}

static bool mmod_load(mmod *m, const uint8_t *data, size_t size) {
  memset(m, 0, sizeof *m);
  if (size < 24 || size % 4)
    return false;
  m->n = size / 4;
  m->cap = m->n + 64;
  m->w = malloc(m->cap * sizeof(uint32_t));
  if (!m->w)
    abort();
  memcpy(m->w, data, size);
  if (m->w[0] == __builtin_bswap32(SpvMagicNumber)) {
    m->big_endian = true;
    for (size_t i = 0; i < m->n; i++)
      m->w[i] = __builtin_bswap32(m->w[i]);
  } else if (m->w[0] != SpvMagicNumber) {
    free(m->w);
    return false;
  }
  if (!mmod_index(m)) {
    mmod_free(m);
    return false;
  }
  return true;
}

/* Writes m in its byte order; 0 if it does not fit. */
static size_t mmod_store(const mmod *m, uint8_t *out, size_t max_size) {
  size_t size = m->n * 4;
  if (size > max_size)
    return 0;
  for (size_t i = 0; i < m->n; i++) {
    uint32_t v = m->big_endian ? __builtin_bswap32(m->w[i]) : m->w[i];
    memcpy(out + 4 * i, &v, 4);
  }
  return size;
}

/* Word edits; the index is stale afterwards until mmod_index. */
static void insert_words(mmod *m, size_t at, const uint32_t *words, size_t count) {
  m->w = grow(m->w, &m->cap, m->n + count, sizeof(uint32_t));
  memmove(m->w + at + count, m->w + at, (m->n - at) * sizeof(uint32_t));
  memcpy(m->w + at, words, count * sizeof(uint32_t));
  m->n += count;
}

static void erase_words(mmod *m, size_t at, size_t count) {
  memmove(m->w + at, m->w + at + count, (m->n - at - count) * sizeof(uint32_t));
  m->n -= count;
}

/* A new id: the bound, raised, within SPIR-V's limit. */
static uint32_t fresh_id(mmod *m) {
  if (m->w[3] >= GAC_MAX_ID_BOUND)
    return m->w[3] - 1;
  return m->w[3]++;
}

static const minst *def_of(const mmod *m, uint32_t id) {
  for (size_t k = 0; k < m->num_insts; k++)
    if (m->insts[k].result_id == id)
      return &m->insts[k];
  return NULL;
}

/* Another defined id for the operand value old of instruction user: three
 * times in four one of the same type (for a type or other untyped id, one
 * defined by the same opcode) defined before user, at module scope or in
 * its function, as dominance mostly asks; else any defined id. */
static uint32_t other_id(rng *r, const mmod *m, const minst *user, uint32_t old) {
  if (!m->num_defs)
    return m->w[3] > 1 ? 1 + below(r, m->w[3] - 1) : old;
  if (below(r, 4)) {
    const minst *d = def_of(m, old);
    uint32_t cands[64], nc = 0;
    for (size_t k = 0; d && k < m->num_insts && m->insts[k].offset < user->offset; k++) {
      const minst *e = &m->insts[k];
      if (e->result_id && e->result_id != old && (!e->function || e->function == user->function) &&
          (d->type_id ? e->type_id == d->type_id : !e->type_id && e->opcode == d->opcode))
        cands[nc++ % 64] = e->result_id;
    }
    if (nc)
      return cands[below(r, nc < 64 ? nc : 64)];
  }
  return m->defs[below(r, (uint32_t)m->num_defs)];
}

static uint32_t new_literal(rng *r, uint32_t old) {
  static const uint32_t interesting[] = {0,  1,   2,   3,      4,          7,          8,         15,
                                         16, 31,  32,  63,     64,         255,        256,       4096,
                                         0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFFFFFE};
  switch (below(r, 6)) {
  case 0: return old + 1;
  case 1: return old - 1;
  case 2: return old * 2;
  case 3: return old / 2;
  case 4: return below(r, 0xFFFFFFFFu);
  default: return interesting[below(r, sizeof interesting / sizeof interesting[0])];
  }
}

/* The instruction holding operand o. */
static const minst *holder(const mmod *m, const mop *o) {
  size_t lo = 0, hi = m->num_insts;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (m->insts[mid].offset <= o->word)
      lo = mid;
    else
      hi = mid;
  }
  return &m->insts[lo];
}

static const minst *pick_inst(rng *r, const mmod *m) { return &m->insts[below(r, (uint32_t)m->num_insts)]; }

/* An operand of the given kind, anywhere; NULL if none. */
static const mop *pick_op(rng *r, const mmod *m, uint32_t kind) {
  for (int tries = 0; tries < 16 && m->num_ops; tries++) {
    const mop *o = &m->ops[below(r, (uint32_t)m->num_ops)];
    if (o->kind == kind)
      return o;
  }
  return NULL;
}

/* Gives the copied instruction words a fresh result id. */
static void renumber_result(mmod *m, const minst *in, uint32_t *copy) {
  if (in->result_word)
    copy[in->result_word] = fresh_id(m);
}

/* A position to insert at: near `near` most of the time, else anywhere. */
static size_t insert_point(rng *r, const mmod *m, size_t near) {
  size_t k;
  if (below(r, 4)) {
    int64_t d = (int64_t)below(r, 9) - 4;
    int64_t at = (int64_t)near + d;
    k = at < 0 ? 0 : (size_t)at;
    if (k > m->num_insts)
      k = m->num_insts;
  } else {
    k = below(r, (uint32_t)m->num_insts + 1);
  }
  return k < m->num_insts ? m->insts[k].offset : m->insts[m->num_insts - 1].offset + m->insts[m->num_insts - 1].num_words;
}

static bool is_ext_inst(const minst *in) { return in->opcode == SpvOpExtInst && in->num_words >= 5; }

/* One mutation of m (indexed); false if it found nothing to do. */
static bool mutate_once(rng *r, mmod *m) {
  const minst *in = pick_inst(r, m);
  size_t k = (size_t)(in - m->insts);
  /* Weighted towards what keeps a module valid: other ids of the same
   * type, other literals (constants: copy shapes, strides, trip counts). */
  switch (below(r, 13)) {
  case 0: /* delete */
    erase_words(m, in->offset, in->num_words);
    return true;
  case 1: { /* duplicate, with a fresh result id */
    uint32_t copy[in->num_words];
    memcpy(copy, m->w + in->offset, sizeof copy);
    renumber_result(m, in, copy);
    size_t at = below(r, 2) ? in->offset + in->num_words : insert_point(r, m, k);
    insert_words(m, at, copy, in->num_words);
    return true;
  }
  case 2: { /* move */
    uint32_t copy[in->num_words];
    memcpy(copy, m->w + in->offset, sizeof copy);
    size_t at = insert_point(r, m, k), from = in->offset, count = in->num_words;
    if (at > from)
      at = at >= from + count ? at - count : from;
    erase_words(m, from, count);
    insert_words(m, at, copy, count);
    return true;
  }
  case 3:
  case 4:
  case 5:
  case 6: { /* another id */
    const mop *o = pick_op(r, m, OP_ID);
    if (!o)
      return false;
    m->w[o->word] = other_id(r, m, holder(m, o), m->w[o->word]);
    return true;
  }
  case 7:
  case 8:
  case 9: { /* another literal */
    const mop *o = pick_op(r, m, OP_LITERAL);
    if (!o)
      return false;
    m->w[o->word] = new_literal(r, m->w[o->word]);
    return true;
  }
  case 10: { /* a neighbouring opcode or extended instruction */
    int32_t step = (int32_t)below(r, 2) + 1;
    if (below(r, 2))
      step = -step;
    for (int tries = 0; tries < 8 && !is_ext_inst(in); tries++)
      in = pick_inst(r, m);
    if (is_ext_inst(in) && below(r, 4))
      m->w[in->offset + 4] += (uint32_t)step;
    else
      m->w[in->offset] = (m->w[in->offset] & 0xFFFF0000u) | ((in->opcode + (uint32_t)step) & 0xFFFF);
    return true;
  }
  case 11: { /* swap two id operands, preferring an OpExtInst's (a copy's dst/src, strides, shapes) */
    for (int tries = 0; tries < 16 && !(is_ext_inst(in) && in->num_words > 6); tries++)
      in = pick_inst(r, m);
    uint32_t first = in->result_id && in->num_words > 3 ? 3 : 1;
    if (is_ext_inst(in))
      first = 5;
    if (in->num_words < first + 2)
      return false;
    uint32_t a = first + below(r, in->num_words - first), b = first + below(r, in->num_words - first);
    uint32_t t = m->w[in->offset + a];
    m->w[in->offset + a] = m->w[in->offset + b];
    m->w[in->offset + b] = t;
    return a != b;
  }
  default: { /* one operand more or less; rarely only the word count */
    uint32_t wc = in->num_words;
    if (!below(r, 8)) {
      uint32_t nwc = below(r, 2) ? wc + 1 : wc - 1;
      m->w[in->offset] = (nwc << 16) | in->opcode;
    } else if (below(r, 2) && wc > 1) {
      erase_words(m, in->offset + wc - 1, 1);
      m->w[in->offset] = ((wc - 1) << 16) | in->opcode;
    } else if (wc < 0xFFFF) {
      uint32_t extra = below(r, 2) && m->num_defs ? m->defs[below(r, (uint32_t)m->num_defs)] : new_literal(r, 0);
      insert_words(m, in->offset + wc, &extra, 1);
      m->w[in->offset] = ((wc + 1) << 16) | in->opcode;
    }
    return true;
  }
  }
}

static bool bytes_only(void) {
  static int mode = -1;
  if (mode < 0) {
    const char *e = getenv("GAC_FUZZ_MUTATOR");
    mode = e && strcmp(e, "bytes") == 0;
  }
  return mode;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  rng r = {seed};
  mmod m;
  if (bytes_only() || !below(&r, 8) || !mmod_load(&m, data, size))
    return LLVMFuzzerMutate(data, size, max_size);
  /* Mostly one mutation, sometimes a few in a row. */
  unsigned steps = below(&r, 4) ? 1 : 2 + below(&r, 3), done = 0;
  for (unsigned s = 0; s < steps && m.num_insts; s++) {
    done += mutate_once(&r, &m);
    if (s + 1 < steps && !mmod_index(&m))
      break;
  }
  /* Rarely, a bound that does not fit the ids. */
  if (!below(&r, 64))
    m.w[3] = new_literal(&r, m.w[3]);
  size_t out = done ? mmod_store(&m, data, max_size) : 0;
  mmod_free(&m);
  return out ? out : LLVMFuzzerMutate(data, size, max_size);
}

/* Inserts a run of instructions of input 2 into input 1. Result ids defined
 * in the run become fresh ids of input 1; other ids become an id of input 1
 * defined by the same opcode (a type for a type, a constant for a constant),
 * with the same type where one exists. */
size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1, const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size, unsigned int seed) {
  rng r = {seed};
  mmod a, b;
  if (bytes_only() || !mmod_load(&a, data1, size1))
    return 0;
  if (!mmod_load(&b, data2, size2)) {
    mmod_free(&a);
    return 0;
  }
  size_t first = below(&r, (uint32_t)b.num_insts);
  size_t count = 1 + below(&r, 4);
  if (first + count > b.num_insts)
    count = b.num_insts - first;
  size_t begin = b.insts[first].offset;
  size_t end = b.insts[first + count - 1].offset + b.insts[first + count - 1].num_words;
  uint32_t run[end - begin];
  memcpy(run, b.w + begin, sizeof run);
  /* Ids: those the run defines first, then the ones it uses. */
  uint32_t from[64], to[64], nmap = 0;
  for (size_t k = first; k < first + count && nmap < 64; k++)
    if (b.insts[k].result_word) {
      from[nmap] = b.insts[k].result_id;
      to[nmap] = fresh_id(&a);
      run[b.insts[k].offset - begin + b.insts[k].result_word] = to[nmap++];
    }
  for (size_t k = first; k < first + count; k++) {
    const minst *in = &b.insts[k];
    for (uint32_t j = 0; j < in->num_ops; j++) {
      const mop *o = &b.ops[in->first_op + j];
      if (o->kind != OP_ID)
        continue;
      uint32_t *w = &run[o->word - begin], id = *w, i = 0;
      while (i < nmap && from[i] != id)
        i++;
      if (i == nmap) {
        if (nmap == 64)
          continue;
        const minst *d = def_of(&b, id);
        uint32_t cands[64], nc = 0;
        for (size_t e = 0; d && e < a.num_insts && nc < 64; e++)
          if (a.insts[e].result_id && a.insts[e].opcode == d->opcode)
            cands[nc++] = a.insts[e].result_id;
        from[nmap] = id;
        to[nmap++] = nc ? cands[below(&r, nc)] : a.num_defs ? a.defs[below(&r, (uint32_t)a.num_defs)] : id;
      }
      *w = to[i];
    }
  }
  /* Where: after an instruction of input 1 with the run's first opcode, if
   * there is one (a type among types, a copy beside a copy), else anywhere. */
  size_t at = a.n, near = a.num_insts;
  if (below(&r, 4))
    for (size_t e = 0; e < a.num_insts; e++)
      if (a.insts[e].opcode == b.insts[first].opcode && (near == a.num_insts || below(&r, 2)))
        near = e;
  if (near < a.num_insts)
    at = a.insts[near].offset + (below(&r, 2) ? a.insts[near].num_words : 0);
  else
    at = insert_point(&r, &a, below(&r, (uint32_t)a.num_insts));
  insert_words(&a, at, run, end - begin);
  size_t n = mmod_store(&a, out, max_out_size);
  mmod_free(&a);
  mmod_free(&b);
  return n;
}
