// OpenCL constant memory has no counterpart on the PTX path yet: a clear
// error naming the parameter, exit status 1, nothing written.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: rm -f %t.ptx
// RUN: %expect-exit 1 gac-opt --emit=ptx --sm=90 %t.spv -o %t.ptx 2>&1 | FileCheck %s
// RUN: not test -e %t.ptx
// CHECK: error: parameter 0 of k points to OpenCL constant memory, which the PTX path does not support yet {{.*}}[ptx.address-space]
kernel void k(constant float *c, global float *x) { x[get_global_id(0)] = c[get_global_id(0)]; }
