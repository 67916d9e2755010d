// A ushort volume brightened with saturation, block by block: the async
// variant copies each group's B^3 block into local memory with a 3D copy.
#define B 4

kernel void volume_u16(global const ushort *in, global ushort *out, int n, ushort add) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  size_t i = ((size_t)z * n + y) * n + x;
#if GAC_ASYNC
  local ushort blk[B * B * B];
  size_t g = ((size_t)get_group_id(2) * B * n + get_group_id(1) * B) * n + get_group_id(0) * B;
  event_t e = async_work_group_copy_3D3D(blk, 0, in, g, sizeof(ushort), B, B, B, n, n * n, B, B * B, 0);
  wait_group_events(1, &e);
  ushort v = blk[(get_local_id(2) * B + get_local_id(1)) * B + get_local_id(0)];
#else
  ushort v = in[i];
#endif
  out[i] = add_sat(hadd(v, (ushort)(v >> 2)), add);
}
