// sm_90: fence.proxy.async.shared::cta where generic writes of local memory
// can precede a bulk store (an async-proxy read) of it, or work-items'
// writes a bulk load (an async-proxy write) of it, and nowhere else
// (seed 002). The copy lowering fences before every bulk store; the fence
// pass keeps the fences a generic write reaches: a kernel starts clean,
// joins of branches and loops merge by "or", calls of unknown functions
// count as writes. -O0 keeps the shapes as written.
// RUN: clang-15 -cc1 -triple spir64-unknown-unknown -cl-std=CL1.2 -emit-llvm-bc -finclude-default-header -include %gac-include/gac/cl/extended_async_copies.h -no-opaque-pointers -O0 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: gac-opt --emit=ptx --sm=90 %t.spv -o %t.ptx
// RUN: FileCheck %s < %t.ptx

#define STORE(dst) \
  { event_t e = async_work_group_copy_2D2D(dst, 0, tile, 0, 4, 256, 1, 256, 256, 0); wait_group_events(1, &e); }

// Nothing written before the bulk store: no fence.
// CHECK-LABEL: .entry entry_clean(
// CHECK-NOT: fence.proxy.async
// CHECK: cp.async.bulk.global.shared::cta.bulk_group
// CHECK-NOT: fence.proxy.async
// CHECK: ret;
kernel void entry_clean(global float *out, local float *tile) { STORE(out) }

// Work-items write the tile, then it is stored: one fence, before the store.
// CHECK-LABEL: .entry written(
// CHECK: st.shared
// CHECK: fence.proxy.async.shared::cta;
// CHECK: bar.sync 0;
// CHECK: cp.async.bulk.global.shared::cta.bulk_group
// CHECK-NOT: fence.proxy.async
// CHECK: ret;
kernel void written(global float *out, local float *tile) {
  tile[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  STORE(out)
}

// Two stores with no write between them: only the first is fenced.
// CHECK-LABEL: .entry fence_once(
// CHECK: fence.proxy.async.shared::cta;
// CHECK: cp.async.bulk.global.shared::cta.bulk_group
// CHECK-NOT: fence.proxy.async
// CHECK: cp.async.bulk.global.shared::cta.bulk_group
// CHECK: ret;
kernel void fence_once(global float *out, global float *out2, local float *tile) {
  tile[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  STORE(out)
  STORE(out2)
}

// A write on one side of a branch reaches the store at the join.
// CHECK-LABEL: .entry branch(
// CHECK: fence.proxy.async.shared::cta;
// CHECK-NOT: fence.proxy.async
// CHECK: ret;
kernel void branch(global float *out, local float *tile, int c) {
  if (c)
    tile[get_local_id(0)] = 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  STORE(out)
}

// A write after the store in a loop reaches it round the back edge (without
// the loop, entry_clean has none).
// CHECK-LABEL: .entry loop(
// CHECK: fence.proxy.async.shared::cta;
// CHECK: ret;
kernel void loop(global float *out, local float *tile, int n) {
  for (int i = 0; i < n; i++) {
    STORE(out + i * 256)
    tile[get_local_id(0)] += 1.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// A call of a function that writes local memory counts as a write; one
// that only reads does not (unknown functions: sm90-fence-unknown-call.cl).
void writer(local float *t) { t[get_local_id(0)] = 2.0f; }
float reader(local float *t) { return t[get_local_id(0)]; }
// CHECK-LABEL: .entry calls_writer(
// CHECK: fence.proxy.async.shared::cta;
// CHECK: ret;
kernel void calls_writer(global float *out, local float *tile) {
  writer(tile);
  barrier(CLK_LOCAL_MEM_FENCE);
  STORE(out)
}
// CHECK-LABEL: .entry calls_reader(
// CHECK-NOT: fence.proxy.async
// CHECK: ret;
kernel void calls_reader(global float *out, local float *tile) {
  out[64 + get_local_id(0)] = reader(tile);
  STORE(out)
}

// A bulk load into a tile the work-items cleared (the CTS's copy-fence
// kernels): their writes and the load's both write the tile, through two
// proxies, so a fence and a barrier come before the load. A bulk load that
// no work-item's write reaches gets neither (the first one, at entry).
#define LOAD(src) \
  { event_t e = async_work_group_copy_2D2D(tile, 0, src, 0, 4, 256, 1, 256, 256, 0); wait_group_events(1, &e); }
// CHECK-LABEL: .entry cleared_then_loaded(
// CHECK-NOT: fence.proxy.async
// CHECK: cp.async.bulk.shared::cluster.global
// CHECK: st.shared
// CHECK: fence.proxy.async.shared::cta;
// CHECK: bar.sync 0;
// CHECK-NOT: st.shared
// CHECK: cp.async.bulk.shared::cluster.global
// CHECK: ret;
kernel void cleared_then_loaded(global float *out, global const float *in, local float *tile) {
  LOAD(in)
  out[get_local_id(0)] = tile[get_local_id(0)];
  tile[get_local_id(0)] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  LOAD(in + 256)
  out[256 + get_local_id(0)] = tile[get_local_id(0)];
}
