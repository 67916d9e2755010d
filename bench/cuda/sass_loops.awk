# sass_loops.awk: per function of `cuobjdump -sass` output, the SASS
# instruction count and the hot loop: the innermost natural loop that
# contains an instruction with opcode KEY (FFMA for SGEMM, STG for the
# stencil), its size and opcode histogram. Used by profile.sh.
#
#   awk -v key=FFMA -v label=TEXT [-v only=REGEX] -f sass_loops.awk RES SASS
#
# RES is `cuobjdump -res-usage` of the same binary (registers per function),
# SASS its `cuobjdump -sass`. only: analyse the functions whose (mangled)
# name matches REGEX. label: printed before the function's name. Prints a
# readable block and one `SASS label|name regs=.. total=.. OP=count...
# loop=.. nested=..` line per function. POSIX awk (the GPU machine may have
# mawk).
#
# Loops are found on the instruction-level control-flow graph: a branch to
# an earlier instruction t that dominates it is a back edge, and its loop is
# every instruction that reaches the branch without passing t. ptxas puts
# slow paths (mbarrier retry spins, say) after the kernel's EXIT and
# branches back into the loop's middle: those blocks belong to the loop,
# and their branches back are not loops of their own.

function hex(s,    i, c, v) {
  v = 0
  sub(/^0x/, "", s)
  for (i = 1; i <= length(s); i++) {
    c = index("0123456789abcdef", tolower(substr(s, i, 1)))
    if (c == 0)
      break
    v = v * 16 + c - 1
  }
  return v
}

# The opcode for the histogram: the base mnemonic, with the modifiers that
# matter for the explanation (IMAD.WIDE, a load or store's vector width, the
# kind of an mbarrier operation).
function key_of(op,    n, p, k, i) {
  n = split(op, p, ".")
  k = p[1]
  if (k == "IMAD" && n > 1 && p[2] == "WIDE")
    return "IMAD.WIDE"
  if (k == "SYNCS" && n > 1)
    return k "." p[2]
  if (k ~ /^(LD|ST|LDS|STS|LDG|STG|LDGSTS|LDSM)$/)
    for (i = 2; i <= n; i++)
      if (p[i] == "64" || p[i] == "128")
        return k "." p[i]
  return k
}

function add_edge(from, to) {
  succ[from, ++nsucc[from]] = to
  pred[to, ++npred[to]] = from
}

# Whether t dominates b: b cannot be reached from the entry without t.
function dominates(t, b,    seen, stack, sp, i, j, s) {
  if (t == 1)
    return 1
  sp = 0
  stack[++sp] = 1
  seen[1] = 1
  while (sp > 0) {
    i = stack[sp--]
    if (i == b)
      return 0
    for (j = 1; j <= nsucc[i]; j++) {
      s = succ[i, j]
      if (s != t && !(s in seen)) {
        seen[s] = 1
        stack[++sp] = s
      }
    }
  }
  return 1
}

# The natural loop of back edge b -> t into body[]: t, and every instruction
# that reaches b without passing t. Returns its size (padding excluded).
function natural_loop(t, b, body,    stack, sp, i, j, p, n) {
  split("", body)
  body[t] = 1
  sp = 0
  if (!(b in body)) {
    body[b] = 1
    stack[++sp] = b
  }
  while (sp > 0) {
    i = stack[sp--]
    for (j = 1; j <= npred[i]; j++) {
      p = pred[i, j]
      if (!(p in body)) {
        body[p] = 1
        stack[++sp] = p
      }
    }
  }
  n = 0
  for (i in body)
    if (!dead[i])
      n++
  return n
}

