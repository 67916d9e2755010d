// The conformance suite's stencil (conformance/kernels/pipelined.cl),
// pipelined in 3 stages: stage 0 copies a tile with its halo into
// tile[(k) mod 2], stage 1 reads it through pointer arithmetic,
// r = tile[v] + y * 18 + lx, r[0..2], with y < 18 by its loop.
// Whether r[2] stays inside version v (324 floats) depends on the local
// id: with reqd_work_group_size(16, 16, 1), lx <= 15 and the last byte read
// is 4 * (17 * 18 + 15 + 2) + 3 < 1296, so every read is proved. Without
// it the local size is a run-time value and a large lx reaches the next
// version: cannot decide, and the diagnostic says so.
// In 4 stages (reqd_work_group_size) the tile is read 2 stages after its
// copy; the epilogue's first step runs under n >= 2, and where the body ran
// no iteration n is 2 or 3: the prologue's third copy (under `if (2 < n)`)
// is in flight only where n = 3, where it is tile[n - 1], not the tile
// [n - 2] read: proved too.
// RUN: %clang-spir -DSTAGES=3 -DREQD %s -o %t.reqd.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.reqd.bc -o %t.reqd.spv
// RUN: gac-opt --sort-blocks --raise-async-copies --pipeline-loops %t.reqd.spv -o %t.reqd.pipelined.spv
// RUN: gac-opt --check-async %t.reqd.pipelined.spv 2>&1 | FileCheck --check-prefix=REQD %s
// RUN: %clang-spir -DSTAGES=4 -DREQD %s -o %t.reqd4.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.reqd4.bc -o %t.reqd4.spv
// RUN: gac-opt --sort-blocks --raise-async-copies --pipeline-loops %t.reqd4.spv -o %t.reqd4.pipelined.spv
// RUN: gac-opt --check-async %t.reqd4.pipelined.spv 2>&1 | FileCheck --check-prefix=REQD4 %s
// RUN: %clang-spir -DSTAGES=3 %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies --pipeline-loops %t.spv -o %t.pipelined.spv
// RUN: gac-opt --check-async %t.pipelined.spv 2>&1 | FileCheck --check-prefix=ANY %s
// REQD: check-async: 9 proved, 0 violated, 0 cannot decide
// REQD4: check-async: 12 proved, 0 violated, 0 cannot decide
// ANY: cannot decide (pointer arithmetic by get_local_id(0) may leave the version: the kernel fixes no work-group size (reqd_work_group_size) that would bound it): OpLoad reads %stencil.tile[?]
// ANY: check-async: 3 proved, 0 violated, 6 cannot decide
#define TS 16
#define MID (STAGES > 2 ? STAGES - 2 : 1)
#ifdef REQD
#define SIZE __attribute__((reqd_work_group_size(TS, TS, 1)))
#else
#define SIZE
#endif
kernel SIZE void stencil(global const float *in, global float *out, uint n, uint count) {
  local float tile[(TS + 2) * (TS + 2)], rows[(TS + 2) * TS];
  uint lx = get_local_id(0), ly = get_local_id(1), gx = get_group_id(0) * TS, pitch = n + 2;
  for (uint i = 0; i < count; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    uint gy = (get_group_id(1) * count + i) * TS;
    event_t e = async_work_group_copy_2D2D(tile, 0, in, gy * pitch + gx, sizeof(float), TS + 2, TS + 2, pitch,
                                           TS + 2, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(MID, 1);
    for (uint y = ly; y < TS + 2; y += TS) {
      const local float *r = tile + y * (TS + 2) + lx;
      rows[y * TS + lx] = 0.25f * r[0] + 0.5f * r[1] + 0.25f * r[2];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    gac_pipeline_stage(STAGES - 1, 2);
    uint oy = (get_group_id(1) * count + i) * TS + ly;
    out[oy * n + gx + lx] = 0.25f * rows[ly * TS + lx] + 0.5f * rows[(ly + 1) * TS + lx] + 0.25f * rows[(ly + 2) * TS + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
