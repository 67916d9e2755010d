/* Reading llvm-objdump-19 -d listings of AMDGCN code objects (gfx9):
 *   0000000000001900 <matmul>:
 *   \ts_branch 11                        // 000000001AD0: BF82000B <matmul+0x200>
 * Branch targets are computed from the encoding's simm16 (addr + 4 +
 * 4 * simm16), not from the symbolic comment. */
#include "isa_listing.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

/* An operand that is the word `lds` (the LDS-direct form of gfx90a's loads). */
static bool has_lds_operand(const char *ops) {
  for (const char *p = strstr(ops, "lds"); p; p = strstr(p + 1, "lds"))
    if ((p == ops || p[-1] == ' ' || p[-1] == ',') && (p[3] == '\0' || p[3] == ' ' || p[3] == ','))
      return true;
  return false;
}

/* vmcnt of an s_waitcnt: the vmcnt(N) field, or the raw simm16 (gfx9:
 * bits 3:0 and 15:14); 63, the field's largest value, waits for nothing:
 * 64 then, and when the field is absent. */
static unsigned wait_vmcnt(const char *ops) {
  const char *v = strstr(ops, "vmcnt(");
  unsigned n = 64;
  if (v)
    n = (unsigned)strtoul(v + 6, NULL, 10);
  else if (*ops >= '0' && *ops <= '9') {
    unsigned long imm = strtoul(ops, NULL, 0);
    n = (unsigned)((imm & 0xf) | ((imm >> 10) & 0x30));
  }
  return n >= 63 ? 64 : n;
}

/* A marker's name (see isa_listing.h) into i; false if it is not one. */
static bool parse_marker(const char *name, isa_inst *i) {
  if (strncmp(name, "__gac_", 6) != 0)
    return false;
  const char *p = name + 6;
  char *end;
  i->queue = ISA_ANY_QUEUE;
  i->n = 0;
  i->mark = ISA_MARK_BAD;
  if (strncmp(p, "wall_", 5) == 0) {
    i->mark = ISA_MARK_WAIT_ALL;
  } else if (strncmp(p, "pp_", 3) == 0) {
    i->mark = ISA_MARK_PINGPONG;
  } else if (strncmp(p, "ppx_", 4) == 0) {
    i->mark = ISA_MARK_PINGPONG_END;
  } else if (strncmp(p, "cx_", 3) == 0) {
    i->mark = ISA_MARK_COMMIT;
  } else if ((*p == 'c' || *p == 'w') && p[1] >= '0' && p[1] <= '9') {
    unsigned long q = strtoul(p + 1, &end, 10);
    i->queue = (uint32_t)q;
    if (*p == 'c' && *end == '_')
      i->mark = ISA_MARK_COMMIT;
    else if (*p == 'w' && *end == '_' && end[1] >= '0' && end[1] <= '9') {
      i->n = (uint32_t)strtoul(end + 1, &end, 10);
      if (*end == '_')
        i->mark = ISA_MARK_WAIT;
    }
  }
  snprintf(i->label, sizeof i->label, "%.47s", name);
  return true;
}

static isa_kind classify(const char *mn, const char *ops, unsigned *vmcnt) {
  if (starts(mn, "global_load_lds_") || ((starts(mn, "global_load_") || starts(mn, "buffer_load_")) && has_lds_operand(ops)))
    return ISA_DMA;
  if (starts(mn, "global_load_") || starts(mn, "buffer_load_"))
    return ISA_LOAD;
  if (starts(mn, "global_") || starts(mn, "buffer_") || starts(mn, "flat_") || starts(mn, "scratch_") ||
      starts(mn, "tbuffer_") || starts(mn, "image_"))
    return ISA_VMEM;
  if (strcmp(mn, "s_waitcnt") == 0) {
    *vmcnt = wait_vmcnt(ops);
    return ISA_WAIT;
  }
  if (strcmp(mn, "s_barrier") == 0)
    return ISA_BARRIER;
  if (starts(mn, "ds_read") || starts(mn, "ds_load") || (starts(mn, "ds_") && strstr(mn, "_rtn")))
    return ISA_LDS_READ;
  if (strcmp(mn, "s_branch") == 0)
    return ISA_BRANCH;
  if (strcmp(mn, "s_cbranch_join") == 0 || strcmp(mn, "s_cbranch_g_fork") == 0 || strcmp(mn, "s_cbranch_i_fork") == 0 ||
      strcmp(mn, "s_setpc_b64") == 0 || strcmp(mn, "s_swappc_b64") == 0 || strcmp(mn, "s_call_b64") == 0 ||
      strcmp(mn, "s_rfe_b64") == 0)
    return ISA_INDIRECT;
  if (starts(mn, "s_cbranch_"))
    return ISA_CBRANCH;
  if (starts(mn, "s_endpgm"))
    return ISA_END;
  return ISA_OTHER;
}

/* One SGPR number r into the mask (s0..s127). */
static void name_sgpr(uint64_t names[2], unsigned r) {
  if (r < 128)
    names[r / 64] |= UINT64_C(1) << (r % 64);
}

