/* The conformance suite, shared by every device's runner (OpenCL on PoCL:
 * runner.c; CUDA and HIP: gpu/runner.c): the cases, their host reference, the
 * table. A backend loads a kernel of a program and runs it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

/* ---- the copy kernels and their reference ---- */

/* One side of a copy: offset, line length and plane area, in elements. */
typedef struct side {
  uint64_t off, line, plane;
} side;

typedef struct shape {
  uint64_t bpe, per_line, lines, planes;
} shape;

/* Elements a side spans for one group. */
static uint64_t extent(const shape *s, const side *d) {
  if (!s->planes || !s->lines || !s->per_line)
    return d->off + 1; /* an empty copy: keep buffers non-empty */
  return d->off + (s->planes - 1) * d->plane + (s->lines - 1) * d->line + s->per_line;
}

/* The reference: copy the shape from src (at `from`) to dst (at `to`). */
static void copy_ref(const shape *s, const unsigned char *src, side from, unsigned char *dst, side to) {
  for (uint64_t p = 0; p < s->planes; p++)
    for (uint64_t l = 0; l < s->lines; l++)
      memcpy(dst + (to.off + p * to.plane + l * to.line) * s->bpe,
             src + (from.off + p * from.plane + l * from.line) * s->bpe, s->per_line * s->bpe);
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed) {
  uint32_t x = 2463534242u ^ seed;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    p[i] = (unsigned char)x;
  }
}

typedef struct copy_case {
  const char *name; /* copy2d or copy3d */
  shape s;
  side src, tile, dst;
  uint64_t groups, local;
} copy_case;

static bool check_bytes(const unsigned char *got, const unsigned char *want, size_t n, char *why, size_t why_len) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) {
      snprintf(why, why_len, "byte %zu: got 0x%02x, want 0x%02x", i, got[i], want[i]);
      return false;
    }
  return true;
}

/* program: "copies" (OpenCL C 1.2), "copies-cl20" or "copies-cl30". */
static bool run_copy(const gac_backend *o, const char *program, const copy_case *c, double *ms, char *why,
                     size_t why_len) {
  void *k = o->load(o->self, program, c->name, why, why_len);
  if (!k)
    return false;
  const shape *s = &c->s;
  /* Each group's tile of global memory starts `stride` elements after the previous one. */
  uint64_t stride = extent(s, &c->src) > extent(s, &c->dst) ? extent(s, &c->src) : extent(s, &c->dst);
  size_t src_bytes = (size_t)(stride * c->groups * s->bpe), dst_bytes = src_bytes;
  size_t tile_bytes = (size_t)(extent(s, &c->tile) * s->bpe);
  unsigned char *src = malloc(src_bytes), *dst = malloc(dst_bytes), *want = malloc(dst_bytes);
  fill_pattern(src, src_bytes, 1);
  memset(dst, 0xee, dst_bytes);
  memset(want, 0xee, dst_bytes);
  for (uint64_t g = 0; g < c->groups; g++) {
    side from = c->src, to = c->dst;
    from.off += g * stride;
    to.off += g * stride;
    copy_ref(s, src, from, want, to);
  }
  arg args[17];
  unsigned n = 0;
  args[n++] = BUF(src, src_bytes);
  args[n++] = BUF(dst, dst_bytes);
  args[n++] = LOCAL(tile_bytes);
  args[n++] = U64(s->bpe);
  args[n++] = U64(s->per_line);
  args[n++] = U64(s->lines);
  bool is3d = strcmp(c->name, "copy3d") == 0;
  if (is3d)
    args[n++] = U64(s->planes);
  const side *sides[3] = {&c->src, &c->tile, &c->dst};
  for (unsigned i = 0; i < 3; i++) {
    args[n++] = U64(sides[i]->off);
    args[n++] = U64(sides[i]->line);
    if (is3d)
      args[n++] = U64(sides[i]->plane);
  }
  args[n++] = U64(stride);
  size_t global = (size_t)(c->groups * c->local), local = (size_t)c->local;
  *ms = o->run(o->self, k, args, n, 1, &global, &local, why, why_len);
  bool ok = *ms >= 0 && check_bytes(dst, want, dst_bytes, why, why_len);
  free(src);
  free(dst);
  free(want);
  o->release(o->self, k);
  return ok;
}

/* ---- constant shapes, typed elements, shared events, branches ---- */

typedef struct shapes_case {
  const char *program; /* shapes-<variant>, compiled with its -D values */
  size_t elem, per_line, lines, src_line, groups, local;
  int flip;
} shapes_case;

