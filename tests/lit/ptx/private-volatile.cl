// A private variable marked volatile that no one else can see (CLBlast's
// Xgemm: `volatile int tid`) lives in a register, as NVIDIA's compiler
// keeps it (lowering/llvm/private_volatile.c); one whose address is
// stored where others may read it stays volatile.
// RUN: gac-cc --emit=ptx --sm=80 %s -o %t.ptx
// RUN: FileCheck %s < %t.ptx
// CHECK-LABEL: .entry hidden(
// CHECK-NOT: .local
// CHECK-NOT: ld.volatile
// CHECK: ret;
kernel void hidden(global float *out, global const float *in, int n) {
  volatile int tid = get_local_id(0) + 8 * get_local_id(1);
  float s = 0;
  for (int k = 0; k < n; k++)
    s += in[k * 64 + tid];
  out[tid] = s;
}

// CHECK-LABEL: .entry escapes(
// CHECK: st.volatile
// CHECK: ld.volatile
// CHECK: ret;
kernel void escapes(global float *out, global const float *in, int n, global ulong *where) {
  volatile int tid = get_local_id(0);
  *where = (ulong)&tid;
  float s = 0;
  for (int k = 0; k < n; k++)
    s += in[k * 64 + tid];
  out[tid] = s;
}