/* The SGPRs an instruction's operands name: sN, s[a:b], vcc, vcc_lo,
 * vcc_hi (s106, s107 on gfx9); a register named is treated as written. */
static void named_sgprs(const char *ops, uint64_t names[2]) {
  for (const char *p = ops; *p; p++) {
    if (p != ops && (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') || (p[-1] >= '0' && p[-1] <= '9')))
      continue; /* inside a word */
    if (starts(p, "vcc")) {
      name_sgpr(names, 106);
      name_sgpr(names, 107);
    } else if (p[0] == 's' && p[1] >= '0' && p[1] <= '9') {
      name_sgpr(names, (unsigned)strtoul(p + 1, NULL, 10));
    } else if (p[0] == 's' && p[1] == '[') {
      char *end;
      unsigned a = (unsigned)strtoul(p + 2, &end, 10), b = *end == ':' ? (unsigned)strtoul(end + 1, NULL, 10) : a;
      for (unsigned r = a; r <= b && r < 128; r++)
        name_sgpr(names, r);
    }
  }
}

/* The pair s[a:a+1] of an operand list's `index`-th operand; false if it is not one. */
/* Operand `index` of an operand list, into buf. */
static void operand(const char *ops, unsigned index, char *buf, size_t size) {
  for (unsigned k = 0; k < index && ops; k++)
    if ((ops = strchr(ops, ',')))
      ops++;
  ops = ops ? ops + strspn(ops, " ") : "";
  snprintf(buf, size, "%.*s", (int)strcspn(ops, ","), ops);
}

/* The pair s[a:a+1] of an operand list's `index`-th operand; false if it is not one. */
static bool pair_operand(const char *ops, unsigned index, uint8_t *a) {
  char text[32];
  unsigned lo, hi;
  operand(ops, index, text, sizeof text);
  if (sscanf(text, "s[%u:%u]", &lo, &hi) != 2 || hi != lo + 1 || lo > 126)
    return false;
  *a = (uint8_t)lo;
  return true;
}

/* Whether operand `index` is exactly `name`. */
static bool operand_is(const char *ops, unsigned index, const char *name) {
  char text[32];
  operand(ops, index, text, sizeof text);
  return strcmp(text, name) == 0;
}

/* The scalar facts' part of an instruction (isa_listing.h: isa_scalar). */
static void scalar_effect(const char *mn, const char *ops, isa_inst *out) {
  const char *value = strchr(ops, ',');
  value = value ? value + 1 + strspn(value + 1, " ") : "";
  if (strcmp(mn, "s_mov_b64") == 0 && starts(ops, "exec, ") && pair_operand(ops, 1, &out->sreg)) {
    out->sop = ISA_S_SET_EXEC;
  } else if (strcmp(mn, "s_mov_b64") == 0 && pair_operand(ops, 0, &out->sreg)) {
    out->sop = strcmp(value, "0") == 0    ? ISA_S_SET_ZERO
               : strcmp(value, "-1") == 0 ? ISA_S_SET_ONES
               : strcmp(value, "exec") == 0 ? ISA_S_COPY_EXEC
                                            : ISA_S_NONE;
  } else if ((strcmp(mn, "s_andn2_saveexec_b64") == 0 || strcmp(mn, "s_or_saveexec_b64") == 0) &&
             pair_operand(ops, 0, &out->sreg) && pair_operand(ops, 1, &out->sreg2)) {
    out->sop = ISA_S_ELSE_EXEC;
  } else if (starts(mn, "s_") && strstr(mn, "_saveexec_b64") && pair_operand(ops, 0, &out->sreg)) {
    out->sop = ISA_S_SAVE_EXEC; /* its source is read, not written: named below all the same */
  } else if (strcmp(mn, "s_or_b64") == 0 && starts(ops, "exec, exec, ") && pair_operand(ops, 2, &out->sreg)) {
    out->sop = ISA_S_RESTORE_EXEC;
  } else if (strcmp(mn, "s_andn2_b64") == 0 && starts(ops, "exec, exec, ") && pair_operand(ops, 2, &out->sreg)) {
    out->sop = ISA_S_EXEC_ANDN2;
  } else if (strcmp(mn, "s_xor_b64") == 0 && pair_operand(ops, 0, &out->sreg)) {
    uint8_t x = 0, y = 0;
    bool first = pair_operand(ops, 1, &x) && x == out->sreg && operand_is(ops, 2, "exec");
    bool second = pair_operand(ops, 2, &y) && y == out->sreg && operand_is(ops, 1, "exec");
    if (first || second)
      out->sop = ISA_S_ELSE_MASK; /* exec read, not written */
    else
      named_sgprs(ops, out->names);
  } else if (strcmp(mn, "s_or_b64") == 0 && pair_operand(ops, 0, &out->sreg)) {
    uint8_t x = 0, y = 0;
    bool first = pair_operand(ops, 1, &x) && x == out->sreg, second = pair_operand(ops, 2, &y) && y == out->sreg;
    if (first != second) {
      out->sop = ISA_S_GROW;
      char other[32]; /* the operand that is read */
      operand(ops, first ? 2 : 1, other, sizeof other);
      named_sgprs(other, out->names);
    }
  } else if ((strcmp(mn, "s_and_b64") == 0 || strcmp(mn, "s_andn2_b64") == 0) && starts(ops, "vcc, exec, ") &&
             pair_operand(ops, 2, &out->sreg)) {
    out->sop = mn[5] == 'n' ? ISA_S_VCC_ANDN2 : ISA_S_VCC_AND;
  }
  out->on = strcmp(mn, "s_cbranch_vccz") == 0    ? ISA_ON_VCCZ
            : strcmp(mn, "s_cbranch_vccnz") == 0  ? ISA_ON_VCCNZ
            : strcmp(mn, "s_cbranch_execz") == 0  ? ISA_ON_EXECZ
            : strcmp(mn, "s_cbranch_execnz") == 0 ? ISA_ON_EXECNZ
                                                  : ISA_ON_OTHER;
  /* exec written: as the first operand, by v_cmpx_*, or by a saveexec (sop) */
  out->writes_exec = out->sop != ISA_S_RESTORE_EXEC && out->sop != ISA_S_SET_EXEC && out->sop != ISA_S_EXEC_ANDN2 &&
                     (starts(ops, "exec") || starts(mn, "v_cmpx") || strstr(mn, "saveexec"));
  if (out->sop == ISA_S_SAVE_EXEC)
    named_sgprs(value, out->names);
  else if (out->sop == ISA_S_NONE && out->on == ISA_ON_OTHER)
    named_sgprs(ops, out->names);
}

static bool push(isa_kernel *k, const isa_inst *i) {
  if (k->n == k->cap) {
    size_t cap = k->cap ? 2 * k->cap : 256;
    isa_inst *grown = realloc(k->insts, cap * sizeof *grown);
    if (!grown)
      return false;
    k->insts = grown;
    k->cap = cap;
  }
  k->insts[k->n++] = *i;
  return true;
}

/* One instruction line: "\tMNEMONIC OPERANDS // ADDR: ENC..." */
static bool parse_inst(const char *line, isa_inst *out) {
  const char *c = strstr(line, "//");
  if (!c)
    return false;
  char body[256];
  size_t len = (size_t)(c - line);
  if (len >= sizeof body)
    len = sizeof body - 1;
  memcpy(body, line, len);
  body[len] = '\0';
  while (len && (body[len - 1] == ' ' || body[len - 1] == '\t'))
    body[--len] = '\0';
  char *mn = body + strspn(body, " \t");
  char *ops = mn + strcspn(mn, " ");
  if (*ops)
    *ops++ = '\0';
  unsigned long long addr, enc;
  if (sscanf(c + 2, " %llx: %llx", &addr, &enc) != 2)
    return false;
  out->addr = addr;
  snprintf(out->text, sizeof out->text, "%s%s%s", mn, *ops ? " " : "", ops);
  out->kind = classify(mn, ops, &out->vmcnt);
  scalar_effect(mn, ops, out);
  if (out->kind == ISA_BRANCH || out->kind == ISA_CBRANCH)
    out->target = addr + 4 + 4 * (int64_t)(int16_t)(enc & 0xffff);
  return true;
}

bool isa_listing_parse(const char *text, isa_kernel **kernels, size_t *n, char *err, size_t err_size) {
  *kernels = NULL;
  *n = 0;
  size_t cap = 0;
  isa_inst pending = {0}; /* a marker waiting for its instruction */
  for (const char *line = text; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    char buf[512];
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
    unsigned long long addr;
    char name[128];
    bool symbol = sscanf(buf, "%llx <%127[^>]>:", &addr, name) == 2 && buf[0] != '\t';
    if (symbol && *n && strncmp(name, "__gac_", 6) == 0) {
      if (pending.mark) /* two markers at one address: neither is trusted */
        pending.mark = ISA_MARK_BAD;
      else
        parse_marker(name, &pending);
    } else if (symbol) {
      if (*n == cap) {
        cap = cap ? 2 * cap : 8;
        isa_kernel *grown = realloc(*kernels, cap * sizeof *grown);
        if (!grown)
          return snprintf(err, err_size, "out of memory"), false;
        *kernels = grown;
      }
      memset(&(*kernels)[*n], 0, sizeof **kernels);
      snprintf((*kernels)[(*n)++].name, sizeof name, "%s", name);
    } else if (buf[0] == '\t' && *n) {
      isa_inst i = pending;
      pending = (isa_inst){0};
      if (!parse_inst(buf, &i)) {
        snprintf(err, err_size, "cannot read the line '%s'", buf + 1);
        return false;
      }
      if (!push(&(*kernels)[*n - 1], &i))
        return snprintf(err, err_size, "out of memory"), false;
    }
    line += len + (end ? 1 : 0);
  }
  return true;
}

void isa_kernels_free(isa_kernel *kernels, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(kernels[i].insts);
  free(kernels);
}

size_t isa_find(const isa_kernel *k, uint64_t addr) {
  size_t lo = 0, hi = k->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (k->insts[mid].addr < addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < k->n && k->insts[lo].addr == addr ? lo : SIZE_MAX;
}
