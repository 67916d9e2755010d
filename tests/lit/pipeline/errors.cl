// What --pipeline-loops cannot pipeline stays as written: a warning gives
// the reason, the loop's markers go, the module is written and valid, exit 0
// (as clang warns when a loop pragma cannot be honoured). A bad option is
// still an error.
// RUN: %clang-spir -DCASE=1 %s -o %t.1.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.1.bc -o %t.1.spv && gac-opt --sort-blocks --raise-async-copies %t.1.spv -o %t.1.raised.spv
// RUN: %clang-spir -DCASE=2 %s -o %t.2.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.2.bc -o %t.2.spv && gac-opt --sort-blocks --raise-async-copies %t.2.spv -o %t.2.raised.spv
// RUN: %clang-spir -DCASE=3 %s -o %t.3.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.3.bc -o %t.3.spv && gac-opt --sort-blocks --raise-async-copies %t.3.spv -o %t.3.raised.spv
// RUN: %clang-spir -DCASE=4 %s -o %t.4.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.4.bc -o %t.4.spv && gac-opt --sort-blocks --raise-async-copies %t.4.spv -o %t.4.raised.spv
// RUN: %clang-spir -DCASE=5 %s -o %t.5.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.5.bc -o %t.5.spv && gac-opt --sort-blocks --raise-async-copies %t.5.spv -o %t.5.raised.spv
// RUN: %clang-spir -DCASE=6 %s -o %t.6.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.6.bc -o %t.6.spv && gac-opt --sort-blocks --raise-async-copies %t.6.spv -o %t.6.raised.spv
// RUN: %clang-spir -DCASE=7 %s -o %t.7.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.7.bc -o %t.7.spv && gac-opt --sort-blocks --raise-async-copies %t.7.spv -o %t.7.raised.spv
// RUN: gac-opt --pipeline-loops %t.1.raised.spv -o %t.1.out 2>&1 | FileCheck --check-prefix=CROSS %s
// RUN: gac-opt --validate --print %t.1.out | FileCheck --check-prefix=AS-WRITTEN %s
// RUN: gac-opt --pipeline-loops %t.2.raised.spv -o %t.2.out 2>&1 | FileCheck --check-prefix=BRANCH %s
// RUN: gac-opt --validate --print %t.2.out | FileCheck --check-prefix=AS-WRITTEN %s
// RUN: gac-opt --pipeline-loops %t.3.raised.spv -o %t.3.out 2>&1 | FileCheck --check-prefix=PARAM %s
// RUN: gac-opt --validate --print %t.3.out | FileCheck --check-prefix=AS-WRITTEN %s
// RUN: gac-opt --pipeline-loops %t.4.raised.spv -o %t.4.out 2>&1 | FileCheck --check-prefix=BACKWARD %s
// RUN: gac-opt --validate --print %t.4.out | FileCheck --check-prefix=AS-WRITTEN %s
// RUN: gac-opt --pipeline-loops %t.5.raised.spv -o %t.5.out 2>&1 | FileCheck --check-prefix=AFTER-WAIT %s
// RUN: gac-opt --validate --print %t.5.out | FileCheck --check-prefix=AS-WRITTEN %s
// RUN: gac-opt --pipeline-loops %t.6.raised.spv -o %t.6.out 2>&1 | FileCheck --check-prefix=TWO-WRITERS %s
// RUN: gac-opt --validate --print %t.6.out | FileCheck --check-prefix=AS-WRITTEN %s
// RUN: %clang-spir -DCASE=8 %s -o %t.8.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.8.bc -o %t.8.spv && gac-opt --sort-blocks --raise-async-copies %t.8.spv -o %t.8.raised.spv
// RUN: gac-opt --pipeline-loops %t.8.raised.spv -o %t.8.out 2>&1 | FileCheck --check-prefix=NO-LOOP %s
// RUN: gac-opt --validate --print %t.8.out | FileCheck --check-prefix=AS-WRITTEN %s
// RUN: %expect-exit 1 gac-opt --pipeline-loops=fast %t.7.raised.spv -o %t.7.out 2>&1 | FileCheck --check-prefix=OPTION %s
// RUN: %clang-spir -DCASE=9 %s -o %t.9.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.9.bc -o %t.9.spv && gac-opt --sort-blocks --raise-async-copies %t.9.spv -o %t.9.raised.spv
// RUN: gac-opt --pipeline-loops %t.9.raised.spv -o %t.9.out 2>&1 | FileCheck --check-prefix=FENCE %s
// RUN: gac-opt --validate --print %t.9.out | FileCheck --check-prefix=AS-WRITTEN %s
// RUN: %clang-spir -DCASE=10 %s -o %t.10.bc && llvm-spirv-15 --spirv-max-version=1.0 %t.10.bc -o %t.10.spv && gac-opt --sort-blocks --raise-async-copies %t.10.spv -o %t.10.raised.spv
// RUN: gac-opt --pipeline-loops %t.10.raised.spv -o %t.10.out 2>&1 | FileCheck --check-prefix=AFTER-LOOP %s
// RUN: gac-opt --validate --print %t.10.out | FileCheck --check-prefix=AS-WRITTEN %s
// RUN: not test -e %t.7.out
// CROSS: warning: {{.*}}cannot pipeline the loop: %{{[0-9]+}}, computed by OpLoad in another statement, is used in statement 1: values cross statements only through memory; the loop stays as written [Pipeline.CrossingValue]
// BRANCH: warning: {{.*}}a PipelineStatement must be met on every path through the loop body (not under a branch, nor in an inner loop); the loop stays as written [Pipeline.StatementPlacement]
// PARAM: warning: {{.*}}the __local kernel argument %{{[0-9]+}} needs 2 versions, but its size is the host's to set; declare the array in the kernel instead; the loop stays as written [Pipeline.Buffers]
// BACKWARD: warning: {{.*}}statement 1 (stage 0, order 1) uses a buffer that statement 0 (stage 1, order 0) writes later in the same iteration{{.*}}[Pipeline.Schedule]
// AFTER-WAIT: warning: {{.*}}statement 0 (async stage 0) goes on after its wait_group_events; an async statement must end with its wait; the loop stays as written [Pipeline.AsyncStatement]
// TWO-WRITERS: warning: {{.*}}the Workgroup array %{{[0-9]+}} is written by statements 0 and 1; one statement must produce it; the loop stays as written [Pipeline.Buffers]
// NO-LOOP: warning: {{.*}}cannot pipeline the loop: PipelineLoop is not inside a loop; the loop stays as written [Pipeline.Loop]
// FENCE: warning: {{.*}}cannot pipeline the loop: the loop has an async_work_group_copy_fence (AsyncCopyFence), which orders its copies as written{{.*}}[Pipeline.Fence]
// AFTER-LOOP: warning: {{.*}}the Workgroup array %{{[0-9]+}} needs 2 versions, but this instruction outside the loop uses it; there it would see one version only, not the one the loop's last iteration used; the loop stays as written [Pipeline.Buffers]
// AS-WRITTEN: OpEntryPoint
// AS-WRITTEN-NOT: PipelineLoop
// OPTION: error: --pipeline-loops takes 'no-prune', 'late-waits', 'wide-copies', 'warp-specialize' and 'svg=FILE', not 'fast' [pipeline.option]
#if CASE == 8 /* no loop at all */
kernel void k(global float *out) {
  gac_pipeline_loop(GAC_ASYNC_STAGE(0));
  gac_pipeline_stage(0, 0);
  out[0] = 1;
}
#else
#define COPY(dst, i) async_work_group_copy_2D2D(dst, 0, in, (i) * 16, sizeof(float), 16, 1, 16, 16, 0)
kernel void k(global const float *in, global float *out, uint n, local float *param) {
  local float buf[16];
  uint l = get_local_id(0);
  for (uint i = 0; i < n; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
#if CASE == 1 /* a loaded value used in the next stage */
    gac_pipeline_stage(0, 0);
    float v = in[i];
    gac_pipeline_stage(1, 1);
    out[i] = v;
#elif CASE == 2 /* a statement under a branch */
    gac_pipeline_stage(0, 0);
    out[i] = 1;
    if (in[i] > 0) {
      gac_pipeline_stage(1, 1);
      out[i] = 2;
    }
#elif CASE == 3 /* a __local argument would need versions */
    gac_pipeline_stage(0, 0);
    event_t e = COPY(param, i);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    out[i * 16 + l] = param[l];
    barrier(CLK_LOCAL_MEM_FENCE);
#elif CASE == 4 /* a consumer in an earlier stage than its producer */
    gac_pipeline_stage(1, 0);
    event_t e = COPY(buf, i);
    wait_group_events(1, &e);
    gac_pipeline_stage(0, 1);
    out[i * 16 + l] = buf[l];
    barrier(CLK_LOCAL_MEM_FENCE);
#elif CASE == 5 /* an async statement that uses its copy itself */
    gac_pipeline_stage(0, 0);
    event_t e = COPY(buf, i);
    wait_group_events(1, &e);
    out[i * 16 + l] = buf[l];
    gac_pipeline_stage(1, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
#elif CASE == 9 /* a copy fence in the body */
    gac_pipeline_stage(0, 0);
    event_t e = COPY(buf, i);
    async_work_group_copy_fence(CLK_LOCAL_MEM_FENCE);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    out[i * 16 + l] = buf[l];
    barrier(CLK_LOCAL_MEM_FENCE);
#elif CASE == 6 /* two statements write one array */
    gac_pipeline_stage(0, 0);
    buf[l] = in[i];
    gac_pipeline_stage(1, 1);
    buf[l] += 1;
    out[i * 16 + l] = buf[l];
#elif CASE == 10 /* the tile read after the loop (below): which version holds the last one? */
    gac_pipeline_stage(0, 0);
    event_t e = COPY(buf, i);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    out[i * 16 + l] = buf[l];
    barrier(CLK_LOCAL_MEM_FENCE);
#else
    gac_pipeline_stage(0, 0);
    out[i] = 0;
#endif
  }
#if CASE == 10
  out[n * 16 + l] = buf[l];
#endif
}
#endif
