// Workgroup pointers the checker cannot follow to one buffer (here the
// module before --raise-async-copies: copies are calls taking the __local
// pointer) must give "cannot decide", not a crash: two unknown buffers once
// made it index its buffer table at -1.
// RUN: %clang-spir %S/../../../bench/cuda/tile_copy.cl -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --check-async %t.spv 2>&1 | FileCheck %s
// CHECK: check-async: {{[0-9]+}} proved, 0 violated, {{[1-9][0-9]*}} cannot decide
