/* The in-memory SPIR-V module.
 *
 * A module is the header plus the sections of the logical layout (SPIR-V 2.4),
 * each a list of instructions, followed by functions made of blocks. Every
 * instruction keeps its words exactly as read, so writing an unmodified module
 * reproduces the input bit for bit. Ids map to their defining instruction;
 * use lists are built on demand and then kept up to date by every mutation
 * made through this API. */
#ifndef GAC_MODULE_H
#define GAC_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gac/diag.h"

typedef enum gac_section {
  GAC_SECTION_CAPABILITY,
  GAC_SECTION_EXTENSION,
  GAC_SECTION_EXT_INST_IMPORT,
  GAC_SECTION_MEMORY_MODEL,
  GAC_SECTION_ENTRY_POINT,
  GAC_SECTION_EXECUTION_MODE,
  GAC_SECTION_DEBUG_SOURCE,    /* OpString, OpSource, OpSourceExtension, ... */
  GAC_SECTION_DEBUG_NAME,      /* OpName, OpMemberName */
  GAC_SECTION_DEBUG_PROCESSED, /* OpModuleProcessed */
  GAC_SECTION_ANNOTATION,
  GAC_SECTION_GLOBAL,          /* types, constants, globals, OpUndef, OpLine */
  GAC_SECTION_COUNT
} gac_section;

const char *gac_section_name(gac_section s);

typedef enum gac_operand_kind {
  GAC_OPERAND_ID,        /* a reference to an id, including a type id */
  GAC_OPERAND_RESULT_ID, /* the id this instruction defines */
  GAC_OPERAND_LITERAL,   /* literal numbers and enumerants */
  GAC_OPERAND_STRING,    /* a literal string, possibly several words */
} gac_operand_kind;

struct gac_inst;

typedef struct gac_operand {
  uint16_t offset;    /* first word, counted from the instruction's first word */
  uint16_t num_words;
  uint8_t kind;       /* gac_operand_kind */
  struct gac_inst *inst;
  /* Links of the use list of the id this operand names (GAC_OPERAND_ID). */
  struct gac_operand *prev_use, *next_use;
} gac_operand;

struct gac_inst_list;

typedef struct gac_inst {
  struct gac_inst *prev, *next;
  struct gac_inst_list *list; /* the list holding it; NULL when detached */
  uint32_t *words;            /* words[0] is the opcode/word-count word */
  uint16_t num_words;
  uint16_t opcode;
  uint32_t type_id;           /* 0 if none */
  uint32_t result_id;         /* 0 if none */
  uint16_t num_operands;
  gac_operand *operands;      /* all operands, result type and result included */
  size_t offset;              /* word offset in the input, GAC_NO_OFFSET if built */
} gac_inst;

typedef enum gac_list_kind { GAC_LIST_SECTION, GAC_LIST_PARAMS, GAC_LIST_BLOCK } gac_list_kind;

typedef struct gac_inst_list {
  gac_inst *first, *last;
  gac_list_kind kind;
  void *owner; /* the module, function or block */
} gac_inst_list;

struct gac_function;

/* A block's list starts with its OpLabel and ends with its terminator. */
typedef struct gac_block {
  struct gac_block *prev, *next;
  struct gac_function *function;
  gac_inst_list insts;
} gac_block;

typedef struct gac_function {
  struct gac_function *prev, *next;
  gac_inst *def;          /* OpFunction */
  gac_inst_list params;   /* OpFunctionParameter (and debug lines) */
  gac_block *first_block, *last_block; /* none for a declaration */
  gac_inst *end;          /* OpFunctionEnd */
} gac_function;

typedef struct gac_arena gac_arena;

typedef struct gac_module {
  uint32_t magic, version, generator, bound, schema;
  bool big_endian; /* byte order of the input; writing keeps it */
  gac_inst_list sections[GAC_SECTION_COUNT];
  gac_function *first_function, *last_function;

  gac_inst **defs;          /* id -> defining instruction, [bound] */
  uint32_t defs_capacity;
  gac_operand **use_heads;  /* id -> first use, valid when uses_built */
  bool uses_built;

  gac_arena *arena;
} gac_module;

