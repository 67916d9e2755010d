/* Occupancy cliffs (--ptx-occupancy, docs/PTX.md): a kernel of a fixed
 * block size (.reqntid) whose registers alone keep one more block off each
 * multiprocessor gets `.maxnreg` at that block count's limit, if ptxas then
 * spills nothing, or, for a kernel that fits one block alone, at most
 * MAX_SPILL_BYTES a work-item. Only ptxas knows either fact,
 * so it is asked: once for the module as it is, once more with the caps.
 *
 * The model (sm_80 and sm_90 alike): 65,536 registers and 2,048 threads a
 * multiprocessor; a warp's registers are allocated in units of 256 (8 a
 * thread); shared memory, 164 KiB (sm_80) or 228 KiB (sm_90) a
 * multiprocessor, 1 KiB of it reserved per block. A cap is tried only where
 * registers are the binding limit, and never above the kernel's own count:
 * a cap where none binds only frees ptxas to use more registers (the 32x32
 * SGEMM took 90 instead of 37 under .maxnreg 128, 5% slower).
 * Measured where it applies: sgemm_fast unpipelined, 129 registers, 1 block
 * of 256 work-items; capped at 128, no spills, 2 blocks, 1.70x (H200).
 * A few spilled bytes still pay for a second block, many do not (sgemm_fast
 * pipelined, H200): 24 bytes, 1.08x; 112 bytes, no gain (34.65 against
 * 34.74 TFLOP/s); MAX_SPILL_BYTES sits between. For more blocks beyond
 * several they do not: the 32x32 sgemm pipelined, 38 registers (6 blocks)
 * capped at 32 with 16 bytes of spills (8 blocks), 4% slower (H200).
 * Figures: docs/results/VENDOR.md#experiments, "Register caps" and
 * "16-byte copies alone". */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gac/ptx.h"
#include "subprocess.h"

enum { MAX_KERNELS = 64, REGS_PER_SM = 65536, THREADS_PER_SM = 2048, MAX_SPILL_BYTES = 32 };

typedef struct kernel_use {
  char name[256];
  unsigned regs, spill_bytes, smem;
  bool seen;
} kernel_use;

/* ptxas to ask: $GAC_PTXAS, else $CUDA_HOME/bin/ptxas, /usr/local/cuda/bin/ptxas, ptxas on PATH. */
static const char *find_ptxas(char *buf, size_t len) {
  const char *env = getenv("GAC_PTXAS");
  if (env && *env)
    return env;
  const char *cuda = getenv("CUDA_HOME");
  snprintf(buf, len, "%s/bin/ptxas", cuda && *cuda ? cuda : "/usr/local/cuda");
  if (access(buf, X_OK) == 0)
    return buf;
  const char *path = getenv("PATH");
  for (const char *p = path; p && *p;) {
    size_t n = strcspn(p, ":");
    snprintf(buf, len, "%.*s/ptxas", (int)n, p);
    if (n && access(buf, X_OK) == 0)
      return buf;
    p += n + (p[n] == ':');
  }
  return NULL;
}

