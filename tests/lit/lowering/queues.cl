// AsyncCommit/AsyncWait from OpenCL C: raised, then lowered. With the
// driver's copies (lines), a ring of events per queue (K = 8 since one wait
// count is a runtime value), with OpGroupWaitEvents on exactly the groups
// older than the N most recent. With copies the work-items move (the
// default, cooperative), a copy is done when they return from it: each
// wait is a barrier, and no event or wait of the driver's is left.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O0 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --raise-async-copies --validate %t.spv -o %t.raised.spv
// RUN: gac-opt --print %t.raised.spv | FileCheck --check-prefix=RAISED %s
// RUN: gac-opt --print %t.raised.spv | gac-as - -o %t.again.spv
// RUN: cmp %t.raised.spv %t.again.spv
// RUN: gac-opt --lower-async-copies=opencl,strategy=lines --validate --target-env=opencl1.2 %t.raised.spv -o %t.lowered.spv
// RUN: spirv-val --target-env opencl1.2 %t.lowered.spv
// RUN: gac-opt --print %t.lowered.spv | FileCheck --check-prefix=LOWERED %s
// RAISED: [[SET:%[0-9]+]] = OpExtInstImport "NonSemantic.Gac.AsyncPipeline"
// RAISED: OpExtInst %{{[0-9]+}} [[SET]] AsyncCommit Queue=[[Q:%[0-9]+]] Event=%{{[0-9]+}}
// RAISED: OpExtInst %{{[0-9]+}} [[SET]] AsyncWait Queue=[[Q]] InFlight=%{{[0-9]+}}
// RAISED: OpExtInst %{{[0-9]+}} [[SET]] AsyncWait Queue=[[Q]] InFlight=%{{[0-9]+}}
// LOWERED-NOT: NonSemantic
// LOWERED-DAG: [[EIGHT:%[0-9]+]] = OpConstant %{{[0-9]+}} 8
// LOWERED-DAG: OpTypeArray %{{[0-9]+}} [[EIGHT]]
// LOWERED: OpGroupWaitEvents
// LOWERED-NOT: Async{{Commit|Wait}}
// RUN: gac-opt --lower-async-copies=opencl --validate --target-env=opencl1.2 %t.raised.spv -o %t.coop.spv
// RUN: spirv-val --target-env opencl1.2 %t.coop.spv
// RUN: gac-opt --print %t.coop.spv | FileCheck --check-prefix=COOP --implicit-check-not=OpGroupWaitEvents --implicit-check-not=OpGroupAsyncCopy --implicit-check-not=OpTypeArray --implicit-check-not=NonSemantic %s
// The two waits, one after the other: one barrier, then the read.
// COOP: OpControlBarrier
// COOP-NOT: OpControlBarrier
// COOP: OpLoad
kernel void q(global float *in, global float *out, local float *buf, uint n) {
  for (uint i = 0; i < 4; i++)
    gac_async_commit(0, async_work_group_copy_2D2D(buf, i * 16, in, i * 16, 4, 16, 1, 16, 16, 0));
  gac_async_wait(0, n);
  gac_async_wait(0, 0);
  out[get_local_id(0)] = buf[get_local_id(0)];
}
