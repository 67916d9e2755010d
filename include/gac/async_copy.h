/* NonSemantic.Codeplay.GroupAsyncCopies as typed instructions.
 * The operand names and order come from the grammar file
 * spirv/grammar/extinst.nonsemantic.codeplay.groupasynccopies.grammar.json. */
#ifndef GAC_ASYNC_COPY_H
#define GAC_ASYNC_COPY_H

#include "gac/builder.h"

#define GAC_ASYNC_COPIES_SET "NonSemantic.Codeplay.GroupAsyncCopies"

typedef enum gac_async_copy_op {
  GAC_GROUP_ASYNC_COPY_2D2D = 1,
  GAC_GROUP_ASYNC_COPY_3D3D = 2,
} gac_async_copy_op;

/* Every operand by its spec name. Fields a 2D2D copy lacks are 0. */
typedef struct gac_async_copy {
  gac_async_copy_op op;
  uint32_t result_type, result;
  uint32_t destination, destination_offset;
  uint32_t source, source_offset;
  uint32_t num_bytes_per_element, num_elements_per_line, num_lines, num_planes;
  uint32_t source_line_length, source_plane_area;
  uint32_t destination_line_length, destination_plane_area;
  uint32_t event;
} gac_async_copy;

/* Static description of one instruction of the set (generated from the grammar). */
typedef struct gac_async_copy_operand_info {
  const char *name;       /* as in the spec: "Destination Offset" */
  const char *identifier; /* for text: "DestinationOffset" */
  size_t field;           /* offsetof(gac_async_copy, ...) */
} gac_async_copy_operand_info;

typedef struct gac_async_copy_info {
  gac_async_copy_op op;
  const char *name;       /* "GroupAsyncCopy2D2D" */
  unsigned num_operands;  /* operands after the instruction number */
  const gac_async_copy_operand_info *operands;
} gac_async_copy_info;

const gac_async_copy_info *gac_async_copy_info_for(uint32_t op); /* NULL if unknown */
const gac_async_copy_info *gac_async_copy_info_by_name(const char *name, size_t len);
extern const unsigned gac_async_copy_grammar_revision;

static inline uint32_t *gac_async_copy_field(gac_async_copy *c, const gac_async_copy_operand_info *o) {
  return (uint32_t *)((char *)c + o->field);
}
static inline uint32_t gac_async_copy_get(const gac_async_copy *c, const gac_async_copy_operand_info *o) {
  return *(const uint32_t *)((const char *)c + o->field);
}

/* True if inst is an OpExtInst of the set (any instruction number). */
bool gac_is_async_copy_inst(const gac_module *m, const gac_inst *inst);
/* Decodes inst; false if it is not a well-formed copy of a known number and operand count. */
bool gac_async_copy_decode(const gac_module *m, const gac_inst *inst, gac_async_copy *out);
/* Writes copy's operands into inst, a copy of the same instruction number. */
void gac_async_copy_store(gac_module *m, gac_inst *inst, const gac_async_copy *copy);
/* Builds the instruction (importing the set and its extension when needed). */
gac_inst *gac_async_copy_build(gac_builder *b, const gac_async_copy *copy);

/* The next copy instruction after `prev` in module order (NULL starts), or NULL. */
gac_inst *gac_async_copy_next(const gac_module *m, const gac_inst *prev);
#define gac_foreach_async_copy(inst, m) \
  for (gac_inst *inst = gac_async_copy_next((m), NULL); inst; inst = gac_async_copy_next((m), inst))

#endif
