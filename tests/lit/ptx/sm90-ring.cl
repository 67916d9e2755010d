// sm_90: a 3-stage pipeline of global -> local copies on queue 0, lines of
// 1024 bytes (the benchmark's tile copy with W = 256), becomes
// bulk copies on a ring of 3 mbarriers (the deepest wait leaves 2 groups in
// flight): initialised once by one work-item, armed with expect_tx, the
// lines shared by the work-items, an arrive at each commit, parity waits
// by every work-item followed by a barrier; the cp.async fallback (for
// addresses not 16-byte aligned) keeps its wait_group counts.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O2 -DW=256 -DH=8 %S/../../../bench/cuda/tile_copy.cl -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --emit=ptx --sm=90 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK: .target sm_90
// CHECK-LABEL: .entry tile_copy(
// CHECK: .shared .align 16 .b8 __gac_mbarriers[24];
// CHECK-COUNT-3: mbarrier.init.shared.b64
// CHECK: fence.mbarrier_init.release.cluster;
// CHECK: bar.sync 0;
// CHECK: mbarrier.expect_tx.relaxed.cta.shared::cta.b64
// CHECK: cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes
// CHECK: mbarrier.arrive.shared::cta.b64 _,
// CHECK: cp.async.wait_group 2;
// CHECK: mbarrier.try_wait.parity.shared::cta.b64
// CHECK: bar.sync 0;
// CHECK: cp.async.wait_group 1;
// CHECK: cp.async.wait_group 0;
