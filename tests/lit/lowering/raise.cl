// Calls to the 2D/3D builtins, in both directions, for spir (32-bit size_t)
// and spir64, become the Codeplay instructions; the declarations, their
// names and linkage decorations go, and the result still validates.
// RUN: clang-15 -cc1 -triple spir-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 %s -o %t.32.bc
// RUN: llvm-spirv-15 %t.32.bc -o %t.32.spv
// RUN: gac-opt --raise-async-copies --validate %t.32.spv -o %t.32.raised.spv
// RUN: gac-opt --print %t.32.raised.spv | FileCheck %s
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 %s -o %t.64.bc
// RUN: llvm-spirv-15 %t.64.bc -o %t.64.spv
// RUN: gac-opt --raise-async-copies --validate %t.64.spv -o %t.64.raised.spv
// RUN: gac-opt --print %t.64.raised.spv | FileCheck %s
// CHECK-NOT: gac_async_work_group_copy
// CHECK: OpExtension "SPV_KHR_non_semantic_info"
// CHECK: [[SET:%[0-9]+]] = OpExtInstImport "NonSemantic.Codeplay.GroupAsyncCopies"
// CHECK-NOT: gac_async_work_group_copy
// CHECK: [[E1:%[0-9]+]] = OpExtInst %{{[0-9]+}} [[SET]] GroupAsyncCopy2D2D Destination=[[TILE:%[0-9]+]] {{.*}} Source=[[IN:%[0-9]+]] {{.*}} Event=%{{[0-9]+}}
// CHECK: [[E2:%[0-9]+]] = OpExtInst %{{[0-9]+}} [[SET]] GroupAsyncCopy3D3D Destination=[[TILE]] {{.*}} Source=[[IN]] {{.*}} Event=[[E1]]
// CHECK: OpGroupWaitEvents
// CHECK: OpExtInst %{{[0-9]+}} [[SET]] GroupAsyncCopy2D2D Destination=%{{[0-9]+}} {{.*}} Source=[[TILE]]
// CHECK: OpExtInst %{{[0-9]+}} [[SET]] GroupAsyncCopy3D3D Destination=%{{[0-9]+}} {{.*}} Source=[[TILE]]
// CHECK-NOT: gac_async_work_group_copy
kernel void k(global float *in, global float *out, local float *tile, ulong n) {
  event_t e = async_work_group_copy_2D2D(tile, 0, in, 0, sizeof(float), 16, n, 64, 16, 0);
  e = async_work_group_copy_3D3D(tile, 0, in, 0, 4, 16, 8, 2, 64, 1024, 16, 128, e);
  wait_group_events(1, &e);
  tile[get_local_id(0)] *= 2;
  barrier(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy_2D2D(out, 0, tile, 0, 4, 16, 8, 16, 64, 0);
  e = async_work_group_copy_3D3D(out, 0, tile, 0, 4, 16, 8, 2, 16, 128, 64, 1024, e);
  wait_group_events(1, &e);
}
