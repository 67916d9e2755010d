/* Building instructions, types, constants and blocks. */
#ifndef GAC_BUILDER_H
#define GAC_BUILDER_H

#include "gac/module.h"

/* One operand for gac_build: an id, a literal word or a string. */
typedef struct gac_op {
  uint8_t kind; /* gac_operand_kind: GAC_OPERAND_ID, _LITERAL or _STRING */
  uint32_t value;
  const char *str;
} gac_op;

#define GAC_ID(x) ((gac_op){GAC_OPERAND_ID, (x), NULL})
#define GAC_LIT(x) ((gac_op){GAC_OPERAND_LITERAL, (x), NULL})
#define GAC_STR(s) ((gac_op){GAC_OPERAND_STRING, 0, (s)})

/* Where new instructions go: before `before` in `list`, or at its end. */
typedef struct gac_builder {
  gac_module *module;
  gac_inst_list *list;
  gac_inst *before;
} gac_builder;

gac_builder gac_builder_at_end(gac_module *m, gac_inst_list *list);
gac_builder gac_builder_before(gac_module *m, gac_inst *inst);
gac_builder gac_builder_after(gac_module *m, gac_inst *inst);

/* Creates a detached instruction. result_id: 0 for none, GAC_NEW_ID for a
 * fresh id, or an explicit id. */
#define GAC_NEW_ID UINT32_MAX
gac_inst *gac_inst_create(gac_module *m, uint16_t opcode, uint32_t type_id,
                          uint32_t result_id, const gac_op *ops, unsigned num_ops);

/* A detached copy of inst whose result id and id operands (not its type)
 * are passed through map. */
gac_inst *gac_inst_clone(gac_module *m, const gac_inst *inst, uint32_t (*map)(void *user, uint32_t id), void *user);

/* Creates and inserts; returns the instruction (result in ->result_id). */
gac_inst *gac_build(gac_builder *b, uint16_t opcode, uint32_t type_id, uint32_t result_id,
                    const gac_op *ops, unsigned num_ops);
#define gac_build_ops(b, opcode, type, result, ...)                                    \
  gac_build((b), (opcode), (type), (result), (const gac_op[]){__VA_ARGS__},           \
            sizeof((const gac_op[]){__VA_ARGS__}) / sizeof(gac_op))

/* Find-or-create in the global section (types and constants are unique). */
uint32_t gac_type_void(gac_module *m);
uint32_t gac_type_bool(gac_module *m);
uint32_t gac_type_int(gac_module *m, uint32_t width, uint32_t signedness);
uint32_t gac_type_float(gac_module *m, uint32_t width);
uint32_t gac_type_event(gac_module *m);
uint32_t gac_type_vector(gac_module *m, uint32_t component, uint32_t count);
uint32_t gac_type_array(gac_module *m, uint32_t element, uint32_t length /* a constant's id */);
uint32_t gac_type_pointer(gac_module *m, uint32_t storage_class, uint32_t pointee);
uint32_t gac_type_function(gac_module *m, uint32_t ret, const uint32_t *params, unsigned n);
uint32_t gac_constant_int(gac_module *m, uint32_t type, uint64_t value);
uint32_t gac_constant_null(gac_module *m, uint32_t type);

/* The global (type, constant) with this opcode, result type and words after
 * the result id, or 0. */
uint32_t gac_find_global(const gac_module *m, uint16_t opcode, uint32_t type_id, const uint32_t *words,
                         unsigned n);

/* Copies every function of `lib` into m, with the types and constants they
 * need (shared with m's where equal), its variables, and its builtin inputs
 * as m's own; linkage goes. ids[i] is the function lib exports as names[i]
 * (0 if none). False, with an error, for what it cannot copy. */
bool gac_import_library(gac_module *m, const gac_module *lib, const char *const names[], uint32_t ids[],
                        unsigned n, gac_diag *diag);

/* Module-level instructions that must be unique. */
void gac_require_capability(gac_module *m, uint32_t capability);
void gac_require_extension(gac_module *m, const char *name);
uint32_t gac_require_ext_inst_import(gac_module *m, const char *name);
uint32_t gac_find_ext_inst_import(const gac_module *m, const char *name);

/* Functions and blocks. */
gac_function *gac_function_create(gac_module *m, uint32_t return_type, uint32_t control,
                                  uint32_t function_type);
uint32_t gac_function_add_param(gac_module *m, gac_function *f, uint32_t type);
/* A new block with a fresh label, after `after` (or at the end if NULL). */
gac_block *gac_block_create(gac_module *m, gac_function *f, gac_block *after);
static inline uint32_t gac_block_label(const gac_block *b) {
  return b->insts.first ? b->insts.first->result_id : 0;
}
gac_inst *gac_block_terminator(const gac_block *b);
/* The first instruction of f's entry block after its OpLabel and the
 * OpVariables SPIR-V requires there first; NULL if the block has nothing
 * else (a block without its terminator yet). Where code that opens the
 * function goes. */
gac_inst *gac_function_after_variables(const gac_function *f);

/* Moves everything after `inst` into a new block placed right after inst's
 * block, and points the OpPhi instructions of the successors at the new
 * block. inst's block is left without a terminator, for the caller to end. */
gac_block *gac_block_split_after(gac_module *m, gac_inst *inst);

/* The operand indices of the labels a terminator branches to (at most max;
 * a label may repeat); their number. */
unsigned gac_terminator_targets(const gac_inst *term, unsigned *operands, unsigned max);
/* The blocks b's terminator branches to (at most max; a label may repeat). */
unsigned gac_block_successors(const gac_module *m, const gac_block *b, gac_block **out, unsigned max);

/* Removes a function with all its instructions, and the names and
 * decorations of its result and parameters. */
void gac_function_remove(gac_module *m, gac_function *f);

/* Removes block b, with its instructions, from its function (nothing
 * may branch to it any more). */
void gac_block_remove(gac_module *m, gac_block *b);

/* Removes f's blocks that no path from its entry reaches, the OpPhi pairs
 * that name them, and the names and decorations of what they defined. */
void gac_function_remove_unreachable_blocks(gac_module *m, gac_function *f);

/* The name in id's LinkageAttributes decoration (import or export), or NULL. */
const char *gac_linkage_name(const gac_module *m, uint32_t id);

/* The function imported under `name` (an OpFunction without blocks, with an
 * Import LinkageAttributes decoration, placed before every definition as the
 * logical layout asks), created with the given type if the module lacks it.
 * Returns its id. Adds the Linkage capability. */
uint32_t gac_require_import_function(gac_module *m, const char *name, uint32_t return_type,
                                     const uint32_t *param_types, unsigned num_params);

/* Lists global variable `var` in every entry point's interface that does not
 * list it (from SPIR-V 1.4 every global an entry point uses must be listed). */
void gac_add_to_interfaces(gac_module *m, uint32_t var);

/* Removes the names and decorations whose target is no longer defined:
 * what a pass leaves when it deletes an instruction something named. */
void gac_remove_dangling_names(gac_module *m);
/* Drops the non-semantic instructions (OpExtInst of a "NonSemantic." set)
 * that use an id nothing defines any more: a pass removed what they
 * describe, and SPV_KHR_non_semantic_info lets a tool drop them (repeated
 * while a drop leaves others dangling). */
void gac_remove_dangling_non_semantic(gac_module *m);

/* OpVariable in the global section decorated BuiltIn `builtin`, created
 * (Input, of type `type`, with BuiltIn and Constant decorations, and listed
 * in every entry point's interface) if the module has none. */
uint32_t gac_require_builtin_input(gac_module *m, uint32_t builtin, uint32_t type);

#endif
