// --pipeline-loops=wide-copies (as --emit=ptx asks): where a copy's
// pointers, offsets and strides change by multiples of 16 bytes an
// iteration (here t * 16 floats), a test before the loop decides once
// whether they are all 16-byte aligned; the pipelined code, taken then,
// issues the copy in 16-byte elements (no run-time choice of unit width
// left in it), and the loop as written runs otherwise. Not where a line is
// 72 bytes (halo) or the offset moves by 12 bytes an iteration (odd_step).
// The checker proves both ways, and the module lowers and validates.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --pipeline-loops=wide-copies --validate %t.raised.spv -o %t.wide.spv 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: gac-opt --pipeline-loops=wide-copies %t.raised.spv -o %t.wide2.spv 2>&1 | grep -c Pipeline.WideCopies | FileCheck --check-prefix=ONE %s
// RUN: gac-opt --print %t.wide.spv | FileCheck %s
// RUN: gac-opt --check-async %t.wide.spv -o /dev/null 2>&1 | FileCheck --check-prefix=PROVED %s
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.wide.spv -o %t.lowered.spv
// RUN: spirv-val --target-env opencl1.2 %t.lowered.spv
// Without the option, no test; --emit=ptx asks for it.
// RUN: gac-opt --pipeline-loops %t.raised.spv -o %t.one.spv 2>&1 | FileCheck --check-prefix=NONE %s
// RUN: gac-opt --pipeline-loops --emit=ptx --sm=80 %t.raised.spv -o %t.ptx 2>&1 | FileCheck --check-prefix=REMARK %s
// REMARK: remark: {{.*}}the pipelined loop issues 1 copy in 16-byte elements, taken where a test before it finds its pointers, offsets and strides 16-byte aligned (they change by multiples of 16 bytes an iteration); elsewhere the loop runs as written [Pipeline.WideCopies]
// ONE: {{^1$}}
// NONE-NOT: WideCopies
// PROVED: check-async: 7 proved, 0 violated, 0 cannot decide
// tiles: the prologue's and the body's copies in 16-byte elements (4 a
// line, constants divided as constants, the pitch and offsets by 4 at run
// time), then the loop as written's; its markers gone. halo and odd_step:
// the prologue's and the body's copies, as written.
// CHECK-DAG: [[U64:%[0-9]+]] = OpTypeInt 64 0
// CHECK-DAG: [[FOUR:%[0-9]+]] = OpConstant [[U64]] 4
// CHECK-DAG: [[SIXTEEN:%[0-9]+]] = OpConstant [[U64]] 16
// CHECK: OpFunction
// CHECK-COUNT-2: GroupAsyncCopy2D2D {{.*}}NumBytesPerElement=[[SIXTEEN]] NumElementsPerLine=[[FOUR]] NumLines=[[SIXTEEN]] SourceLineLength=%{{[0-9]+}} DestinationLineLength=[[FOUR]]
// CHECK: GroupAsyncCopy2D2D {{.*}}NumBytesPerElement=[[FOUR]]
// CHECK-NOT: Pipeline{{Loop|Statement}}
// CHECK: OpFunction
// CHECK-COUNT-2: GroupAsyncCopy2D2D {{.*}}NumBytesPerElement=[[FOUR]]
// CHECK-NOT: NumBytesPerElement=[[SIXTEEN]]
// CHECK: OpFunction
// CHECK-COUNT-2: GroupAsyncCopy2D2D {{.*}}NumBytesPerElement=[[FOUR]]
// CHECK-NOT: NumBytesPerElement=[[SIXTEEN]]
#define TS 16
#define HALO 18
/* A pipelined loop whose copy moves an EDGE x EDGE tile of floats, STEP
 * floats further each iteration. */
#define TILE_LOOP(name, EDGE, STEP)                                                                           \
  kernel void name(global const float *A, global float *C, uint n, uint pitch) {                              \
    local float T[EDGE * EDGE];                                                                               \
    float acc = 0.0f;                                                                                         \
    uint lx = get_local_id(0), ly = get_local_id(1);                                                          \
    for (uint t = 0; t < n; t++) {                                                                            \
      gac_pipeline_loop(GAC_ASYNC_STAGE(0));                                                                  \
      gac_pipeline_stage(0, 0);                                                                               \
      event_t e = async_work_group_copy_2D2D(T, 0, A, t * (STEP), sizeof(float), EDGE, EDGE, pitch, EDGE, 0); \
      wait_group_events(1, &e);                                                                               \
      gac_pipeline_stage(1, 1);                                                                               \
      acc += T[ly * EDGE + lx];                                                                               \
      barrier(CLK_LOCAL_MEM_FENCE);                                                                           \
    }                                                                                                         \
    C[get_global_id(1) * get_global_size(0) + get_global_id(0)] = acc;                                        \
  }
TILE_LOOP(tiles, TS, TS)
TILE_LOOP(halo, HALO, TS)
TILE_LOOP(odd_step, TS, 3)
