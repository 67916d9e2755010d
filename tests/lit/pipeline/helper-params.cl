// A pipelined loop in a helper function whose tiles are __local pointers to
// arrays the kernels declare, as CLBlast's Xgemm is written (two callers:
// clang keeps the helper a function). The pipeliner makes the versions in
// the callers' arrays, [2 x [256]] in place of [256], which the calls pass
// whole: the helper's pointers take that type, and version v is &a[v][0],
// the form of a kernel's own versioned array. Refused, the loop as written:
// callers whose arrays differ in length (CASE=1), a pointer into the middle
// of an array (2), one array passed for both pointers (3), a kernel that
// reads its array after the call (4: it would see version 0 alone).
// RUN: %clang-spir %s -o %t.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv && gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --pipeline-loops=wide-copies --validate %t.raised.spv -o %t.out.spv 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: gac-opt --print %t.out.spv | FileCheck --check-prefix=MODULE %s
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.out.spv -o %t.lowered.spv
// RUN: spirv-val --target-env opencl1.2 %t.lowered.spv
// RUN: gac-opt --check-async %t.out.spv -o /dev/null 2>&1 | FileCheck --check-prefix=CHECKED %s
// RUN: %clang-spir -DCASE=1 %s -o %t.1.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.1.bc -o %t.1.spv && gac-opt --sort-blocks --raise-async-copies %t.1.spv -o %t.1.raised.spv
// RUN: gac-opt --pipeline-loops --validate %t.1.raised.spv -o %t.1.out.spv 2>&1 | FileCheck --check-prefix=LENGTHS %s
// RUN: %clang-spir -DCASE=2 %s -o %t.2.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.2.bc -o %t.2.spv && gac-opt --sort-blocks --raise-async-copies %t.2.spv -o %t.2.raised.spv
// RUN: gac-opt --pipeline-loops --validate %t.2.raised.spv -o %t.2.out.spv 2>&1 | FileCheck --check-prefix=MIDDLE %s
// RUN: %clang-spir -DCASE=3 %s -o %t.3.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.3.bc -o %t.3.spv && gac-opt --sort-blocks --raise-async-copies %t.3.spv -o %t.3.raised.spv
// RUN: gac-opt --pipeline-loops --validate %t.3.raised.spv -o %t.3.out.spv 2>&1 | FileCheck --check-prefix=SHARED %s
// RUN: gac-opt --print %t.3.out.spv | FileCheck --check-prefix=AS-WRITTEN %s
// RUN: %clang-spir -DCASE=4 %s -o %t.4.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.4.bc -o %t.4.spv && gac-opt --sort-blocks --raise-async-copies %t.4.spv -o %t.4.raised.spv
// RUN: gac-opt --pipeline-loops --validate %t.4.raised.spv -o %t.4.out.spv 2>&1 | FileCheck --check-prefix=KERNEL-USES %s
// REMARK: remark: {{.*}}pipelined the loop: 2 statements, stages 0..1, 2 versions of %[[A:[0-9]+]], 2 versions of %[[B:[0-9]+]];{{.*}}[Pipeline.Schedule]
// REMARK: remark: {{.*}}the loop's local arrays take 4096 bytes pipelined, 2048 as written; the function's, 4096 [Pipeline.LocalMemory]
// MODULE-DAG: [[N:%[0-9]+]] = OpConstant %{{[0-9]+}} 256
// MODULE-DAG: [[TWO:%[0-9]+]] = OpConstant %{{[0-9]+}} 2
// MODULE-DAG: [[TILE:%[0-9]+]] = OpTypeArray %{{[0-9]+}} [[N]]
// MODULE: [[V:%[0-9]+]] = OpTypeArray [[TILE]] [[TWO]]
// MODULE: [[VP:%[0-9]+]] = OpTypePointer Workgroup [[V]]
// MODULE-COUNT-4: OpVariable [[VP]] Workgroup
// MODULE: OpFunctionParameter [[VP]]
// MODULE: OpFunctionParameter [[VP]]
// MODULE: OpInBoundsAccessChain %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}}
// MODULE: OpFunctionCall %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}} %{{[0-9]+}}
// CHECKED: check-async: {{[0-9]+}} proved, 0 violated
// LENGTHS: warning: {{.*}}the __local pointer %{{[0-9]+}} needs 2 versions, but its calls pass arrays of {{256 and of 128|128 and of 256}} elements; each version must be one length; the loop stays as written [Pipeline.Buffers]
// MIDDLE: warning: {{.*}}the __local pointer %{{[0-9]+}} needs 2 versions, but this call passes something other than the start of a __local array; pass an array declared in the kernel; the loop stays as written [Pipeline.Buffers]
// SHARED: warning: {{.*}}the array %{{[0-9]+}} is passed for two __local pointers that need versions; the loop stays as written [Pipeline.Buffers]
// KERNEL-USES: warning: {{.*}}the __local pointer %{{[0-9]+}} needs 2 versions, made in the array %{{[0-9]+}} this call passes, which its kernel also uses; there it would see one version only; the loop stays as written [Pipeline.Buffers]
// AS-WRITTEN-NOT: PipelineLoop
#define TS 16
void tiles(global const float *A, global const float *B, global float *C, uint n, local float *As, local float *Bs) {
  uint lx = get_local_id(0), ly = get_local_id(1);
  float acc = 0;
  for (uint t = 0; t < n / TS; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, t * TS, sizeof(float), TS, TS, n, TS, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * TS * n, sizeof(float), TS, TS, n, TS, e);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    for (uint k = 0; k < TS; k++)
      acc += As[ly * TS + k] * Bs[k * TS + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[ly * n + lx] = acc;
}
kernel void first(global const float *A, global const float *B, global float *C, uint n) {
  local float As[TS * TS], Bs[TS * TS];
#if CASE == 3
  tiles(A, B, C, n, As, As);
#else
  tiles(A, B, C, n, As, Bs);
#endif
#if CASE == 4
  C[n * n + get_local_id(0)] = As[get_local_id(0)];
#endif
}
kernel void second(global const float *A, global const float *B, global float *C, uint n) {
#if CASE == 1
  local float As[TS * TS / 2], Bs[TS * TS / 2];
#else
  local float As[TS * TS], Bs[TS * TS];
#endif
#if CASE == 2
  tiles(A, B, C, n, As + TS, Bs);
#elif CASE == 3
  tiles(A, B, C, n, Bs, Bs);
#else
  tiles(A, B, C, n, As, Bs);
#endif
}
