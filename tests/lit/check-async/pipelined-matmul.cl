// The conformance suite's tiled matmul (conformance/kernels/pipelined.cl),
// pipelined in 3 stages: prologue 0, 1: copy, commit; body: wait(0,1) copy
// commit read; epilogue 0: wait(0,1) read; epilogue 1: wait(0,0) read. The
// body starts at k = min(2, n) and reads As[(k - 2) mod 3]: past the test
// k < n the start was 2, so k - 2 does not wrap, and the prologue's tiles
// are k - 2 and k - 1 there. All reads are proved: epilogue 0's too, as the
// checker keeps apart the paths where the body ran (there n >= 3) and where
// it did not (k = n <= 2, so with the epilogue's guard n >= 2, n = 2 and
// the prologue's tiles are n - 2 and n - 1).
// Mutants: the body's wait one too lax (1 -> 2), and no body wait: the
// body's reads are violated, from the first iteration on: the prologue's
// second copy is under `if (1 < n)`, and n > 2 in the body, so it is in
// flight on every path that reaches the reads.
// RUN: %clang-spir -DSTAGES=3 %s -o %t.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.bc -o %t.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.spv -o %t.raised.spv
// RUN: gac-opt --pipeline-loops %t.raised.spv -o %t.pipelined.spv
// RUN: gac-opt --check-async=verbose %t.pipelined.spv 2>&1 | FileCheck --check-prefix=OK %s
// RUN: gac-opt --print %t.pipelined.spv > %t.pipelined.spvasm
// RUN: python3 -c "import re,sys; s=open(sys.argv[1]).read(); one=re.search(r'(%%\w+) = OpConstant %%\w+ 1\n',s).group(1); two=re.search(r'(%%\w+) = OpConstant %%\w+ 2\n',s).group(1); w=re.findall(r'(.*AsyncWait Queue=\S+ InFlight=)'+one+r'\n',s)[0]; open(sys.argv[2],'w').write(s.replace(w+one+'\n',w+two+'\n',1)); open(sys.argv[3],'w').write(s.replace(w+one+'\n','',1))" %t.pipelined.spvasm %t.lax.spvasm %t.nowait.spvasm
// RUN: gac-as %t.lax.spvasm -o %t.lax.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.lax.spv 2>&1 | FileCheck --check-prefix=LAX %s
// RUN: gac-as %t.nowait.spvasm -o %t.nowait.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.nowait.spv 2>&1 | FileCheck --check-prefix=NOWAIT %s
// OK: proved: OpLoad reads %matmul.As[({{%[0-9]+}} - 2) mod 3]
// OK: proved: OpLoad reads %matmul.Bs[({{%[0-9]+}} - 2) mod 3]
// OK: proved: OpLoad reads %matmul.As[({{%[0-9]+}} - 2) mod 3]
// OK: proved: OpLoad reads %matmul.Bs[({{%[0-9]+}} - 2) mod 3]
// OK: proved: OpLoad reads %matmul.As[({{%[0-9]+}} - 1) mod 3]
// OK: proved: OpLoad reads %matmul.Bs[({{%[0-9]+}} - 1) mod 3]
// OK: check-async: 6 proved, 0 violated, 0 cannot decide
// LAX: violated: OpLoad reads %matmul.As[([[K:%[0-9]+]] - 2) mod 3] while async copy into %matmul.As[([[K]] - 2) mod 3] ({{%[0-9]+}}) is in flight: {{.*}} (queue 0, in flight 2) leaves it in flight
// LAX: check-async: 4 proved, 2 violated, 0 cannot decide
// NOWAIT: violated: OpLoad reads %matmul.As[([[K:%[0-9]+]] - 2) mod 3] while async copy into %matmul.As[([[K]] - 2) mod 3] ({{%[0-9]+}}) is in flight: {{.*}} and no wait on the queue since
// NOWAIT: check-async: 4 proved, 2 violated, 0 cannot decide
#define TS 16
kernel void matmul(global const float *A, global const float *B, global float *C, uint n) {
  local float As[TS * TS], Bs[TS * TS];
  uint lx = get_local_id(0), ly = get_local_id(1);
  uint gx = get_group_id(0) * TS, gy = get_group_id(1) * TS;
  float acc = 0;
  for (uint t = 0; t < n / TS; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, gy * n + t * TS, sizeof(float), TS, TS, n, TS, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * TS * n + gx, sizeof(float), TS, TS, n, TS, e);
    wait_group_events(1, &e);
    gac_pipeline_stage(STAGES - 1, 1);
    for (uint k = 0; k < TS; k++)
      acc += As[ly * TS + k] * Bs[k * TS + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[(gy + ly) * n + gx + lx] = acc;
}
