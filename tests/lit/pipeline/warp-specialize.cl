// --pipeline-loops=warp-specialize (#14, seed 004): an annotated loop with
// a required work-group size becomes a producer warp that fills a ring of
// Pipe slots (acquire, the copies, commit) and consumers that wait for each
// slot and release it. A consumer that shares only the ring's buffers needs
// no barrier in the loop (CASE 1); one that shares another local array keeps
// its barriers as a Mutex, a named barrier of the consumers (CASE 2). Where
// the loop cannot be specialised a remark says why and it is pipelined for
// every work-item (CASE 3-5). The module validates, and only the PTX path
// on sm_90 lowers it.
// RUN: %clang-spir -DCASE=1 %s -o %t.1.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.1.bc -o %t.1.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.1.spv -o %t.1.raised.spv
// RUN: gac-opt --pipeline-loops=warp-specialize --validate %t.1.raised.spv -o %t.1.ws.spv 2>&1 | FileCheck --check-prefix=REMARK1 %s
// RUN: gac-opt --print %t.1.ws.spv | FileCheck --check-prefix=IR1 %s
// RUN: gac-opt --emit=ptx --sm=90 %t.1.ws.spv -o %t.1.ptx
// RUN: FileCheck --check-prefix=PTX1 %s < %t.1.ptx
// RUN: FileCheck --check-prefix=BAR1 %s < %t.1.ptx
// RUN: gac-opt --emit=ptx --sm=90,warp-specialize %t.1.raised.spv -o %t.1.direct.ptx 2>/dev/null
// RUN: FileCheck --check-prefix=PTX1 %s < %t.1.direct.ptx
// RUN: %expect-exit 1 gac-opt --emit=ptx --sm=80 %t.1.ws.spv -o %t.1.sm80.ptx 2>&1 | FileCheck --check-prefix=SM80 %s
// RUN: %expect-exit 1 gac-opt --lower-async-copies=opencl %t.1.ws.spv -o %t.1.cl.spv 2>&1 | FileCheck --check-prefix=OPENCL %s
// RUN: %clang-spir -DCASE=2 %s -o %t.2.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.2.bc -o %t.2.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.2.spv -o %t.2.raised.spv
// RUN: gac-opt --pipeline-loops=warp-specialize --validate %t.2.raised.spv -o %t.2.ws.spv 2>&1 | FileCheck --check-prefix=REMARK2 %s
// RUN: gac-opt --print %t.2.ws.spv | FileCheck --check-prefix=IR2 %s
// RUN: gac-opt --emit=ptx --sm=90 %t.2.ws.spv -o %t.2.ptx
// RUN: FileCheck --check-prefix=PTX2 %s < %t.2.ptx
// RUN: %clang-spir -DCASE=3 %s -o %t.3.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.3.bc -o %t.3.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.3.spv -o %t.3.raised.spv
// RUN: gac-opt --pipeline-loops=warp-specialize %t.3.raised.spv -o %t.3.ws.spv 2>&1 | FileCheck --check-prefix=NOSIZE %s
// RUN: %clang-spir -DCASE=4 %s -o %t.4.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.4.bc -o %t.4.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.4.spv -o %t.4.raised.spv
// RUN: gac-opt --pipeline-loops=warp-specialize %t.4.raised.spv -o %t.4.ws.spv 2>&1 | FileCheck --check-prefix=BEFORE %s
// RUN: %clang-spir -DCASE=5 %s -o %t.5.bc
// RUN: llvm-spirv-15 --spirv-max-version=1.0 %t.5.bc -o %t.5.spv
// RUN: gac-opt --sort-blocks --raise-async-copies %t.5.spv -o %t.5.raised.spv
// RUN: gac-opt --pipeline-loops=warp-specialize %t.5.raised.spv -o %t.5.ws.spv 2>&1 | FileCheck --check-prefix=SIZE %s

// REMARK1: remark: {{.*}}warp-specialised the loop: a producer warp (work-items 256..287) fills a ring of 3 slots, 256 consumers wait for each slot and release it; their barriers in the loop are dropped (they share only the ring's buffers, which the ring orders) [Pipeline.WarpSpecialized]
// REMARK1-NOT: error

// The handshakes, declared where every work-item passes; then the split.
// IR1: %[[PIPE:[0-9]+]] = OpExtInst %{{[0-9]+}} %{{[0-9]+}} Pipe Depth=%{{[0-9]+}} Stage=%{{[0-9]+}} Order=%{{[0-9]+}}
// IR1-NEXT: PipeBuffer Pipe=%[[PIPE]] Buffer=
// IR1-NEXT: PipeBuffer Pipe=%[[PIPE]] Buffer=
// IR1-NOT: Mutex
// IR1: OpUGreaterThanEqual
// IR1: PipeProducerAcquire Pipe=%[[PIPE]] Iteration=%[[PT:[0-9]+]]
// IR1: GroupAsyncCopy2D2D
// IR1: GroupAsyncCopy2D2D
// IR1: PipeProducerCommit Pipe=%[[PIPE]] Iteration=%[[PT]] Event=
// IR1: OpReturn
// IR1: WarpSpecialize ConsumerThreads=%{{[0-9]+}} ProducerThreads=%{{[0-9]+}}
// IR1: PipeConsumerWait Pipe=%[[PIPE]] Iteration=%[[CT:[0-9]+]]
// IR1-NOT: OpControlBarrier
// IR1: PipeConsumerRelease Pipe=%[[PIPE]] Iteration=%[[CT]]

