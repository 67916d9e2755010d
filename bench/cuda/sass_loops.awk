# sass_loops.awk: per function of `cuobjdump -sass` output, the SASS
# instruction count and the hot loop: the innermost loop (from the target of
# a backward branch to that branch) that contains an instruction with opcode
# KEY (FFMA for SGEMM, STG for the stencil), its size and opcode histogram.
# Used by profile.sh.
#
#   awk -v key=FFMA -v label=TEXT [-v only=REGEX] -f sass_loops.awk RES SASS
#
# RES is `cuobjdump -res-usage` of the same binary (registers per function),
# SASS its `cuobjdump -sass`. only: analyse the functions whose (mangled)
# name matches REGEX. label: printed before the function's name. Prints a
# readable block and one `SASS label|name regs total loop OP=count...` line
# per function. POSIX awk (no gawk extensions): the GPU machine may have mawk.

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

function finish(    i, j, k, t, best, best_t, best_b, size, has, nested, total, cnt, keys, nk, tmp, line, regs, shown) {
  if (fname == "" || ninst == 0 || (only != "" && fname !~ only)) {
    fname = ""
    ninst = 0
    return
  }
  total = 0
  for (i = 1; i <= ninst; i++)
    if (op[i] != "NOP")
      total++
  # Backward branches: loops [t, i].
  best = 0
  for (i = 1; i <= ninst; i++) {
    if (op[i] !~ /^BRA/ || tgt[i] == "")
      continue
    t = (tgt[i] in lab) ? lab[tgt[i]] : (tgt[i] ~ /^0x/ ? hex(tgt[i]) : -1)
    if (!(t in at) || at[t] >= i)
      continue
    t = at[t]
    loop_t[i] = t
    has = 0
    for (j = t; j <= i; j++)
      if (key_of(op[j]) == key || substr(op[j], 1, length(key) + 1) == key ".")
        has = 1
    if (has && (best == 0 || i - t < best)) {
      best = i - t + 1
      best_t = t
      best_b = i
    }
  }
  regs = (fname in reg) ? reg[fname] : "?"
  printf "%s %s: %s registers, %d SASS instructions (NOPs excluded)\n", label, fname, regs, total
  line = "SASS " label "|" fname " regs=" regs " total=" total
  if (best == 0) {
    printf "    no loop contains %s\n", key
    print line " loop=none"
  } else {
    nested = 0
    for (i = best_t; i < best_b; i++)
      if ((i in loop_t) && loop_t[i] >= best_t)
        nested++
    nk = 0
    for (i = best_t; i <= best_b; i++) {
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
    printf "    hot loop (innermost containing %s) /*%04x*/../*%04x*/: %d instructions, %d nested loop(s)\n", key,
           addr[best_t], addr[best_b], best, nested
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
  }
  fname = ""
  ninst = 0
  split("", op); split("", tgt); split("", addr); split("", at); split("", lab); split("", loop_t); split("", cnt)
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
  pending = ""
  next
}

# A label (CUDA 11.3+ prints branch targets as `(.L_x_N)`): the address of
# the next instruction.
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
  tgt[ninst] = ""
  if (f[i] ~ /^BRA/) {
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