static bool run_shapes(const gac_backend *o, const shapes_case *c, double *ms, char *why, size_t why_len) {
  void *k = o->load(o->self, c->program, "shapes", why, why_len);
  if (!k)
    return false;
  size_t group_elems = c->src_line * c->lines, bytes = group_elems * c->groups * c->elem;
  unsigned char *src = malloc(bytes), *dst = malloc(bytes), *want = malloc(bytes);
  fill_pattern(src, bytes, 2);
  memset(dst, 0xee, bytes);
  memset(want, 0xee, bytes);
  shape s = {c->elem, c->per_line, c->lines, 1};
  for (size_t g = 0; g < c->groups; g++) {
    side at = {g * group_elems, c->src_line, 0};
    copy_ref(&s, src, at, want, at);
  }
  size_t tile = c->per_line * c->lines * c->elem;
  arg args[] = {BUF(src, bytes), BUF(dst, bytes), LOCAL(tile), LOCAL(tile), I32(c->flip)};
  size_t global = c->groups * c->local;
  *ms = o->run(o->self, k, args, 5, 1, &global, &c->local, why, why_len);
  bool ok = *ms >= 0 && check_bytes(dst, want, bytes, why, why_len);
  free(src);
  free(dst);
  free(want);
  o->release(o->self, k);
  return ok;
}

/* ---- kernels that compute with the copied data ---- */

enum { T = 16 };

static bool check_floats(const float *got, const float *want, size_t n, char *why, size_t why_len) {
  for (size_t i = 0; i < n; i++)
    if (got[i] != want[i]) { /* inputs are small integers: results are exact */
      snprintf(why, why_len, "element %zu: got %g, want %g", i, got[i], want[i]);
      return false;
    }
  return true;
}

static float *small_ints(size_t n, unsigned seed) {
  float *f = malloc(n * sizeof(float));
  uint32_t x = 88172645u ^ seed;
  for (size_t i = 0; i < n; i++) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    f[i] = (float)(x % 64);
  }
  return f;
}

/* Runs a kernel whose result is n floats in `out`, compares them with
 * `want`, and frees the three arrays and the kernel. */
static bool run_float_kernel(const gac_backend *o, void *k, arg *args, unsigned nargs, unsigned dims,
                             const size_t *global, const size_t *local, float *in, float *out, float *want,
                             size_t n, double *ms, char *why, size_t why_len) {
  *ms = o->run(o->self, k, args, nargs, dims, global, local, why, why_len);
  bool ok = *ms >= 0 && check_floats(out, want, n, why, why_len);
  free(in);
  free(out);
  free(want);
  o->release(o->self, k);
  return ok;
}

/* ---- tiles loaded with plain code (tile_loads.cl; cp.async on the PTX path) ---- */

enum { TL = 64 }; /* tile_loads.cl's L */

/* kernel "tile_sum", "twice" or "read_back" over `groups` groups of TL
 * work-items; read_back with `rows` rows of its tile loaded (1-4). */
static bool run_tile_loads(const gac_backend *o, const char *kernel, size_t groups, int rows, double *ms, char *why,
                           size_t why_len) {
  void *k = o->load(o->self, "tile-loads", kernel, why, why_len);
  if (!k)
    return false;
  size_t items = groups * TL, in_n = 4 * 4 * items, out_n = 4 * 2 * items; /* floats */
  float *a = small_ints(in_n, 6), *b = small_ints(in_n, 7), *out = calloc(out_n, sizeof(float)),
        *want = calloc(out_n, sizeof(float));
  int where[TL];
  for (int l = 0; l < TL; l++)
    where[l] = l;
  for (size_t g = 0; g < items; g++)
    for (size_t c = 0; c < 4; c++) {
      size_t grp = g / TL, l = g % TL, first = grp * TL; /* first work-item of its group */
      if (!strcmp(kernel, "tile_sum")) {
        size_t base = grp * 2 * TL;
        want[(2 * g) * 4 + c] = a[(base + 2 * TL - 1 - l) * 4 + c] + b[(base + (l ^ 1)) * 4 + c];
        want[(2 * g + 1) * 4 + c] = a[(base + l) * 4 + c] * b[(base + 2 * TL - 1 - l) * 4 + c];
      } else if (!strcmp(kernel, "twice")) {
        want[g * 4 + c] = b[(first + TL - 1 - l) * 4 + c];
      } else {
        float sum = a[g * 4 + c];
        for (int r = 0; r < rows; r++)
          sum += a[(first + TL - 1 - l + (size_t)r * items) * 4 + c];
        want[g * 4 + c] = sum;
      }
    }
  arg tile_sum_args[] = {BUF(a, in_n * sizeof(float)), BUF(b, in_n * sizeof(float)), BUF(out, out_n * sizeof(float))};
  arg twice_args[] = {BUF(a, in_n * sizeof(float)), BUF(b, in_n * sizeof(float)), BUF(where, sizeof where),
                      BUF(out, out_n * sizeof(float))};
  arg read_back_args[] = {BUF(a, in_n * sizeof(float)), BUF(out, out_n * sizeof(float)), I32(rows)};
  bool sum = !strcmp(kernel, "tile_sum"), two = !strcmp(kernel, "twice");
  arg *args = sum ? tile_sum_args : two ? twice_args : read_back_args;
  unsigned nargs = sum ? 3 : two ? 4 : 3;
  size_t global = items, local = TL;
  bool ok = run_float_kernel(o, k, args, nargs, 1, &global, &local, a, out, want, out_n, ms, why, why_len);
  free(b);
  return ok;
}

