// sm_90, warp-specialised (#14): a producer's copy whose lines are 1024 bytes
// (256 floats) becomes bulk copies where the addresses allow (checked at run
// time), completing on the ring slot's full mbarrier: lane 0 of the
// producer adds the bytes with expect_tx, the lanes share the lines; where
// they do not allow, cp.async units; either way each lane's
// cp.async.mbarrier.arrive.noinc counts for the slot. No other ring (no
// __gac_mbarriers): the producer's acquire freed the slot.
// RUN: %clang-spir %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --emit=ptx --sm=90,warp-specialize %t.raised.spv -o %t.ptx 2>&1 | FileCheck --check-prefix=REMARK %s
// RUN: FileCheck %s < %t.ptx
// RUN: FileCheck --check-prefix=NOINC %s < %t.ptx
// RUN: FileCheck --check-prefix=NORING %s < %t.ptx
// NORING-NOT: __gac_mbarriers
// REMARK: [Pipeline.WarpSpecialized]
// CHECK: .visible .global .align 4 .u32 __gac_block_threads_rows = 288;
// CHECK: .shared .align {{[0-9]+}} .b8 __gac_full[24];
// CHECK: mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [[[FULL:%r[0-9]+]]], {{%r[0-9]+}};
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [{{%r[0-9]+}}], [{{%rd[0-9]+}}], {{%r[0-9]+}}, [[[FULL]]];
// NOINC: cp.async.mbarrier.arrive.noinc.shared.b64
// NOINC: cp.async.ca.shared.global
kernel __attribute__((reqd_work_group_size(64, 4, 1))) void rows(global const float *in, global float *out, uint n) {
  local float tile[8 * 64];
  uint lx = get_local_id(0), ly = get_local_id(1);
  float acc = 0;
  for (uint t = 0; t < n; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(tile, 0, in, t * 8 * 64, sizeof(float), 256, 2, 256, 256, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(2, 1);
    acc += tile[ly * 64 + lx] + tile[(ly + 4) * 64 + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[get_global_id(1) * 64 + lx] = acc;
}
