/* Writing: the header, then every instruction's words in layout order. */
#include <stdlib.h>
#include <string.h>

#include <spirv/unified1/spirv.h>

#include "internal.h"

typedef struct writer {
  uint32_t *words;
  size_t count;
} writer;

static void put_inst(gac_inst *inst, void *user) {
  writer *w = user;
  memcpy(w->words + w->count, inst->words, inst->num_words * sizeof(uint32_t));
  w->count += inst->num_words;
}

static void count_inst(gac_inst *inst, void *user) { *(size_t *)user += inst->num_words; }


static bool write_words(const gac_module *cm, uint32_t **out, size_t *num_words, bool native) {
  if (cm->bound > GAC_MAX_ID_BOUND)
    return false;
  gac_module *m = (gac_module *)cm; /* visiting does not modify */
  size_t total = 5;
  gac_module_visit(m, count_inst, &total);
  writer w = {.words = malloc(total * sizeof(uint32_t))};
  if (!w.words)
    return false;
  w.words[0] = m->magic;
  w.words[1] = m->version;
  w.words[2] = m->generator;
  w.words[3] = m->bound;
  w.words[4] = m->schema;
  w.count = 5;
  gac_module_visit(m, put_inst, &w);
  if (m->big_endian && !native)
    for (size_t i = 0; i < total; i++)
      w.words[i] = __builtin_bswap32(w.words[i]);
  *out = w.words;
  *num_words = total;
  return true;
}

bool gac_module_write(const gac_module *m, uint32_t **words, size_t *num_words) {
  return write_words(m, words, num_words, false);
}

bool gac_module_write_native(const gac_module *m, uint32_t **words, size_t *num_words) {
  return write_words(m, words, num_words, true);
}

const uint32_t *gac_native_words(const uint32_t *words, size_t num_words, uint32_t **owned) {
  *owned = NULL;
  if (num_words == 0 || words[0] != __builtin_bswap32(SpvMagicNumber))
    return words;
  *owned = gac_xmalloc(num_words * sizeof(uint32_t));
  for (size_t i = 0; i < num_words; i++)
    (*owned)[i] = __builtin_bswap32(words[i]);
  return *owned;
}