static bool run_stencil(const gac_backend *o, size_t n, double *ms, char *why, size_t why_len) {
  void *k = o->load(o->self, "compute", "stencil", why, why_len);
  if (!k)
    return false;
  size_t pitch = n + 2;
  float *in = small_ints(pitch * pitch, 3), *out = calloc(n * n, sizeof(float)), *want = malloc(n * n * sizeof(float));
  for (size_t y = 1; y <= n; y++)
    for (size_t x = 1; x <= n; x++)
      want[(y - 1) * n + x - 1] = in[y * pitch + x] * 0.5f + 0.125f * (in[(y - 1) * pitch + x] + in[(y + 1) * pitch + x] +
                                                                      in[y * pitch + x - 1] + in[y * pitch + x + 1]);
  arg args[] = {BUF(in, pitch * pitch * sizeof(float)), BUF(out, n * n * sizeof(float)), U64(n),
                LOCAL((T + 2) * (T + 2) * sizeof(float))};
  size_t global[2] = {n, n}, local[2] = {T, T};
  return run_float_kernel(o, k, args, 4, 2, global, local, in, out, want, n * n, ms, why, why_len);
}

static bool run_transpose(const gac_backend *o, size_t n, double *ms, char *why, size_t why_len) {
  void *k = o->load(o->self, "compute", "transpose", why, why_len);
  if (!k)
    return false;
  float *in = small_ints(n * n, 4), *out = calloc(n * n, sizeof(float)), *want = malloc(n * n * sizeof(float));
  for (size_t y = 0; y < n; y++)
    for (size_t x = 0; x < n; x++)
      want[x * n + y] = in[y * n + x];
  arg args[] = {BUF(in, n * n * sizeof(float)), BUF(out, n * n * sizeof(float)), U64(n),
                LOCAL(T * T * sizeof(float)), LOCAL(T * T * sizeof(float))};
  size_t global[2] = {n, n}, local[2] = {T, T};
  return run_float_kernel(o, k, args, 5, 2, global, local, in, out, want, n * n, ms, why, why_len);
}

static bool run_double_buffer(const gac_backend *o, const char *kernel, size_t rows, size_t cols, size_t count,
                              size_t groups, size_t local, double *ms, char *why, size_t why_len) {
  void *k = o->load(o->self, "compute", kernel, why, why_len);
  if (!k)
    return false;
  size_t pitch = cols + 3, in_n = groups * count * rows * pitch, out_n = groups * count * rows;
  float *in = small_ints(in_n, 5), *out = calloc(out_n, sizeof(float)), *want = malloc(out_n * sizeof(float));
  for (size_t g = 0; g < groups; g++)
    for (size_t i = 0; i < count; i++)
      for (size_t r = 0; r < rows; r++) {
        float s = 0;
        for (size_t c = 0; c < cols; c++)
          s += in[((g * count + i) * rows + r) * pitch + c];
        want[(g * count + i) * rows + r] = s;
      }
  arg args[] = {BUF(in, in_n * sizeof(float)), BUF(out, out_n * sizeof(float)), U64(rows), U64(cols),
                U64(pitch), U64(count), LOCAL(2 * rows * cols * sizeof(float))};
  size_t global = groups * local;
  return run_float_kernel(o, k, args, 7, 1, &global, &local, in, out, want, out_n, ms, why, why_len);
}

/* OpenCL's 1D copies: element i of each group's `n` comes from src[(g n + i) stride]. */
static bool run_copy1d(const gac_backend *o, size_t n, size_t stride, size_t groups, size_t local, double *ms,
                       char *why, size_t why_len) {
  void *k = o->load(o->self, "copies", "copy1d", why, why_len);
  if (!k)
    return false;
  float *in = small_ints(groups * n * stride, 6), *out = calloc(groups * n, sizeof(float));
  float *want = malloc(groups * n * sizeof(float));
  for (size_t i = 0; i < groups * n; i++)
    want[i] = in[i * stride];
  arg args[] = {BUF(in, groups * n * stride * sizeof(float)), BUF(out, groups * n * sizeof(float)),
                LOCAL(n * sizeof(float)), U64(n), U64(stride)};
  size_t global = groups * local;
  return run_float_kernel(o, k, args, 5, 1, &global, &local, in, out, want, groups * n, ms, why, why_len);
}

/* Chained events (kernels/chains.cl): each group's 3 n floats are stage
 * twice (g 1000 + i), then its part of src plus one. */
static bool run_chain(const gac_backend *o, const char *kernel, size_t n, int phi, size_t groups, size_t local,
                      double *ms, char *why, size_t why_len) {
  void *k = o->load(o->self, "chains", kernel, why, why_len);
  if (!k)
    return false;
  float *in = small_ints(groups * n, 9), *out = calloc(groups * 3 * n, sizeof(float));
  float *want = malloc(groups * 3 * n * sizeof(float));
  for (size_t g = 0; g < groups; g++)
    for (size_t i = 0; i < n; i++) {
      want[g * 3 * n + i] = want[g * 3 * n + n + i] = (float)(g * 1000 + i);
      want[g * 3 * n + 2 * n + i] = in[g * n + i] + 1.0f;
    }
  arg args[] = {BUF(in, groups * n * sizeof(float)), BUF(out, groups * 3 * n * sizeof(float)),
                LOCAL(n * sizeof(float)), LOCAL(n * sizeof(float)), U64(n), I32(phi)};
  size_t global = groups * local;
  return run_float_kernel(o, k, args, 6, 1, &global, &local, in, out, want, groups * 3 * n, ms, why, why_len);
}

