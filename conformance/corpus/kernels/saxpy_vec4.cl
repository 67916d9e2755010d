// y = a x + y on float4 through vload4/vstore4 and mad, four lanes per
// work-item.
kernel void saxpy_vec4(float a, global const float *x, global float *y) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local float xs[4 * 64]; // local size 64: four lines of 64 floats
  event_t e = async_work_group_copy_2D2D(xs, 0, x, get_group_id(0) * 256, sizeof(float), 64, 4, 64, 64, 0);
  wait_group_events(1, &e);
  float4 xv = vload4(get_local_id(0), xs);
#else
  float4 xv = vload4(i, x);
#endif
  vstore4(mad((float4)(a), xv, vload4(i, y)), i, y);
}