/* ptxas -v of ptx: each entry's registers, spills and shared memory. */
static bool ask_ptxas(const char *ptxas, const char *ptx, size_t size, unsigned sm, kernel_use *uses,
                      unsigned *num_uses) {
  char dir[32], in[64], log[64], arch[16];
  if (!gac_scratch_dir(dir))
    return false;
  snprintf(in, sizeof in, "%s/k.ptx", dir);
  snprintf(log, sizeof log, "%s/log", dir);
  snprintf(arch, sizeof arch, "-arch=sm_%u", sm);
  char *argv[] = {(char *)ptxas, arch, "-v", in, "-o", "/dev/null", NULL};
  char *text = NULL;
  bool ok = gac_write_file(in, ptx, size) && gac_run(argv, log) && (text = gac_read_file(log, NULL));
  *num_uses = 0;
  kernel_use *k = NULL;
  for (char *line = text, *next; ok && line && *line; line = next) {
    next = strchr(line, '\n');
    if (next)
      *next++ = '\0';
    const char *at;
    if ((at = strstr(line, "Compiling entry function '")) && *num_uses < MAX_KERNELS) {
      k = &uses[(*num_uses)++];
      memset(k, 0, sizeof *k);
      at += strlen("Compiling entry function '");
      snprintf(k->name, sizeof k->name, "%.*s", (int)strcspn(at, "'"), at);
    } else if (k && (at = strstr(line, "bytes spill stores"))) {
      while (at > line && at[-1] == ' ')
        at--;
      while (at > line && at[-1] >= '0' && at[-1] <= '9')
        at--;
      k->spill_bytes = (unsigned)strtoul(at, NULL, 10);
    } else if (k && (at = strstr(line, "Used ")) && strstr(line, "registers")) {
      k->regs = (unsigned)strtoul(at + 5, NULL, 10);
      const char *smem = strstr(line, "bytes smem");
      if (smem) {
        while (smem > line && smem[-1] == ' ')
          smem--;
        while (smem > line && smem[-1] >= '0' && smem[-1] <= '9')
          smem--;
        k->smem = (unsigned)strtoul(smem, NULL, 10);
      }
      k->seen = true;
    }
  }
  free(text);
  gac_scratch_remove(dir);
  return ok;
}

/* Blocks of `threads` a multiprocessor holds with `regs` registers a thread
 * and `smem` bytes of shared memory a block. */
static unsigned blocks_per_sm(unsigned regs, unsigned threads, unsigned smem, unsigned sm, bool *regs_bind) {
  unsigned warps = (threads + 31) / 32, per_thread = (regs + 7) / 8 * 8;
  unsigned by_regs = per_thread ? REGS_PER_SM / (per_thread * 32 * warps) : 32;
  unsigned by_threads = THREADS_PER_SM / (warps * 32);
  unsigned smem_sm = (sm >= 90 ? 228 : 164) * 1024;
  unsigned by_smem = smem ? smem_sm / (smem + 1024) : 32;
  unsigned other = by_threads < by_smem ? by_threads : by_smem;
  if (other > 32)
    other = 32;
  *regs_bind = by_regs < other;
  return *regs_bind ? by_regs : other;
}

/* The block size an entry's .reqntid fixes (0 if none), and where its line ends. */
static unsigned reqntid_of(const char *ptx, const char *name, const char **line_end) {
  char entry[300];
  snprintf(entry, sizeof entry, ".entry %s(", name);
  const char *e = strstr(ptx, entry);
  if (!e)
    return 0;
  const char *body = strchr(e, '{'), *r = strstr(e, ".reqntid");
  if (!r || (body && r > body))
    return 0;
  unsigned x = 1, y = 1, z = 1;
  if (sscanf(r, ".reqntid %u, %u, %u", &x, &y, &z) < 1)
    return 0;
  *line_end = strchr(r, '\n');
  return *line_end ? x * y * z : 0;
}

/* ptx with `.maxnreg cap` after the .reqntid line of each capped entry. */
static char *with_caps(const char *ptx, const kernel_use *uses, const unsigned *caps, unsigned n, size_t *size) {
  char *out = strdup(ptx);
  for (unsigned i = 0; out && i < n; i++) {
    const char *end;
    if (!caps[i] || !reqntid_of(out, uses[i].name, &end))
      continue;
    char directive[32];
    int d = snprintf(directive, sizeof directive, "\n.maxnreg %u", caps[i]);
    size_t at = (size_t)(end - out), len = strlen(out);
    char *grown = malloc(len + (size_t)d + 1);
    if (!grown) {
      free(out);
      return NULL;
    }
    memcpy(grown, out, at);
    memcpy(grown + at, directive, (size_t)d);
    memcpy(grown + at + d, out + at, len - at + 1);
    free(out);
    out = grown;
  }
  if (out)
    *size = strlen(out);
  return out;
}

