// Parts of one flat __local buffer at run-time offsets (issue #43), one
// kernel each: every tile its own part, t * N against (t + 1) * N (proved);
// halves by pointer arithmetic with 1D copies, buf + ((t & 1) ^ 1) * N, and
// with 3D copies (proved). Where the checker cannot decide, it says which
// fact it lacked: the copy's extent (a run-time number of lines), or a value
// the two parts share (the read's half is (u & 1) * N, u a kernel argument).
// With the waits dropped (NO_WAIT) the first three are violated: in the
// loop's first iteration the prologue's copy is read while in flight.
// RUN: gac-cc %s -o %t.spv
// RUN: gac-opt --check-async=verbose %t.spv 2>&1 | FileCheck %s
// RUN: gac-cc -DNO_WAIT %s -o %t.nowait.spv
// RUN: %expect-exit 1 gac-opt --check-async %t.nowait.spv 2>&1 | FileCheck --check-prefix=NOWAIT %s
// CHECK: proved: OpLoad reads %tiles_in_a_row.buf
// CHECK: proved: OpLoad reads %halves_1d.buf
// CHECK: cannot decide (the copy's extent in the buffer is not a constant: NumLines {{%[a-z.0-9]+}}): OpLoad reads %runtime_lines.buf
// CHECK: cannot decide (the copy's part and the access's are not affine in the same run-time value: the copy's bytes ((%t.{{[0-9]+}} - 1) mod 2) * 256 + 0 to 255, the access's bytes (%u mod 2) * 256 + 0 to 255): OpLoad reads %other_value.buf
// CHECK: proved: OpLoad reads %halves_3d.buf
// CHECK: check-async: 3 proved, 0 violated, 2 cannot decide
// NOWAIT: violated: OpLoad reads %tiles_in_a_row.buf {{.*}}(in the loop's first iteration)
// NOWAIT: violated: OpLoad reads %halves_1d.buf {{.*}}(in the loop's first iteration)
// NOWAIT: violated: OpLoad reads %halves_3d.buf {{.*}}(in the loop's first iteration)
// NOWAIT: check-async: 0 proved, 3 violated, 2 cannot decide
#define N 64
#define TILES 8
#ifdef NO_WAIT
#define WAIT(e)
#else
#define WAIT(e) wait_group_events(1, &(e))
#endif

/* Every tile its own part: tile t + 1 is copied to (t + 1) * N while tile t is read at t * N. */
__attribute__((reqd_work_group_size(N, 1, 1)))
kernel void tiles_in_a_row(global const float *in, global float *out) {
  local float buf[TILES * N];
  uint l = get_local_id(0);
  event_t e = async_work_group_copy_2D2D(buf, 0, in, 0, sizeof(float), N, 1, N, N, 0);
  for (uint t = 0; t < TILES; t++) {
    event_t next = e;
    if (t + 1 < TILES)
      next = async_work_group_copy_2D2D(buf, (t + 1) * N, in, (t + 1) * N, sizeof(float), N, 1, N, N, 0);
    WAIT(e);
    out[t * N + l] = buf[t * N + l];
    e = next;
  }
}

/* 1D copies into halves by pointer arithmetic: buf + ((t & 1) ^ 1) * N. */
__attribute__((reqd_work_group_size(N, 1, 1)))
kernel void halves_1d(global const float *in, global float *out, uint tiles) {
  local float buf[2 * N];
  uint l = get_local_id(0);
  event_t e = async_work_group_copy(buf, in, N, 0);
  for (uint t = 0; t < tiles; t++) {
    WAIT(e);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + 1 < tiles)
      e = async_work_group_copy(buf + (((t & 1) ^ 1) * N), in + (t + 1) * N, N, 0);
    out[t * N + l] = buf[(t & 1) * N + l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* A run-time number of lines: the copy's extent is not known. */
__attribute__((reqd_work_group_size(N, 1, 1)))
kernel void runtime_lines(global const float *in, global float *out, uint tiles, uint rows) {
  local float buf[2 * N * 4];
  uint l = get_local_id(0);
  event_t e = async_work_group_copy_2D2D(buf, 0, in, 0, sizeof(float), N, rows, N, N, 0);
  for (uint t = 0; t < tiles; t++) {
    wait_group_events(1, &e);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + 1 < tiles)
      e = async_work_group_copy_2D2D(buf, ((t & 1) ^ 1) * N * 4, in, (t + 1) * N, sizeof(float), N, rows, N, N, 0);
    out[t * N + l] = buf[(t & 1) * N * 4 + l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* The read's half is another value's: not related to the copy's. */
__attribute__((reqd_work_group_size(N, 1, 1)))
kernel void other_value(global const float *in, global float *out, uint tiles, uint u) {
  local float buf[2 * N];
  uint l = get_local_id(0);
  event_t e = async_work_group_copy_2D2D(buf, 0, in, 0, sizeof(float), N, 1, N, N, 0);
  for (uint t = 0; t < tiles; t++) {
    wait_group_events(1, &e);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + 1 < tiles)
      e = async_work_group_copy_2D2D(buf, ((t & 1) ^ 1) * N, in, (t + 1) * N, sizeof(float), N, 1, N, N, 0);
    out[t * N + l] = buf[(u & 1) * N + l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

/* 3D copies into halves: 2 planes of 4 lines of 8, the planes and lines packed. */
__attribute__((reqd_work_group_size(N, 1, 1)))
kernel void halves_3d(global const float *in, global float *out, uint tiles) {
  local float buf[2 * N];
  uint l = get_local_id(0);
  event_t e = async_work_group_copy_3D3D(buf, 0, in, 0, sizeof(float), 8, 4, 2, 16, 128, 8, 32, 0);
  for (uint t = 0; t < tiles; t++) {
    WAIT(e);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t + 1 < tiles)
      e = async_work_group_copy_3D3D(buf, ((t & 1) ^ 1) * N, in, (t + 1) * 256, sizeof(float), 8, 4, 2, 16, 128, 8, 32, 0);
    out[t * N + l] = buf[(t & 1) * N + l];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
