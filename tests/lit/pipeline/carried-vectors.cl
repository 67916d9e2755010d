// Values carried round a pipelined loop, as an SGEMM written for speed has
// them (issue 26): a float4 accumulator, and 64 scalar ones.
// - With fewer iterations than stages, the prologue and epilogue guard each
//   statement and select the carried values it ran on by a scalar bool:
//   an OpSelect of %v4float on a scalar condition, which spirv-val rejects
//   ("Expected vector sizes of Result Type and the condition to be
//   equal"). Such a select, as one of an event, is now a branch and an
//   OpPhi (gac_split_event_selects).
// - More than 32 carried values were refused ([Pipeline.Carried]); the
//   limit is 256.
// Both run right on PoCL, every strategy and the layer, for 0 to 7 tiles:
// conformance program carried-s3 (conformance/kernels/carried.cl).
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --pipeline-loops --validate %t.raised.spv -o %t.piped.spv 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: spirv-val %t.piped.spv
// RUN: gac-opt --print %t.piped.spv | FileCheck %s
// RUN: gac-opt --emit=ptx --sm=80 %t.raised.spv -o %t.ptx
// REMARK: remark: word {{[0-9]+}}: pipelined the loop: 2 statements, stages 0..2
// REMARK: remark: word {{[0-9]+}}: pipelined the loop: 2 statements, stages 0..2
// CHECK: [[V4:%[0-9]+]] = OpTypeVector %{{[0-9]+}} 4
// CHECK-NOT: OpSelect [[V4]]
// CHECK: OpPhi [[V4]]
// CHECK-NOT: OpSelect [[V4]]
#define IDX(i) ((i / 10 - 1) * 8 + i % 10) /* X64's names c10 .. c87 as 0 .. 63 */
#define STEP(i) c##i += v * (float)(IDX(i) + 1);
#define DECL(i) float c##i = 0.0f;
#define STORE(i) out[get_global_id(0) * 64 + IDX(i)] = c##i;
#define X8(M, b) M(b##0) M(b##1) M(b##2) M(b##3) M(b##4) M(b##5) M(b##6) M(b##7)
#define X64(M) X8(M, 1) X8(M, 2) X8(M, 3) X8(M, 4) X8(M, 5) X8(M, 6) X8(M, 7) X8(M, 8)

kernel void float4_acc(global const float *a, global float4 *out, int n) {
  local float tile[64];
  float4 acc = (float4)(0.0f);
  for (int t = 0; t < n; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy(tile, a + t * 64, 64, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(2, 1);
    float v = tile[get_local_id(0)];
    acc += (float4)(v, v * 2.0f, v * 3.0f, v * 4.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(0)] = acc;
}

kernel void scalar_accs(global const float *a, global float *out, int n) {
  local float tile[64];
  X64(DECL)
  for (int t = 0; t < n; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy(tile, a + t * 64, 64, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(2, 1);
    float v = tile[get_local_id(0)];
    X64(STEP)
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  X64(STORE)
}
