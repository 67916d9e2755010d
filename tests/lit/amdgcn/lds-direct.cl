// LDS-direct copies and counted waits (--lower-async-copies=amdgcn, and
// --emit=amdgcn): the SGEMM of bench/cuda (32 x 32 float tiles of A and B
// per step, 256 work-items = 4 waves), pipelined in 3 stages. A tile is 32
// lines of 32 units of 4 bytes: a line is one chunk (one LDS-direct load,
// up to 64 lanes), so 32 chunks over 4 waves = 8 loads per wave per tile,
// 16 per step. With one step left in flight the
// wait is vmcnt(16), not 0; the empty groups of the short-loop path are
// padded to 16 loads that do nothing, so that the count holds on every
// path; barriers are s_barrier after lgkmcnt(0), without vmcnt(0). A
// wave's 8 loads per tile are straight-line (no loop, no branch: each load
// masks off its own idle lanes), and commits and waits carry the markers
// gac-isa-check reads (isa-check.test).
// RUN: gac-cc %S/../../../bench/cuda/sgemm.cl -o %t.spv
// RUN: gac-opt --pipeline-loops %t.spv -o %t.piped.spv
// RUN: gac-opt --lower-async-copies=amdgcn,mcpu=gfx942 %t.piped.spv --print | FileCheck %s --check-prefix=SPIRV
// RUN: gac-opt --emit=amdgcn --mcpu=gfx942 %t.piped.spv -o %t.gfx942.s
// RUN: FileCheck %s --check-prefix=GFX942 < %t.gfx942.s
// RUN: gac-opt --emit=amdgcn --mcpu=gfx90a %t.piped.spv -o %t.gfx90a.s
// RUN: FileCheck %s --check-prefix=GFX90A < %t.gfx90a.s
// SPIRV-DAG: OpName [[LOAD:%[0-9]+]] "__gac_amdgcn_lds_load_4"
// SPIRV-DAG: OpName [[WAIT:%[0-9]+]] "__gac_amdgcn_wait_vm"
// SPIRV-DAG: OpName [[PAD:%[0-9]+]] "__gac_amdgcn_commit"
// SPIRV-DAG: [[SIXTEEN:%[0-9]+]] = OpConstant [[UINT:%[0-9]+]] 16
// SPIRV-DAG: [[ONE:%[0-9]+]] = OpConstant [[UINT]] 1{{$}}
// SPIRV-DAG: [[ZERO:%[0-9]+]] = OpConstant [[UINT]] 0{{$}}
// SPIRV-DAG: OpFunctionCall %{{[0-9]+}} [[PAD]] [[ZERO]] [[SIXTEEN]]
// SPIRV-DAG: OpFunctionCall %{{[0-9]+}} [[WAIT]] [[SIXTEEN]] [[ZERO]] [[ONE]]
// SPIRV-DAG: OpFunctionCall %{{[0-9]+}} [[LOAD]] %
// SPIRV-NOT: AsyncCommit
// SPIRV-NOT: GroupAsyncCopy2D2D
// GFX942: s_and_saveexec_b64 [[SAVE:s\[[0-9]+:[0-9]+\]]], s[{{[0-9]+:[0-9]+}}]
// GFX942-NEXT: global_load_lds_dword
// GFX942-NEXT: s_mov_b64 exec, [[SAVE]]
// GFX942-COUNT-7: global_load_lds_dword
// GFX942: __gac_c0_{{[0-9]+}}:
// GFX942-NEXT: s_nop 0
// GFX942: __gac_w0_1_{{[0-9]+}}:
// GFX942-NEXT: s_waitcnt vmcnt(16)
// GFX942-NOT: vmcnt
// GFX942: s_waitcnt lgkmcnt(0)
// GFX942-NEXT: s_barrier
// GFX90A: global_load_dword v[{{[0-9]+:[0-9]+}}], off lds
// GFX90A: s_waitcnt vmcnt(16)
