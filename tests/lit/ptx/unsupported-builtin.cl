// A builtin the PTX path does not define is an error that names it; the
// exit status is 1 and nothing is written. get_work_dim has no CUDA
// counterpart: a launch is always three-dimensional, so the number of
// dimensions the host meant is unknown, and a guess would be silently wrong.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -no-opaque-pointers -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: rm -f %t.ptx
// RUN: %expect-exit 1 gac-opt --emit=ptx --sm=80 %t.spv -o %t.ptx 2>&1 | FileCheck %s
// RUN: not test -e %t.ptx
// CHECK: error: the module calls _Z12get_work_dimv, which the PTX path does not provide {{.*}}[ptx.builtin]
kernel void k(global float *x) { x[get_global_id(0)] = sin(x[get_global_id(0)]) * get_work_dim(); }
