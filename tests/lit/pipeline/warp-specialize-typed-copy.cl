// A ring's slots hold one element type (AsyncPipeline.PipeShape): a
// producer's copy that writes a tile as another type (a typed 1D copy,
// `(local long *)tile`, into a uchar tile), or a consumer that reads a
// ring's tile as another type, cannot be warp-specialised. The loop is then
// pipelined for every work-item, with a remark that says why, instead of an
// invalid module.
// RUN: %clang-spir -DCASE=1 %s -o %t.1.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.1.bc -o %t.1.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.1.spv -o %t.1.raised.spv
// RUN: gac-opt --pipeline-loops=warp-specialize --validate %t.1.raised.spv -o %t.1.ws.spv 2>&1 | FileCheck --check-prefix=WRITE %s
// RUN: gac-opt --emit=ptx --sm=90,warp-specialize %t.1.raised.spv -o %t.1.ptx
// RUN: %clang-spir -DCASE=2 %s -o %t.2.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.2.bc -o %t.2.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.2.spv -o %t.2.raised.spv
// RUN: gac-opt --pipeline-loops=warp-specialize --validate %t.2.raised.spv -o %t.2.ws.spv 2>&1 | FileCheck --check-prefix=READ %s
// RUN: gac-opt --emit=ptx --sm=90,warp-specialize %t.2.raised.spv -o %t.2.ptx
// WRITE: remark: {{.*}}not warp-specialised: a copy writes %{{[0-9a-z_.]+}} with another element type than its elements (the ring's slots hold one type); pipelined for every work-item instead [Pipeline.NotSpecialized]
// WRITE: remark: {{.*}}pipelined the loop
// READ: remark: {{.*}}not warp-specialised: a load reads %{{[0-9a-z_.]+}} as another type than its elements (the ring's slots hold one type); pipelined for every work-item instead [Pipeline.NotSpecialized]
// READ: remark: {{.*}}pipelined the loop
kernel __attribute__((reqd_work_group_size(64, 1, 1))) void k(global const uchar *in, global uchar *out, uint n) {
#if CASE == 1
  local uchar tile[512];
#else
  local uint tile[128];
#endif
  uint l = get_local_id(0);
  for (uint t = 0; t < n; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
#if CASE == 1
    event_t e = async_work_group_copy((local long *)tile, (global const long *)in + t * 64, 64, 0);
#else
    event_t e = async_work_group_copy_2D2D(tile, 0, in, t * 512, 4, 128, 1, 128, 128, 0);
#endif
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
#if CASE == 1
    out[t * 512 + l] = tile[l] + 1;
#else
    out[t * 512 + l] = ((local uchar *)tile)[l] + 1;
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
