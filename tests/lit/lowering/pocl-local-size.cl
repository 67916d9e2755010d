// For PoCL's CPU device (device=pocl-cpu, the OpenCL target's default),
// every component taken out of the local size is clamped to [1, 2^32 - 1]
// (u_max, then u_min, of OpenCL.std): PoCL 3.1's -O3 split the rotated
// read-out `for (i = lid; i < 1u; i += get_local_size(0))` on `size == 0`,
// and its work-item loops then ran every work-item down work-item 0's path
// (lowering/opencl/pocl_local_size.c; random case 2024/143). The clamps
// cover the lowering's own reads too. device=gpu has none; llvm-spirv-15 -r
// takes the result.
// RUN: gac-cc %s -o %t.raised.spv
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.raised.spv -o %t.cpu.spv
// RUN: spirv-val --target-env opencl1.2 %t.cpu.spv
// RUN: llvm-spirv-15 -r --spirv-target-env=CL1.2 %t.cpu.spv -o %t.cpu.bc
// RUN: gac-opt --print %t.cpu.spv | FileCheck --check-prefix=CPU %s
// RUN: gac-opt --lower-async-copies=opencl,strategy=leader --print %t.raised.spv | FileCheck --check-prefix=CPU %s
// RUN: gac-opt --lower-async-copies=opencl,device=gpu --print %t.raised.spv | FileCheck --check-prefix=GPU %s
// CPU: [[STD:%[0-9]+]] = OpExtInstImport "OpenCL.std"
// CPU: OpDecorate [[WGS:%[0-9]+]] BuiltIn WorkgroupSize
// CPU: [[SIZE:%[0-9]+]] = OpLoad {{%[0-9]+}} [[WGS]]
// CPU-NEXT: [[X:%[0-9]+]] = OpCompositeExtract {{%[0-9]+}} [[SIZE]] 0
// CPU-NEXT: [[LO:%[0-9]+]] = OpExtInst {{%[0-9]+}} [[STD]] u_max [[X]] {{%[0-9]+}}
// CPU-NEXT: OpExtInst {{%[0-9]+}} [[STD]] u_min [[LO]] {{%[0-9]+}}
// Every read of the size is clamped: no extract of a size load is used bare.
// RUN: gac-opt --print %t.cpu.spv | awk '/BuiltIn WorkgroupSize/ { w = $2 } $3 == "OpLoad" && $5 == w { l[$1] = 1 } $3 == "OpCompositeExtract" && l[$5] { x[$1] = 1; n++ } $3 == "OpExtInst" && $6 == "u_max" && x[$7] { c++ } END { print (n > 0 && n == c) ? "all " n " clamped" : (n - c) " of " n " bare" }' | FileCheck --check-prefix=ALL %s
// ALL: all {{[0-9]+}} clamped
// GPU-NOT: u_max
// GPU-NOT: u_min
kernel void readout(global uchar *out, global const uchar *in, local uchar *tile) {
  event_t e = async_work_group_copy_2D2D(tile, 0, in, 0, 1, 16, 4, 16, 16, 0);
  wait_group_events(1, &e);
  for (uint i = get_local_id(0); i < 1u; i += get_local_size(0))
    out[i] = tile[i] + 1;
}
