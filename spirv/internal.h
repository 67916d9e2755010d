/* Library-private helpers shared by the spirv/ sources. */
#ifndef GAC_SPIRV_INTERNAL_H
#define GAC_SPIRV_INTERNAL_H

#include "gac/module.h"

/* A bump allocator that frees everything at once with its module. */
gac_arena *gac_arena_create(void);
void gac_arena_destroy(gac_arena *a);
void *gac_arena_alloc(gac_arena *a, size_t size); /* zeroed, 8-byte aligned; aborts on OOM */

/* Makes room for ids below bound in the per-id tables. */
void gac_module_reserve_ids(gac_module *m, uint32_t bound);
/* Records the definition and, if use lists are built, links inst's uses. */
void gac_inst_link(gac_module *m, gac_inst *inst);
void gac_inst_unlink(gac_module *m, gac_inst *inst);

/* words in native byte order: words itself, or a swapped copy left in *owned
 * (NULL otherwise) for the caller to free. SPIRV-Tools 2023.1 decodes literal
 * strings of big-endian modules from the unswapped words, so it only ever
 * sees native words from us. */
const uint32_t *gac_native_words(const uint32_t *words, size_t num_words, uint32_t **owned);
/* gac_module_write in native byte order whatever the input's was. */
bool gac_module_write_native(const gac_module *m, uint32_t **words, size_t *num_words);

/* "OpTypeInt" for SpvOpTypeInt (SPIRV-Tools' names lack the prefix). */
const char *gac_opcode_name(uint16_t opcode);

/* Appends a function for the OpFunction `def`, with no parameters or blocks. */
gac_function *gac_function_append(gac_module *m, gac_inst *def);
/* Appends a block to f, headed by the OpLabel `label`. */
gac_block *gac_block_append(gac_module *m, gac_function *f, gac_inst *label);

/* An extended instruction's info in a generated table, by number or name. */
struct gac_async_copy_info;
const struct gac_async_copy_info *gac_ext_info_by_number(const struct gac_async_copy_info *infos, unsigned n,
                                                         uint32_t op);
const struct gac_async_copy_info *gac_ext_info_by_name(const struct gac_async_copy_info *infos, unsigned n,
                                                       const char *name, size_t len);

/* Which section a module-scope opcode belongs to. */
gac_section gac_section_of_opcode(uint16_t opcode);
bool gac_opcode_is_terminator(uint16_t opcode);

/* Allocation that aborts on failure (the library has no partial-OOM paths). */
void *gac_xmalloc(size_t n);
void *gac_xrealloc(void *p, size_t n);
char *gac_xstrdup(const char *s);

/* A growable string. */
typedef struct gac_strbuf {
  char *data;
  size_t len, cap;
} gac_strbuf;
void gac_strbuf_append(gac_strbuf *b, const char *s, size_t n);
void gac_strbuf_printf(gac_strbuf *b, const char *fmt, ...) GAC_PRINTF(2, 3);
static inline void gac_strbuf_puts(gac_strbuf *b, const char *s) {
  gac_strbuf_append(b, s, __builtin_strlen(s));
}

#endif
