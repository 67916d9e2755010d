// events=generic: each wait lines keeps takes its events list through
// OpPtrCastToGeneric, so llvm-spirv-15 -r calls the generic
// wait_group_events (_Z17wait_group_eventsiPU3AS49ocl_event), the one PoCL
// 5.0's kernel library defines; its private one calls a function the
// library lacks (lowering/opencl/pocl_generic_events.c). Without the option
// the list stays the private variable, as PoCL 3.1 needs.
// RUN: gac-cc %s -o %t.raised.spv
// RUN: gac-opt --lower-async-copies=opencl,strategy=lines,events=generic --validate --target-env=opencl2.0 %t.raised.spv -o %t.generic.spv
// RUN: spirv-val --target-env opencl2.0 %t.generic.spv
// RUN: gac-opt --print %t.generic.spv | FileCheck --check-prefix=GENERIC %s
// RUN: llvm-spirv-15 -r --spirv-target-env=CL1.2 %t.generic.spv -o %t.generic.bc
// RUN: llvm-dis-19 %t.generic.bc -o - | FileCheck --check-prefix=BITCODE %s
// RUN: gac-opt --lower-async-copies=opencl,strategy=lines --print %t.raised.spv | FileCheck --check-prefix=PRIVATE %s
// Not valid for an OpenCL 1.2 device, which has no generic pointers:
// RUN: %expect-exit 1 gac-opt --lower-async-copies=opencl,strategy=lines,events=generic --validate --target-env=opencl1.2 %t.raised.spv -o %t.bad.spv
// RUN: test ! -e %t.bad.spv
// GENERIC: OpCapability GenericPointer
// GENERIC: [[LIST:%[0-9]+]] = OpTypePointer Generic {{%[0-9]+}}
// GENERIC: [[CAST:%[0-9]+]] = OpPtrCastToGeneric [[LIST]] {{%[0-9]+}}
// GENERIC-NEXT: OpGroupWaitEvents {{%[0-9]+}} {{%[0-9]+}} [[CAST]]
// GENERIC-NOT: OpGroupWaitEvents {{%[0-9]+}} {{%[0-9]+}} {{%[0-9]+}}{{$}}
// BITCODE: call spir_func void @_Z17wait_group_eventsiPU3AS49ocl_event(
// BITCODE-NOT: @_Z17wait_group_eventsiP9ocl_event(
// PRIVATE-NOT: OpCapability GenericPointer
// PRIVATE-NOT: OpPtrCastToGeneric
// PRIVATE: OpGroupWaitEvents
kernel void k(global const float *in, global float *out, local float *tile, uint n) {
  for (uint t = 0; t < n; t++) {
    event_t e = async_work_group_copy_2D2D(tile, 0, in, t * 64, sizeof(float), 16, 4, 16, 16, 0);
    wait_group_events(1, &e);
    out[t * 64 + get_local_id(0)] = tile[get_local_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
