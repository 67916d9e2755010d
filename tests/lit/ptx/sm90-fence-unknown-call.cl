// sm_90: a call of a function the module does not define (here an import,
// which the PTX emitter would then refuse by name) may write local memory:
// the fence before the bulk store stays. Checked on the lowered SPIR-V.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --raise-async-copies --lower-async-copies=ptx,sm=90 --validate %t.spv --print | FileCheck %s
// CHECK: OpName [[EXT:%[0-9]+]] "ext"
// CHECK: OpName [[FENCE:%[0-9]+]] "__gac_fence_proxy_async"
// CHECK: OpFunctionCall %{{[0-9]+}} [[EXT]]
// CHECK: OpFunctionCall %{{[0-9]+}} [[FENCE]]
void ext(local float *t);
kernel void k(global float *out, local float *tile) {
  ext(tile);
  event_t e = async_work_group_copy_2D2D(out, 0, tile, 0, 4, 256, 1, 256, 256, 0);
  wait_group_events(1, &e);
}
