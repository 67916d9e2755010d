/* gac_import_library: the functions of a library module (a runtime the
 * lowerings call, compiled from OpenCL C) copied into a module, as a linker
 * would, without one: SPIRV-Tools' linker has no C interface, and a pass
 * must not run a subprocess. Ids are renumbered on first sight; types and
 * constants equal to the module's are shared (SPIR-V allows one of each);
 * builtin inputs become the module's own; linkage and names go. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "gac/builder.h"
#include "internal.h"

typedef struct importer {
  gac_module *m;
  const gac_module *lib;
  uint32_t *map; /* lib id -> m id, 0 until seen */
} importer;

static uint32_t map_id(void *user, uint32_t id) {
  importer *im = user;
  if (id >= im->lib->bound)
    return id; /* cannot happen for a module that was read */
  if (!im->map[id])
    im->map[id] = gac_module_new_id(im->m);
  return im->map[id];
}

/* inst copied into m with every id mapped, its result type included. */
static gac_inst *copy_inst(importer *im, const gac_inst *inst) {
  gac_inst *c = gac_inst_clone(im->m, inst, map_id, im);
  if (c->type_id)
    gac_inst_set_id_operand(im->m, c, 0, map_id(im, inst->type_id));
  return c;
}

static uint32_t decoration_of(const gac_module *lib, uint32_t id, uint32_t decoration) {
  gac_foreach_inst(d, &lib->sections[GAC_SECTION_ANNOTATION])
    if (d->opcode == SpvOpDecorate && d->num_words >= 4 && d->words[1] == id && d->words[2] == decoration)
      return d->num_words > 3 ? d->words[3] : 1;
  return 0;
}

/* A type or constant: the module's equal one, or a copy. */
static void import_global(importer *im, const gac_inst *g) {
  gac_module *m = im->m;
  bool is_variable = g->opcode == SpvOpVariable;
  if (is_variable && g->num_words >= 4 && g->words[3] == SpvStorageClassInput) {
    uint32_t builtin = decoration_of(im->lib, g->result_id, SpvDecorationBuiltIn);
    const gac_inst *ptr = gac_def(im->lib, g->type_id);
    if (builtin && ptr) {
      im->map[g->result_id] = gac_require_builtin_input(m, builtin, map_id(im, gac_operand_word(ptr, 2)));
      return;
    }
  }
  gac_inst *copy = copy_inst(im, g);
  /* The copy has a fresh result id; an equal global of m is used instead. */
  unsigned first = 1 + (copy->type_id != 0) + (copy->result_id != 0);
  uint32_t same = is_variable || g->opcode == SpvOpUndef
                      ? 0
                      : gac_find_global(m, copy->opcode, copy->type_id, copy->words + first, copy->num_words - first);
  if (same) {
    im->map[g->result_id] = same;
    return; /* the copy, never inserted, stays in the arena */
  }
  gac_list_append(m, &m->sections[GAC_SECTION_GLOBAL], copy);
}

bool gac_import_library(gac_module *m, const gac_module *lib, const char *const names[], uint32_t ids[],
                        unsigned n, gac_diag *diag) {
  importer im = {m, lib, calloc(lib->bound, sizeof(uint32_t))};
  if (!im.map) {
    gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "import.memory", "out of memory importing a library");
    return false;
  }
  gac_foreach_inst(c, &lib->sections[GAC_SECTION_CAPABILITY])
    if (c->words[1] != SpvCapabilityLinkage)
      gac_require_capability(m, c->words[1]);
  gac_foreach_inst(x, &lib->sections[GAC_SECTION_EXT_INST_IMPORT])
    im.map[x->result_id] = gac_require_ext_inst_import(m, gac_inst_string(x, 1));
  gac_foreach_inst(g, &lib->sections[GAC_SECTION_GLOBAL])
    import_global(&im, g);
  /* Decorations but linkage, and none on what became m's own. */
  gac_foreach_inst(d, &lib->sections[GAC_SECTION_ANNOTATION]) {
    if (d->opcode != SpvOpDecorate || d->num_words < 3 || d->words[2] == SpvDecorationLinkageAttributes ||
        d->words[1] >= lib->bound)
      continue;
    const gac_inst *target = gac_def(lib, d->words[1]);
    bool shared = target && target->list == &lib->sections[GAC_SECTION_GLOBAL] &&
                  (target->opcode != SpvOpVariable || target->words[3] == SpvStorageClassInput);
    if (!shared)
      gac_list_append(m, &m->sections[GAC_SECTION_ANNOTATION], copy_inst(&im, d));
  }
  /* Every function first, then their bodies: a call may come before its callee. */
  unsigned num_functions = 0;
  for (const gac_function *f = lib->first_function; f; f = f->next)
    num_functions += f->first_block != NULL;
  gac_function **copies = calloc(num_functions + 1, sizeof *copies);
  unsigned c = 0;
  for (const gac_function *f = lib->first_function; f && copies; f = f->next) {
    if (!f->first_block)
      continue; /* a declaration: the library must define what it calls */
    copies[c] = gac_function_create(m, map_id(&im, f->def->type_id), f->def->words[3],
                                    map_id(&im, f->def->words[4]));
    im.map[f->def->result_id] = copies[c++]->def->result_id;
  }
  c = 0;
  for (const gac_function *f = lib->first_function; f && copies; f = f->next) {
    if (!f->first_block)
      continue;
    gac_function *copy = copies[c++];
    gac_foreach_inst(p, &f->params)
      gac_list_append(m, &copy->params, copy_inst(&im, p));
    for (const gac_block *b = f->first_block; b; b = b->next) {
      gac_block *to = gac_block_create(m, copy, NULL);
      gac_inst *label = to->insts.first;
      gac_inst_remove(m, label);
      gac_foreach_inst(i, &b->insts)
        gac_list_append(m, &to->insts, copy_inst(&im, i));
    }
    const char *name = gac_linkage_name(lib, f->def->result_id);
    for (unsigned k = 0; name && k < n; k++)
      if (strcmp(names[k], name) == 0) {
        ids[k] = copy->def->result_id;
        /* Named for whoever reads the result; only the exports asked for:
         * llvm-spirv-15 takes names like spirv.llvm_memset_* for intrinsics. */
        gac_builder debug = gac_builder_at_end(m, &m->sections[GAC_SECTION_DEBUG_NAME]);
        gac_build_ops(&debug, SpvOpName, 0, 0, GAC_ID(copy->def->result_id), GAC_STR(name));
      }
  }
  bool ok = copies != NULL;
  free(copies);
  for (const gac_function *f = lib->first_function; f; f = f->next)
    if (!f->first_block && im.map[f->def->result_id]) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "import.undefined",
                   "the library calls %s, which it does not define", gac_linkage_name(lib, f->def->result_id));
      ok = false;
    }
  for (unsigned k = 0; k < n; k++)
    if (!ids[k]) {
      gac_diag_add(diag, GAC_ERROR, GAC_NO_OFFSET, 0, "import.missing", "the library does not export %s",
                   names[k]);
      ok = false;
    }
  free(im.map);
  return ok;
}
