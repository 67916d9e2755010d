// 7-point 3D stencil over an N^3 grid stored with a one-cell border; the
// async variant stages each group's block with its halo in one 3D copy.
#define B 4 // the block edge: local size B x B x B

kernel void stencil3d(global const float *in, global float *out, int n) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int p = n + 2, area = p * p;
#if GAC_ASYNC
  local float blk[B + 2][B + 2][B + 2];
  int gx = get_group_id(0) * B, gy = get_group_id(1) * B, gz = get_group_id(2) * B;
  event_t e = async_work_group_copy_3D3D(blk, 0, in, gz * area + gy * p + gx, sizeof(float), B + 2, B + 2, B + 2,
                                         p, area, B + 2, (B + 2) * (B + 2), 0);
  wait_group_events(1, &e);
  int lx = get_local_id(0) + 1, ly = get_local_id(1) + 1, lz = get_local_id(2) + 1;
#define AT(dx, dy, dz) blk[lz + (dz)][ly + (dy)][lx + (dx)]
#else
#define AT(dx, dy, dz) in[(z + 1 + (dz)) * area + (y + 1 + (dy)) * p + x + 1 + (dx)]
#endif
  out[(z * n + y) * n + x] = 0.25f * AT(0, 0, 0) + 0.125f * (AT(-1, 0, 0) + AT(1, 0, 0) + AT(0, -1, 0) +
                                                            AT(0, 1, 0) + AT(0, 0, -1) + AT(0, 0, 1));
}
