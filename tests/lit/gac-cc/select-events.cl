// clang-15 -O2 and llvm-spirv-15 make `if (c) s = a; else s = b;` on events
// an OpSelect of OpTypeEvent, which SPIR-V 1.0 forbids ("Expected scalar or
// vector type as Result Type"). The repair --split-event-selects gives the
// branch and OpPhi back, so gac-cc takes this legal kernel. The chained
// copy joins a's or b's group, both waited: on the GPU both waits drain
// (wait_copies.h unites the phi).
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: %expect-exit 1 gac-opt --validate %t.spv 2>&1 | FileCheck --check-prefix=BEFORE %s
// RUN: gac-opt --split-event-selects --validate %t.spv -o %t.split.spv
// RUN: gac-opt --print %t.split.spv | FileCheck --check-prefix=AFTER %s
// RUN: gac-cc %s -o %t.raised.spv
// RUN: gac-cc --emit=ptx --sm=80 %s -o %t.ptx
// RUN: FileCheck --check-prefix=PTX %s < %t.ptx
// BEFORE: OpSelect
// AFTER: [[EVENT:%[0-9]+]] = OpTypeEvent
// AFTER-NOT: OpSelect [[EVENT]]
// AFTER: OpPhi [[EVENT]]
// PTX: cp.async.wait_all;
// PTX: cp.async.wait_all;
kernel void k(global const uint *in0, global uint *out0, local uint *l, int c) {
  event_t a = async_work_group_copy(l, in0, 16, 0);
  event_t b = async_work_group_copy(l + 16, in0 + 16, 16, 0);
  event_t s;
  if (c)
    s = a;
  else
    s = b;
  s = async_work_group_copy(l + 32, in0 + 32, 16, s);
  wait_group_events(1, &a);
  wait_group_events(1, &b);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint i = get_local_id(0); i < 48; i += get_local_size(0))
    out0[i] = l[i];
}