/* ---- copy fences (kernels/fences.cl) ---- */

/* One of the six kernels: import_after_export_* or export_after_import_*
 * with "local", "global" or "both" (see kernels/fences.cl), E and I floats
 * per group; b and c are checked. */
static bool run_fence(const gac_backend *o, const char *program, const char *kernel, size_t E, size_t I, size_t G,
                      size_t local, double *ms, char *why, size_t why_len) {
  void *k = o->load(o->self, program, kernel, why, why_len);
  if (!k)
    return false;
  bool import_after = strncmp(kernel, "import", 6) == 0;
  const char *mem = strrchr(kernel, '_') + 1;
  size_t cn = import_after ? G * I : G * E;
  float *a = small_ints(G * E + G * I, 13), *b = small_ints(G * E, 5), *c = calloc(cn, sizeof(float));
  float *want_b = malloc(G * E * sizeof(float)), *want_c = malloc(cn * sizeof(float));
  memcpy(want_b, b, G * E * sizeof(float));
  for (size_t g = 0; g < G; g++) {
    if (import_after) {
      for (size_t i = 0; i < E; i++)
        want_b[g * E + i] = a[g * E + i];
      for (size_t i = 0; i < I; i++) /* local: a's second part; else what the export wrote */
        want_c[g * I + i] = strcmp(mem, "local") == 0 ? a[G * E + g * I + i] : a[g * E + E - I + i];
    } else {
      for (size_t i = 0; i < E; i++) /* local: a's part; else b as it was */
        want_c[g * E + i] = strcmp(mem, "local") == 0 ? a[g * E + i] : b[g * E + i];
      for (size_t i = 0; i < I; i++) {
        if (strcmp(mem, "local") == 0)
          want_b[g * I + i] = a[g * E + E - I + i];
        else if (strcmp(mem, "global") == 0)
          want_b[g * E + E - I + i] = a[G * E + g * I + i];
      }
    }
  }
  /* The export-after-import-local kernel writes b's first G I floats. */
  arg args[] = {BUF(a, (G * E + G * I) * sizeof(float)), BUF(b, G * E * sizeof(float)), BUF(c, cn * sizeof(float)),
                LOCAL(E * sizeof(float)), LOCAL(E * sizeof(float)), U64(E), U64(I)};
  size_t global = G * local;
  *ms = o->run(o->self, k, args, 7, 1, &global, &local, why, why_len);
  bool ok = *ms >= 0 && check_floats(c, want_c, cn, why, why_len) && check_floats(b, want_b, G * E, why, why_len);
  free(a), free(b), free(c), free(want_b), free(want_c);
  o->release(o->self, k);
  return ok;
}

/* stream_tiles: b = a over G groups of `tiles` tiles of E floats. */
static bool run_fence_stream(const gac_backend *o, const char *program, size_t E, size_t tiles, size_t G, size_t local,
                             double *ms, char *why, size_t why_len) {
  void *k = o->load(o->self, program, "stream_tiles", why, why_len);
  if (!k)
    return false;
  size_t n = G * tiles * E;
  float *a = small_ints(n, 17), *b = calloc(n, sizeof(float)), *want = malloc(n * sizeof(float));
  float c = 0;
  for (size_t i = 0; i < n; i++)
    want[i] = a[i];
  arg args[] = {BUF(a, n * sizeof(float)), BUF(b, n * sizeof(float)), BUF(&c, sizeof c),
                LOCAL(E * sizeof(float)), LOCAL(sizeof(float)), U64(E), U64(tiles)};
  size_t global = G * local;
  return run_float_kernel(o, k, args, 7, 1, &global, &local, a, b, want, n, ms, why, why_len);
}

/* ---- software-pipelined kernels (kernels/pipelined.cl) ---- */

#define TS 16

/* matmul (n given), or matmul128 (n = 128 built in: no n argument). */
/* matmul, matmul128, or matmul_off with A `off` floats into its buffer. */
static bool run_matmul(const gac_backend *o, const char *program, const char *kernel, size_t n, uint32_t off,
                       double *ms, char *why, size_t why_len) {
  void *k = o->load(o->self, program, kernel, why, why_len);
  if (!k)
    return false;
  float *a = small_ints(off + 2 * n * n, 6), *c = calloc(n * n, sizeof(float)), *want = malloc(n * n * sizeof(float));
  float *am = a + off, *b = am + n * n;
  for (size_t y = 0; y < n; y++)
    for (size_t x = 0; x < n; x++) {
      float s = 0;
      for (size_t i = 0; i < n; i++)
        s += am[y * n + i] * b[i * n + x];
      want[y * n + x] = s;
    }
  arg args[] = {BUF(a, (off + n * n) * sizeof(float)), BUF(b, n * n * sizeof(float)),
                BUF(c, n * n * sizeof(float)), I32(n), I32(off)};
  unsigned nargs = strstr(kernel, "_off") ? 5 : strcmp(kernel, "matmul128") == 0 ? 3 : 4;
  size_t global[2] = {n, n}, local[2] = {TS, TS};
  return run_float_kernel(o, k, args, nargs, 2, global, local, a, c, want, n * n, ms, why, why_len);
}

