// A big-endian module emits as its little-endian original does: gac reads
// either byte order and keeps the input's when it writes SPIR-V, but
// llvm-spirv-15 -r reads little-endian only (swapped words fail with
// "invalid magic number"), so the GPU paths' bridge hands llvm-spirv-15 the
// module in host order: PTX (sm_80, sm_90, sm_90 warp-specialised) and
// AMDGCN assembly are identical.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang-spir %s -o %t/k.bc
// RUN: llvm-spirv-15 %t/k.bc -o %t/le.spv
// RUN: python3 %S/../../corpus/byteswap.py %t/le.spv %t/be.spv
// RUN: od -An -tx1 -N4 %t/be.spv | FileCheck --check-prefix=MAGIC %s
// MAGIC: 07 23 02 03
// RUN: gac-opt --validate %t/be.spv
// RUN: gac-opt --emit=ptx --sm=80 %t/le.spv -o %t/le80.ptx
// RUN: gac-opt --emit=ptx --sm=80 %t/be.spv -o %t/be80.ptx
// RUN: cmp %t/le80.ptx %t/be80.ptx
// RUN: gac-opt --emit=ptx --sm=90 %t/le.spv -o %t/le90.ptx
// RUN: gac-opt --emit=ptx --sm=90 %t/be.spv -o %t/be90.ptx
// RUN: cmp %t/le90.ptx %t/be90.ptx
// RUN: gac-opt --emit=ptx --sm=90,warp-specialize %t/le.spv -o %t/lews.ptx
// RUN: gac-opt --emit=ptx --sm=90,warp-specialize %t/be.spv -o %t/bews.ptx
// RUN: cmp %t/lews.ptx %t/bews.ptx
// RUN: gac-opt --emit=amdgcn --mcpu=gfx942 %t/le.spv -o %t/le.s
// RUN: gac-opt --emit=amdgcn --mcpu=gfx942 %t/be.spv -o %t/be.s
// RUN: cmp %t/le.s %t/be.s
// Passes keep the byte order (the SPIR-V written stays big-endian).
// RUN: gac-opt --raise-async-copies %t/be.spv -o %t/raised-be.spv
// RUN: od -An -tx1 -N4 %t/raised-be.spv | FileCheck --check-prefix=MAGIC %s
// RUN: FileCheck %s < %t/be80.ptx
// CHECK: .entry tile(
// CHECK: cp.async

kernel void tile(global const float *in, global float *out, local float *buf) {
  event_t e = async_work_group_copy_2D2D(buf, 0, in, get_group_id(0) * 64, 4, 16, 4, 64, 16, 0);
  wait_group_events(1, &e);
  out[get_global_id(0)] = buf[get_local_id(0)] * 2.0f;
}
