// async_work_group_copy_fence (cl_khr_async_work_group_copy_fence) becomes
// AsyncCopyFence, which the text form prints and reads back; each target
// lowers it as lowering/common/copy_fences.h says: the OpenCL target as a
// barrier between the copies (it lowers the core copies itself then);
// sm_80 waits for its cp.async only where a copy into local memory is
// before the fence and conflicts with one after it, else the barrier alone;
// a fence between copies that cannot conflict goes.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --raise-async-copies --check-async --validate %t.spv -o %t.raised.spv 2>&1 | FileCheck --check-prefix=PROVED %s
// RUN: gac-opt --print %t.raised.spv | FileCheck --check-prefix=RAISED %s
// RUN: gac-opt --print %t.raised.spv | gac-as - -o %t.again.spv
// RUN: cmp %t.raised.spv %t.again.spv
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.raised.spv -o %t.lowered.spv
// RUN: spirv-val --target-env opencl1.2 %t.lowered.spv
// RUN: gac-opt --print %t.lowered.spv | FileCheck --check-prefix=COOP --implicit-check-not=OpGroupWaitEvents --implicit-check-not=OpGroupAsyncCopy %s
// RUN: gac-opt --lower-async-copies=opencl,strategy=lines --validate --target-env=opencl1.2 %t.raised.spv -o %t.lines.spv
// RUN: gac-opt --print %t.lines.spv | FileCheck --check-prefix=OPENCL %s
// RUN: gac-opt --emit=ptx --sm=80 %t.raised.spv -o %t.ptx
// RUN: FileCheck --check-prefix=SM80 %s < %t.ptx
// PROVED: check-async: {{[0-9]+}} proved, 0 violated, 0 cannot decide

// RAISED: [[SET:%[0-9]+]] = OpExtInstImport "NonSemantic.Gac.AsyncPipeline"
// RAISED: OpGroupAsyncCopy
// RAISED-NEXT: OpExtInst %{{[0-9]+}} [[SET]] AsyncCopyFence Flags=%{{[0-9]+}}
// RAISED-NEXT: OpGroupAsyncCopy

// The core copies are gac's own then (cooperative, also for lines: a
// barrier does not complete the driver's copies): no copy of 64 floats is
// left, the fence is a barrier, and the fence of `disjoint` is gone.
// OPENCL-NOT: NonSemantic.Gac
// OPENCL-NOT: OpGroupAsyncCopy %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}}{{$}}
// OPENCL: = OpFunction{{ }}
// OPENCL: OpControlBarrier
// OPENCL: OpGroupWaitEvents
// OPENCL-NEXT: OpControlBarrier
// OPENCL: = OpFunction{{ }}
// OPENCL-COUNT-2: OpControlBarrier
// OPENCL: OpGroupWaitEvents
// OPENCL-NEXT: OpControlBarrier
// OPENCL: = OpFunction{{ }}
// OPENCL-NOT: OpControlBarrier
// OPENCL: OpGroupWaitEvents
// OPENCL-NEXT: OpControlBarrier
// The default (cooperative) moves every copy itself: a wait is its barrier,
// and no copy or wait of the driver's is left. import_then_export: the
// fence's barrier and the wait's; export_then_import: its own, the fence's
// and the wait's; disjoint: the wait's; the kernels' wrappers and the copy
// helpers: none.
// COOP-NOT: NonSemantic.Gac
// COOP: = OpFunction{{ }}
// COOP-COUNT-2: OpControlBarrier
// COOP-NOT: OpControlBarrier
// COOP: = OpFunction{{ }}
// COOP-COUNT-3: OpControlBarrier
// COOP-NOT: OpControlBarrier
// COOP: = OpFunction{{ }}
// COOP: OpControlBarrier
// COOP-NOT: OpControlBarrier

// SM80-LABEL: .entry import_then_export(
// SM80: cp.async.ca.shared.global
// SM80: cp.async.wait_all;
// SM80-NEXT: bar.sync
// SM80: ld.shared
// SM80: cp.async.wait_all;
kernel void import_then_export(global const float *src, global float *out, local float *tile) {
  event_t e = async_work_group_copy(tile, src, 64, 0);
  async_work_group_copy_fence(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(out, (local const float *)tile, 64, e);
  wait_group_events(1, &e);
}

// The copy before the fence is loads and stores: the barrier alone.
// SM80-LABEL: .entry export_then_import(
// SM80: bar.sync
// SM80-NOT: cp.async.wait_all
// SM80: bar.sync
// SM80-NOT: cp.async.wait_all
// SM80: cp.async.ca.shared.global
kernel void export_then_import(global const float *src, global float *out, local float *tile) {
  tile[get_local_id(0)] = get_local_id(0);
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t e = async_work_group_copy(out, (local const float *)tile, 64, 0);
  async_work_group_copy_fence(CLK_LOCAL_MEM_FENCE);
  e = async_work_group_copy(tile, src, 64, e);
  wait_group_events(1, &e);
  out[64 + get_local_id(0)] = tile[get_local_id(0)];
}

// Two imports into distinct local arguments: nothing to order.
// SM80-LABEL: .entry disjoint(
// SM80: cp.async.ca.shared.global
// SM80-NOT: bar.sync
// SM80-NOT: cp.async.wait
// SM80: cp.async.cg.shared.global
// SM80-NOT: cp.async.wait
// SM80-NOT: bar.sync
// SM80: cp.async.ca.shared.global
// SM80-NOT: bar.sync
// SM80-NOT: cp.async.wait
// SM80: cp.async.ca.shared.global
// SM80: cp.async.wait_all;
kernel void disjoint(global const float *src, global float *out, local float *a, local float *b) {
  event_t e = async_work_group_copy(a, src, 64, 0);
  async_work_group_copy_fence(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  e = async_work_group_copy(b, src + 64, 64, e);
  wait_group_events(1, &e);
  out[get_local_id(0)] = a[get_local_id(0)] + b[get_local_id(0)];
}