/* Rows then columns, weights 1/4 1/2 1/4, over `count` tiles per group. */
static bool run_tiled_stencil(const gac_backend *o, const char *program, size_t n, size_t count, double *ms,
                              char *why, size_t why_len) {
  void *k = o->load(o->self, program, "stencil", why, why_len);
  if (!k)
    return false;
  size_t height = n * count, pitch = n + 2, in_n = (height + 2) * pitch;
  float *in = small_ints(in_n, 7), *out = calloc(n * height, sizeof(float)), *want = malloc(n * height * sizeof(float));
  float *rows = malloc(in_n * sizeof(float));
  for (size_t y = 0; y < height + 2; y++)
    for (size_t x = 0; x < n; x++)
      rows[y * pitch + x] = 0.25f * in[y * pitch + x] + 0.5f * in[y * pitch + x + 1] + 0.25f * in[y * pitch + x + 2];
  for (size_t y = 0; y < height; y++)
    for (size_t x = 0; x < n; x++)
      want[y * n + x] = 0.25f * rows[y * pitch + x] + 0.5f * rows[(y + 1) * pitch + x] + 0.25f * rows[(y + 2) * pitch + x];
  free(rows);
  arg args[] = {BUF(in, in_n * sizeof(float)), BUF(out, n * height * sizeof(float)), I32(n), I32(count)};
  size_t global[2] = {n, n / TS * TS}, local[2] = {TS, TS};
  return run_float_kernel(o, k, args, 4, 2, global, local, in, out, want, n * height, ms, why, why_len);
}

/* ---- values carried round a pipelined loop (kernels/carried.cl) ---- */

/* float4_acc (per = 4) or scalar_accs (per = 64) over `tiles` tiles of 64
 * floats, one group of 64: value j of work-item x is the sum over the tiles
 * of a[t * 64 + x] (j + 1). */
static bool run_carried(const gac_backend *o, const char *kernel, size_t per, uint32_t tiles, double *ms, char *why,
                        size_t why_len) {
  void *k = o->load(o->self, "carried-s3", kernel, why, why_len);
  if (!k)
    return false;
  size_t in_n = 64 * (tiles ? tiles : 1), out_n = 64 * per;
  float *a = small_ints(in_n, 11), *out = calloc(out_n, sizeof(float)), *want = calloc(out_n, sizeof(float));
  for (size_t x = 0; x < 64; x++)
    for (uint32_t t = 0; t < tiles; t++)
      for (size_t j = 0; j < per; j++)
        want[x * per + j] += a[t * 64 + x] * (float)(j + 1);
  arg args[] = {BUF(a, in_n * sizeof(float)), BUF(out, out_n * sizeof(float)), I32(tiles)};
  size_t global[1] = {64}, local[1] = {64};
  return run_float_kernel(o, k, args, 3, 1, global, local, a, out, want, out_n, ms, why, why_len);
}

/* ---- the table ---- */

static unsigned passed, failed;

/* Whether the row's kernel name or parameters contain one of the
 * '|'-separated texts of list. */
static bool matches(const char *kernel, const char *params, const char *list) {
  for (const char *t = list; t && *t;) {
    size_t len = strcspn(t, "|");
    char text[128];
    snprintf(text, sizeof text, "%.*s", (int)(len < sizeof text ? len : sizeof text - 1), t);
    if (len && (strstr(kernel, text) || strstr(params, text)))
      return true;
    t += len + (t[len] == '|');
  }
  return false;
}

/* GAC_CONFORMANCE_ONLY=text in the environment: run only the rows whose
 * kernel name or parameters contain it (for working on one kernel);
 * GAC_CONFORMANCE_KERNEL=name: only the rows of that kernel name, exactly.
 * GAC_CONFORMANCE_SKIP=text|text...: leave out the rows that contain one
 * (each skipped row is printed as SKIP: a known failure stays visible). */
static bool wanted(const char *kernel, const char *params) {
  const char *only = getenv("GAC_CONFORMANCE_ONLY");
  if (only && !strstr(kernel, only) && !strstr(params, only))
    return false;
  const char *exact = getenv("GAC_CONFORMANCE_KERNEL");
  if (exact && *exact && strcmp(kernel, exact) != 0)
    return false;
  if (matches(kernel, params, getenv("GAC_CONFORMANCE_SKIP"))) {
    printf("%-14s %-58s SKIP (GAC_CONFORMANCE_SKIP)\n", kernel, params);
    return false;
  }
  return true;
}

