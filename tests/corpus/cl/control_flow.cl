// Loops, switch, nested branches, break/continue and a do-while.
int classify(int v) {
  // Switch on the value itself: with `v & 7` clang narrows the switch to an
  // i3, which llvm-spirv-15 rejects ("Invalid bit width in input: 3").
  switch (v) {
  case 0: return 10;
  case 1:
  case 2: return v * 3;
  case 5: v += 7; // fall through
  case 6: return v - 1;
  case 100: return 0;
  default: break;
  }
  return -v;
}

kernel void control_flow(global const int *in, global int *out, int n, int limit) {
  size_t gid = get_global_id(0);
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    int v = in[(gid + (size_t)i) % (size_t)n];
    if (v < 0)
      continue;
    if (v > limit)
      break;
    for (int j = 0; j < 3; ++j) {
      if ((v ^ j) & 1)
        acc += classify(v + j);
      else if (acc > 1000)
        acc -= v;
      else
        acc ^= j;
    }
  }
  int k = acc;
  do {
    k = (k & 1) ? 3 * k + 1 : k >> 1;
  } while (k > 1 && k < 10000);
  while (acc > limit)
    acc /= 2;
  out[gid] = acc + k;
}
