// The RFC's GEMM-like loop: stages [0, 0, 2, 3, 3], order [0, 1, 3, 2, 4],
// stage 0 async: the copies to As and Bs (one group), X = As/Bs -> local
// (stage 2, runs for i + 1), Y = As/Bs -> local (stage 3, for i), Z =
// compute (stage 3). As and Bs get 4 versions. The RFC's counts: 3 before
// Y and 2 before X in the body; 2 - i before Y and 1 - i before X in the
// epilogue. Pruned (the default), the wait of 3 goes: it cannot wait, as
// the RFC notes, and so do the epilogue's waits before Y.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --pipeline-loops=no-prune,late-waits --validate %t.raised.spv -o %t.raw.spv 2>&1 | FileCheck --check-prefix=RAW %s
// RUN: gac-opt --pipeline-loops=late-waits --validate %t.raised.spv -o %t.pipelined.spv 2>&1 | FileCheck --check-prefix=PRUNED %s
// RUN: gac-opt --print %t.pipelined.spv | FileCheck --check-prefix=MODULE %s
// The schedule picture: well-formed SVG with the steps and the waits.
// RUN: gac-opt --pipeline-loops=no-prune,late-waits,svg=%t.svg %t.raised.spv -o %t.unused.spv 2>/dev/null
// RUN: python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" %t.svg
// RUN: FileCheck --check-prefix=SVG %s < %t.svg
// RUN: %expect-exit 1 gac-opt --pipeline-loops=svg=%t.missing/dir/x.svg %t.raised.spv -o %t.unused2.spv 2>&1 | FileCheck --check-prefix=SVG-ERR %s
// SVG: <svg xmlns="http://www.w3.org/2000/svg"
// SVG: prologue 0
// SVG: s0 (stage 0, async): iteration 0
// SVG: body (k = S .. n-1)
// SVG: wait(0, 3): 3 &#8594; 3 in flight
// SVG: wait(0, 2): 3 &#8594; 2 in flight
// SVG: epilogue 2
// SVG: </svg>
// SVG-ERR: cannot write the schedule picture {{.*}}x.svg [pipeline.svg]
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.pipelined.spv -o %t.lowered.spv
// RUN: spirv-val --target-env opencl1.2 %t.lowered.spv
// RAW: pipelined the loop: 5 statements, stages 0..3, 4 versions of %{{[0-9]+}}, 4 versions of %{{[0-9]+}}, 2 versions of %{{[0-9]+}}, 2 versions of %{{[0-9]+}};
// RAW-SAME: prologue 0: s0 s1 commit(0); prologue 1: s0 s1 commit(0); prologue 2: s0 s1 commit(0) wait(0,2) s2;
// RAW-SAME: body: s0 s1 commit(0) wait(0,3) s3 wait(0,2) s2 s4;
// RAW-SAME: epilogue 0: wait(0,2) s3 wait(0,1) s2 s4; epilogue 1: wait(0,1) s3 wait(0,0) s2 s4; epilogue 2: wait(0,0) s3 s4;
// PRUNED: body: s0 s1 commit(0) s3 wait(0,2) s2 s4;
// PRUNED-SAME: epilogue 0: s3 wait(0,1) s2 s4; epilogue 1: s3 wait(0,0) s2 s4; epilogue 2: s3 s4;
// MODULE-DAG: [[U32:%[0-9]+]] = OpTypeInt 32 0
// MODULE-DAG: [[ZERO:%[0-9]+]] = OpConstant [[U32]] 0
// MODULE-DAG: [[TWO:%[0-9]+]] = OpConstant [[U32]] 2
// MODULE-DAG: [[FOUR:%[0-9]+]] = OpConstant [[U32]] 4
// MODULE-DAG: OpTypeArray %{{[0-9]+}} [[FOUR]]
// MODULE: OpPhi
// MODULE: AsyncCommit Queue=[[ZERO]]
// MODULE: AsyncWait Queue=[[ZERO]] InFlight=[[TWO]]
#define K 64
kernel void gemm(global const float *A, global const float *B, global float *C, uint steps) {
  local float As[K], Bs[K], A0[K], B0[K], A1[K], B1[K];
  uint l = get_local_id(0);
  for (uint i = 0; i < steps; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, i * K, sizeof(float), K, 1, K, K, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(0, 1);
    e = async_work_group_copy_2D2D(Bs, 0, B, i * K, sizeof(float), K, 1, K, K, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(2, 3); /* X: shared -> local, one iteration ahead of Z */
    A0[l] = As[l];
    B0[l] = Bs[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    gac_pipeline_stage(3, 2); /* Y: shared -> local for this iteration */
    A1[l] = As[(l + 1) % K];
    B1[l] = Bs[(l + 1) % K];
    barrier(CLK_LOCAL_MEM_FENCE);
    gac_pipeline_stage(3, 4); /* Z: compute */
    C[i * K + l] = A0[l] * B0[l] + A1[l] * B1[l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