static void row(const char *kernel, const char *params, bool ok, double ms, const char *why) {
  printf("%-14s %-58s %-4s %8.2f ms%s%s\n", kernel, params, ok ? "PASS" : "FAIL", ms < 0 ? 0 : ms,
         ok ? "" : "  ", ok ? "" : why);
  ok ? passed++ : failed++;
}

static void copy_row(const gac_backend *o, const char *program, const copy_case *c) {
  char params[160], why[512] = "";
  snprintf(params, sizeof params,
           "%s%sbpe=%llu %llux%llux%llu src(%llu,%llu,%llu) tile(%llu,%llu,%llu) dst(%llu,%llu,%llu) g=%llu l=%llu",
           strcmp(program, "copies") ? program : "", strcmp(program, "copies") ? ": " : "",
           (unsigned long long)c->s.bpe, (unsigned long long)c->s.per_line, (unsigned long long)c->s.lines,
           (unsigned long long)c->s.planes, (unsigned long long)c->src.off, (unsigned long long)c->src.line,
           (unsigned long long)c->src.plane, (unsigned long long)c->tile.off, (unsigned long long)c->tile.line,
           (unsigned long long)c->tile.plane, (unsigned long long)c->dst.off, (unsigned long long)c->dst.line,
           (unsigned long long)c->dst.plane, (unsigned long long)c->groups, (unsigned long long)c->local);
  double ms = -1;
  if (!wanted(c->name, params))
    return;
  bool ok = run_copy(o, program, c, &ms, why, sizeof why);
  row(c->name, params, ok, ms, why);
}

unsigned gac_conformance_suite(const gac_backend *o) {
  passed = failed = 0;
  printf("%-14s %-58s %-4s %11s\n", "kernel", "parameters", "", "time*");

  /* 2D and 3D, both directions (in, then back out), every element size the
   * issue names, odd shapes, offsets, lengths above the minimum, local sizes
   * 1, 3, 17, 64 and 256, many work-groups each on its own tile. */
  static const copy_case copies[] = {
      {"copy2d", {1, 16, 8, 1}, {0, 16, 0}, {0, 16, 0}, {0, 16, 0}, 4, 1},
      {"copy2d", {2, 37, 13, 1}, {5, 40, 0}, {0, 37, 0}, {3, 41, 0}, 3, 3},
      {"copy2d", {3, 37, 13, 1}, {1, 50, 0}, {2, 39, 0}, {0, 37, 0}, 5, 17},
      {"copy2d", {4, 64, 32, 1}, {0, 64, 0}, {0, 64, 0}, {0, 64, 0}, 8, 64},
      {"copy2d", {8, 33, 7, 1}, {7, 35, 0}, {1, 34, 0}, {2, 33, 0}, 6, 256},
      {"copy2d", {12, 5, 9, 1}, {0, 11, 0}, {0, 5, 0}, {4, 7, 0}, 7, 17},
      {"copy2d", {16, 12, 12, 1}, {3, 20, 0}, {0, 12, 0}, {0, 15, 0}, 16, 64},
      {"copy2d", {4, 1, 1, 1}, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}, 2, 3},
      {"copy2d", {4, 10, 0, 1}, {0, 10, 0}, {0, 10, 0}, {0, 10, 0}, 2, 17},
      {"copy3d", {1, 37, 13, 5}, {0, 37, 481}, {0, 37, 481}, {0, 37, 481}, 3, 64},
      {"copy3d", {4, 37, 13, 5}, {9, 40, 600}, {3, 38, 500}, {1, 41, 700}, 4, 17},
      {"copy3d", {2, 8, 4, 3}, {0, 9, 40}, {0, 8, 32}, {0, 10, 45}, 9, 3},
      {"copy3d", {12, 6, 5, 4}, {2, 7, 36}, {0, 6, 30}, {5, 9, 50}, 5, 256},
      {"copy3d", {16, 4, 4, 4}, {0, 4, 16}, {0, 4, 16}, {0, 4, 16}, 12, 1},
      {"copy3d", {8, 16, 16, 2}, {0, 20, 400}, {0, 16, 256}, {0, 18, 300}, 4, 64},
  };
  for (size_t i = 0; i < sizeof copies / sizeof copies[0]; i++)
    copy_row(o, "copies", &copies[i]);
  /* The same kernels built as OpenCL C 2.0 and 3.0 (generic address space). */
  static const size_t versioned[] = {2, 4, 10, 12};
  for (size_t i = 0; i < sizeof versioned / sizeof versioned[0]; i++) {
    copy_row(o, "copies-cl20", &copies[versioned[i]]);
    copy_row(o, "copies-cl30", &copies[versioned[i]]);
  }

  static const shapes_case shapes[] = {
      {"shapes-uchar", 1, 37, 13, 41, 5, 17, 0},  {"shapes-uchar", 1, 37, 13, 41, 5, 17, 1},
      {"shapes-short", 2, 16, 8, 24, 4, 64, 1},   {"shapes-float4", 16, 8, 8, 9, 3, 3, 0},
      {"shapes-int3", 16, 5, 7, 6, 4, 1, 1},      {"shapes-long2", 16, 9, 3, 12, 6, 256, 0},
      {"shapes-int1", 4, 1, 1, 1, 3, 17, 1},
  };
  for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
    const shapes_case *c = &shapes[i];
    char params[160], why[512] = "";
    snprintf(params, sizeof params, "%s: %zu-byte %zux%zu line %zu, shared event, %s branch, g=%zu l=%zu",
             c->program, c->elem, c->per_line, c->lines, c->src_line, c->flip ? "then" : "else", c->groups, c->local);
    double ms = -1;
    if (!wanted("shapes", params))
      continue;
    bool ok = run_shapes(o, c, &ms, why, sizeof why);
    row("shapes", params, ok, ms, why);
  }

  char why[512] = "";
  double ms = -1;
  bool ok;
  /* One row of the table: runs `call` unless GAC_CONFORMANCE_ONLY excludes it. */
