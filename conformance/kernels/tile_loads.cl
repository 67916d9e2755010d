// Tiles loaded with plain code, as a user of NVIDIA's OpenCL writes them: on
// the PTX path the 16-byte ones become cp.async (lowering/ptx/async_tile_loads.c).
// Each kernel reads what other work-items loaded, so the barrier must
// publish the copies. Work-group size L (64), one group per L float4s.
#define L 64

// Two tiles, two rows of float4 each: four copies, one wait.
kernel void tile_sum(global const float4 *a, global const float4 *b, global float4 *out) {
  local float4 ta[2 * L], tb[2 * L];
  size_t l = get_local_id(0), g = get_group_id(0) * 2 * L;
  ta[l] = a[g + l];
  ta[l + L] = a[g + l + L];
  tb[l] = b[g + l];
  tb[l + L] = b[g + l + L];
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t o = get_global_id(0);
  out[2 * o] = ta[2 * L - 1 - l] + tb[l ^ 1];
  out[2 * o + 1] = ta[l] * tb[2 * L - 1 - l];
}

// Each work-item stores one element twice, at an address the compiler
// cannot tell from the first (where[l] == l): the second value must win.
kernel void twice(global const float4 *a, global const float4 *b, global const int *where, global float4 *out) {
  local float4 t[L];
  size_t l = get_local_id(0), g = get_global_id(0);
  t[l] = a[g];
  t[where[l] & (L - 1)] = b[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[g] = t[L - 1 - l];
}

// A work-item reads its own element before the barrier, then another's
// after it; and a tile loaded in a loop of a run-time count (a loop that
// stays a loop: its loads stay loads).
kernel void read_back(global const float4 *a, global float4 *out, int rows) {
  local float4 t[4 * L];
  size_t l = get_local_id(0), g = get_global_id(0);
  t[l] = a[g];
  float4 mine = t[l];
  for (int r = 1; r < rows; r++)
    t[l + r * L] = a[g + r * get_global_size(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  float4 sum = mine;
  for (int r = 0; r < rows; r++)
    sum += t[(L - 1 - l) + r * L];
  out[g] = sum;
}