// Full and empty rings of 3 mbarriers (32 producer lanes, 256 consumers),
// the producer lanes' cp.async completing on full[], parity waits, no
// barrier in the consumers' loop, and the block the host launches.
// PTX1: .visible .global .align 4 .u32 __gac_block_threads_mm = 288;
// PTX1: mbarrier.init.shared.b64
// PTX1: fence.mbarrier_init
// PTX1: bar.sync 0;
// PTX1: cp.async.cg.shared.global
// PTX1: cp.async.mbarrier.arrive.noinc.shared.b64
// PTX1: mbarrier.try_wait.parity.shared::cta.b64
// PTX1: fma.rn.f32
// PTX1: mbarrier.arrive.shared::cta.b64
// The rings' initialisation is the kernel's one barrier.
// BAR1-COUNT-1: bar.sync
// BAR1-NOT: bar.sync

// SM80: error: {{.*}}a warp-specialised loop needs sm_90{{.*}}[ptx.warp-specialize]
// OPENCL: error: {{.*}}a warp-specialised loop runs only on the PTX path{{.*}}[lower.warp-specialize]

// REMARK2: remark: {{.*}}fills a ring of 2 slots, 256 consumers wait for each slot and release it; their barriers in the loop are a named barrier of the consumers [Pipeline.WarpSpecialized]
// IR2: %[[MUTEX:[0-9]+]] = OpExtInst %{{[0-9]+}} %{{[0-9]+}} Mutex Barrier=%{{[0-9]+}} Threads=%{{[0-9]+}}
// IR2: PipeConsumerWait
// IR2: MutexSync Mutex=%[[MUTEX]]
// IR2: MutexSync Mutex=%[[MUTEX]]
// IR2: PipeConsumerRelease
// IR2-NOT: OpControlBarrier
// PTX2: bar.sync 0;
// PTX2: mbarrier.try_wait.parity
// PTX2: barrier.sync {{%r[0-9]+|1}}, {{%r[0-9]+|256}};

// NOSIZE: remark: {{.*}}not warp-specialised: the kernel has no reqd_work_group_size (the producer warp is added to a known size); pipelined for every work-item instead [Pipeline.NotSpecialized]
// NOSIZE: [Pipeline.Schedule]
// BEFORE: remark: {{.*}}not warp-specialised: the code before the loop does more than compute (OpStore %{{[0-9]+}}), and the producer warp runs it too; pipelined for every work-item instead [Pipeline.NotSpecialized]
// SIZE: remark: {{.*}}not warp-specialised: the work-group size 48 is not a multiple of 32 below 993; pipelined for every work-item instead [Pipeline.NotSpecialized]

#define TS 16
#if CASE == 3
#define REQD
#elif CASE == 5
#define REQD __attribute__((reqd_work_group_size(16, 3, 1)))
#else
#define REQD __attribute__((reqd_work_group_size(TS, TS, 1)))
#endif

#if CASE == 2
/* Rows then columns through a second local array the consumers share. */
kernel REQD void mm(global const float *in, global float *out, uint n, uint count) {
  local float tile[(TS + 2) * (TS + 2)], rows[(TS + 2) * TS];
  uint lx = get_local_id(0), ly = get_local_id(1), gx = get_group_id(0) * TS, pitch = n + 2;
  for (uint i = 0; i < count; i++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(tile, 0, in, i * TS * pitch + gx, sizeof(float), TS + 2, TS + 2, pitch,
                                           TS + 2, 0);
    wait_group_events(1, &e);
    gac_pipeline_stage(1, 1);
    for (uint y = ly; y < TS + 2; y += TS)
      rows[y * TS + lx] = tile[y * (TS + 2) + lx] + tile[y * (TS + 2) + lx + 2];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[(i * TS + ly) * n + gx + lx] = rows[ly * TS + lx] + rows[(ly + 2) * TS + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#else
kernel REQD void mm(global const float *A, global const float *B, global float *C, uint n) {
  local float As[TS * TS], Bs[TS * TS];
  uint lx = get_local_id(0), ly = get_local_id(1);
#if CASE == 4
  C[ly * n + lx] = 0; /* a store before the loop: the producer warp would run it too */
#endif
  float acc = 0;
  for (uint t = 0; t < n / TS; t++) {
    gac_pipeline_loop(GAC_ASYNC_STAGE(0));
    gac_pipeline_stage(0, 0);
    event_t e = async_work_group_copy_2D2D(As, 0, A, t * TS, sizeof(float), TS, TS, n, TS, 0);
    e = async_work_group_copy_2D2D(Bs, 0, B, t * TS * n, sizeof(float), TS, TS, n, TS, e);
    wait_group_events(1, &e);
    gac_pipeline_stage(2, 1);
    for (uint k = 0; k < TS; k++)
      acc += As[ly * TS + k] * Bs[k * TS + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[ly * n + lx] = acc;
}
#endif
