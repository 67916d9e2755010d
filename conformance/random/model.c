/* The host model: runs a case's ops (rt.h) in program order for each
 * work-group on host copies of the buffers. The generator made every case
 * free of races, so applying each copy at once, when it is issued, gives
 * the only result a correct implementation may produce; the bytes no copy
 * and no work-item writes keep their initial (random) values. */
#include <stdlib.h>
#include <string.h>

#include "rt.h"

/* A 3D copy between global region `g` and tile `l` (either direction);
 * `src_off` replaces the source offset (an else branch). */
static void apply_copy(const rt_copy *cp, unsigned char *g, unsigned char *l, uint64_t src_off, uint64_t t_step) {
  const uint64_t *v = cp->v;
  uint64_t goff = cp->to_local ? src_off : v[O_GOFF], loff = cp->to_local ? v[O_LOFF] : src_off;
  goff += t_step;
  size_t line_bytes = (size_t)(v[O_PER_LINE] * cp->elem);
  for (uint64_t p = 0; p < v[O_PLANES]; p++)
    for (uint64_t k = 0; k < v[O_LINES]; k++) {
      unsigned char *gp = g + (goff + p * v[O_GPLANE] + k * v[O_GLINE]) * cp->elem;
      unsigned char *lp = l + (loff + p * v[O_LPLANE] + k * v[O_LLINE]) * cp->elem;
      if (cp->to_local)
        memcpy(lp, gp, line_bytes);
      else
        memcpy(gp, lp, line_bytes);
    }
}

static bool cond_true(const rt_case *c, int cond) { return c->cond_value[cond] != 0; }

static void run_loop(const rt_case *c, unsigned char *base[RT_MAX_GBUF], unsigned char *tile[RT_MAX_TILE]) {
  const rt_loop *l = &c->loop;
  for (uint64_t t = 0; t < l->trip; t++) {
    uint32_t at = 0;
    for (unsigned k = 0; k < l->ncopies; k++) {
      const rt_copy *cp = &c->ops[k].u.copy;
      apply_copy(cp, base[cp->gbuf], tile[k], cp->v[O_GOFF], t * l->step[k]);
    }
    if (l->mid)
      for (uint32_t i = 0; i < c->tile_size[0]; i++)
        tile[l->ncopies][i] = (unsigned char)(tile[0][i] + c->fill_add[l->ncopies]);
    for (unsigned k = 0; k < l->ncopies; k++) {
      const rt_copy *cp = &c->ops[k].u.copy;
      uint32_t bytes = (uint32_t)(cp->v[O_PER_LINE] * cp->v[O_LINES] * cp->v[O_PLANES] * cp->elem);
      const unsigned char *from = k == 0 && l->mid ? tile[l->ncopies] : tile[k];
      memcpy(base[2] + t * l->out_per_iter + at, from, bytes);
      at += bytes;
    }
  }
}

void rt_model(const rt_case *c, rt_buffers *b) {
  memset(b, 0, sizeof *b);
  rt_rng r = {c->seed ^ (c->index * 0xd1b54a32d192ed03ull) ^ 0x5eed};
  for (unsigned g = 0; g < RT_MAX_GBUF; g++) {
    if (!c->gbuf_used[g])
      continue;
    b->size[g] = (size_t)c->region[g] * c->groups;
    b->init[g] = malloc(b->size[g]);
    b->want[g] = malloc(b->size[g]);
    for (size_t i = 0; i < b->size[g]; i++)
      b->init[g][i] = (unsigned char)(rt_next(&r) >> 56);
    memcpy(b->want[g], b->init[g], b->size[g]);
  }
  unsigned char *tile[RT_MAX_TILE] = {0};
  for (unsigned t = 0; t < c->ntile; t++)
    tile[t] = calloc(c->tile_size[t], 1);
  for (unsigned grp = 0; grp < c->groups; grp++) {
    unsigned char *base[RT_MAX_GBUF] = {0};
    for (unsigned g = 0; g < RT_MAX_GBUF; g++)
      if (c->gbuf_used[g])
        base[g] = b->want[g] + (size_t)grp * c->region[g];
    if (c->has_loop) {
      run_loop(c, base, tile);
      continue;
    }
    for (unsigned i = 0; i < c->nops; i++) {
      const rt_op *op = &c->ops[i];
      const rt_items *it = &op->u.items;
      if (op->kind == OP_FILL) {
        for (uint32_t k = 0; k < it->len; k++)
          tile[it->tile][k] = (unsigned char)(k * it->mul + it->add);
      } else if (op->kind == OP_READOUT) {
        for (uint32_t k = 0; k < it->len; k++)
          base[it->gbuf][it->goff + k] = (unsigned char)(tile[it->tile][it->loff + k] + it->add);
      } else if (op->kind == OP_COPY) {
        const rt_copy *cp = &op->u.copy;
        if (cp->cond >= 0 && !cond_true(c, cp->cond))
          continue;
        uint64_t src_off = cp->to_local ? cp->v[O_GOFF] : cp->v[O_LOFF];
        if (cp->alt_cond >= 0 && !cond_true(c, cp->alt_cond))
          src_off = cp->alt;
        apply_copy(cp, base[cp->gbuf], tile[cp->tile], src_off, 0);
      }
    }
  }
  for (unsigned t = 0; t < c->ntile; t++)
    free(tile[t]);
}

void rt_buffers_free(rt_buffers *b) {
  for (unsigned g = 0; g < RT_MAX_GBUF; g++) {
    free(b->init[g]);
    free(b->want[g]);
  }
}

bool rt_compare(const rt_case *c, const rt_buffers *b, unsigned char *const got[RT_MAX_GBUF], unsigned *buf,
                size_t *offset) {
  for (unsigned g = 0; g < RT_MAX_GBUF; g++) {
    if (!c->gbuf_used[g])
      continue;
    for (size_t i = 0; i < b->size[g]; i++)
      if (got[g][i] != b->want[g][i]) {
        *buf = g, *offset = i;
        return false;
      }
  }
  return true;
}
