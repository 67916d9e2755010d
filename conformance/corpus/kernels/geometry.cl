// Geometric functions on float4: dot, length, normalize of positive
// vectors; cross of integer-valued ones (exact).
kernel void geometry(global const float4 *p, global const float4 *q, global float *s, global float4 *v) {
  size_t i = get_global_id(0);
#if GAC_ASYNC
  local float4 ps[32], qs[32]; // local size 32: 4 lines of 8
  event_t e = async_work_group_copy_2D2D(ps, 0, p, get_group_id(0) * 32, sizeof(float4), 8, 4, 8, 8, 0);
  e = async_work_group_copy_2D2D(qs, 0, q, get_group_id(0) * 32, sizeof(float4), 8, 4, 8, 8, e);
  wait_group_events(1, &e);
  float4 a = ps[get_local_id(0)], b = qs[get_local_id(0)];
#else
  float4 a = p[i], b = q[i];
#endif
  s[2 * i] = dot(a, b);
  s[2 * i + 1] = length(a);
  v[2 * i] = normalize(b);
  v[2 * i + 1] = cross(floor(a * 8.0f), floor(b * 8.0f));
}