function finish(    i, j, k, t, n, size, best, best_t, best_b, has, nested, total, body, hot, cnt, keys, nk, tmp, line,
                    regs, shown, outside, nback, back_t, back_b) {
  if (fname == "" || ninst == 0 || (only != "" && fname !~ only)) {
    reset()
    return
  }
  total = 0
  for (i = 1; i <= ninst; i++)
    if (!dead[i])
      total++
  # The graph: fall-through unless an unconditional branch or exit; the
  # branch target (CALL.REL.NOINC is ptxas's conditional jump out of a loop).
  for (i = 1; i <= ninst; i++) {
    t = -1
    if (tgt[i] != "") {
      t = (tgt[i] in lab) ? lab[tgt[i]] : (tgt[i] ~ /^0x/ ? hex(tgt[i]) : -1)
      t = (t in at) ? at[t] : -1
    }
    if (t > 0)
      add_edge(i, t)
    if (i < ninst && !(uncond[i] && op[i] ~ /^(BRA|EXIT|RET|BPT)/))
      add_edge(i, i + 1)
    if (t > 0 && t <= i && dominates(t, i)) {
      back_t[++nback] = t
      back_b[nback] = i
    }
  }
  # The innermost loop with KEY: the smallest such natural loop.
  best = 0
  for (n = 1; n <= nback; n++) {
    size = natural_loop(back_t[n], back_b[n], body)
    has = 0
    for (i in body)
      if (key_of(op[i]) == key || substr(op[i], 1, length(key) + 1) == key ".")
        has = 1
    if (has && (best == 0 || size < best)) {
      best = size
      best_t = back_t[n]
      best_b = back_b[n]
    }
  }
  regs = (fname in reg) ? reg[fname] : "?"
  printf "%s %s: %s registers, %d SASS instructions (NOP and @!PT padding excluded)\n", label, fname, regs, total
  line = "SASS " label "|" fname " regs=" regs " total=" total
  if (best == 0) {
    printf "    no loop contains %s\n", key
    print line " loop=none"
    reset()
    return
  }
  natural_loop(best_t, best_b, hot)
  nested = 0
  for (n = 1; n <= nback; n++)
    if ((back_t[n] in hot) && (back_b[n] in hot) && !(back_t[n] == best_t && back_b[n] == best_b))
      nested++
  nk = 0
  outside = 0
  for (i = 1; i <= ninst; i++) {
    if (!(i in hot) || dead[i])
      continue
    if (i < best_t || i > best_b)
      outside++
    k = key_of(op[i])
    if (!(k in cnt))
      keys[++nk] = k
    cnt[k]++
  }
  # Most frequent first (insertion sort: a few dozen keys).
  for (i = 2; i <= nk; i++)
    for (j = i; j > 1 && cnt[keys[j]] > cnt[keys[j - 1]]; j--) {
      tmp = keys[j]
      keys[j] = keys[j - 1]
      keys[j - 1] = tmp
    }
  printf "    hot loop (innermost containing %s): header /*%04x*/, back edge /*%04x*/: %d instructions", key,
         addr[best_t], addr[best_b], best
  printf " (%d placed outside that range), %d inner loop(s)\n", outside, nested
  printf "   "
  shown = 0
  for (i = 1; i <= nk; i++) {
    if (shown == 12) {
      printf "\n   "
      shown = 0
    }
    printf " %s %d", keys[i], cnt[keys[i]]
    shown++
    line = line " " keys[i] "=" cnt[keys[i]]
  }
  printf "\n"
  print line " loop=" best " nested=" nested
  reset()
}

function reset() {
  fname = ""
  ninst = 0
  pending = ""
  split("", op); split("", dead); split("", uncond); split("", tgt); split("", addr); split("", at); split("", lab)
  split("", succ); split("", nsucc); split("", pred); split("", npred)
}

# The first file: -res-usage. " Function NAME:" then " REG:40 STACK:0 ...".
FNR == NR {
  if ($1 == "Function" && $2 ~ /:$/) {
    rname = $2
    sub(/:$/, "", rname)
  } else if (rname != "" && match($0, /REG:[0-9]+/)) {
    reg[rname] = substr($0, RSTART + 4, RLENGTH - 4)
    rname = ""
  }
  next
}

/Function : / {
  finish()
  fname = $NF
  next
}

# A label (cuobjdump of some versions prints branch targets as `(.L_x_N)`):
# the address of the next instruction.
/^[ \t]*\.L[A-Za-z0-9_]*:/ {
  pending = pending " " $1
  next
}

# An instruction: /*0a30*/ [@P0] OPCODE operands ;
/^[ \t]*\/\*[0-9a-f]+\*\// {
  if (fname == "")
    next
  s = $0
  sub(/^[ \t]*\/\*/, "", s)
  a = s
  sub(/\*\/.*/, "", a)
  sub(/^[0-9a-f]+\*\/[ \t]*/, "", s)
  sub(/;.*/, "", s)
  n = split(s, f, /[ \t]+/)
  i = 1
  if (f[i] ~ /^@/)
    i++
  if (f[i] == "" || f[i] ~ /^\/\*/)
    next
  ninst++
  addr[ninst] = hex(a)
  at[addr[ninst]] = ninst
  op[ninst] = f[i]
  # Padding: NOPs, and instructions under the never-true predicate @!PT
  # (ptxas puts `@!PT LDS RZ, [RZ]` before LDGSTS).
  dead[ninst] = f[i] == "NOP" || f[1] == "@!PT"
  # Unconditional: no predicate (or @PT) and, for a branch, no predicate
  # operand (BRA.U !UP0, target; BRA.DIV UR4, target).
  uncond[ninst] = (i == 1 || f[1] == "@PT") && s !~ /,/
  tgt[ninst] = ""
  if (f[i] ~ /^(BRA|CALL)/ && f[1] != "@!PT") {
    if (match(s, /\.L[A-Za-z0-9_]*/))
      tgt[ninst] = substr(s, RSTART, RLENGTH)
    else if (match(s, /0x[0-9a-f]+/))
      tgt[ninst] = substr(s, RSTART, RLENGTH)
  }
  if (pending != "") {
    m = split(pending, ls, " ")
    for (j = 1; j <= m; j++) {
      sub(/:$/, "", ls[j])
      lab[ls[j]] = addr[ninst]
    }
    pending = ""
  }
  next
}

END { finish() }
