/* clang-15 -O2 and llvm-spirv-15 make 'OpSelect %Event' of the two events, which SPIR-V 1.0
 * does not allow ("Expected scalar or vector type as Result Type: Select"); gac-cc repairs it
 * (--split-event-selects, lit gac-cc/select-events). A legal kernel: the chained copy joins a
 * or b, and both are waited. gac-opt --check-async still says "violated": the chained copy is
 * covered only by waiting on both inputs, and the checker has no "one of these groups". */
kernel void k(global const uchar *in0, global uchar *out0, local uchar *l, int c) {
  event_t a = async_work_group_copy(l, in0, 16, 0);
  event_t b = async_work_group_copy(l + 16, in0 + 16, 16, 0);
  event_t s;
  if (c) s = a; else s = b;
  s = async_work_group_copy(l + 32, in0 + 32, 16, s);
  wait_group_events(1, &a);
  wait_group_events(1, &b);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id(0); i < 48; i += get_local_size(0)) out0[i] = l[i];
}