bool gac_ptx_tune_occupancy(char **ptx, size_t *size, unsigned sm, gac_diag *diag) {
  char buf[1024];
  const char *ptxas = find_ptxas(buf, sizeof buf);
  if (!ptxas) {
    gac_diag_add(diag, GAC_REMARK, GAC_NO_OFFSET, 0, "ptx.occupancy",
                 "no ptxas ($GAC_PTXAS, $CUDA_HOME/bin, /usr/local/cuda/bin or PATH): registers not tuned");
    return true;
  }
  kernel_use uses[MAX_KERNELS], capped[MAX_KERNELS];
  unsigned n = 0, n_capped = 0, caps[MAX_KERNELS] = {0};
  if (strstr(*ptx, ".maxnreg") || !ask_ptxas(ptxas, *ptx, *size, sm, uses, &n)) {
    if (strstr(*ptx, ".maxnreg"))
      gac_diag_add(diag, GAC_REMARK, GAC_NO_OFFSET, 0, "ptx.occupancy",
                   "the module has .maxnreg already: registers not tuned");
    else
      gac_diag_add(diag, GAC_REMARK, GAC_NO_OFFSET, 0, "ptx.occupancy",
                   "ptxas (`%s`) did not run or refused the module: registers not tuned", ptxas);
    return true;
  }
  bool any = false;
  unsigned threads[MAX_KERNELS] = {0}, blocks[MAX_KERNELS] = {0};
  for (unsigned i = 0; i < n; i++) {
    const char *end;
    threads[i] = uses[i].seen ? reqntid_of(*ptx, uses[i].name, &end) : 0;
    bool regs_bind;
    blocks[i] = threads[i] ? blocks_per_sm(uses[i].regs, threads[i], uses[i].smem, sm, &regs_bind) : 0;
    if (!threads[i] || !regs_bind || uses[i].spill_bytes)
      continue;
    unsigned warps = (threads[i] + 31) / 32, cap = REGS_PER_SM / ((blocks[i] + 1) * warps * 32) / 8 * 8;
    if (cap >= 24 && cap < uses[i].regs)
      caps[i] = cap, any = true;
  }
  if (!any)
    return true;
  size_t new_size = 0;
  char *tuned = with_caps(*ptx, uses, caps, n, &new_size);
  if (!tuned || !ask_ptxas(ptxas, tuned, new_size, sm, capped, &n_capped)) {
    free(tuned);
    return true;
  }
  /* Keep each cap that spills little; a second round drops the others. */
  bool dropped = false;
  for (unsigned i = 0; i < n; i++) {
    if (!caps[i])
      continue;
    const kernel_use *c = NULL;
    for (unsigned j = 0; j < n_capped; j++)
      if (strcmp(capped[j].name, uses[i].name) == 0)
        c = &capped[j];
    unsigned before = blocks[i];
    unsigned allowed = blocks[i] == 1 ? MAX_SPILL_BYTES : 0;
    if (!c || c->spill_bytes > allowed || c->regs > caps[i]) {
      gac_diag_add(diag, GAC_REMARK, GAC_NO_OFFSET, 0, "ptx.occupancy",
                   "%s: %u registers, %u block%s of %u work-items a multiprocessor; not capped: under .maxnreg %u "
                   "ptxas spills %u bytes",
                   uses[i].name, uses[i].regs, before, before == 1 ? "" : "s", threads[i], caps[i],
                   c ? c->spill_bytes : 0);
      caps[i] = 0;
      dropped = true;
      continue;
    }
    bool regs_bind;
    unsigned after = blocks_per_sm(c->regs, threads[i], c->smem, sm, &regs_bind);
    gac_diag_add(diag, GAC_REMARK, GAC_NO_OFFSET, 0, "ptx.occupancy",
                 "%s: %u registers, %u block%s of %u work-items a multiprocessor; .maxnreg %u: %u registers, %u "
                 "bytes of spills, %u blocks",
                 uses[i].name, uses[i].regs, before, before == 1 ? "" : "s", threads[i], caps[i], c->regs,
                 c->spill_bytes, after);
  }
  if (dropped) {
    free(tuned);
    tuned = with_caps(*ptx, uses, caps, n, &new_size);
    if (!tuned)
      return true;
  }
  free(*ptx);
  *ptx = tuned;
  *size = new_size;
  return true;
}