#define ROW(kernel, params, call)                                                                            \
  do {                                                                                                       \
    if (wanted((kernel), (params))) {                                                                        \
      ok = (call);                                                                                           \
      row((kernel), (params), ok, ms, why);                                                                  \
    }                                                                                                        \
  } while (0)
  ROW("copy1d", "async_work_group_strided_copy in (100 floats, stride 3), copy out, g=4 l=17",
      run_copy1d(o, 100, 3, 4, 17, &ms, why, sizeof why));
  ROW("copy1d", "async_work_group_strided_copy in (256 floats, stride 1), copy out, g=3 l=64",
      run_copy1d(o, 256, 1, 3, 64, &ms, why, sizeof why));
  ROW("chain", "out, out, in on one event, wait on the first; 256 floats, g=4 l=64",
      run_chain(o, "chain_out_in", 256, 0, 4, 64, &ms, why, sizeof why));
  ROW("chain", "as above, the first event through an if; 96 floats, g=5 l=32",
      run_chain(o, "chain_out_in", 96, 1, 5, 32, &ms, why, sizeof why));
  ROW("chain", "in, out, out on one event, wait on the last; 256 floats, g=4 l=64",
      run_chain(o, "chain_in_out", 256, 0, 4, 64, &ms, why, sizeof why));
  ROW("chain", "as above, the middle event through an if; 96 floats, g=5 l=32",
      run_chain(o, "chain_in_out", 96, 1, 5, 32, &ms, why, sizeof why));
  ROW("stencil", "5-point, 64x64 floats, 16x16 tiles with halo, l=16x16",
      run_stencil(o, 64, &ms, why, sizeof why));
  ROW("transpose", "64x64 floats through local memory, 16x16 tiles, l=16x16",
      run_transpose(o, 64, &ms, why, sizeof why));
  ROW("double_buffer", "6 tiles of 8x29 floats per group, prefetch next, g=5 l=17",
      run_double_buffer(o, "double_buffer", 8, 29, 6, 5, 17, &ms, why, sizeof why));
  ROW("double_buffer", "3 tiles of 32x64 floats per group, prefetch next, g=2 l=256",
      run_double_buffer(o, "double_buffer", 32, 64, 3, 2, 256, &ms, why, sizeof why));
  ROW("queued_dbuf", "as above through async queue 0: commit, wait(0, 1), g=5 l=17",
      run_double_buffer(o, "queued_double_buffer", 8, 29, 6, 5, 17, &ms, why, sizeof why));
  ROW("queued_dbuf", "one tile only: wait(0, 0) at once, g=3 l=64",
      run_double_buffer(o, "queued_double_buffer", 16, 8, 1, 3, 64, &ms, why, sizeof why));

  /* Each pipelined build and the unpipelined one against the same host
   * reference: long loops, and loops shorter than the pipeline (those take
   * the loop as written). */
  static const char *const pipelined[] = {"unpipelined",       "pipelined-s2",      "pipelined-s3",
                                          "pipelined-s4",      "pipelined-s3-cl30", "pipelined-s3-ws",
                                          "pipelined-s2-wide", "pipelined-s3-wide"};
  for (size_t i = 0; i < sizeof pipelined / sizeof pipelined[0]; i++) {
    static const size_t sizes[] = {128, 32, 16}, counts[] = {9, 2, 1};
    for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
      char params[160];
      snprintf(params, sizeof params, "%s: %zux%zu floats, %zu tiles of 16x16 per group", pipelined[i], sizes[j],
               sizes[j], sizes[j] / TS);
      ROW("matmul", params, run_matmul(o, pipelined[i], "matmul", sizes[j], 0, &ms, why, sizeof why));
    }
    for (uint32_t off = 0; off <= 1; off++) {
      char params[160];
      snprintf(params, sizeof params, "%s: 64x64 floats, A %u float%s into its buffer (%s)", pipelined[i], off,
               off == 1 ? "" : "s", off ? "not 16-byte aligned" : "aligned");
      /* 4 tiles a group: more than the pipelines' stages, so the body runs. */
      ROW("matmul_off", params, run_matmul(o, pipelined[i], "matmul_off", 64, off, &ms, why, sizeof why));
    }
    char fixed[160];
    snprintf(fixed, sizeof fixed, "%s: 128x128 floats, 8 tiles, a constant trip count", pipelined[i]);
    ROW("matmul128", fixed, run_matmul(o, pipelined[i], "matmul128", 128, 0, &ms, why, sizeof why));
    for (size_t j = 0; j < sizeof counts / sizeof counts[0]; j++) {
      char params[160];
      snprintf(params, sizeof params, "%s: 2x2 groups of %zu 16x16 tiles each (with halo), rows then columns",
               pipelined[i], counts[j]);
      ROW("stencil_tiles", params, run_tiled_stencil(o, pipelined[i], 32, counts[j], &ms, why, sizeof why));
    }
  }
  /* The loop in a helper given the kernels' tiles as __local pointers
   * (pipelined.cl -DGAC_HELPER_KERNELS): long loops, shorter than the
   * pipeline, and not 16-byte aligned (wide copies: the loop as written). */
  static const char *const helper_programs[] = {"pipelined-helper-s3", "pipelined-helper-s2-wide"};
  for (size_t i = 0; i < sizeof helper_programs / sizeof helper_programs[0]; i++)
    for (uint32_t off = 0; off <= 1; off++) {
      static const size_t sizes[] = {64, 32};
      char params[160];
      snprintf(params, sizeof params, "%s: %zux%zu floats, the loop in a helper given the tiles, A %u float%s in",
               helper_programs[i], sizes[off], sizes[off], off, off == 1 ? "" : "s");
      ROW(off ? "matmul_helper_off" : "matmul_helper", params,
          run_matmul(o, helper_programs[i], off ? "matmul_helper_off" : "matmul_helper", sizes[off], off, &ms, why,
                     sizeof why));
    }
  /* Tiles loaded with plain code (16-byte units: cp.async on the PTX path). */
  ROW("tile_sum", "tile-loads: two tiles of 2x64 float4, g=3 l=64",
      run_tile_loads(o, "tile_sum", 3, 0, &ms, why, sizeof why));
  ROW("twice", "tile-loads: one element stored twice, the second wins, g=2 l=64",
      run_tile_loads(o, "twice", 2, 0, &ms, why, sizeof why));
  for (int rows = 1; rows <= 4; rows += 3) {
    char params[160];
    snprintf(params, sizeof params, "tile-loads: read before the barrier, %d row%s in a loop, g=2 l=64", rows,
             rows == 1 ? "" : "s");
    ROW("read_back", params, run_tile_loads(o, "read_back", 2, rows, &ms, why, sizeof why));
  }
  /* Loops shorter than the pipeline (0-2 tiles: the guarded prologue and
   * epilogue select the carried values) and longer. */
  static const uint32_t carried_tiles[] = {0, 1, 2, 3, 7};
  for (size_t j = 0; j < sizeof carried_tiles / sizeof carried_tiles[0]; j++) {
    char params[160];
    snprintf(params, sizeof params, "carried-s3: a float4 accumulator over %u tiles of 64 floats, l=64",
             carried_tiles[j]);
    ROW("float4_acc", params, run_carried(o, "float4_acc", 4, carried_tiles[j], &ms, why, sizeof why));
    snprintf(params, sizeof params, "carried-s3: 64 scalar accumulators over %u tiles of 64 floats, l=64",
             carried_tiles[j]);
    ROW("scalar_accs", params, run_carried(o, "scalar_accs", 64, carried_tiles[j], &ms, why, sizeof why));
  }
  /* The CTS's six fence shapes, 1D copies as there, then with the import a
   * 2D copy (cp.async or bulk copies on the GPU). */
  static const char *const fence_kernels[] = {"import_after_export_local", "import_after_export_global",
                                              "import_after_export_both",  "export_after_import_local",
                                              "export_after_import_global", "export_after_import_both"};
  static const char *const fence_programs[] = {"fences", "fences-2d"};
  for (size_t p = 0; p < 2; p++)
    for (size_t j = 0; j < sizeof fence_kernels / sizeof fence_kernels[0]; j++) {
      char params[160];
      snprintf(params, sizeof params, "%s: %s, 320 and 64 floats, g=6 l=64", fence_programs[p], fence_kernels[j]);
      ROW("fence", params, run_fence(o, fence_programs[p], fence_kernels[j], 320, 64, 6, 64, &ms, why, sizeof why));
    }
  for (size_t p = 0; p < 2; p++) {
    char params[160];
    snprintf(params, sizeof params, "%s: stream_tiles, 7 tiles of 512 floats through one buffer, g=5 l=64",
             fence_programs[p]);
    ROW("fence", params, run_fence_stream(o, fence_programs[p], 512, 7, 5, 64, &ms, why, sizeof why));
  }
#undef ROW

  printf("%u passed, %u failed\n", passed, failed);
  return failed;
}
