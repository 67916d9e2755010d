/* Writing: the header, then every instruction's words in layout order. */
#include <stdlib.h>
#include <string.h>

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

static uint32_t bswap32(uint32_t x) { return __builtin_bswap32(x); }

bool gac_module_write(const gac_module *cm, uint32_t **out, size_t *num_words) {
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
  if (m->big_endian)
    for (size_t i = 0; i < total; i++)
      w.words[i] = bswap32(w.words[i]);
  *out = w.words;
  *num_words = total;
  return true;
}
