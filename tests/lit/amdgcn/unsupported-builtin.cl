// printf has no counterpart on the AMDGCN path (it needs the HIP runtime's
// host call buffer): an error that names it, exit 1, nothing written.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: rm -f %t.s
// RUN: %expect-exit 1 gac-opt --emit=amdgcn %t.spv -o %t.s 2>&1 | FileCheck %s
// RUN: not test -e %t.s
// CHECK: error: the module calls printf, which the AMDGCN path does not provide {{.*}}[amdgcn.builtin]
kernel void k(global float *x) { printf("%f\n", x[0]); }