/* Creation and destruction. */
gac_module *gac_module_create(uint32_t version);
void gac_module_destroy(gac_module *m);

/* Reads a binary (either byte order). Returns NULL and fills diag on error:
 * malformed words, ids out of bound, redefinitions, or a layout violation. */
gac_module *gac_module_read(const uint32_t *words, size_t num_words, gac_diag *diag);
/* Same, from bytes; a length that is not a multiple of 4 is an error. */
gac_module *gac_module_read_bytes(const void *bytes, size_t num_bytes, gac_diag *diag);

/* Writes the module. *words is malloc'd; returns false on allocation failure
 * or when its ids do not fit (gac_module_ids_fit says so first). */
bool gac_module_write(const gac_module *m, uint32_t **words, size_t *num_words);

/* Ids. SPIR-V's universal limit (2.17) on the bound, which spirv-val enforces
 * too: the reader refuses a larger bound, and a module whose passes took ids
 * past it is not written. */
#define GAC_MAX_ID_BOUND 0x3FFFFFu
/* True if the module's ids fit the limit; else false with an error in diag. */
bool gac_module_ids_fit(const gac_module *m, gac_diag *diag);

static inline gac_inst *gac_def(const gac_module *m, uint32_t id) {
  return id < m->bound && id < m->defs_capacity ? m->defs[id] : NULL;
}
uint32_t gac_module_new_id(gac_module *m);
/* The type instruction of value id, or NULL if id is not a value. */
const gac_inst *gac_value_type(const gac_module *m, uint32_t id);

/* Operands. */
static inline uint32_t gac_operand_word(const gac_inst *inst, unsigned i) {
  return inst->words[inst->operands[i].offset];
}
/* The i-th operand after result type and result ("in" operands), as spirv-opt counts. */
unsigned gac_inst_first_in_operand(const gac_inst *inst);
const char *gac_inst_string(const gac_inst *inst, unsigned operand);

/* Use lists. */
void gac_module_build_uses(gac_module *m);
gac_operand *gac_first_use(gac_module *m, uint32_t id);
size_t gac_use_count(gac_module *m, uint32_t id);

/* Placement and removal. */
void gac_list_insert_before(gac_module *m, gac_inst_list *list, gac_inst *before, gac_inst *inst);
static inline void gac_list_append(gac_module *m, gac_inst_list *list, gac_inst *inst) {
  gac_list_insert_before(m, list, NULL, inst);
}
void gac_inst_remove(gac_module *m, gac_inst *inst);
void gac_inst_set_id_operand(gac_module *m, gac_inst *inst, unsigned operand, uint32_t id);
/* Rewrites every use of old_id to new_id; returns how many. */
size_t gac_replace_all_uses(gac_module *m, uint32_t old_id, uint32_t new_id);

/* Iteration. */
#define gac_foreach_inst(inst, list) \
  for (gac_inst *inst = (list)->first, *inst##_next_ = inst ? inst->next : NULL; inst; \
       inst = inst##_next_, inst##_next_ = inst ? inst->next : NULL)
#define gac_foreach_function(f, m) for (gac_function *f = (m)->first_function; f; f = f->next)
#define gac_foreach_block(b, f) for (gac_block *b = (f)->first_block; b; b = b->next)

/* Calls fn on every instruction, in module order. */
void gac_module_visit(gac_module *m, void (*fn)(gac_inst *, void *), void *user);

/* The function and block holding inst, or NULL at module scope. */
gac_block *gac_inst_block(const gac_inst *inst);
gac_function *gac_inst_function(const gac_inst *inst);

/* Module-level facts passes ask for. */
uint32_t gac_module_addressing_model(const gac_module *m); /* SpvAddressingModel, ~0u if none */
bool gac_module_has_capability(const gac_module *m, uint32_t capability);
/* Whether function fn (its OpFunction's result id) is named by an OpEntryPoint. */
bool gac_is_entry_point(const gac_module *m, uint32_t fn);
/* The first declared capability that is Shader or implies it (declaring a
 * capability declares those it depends on), or ~0u. SPIR-V gives such a
 * module shader rules, e.g. WorkgroupSize only on a constant. */
uint32_t gac_module_shader_capability(const gac_module *m);

#endif
